"""The read-only catalogue API: /api/games/ (the family search), a game, a copy by barcode, facets."""

import itertools
import re
from io import StringIO
from urllib.parse import urlencode

import pytest
from django.conf import settings
from django.contrib.staticfiles import finders
from django.core.files.base import ContentFile
from django.core.management import call_command
from django.db import connection
from django.http import QueryDict
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from rest_framework.request import Request
from rest_framework.serializers import ModelSerializer

from catalogue import serializers, views
from catalogue.filters import GameFilter
from catalogue.models import Author, Authorship, Copy, Game, Language, Publisher, Tag
from catalogue.search import notice, ordering, pages, postings
from catalogue.search.text import is_text_condition
from tests.search_helpers import add_games, category, family_catalogue, lend, make_copy, make_game, titles

GAMES = "/api/games/"


@pytest.fixture
def catalogue(db):
    return family_catalogue()


@pytest.mark.postgresql
def test_the_game_list_is_the_family_search_with_the_same_filters(client, catalogue):
    response = client.get(GAMES, {"ages": "6, 9, 38", "duree_max": "35"})
    assert response.status_code == 200
    assert response.json()["count"] == 2
    # The games that fit everyone at the table first (La chasse aux monstres is made for 5–7 year olds).
    assert titles(response) == ["Le Château des Dragons", "La chasse aux monstres"]
    assert titles(client.get(GAMES, {"q": "catanne"})) == ["Les colons de Catane"]
    assert titles(client.get(GAMES, {"tag": ["cooperatif", "memoire"]})) == ["La chasse aux monstres"]
    assert titles(client.get(GAMES, {"q": "bauza", "tri": "titre", "disponible": "oui"})) == [
        "La chasse aux monstres"
    ]


@pytest.mark.postgresql
def test_a_result_carries_what_a_family_needs_to_choose(client, catalogue):
    [chateau] = client.get(GAMES, {"q": "chateau"}).json()["results"]
    assert chateau == {
        "url": "http://testserver/api/games/le-chateau-des-dragons/",
        "page_url": "/jeux/le-chateau-des-dragons/",
        "slug": "le-chateau-des-dragons",
        "title": "Le Château des Dragons",
        "players_min": 2,
        "players_max": 5,
        "age_min": 6,
        "age_max": None,
        "duration_minutes": 30,
        "category": {"code": "A 407", "label": "jeu de hasard", "family": "jeu de règles"},
        "tags": ["Coopératif", "Dragons"],
        "summary": "Ensemble, les chevaliers défendent la forteresse.",
        "copies_count": 2,
        "available_count": 1,
    }


def test_a_result_is_what_drf_renders_of_its_declared_fields(client, catalogue):
    """GameSerializer writes its fields out for speed: the same answer as DRF's field-by-field rendering,
    for games with and without category, tags, ages, copies."""
    make_game("Sans rien")  # no category, tag, age, duration or copy
    response = client.get(GAMES, {"tri": "titre"})
    request = response.wsgi_request
    drf = serializers.GameSerializer(context={"request": Request(request)})
    games = pages.result_list(api=True).order_by("title", "pk")
    expected = [ModelSerializer.to_representation(drf, game) for game in games]
    assert response.json()["results"] == expected
    sans_rien = expected[-1]
    assert (len(expected), sans_rien["title"], sans_rien["category"], sans_rien["tags"]) == (
        7,
        "Sans rien",
        None,
        [],
    )


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_notice_is_what_drf_renders_of_its_declared_fields(client, catalogue, settings, tmp_path, language):
    """GameDetailSerializer writes its fields out for speed: the same answer as DRF's field-by-field
    rendering, with every list filled, a copy without section, one on loan, a document uploaded."""
    settings.MEDIA_ROOT = tmp_path
    chateau = catalogue.chateau  # two copies, 70002 out on loan
    Game.objects.filter(pk=chateau.pk).update(
        rules_summary="Chacun son tour.", contents="1 plateau", online_url="https://example.org/chateau"
    )
    illustrator = Author.objects.create(name="Vincent Dutrait")
    chateau.authorships.create(author=illustrator, role=Authorship.Role.ILLUSTRATOR, position=5)
    chateau.publisher_credits.create(publisher=Publisher.objects.create(name="Asmodee", place="Guyancourt"))
    chateau.languages.add(Language.objects.create(code="fre", name="Français"))
    chateau.components.create(position=0, quantity=54, label="cartes")
    chateau.documents.create(file_name="regles.pdf", file=ContentFile(b"%PDF-1.4", name="regles.pdf"))
    chateau.documents.create(file_name="aide.pdf", position=1)
    make_copy(chateau, "70003", section=None, status=Copy.Status.IN_REPAIR)
    response = client.get(f"{GAMES}le-chateau-des-dragons/", HTTP_ACCEPT_LANGUAGE=language)
    game = notice.notice_of("le-chateau-des-dragons")
    copies = game.copies.all()
    game.copies_count, game.available_count = len(copies), sum(copy.is_available for copy in copies)
    drf = serializers.GameDetailSerializer(context={"request": Request(response.wsgi_request)})
    with translation.override(language):
        expected = ModelSerializer.to_representation(drf, game)
    assert response.json() == expected
    assert [copy["section"] for copy in expected["copies"]][-1] is None
    assert expected["copies"][1]["due_on"] and expected["documents"][0]["file"].startswith(
        "http://testserver/"
    )
    assert expected["documents"][1]["file"] is None and len(expected["authors"]) == 2


@pytest.mark.parametrize("language", ["fr", "en"])
def test_a_copy_is_what_drf_renders_of_its_declared_fields(client, catalogue, language):
    make_copy(catalogue.chateau, "70003", section=None, status=Copy.Status.IN_REPAIR)
    for barcode in ("70001", "70002", "70003", "90901"):  # on the shelf, on loan, no section, in repair
        response = client.get(f"/api/copies/{barcode}/", HTTP_ACCEPT_LANGUAGE=language)
        copy = views.CopyViewSet.queryset.get(barcode=barcode)
        drf = serializers.CopyWithGameSerializer(context={"request": Request(response.wsgi_request)})
        with translation.override(language):
            assert response.json() == ModelSerializer.to_representation(drf, copy), barcode


