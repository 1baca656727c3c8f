"""The family search and the game page as a family reads them: results first, one availability line,
games made for younger players flagged, what to relax when nothing fits, the contents said once."""

import datetime
import re

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from catalogue.models import Copy
from catalogue.search import ordering
from loans.models import Hold
from tests.conftest import text_of
from tests.search_helpers import add_games, family, family_catalogue, lend, librarian, make_copy, make_game

pytestmark = pytest.mark.django_db


@pytest.fixture
def catalogue(db):
    return family_catalogue()


def status_of(response, title: str) -> str:
    """The availability line of a result (or of the game page's head)."""
    html = response.content.decode()
    block = html.split(f">{title}</")[1]
    return re.sub(r"<[^>]+>", "", re.search(r'<p class="shelf-status[^"]*">(.*?)</p>', block, re.S).group(1))


def test_a_search_folds_its_criteria_into_one_line_above_the_results(client, catalogue):
    response = client.get("/jeux/", {"ages": "6, 9, 38", "duree_max": "35", "disponible": "oui"})
    html = response.content.decode()
    summary = re.search(r'<span class="criteria-summary">(.*?)</span>', html).group(1)
    assert summary == "3 joueurs (6, 9, 38 ans) · 35 min au plus · disponibles maintenant"
    assert '<details class="search-criteria">' in html  # folded: « Modifier » opens it
    assert "Modifier" in text_of(response)
    assert html.index('<details class="search-criteria">') < html.index('id="results-heading"')


def test_the_search_page_without_a_search_shows_the_form_open(client, catalogue):
    html = client.get("/jeux/").content.decode()
    assert '<details class="search-criteria" open>' in html
    bad = client.get("/jeux/", {"ages": "six"})
    assert bad.status_code == 400 and '<details class="search-criteria" open>' in bad.content.decode()


def test_the_availability_line_says_where_or_when(client, catalogue):
    response = client.get("/jeux/")
    assert status_of(response, "Les colons de Catane") == "En rayon à Maison des Enfants"
    assert (
        status_of(response, "La chasse aux monstres") == "En rayon à Maison des Enfants et sur 1 autre site"
    )
    due = Copy.objects.get(barcode="91233").loans.get().due_on
    assert status_of(response, "7 Wonders") == f"Tous sortis — retour prévu le {due:%d/%m}"
    assert status_of(response, "Biblios") == "Pas d'exemplaire à emprunter pour l'instant"  # in repair
    make_game("Sans boîte", players_min=2, players_max=4)
    assert status_of(client.get("/jeux/", {"q": "Sans boîte"}), "Sans boîte") == "Pas d'exemplaire"


def test_the_earliest_return_is_announced_when_every_copy_is_out(client, catalogue):
    chateau = catalogue.chateau
    for copy in chateau.copies.all():
        if not copy.loans.filter(returned_at__isnull=True).exists():
            lend(copy, due_on=timezone.localdate() + datetime.timedelta(days=30))
    soonest = timezone.localdate() + datetime.timedelta(days=2)
    lend(make_copy(chateau, "70999"), due_on=soonest)
    response = client.get("/jeux/le-chateau-des-dragons/")
    assert status_of(response, "Le Château des Dragons") == f"Tous sortis — retour prévu le {soonest:%d/%m}"


def test_a_copy_set_aside_for_a_hold_is_not_on_the_shelf(client, catalogue):
    copy = Copy.objects.get(barcode="90461")
    Hold.objects.create(
        game=catalogue.catane,
        member=family(),
        position=1,
        status=Hold.Status.READY,
        created_by=librarian(),
        copy=copy,
        ready_at=timezone.now(),
        ready_until=timezone.localdate() + datetime.timedelta(days=7),
    )
    assert status_of(client.get("/jeux/"), "Les colons de Catane") == "Tous mis de côté pour des réservations"


def test_the_results_take_the_same_queries_for_5_or_25_games(client, db, django_assert_max_num_queries):
    add_games(5)
    with CaptureQueriesContext(connection) as few:
        client.get("/jeux/", {"ages": "6, 9"})
    add_games(20)
    with django_assert_max_num_queries(len(few.captured_queries)):
        response = client.get("/jeux/", {"ages": "6, 9"})
    assert text_of(response).count("En rayon à") == 20


def test_the_game_page_says_where_a_copy_waits_in_its_head(client, catalogue, django_assert_max_num_queries):
    with django_assert_max_num_queries(10):
        response = client.get("/jeux/les-colons-de-catane/")
    head = response.content.decode().split('<header class="notice-head">')[1].split("</header>")[0]
    assert "<h1>Les colons de Catane</h1>" in head and "En rayon à Maison des Enfants" in head


