"""ESAR facet A: the category codes grouped by kind of play, in the family search, the API and the admin.

Groups as published by Doucet, Filion and Garon (1989, see catalogue/esar.py): A100 jeux d'exercice,
A200 jeux symboliques, A300 jeux d'assemblage, A400 jeux de règles; the seeds' « A 406 jeu de
stratégie » and « A 407 jeu de hasard » are jeux de règles.
"""

import re

import pytest
from django.urls import reverse

from catalogue import esar
from catalogue.models import Category
from tests.conftest import text_of
from tests.search_helpers import category, make_game

URL = reverse("catalogue:game-list")


@pytest.fixture
def shelves(db):
    """One game per kind of play, two jeux de règles, and a code from another classification."""
    make_game("Hochet", category=category("A 101", "jeu sensoriel", "jeu d'exercice"))
    make_game("Dînette", category=category("A 203", "jeu de rôles", "jeu symbolique"))
    make_game("Puzzle des saisons", category=category("A301", "jeu de construction", "jeu d'assemblage"))
    make_game("Les colons de Catane", category=category("A 406", "jeu de stratégie"))
    make_game("Biblios", category=category("A 407", "jeu de hasard"))
    make_game("Kapla", category=category("MAT 3", "matériel de construction", ""))


def titles(response) -> list[str]:
    return sorted(
        re.findall(
            r'<li class="game-result">.*?<h3><a href="[^"]+">([^<]+)</a>',
            response.content.decode(),
            flags=re.S,
        )
    )


@pytest.mark.parametrize(
    ("code", "group"),
    [("A 406", "A400"), ("A406", "A400"), ("a 101", "A100"), ("A 203", "A200"), ("A 399", "A300")],
)
def test_a_facet_a_code_belongs_to_the_group_of_its_hundreds(code, group):
    assert esar.group_of(code) == group


@pytest.mark.parametrize("code", ["B 101", "A 506", "A 40", "A 4061", "MAT 3", ""])
def test_a_code_of_another_classification_belongs_to_no_group(code):
    assert esar.group_of(code) is None


def test_the_family_search_filters_on_jeux_de_regles_as_a_whole(client, shelves):
    assert titles(client.get(URL, {"categorie": "A400"})) == ["Biblios", "Les colons de Catane"]
    # As a librarian types it, with a space or in lower case.
    assert titles(client.get(URL, {"categorie": "a 400"})) == ["Biblios", "Les colons de Catane"]
    assert titles(client.get(URL, {"categorie": "A300"})) == ["Puzzle des saisons"]


def test_a_single_code_and_codes_of_other_classifications_keep_working(client, shelves):
    assert titles(client.get(URL, {"categorie": "A 406"})) == ["Les colons de Catane"]
    assert titles(client.get(URL, {"categorie": "MAT 3"})) == ["Kapla"]


def test_a_code_typed_without_its_space_finds_its_games_and_stays_chosen_on_the_page(client, shelves):
    # The catalogue writes « A 406 » (and « A301 »): families and librarians type either.
    for typed in ("A406", "a406", " A 406 "):
        assert titles(client.get(URL, {"categorie": typed})) == ["Les colons de Catane"], typed
    assert titles(client.get(URL, {"categorie": "A 301"})) == ["Puzzle des saisons"]
    response = client.get(URL, {"categorie": "A406", "q": "catane"})
    assert titles(response) == ["Les colons de Catane"]
    # « Modifier » opens the form on that category, which sends it again; the summary names it.
    html = response.content.decode()
    assert re.search(r'<option value="A 406" selected>', html)
    assert "« catane » · A 406 jeu de stratégie" in text_of(response)


def test_a_code_typed_without_its_space_marks_its_facet_and_is_counted_by_the_api(client, shelves):
    html = client.get(URL, {"categorie": "A406"}).content.decode()
    assert re.search(r'<a href="\?" aria-current="true" class="selected">A 406 jeu de stratégie</a>', html)
    facets = client.get("/api/games/facets/", {"categorie": "A406"}).json()
    assert facets["count"] == 1
    assert [(facet["code"], facet["count"]) for facet in facets["categories"]] == [("A 406", 1)]