def test_twenty_games_per_page_with_links_that_keep_the_filters(client, db):
    for number in range(23):
        make_game(f"Jeu {number:02d}", players_min=2, players_max=4, age_min=6, duration_minutes=20)
    first = client.get(GAMES, {"joueurs": "3", "duree_max": "30"}).json()
    assert first["count"] == 23 and len(first["results"]) == 20
    assert "joueurs=3" in first["next"] and "duree_max=30" in first["next"] and "page=2" in first["next"]
    second = client.get(first["next"]).json()
    assert [game["title"] for game in second["results"]] == ["Jeu 20", "Jeu 21", "Jeu 22"]


def titles_of(answer: dict) -> list[str]:
    return [game["title"] for game in answer["results"]]


def test_a_long_list_stops_counting_at_the_limit_and_still_pages_to_the_end(client, db, monkeypatch):
    # "More than 1,000 games" at full scale; a limit of 30 here, with 45 games.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 30)
    for number in range(45):
        make_game(f"Jeu {number:02d}", players_min=2, players_max=4, age_min=6, duration_minutes=20)
    first = client.get(GAMES, {"joueurs": "3"}).json()
    assert (first["count"], first["count_exact"]) == (30, False)
    assert len(first["results"]) == 20 and "page=2" in first["next"] and first["previous"] is None
    # A page further than the limit counts as far as that page, so its next link is right too.
    second = client.get(first["next"]).json()
    assert (second["count"], second["count_exact"]) == (40, False)
    third = client.get(second["next"]).json()
    assert (third["count"], third["count_exact"]) == (45, True)
    assert titles_of(third) == [f"Jeu {n}" for n in range(40, 45)]
    assert third["next"] is None and "page=2" in third["previous"]
    last = client.get(GAMES, {"joueurs": "3", "page": "last"}).json()
    assert (last["count"], last["count_exact"], last["results"]) == (45, True, third["results"])
    assert client.get(GAMES, {"joueurs": "3", "page": "4"}).status_code == 404
    # Fewer games than the limit: the count is exact from the first page.
    short = client.get(GAMES, {"joueurs": "3", "q": "jeu 07"}).json()
    assert (short["count"], short["count_exact"], titles_of(short)) == (1, True, ["Jeu 07"])


@pytest.mark.postgresql
def test_a_table_search_pages_the_games_for_everyone_then_the_others_by_title(
    client, db, django_assert_max_num_queries
):
    # 25 games for the whole table, then 22 made for 5–7 year olds (after them: a 40-year-old plays too).
    for number in range(25):
        make_game(f"Pour tous {number:02d}", players_min=2, players_max=4, age_min=5, duration_minutes=20)
    for number in range(22):
        make_game(
            f"Petits {number:02d}", players_min=2, players_max=4, age_min=5, age_max=7, duration_minutes=20
        )
    table = {"ages": "6, 40"}
    expected = [f"Pour tous {n:02d}" for n in range(25)] + [f"Petits {n:02d}" for n in range(22)]
    pages = []
    for number in (1, 2, 3):
        with django_assert_max_num_queries(4):
            pages.append(client.get(GAMES, {**table, "page": number}).json())
    assert [titles_of(page) for page in pages] == [expected[:20], expected[20:40], expected[40:]]
    assert pages[0]["count"] == 47
    # The same order as one sorted list: the last page asked alone (count, then its two lists).
    assert titles_of(client.get(GAMES, {**table, "page": "last"}).json()) == expected[40:]


def _pages(client, search: dict) -> list[dict]:
    """Every result of a search, page after page."""
    results, answer = [], client.get(GAMES, search).json()
    results += answer["results"]
    while answer["next"]:
        answer = client.get(answer["next"]).json()
        results += answer["results"]
    return results


@pytest.mark.postgresql
def test_a_text_search_of_available_games_is_the_search_without_those_on_loan(
    client, db, django_assert_max_num_queries
):
    # 90 games with the word, the 45 with it in their title first; a copy on the shelf for three in
    # four of them, none for the others. Looked for among the best matches (GamePaginator.available_page).
    for number in range(45):
        make_game(f"Les Pirates {number:02d}", players_min=2, players_max=4, age_min=6)
        make_game(
            f"Zeste {number:02d}", summary="Une île de pirates.", players_min=2, players_max=4, age_min=6
        )
    everything = _pages(client, {"q": "pirates"})
    for position, game in enumerate(everything):
        if position % 4 != 1:
            make_copy(Game.objects.get(slug=game["slug"]), f"8{position:04d}")
    ranked = _pages(client, {"q": "pirates"})
    assert [game["title"] for game in ranked] == [game["title"] for game in everything]
    expected = [game["title"] for game in ranked if game["available_count"]]
    assert len(expected) == 67 and expected[:2] == ["Les Pirates 00", "Les Pirates 02"]
    for number in (1, 2, 3, 4):
        with django_assert_max_num_queries(3):  # the words checked, the count, the page
            client.get(GAMES, {"q": "pirates", "disponible": "oui", "page": number})
    assert [game["title"] for game in _pages(client, {"q": "pirates", "disponible": "oui"})] == expected


@pytest.mark.postgresql
def test_a_one_word_search_pages_in_the_order_of_its_ranking_across_the_titles_end(
    client, db, django_assert_max_num_queries, monkeypatch
):
    # 24 games with the word in their title, once or twice, some in their summary or tags too; 24
    # with it everywhere else only, as often as a notice can: by author (B), tags (C), summary (D).
    # Ranked by title matches first (views.one_word_page) as long as the page lies among them, then by
    # the matches in titles, names or tags (40: page 2), then all of them.
    for number in range(24):
        make_game(
            f"Pirates {'et pirates ' * (number % 2)}{number:02d}",
            summary="Des pirates." * (number % 3),
            tags=("pirates",) * (number % 4 == 0),
        )
        make_game(
            f"Zeste {number:02d}",
            summary="pirates " * number,
            authors=("Pirates Pirates",) * (number % 2),
            tags=("pirates",) * (number % 3 == 0),
        )
    ranked = Game.objects.search("pirates").sorted_by("pertinence")  # one statement, every match
    expected = list(ranked.values_list("title", flat=True))
    assert len(expected) == 48 and expected[0].startswith("Pirates") and expected[-1].startswith("Zeste")
    pages = []
    for number in (1, 2, 3):
        with django_assert_max_num_queries(3):  # the words checked, the count and the ids, the page
            pages.append(titles_of(client.get(GAMES, {"q": "pirates", "page": number}).json()))
    assert pages == [expected[:20], expected[20:40], expected[40:]]
    # The last page asked alone, and a misspelling corrected to the same word.
    last = client.get(GAMES, {"q": "pirattes", "page": "last"}).json()
    assert titles_of(last) == expected[40:] and (last["count"], last["count_exact"]) == (48, True)
    # With a count limit of 10, the 24 title matches alone say "more than 20" on page 1 (counting up
    # to the page's end); page 3, asked first, counts every match.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 10)
    counts = [client.get(GAMES, {"q": "pirates", "page": number}).json() for number in (3, 1)]
    assert [(answer["count"], answer["count_exact"]) for answer in counts] == [(48, True), (20, False)]
    assert titles_of(counts[1]) == expected[:20]


