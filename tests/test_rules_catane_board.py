"""Catan's island: the beginners' set-up and the random balanced layout (engine, page, print, API).

Sources: CATAN base game rules (Catan Studio, 5th edition 2015), almanac « Set-Up, Variable » (tokens
A–R counter-clockwise from a corner towards the centre, skipping the desert; or a random order with no
two red numbers side by side; harbours placed at random) and « Starting Set-Up for Beginners »
(Illustration R). The pieces: seed 002 (« 19 tuiles terrain […] 9 ports, 18 jetons numérotés »).
"""

from collections import Counter
from itertools import pairwise

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine.hexgrid import (
    SeededRandom,
    are_neighbours,
    corners,
    disc,
    distance,
    ring,
    shared_side,
    spiral,
)
from rules.games import catane_board as catan
from tests.conftest import pdf_page_count

TERRAINS = Counter({"forest": 4, "pasture": 4, "fields": 4, "hills": 3, "mountains": 3, "desert": 1})
NUMBERS = Counter({2: 1, 3: 2, 4: 2, 5: 2, 6: 2, 8: 2, 9: 2, 10: 2, 11: 2, 12: 1})
HARBOURS = Counter({"generic": 4, "lumber": 1, "wool": 1, "grain": 1, "brick": 1, "ore": 1})


def assert_a_complete_island(board):
    held = catan.counts(board)
    assert held["terrains"] == TERRAINS
    assert held["numbers"] == NUMBERS
    assert held["harbours"] == HARBOURS
    assert len({tile.hex for tile in board.tiles}) == 19
    desert = board.tile(board.robber)
    assert desert.terrain == "desert" and desert.number is None
    assert len({(harbour.sea, harbour.land) for harbour in board.harbours}) == 9
    for harbour in board.harbours:
        assert are_neighbours(harbour.sea, harbour.land)


# --- the hexagonal grid --------------------------------------------------------------------------------------


def test_the_island_is_a_hex_and_two_rings_rows_of_3_4_5_4_3():
    assert len(disc(2)) == 19
    assert [sum(1 for _, r in disc(2) if r == row) for row in range(-2, 3)] == [3, 4, 5, 4, 3]
    assert [len(ring(radius)) for radius in (1, 2, 3)] == [6, 12, 18]


@pytest.mark.parametrize("start", range(6))
def test_a_spiral_visits_every_hex_once_each_step_to_a_neighbour(start):
    order = spiral(2, start)
    assert sorted(order) == sorted(disc(2))
    assert all(are_neighbours(a, b) for a, b in pairwise(order))
    assert distance(order[0]) == 2 and order[-1] == (0, 0)


def test_neighbours_share_a_side_of_two_common_corners():
    for hex_ in disc(2):
        for other in disc(2):
            if are_neighbours(hex_, other):
                a, b = shared_side(hex_, other)
                for corner in (a, b):
                    assert any(
                        abs(corner[0] - x) < 1e-9 and abs(corner[1] - y) < 1e-9 for x, y in corners(other)
                    )


def test_the_seeded_shuffle_is_a_permutation_without_bias_on_small_bounds():
    draw = SeededRandom(7)
    assert sorted(draw.shuffled(range(19))) == list(range(19))
    counts = Counter(SeededRandom(seed).below(3) for seed in range(3000))
    assert all(900 < count < 1100 for count in counts.values())


# --- the beginners' island ------------------------------------------------------------------------------


def test_the_beginners_island_is_illustration_r_row_by_row():
    board = catan.beginner_board()
    rows = [[(tile.terrain, tile.number) for tile in board.tiles if tile.hex[1] == r] for r in range(-2, 3)]
    assert rows[0] == [("mountains", 10), ("pasture", 2), ("forest", 9)]
    assert rows[2] == [("fields", 9), ("forest", 11), ("desert", None), ("forest", 3), ("mountains", 8)]
    assert rows[4] == [("hills", 5), ("fields", 6), ("pasture", 11)]
    assert board.robber == (0, 0)  # the desert in the middle, the robber on it
    assert_a_complete_island(board)


