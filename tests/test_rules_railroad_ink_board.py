"""Railroad Ink's board scorer: the sheet's numbers read from the board (engine, API, page, print).

Rules from seed 003 (BGA help page « Gamehelprailroadink », 2021-05-05): « Faces des dés Route », « Routes
spéciales », « Score » (Réseaux and the table « Valeur d'un Réseau », La plus longue Autoroute / Le plus
long Chemin de fer: « Les Gares au milieu de la suite n'interrompent pas », Cases Centrales, Erreur:
« Chaque fin de Route […] qui n'est pas connectée à une autre Route où sur un bord extérieur (sortie ou
simple bord) compte comme 1 Erreur »). The boards below are worked by hand from those rules (the seed
has no drawn example board); rows and columns count from 1, top left.
"""

import re
from html import unescape

import pytest
from django.urls import reverse
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game
from rules.games import railroad_ink_board as ink
from tests.conftest import pdf_page_count

RAILROAD = get_game("railroad-ink")


def route(row, column, tile, rotation=0, mirrored=False, round=None):  # noqa: A002 - the game's word
    return {
        "row": row,
        "column": column,
        "tile": tile,
        "rotation": rotation,
        "mirrored": mirrored,
        "round": round,
    }


def read(*routes, variants=()):
    return RAILROAD.run_check({"routes": list(routes), "variants": list(variants)})


def refusal(*routes) -> dict:
    with pytest.raises(InvalidInput) as caught:
        read(*routes)
    return {
        path: [str(message.template) for message in messages]
        for path, messages in caught.value.errors.items()
    }


# --- hand-worked boards -------------------------------------------------------------------------------------


def test_a_highway_becomes_a_railway_through_a_station_and_links_two_exits():
    """Top highway exit (column 2) down a straight highway, a curved station turned west, a railway to the
    left railway exit (row 2): one network of 2 exits = 4 points; the station belongs to both runs."""
    result = read(
        route(1, 2, "road_straight"),
        route(2, 2, "station_curve", mirrored=True),  # highway north, railway west
        route(2, 1, "rail_straight", rotation=90),
    )
    assert result["sheet"] == {
        "networks": [2],
        "longest_highway": 2,
        "longest_railway": 2,
        "center_squares": 0,
        "errors": 0,
    }
    assert result["points"] == {
        "networks": 4,
        "longest_highway": 2,
        "longest_railway": 2,
        "center_squares": 0,
        "errors": 0,
        "total": 8,
    }


def crossing(middle, rotation):
    """A railway from the top exit of column 4 to the bottom one, a highway from the left exit of row 4 to
    the right one, crossing in the middle square."""
    railway = [route(row, 4, "rail_straight") for row in (1, 2, 3, 5, 6, 7)]
    highway = [route(4, column, "road_straight", rotation=90) for column in (1, 2, 3, 5, 6, 7)]
    return read(*railway, *highway, route(4, 4, middle, rotation=rotation))


def test_an_overpass_does_not_connect_its_highway_to_its_railway():
    result = crossing("overpass", 90)  # highway east–west, railway north–south
    assert [network["exits"] for network in result["networks"]] == [2, 2]
    assert result["sheet"] == {
        "networks": [2, 2],
        "longest_highway": 7,
        "longest_railway": 7,
        "center_squares": 5,
        "errors": 0,
    }
    assert result["points"]["total"] == 8 + 7 + 7 + 5


def test_a_station_crossing_joins_them_into_one_network_of_four_exits():
    result = crossing("special_station_cross", 90)
    assert result["sheet"]["networks"] == [4]
    assert result["points"]["networks"] == 12
    assert result["points"]["total"] == 12 + 7 + 7 + 5


def test_open_ends_are_errors_but_an_end_on_the_board_edge_is_not():
    # Column 1 has no exit on the top side: the highway's north end on the edge is no error, its south end is.
    result = read(route(1, 1, "road_straight"))
    assert result["sheet"]["errors"] == 1
    assert result["errors"] == [{"row": 1, "column": 1, "side": "south", "reason": "open"}]
    assert result["points"]["total"] == 1 - 1  # a highway of 1 square, 1 error


def test_a_highway_facing_a_railway_is_an_error_on_each_side():
    result = read(
        route(4, 1, "road_straight", rotation=90),  # from the left highway exit of row 4
        route(4, 2, "rail_straight", rotation=90),  # its west end faces the highway: no connection
    )
    reasons = [(error["column"], error["side"], error["reason"]) for error in result["errors"]]
    assert reasons == [(1, "east", "mismatch"), (2, "east", "open"), (2, "west", "mismatch")]
    assert result["sheet"]["networks"] == [1]  # the highway reaches one exit only: 0 points
    assert result["points"]["networks"] == 0