@pytest.mark.postgresql
def test_a_one_word_search_at_a_table_pages_the_games_for_everyone_by_rank_first(client, db):
    # 30 games with the word in their title for everyone, 10 made for young children only, and 20 with
    # the word in their summary for everyone: page 1 comes from the first 30 alone.
    table = dict(players_min=2, players_max=4, age_min=5)
    for number in range(30):
        make_game(f"Dragons {number:02d}", summary="Des dragons." * (number % 2), **table)
    for number in range(10):
        make_game(f"Petits dragons {number:02d}", age_max=7, **table)
    for number in range(1, 21):
        make_game(f"Zeste {number:02d}", summary="dragons " * number, **table)
    ranked = (
        Game.objects.search("dragons").playable_by(ages=[6, 40]).fitting_ages([6, 40]).sorted_by("pertinence")
    )
    expected = list(ranked.values_list("title", flat=True))
    assert len(expected) == 60 and expected[30].startswith("Zeste") and expected[-1].startswith("Petits")
    pages = [
        titles_of(client.get(GAMES, {"q": "dragons", "ages": "6, 40", "page": n}).json()) for n in (1, 2, 3)
    ]
    assert pages == [expected[:20], expected[20:40], expected[40:]]


def plan_of(sql: str, params: list | None = None) -> list[str]:
    """The lines of the plan that ran this statement, with each node's actual rows."""
    with connection.cursor() as cursor:
        cursor.execute(f"EXPLAIN (ANALYZE, COSTS OFF, TIMING OFF) {sql}", params)
        return [row[0] for row in cursor.fetchall()]


def whole_search_scans(sql: str, params: list) -> list[int]:
    """The rows given by each scan of the whole search (the games with the text's condition) that ran
    in this statement, whatever scan PostgreSQL chose; it reads the search's postings."""
    plan = plan_of(sql, params)
    assert any(re.search(r"Scan .*on catalogue_search_posting", line) for line in plan)
    rows = []
    for number, line in enumerate(plan):
        if not re.search(r"Scan .*on catalogue_game\b", line) or "never executed" in line:
            continue
        details = itertools.takewhile(lambda detail: "->" not in detail, plan[number + 1 :])
        if any("search_vector @@" in detail for detail in details):
            rows.append(int(re.search(r"actual rows=(\d+)", line)[1]))
    return sorted(rows)


@pytest.mark.postgresql
def test_a_one_word_search_reads_its_page_and_count_from_the_postings_not_every_match(db):
    # 30 games with `pirates` in their title, 30 with `abordage` as a tag, 30 with both words in their
    # summary only. Half the pirates' games are for 2 to 4 players, the others for 2 to 6.
    for number in range(30):
        make_game(f"Pirates {number:02d}", players_min=2, players_max=4 + 2 * (number % 2))
        make_game(f"Galion {number:02d}", tags=("abordage",), authors=("Anne Dupont",))
        make_game(f"Zeste {number:02d}", summary="pirates abordage")

    def whole_search_read(
        word: str, top=20, count_limit=21, players=None, tag=None, author=None
    ) -> list[int]:
        """The rows given by each scan of the whole search (the games with the text's condition) that
        ran, whatever scan PostgreSQL chose."""
        games = Game.objects.search(word)
        games = games.for_players(players) if players else games
        games = games.with_tags(Tag.objects.filter(name=tag)) if tag else games
        games = (games.by_author(author) if author else games).sorted_by("pertinence")
        sql, params = postings.one_word_page(
            games, top - 20, top, games.order_by().values("pk")[:count_limit]
        )
        return whole_search_scans(sql, params)

    # A page of 20 and a count up to 21, from the postings alone: the whole search is neither ranked
    # nor counted (the ELSE of views.one_word_page never runs).
    assert whole_search_read("pirates") == []
    assert whole_search_read("abordage") == []
    # Counting up to 41: the 30 postings of `pirates` do not hold the answer, the whole search does
    # (60 matches), up to 41; the page still comes from the postings.
    assert whole_search_read("pirates", count_limit=41) == [41]
    # Page 2 (games 21 to 40): past the 30 postings, the whole search is ranked, every match.
    assert whole_search_read("pirates", top=40, count_limit=41) == [41, 60]
    # With a condition on the game's own columns (players, ages, time, category), which each posting
    # holds too: the page and the count from the postings alone (30 games for 3 players, up to 21).
    assert whole_search_read("pirates", players=3) == []
    # For 5 players, 15 postings pass, too few for a page: the whole search is ranked (and counted).
    assert whole_search_read("pirates", players=5) == [15, 15]
    # Their tags too (30 games with the tag).
    assert whole_search_read("abordage", tag="abordage") == []
    # A condition the postings do not hold (an author): the page from the postings, each one's game
    # checked in turn; the count from the whole search (however PostgreSQL joins it to the credits).
    assert whole_search_read("abordage", author="Dupont") != []
    games = Game.objects.search("pirates").sorted_by("pertinence")
    # Two words, or a word PostgreSQL may split (a hyphen, another script), rank every match.
    for text in ("pirates zeste", "chat-perché", "x²"):
        assert postings.one_word_page(Game.objects.search(text).sorted_by("pertinence"), 0, 20) is None
    assert postings.one_word_page(games.order_by("title"), 0, 20) is None


