"""A family on a phone (390 × 844, Debian's Chromium): the search lands on its results, a game page
says at once whether a copy is on the shelf, nothing scrolls sideways, and axe finds no serious fault."""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from tests.axe import PHONE, serious_violations, session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]


@pytest.fixture
def demo(transactional_db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", "--force", stdout=StringIO())


@pytest.fixture
def phone(browser):
    context = browser.new_context(locale="fr-BE", viewport=PHONE)
    blocked: list[str] = []
    tab = context.new_page()
    tab.on("console", lambda m: blocked.append(m.text) if "Content Security Policy" in m.text else None)
    yield tab
    context.close()
    assert not blocked, f"blocked by the Content-Security-Policy: {blocked}"


def document_width(tab) -> int:
    return tab.evaluate("document.documentElement.scrollWidth")


def in_first_screen(locator) -> bool:
    box = locator.bounding_box()
    return box is not None and box["y"] >= 0 and box["y"] + box["height"] <= PHONE["height"]


def test_a_search_from_the_home_page_lands_on_its_results(phone, live_server, demo):
    phone.goto(f"{live_server.url}/")
    phone.get_by_label("Âges des joueurs").fill("6, 9")
    phone.get_by_label("Temps disponible (minutes)").fill("30")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Chercher").click()
    # The criteria are folded into one line; the first result is on the first screen.
    assert phone.locator(".criteria-summary").inner_text() == "2 joueurs (6, 9 ans) · 30 min au plus"
    assert not phone.locator(".search-form").is_visible()
    first = phone.locator(".game-result").first
    assert in_first_screen(first.locator("h3")) and in_first_screen(first.locator(".shelf-status"))
    assert document_width(phone) <= PHONE["width"]
    # « Modifier » opens the criteria again, filled in, without any script.
    phone.get_by_text("Modifier").click()
    assert phone.get_by_label("Âges des joueurs").input_value() == "6, 9"


def test_the_search_page_submitted_again_lands_on_the_results(phone, live_server, demo):
    phone.goto(f"{live_server.url}/jeux/")
    phone.get_by_label("Âges des joueurs").fill("6, 9, 38")
    with phone.expect_navigation():
        phone.get_by_role("button", name="Chercher").click()
    assert phone.locator(".criteria-summary").is_visible()
    assert in_first_screen(phone.locator("#results-heading"))
    assert in_first_screen(phone.locator(".game-result").first.locator("h3"))
    assert document_width(phone) <= PHONE["width"]


def test_a_game_page_says_at_once_whether_a_copy_is_on_the_shelf(phone, live_server, demo):
    for slug in ("les-colons-de-catane", "la-chasse-aux-monstres", "7-wonders", "luxor"):
        phone.goto(f"{live_server.url}/jeux/{slug}/")
        status = phone.locator(".notice-head .shelf-status")
        assert in_first_screen(status), slug
        assert status.inner_text().startswith(
            (
                "En rayon à",
                "Tous sortis — retour prévu le",
                "Tous sortis — en retard depuis le",
                "Pas d'exemplaire",
            )
        )
        assert document_width(phone) <= PHONE["width"], slug


def test_axe_finds_no_serious_fault_on_home_results_game_page_and_account(browser, live_server, demo):
    public = ["/", "/jeux/?ages=6,9,38", "/jeux/?q=xylophone&duree_max=20", "/jeux/les-colons-de-catane/"]
    assert serious_violations(browser, public, base_url=live_server.url) == {}
    family = get_user_model().objects.get(username="famille")
    assert serious_violations(browser, ["/compte/"], base_url=live_server.url, user=family) == {}


def test_the_family_account_does_not_scroll_sideways_on_a_phone(phone, live_server, demo):
    family = get_user_model().objects.get(username="famille")
    phone.context.add_cookies([session_cookie(family, live_server.url)])
    phone.goto(f"{live_server.url}/compte/")
    assert phone.locator("h1").inner_text() == "Compte d'Alex Tartempion"
    assert document_width(phone) <= PHONE["width"]