def test_a_highway_against_a_railway_exit_does_not_connect_to_it_and_is_an_error():
    result = read(route(1, 4, "road_straight"), route(2, 4, "road_curve", rotation=270))
    assert {"row": 1, "column": 4, "side": "north", "reason": "mismatch"} in result["errors"]
    assert result["networks"] == []


def test_a_loop_counts_each_square_once_in_the_longest_run():
    loop = read(
        route(2, 2, "rail_curve", rotation=90),  # east, south
        route(2, 3, "rail_curve", rotation=180),  # south, west
        route(3, 3, "rail_curve", rotation=270),  # west, north
        route(3, 2, "rail_curve"),  # north, east
    )
    assert loop["sheet"]["longest_railway"] == 4
    assert loop["sheet"]["errors"] == 0
    assert loop["sheet"]["center_squares"] == 1  # row 3, column 3


def test_the_longest_highway_takes_the_longest_branch_of_a_junction():
    result = read(
        route(4, 1, "road_straight", rotation=90),
        route(4, 2, "road_t"),  # east, south, west
        route(5, 2, "road_straight"),
        route(4, 3, "road_straight", rotation=90),
        route(4, 4, "road_straight", rotation=90),
    )
    assert result["longest_highway"]["length"] == 4
    assert result["longest_highway"]["cells"][0] in ([4, 1], [4, 4])


def test_mirroring_a_curved_station_swaps_its_railway_side():
    plain, _ = ink.TILES["station_curve"].placed(0, False)
    mirrored, _ = ink.TILES["station_curve"].placed(0, True)
    assert plain == {ink.NORTH: "road", ink.EAST: "rail"}
    assert mirrored == {ink.NORTH: "road", ink.WEST: "rail"}
    assert len(ink.orientations(ink.TILES["station_curve"])) == 8
    assert len(ink.orientations(ink.TILES["road_straight"])) == 2


def test_the_board_has_twelve_exits_alternating_highways_and_railways():
    assert len(ink.EXITS) == 12
    assert sorted(ink.EXITS.values()).count("road") == 6


# --- positions that cannot happen ----------------------------------------------------------------------------


def test_two_routes_on_one_square_are_refused():
    errors = refusal(route(3, 3, "road_straight"), route(3, 3, "rail_t"))
    assert errors == {
        "routes.1.row": [
            "La case ligne %(row)s, colonne %(column)s porte déjà une route (route n° %(other)s)."
        ]
    }


def test_a_rotation_that_is_not_a_quarter_turn_is_refused():
    assert "routes.0.rotation" in refusal(route(3, 3, "road_straight", rotation=45))


def test_only_three_plain_dice_and_one_special_die_a_round():
    four = [route(1, column, "road_straight", round=1) for column in (1, 2, 3, 4)]
    assert list(refusal(*four)) == ["routes.3.round"]
    two_specials = [route(1, 1, "overpass", round=2), route(1, 2, "station_curve", round=2)]
    assert list(refusal(*two_specials)) == ["routes.1.round"]


def test_special_routes_once_each_one_a_round_three_a_game():
    assert list(refusal(route(1, 1, "special_road_cross"), route(1, 2, "special_road_cross"))) == [
        "routes.1.tile"
    ]
    assert list(
        refusal(route(1, 1, "special_road_cross", round=1), route(1, 2, "special_rail_cross", round=1))
    ) == ["routes.1.round"]
    four = ["special_road_cross", "special_rail_cross", "special_station_roads", "special_station_rails"]
    assert list(refusal(*(route(2, index + 1, slug) for index, slug in enumerate(four)))) == ["routes.3.tile"]


def test_with_an_expansion_the_game_has_six_rounds():
    assert read(route(1, 2, "road_straight", round=7))["sheet"]["errors"] == 1
    with pytest.raises(InvalidInput) as caught:
        read(route(1, 2, "road_straight", round=7), variants=["river"])
    assert "routes.0.round" in caught.value.errors


