"""What the rules pages cover: the rules index's figures (counted in SQL, a page at a time) and the staff
view of every title with what it has, the most lent first."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue import registry
from catalogue.models import Game
from rules.declared.sheets import LineDeclaration, declared_sheet_create
from rules.models import Revision, RulePage
from rules.pages.services import rule_page_publish
from tests.conftest import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue(db, staff_user) -> dict[str, Game]:
    """Five titles: one coded (Biblios), one published, one with a declared sheet, two still generated."""
    games = {
        title: Game.objects.create(
            title=title, slug=slug, players_min=2, players_max=5, loans_last_year=loans
        )
        for title, slug, loans in [
            ("Biblios", "biblios", 3),
            ("Dobble", "dobble", 40),
            ("Uno", "uno", 12),
            ("Skyjo", "skyjo", 25),
            ("Azul", "azul", 0),
        ]
    }
    page = RulePage.objects.create(slug="biblios", title="Biblios")
    Revision.objects.create(page=page, number=1, author_name="Ludothèque", content="== But du jeu ==\nx\n")
    registry.catalogued([game.pk for game in games.values()])
    rule_page_publish(page=RulePage.objects.get(game=games["Uno"]), staff=staff_user)
    declared_sheet_create(game=games["Skyjo"], lines=[LineDeclaration("cartes", "Cartes")])
    return games


def test_the_index_says_how_many_titles_have_what(client, catalogue):
    text = text_of(client.get(reverse("rules:page-list")))
    assert "5 jeux au catalogue 5 ont leur page de règles 1 page relue et publiée" in text
    assert "3 pages faites à partir de la notice, à compléter 1 jeu aux règles programmées" in text
    assert "1 feuille de score déclarée" in text
    assert "Azul 2 à 5 joueurs à compléter" in text


def test_the_index_is_paginated_and_its_queries_do_not_grow_with_the_catalogue(client, catalogue):
    def queries(url):
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    few = queries(reverse("rules:page-list"))
    more = Game.objects.bulk_create(Game(title=f"Jeu {n:03d}", slug=f"jeu-{n}") for n in range(120))
    registry.catalogued([game.pk for game in more])
    assert queries(reverse("rules:page-list")) == few
    text = text_of(client.get(reverse("rules:page-list"), {"page": 3}))
    assert "Page 3 sur 3" in text and "125 jeux au catalogue" in text


def test_the_coverage_view_lists_the_most_lent_titles_first_with_what_they_have(
    client, catalogue, staff_user
):
    client.force_login(staff_user)
    response = client.get(reverse("rules:coverage"))
    assert response.status_code == 200
    text = text_of(response)
    order = [text.index(title) for title in ("Dobble 40", "Skyjo 25", "Uno 12", "Biblios 3", "Azul 0")]
    assert order == sorted(order)
    assert "Dobble 40 générée, à compléter — par défaut (manches) —" in text
    assert "Skyjo 25 générée, à compléter — déclarée —" in text
    assert "Uno 12 relue — par défaut (manches) —" in text
    assert "Biblios 3 écrite à la main oui programmée —" in text
    only = text_of(client.get(reverse("rules:coverage"), {"etat": "a-completer"}))
    assert "Dobble" in only and "Uno 12" not in only and "Biblios 3" not in only


def test_the_coverage_view_is_for_staff_only(client, outsider):
    assert client.get(reverse("rules:coverage")).status_code == 302
    client.force_login(outsider)
    assert client.get(reverse("rules:coverage")).status_code == 403
    assert client.post(reverse("rules:coverage")).status_code == 403
