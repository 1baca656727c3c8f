"""The family search page /jeux/: a plain GET form, results with their facts, facets, pages."""

import re
from html import unescape

import pytest
from django.urls import reverse

from catalogue.models import Game
from catalogue.search import ordering
from catalogue.templatetags.games import game_result
from tests.conftest import text_of
from tests.search_helpers import add_games, category, family_catalogue, make_copy, make_game

URL = reverse("catalogue:game-list")


@pytest.fixture
def catalogue(db):
    return family_catalogue()


def result_titles(response) -> list[str]:
    return re.findall(
        r'<li class="game-result">.*?<h3><a href="[^"]+">([^<]+)</a>', response.content.decode(), flags=re.S
    )


def links(response, rel: str) -> list[str]:
    return [
        unescape(href) for href in re.findall(rf'<a rel="{rel}" href="([^"]+)"', response.content.decode())
    ]


def test_the_search_form_is_a_plain_get_form_with_every_criterion(client, catalogue):
    response = client.get(URL)
    assert response.status_code == 200
    html = response.content.decode()
    form = re.search(r'<form class="search-form" method="get" action="/jeux/"', html)
    assert form, "the search works without JavaScript: a GET form"
    for name in (
        "q",
        "ages",
        "joueurs",
        "age",
        "duree_max",
        "categorie",
        "auteur",
        "editeur",
        "localisation",
    ):
        assert f'name="{name}"' in html, name
    assert 'name="disponible"' in html and 'name="tri"' in html
    assert "<script" not in html


def test_a_family_of_three_with_35_minutes_sees_the_games_that_fit(client, catalogue):
    response = client.get(URL, {"ages": "6, 9, 38", "duree_max": "35"})
    assert response.status_code == 200
    # Pertinence: the game that fits everyone first, the one made for 5–7 year olds after it, flagged.
    assert result_titles(response) == ["Le Château des Dragons", "La chasse aux monstres"]
    assert "2 jeux trouvés" in text_of(response)
    assert "La chasse aux monstres En rayon à" in text_of(response)
    assert text_of(response).count("conçu pour 5–7 ans") == 1
    # The form shows what the family typed.
    assert 'value="6, 9, 38"' in response.content.decode()


def test_each_result_shows_where_a_copy_waits_then_players_ages_duration_category(client, catalogue):
    make_game("L'or des Dragons", players_min=3, players_max=6, age_min=8, age_max=99, duration_minutes=20)
    page = text_of(client.get(URL))
    assert (
        "La chasse aux monstres En rayon à Maison des Enfants et sur 1 autre site "
        "1 à 5 joueurs de 5 à 7 ans 10 min A 407 jeu de hasard"
    ) in page
    assert "Le Château des Dragons En rayon à Médiathèque 2 à 5 joueurs dès 6 ans 30 min" in page
    assert "Les colons de Catane En rayon à Maison des Enfants 3 à 4 joueurs dès 10 ans 75 min" in page
    assert "Quarto En rayon à Maison des Enfants 2 joueurs dès 8 ans 15 min" in page
    # Its only copy is out: when it comes back (the helpers' loans are due in the future).
    assert re.search(r"7 Wonders Tous sortis — retour prévu le \d\d/\d\d 2 à 7 joueurs dès 10 ans", page)
    assert "Biblios Pas d'exemplaire à emprunter pour l'instant 2 à 4 joueurs" in page  # in repair
    # No upper bound shown for PMB's 99.
    assert "L'or des Dragons Pas d'exemplaire 3 à 6 joueurs dès 8 ans 20 min" in page