def test_the_api_takes_a_code_typed_without_its_space(client, shelves):
    for typed in ("A406", "A 406"):
        results = client.get("/api/games/", {"categorie": typed}).json()["results"]
        assert [game["title"] for game in results] == ["Les colons de Catane"]
    results = client.get("/api/games/", {"categorie": "A 301"}).json()["results"]
    assert [game["title"] for game in results] == ["Puzzle des saisons"]
    assert client.get("/api/games/", {"categorie": "A499"}).status_code == 400


def test_an_unknown_code_is_refused_on_its_field(client, shelves):
    response = client.get(URL, {"categorie": "A 999"})
    assert response.status_code == 400
    assert "Sélectionnez un choix valide" in text_of(response)


def test_a_group_without_categories_finds_nothing_without_an_error(client, db):
    make_game("Biblios", category=category("A 407", "jeu de hasard"))
    response = client.get(URL, {"categorie": "A200"})
    assert response.status_code == 200
    assert "Aucun jeu trouvé" in text_of(response)
    assert client.get("/api/games/facets/", {"categorie": "A200"}).json()["count"] == 0


def test_the_api_takes_the_same_groups(client, shelves):
    results = client.get("/api/games/", {"categorie": "A400"}).json()["results"]
    assert sorted(game["title"] for game in results) == ["Biblios", "Les colons de Catane"]


def test_the_category_select_offers_each_group_before_its_codes(client, shelves):
    html = client.get(URL).content.decode()
    select = re.search(r'<select name="categorie".*?</select>', html, re.S)[0]
    groups = re.findall(r'<optgroup label="([^"]+)">', select)
    assert groups == [
        "Jeux d&#x27;exercice",
        "Jeux symboliques",
        "Jeux d&#x27;assemblage",
        "Jeux de règles",
        "Autres classements",
    ]
    rules = re.search(r'<optgroup label="Jeux de règles">(.*?)</optgroup>', select, re.S)[1]
    assert re.findall(r'value="([^"]+)"', rules) == ["A400", "A 406", "A 407"]


def test_the_facets_group_the_categories_with_each_group_total(client, shelves):
    response = client.get(URL)
    facets = text_of(response).split("Affiner la recherche")[1]
    assert "Jeux de règles (A400) 2 A 406 jeu de stratégie 1 A 407 jeu de hasard 1" in facets
    assert "Autres classements MAT 3 matériel de construction 1" in facets
    assert 'href="?categorie=A400"' in response.content.decode()


def test_a_chosen_group_is_marked_and_its_link_widens_the_search_back(client, shelves):
    html = client.get(URL, {"categorie": "A400"}).content.decode()
    assert re.search(r'<a href="\?" aria-current="true" class="selected">Jeux de règles', html)


@pytest.mark.postgresql
def test_filtering_on_a_group_costs_the_same_queries_as_on_one_code(
    client, shelves, django_assert_num_queries
):
    # The group's category ids are read once, as one code's category is: the games are then
    # filtered on their own category column (the search's covering index).
    with django_assert_num_queries(6):
        client.get(URL, {"categorie": "A 406"})
    with django_assert_num_queries(6):
        client.get(URL, {"categorie": "A400"})


def test_the_admin_filters_games_on_a_group_and_categories_by_group(client, shelves, staff_user):
    client.force_login(staff_user)
    games = client.get(reverse("admin:catalogue_game_changelist"), {"categorie": "A400"})
    assert sorted(str(game) for game in games.context["cl"].result_list) == [
        "Biblios",
        "Les colons de Catane",
    ]
    categories = client.get(reverse("admin:catalogue_category_changelist"), {"esar": "A400"})
    assert [category.code for category in categories.context["cl"].result_list] == ["A 406", "A 407"]
    others = client.get(reverse("admin:catalogue_category_changelist"), {"esar": "autre"})
    assert [category.code for category in others.context["cl"].result_list] == ["MAT 3"]
    assert "Jeux de règles (A400)" in text_of(client.get(reverse("admin:catalogue_category_changelist")))


def test_a_category_knows_its_group():
    assert Category(code="A 407").esar_group == "A400"
    assert Category(code="MAT 3").esar_group is None