@pytest.mark.postgresql
def test_a_one_word_search_with_a_category_a_time_or_a_tag_lists_what_the_whole_search_lists(client, db):
    # 45 games with `dragons` in their title, in two categories of the ESAR group A400 and three
    # durations, two in three with a tag, and 10 with the word in their summary only. Their postings
    # hold each game's category, time and tags, so the page and the count are found in the postings'
    # index: they must be the whole search's, ranked and counted (the 10 summary matches after every
    # title, or none).
    parcours, adresse = category("A 408", "Jeux de parcours"), category("A 409", "Jeux d'adresse")
    for number in range(45):
        make_game(
            f"Dragons {number:02d}",
            category=(parcours, adresse)[number % 2],
            duration_minutes=(15, 30, 60)[number % 3],
            summary="Des dragons. " * (number % 4),
            tags=("cartes",) * (number % 3 != 2),
        )
    for number in range(10):
        make_game(
            f"Zeste {number:02d}", summary="dragons " * (number + 1), category=parcours, duration_minutes=15
        )
    for criteria, count in [
        ({"categorie": "A 408"}, 33),
        ({"categorie": "A400", "duree_max": 30}, 40),
        ({"categorie": "A 409", "duree_max": 15}, 7),
        ({"duree_max": 59}, 40),
        ({"tag": "cartes"}, 30),
        ({"tag": "cartes", "categorie": "A 409"}, 15),
    ]:
        whole = GameFilter(QueryDict(urlencode({"q": "dragons", **criteria})), queryset=Game.objects.all()).qs
        expected = list(whole.values_list("title", flat=True))
        answers = [client.get(GAMES, {"q": "dragons", **criteria, "page": n}).json() for n in (1, 2)]
        assert answers[0]["count"] == len(expected) == count, criteria
        assert titles_of(answers[0]) + (titles_of(answers[1]) if count > 20 else []) == expected, criteria


def fits(game: Game, criteria: dict, parcours) -> bool:
    """Whether `game` passes a table's `criteria`, as a librarian reads its notice."""
    ages = [int(age) for age in criteria.get("ages", "").split(",") if age]
    players = [count for count in (criteria.get("joueurs"), len(ages)) if count]
    youngest = [age for age in (criteria.get("age"), min(ages, default=None)) if age is not None]
    low, high = game.players_min, game.players_max
    if not all(low is not None and high is not None and low <= count <= high for count in players):
        return False
    if not all(game.age_min is not None and game.age_min <= age <= (game.age_max or 999) for age in youngest):
        return False
    if "duree_max" in criteria and not (game.duration_minutes or 99999) <= criteria["duree_max"]:
        return False
    if criteria.get("categorie") == "A 408" and game.category != parcours:
        return False
    if criteria.get("categorie") == "A400" and game.category is None:  # both categories are in A400
        return False
    return "tag" not in criteria or game.tags.filter(slug=criteria["tag"]).exists()


@pytest.mark.postgresql
def test_a_text_search_with_a_table_lists_exactly_the_games_that_fit_it(client, db):
    # The text's index holds each game's « table keys » (migration 0015): its numbers of players up to
    # 12, its ages up to 18, the steps of a ladder of times it fits in, its category and tags, so that a
    # text search with a table's criteria reads only the games that carry them. 72 games with `dragons`
    # in their title or their summary only, every kind of notice: open-ended, unknown, at the edges of
    # the keys (12 and 13 players, 18 and 19 years, 35 minutes between the ladder's 30 and 40, 240 and
    # 241). Each search lists exactly the games that fit, as the notices read.
    parcours, adresse = category("A 408", "Jeux de parcours"), category("A 409", "Jeux d'adresse")
    players = [(1, 1), (2, 4), (2, 12), (3, 13), (13, 20), (2, 99), (None, None)]
    ages = [(3, 7), (6, None), (8, 18), (10, 17), (18, None), (20, None), (None, None), (4, 12)]
    minutes = [5, 10, 30, 31, 35, 36, 240, 241, None]
    games = []
    for number in range(72):
        low, high = players[number % 7]
        youngest, oldest = ages[number % 8]
        games.append(
            make_game(
                f"Dragons {number:02d}" if number % 2 else f"Zeste {number:02d}",
                summary="" if number % 2 else "Des dragons.",
                players_min=low,
                players_max=high,
                age_min=youngest,
                age_max=oldest,
                duration_minutes=minutes[number % 9],
                category=(parcours, adresse, None)[number % 3],
                tags=("cartes",) * (number % 5 < 2),
            )
        )
    games.append(make_game("Dragons sans âge ni durée", players_min=2, players_max=4))
    for criteria in [
        {"ages": "6, 40"},
        {"ages": "18, 18"},
        {"ages": "19, 45"},
        {"joueurs": 12},
        {"joueurs": 13},
        {"joueurs": 1, "age": 7},
        {"duree_max": 35},
        {"duree_max": 30},
        {"duree_max": 240},
        {"duree_max": 241},
        {"duree_max": 5},
        {"categorie": "A 408", "tag": "cartes"},
        {"categorie": "A400", "duree_max": 36},
        {"ages": "6, 9, 38", "joueurs": 3, "duree_max": 45, "tag": "cartes"},
    ]:
        expected = sorted(game.title for game in games if fits(game, criteria, parcours))
        assert 0 < len(expected) < len(games), criteria
        found = []
        for number in range(1, 6):
            answer = client.get(GAMES, {"q": "dragons", **criteria, "page": number}).json()
            found += titles_of(answer)
            if not answer["next"]:
                break
        assert answer["count"] == len(expected), criteria
        assert sorted(found) == expected, criteria


def count_plan(games) -> str:
    """The plan of the count of `games`, the sequential scan turned off: for the few rows of a test it
    would win, and the test is about what the indexes can do."""
    sql, params = games.order_by().values("pk").query.sql_with_params()
    with connection.cursor() as cursor:
        cursor.execute("SET LOCAL enable_seqscan = off")
        cursor.execute(f"EXPLAIN SELECT count(*) FROM ({sql}) AS counted", params)
        return "\n".join(row[0] for row in cursor.fetchall())


