"""axe finds no serious fault on the desk's pages, with their flash messages, on a phone and a desktop.

A flash message (« prêté », « en place ») or a refusal is shown after a scan, so each page is driven
as a volunteer does (the scanner types the code and Enter), then checked where it stands.
"""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from catalogue.models import Copy
from members.models import Member
from tests.axe import PHONE, axe_tab, page_violations
from tests.desk_browser import scan

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def demo(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", "--force", stdout=StringIO())
    return get_user_model().objects.get(username="benevole")


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_family_page_with_its_tables_and_a_loan_message_has_no_serious_fault(
    browser, live_server, demo, viewport
):
    family = Member.objects.get(card_barcode="M0002")
    on_shelf = Copy.objects.available().exclude(status=Copy.Status.INCOMPLETE).order_by("barcode").first()
    with axe_tab(browser, base_url=live_server.url, user=demo, viewport=viewport) as page:
        page.goto(live_server.url + family.get_absolute_url())
        assert page_violations(page) == []
        scan(page, on_shelf.barcode)
        assert "prêté" in page.locator(".messages").inner_text()
        assert page_violations(page) == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_refusal_at_the_desk_has_no_serious_fault(browser, live_server, demo, viewport):
    expired = Member.objects.get(card_barcode="M0004")
    on_shelf = Copy.objects.available().exclude(status=Copy.Status.INCOMPLETE).order_by("barcode").first()
    with axe_tab(browser, base_url=live_server.url, user=demo, viewport=viewport) as page:
        page.goto(live_server.url + expired.get_absolute_url())
        page.locator("#id_barcode").fill(on_shelf.barcode)
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert "a expiré le" in page.locator("[role=alert]").first.inner_text()
        assert page_violations(page) == []


@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_stocktake_scan_and_its_message_have_no_serious_fault(browser, live_server, demo, viewport):
    with axe_tab(browser, base_url=live_server.url, user=demo, viewport=viewport) as page:
        page.goto(live_server.url + "/inventaire/")
        with page.expect_navigation():
            page.get_by_role("button", name="Commencer").click()
        scan(page, "90461")
        assert page.locator(".messages").inner_text()
        assert page_violations(page) == []
