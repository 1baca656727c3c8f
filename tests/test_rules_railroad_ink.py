"""Railroad Ink — setup calculator and score sheet, with the four expansions (seed 003, « Gamehelprailroadink »)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game
from rules.games.railroad_ink import NETWORK_POINTS

RAILROAD = get_game("railroad-ink")
SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"
VARIANTS = ["river", "lake", "meteor", "lava"]


def seed_table(caption: str) -> dict[str, list[str]]:
    """The rows of the seed's wikitable with this caption: {first cell: the other cells}."""
    lines = SEED.read_text().splitlines()
    start = lines.index(f"|+{caption}")
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("|}"):
            break
        if line.startswith("|-"):
            rows.append([])
        elif line.startswith("|"):
            rows[-1].append(line[1:].strip())
    return {row[0]: row[1:] for row in rows if row}


def board(name, networks=(), highway=0, railway=0, center=0, errors=0, **extra):
    return {
        "name": name,
        "networks": list(networks),
        "longest_highway": highway,
        "longest_railway": railway,
        "center_squares": center,
        "errors": errors,
        **extra,
    }


def score(*players, variants=()):
    return RAILROAD.run_score({"variants": list(variants), "players": list(players)})


def by_name(result):
    return {p.name: p for p in result.players}


def errors_of(body):
    with pytest.raises(InvalidInput) as raised:
        RAILROAD.run_score(body)
    return {path: [str(message) for message in messages] for path, messages in raised.value.errors.items()}


# --- the seed's network table -----------------------------------------------------------------------


def test_network_points_are_the_seed_table_and_twelve_exits_score_45():
    table = seed_table("Valeur d'un Réseau")
    exits = [int(cell) for cell in table["Nombre de Sorties"]]
    points = [int(cell) for cell in table["Points"]]
    assert exits == list(range(13))
    assert [NETWORK_POINTS[count] for count in exits] == points
    assert points == [0, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 45]
    result = score(board("Solène", networks=[12]))
    assert result.players[0].breakdown["networks"] == 45


@pytest.mark.parametrize("exits", range(13))
def test_a_single_network_scores_its_table_value(exits):
    expected = {0: 0, 1: 0, 12: 45}.get(exits, 4 * (exits - 1))
    assert score(board("Solène", networks=[exits])).players[0].total == expected


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5, 6])
def test_the_base_game_lasts_seven_rounds_with_four_route_dice(players):
    setup = RAILROAD.run_setup({"players": players})
    assert setup.values == {"rounds": 7, "route_dice": 4, "special_routes": 6, "max_special_routes": 3}
    counts = {str(component.name): component.count for component in setup.components}
    assert counts == {
        "Plateaux effaçables (7 × 7 cases, 12 sorties)": players,
        "Feutres effaçables": players,
        "Dés Route (autoroutes et chemins de fer)": 3,
        "Dé Route spécial (ponts et gares)": 1,
    }
    steps = [str(step) for step in setup.steps]
    assert steps[-1] == "La partie dure 7 manches."
    assert "6 Routes spéciales : 1 au plus par manche, 3 au plus par partie" in steps[2]


@pytest.mark.parametrize(
    ("variant", "dice"),
    [
        ("river", "Dés Rivière"),
        ("lake", "Dés Lac"),
        ("meteor", "Dés Météore (distance et direction)"),
        ("lava", "Dés de Lave"),
    ],
)
def test_each_expansion_adds_its_two_dice_and_shortens_the_game_to_six_rounds(variant, dice):
    # « Le jeu se termine à la fin du 7ème tour (6ème tour avec les variantes). »
    setup = RAILROAD.run_setup({"players": 4, "variants": variant})
    assert setup.values["rounds"] == 6
    assert setup.values["route_dice"] == 4
    counts = {str(component.name): component.count for component in setup.components}
    assert counts[dice] == 2
    assert len(counts) == 5
    assert (
        str(setup.steps[-1]) == "Lancez aussi les dés d'extension à chaque manche ; la partie dure 6 manches."
    )


def test_lava_starts_with_a_volcano_and_meteors_from_the_centre():
    lava = [str(step) for step in RAILROAD.run_setup({"players": 2, "variants": "lava"}).steps]
    meteor = [str(step) for step in RAILROAD.run_setup({"players": 2, "variants": "meteor"}).steps]
    assert "Lave : chaque joueur dessine un Volcan (4 côtés lave) dans la case centrale." in lava
    assert not any("Météore" in step for step in lava)
    assert "Météores : le premier Météore part de la case centrale du plateau." in meteor
    assert not any("Volcan" in step for step in meteor)


def test_combined_expansions_still_last_six_rounds_and_bring_all_their_dice():
    setup = RAILROAD.run_setup({"players": 3, "variants": "lake,river"})
    assert setup.values["rounds"] == 6
    names = [str(component.name) for component in setup.components]
    assert names[-2:] == ["Dés Rivière", "Dés Lac"]