@pytest.mark.postgresql
def test_the_text_index_yields_only_the_games_that_fit_the_table(db):
    # 60 games with `dragons`: 15 for 5 players of 6 years in 30 minutes, 40 in a category of the ESAR
    # group A400, 30 with a tag; 60 others in that category with that tag. The text's index is asked
    # for the word and the table's keys in one scan, so that it yields the games that pass, not every
    # match: the search's SQL must be the index's expression (an argument more, another order, and the
    # keys would be checked on each game's row instead). The keys hold a game's tags and category
    # exactly, which the planner cannot know: it would also read the category's index or the tags'
    # (thousands of games at full scale) for no game less, so their own conditions, which stay for the
    # postings, are written in a form those indexes cannot serve.
    parcours = category("A 408", "Jeux de parcours")
    for number in range(60):
        make_game(
            f"Dragons {number:02d}",
            players_min=2,
            players_max=2 + number % 4,
            age_min=6,
            duration_minutes=30,
            category=parcours if number % 3 else None,
            tags=("cartes",) * (number % 2),
        )
        make_game(f"Autre {number:02d}", category=parcours, tags=("cartes",))
    for criteria, count, operator in [
        ("ages=6,40&duree_max=30&joueurs=5", 15, "@>"),  # every key
        ("categorie=A 408", 40, "@>"),
        ("categorie=A400", 40, "&&"),  # one of the group's categories
        ("tag=cartes", 30, "@>"),
    ]:
        games = GameFilter(QueryDict(f"q=dragons&{criteria}"), queryset=Game.objects.all()).qs
        assert games.count() == count
        if "ages" not in criteria:  # a table's own index would count so few games
            assert re.findall(r"Index (?:Only )?Scan (?:using|on) (\w+)", count_plan(games)) == [
                "catalogue_game_search_gin"
            ], criteria
        # The text's conditions alone: its words and the keys of its table, both in the index.
        games.query.where.children = [
            child for child in games.query.where.children if is_text_condition(child, Game)
        ]
        plan = count_plan(games)
        scan = re.search(r"Bitmap Index Scan on catalogue_game_search_gin .*\n\s*Index Cond: (.*)", plan)
        assert scan and "search_vector @@" in scan[1], plan
        assert "catalogue_table_keys((players_min)::integer" in scan[1] and f" {operator} " in scan[1], plan
        assert "Filter" not in plan  # both conditions checked in the index


# The postings as migrations 0013 and 0014 compute them from the games' search documents and columns.
POSTINGS_FROM_DOCUMENTS = """
    SELECT u.lexeme, ts_rank(g.search_vector, quote_literal(u.lexeme)::tsquery), g.title, g.id,
           g.players_min, g.players_max, g.age_min, g.age_max, g.duration_minutes, g.category_id, g.tag_ids
      FROM catalogue_game g, unnest(g.search_vector) AS u
     WHERE u.weights && '{A,B,C}'::text[]
     ORDER BY 1, 4
"""


@pytest.mark.postgresql
def test_the_postings_follow_every_change_of_the_catalogue(client, db):
    for number in range(25):
        make_game(f"Dragons {number:02d}", summary="Des dragons." * (number % 2))
    renamed = make_game("Le Grand Voyage")
    make_game("Mystère", authors=("Anne Dupont",))
    tagged = make_game("Galion", tags=("pirates",))
    gone = make_game("Dragons 99")
    raised = Game.objects.get(title="Dragons 04")
    # A title, an author's name, a tag, a summary change; a game deleted.
    renamed.title = "Dragons, dragons et dragons"
    renamed.save()
    Author.objects.filter(name="Anne Dupont").update(name="Dragons Dupont")
    tagged.tags.add(make_game("Autre", tags=("dragons",)).tags.get())
    raised.summary = "Des dragons, encore des dragons et toujours des dragons."
    raised.save()
    gone.delete()
    # What a table's search asks of a game: its players, ages, time, category (and its tags, above).
    Game.objects.filter(title="Dragons 05").update(players_min=3, players_max=5, age_min=8, age_max=12)
    Game.objects.filter(title="Dragons 06").update(
        duration_minutes=45, category=category("A408", "Jeux de parcours")
    )
    with connection.cursor() as cursor:
        cursor.execute(
            "SELECT lexeme, rank, title, game_id, players_min, players_max, age_min, age_max, "
            "duration_minutes, category_id, tag_ids FROM catalogue_search_posting ORDER BY 1, 4"
        )
        postings = cursor.fetchall()
        cursor.execute(POSTINGS_FROM_DOCUMENTS)
        assert postings == cursor.fetchall()
    assert ("dragon", "Mystère") in {(lexeme, title) for lexeme, _, title, *_ in postings}
    assert ("dragon", "Galion") in {(lexeme, title) for lexeme, _, title, *_ in postings}
    assert ("Dragons 05", 3, 5, 8, 12) in {(posting[2], *posting[4:8]) for posting in postings}
    assert ("Dragons 06", 45, category("A408", "Jeux de parcours").pk) in {
        (posting[2], *posting[8:10]) for posting in postings
    }
    galion_tags = {frozenset(posting[10]) for posting in postings if posting[2] == "Galion"}
    assert galion_tags == {frozenset(tagged.tags.values_list("pk", flat=True))} and len(*galion_tags) == 2
    # The first page, from the postings, is the whole search's: the renamed game first, the summary's
    # three words lifting « Dragons 04 » above the other titles, « Dragons 99 » gone.
    expected = list(Game.objects.search("dragons").sorted_by("pertinence").values_list("title", flat=True))
    assert expected[:2] == ["Dragons, dragons et dragons", "Dragons 04"] and "Dragons 99" not in expected
    assert titles_of(client.get(GAMES, {"q": "dragons"}).json()) == expected[:20]


@pytest.mark.postgresql
def test_a_text_search_of_available_games_finds_them_behind_many_matches_on_loan(client, db):
    # The 80 best matches have no copy on the shelf; the 10 available games rank last.
    for number in range(80):
        make_game(f"Les Corsaires {number:02d}", players_min=2, players_max=4, age_min=6)
    for number in range(10):
        game = make_game(f"Zoé {number}", summary="Des corsaires.", players_min=2, players_max=4, age_min=6)
        make_copy(game, f"9{number:04d}")
    answer = client.get(GAMES, {"q": "corsaires", "disponible": "oui"}).json()
    assert answer["count"] == 10
    assert titles_of(answer) == [f"Zoé {number}" for number in range(10)]