@settings(max_examples=60, deadline=None)
@given(
    st.lists(
        st.tuples(
            st.integers(1, 7),
            st.integers(1, 7),
            st.sampled_from(sorted(t for t in ink.TILES if not t.startswith("special"))),
            st.sampled_from(ink.ROTATIONS),
            st.booleans(),
        ),
        max_size=ink.MOST_ROUTES,
        unique_by=lambda item: (item[0], item[1]),
    )
)
def test_property_the_sheet_read_from_any_board_adds_up(routes):
    result = read(*(route(r, c, tile, rotation, mirrored) for r, c, tile, rotation, mirrored in routes))
    sheet, points = result["sheet"], result["points"]
    assert sum(sheet["networks"]) <= 12
    assert 0 <= sheet["center_squares"] <= 9
    assert sheet["longest_highway"] <= len(routes) and sheet["longest_railway"] <= len(routes)
    assert points["total"] == sum(value for key, value in points.items() if key != "total")
    # The score sheet scores the same numbers the same way.
    scored = RAILROAD.run_score({"players": [{"name": "Plateau", **sheet}]})
    assert scored.players[0].total == points["total"]


# --- API, page and print ------------------------------------------------------------------------------------


@pytest.mark.django_db
def test_the_api_check_reads_a_board(client):
    body = {
        "routes": [
            route(1, 2, "road_straight"),
            route(2, 2, "station_curve", mirrored=True),
            route(2, 1, "rail_straight", 90),
        ]
    }
    response = client.post("/api/rules/railroad-ink/check/", body, content_type="application/json")
    assert response.status_code == 200
    assert response.json()["points"]["total"] == 8