def test_a_result_says_what_is_not_catalogued_and_on_how_many_other_sites_a_copy_waits(client, catalogue):
    game = make_game("Zoé la girafe")  # neither players, ages nor duration catalogued
    for barcode, where in [("Z1", "Maison des Enfants"), ("Z2", "Médiathèque"), ("Z3", "Ludobus")]:
        make_copy(game, barcode, where=where)
    french = text_of(client.get(URL, {"q": "girafe"}))
    assert (
        "Zoé la girafe En rayon à Ludobus et sur 2 autres sites "
        "joueurs : non précisé âge : non précisé durée : non précisée"
    ) in french
    english = text_of(client.get(URL, {"q": "girafe"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert (
        "Zoé la girafe On the shelf at Ludobus and 2 other sites players: not given age: not given "
        "duration: not given"
    ) in english
    page = text_of(client.get(game.get_absolute_url()))
    assert "Durée moyenne non précisée" in page


def test_a_result_read_without_anyones_age_has_no_age_flag(catalogue):
    # A first run's SQLite search reads its results without `fits_everyone` when no ages are given
    # (GamePaginator.read): the result shows, without « conçu pour … ».
    game = Game.objects.for_result_list().get(title="La chasse aux monstres")
    assert not hasattr(game, "fits_everyone")
    html = game_result(game)
    assert "La chasse aux monstres" in html and "age-flag" not in html
    game.fits_everyone = False  # a table with someone older than the game's 7 years
    assert '<p class="age-flag">conçu pour' in game_result(game)


def test_results_speak_english_with_english_plurals(client, catalogue):
    page = text_of(client.get(URL, HTTP_ACCEPT_LANGUAGE="en"))
    assert "6 games found" in page
    assert (
        "La chasse aux monstres On the shelf at Maison des Enfants and 1 other site "
        "1 to 5 players ages 5 to 7 10 min A 407 jeu de hasard"
    ) in page
    assert (
        "Les colons de Catane On the shelf at Maison des Enfants 3 to 4 players ages 10 and up 75 min" in page
    )


@pytest.mark.postgresql
def test_a_search_for_catanne_finds_les_colons_de_catane(client, catalogue):
    assert result_titles(client.get(URL, {"q": "catanne"})) == ["Les colons de Catane"]


def test_a_search_that_finds_nothing_says_so(client, catalogue):
    page = text_of(client.get(URL, {"q": "xylophone"}))
    assert "Aucun jeu trouvé" in page
    # Leaving the text out finds every game: said with the count, as a link.
    assert (
        "Aucun jeu ne correspond à tous ces critères. En en laissant un de côté : sans le texte recherché : 6 jeux"
        in page
    )


@pytest.mark.postgresql
def test_a_broad_search_says_more_than_the_limit_without_facet_counts_and_still_pages(
    client, db, monkeypatch, django_assert_num_queries
):
    # "Plus de 1 000 jeux" at full scale; a limit of 30 here, with 45 games.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 30)
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 30)
    add_games(45)
    # The facets found more than 30: no count of its own (the facets, the page's ids, its games, the
    # form's choices).
    with django_assert_num_queries(5):
        response = client.get(URL, {"ages": "6,8"})
    page = text_of(response)
    assert "Plus de 30 jeux trouvés" in page
    assert "jeu de stratégie" in page and 'class="count"' not in response.content.decode()
    assert len(result_titles(response)) == 20
    # The third page counts as far as itself: it knows it is the last.
    last = client.get(URL, {"ages": "6,8", "page": "3"})
    assert "45 jeux trouvés" in text_of(last) and len(result_titles(last)) == 5
    assert not links(last, "next")


def test_facets_count_categories_and_tags_of_the_current_search(client, catalogue):
    # Two games fit, both A 407; both cooperative, one about dragons, one about memory.
    facets = text_of(client.get(URL, {"ages": "6,9,38"})).split("Affiner la recherche")[-1]
    categories, tags = facets.split("Mots-clés")
    assert "A 407 jeu de hasard 2" in categories and "A 406" not in categories
    assert "Coopératif 2" in tags and "Dragons 1" in tags and "Mémoire 1" in tags


def test_a_tag_facet_link_narrows_the_search_and_keeps_the_other_filters(client, catalogue):
    response = client.get(URL, {"ages": "6,9,38", "tag": "cooperatif"})
    html = response.content.decode()
    link = unescape(re.search(r'<a href="([^"]+)">Mémoire</a>', html).group(1))
    assert "ages=6%2C9%2C38" in link and "tag=cooperatif" in link and "tag=memoire" in link
    narrowed = client.get(URL + link)
    assert result_titles(narrowed) == ["La chasse aux monstres"]
    # The chosen tag's link takes it away again.
    selected = unescape(
        re.search(r'<a href="([^"]+)" aria-current="true" class="selected">Coopératif</a>', html).group(1)
    )
    assert "tag=" not in selected and "ages=6%2C9%2C38" in selected


def test_a_category_facet_link_selects_that_category(client, catalogue):
    html = client.get(URL, {"q": "bauza"}).content.decode()
    link = unescape(re.search(r'<a href="([^"]+)">A 406 jeu de stratégie</a>', html).group(1))
    assert result_titles(client.get(URL + link)) == ["7 Wonders"]


def test_twenty_results_per_page_and_the_next_page_keeps_every_filter(client, db):
    strategy = category("A 406", "jeu de stratégie")
    for number in range(25):
        make_game(
            f"Jeu de famille {number:02d}",
            players_min=2,
            players_max=6,
            age_min=5,
            duration_minutes=20,
            category=strategy,
            tags=("Famille",),
        )
    make_game("Trop long", players_min=2, players_max=6, age_min=5, duration_minutes=90, tags=("Famille",))
    first = client.get(URL, {"ages": "6,9,38", "duree_max": "35", "tag": "famille", "tri": "titre"})
    assert len(result_titles(first)) == 20
    assert "25 jeux trouvés" in text_of(first)
    [next_link] = links(first, "next")
    for kept in ("ages=6%2C9%2C38", "duree_max=35", "tag=famille", "tri=titre", "page=2"):
        assert kept in next_link
    second = client.get(URL + next_link)
    assert result_titles(second) == [f"Jeu de famille {n}" for n in range(20, 25)]
    assert "Page 2 sur 2" in text_of(second)
    assert links(second, "prev") and not links(second, "next")


def test_sort_orders_are_offered_and_kept(client, catalogue):
    response = client.get(URL, {"tri": "duree"})
    assert result_titles(response)[:2] == ["La chasse aux monstres", "Quarto"]
    assert '<option value="duree" selected>' in response.content.decode()


def test_bad_values_answer_400_with_the_message_beside_each_field(client, catalogue):
    response = client.get(URL, {"ages": "6, neuf", "duree_max": "beaucoup", "q": "chateau"})
    assert response.status_code == 400
    page = text_of(response)
    assert "« neuf » n'est pas un âge" in page
    assert "Saisissez un nombre entier." in page
    assert not result_titles(response)
    # What the family typed is still there to correct.
    assert 'value="6, neuf"' in response.content.decode() and 'value="chateau"' in response.content.decode()


def test_bad_values_are_explained_in_english_too(client, catalogue):
    response = client.get(URL, {"ages": "six"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "“six” is not an age" in text_of(response)


def test_the_page_only_answers_get(client, catalogue):
    assert client.post(URL).status_code == 405


@pytest.mark.postgresql
def test_a_logged_in_outsider_sees_the_same_search(client, catalogue, outsider):
    client.force_login(outsider)
    assert result_titles(client.get(URL, {"q": "chateau"})) == ["Le Château des Dragons"]


@pytest.mark.postgresql
def test_the_page_runs_the_same_queries_whatever_the_number_of_results(client, db, django_assert_num_queries):
    # The count with the facets (one query), the page's ids, its games (a prepared statement: see
    # catalogue/views.py, PAGE_IDS), the category and site choices of the form.
    add_games(3)
    with django_assert_num_queries(5):
        assert len(result_titles(client.get(URL, {"ages": "6,8"}))) == 3
    add_games(30)
    with django_assert_num_queries(5):
        assert len(result_titles(client.get(URL, {"ages": "6,8"}))) == 20


@pytest.mark.postgresql
def test_a_text_search_adds_one_query_to_check_the_words_exist(client, db, django_assert_num_queries):
    add_games(3)
    with django_assert_num_queries(6):
        client.get(URL, {"q": "partie"})
    add_games(30)
    with django_assert_num_queries(6):
        client.get(URL, {"q": "partie"})