def test_a_game_made_for_younger_players_stays_flagged_after_those_that_fit_everyone(client, catalogue):
    response = client.get("/jeux/", {"ages": "6, 38"})
    page = text_of(response)
    titles = re.findall(r'<h3><a href="[^"]+">([^<]+)</a>', response.content.decode())
    assert titles.index("Le Château des Dragons") < titles.index("La chasse aux monstres")
    assert titles[-1] == "La chasse aux monstres"
    assert page.count("conçu pour 5–7 ans") == 1
    # Sorted by title on request, it keeps its flag.
    by_title = client.get("/jeux/", {"ages": "6, 38", "tri": "titre"})
    assert "conçu pour 5–7 ans" in text_of(by_title)
    # The children alone: it fits, no flag.
    assert "conçu pour" not in text_of(client.get("/jeux/", {"ages": "5, 6"}))


def test_an_empty_search_proposes_what_to_relax_with_counts(client, catalogue):
    response = client.get("/jeux/", {"ages": "6, 9", "duree_max": "5"})
    page = text_of(response)
    assert "Aucun jeu trouvé" in page
    suggestions = re.findall(
        r'<li><a href="([^"]+)">([^<]+)</a></li>', response.content.decode().split("relax-suggestions")[1]
    )
    labels = [label for _, label in suggestions]
    # Without the time: the games for two players, the youngest 6 (Quarto is 8+, Catane 10+).
    assert "sans la durée : 2 jeux" in labels
    # Each count is what the link finds.
    for url, label in suggestions:
        count = int(re.search(r": (\d+) jeux?$", label).group(1))
        followed = text_of(client.get("/jeux/" + url.replace("&amp;", "&")))
        assert f"{count} jeu" in followed, (label, followed[:300])


def test_two_players_too_young_are_offered_the_games_for_two_players(client, catalogue):
    # No game of 15 minutes for a 3- and a 4-year-old; Quarto and La chasse aux monstres if the ages go.
    page = text_of(client.get("/jeux/", {"ages": "3, 4", "duree_max": "15"}))
    assert "pour 2 joueurs : 2 jeux" in page


def test_a_text_that_finds_nothing_is_offered_the_search_without_it(client, catalogue):
    page = text_of(client.get("/jeux/", {"q": "xylophone", "tri": "titre"}))
    assert "sans le texte recherché : 6 jeux" in page


def test_what_to_give_up_is_counted_up_to_the_limit_as_every_search(client, catalogue, monkeypatch):
    # Counted whole, « sans le texte recherché » would count the whole catalogue.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 3)
    with CaptureQueriesContext(connection) as queries:
        page = text_of(client.get("/jeux/", {"q": "xylophone"}))
    assert "sans le texte recherché : plus de 3 jeux" in page
    assert any(re.search(r"COUNT\(\*\).*LIMIT 4\b", query["sql"]) for query in queries)
    english = text_of(client.get("/jeux/", {"q": "xylophone"}, HTTP_ACCEPT_LANGUAGE="en"))
    assert "without the search text: more than 3 games" in english


def test_the_contents_are_said_once_the_original_text_folded(client, catalogue):
    quarto = catalogue.quarto
    quarto.components.create(position=0, quantity=16, label="pièces en bois")
    quarto.components.create(position=1, quantity=1, label="plateau")
    quarto.contents = "16 pièces en bois, 1 plateau."
    quarto.save()
    html = client.get("/jeux/quarto/").content.decode()
    assert html.count("16 × pièces en bois") == 1
    folded = html.split('<details class="original-notice">')[1].split("</details>")[0]
    assert "notice d&#x27;origine" in folded or "notice d'origine" in folded
    assert "16 pièces en bois, 1 plateau." in folded


def test_english_keeps_european_dates_and_the_site_name(client, catalogue):
    lend(Copy.objects.get(barcode="70001"), due_on=datetime.date(2031, 3, 14))
    html = client.get("/jeux/le-chateau-des-dragons/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "due back on 14/03/2031" in html
    assert '<a class="brand" href="/" lang="fr">Ludothèque</a>' in html
    assert ">Games</a>" in html and ">Rules</a>" in html


def test_ranges_read_naturally_without_the_99_upper_bound(client, db):
    make_game("Martian Dice", players_min=2, players_max=99, age_min=8, age_max=99, duration_minutes=10)
    make_game("Quarto", players_min=2, players_max=2, age_min=8, age_max=99)
    page = text_of(client.get("/jeux/martian-dice/"))
    assert "Nombre de joueurs à partir de 2 joueurs" in page and "Âge dès 8 ans" in page
    assert "99" not in page
    assert "Nombre de joueurs 2 joueurs" in text_of(client.get("/jeux/quarto/"))


def test_the_summary_names_a_category_or_a_whole_esar_group(client, catalogue):
    html = client.get("/jeux/", {"categorie": "A 406"}).content.decode()
    assert '<span class="criteria-summary">A 406 jeu de stratégie</span>' in html
    html = client.get("/jeux/", {"categorie": "A400", "auteur": "Bauza"}).content.decode()
    assert '<span class="criteria-summary">A400 · par Bauza</span>' in html
