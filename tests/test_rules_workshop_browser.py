"""A librarian completes a title's generated rules page in a real browser (Debian's Chromium), from the
coverage list to « Publier », and the walk is counted: each click or typed field is one step."""

import pytest
from django.urls import reverse

from catalogue import registry
from catalogue.models import Game
from rules.models import RulePage
from tests.axe import session_cookie

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

MOST_STEPS = 12


def shown(locator) -> bool:
    """Wait for it (the page after a click may still be loading), then say it is visible."""
    locator.first.wait_for()
    return locator.first.is_visible()  # what a librarian who knows the game does in well under ten minutes


class Walk:
    """The librarian's steps: every click and every field filled counts one."""

    def __init__(self, page):
        self.page, self.steps = page, []

    def click(self, role: str, name: str) -> None:
        self.steps.append(f"clic « {name} »")
        self.page.get_by_role(role, name=name, exact=True).first.click()

    def fill(self, label: str, text: str) -> None:
        self.steps.append(f"saisie « {label} »")
        self.page.get_by_label(label).fill(text)


def test_a_librarian_completes_a_title_from_the_coverage_list_to_publish(page, live_server, staff_user):
    game = Game.objects.create(
        title="Skyjo",
        slug="skyjo",
        players_min=2,
        players_max=8,
        loans_last_year=30,
        contents="But du jeu:\nAvoir le moins de points.\nPréparation:\nChaque joueur reçoit 12 cartes face cachée.",
    )
    registry.catalogued([game.pk])
    slug = RulePage.objects.get(game=game).slug
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    page.goto(f"{live_server.url}{reverse('rules:coverage')}")
    walk = Walk(page)

    walk.click("link", "Compléter")
    assert shown(page.get_by_role("heading", name="Compléter les règles de Skyjo"))
    # 1. The text: the generated sections are listed; the editor opens on them.
    assert "But du jeu" in page.locator(".workshop-sections").inner_text()
    walk.click("link", "Relire et modifier le texte")
    source = page.get_by_label("Texte de la page").input_value()
    assert "== Préparation ==" in source
    walk.fill(
        "Texte de la page", source + "\n== Fin de partie ==\nQuand un joueur a retourné toutes ses cartes.\n"
    )
    walk.fill("Résumé de la modification", "Relu avec la règle de la boîte ; fin de partie ajoutée.")
    walk.click("button", "Enregistrer")
    assert shown(page.get_by_role("heading", name="Fin de partie"))
    walk.click("link", "Compléter cette page")
    # 2. The score sheet: in Skyjo the lowest total wins.
    walk.click("radio", "le plus petit")
    walk.click("button", "Enregistrer la feuille")
    assert shown(page.get_by_text("Feuille de score enregistrée."))
    # 3. The setup: the place where it is declared is there (its own staff page).
    assert shown(page.get_by_role("link", name="Déclarer la mise en place"))
    # 4. As a family sees it: no edit link, no edit summary.
    walk.click("link", "Voir la page comme une famille")
    assert shown(page.get_by_text("Aperçu : la page telle qu'une famille la voit."))
    assert page.get_by_role("link", name="Modifier").count() == 0
    assert page.get_by_text("fin de partie ajoutée").count() == 0
    assert shown(page.get_by_text("Le plus petit total gagne."))
    walk.click("link", "Retour à la page à compléter")
    # 5. Publish.
    walk.click("button", "Publier : la page est relue")
    assert shown(page.get_by_text("Page publiée"))
    assert page.locator(".generated-page").count() == 0  # the « À compléter » notice is gone
    assert page.url.endswith(reverse("rules:page-detail", args=[slug]))

    print(f"{len(walk.steps)} étapes : " + ", ".join(walk.steps))
    assert len(walk.steps) <= MOST_STEPS
    published = RulePage.objects.get(game=game)
    assert not published.generated and published.reviewed_by == staff_user
    assert published.sheet_winning == "lowest"
    assert published.current_revision.author == staff_user


def test_the_coverage_list_reads_on_a_phone_its_table_scrolling_in_its_own_box(page, live_server, staff_user):
    Game.objects.create(
        title="Les Aventuriers du Rail : Europe", slug="aventuriers-europe", loans_last_year=12
    )
    page.set_viewport_size({"width": 390, "height": 844})
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    page.goto(f"{live_server.url}{reverse('rules:coverage')}")
    assert page.get_by_role("link", name="Créer la page").first.is_visible()
    # The page itself does not scroll sideways: the table does, inside its box.
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
    box = page.locator(".table-scroll").first
    assert box.evaluate("element => element.scrollWidth > element.clientWidth")
