"""Words a family types with their accents are searched as written: « dés » is not the article « des ».

PostgreSQL's French stop words drop the articles (« des », « de », « le »); a word written with an
accent is no article, even when it is one without its accent (migration
0017_search_keeps_accented_words).
"""

import re
from html import unescape

import pytest
from django.urls import reverse

from catalogue.models import Game
from catalogue.search.postings import one_word_page
from tests.conftest import text_of
from tests.search_helpers import make_game, titles
from tests.test_catalogue_api import whole_search_scans

pytestmark = pytest.mark.postgresql

PAGE = reverse("catalogue:game-list")
GAMES = "/api/games/"


@pytest.fixture
def shelf(db):
    """Games whose words, without their accents, are French stop words or look like them."""
    make_game("Dés en folie", summary="Le jeu de dés le plus rapide : cinq dés, trois lancers.")
    make_game("Yam", summary="Un jeu de dés pour toute la famille.")
    make_game("Le jeu des couleurs", summary="Un jeu des familles, avec des cartes.")
    make_game("Les vacances d'été", summary="Un jeu de plage.")
    make_game("L'heure du thé", summary="Servez votre thé avant vos adversaires.")


def page_titles(response) -> list[str]:
    html = response.content.decode()
    return [
        unescape(title)
        for title in re.findall(
            r'<li class="game-result">.*?<h3><a href="[^"]+">([^<]+)</a>', html, flags=re.S
        )
    ]


def both(client, text: str) -> list[str]:
    """The titles the page /jeux/ and the API find for `text`, in order: the same."""
    page = page_titles(client.get(PAGE, {"q": text}))
    api = titles(client.get(GAMES, {"q": text}))
    assert page == api, text
    return page


def test_a_search_for_des_with_its_accent_finds_the_dice_games(client, shelf):
    # One word: the games with « dés » in their title first (the search's postings), then the others.
    assert both(client, "dés") == ["Dés en folie", "Yam"]
    assert both(client, "DÉS") == ["Dés en folie", "Yam"]
    assert both(client, "dé") == ["Dés en folie", "Yam"]
    # Two words, ranked: « de » is dropped, « dés » kept; not « Le jeu des couleurs ».
    assert both(client, "jeu de dés") == ["Dés en folie", "Yam"]
    assert both(client, "le jeu de dés") == ["Dés en folie", "Yam"]


def test_ete_and_the_are_found_with_or_without_their_accents(client, shelf):
    assert both(client, "été") == ["Les vacances d'été"]
    assert both(client, "ete") == ["Les vacances d'été"]
    assert both(client, "vacances d'été") == ["Les vacances d'été"]
    assert both(client, "thé") == ["L'heure du thé"]
    assert both(client, "le thé") == ["L'heure du thé"]
    assert both(client, "heure du the") == ["L'heure du thé"]


def test_the_article_des_alone_finds_nothing_and_says_what_to_do(client, shelf):
    # « des » without an accent is the article: in every summary, it would find every game.
    response = client.get(PAGE, {"q": "des"})
    assert response.status_code == 200 and page_titles(response) == []
    assert "Aucun jeu trouvé" in text_of(response)
    assert "sans le texte recherché : 5 jeux" in text_of(response)
    answer = client.get(GAMES, {"q": "des"}).json()
    assert (answer["count"], answer["results"]) == (0, [])
    assert client.get(GAMES, {"q": "de le"}).json()["count"] == 0
    # With another word, the articles are left out: the word alone decides.
    assert both(client, "des couleurs") == ["Le jeu des couleurs"]
    assert both(client, "le jeu de la plage") == ["Les vacances d'été"]


def test_a_page_of_dice_games_is_read_from_the_postings_of_des(client, db):
    # 25 games with « dés » in their title (the postings hold a page of them and a count up to 21),
    # one with it in its summary only.
    for number in range(25):
        make_game(f"Dés {number:02d}")
    make_game("Zanzibar", summary="Trois dés et un gobelet.")
    games = Game.objects.search("dés").sorted_by("pertinence")
    sql, params = one_word_page(games, 0, 20, games.order_by().values("pk")[:21])
    assert whole_search_scans(sql, params) == []  # page and count from the postings alone
    first = client.get(GAMES, {"q": "dés"})
    assert titles(first) == [f"Dés {number:02d}" for number in range(20)] and first.json()["count"] == 26
    last = client.get(GAMES, {"q": "dés", "page": 2})
    assert titles(last) == [f"Dés {number:02d}" for number in range(20, 25)] + ["Zanzibar"]


def test_a_search_for_dice_games_where_there_is_none_finds_none(client, db):
    # Nothing matches « jeu » and « dés » together: the misspellings' correction, which reads the
    # catalogue's words without their accents, must not turn « dés » into the article.
    make_game("Le jeu des couleurs", summary="Un jeu des familles, avec des cartes.")
    make_game("Yam", summary="Lancez les gobelets.")
    assert both(client, "jeu de dés") == []
    assert both(client, "le jeu de dés de Yam") == []
    # A misspelt word beside it is still corrected.
    make_game("Gobelets de dés", summary="Un jeu de dés.")
    assert both(client, "jeu de dés gobbelets") == ["Gobelets de dés"]