@pytest.mark.parametrize("players", [0, 7])
def test_setup_refuses_a_player_count_outside_one_to_six(players):
    with pytest.raises(InvalidInput) as raised:
        RAILROAD.run_setup({"players": players})
    assert [str(m) for m in raised.value.errors["players"]] == ["Ce jeu se joue de 1 à 6 joueurs."]


def test_setup_refuses_an_unknown_expansion():
    with pytest.raises(InvalidInput) as raised:
        RAILROAD.run_setup({"players": 2, "variants": "river,forest"})
    assert [str(m) for m in raised.value.errors["variants"]] == [
        "Variante inconnue : forest. Variantes de ce jeu : lake, lava, meteor, river."
    ]


# --- scoring ----------------------------------------------------------------------------------------


def test_the_total_adds_networks_routes_and_centre_and_subtracts_errors():
    # Networks of 4, 3, 2 and 1 exits: 12 + 8 + 4 + 0 = 24; + 7 + 5 + 6 − 3 = 39.
    result = score(board("Solène", networks=[4, 3, 2, 1], highway=7, railway=5, center=6, errors=3))
    entry = result.players[0]
    assert entry.breakdown == {
        "networks": 24,
        "longest_highway": 7,
        "longest_railway": 5,
        "center_squares": 6,
        "errors": -3,
    }
    assert entry.total == 39


def test_solo_play_scores_and_names_the_player():
    result = score(board("Solène", networks=[6, 6], highway=4, errors=1))
    assert result.players[0].total == 20 + 20 + 4 - 1
    assert result.winners == ["Solène"]
    assert result.players[0].rank == 1
    assert str(result.explanation) == "Solène gagne avec 43 points."


def test_errors_can_bring_a_total_below_zero():
    result = score(board("Solène", networks=[1], errors=5), board("Tom", networks=[2]))
    assert [p.total for p in result.players] == [-5, 4]
    assert result.winners == ["Tom"]


@pytest.mark.parametrize("variant", VARIANTS)
def test_each_expansion_adds_its_points_on_the_variant_line(variant):
    # Rivière: a 9-square river touching the edge at both ends, 9 + 3 = 12 points.
    result = score(
        board("Solène", networks=[3], highway=2, errors=1, variant_points=12),
        board("Tom", networks=[4], highway=2, errors=1),
        variants=[variant],
    )
    players = by_name(result)
    assert players["Solène"].breakdown["variant_points"] == 12
    assert players["Tom"].breakdown["variant_points"] == 0
    assert players["Solène"].total == 8 + 2 - 1 + 12
    assert players["Tom"].total == 12 + 2 - 1
    assert result.winners == ["Solène"]
    assert [line.slug for line in RAILROAD.lines(frozenset({variant}))][-1] == "variant_points"


def test_the_base_game_sheet_has_no_variant_line():
    assert [line.slug for line in RAILROAD.lines(frozenset())] == [
        "networks",
        "longest_highway",
        "longest_railway",
        "center_squares",
        "errors",
    ]
    result = score(board("Solène", networks=[2], variant_points=0))
    assert "variant_points" not in result.players[0].breakdown


def test_equal_totals_go_to_the_player_with_fewer_errors():
    # « En cas d'égalité, le joueur qui a fait le moins d'erreurs gagne. »
    result = score(
        board("Solène", networks=[5, 3], highway=6, railway=4, center=5, errors=4),
        board("Tom", networks=[4, 4], highway=5, railway=5, center=4, errors=3),
        board("Ugo", networks=[2], errors=0),
    )
    players = by_name(result)
    assert players["Solène"].total == players["Tom"].total == 16 + 8 + 6 + 4 + 5 - 4
    assert result.winners == ["Tom"]
    assert result.decided_by == "errors"
    assert (players["Tom"].rank, players["Solène"].rank, players["Ugo"].rank) == (1, 2, 3)
    assert str(result.explanation) == (
        "Solène et Tom sont à égalité avec 35 points. Départage par le moins d'erreurs : Tom l'emporte (3 contre 4)."
    )


def test_equal_totals_and_errors_share_the_victory():
    result = score(
        board("Solène", networks=[5], highway=3, errors=2),
        board("Tom", networks=[4], highway=7, errors=2),
    )
    assert result.winners == ["Solène", "Tom"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1]
    assert (
        str(result.explanation)
        == "Solène et Tom sont à égalité avec 17 points. Solène et Tom se partagent la victoire."
    )


def test_six_players_are_scored():
    result = score(*(board(f"P{index}", networks=[index + 2]) for index in range(6)))
    assert [p.total for p in result.players] == [4, 8, 12, 16, 20, 24]
    assert [p.rank for p in result.players] == [6, 5, 4, 3, 2, 1]