def test_the_beginners_island_has_no_red_numbers_side_by_side():
    assert catan.red_neighbours(catan.beginner_board().tiles) == []


# --- the random balanced island -----------------------------------------------------------------------------


def test_the_spiral_lays_tokens_a_to_r_counter_clockwise_from_a_corner_skipping_the_desert():
    board = catan.random_board(1234, "spiral")
    order = [hex_ for hex_ in spiral(2, board.spiral_start) if board.tile(hex_).terrain != "desert"]
    assert [board.tile(hex_).letter for hex_ in order] == list("ABCDEFGHIJKLMNOPQR")
    assert [board.tile(hex_).number for hex_ in order] == [number for _, number in catan.TOKENS]
    # A corner of the island to start from, then counter-clockwise: the second hex touches the first.
    first, second = spiral(2, board.spiral_start)[:2]
    assert are_neighbours(first, second)


def test_a_random_order_places_no_letters():
    board = catan.random_board(1234, "random")
    assert all(tile.letter is None for tile in board.tiles)


seeds = st.integers(min_value=0, max_value=catan.SEED_MAX)
orders = st.sampled_from(catan.NUMBER_ORDERS)


@settings(max_examples=300)
@given(seeds, orders)
def test_property_every_random_island_has_all_its_pieces_and_no_red_neighbours(seed, numbers):
    board = catan.random_board(seed, numbers)
    assert_a_complete_island(board)
    assert catan.red_neighbours(board.tiles) == []


@given(seeds, orders)
def test_property_the_same_seed_gives_the_same_island(seed, numbers):
    assert catan.random_board(seed, numbers) == catan.random_board(seed, numbers)


def test_seeds_give_different_islands():
    boards = {catan.random_board(seed).tiles for seed in range(50)}
    assert len(boards) == 50


def test_the_generator_is_pinned_so_a_printed_seed_stays_the_same_island():
    # SplitMix64's published first output for seed 0 (Steele, Lea & Flood 2014 reference code).
    assert SeededRandom(0).next64() == 0xE220A8397B1DCDAF
    board = catan.random_board(42, "spiral")
    assert board == catan.random_board(42, "spiral")
    assert [tile.terrain for tile in board.tiles[:3]] == [
        tile.terrain for tile in catan.random_board(42).tiles[:3]
    ]


def test_the_drawing_has_19_hexes_9_harbours_and_red_sixes_and_eights():
    drawing = catan.drawing(catan.beginner_board())
    assert len(drawing["hexes"]) == 19
    assert len(drawing["harbours"]) == 9
    assert sum(1 for hex_ in drawing["hexes"] if hex_["red"]) == 4
    assert sum(len(hex_["pips"]) for hex_ in drawing["hexes"]) == 58  # the dots of the 18 tokens
    assert all(len(hex_["points"].split()) == 6 for hex_ in drawing["hexes"])


# --- page, print and API ----------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_board_page_without_a_seed_redirects_to_a_seed_in_the_address(client):
    response = client.get(reverse("rules:catan-board"))
    assert response.status_code == 302
    assert "graine=" in response["Location"]


@pytest.mark.django_db
def test_the_board_page_draws_the_seeded_island_and_links_its_print(client):
    response = client.get(reverse("rules:catan-board"), {"graine": "1234"})
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="hex ') == 19
    assert html.count('class="harbour"') == 9
    assert "graine=1234" in html
    assert reverse("rules:catan-board-print") in html
    board = catan.random_board(1234, "spiral")
    assert f">{board.tile(board.robber).terrain}<" not in html  # French names, not slugs
    assert "Désert" in html


