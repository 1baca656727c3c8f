"""The Content-Security-Policy (Django's own): no inline script anywhere, and the pages still work.

Every browser test runs under it (tests/conftest.py's `page` fails on anything it blocks); this
file visits the pages with scripts or unusual content that no other browser test opens.
"""

import re

import pytest
from django.urls import reverse

from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db
INLINE_SCRIPT = r'<script(?![^>]*\b(?:src=|type="application/json"))[^>]*>'


def policy(response) -> dict[str, list[str]]:
    header = response["Content-Security-Policy"]
    return {part.split()[0]: part.split()[1:] for part in header.split("; ")}


def test_every_page_carries_a_policy_without_inline_scripts_or_styles(client):
    rules = policy(client.get("/"))
    assert rules["script-src"] == ["'self'"] and rules["style-src"] == ["'self'"]
    assert rules["object-src"] == ["'none'"] and rules["frame-ancestors"] == ["'none'"]
    assert "'unsafe-inline'" not in " ".join(value for values in rules.values() for value in values)


@pytest.mark.parametrize(
    "url", ["/", "/jeux/", "/regles/", "/regles/biblios/", "/regles/biblios/feuille-de-score/"]
)
def test_the_pages_hold_no_inline_script_nor_style(client, url):
    html = client.get(url).content.decode()
    # A JSON data block (`json_script`) is data, never run: the policy allows it.
    assert not re.search(INLINE_SCRIPT, html), "an inline <script>"
    assert not re.search(r"<style\b|\sstyle=", html), "an inline style"


def test_the_api_docs_have_no_inline_script(client):
    html = client.get("/api/docs/").content.decode()
    assert not re.search(INLINE_SCRIPT, html) and "<style" not in html
    script = client.get("/api/docs/?script=")
    assert script.status_code == 200 and script["Content-Type"].startswith("application/javascript")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_desk_statistics_the_admin_and_the_api_docs_work_under_the_policy(page, live_server, staff_user):
    from django.utils import timezone

    from loans.models import Loan

    Loan.objects.create(
        copy=make_copy(make_game("Quarto"), "90468"),
        member=make_member("M1"),
        lent_by=staff_user,
        due_on=timezone.localdate(),
    )
    page.goto(live_server.url + "/connexion/?next=/comptoir/statistiques/")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    # The monthly bars are <meter>s now: no inline width.
    assert page.locator("meter.bar").count() == 12
    assert page.locator("meter.bar").last.get_attribute("value") == "100"
    page.goto(live_server.url + reverse("admin:catalogue_game_changelist"))
    page.locator("#result_list").wait_for()
    page.goto(live_server.url + "/api/docs/")
    page.get_by_text("/api/games/", exact=True).first.wait_for()