def test_the_tie_break_rule_is_fewer_errors():
    assert str(RAILROAD.tie_break_rule()) == (
        "Le plus grand total gagne. En cas d'égalité, départage par le moins d'erreurs ; "
        "si l'égalité persiste, la victoire est partagée."
    )


# --- properties -------------------------------------------------------------------------------------


@st.composite
def boards(draw, index):
    networks = []
    left = 12
    for _ in range(draw(st.integers(0, 5))):
        exits = draw(st.integers(0, left))
        networks.append(exits)
        left -= exits
    return board(
        f"P{index}",
        networks=networks,
        highway=draw(st.integers(0, 20)),
        railway=draw(st.integers(0, 20)),
        center=draw(st.integers(0, 9)),
        errors=draw(st.integers(0, 15)),
        variant_points=draw(st.integers(0, 20)),
    )


@st.composite
def tables(draw):
    count = draw(st.integers(1, 6))
    return [draw(boards(index)) for index in range(count)]


@given(tables(), st.sets(st.sampled_from(VARIANTS), min_size=1))
def test_a_total_is_the_sum_of_its_breakdown(players, variants):
    result = score(*players, variants=sorted(variants))
    for entry, sheet in zip(result.players, players, strict=True):
        assert entry.total == sum(entry.breakdown.values())
        assert entry.breakdown["errors"] == -sheet["errors"]


@given(tables(), st.randoms())
def test_permuting_players_changes_nobodys_total_or_rank(players, random):
    players = [{**p, "variant_points": 0} for p in players]
    before = score(*players)
    shuffled = players[:]
    random.shuffle(shuffled)
    after = score(*shuffled)
    assert {p.name: (p.total, p.rank) for p in before.players} == {
        p.name: (p.total, p.rank) for p in after.players
    }
    assert sorted(before.winners) == sorted(after.winners)


@given(st.lists(st.integers(0, 11), min_size=1, max_size=6).filter(lambda n: sum(n) <= 11), st.data())
def test_linking_one_more_exit_never_lowers_the_network_points(networks, data):
    # Within the 12 exits, joining one more exit to any network can only add points.
    index = data.draw(st.integers(0, len(networks) - 1))
    grown = networks[:]
    grown[index] += 1
    before = score(board("Solène", networks=networks)).players[0].breakdown["networks"]
    after = score(board("Solène", networks=grown)).players[0].breakdown["networks"]
    assert after >= before


@given(st.lists(st.integers(0, 12), min_size=1, max_size=12).filter(lambda n: sum(n) <= 12))
def test_networks_never_score_more_than_one_network_of_all_twelve_exits(networks):
    assert score(board("Solène", networks=networks)).players[0].breakdown["networks"] <= 45


# --- bad input --------------------------------------------------------------------------------------


def test_a_network_beyond_twelve_exits_is_refused_at_its_index():
    errors = errors_of({"players": [board("Solène", networks=[3, 13])]})
    assert errors == {"players.0.networks.1": ["La valeur doit être au plus 12."]}


def test_networks_cannot_share_more_than_the_twelve_exits():
    errors = errors_of({"players": [board("Solène", networks=[2]), board("Tom", networks=[6, 5, 2])]})
    assert errors == {
        "players.1.networks": [
            "Le plateau n'a que 12 sorties : vos réseaux ne peuvent pas en relier plus de 12 en tout."
        ]
    }


def test_out_of_range_board_counts_are_refused_with_their_paths():
    errors = errors_of(
        {
            "players": [
                board("Solène", center=10),
                board("Tom", highway=50, errors=-1),
                {"name": "Ugo", "networks": 4},
            ]
        }
    )
    assert errors == {
        "players.0.center_squares": ["La valeur doit être au plus 9."],
        "players.1.longest_highway": ["La valeur doit être au plus 49."],
        "players.1.errors": ["La valeur doit être au moins 0."],
        "players.2.networks": ["Saisissez une liste."],
    }


def test_variant_points_need_an_expansion():
    # « Dans le jeu de base, il n'y a pas de points dans cette catégorie. »
    errors = errors_of({"players": [board("Solène", networks=[2], variant_points=5)]})
    assert errors == {
        "players.0.variant_points": [
            "Dans le jeu de base, il n'y a pas de points de variante : choisissez l'extension jouée."
        ]
    }


def test_score_refuses_seven_players_and_unknown_expansions():
    errors = errors_of({"variants": ["volcano"], "players": [board(f"P{index}") for index in range(7)]})
    assert errors == {
        "variants": ["Variante inconnue : volcano. Variantes de ce jeu : lake, lava, meteor, river."],
        "players": ["Ce jeu se joue de 1 à 6 joueurs."],
    }