@pytest.mark.django_db
def test_the_beginners_island_page_needs_no_seed(client):
    response = client.get(reverse("rules:catan-board"), {"disposition": "debutant"})
    assert response.status_code == 200
    assert response.content.decode().count('class="hex ') == 19


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"graine": "abc"}, "graine"),
        ({"graine": "-1"}, "graine"),
        ({"graine": str(2**31)}, "graine"),
        ({"graine": "1", "jetons": "n'importe"}, "jetons"),
        ({"disposition": "carree"}, "disposition"),
    ],
)
def test_a_bad_board_address_is_400_with_the_reason_on_its_field(client, query, field):
    response = client.get(reverse("rules:catan-board"), query)
    assert response.status_code == 400
    assert f'id="id_{field}_error"' in response.content.decode() or "errorlist" in response.content.decode()


@pytest.mark.django_db
def test_the_api_gives_the_seeded_island_as_data(client):
    response = client.get("/api/rules/catane/board/", {"seed": "1234", "numbers": "random"})
    assert response.status_code == 200
    data = response.json()
    assert data["seed"] == 1234 and data["layout"] == "random" and data["numbers"] == "random"
    assert len(data["hexes"]) == 19 and len(data["harbours"]) == 9
    board = catan.random_board(1234, "random")
    assert [(h["q"], h["r"], h["terrain"], h["number"]) for h in data["hexes"]] == [
        (tile.hex[0], tile.hex[1], tile.terrain, tile.number) for tile in board.tiles
    ]
    assert client.get("/api/rules/catane/board/", {"seed": "1234", "numbers": "random"}).json() == data


@pytest.mark.django_db
def test_the_api_beginners_island_and_a_drawn_seed(client):
    beginner = client.get("/api/rules/catane/board/", {"layout": "beginner"}).json()
    assert beginner["seed"] is None and beginner["hexes"][0]["terrain"] == "mountains"
    drawn = client.get("/api/rules/catane/board/").json()
    assert 0 <= drawn["seed"] <= catan.SEED_MAX


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("query", "field"),
    [
        ({"seed": "x"}, "seed"),
        ({"seed": "99999999999"}, "seed"),
        ({"layout": "hex"}, "layout"),
        ({"numbers": "1"}, "numbers"),
    ],
)
def test_the_api_refuses_bad_input_with_400_per_field(client, query, field):
    response = client.get("/api/rules/catane/board/", query)
    assert response.status_code == 400
    assert list(response.json()) == [field]


@pytest.mark.django_db
def test_the_api_board_is_in_the_openapi_schema(client):
    assert (
        "/api/rules/catane/board/"
        in client.get("/api/schema/", HTTP_ACCEPT="application/json").json()["paths"]
    )


@pytest.mark.browser
@pytest.mark.parametrize("query", ["graine=1234", "disposition=debutant", "graine=7&jetons=hasard"])
def test_the_board_prints_on_one_a4_page(live_server, transactional_db, print_to_pdf, query):
    pdf = print_to_pdf(f"{live_server.url}{reverse('rules:catan-board-print')}?{query}")
    assert pdf_page_count(pdf) == 1


@pytest.mark.django_db
def test_the_catane_rules_page_links_to_its_board(client):
    html = client.get(reverse("rules:page-detail", args=["catane"])).content.decode()
    assert f'href="{reverse("rules:catan-board")}"' in html
    other = client.get(reverse("rules:page-detail", args=["quarto"])).content.decode()
    assert reverse("rules:catan-board") not in other


@pytest.mark.django_db
def test_the_board_page_answers_200_302_or_400_whatever_the_address(client):
    from hypothesis import HealthCheck

    values = st.sampled_from(
        ["", "0", "1234", "-1", "x", "2147483647", "2147483648", "debutant", "hasard", "²", "1e3"]
    )
    keys = st.sampled_from(["disposition", "jetons", "graine", "autre"])

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.dictionaries(keys, values, max_size=4))
    def check(query):
        for name in ("rules:catan-board", "rules:catan-board-print"):
            assert client.get(reverse(name), query).status_code in (200, 302, 400)
        assert client.get("/api/rules/catane/board/", query).status_code in (200, 400)

    check()