@pytest.mark.django_db
def test_the_api_check_refuses_bad_squares_per_field_in_french_or_english(client):
    body = {"routes": [route(8, 2, "road_straight"), route(1, 1, "tunnel")]}
    response = client.post("/api/rules/railroad-ink/check/", body, content_type="application/json")
    assert response.status_code == 400
    assert set(response.json()) == {"routes.0.row", "routes.1.tile"}
    assert response.json()["routes.0.row"] == ["La valeur doit être au plus 7."]
    english = client.post(
        "/api/rules/railroad-ink/check/", body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert english.json()["routes.0.row"] == ["The value must be at most 7."]


@pytest.mark.django_db
def test_the_api_check_caps_the_number_of_routes(client):
    body = {
        "routes": [
            route(1 + index // 7, 1 + index % 7, "road_straight") for index in range(ink.MOST_ROUTES + 1)
        ]
    }
    response = client.post("/api/rules/railroad-ink/check/", body, content_type="application/json")
    assert response.status_code == 400
    assert "routes" in response.json()


def board_post(**cells):
    data = {}
    for name, value in cells.items():
        _kind, row, column = name.split("_")
        data[f"cell.{row}.{column}"] = value
    return data


@pytest.mark.django_db
def test_the_page_form_counts_a_board_without_javascript(client):
    data = {
        "cell.1.2": "road_straight:0:0",
        "cell.2.2": "station_curve:0:1",
        "cell.2.1": "rail_straight:90:0",
        "round.1.2": "1",
    }
    response = client.post(reverse("rules:check", args=["railroad-ink"]), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "Ce que le plateau rapporte" in html
    assert "<strong>8</strong>" in html
    assert 'class="railroad-board"' in html
    assert reverse("rules:railroad-ink-board-print") + "?" in html


@pytest.mark.django_db
def test_the_page_form_puts_a_refusal_on_its_square(client):
    data = {f"cell.1.{column}": "road_straight:0:0" for column in (1, 2, 3, 4)}
    data |= {f"round.1.{column}": "1" for column in (1, 2, 3, 4)}
    response = client.post(reverse("rules:check", args=["railroad-ink"]), data)
    assert response.status_code == 400
    html = response.content.decode()
    assert "Ligne 1, colonne 4" in html
    assert "La manche 1 n&#x27;a que 3 dés Route ordinaires." in html


@pytest.mark.django_db
def test_the_page_form_refuses_a_piece_that_does_not_exist(client):
    response = client.post(reverse("rules:check", args=["railroad-ink"]), {"cell.1.1": "tunnel:0:0"})
    assert response.status_code == 400


@pytest.mark.django_db
def test_the_rules_page_links_to_the_board_which_has_its_own_page(client):
    html = client.get(reverse("rules:page-detail", args=["railroad-ink"])).content.decode()
    assert f'href="{reverse("rules:check", args=["railroad-ink"])}"' in html
    assert 'name="cell.' not in html
    board = client.get(reverse("rules:check", args=["railroad-ink"])).content.decode()
    assert board.count('name="cell.') == 49
    assert "Autoroute courbée : haut, droite" in board
    assert "Gare courbée — autoroute : haut ; chemin de fer : droite" in board


@pytest.mark.browser
def test_a_counted_board_prints_on_one_a4_page(live_server, transactional_db, print_to_pdf):
    cells = {f"cell.{row}.4": "rail_straight:0:0" for row in (1, 2, 3, 5, 6, 7)}
    cells |= {f"cell.4.{column}": "road_straight:90:0" for column in (1, 2, 3, 5, 6, 7)}
    cells["cell.4.4"] = "overpass:90:0"
    query = "&".join(f"{name}={value}" for name, value in cells.items())
    pdf = print_to_pdf(f"{live_server.url}{reverse('rules:railroad-ink-board-print')}?{query}")
    assert pdf_page_count(pdf) == 1


@pytest.mark.browser
def test_choosing_a_route_draws_it_in_its_square_and_the_board_is_counted(
    live_server, transactional_db, page
):
    page.set_viewport_size({"width": 1024, "height": 768})
    page.goto(f"{live_server.url}{reverse('rules:check', args=['railroad-ink'])}")
    page.select_option("#id_cell\\.1\\.2", "road_straight:0:0")
    assert page.locator("#id_cell\\.1\\.2 + svg.piece-preview line").count() == 2  # north and south
    page.select_option("#id_cell\\.2\\.2", "station_curve:0:1")
    page.select_option("#id_cell\\.2\\.1", "rail_straight:90:0")
    page.get_by_role("button", name="Compter le plateau").click()
    page.wait_for_selector(".check-result")
    assert page.locator("table.board-score tfoot strong").inner_text() == "8"
    # The board still holds what was entered, each route drawn again.
    assert page.locator("#id_cell\\.2\\.2").input_value() == "station_curve:0:1"
    assert page.locator("#id_cell\\.2\\.2 + svg.piece-preview rect").count() == 1
    page.screenshot(path="/tmp/h16b_ink_page.png", full_page=True)


def test_with_rounds_each_route_joins_an_exit_or_an_earlier_route():
    # « Chaque Route que vous dessinez doit être connectée par au moins un côté à une sortie ou à une
    # Route existante. » Round 1 from the top highway exit of column 2, round 2 continues it.
    fine = read(route(1, 2, "road_straight", round=1), route(2, 2, "road_straight", round=2))
    assert fine["sheet"]["longest_highway"] == 2
    # A route of round 1 may hang on another of round 1, in whatever order they are listed.
    assert read(route(2, 2, "road_straight", round=1), route(1, 2, "road_straight", round=1))
    # Nothing joins a route drawn alone in the middle of the board, nor one joined only later.
    assert list(refusal(route(4, 4, "road_straight", round=1))) == ["routes.0.round"]
    assert list(refusal(route(2, 2, "road_straight", round=1), route(1, 2, "road_straight", round=2))) == [
        "routes.0.round"
    ]
    # A highway against a railway is no connection.
    assert list(refusal(route(1, 4, "rail_straight", round=1), route(2, 4, "road_straight", round=1))) == [
        "routes.1.round"
    ]
    # Without every round given, the board is only counted.
    assert read(route(4, 4, "road_straight"))["sheet"]["errors"] == 2


@pytest.mark.django_db
def test_the_counted_board_fills_the_score_sheet_with_the_same_total(client):
    data = {
        "cell.1.2": "road_straight:0:0",
        "cell.2.2": "station_curve:0:1",
        "cell.2.1": "rail_straight:90:0",
    }
    html = client.post(reverse("rules:check", args=["railroad-ink"]), data).content.decode()
    link = re.search(r'href="(/regles/railroad-ink/feuille-de-score/imprimer/\?[^"]+)"', html).group(1)
    sheet = client.get(unescape(link))
    assert sheet.status_code == 200
    assert "Plateau gagne avec 8 points." in sheet.content.decode()


@pytest.mark.django_db
def test_the_page_form_takes_the_expansion_played_six_rounds_then(client):
    data = {"cell.1.2": "road_straight:0:0", "round.1.2": "7"}
    assert client.post(reverse("rules:check", args=["railroad-ink"]), data).status_code == 200
    response = client.post(reverse("rules:check", args=["railroad-ink"]), data | {"variants": "river"})
    assert response.status_code == 400
    assert "La valeur doit être au plus 6." in response.content.decode()


@pytest.mark.django_db
def test_the_board_print_answers_200_or_400_whatever_the_address(client):
    from hypothesis import HealthCheck

    names = st.sampled_from(["cell.1.2", "cell.4.4", "round.1.2", "round.4.4", "cell.9.9", "variants"])
    values = st.sampled_from(
        ["", "road_straight:0:0", "overpass:90:0", "tunnel:0:0", "1", "7", "8", "river", "x"]
    )

    @settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.dictionaries(names, values, max_size=6))
    def check(query):
        assert client.get(reverse("rules:railroad-ink-board-print"), query).status_code in (200, 400)
        assert client.post(reverse("rules:check", args=["railroad-ink"]), query).status_code in (200, 400)

    check()