def test_a_text_search_on_the_shelf_counts_up_to_its_own_lower_limit(client, db, monkeypatch):
    """`q` with `disponible`: its page first, its count bounded lower than the other searches'."""
    monkeypatch.setattr(pages, "AVAILABLE_COUNT_LIMIT", 5)  # the page's 20 games then bound it
    for number in range(25):
        make_copy(make_game(f"Corsaires {number:02d}"), f"8{number:04d}")
    on_shelf = client.get(GAMES, {"q": "corsaires", "disponible": "oui"}).json()
    assert (on_shelf["count"], on_shelf["count_exact"], len(on_shelf["results"])) == (20, False, 20)
    second = client.get(on_shelf["next"]).json()
    assert (second["count"], second["count_exact"], len(second["results"])) == (25, True, 5)
    everything = client.get(GAMES, {"q": "corsaires"}).json()
    assert (everything["count"], everything["count_exact"]) == (25, True)


@pytest.mark.postgresql
def test_a_word_with_many_games_on_the_shelf_counts_them_from_its_postings(client, db, monkeypatch):
    # The count's limit is 100 (a text search with `disponible`) and postings.POSTINGS_READ 2,000 at
    # full scale; here the limit is the first page's 20 games (the count goes to 21) and the postings
    # read 30.
    monkeypatch.setattr(pages, "AVAILABLE_COUNT_LIMIT", 10)
    monkeypatch.setattr(postings, "POSTINGS_READ", 30)
    # 36 games with `corsaires` in their title (its postings, best ranked: by title), 4 with the word
    # in their summary only; one copy each, all on the shelf.
    titled = [make_game(f"Corsaires {number:02d}") for number in range(36)]
    copies = [make_copy(game, f"8{number:04d}") for number, game in enumerate(titled)]
    for number in range(4):
        make_copy(make_game(f"Zeste {number}", summary="Des corsaires."), f"7{number:04d}")

    def count() -> tuple[int, bool, list[int]]:
        """The API's count of the games on the shelf, and the rows of the whole search it read."""
        answer = client.get(GAMES, {"q": "corsaires", "disponible": "oui"}).json()
        games = Game.objects.search("corsaires").with_copies(available=True)
        sql, params = postings.count_statement(games, games.order_by().values("pk")[:21])
        return answer["count"], answer["count_exact"], whole_search_scans(f"SELECT {sql}", params)

    # 21 on the shelf among the first 30 postings: more than 20 games, the search itself not read.
    assert count() == (20, False, [])
    # 26 of the titles out on loan: the postings fall short, the whole search is counted, summaries
    # included (10 titles and 4 summaries on the shelf).
    for copy in copies[:26]:
        lend(copy)
    assert count() == (14, True, [14])
    # A word with fewer postings than are read (36 < 40) is counted whole.
    monkeypatch.setattr(postings, "POSTINGS_READ", 40)
    for number, game in enumerate(titled[:26]):  # a second copy of each, on the shelf
        make_copy(game, f"6{number:04d}")
    assert count() == (20, False, [21])


@pytest.mark.postgresql
def test_a_word_with_a_tag_is_counted_by_the_text_index_which_holds_both(client, db):
    # Few of a word's postings carry a given tag: counting them read every posting of the word before
    # counting the whole search anyway (`q=vikings&tag=memoire` at 1,000,000 games: 736 of 34,010
    # postings, 8.3 ms). The text's index holds the tag beside the word (its table keys) and counts the
    # games with both at once; a table's players or ages, which most postings pass, still read them.
    for number in range(30):
        make_game(
            f"Vikings {number:02d}", players_min=2, players_max=4, tags=("memoire",) * (number % 3 == 0)
        )
    make_game("Zeste", summary="Des vikings.", tags=("memoire",))

    def count(criteria: str) -> tuple[int, bool]:
        """The API's count, and whether counting (up to 21) read the word's postings."""
        games = GameFilter(QueryDict(f"q=vikings&{criteria}"), queryset=Game.objects.all()).qs
        sql, params = postings.count_statement(games, games.order_by().values("pk")[:21])
        plan = plan_of(f"SELECT {sql}", params)
        read = any("on catalogue_search_posting" in line and "never executed" not in line for line in plan)
        return client.get(GAMES, QueryDict(f"q=vikings&{criteria}")).json()["count"], read

    assert count("tag=memoire") == (11, False)  # the whole search, its summary match included
    assert count("joueurs=3") == (30, True)  # 30 postings pass: more than 20 games, from the postings


@pytest.mark.postgresql
def test_a_search_of_two_words_counts_and_pages_from_one_list_of_its_matches(client, db):
    # Its page ranks every match: its count reads that list instead of finding the matches again in the
    # text's index and reading their rows a second time (`q=tresor+pirates` at 1,000,000 games).
    for number in range(45):
        make_game(
            f"Trésor des pirates {number:02d}",
            players_min=2,
            players_max=4,
            age_min=5,
            age_max=8 + 4 * (number % 2),
            summary="Un trésor." * (number % 3),
        )
    make_game("Pirates sans rien")

    for criteria in ("", "&ages=6,10"):  # ranked, or the games for everyone first, then ranked
        games = GameFilter(QueryDict(f"q=tresor pirates{criteria}"), queryset=Game.objects.all()).qs
        for page, limit in ((1, 21), (2, 41), (3, 1001)):
            sql, params = postings.ranked_page(games, 20 * (page - 1), 20 * page, limit)
            plan = plan_of(sql, params)
            with connection.cursor() as cursor:
                cursor.execute(sql, params)
                count, ids = cursor.fetchone()
            # The same answer as the count and the page asked apart, from one scan of the matches.
            assert (count, ids) == (
                min(games.count(), limit),
                [game.pk for game in games[20 * (page - 1) : 20 * page]],
            )
            assert sum("on catalogue_game" in line for line in plan) == 1, plan
        with CaptureQueriesContext(connection) as queries:
            answer = client.get(GAMES, QueryDict(f"q=tresor pirates{criteria}&page=2")).json()
        (counted,) = [query["sql"] for query in queries if "count(*)" in query["sql"]]
        assert sum("on catalogue_game" in line for line in plan_of(counted)) == 1
        assert answer["count"] == 45
        assert titles_of(answer) == [game.title for game in games[20:40]]


def test_bad_filter_values_answer_400_with_a_french_message_per_field(client, catalogue):
    response = client.get(GAMES, {"ages": "6,neuf", "joueurs": "deux", "tri": "hasard", "disponible": "bof"})
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {"ages", "joueurs", "tri", "disponible"}
    assert errors["ages"] == [
        "« neuf » n'est pas un âge : écrivez des nombres entiers séparés par des virgules, par exemple 6, 9, 38."
    ]
    assert errors["joueurs"] == ["Saisissez un nombre entier."]
    assert errors["disponible"] == ["« bof » n'est pas compris : répondez oui ou non."]


