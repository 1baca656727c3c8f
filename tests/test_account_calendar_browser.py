"""A family adds its calendar to its agenda from /compte/ on a phone and on a computer: « Ajouter à mon
agenda » is a webcal:// link, « Copier l'adresse » puts the address on the clipboard, in Debian's Chromium."""

import pytest

from tests.axe import serious_violations
from tests.conftest import PASSWORD
from tests.loan_helpers import make_family_user, make_member

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_family_copies_its_calendar_address(page, live_server, viewport):
    alex = make_member("M0001", "Alex Tartempion", user=make_family_user())
    page.context.grant_permissions(["clipboard-read", "clipboard-write"], origin=live_server.url)
    page.set_viewport_size(viewport)
    page.goto(live_server.url + "/connexion/")
    page.fill("#id_username", "M0001")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    with page.expect_navigation():
        page.get_by_role("button", name="Créer l'adresse de mon calendrier").click()
    alex.refresh_from_db()
    address = f"{live_server.url}/compte/calendrier/{alex.calendar_token}.ics"

    add = page.get_by_role("link", name="Ajouter à mon agenda")
    assert add.get_attribute("href") == "webcal://" + address.split("://", 1)[1]
    copy = page.get_by_role("button", name="Copier l'adresse")
    assert add.is_visible() and copy.is_visible()
    # The long address is folded away: nothing runs off the side of a phone.
    assert not page.locator("code.feed-url").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    copy.click()
    status = page.locator("#calendar-copied")
    status.filter(has_text="Adresse copiée").wait_for()
    assert page.evaluate("navigator.clipboard.readText()") == address


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_account_with_its_calendar_has_no_serious_accessibility_violation(browser, live_server, viewport):
    alex = make_member("M0001", "Alex Tartempion", user=make_family_user())
    alex.calendar_token_renew()
    found = serious_violations(
        browser, ["/compte/"], base_url=live_server.url, user=alex.user, viewport=viewport
    )
    assert found == {}
