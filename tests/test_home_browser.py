"""The home page on a phone (390 px) and on a computer, in Debian's Chromium: the search first, then
covers to tap, then how to join; nothing runs off the side of the screen, nothing serious for axe."""

from decimal import Decimal

import pytest

from catalogue.models import Game, Location
from tests.axe import serious_violations
from tests.loan_helpers import make_copy, make_game, make_membership_type
from tests.notice_helpers import open_wednesdays_and_saturdays

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


def _world() -> list[Game]:
    make_membership_type(name="Famille (1 an)", price=Decimal("25.00"))
    site = Location.objects.create(
        name="Maison des Enfants", address="Rue de l'Exemple 12\n1000 Bruxelles", phone="02 000 00 00"
    )
    open_wednesdays_and_saturdays(site)
    games = [make_game(f"Jeu numéro {number}") for number in range(8)]
    for number, game in enumerate(games):
        make_copy(game, f"J{number}")
    return games


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_home_page_welcomes_with_the_search_first(page, live_server, viewport):
    games = _world()
    page.set_viewport_size(viewport)
    page.goto(live_server.url + "/")
    search = page.get_by_role("search")
    new_titles = page.get_by_role("heading", name="Nouveautés")
    join = page.get_by_role("heading", name="Devenir membre")
    # The search box is on the first screen, above the covers, above how to join.
    assert search.bounding_box()["y"] + search.bounding_box()["height"] <= viewport["height"] + 100
    assert search.bounding_box()["y"] < new_titles.bounding_box()["y"] < join.bounding_box()["y"]
    covers = page.locator(".covers").first.locator("li")
    assert covers.count() == 6
    first, second = covers.nth(0).bounding_box(), covers.nth(1).bounding_box()
    assert first["width"] >= 90  # large enough to tap, side by side
    assert second["x"] > first["x"] and abs(second["y"] - first["y"]) < 2
    assert page.get_by_text("Famille (1 an) : 25,00").is_visible()
    assert page.get_by_text("Rue de l'Exemple 12").is_visible()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")

    with page.expect_navigation():
        covers.nth(0).get_by_role("link").click()
    assert page.url == live_server.url + games[-1].get_absolute_url()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_the_home_page_has_no_serious_accessibility_violation(browser, live_server, viewport):
    _world()
    assert serious_violations(browser, ["/"], base_url=live_server.url, viewport=viewport) == {}
