"""A family searches the demo catalogue in a real browser (Debian's Chromium), without JavaScript help."""

import re
from io import StringIO
from urllib.parse import urlsplit

import pytest
from django.core.management import call_command

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]


@pytest.fixture
def demo(transactional_db):
    call_command("load_demo", "--force", stdout=StringIO())


def result_titles(page) -> list[str]:
    return page.locator(".game-result h3").all_inner_texts()


def test_a_family_of_three_with_35_minutes_finds_the_monster_hunt_but_not_biblios(page, live_server, demo):
    page.goto(f"{live_server.url}/jeux/")
    page.get_by_label("Âges des joueurs").fill("6, 9, 38")
    page.get_by_label("Temps disponible (minutes)").fill("35")
    page.get_by_role("button", name="Chercher").click()
    page.wait_for_url("**/jeux/?*")
    found = result_titles(page)
    assert "La chasse aux monstres" in found
    assert "Biblios" not in found
    # The search is in the address, ready to bookmark or share.
    assert "ages=6%2C+9%2C+38" in page.url and "duree_max=35" in page.url
    chasse = page.locator(".game-result", has_text="La chasse aux monstres").inner_text()
    assert "1 à 5 joueurs" in chasse and "de 5 à 7 ans" in chasse and "10 min" in chasse
    assert re.search(r"En rayon à |Tous sortis — retour prévu le ", chasse)


@pytest.mark.postgresql
def test_a_search_with_a_typo_finds_les_colons_de_catane(page, live_server, demo):
    page.goto(f"{live_server.url}/jeux/")
    page.get_by_role("searchbox").fill("catanne")
    page.get_by_role("searchbox").press("Enter")
    page.wait_for_url("**/jeux/?*")
    assert result_titles(page) == ["Les colons de Catane"]
    with page.expect_navigation():
        page.get_by_role("link", name="Les colons de Catane").click()
    assert page.locator("h1").inner_text() == "Les colons de Catane"
    assert "90461" in page.locator("ul.copies").inner_text()


def test_the_page_reads_on_a_phone(browser, live_server, demo):
    context = browser.new_context(locale="fr-BE", viewport={"width": 360, "height": 740})
    phone = context.new_page()
    try:
        phone.goto(f"{live_server.url}/jeux/?ages=6,9,38")
        width = phone.evaluate("document.documentElement.scrollWidth")
        assert width <= 360, f"the page is {width}px wide on a 360px screen"
        assert phone.locator(".game-result").first.is_visible()
    finally:
        context.close()


def test_the_api_docs_render_with_assets_from_this_site_only(page, live_server):
    elsewhere = []

    def only_this_site(route):
        if urlsplit(route.request.url).netloc != urlsplit(live_server.url).netloc:
            elsewhere.append(route.request.url)
            route.abort()
        else:
            route.continue_()

    page.route("**/*", only_this_site)
    page.goto(f"{live_server.url}/api/docs/")
    page.locator(".swagger-ui .info .title").wait_for()
    assert "Ludothèque API" in page.locator(".swagger-ui .info .title").inner_text()
    page.get_by_text("/api/games/", exact=True).first.wait_for()
    assert elsewhere == []