def test_bad_filter_values_are_explained_in_english_on_request(client, catalogue):
    response = client.get(GAMES, {"ages": "6,neuf", "joueurs": "deux"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert response.json() == {
        "ages": ["“neuf” is not an age: write whole numbers separated by commas, for example 6, 9, 38."],
        "joueurs": ["Enter a whole number."],
    }


def test_a_game_with_its_credits_pieces_copies_and_documents(client, catalogue):
    catalogue.chateau.components.create(position=0, quantity=54, label="cartes")
    catalogue.chateau.components.create(position=1, quantity=1, label="plateau")
    catalogue.chateau.documents.create(file_name="regles-chateau.pdf")
    response = client.get(f"{GAMES}le-chateau-des-dragons/")
    assert response.status_code == 200
    game = response.json()
    assert game["authors"] == [{"name": "Anne Dupont", "role": "auteur"}]
    assert game["publishers"] == [{"name": "Iello", "place": ""}]
    assert game["components"] == [{"quantity": 54, "label": "cartes"}, {"quantity": 1, "label": "plateau"}]
    assert game["documents"] == [{"file_name": "regles-chateau.pdf", "file": None}]
    assert (game["copies_count"], game["available_count"]) == (2, 1)  # as in a search result
    copies = {copy["barcode"]: copy for copy in game["copies"]}
    assert copies["70001"]["available"] is True and copies["70001"]["due_on"] is None
    assert copies["70001"]["location"] == "Médiathèque"
    on_loan = copies["70002"]
    assert on_loan["available"] is False and on_loan["status"] == "on_shelf"
    assert on_loan["due_on"] == Copy.objects.get(barcode="70002").loans.get().due_on.isoformat()


def test_a_copy_by_its_barcode(client, catalogue):
    response = client.get("/api/copies/90461/")
    assert response.status_code == 200
    assert response.json() == {
        "game": "http://testserver/api/games/les-colons-de-catane/",
        "game_title": "Les colons de Catane",
        "barcode": "90461",
        "cote": "LES",
        "section": {"code": "A 410", "label": "jeu de langue", "family": "jeu de règles"},
        "location": "Maison des Enfants",
        "status": "on_shelf",
        "status_label": "En rayon",
        "available": True,
        "due_on": None,
        "kind": "Jeu",
    }
    assert client.get("/api/copies/90901/").json()["status_label"] == "En réparation"
    assert client.get("/api/copies/00000/").status_code == 404


def test_facets_count_categories_and_tags_of_a_search(client, catalogue):
    response = client.get(f"{GAMES}facets/", {"ages": "6,9,38"})
    assert response.status_code == 200
    assert response.json() == {
        "count": 2,
        "count_exact": True,
        "categories": [{"code": "A 407", "label": "jeu de hasard", "count": 2}],
        "tags": [
            {"slug": "cooperatif", "name": "Coopératif", "count": 2},
            {"slug": "dragons", "name": "Dragons", "count": 1},
            {"slug": "memoire", "name": "Mémoire", "count": 1},
        ],
    }
    assert client.get(f"{GAMES}facets/", {"ages": "x"}).status_code == 400


def test_facets_count_the_games_without_a_category_in_the_total_only(client, catalogue):
    make_game("Jeu sans catégorie", players_min=2, players_max=6, age_min=6, tags=("Mémoire",))
    facets = client.get(f"{GAMES}facets/", {"ages": "6,9,38"}).json()
    assert facets["count"] == 3
    assert facets["categories"] == [{"code": "A 407", "label": "jeu de hasard", "count": 2}]
    assert facets["tags"][:2] == [
        {"slug": "cooperatif", "name": "Coopératif", "count": 2},
        {"slug": "memoire", "name": "Mémoire", "count": 2},
    ]


@pytest.mark.postgresql
def test_the_facets_of_a_broad_search_stop_at_the_limit_and_count_the_games_read(client, db, monkeypatch):
    # "More than 1,000 games" at full scale; a limit of 30 here, with 45 games of one category.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 30)
    add_games(45)
    facets = client.get(f"{GAMES}facets/", {"ages": "6,8"}).json()
    assert (facets["count"], facets["count_exact"]) == (30, False)
    # Counted among the games read: the limit and one more, which tells that there are more.
    assert facets["categories"] == [{"code": "A 406", "label": "jeu de stratégie", "count": 31}]
    assert [tag["count"] for tag in facets["tags"]] == [31, 31]
    # A narrower search is counted exactly.
    narrow = client.get(f"{GAMES}facets/", {"q": "partie 007"}).json()
    assert (narrow["count"], narrow["count_exact"]) == (1, True)


@pytest.mark.postgresql
def test_the_facets_of_a_broad_word_are_those_of_its_best_ranked_games(client, db, monkeypatch):
    # A limit of 30 here. 40 games with `pirates` only in their summary, written first (the text's
    # index gives them first), then 40 with it in their title: past the limit, the games counted are
    # the 31 best ranked, all titles, read from the word's postings.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 30)
    summaries, titles = category("A 409", "jeu d'ambiance"), category("A 406", "jeu de stratégie")
    credited = {"duration_minutes": 30, "authors": ("Anne Dupont",)}
    for number in range(40):
        make_game(f"Zeste {number:02d}", summary="Une île de pirates.", category=summaries, **credited)
    for number in range(40):
        make_game(f"Pirates {number:02d}", category=titles, tags=("abordage",), **credited)
    facets = client.get(f"{GAMES}facets/", {"q": "pirates"}).json()
    assert (facets["count"], facets["count_exact"]) == (30, False)
    assert facets["categories"] == [{"code": "A 406", "label": "jeu de stratégie", "count": 31}]
    assert facets["tags"] == [{"slug": "abordage", "name": "abordage", "count": 31}]
    # Fewer postings than the limit: the whole search is read, summaries included, and counted exactly.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 100)
    facets = client.get(f"{GAMES}facets/", {"q": "pirates"}).json()
    assert (facets["count"], facets["count_exact"]) == (80, True)
    assert [(facet["code"], facet["count"]) for facet in facets["categories"]] == [
        ("A 406", 40),
        ("A 409", 40),
    ]
    # With a condition its postings hold (a time, a category…), the same among the postings that pass.
    monkeypatch.setattr(ordering, "EXACT_COUNT_LIMIT", 30)
    facets = client.get(f"{GAMES}facets/", {"q": "pirates", "duree_max": 45}).json()
    assert (facets["count"], facets["count_exact"]) == (30, False)
    assert facets["categories"] == [{"code": "A 406", "label": "jeu de stratégie", "count": 31}]
    # When too few pass (none of the titles is in A 409), the whole search.
    facets = client.get(f"{GAMES}facets/", {"q": "pirates", "categorie": "A 409"}).json()
    assert (facets["count"], facets["count_exact"]) == (30, False)
    assert facets["categories"] == [{"code": "A 409", "label": "jeu d'ambiance", "count": 31}]
    # With a condition they do not hold (an author): the first games the whole search reads, in
    # whichever order PostgreSQL reads them.
    facets = client.get(f"{GAMES}facets/", {"q": "pirates", "auteur": "Dupont"}).json()
    assert (facets["count"], facets["count_exact"]) == (30, False)
    assert sum(facet["count"] for facet in facets["categories"]) == 31


def test_the_api_is_read_only_for_everyone(client, catalogue, staff_user):
    assert client.post(GAMES, {"title": "Nouveau"}).status_code in (401, 403)
    client.force_login(staff_user)
    assert client.post(GAMES, {"title": "Nouveau"}).status_code == 405
    assert client.delete(f"{GAMES}biblios/").status_code == 405
    assert client.put("/api/copies/90461/", {}).status_code == 405
    assert Game.objects.count() == 6


@pytest.mark.postgresql
def test_the_game_list_runs_the_same_queries_whatever_the_page_size(client, db, django_assert_num_queries):
    # The count, then the page of games with their category, tag names and copy counts.
    add_games(2)
    with django_assert_num_queries(2):
        assert len(client.get(GAMES, {"ages": "6,8"}).json()["results"]) == 2
    add_games(25)
    with django_assert_num_queries(2):
        assert len(client.get(GAMES, {"ages": "6,8"}).json()["results"]) == 20


@pytest.mark.postgresql
@pytest.mark.parametrize(
    ("search", "queries"),
    [
        ({"q": "catane"}, 3),  # the words are checked, then the count and the page
        ({"q": "catanne"}, 3),  # corrected in the same round trip as the check
        ({"ages": "6, 9, 38", "tri": "popularite"}, 2),  # the loan count kept on each game
        # the count, the games for everyone, then those made for younger children (one page)
        ({"ages": "6, 9, 38", "disponible": "oui"}, 3),
        ({"q": "dragons", "joueurs": "3", "disponible": "oui", "tri": "duree"}, 3),
    ],
)
def test_every_kind_of_search_answers_in_at_most_three_queries(
    client, catalogue, django_assert_num_queries, search, queries
):
    with django_assert_num_queries(queries):
        assert client.get(GAMES, search).json()["results"]


@pytest.mark.postgresql
def test_a_game_and_its_facets_take_a_fixed_number_of_queries(client, db, django_assert_num_queries):
    add_games(3)
    with django_assert_num_queries(1):
        client.get(f"{GAMES}facets/", {"ages": "6,8"})
    # The notice with its authors, publishers, languages, tags, pieces and documents, then its copies.
    with django_assert_num_queries(2):
        client.get(f"{GAMES}partie-000/")


@pytest.mark.postgresql
def test_a_full_notice_and_a_copy_take_two_queries_and_one(client, catalogue, django_assert_num_queries):
    chateau = catalogue.chateau
    chateau.components.create(position=0, quantity=54, label="cartes")
    chateau.documents.create(file_name="regles-chateau.pdf")
    chateau.languages.add(Language.objects.create(code="fre", name="Français"))
    with django_assert_num_queries(2):
        game = client.get(f"{GAMES}le-chateau-des-dragons/").json()
    assert (len(game["authors"]), len(game["tags"]), len(game["copies"]), game["languages"]) == (
        1,
        2,
        2,
        ["fre"],
    )
    # Its game, section and location, its loan and whereabouts: one query.
    with django_assert_num_queries(1):
        assert client.get("/api/copies/70002/").json()["available"] is False


def test_the_schema_describes_the_endpoints_and_the_french_filters(client, db):
    response = client.get("/api/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json")
    assert response.status_code == 200
    schema = response.json()
    assert schema["openapi"].startswith("3.")
    for path in ("/api/games/", "/api/games/{slug}/", "/api/games/facets/", "/api/copies/{barcode}/"):
        assert path in schema["paths"], path
    parameters = {p["name"] for p in schema["paths"]["/api/games/"]["get"]["parameters"]}
    assert {"ages", "joueurs", "age", "duree_max", "categorie", "tag", "auteur", "editeur"} <= parameters
    assert {"localisation", "disponible", "q", "tri", "page"} <= parameters
    assert {"count", "count_exact", "next", "results"} <= set(
        schema["components"]["schemas"]["PaginatedGameList"]["properties"]
    )
    facet_parameters = {p["name"] for p in schema["paths"]["/api/games/facets/"]["get"]["parameters"]}
    assert {"ages", "q", "tag"} <= facet_parameters
    assert "post" not in schema["paths"]["/api/games/"]


def test_the_schema_describes_every_filter_without_a_warning(db):
    # A parameter whose type the generator had to guess would be a warning, failing `check --deploy`.
    call_command("spectacular", "--validate", "--fail-on-warn", stdout=StringIO())


def test_the_interactive_docs_load_their_assets_from_this_site(client, db):
    response = client.get("/api/docs/")
    assert response.status_code == 200
    html = response.content.decode()
    assets = re.findall(r'(?:src|href)="([^"]+)"', html)
    assert any(asset.endswith("swagger-ui-bundle.js") for asset in assets)
    for asset in assets:
        if asset.startswith("/api/docs/?script"):
            continue  # the page's own script, served apart so that no script is inline
        assert asset.startswith(settings.STATIC_URL), f"{asset} does not come from this site's static files"
        # Shipped with the site: collectstatic gathers it and whitenoise serves it.
        assert finders.find(asset.removeprefix(settings.STATIC_URL)), asset
