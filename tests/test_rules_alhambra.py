"""Alhambra's setup calculator and scoring rounds (seed 003, « Gamehelpalhambra »)."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

ALHAMBRA = get_game("alhambra")
SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"
KINDS = ("pavilion", "seraglio", "arcades", "chambers", "garden", "tower")
TILES = {"pavilion": 7, "seraglio": 7, "arcades": 9, "chambers": 9, "garden": 11, "tower": 11}


def player(name, wall=0, previous=None, **buildings):
    entry = {"name": name, "buildings": buildings, "wall": wall}
    if previous is not None:
        entry["previous"] = previous
    return entry


def score(round_, *players):
    return ALHAMBRA.run_score({"round": round_, "players": list(players)})


def by_name(result):
    return {p.name: p for p in result.players}


def errors_of(body):
    with pytest.raises(InvalidInput) as raised:
        ALHAMBRA.run_score(body)
    return {path: [str(message) for message in messages] for path, messages in raised.value.errors.items()}


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4, 5, 6])
def test_setup_gives_every_builder_a_fountain_and_twenty_in_money(players):
    setup = ALHAMBRA.run_setup({"players": players})
    assert setup.values["starting_money"] == 20
    assert setup.values["starting_tiles"] == players
    counts = {str(component.name): component.count for component in setup.components}
    assert counts["Tuiles de départ (fontaine)"] == players
    assert counts["Plateaux de réserve"] == players
    assert counts["Marqueurs (2 par joueur)"] == 2 * players
    steps = " ".join(str(step) for step in setup.steps)
    assert "jusqu'à un total de 20 ou plus" in steps
    assert "le moins de cartes commence" in steps


def test_the_building_tiles_are_those_the_seed_page_lists():
    # « Pavillon (Bleu) - 7 Tuiles » … read from the seed itself.
    listed = re.findall(r"^\* (.+?) \((\w+)\) - (\d+) Tuiles$", SEED.read_text(), flags=re.MULTILINE)
    assert len(listed) == 12  # the list appears in both revisions of the page
    seed_counts = [int(count) for _name, _colour, count in listed[:6]]
    setup = ALHAMBRA.run_setup({"players": 4})
    assert list(setup.values["tiles_by_building"].values()) == seed_counts == [7, 7, 9, 9, 11, 11]
    assert setup.values["building_tiles"] == 54
    tiles = [c for c in setup.components if str(c.name).startswith("Tuiles ") and "départ" not in str(c.name)]
    assert [(str(c.name), c.count) for c in tiles] == [
        ("Tuiles Pavillon (bleu)", 7),
        ("Tuiles Sérail (rouge)", 7),
        ("Tuiles Arcades (marron)", 9),
        ("Tuiles Appartements princiers (blanc)", 9),
        ("Tuiles Jardin (vert)", 11),
        ("Tuiles Tour (violet)", 11),
    ]


def test_the_scoring_cards_go_about_two_fifths_and_four_fifths_down_the_money_deck():
    setup = ALHAMBRA.run_setup({"players": 3})
    assert setup.values["money_piles"] == 5
    assert setup.values["scoring_card_piles"] == [2, 4]
    assert setup.values["scoring_cards"] == 2
    assert "la 1re carte Décompte dans le 2e tas et la 2e dans le 4e" in " ".join(map(str, setup.steps))


def test_only_the_two_player_game_mentions_the_imaginary_builder_dirk():
    two = ALHAMBRA.run_setup({"players": 2})
    three = ALHAMBRA.run_setup({"players": 3})
    assert two.values["phantom_player"] is True
    assert three.values["phantom_player"] is False
    assert any("Dirk" in str(step) for step in two.steps)
    assert not any("Dirk" in str(step) for step in three.steps)


@pytest.mark.parametrize("players", [1, 7, "beaucoup"])
def test_setup_refuses_a_player_count_outside_two_to_six(players):
    with pytest.raises(InvalidInput) as raised:
        ALHAMBRA.run_setup({"players": players})
    assert list(raised.value.errors) == ["players"]


# --- round 1: the first place only ------------------------------------------------------------------


def test_first_scoring_pays_the_sole_leader_of_each_building_type_and_the_wall():
    result = score(
        1,
        player("Ana", wall=3, pavilion=2, tower=1),
        player("Ben", wall=5, pavilion=1, garden=3),
        player("Cléo", wall=0),
    )
    players = by_name(result)
    assert players["Ana"].breakdown == {
        "pavilion": 1,
        "seraglio": 0,
        "arcades": 0,
        "chambers": 0,
        "garden": 0,
        "tower": 6,
        "wall": 3,
        "previous": 0,
    }
    assert players["Ben"].breakdown["garden"] == 5
    assert players["Ben"].breakdown["pavilion"] == 0  # second place pays nothing in round 1
    assert players["Ben"].total == 10
    assert players["Ana"].total == 10
    assert players["Cléo"].total == 0


def test_first_scoring_two_way_tie_shares_the_first_place_rounded_down():
    result = score(1, player("Ana", tower=2, pavilion=1), player("Ben", tower=2, pavilion=1), player("Cléo"))
    players = by_name(result)
    assert players["Ana"].breakdown["tower"] == players["Ben"].breakdown["tower"] == 3  # 6 // 2
    assert players["Ana"].breakdown["pavilion"] == players["Ben"].breakdown["pavilion"] == 0  # 1 // 2


def test_after_the_first_scoring_nobody_has_won_yet():
    result = score(1, player("Ana", tower=2), player("Ben", garden=1))
    assert result.winners == []
    assert result.decided_by is None
    assert by_name(result)["Ana"].rank == 1
    assert by_name(result)["Ben"].rank == 2
    assert str(result.explanation) == (
        "Après le premier décompte, Ana mène avec 6 points ; la partie continue jusqu'au troisième décompte."
    )


# --- round 2: first and second -----------------------------------------------------------------------


def test_second_scoring_pays_first_and_second_place_and_adds_previous_points():
    result = score(
        2,
        player("Ana", wall=4, previous=12, arcades=3, chambers=1),
        player("Ben", wall=2, previous=9, arcades=2, chambers=2),
        player("Cléo", wall=1, previous=3, arcades=1),
    )
    players = by_name(result)
    assert players["Ana"].breakdown["arcades"] == 10
    assert players["Ben"].breakdown["arcades"] == 3
    assert players["Cléo"].breakdown["arcades"] == 0  # third place pays nothing in round 2
    assert players["Ben"].breakdown["chambers"] == 11
    assert players["Ana"].breakdown["chambers"] == 4
    assert players["Ana"].total == 12 + 10 + 4 + 4
    assert players["Ben"].total == 9 + 3 + 11 + 2
    assert players["Cléo"].total == 3 + 1


def test_second_scoring_two_tied_leaders_share_first_and_second_and_the_next_player_is_third():
    result = score(
        2,
        player("Ana", garden=3, tower=4),
        player("Ben", garden=3, tower=2),
        player("Cléo", garden=1, tower=2),
    )
    players = by_name(result)
    # Garden: (12 + 5) // 2 = 8 each; Cléo is third and scores nothing.
    assert players["Ana"].breakdown["garden"] == players["Ben"].breakdown["garden"] == 8
    assert players["Cléo"].breakdown["garden"] == 0
    # Tower: Ana first (13); Ben and Cléo tied second share 6 (+ nothing for third) = 3 each.
    assert players["Ana"].breakdown["tower"] == 13
    assert players["Ben"].breakdown["tower"] == players["Cléo"].breakdown["tower"] == 3


def test_a_player_with_no_building_of_a_type_takes_no_place_for_it():
    result = score(2, player("Ana", arcades=1), player("Ben", pavilion=1))
    players = by_name(result)
    assert players["Ana"].breakdown["arcades"] == 10
    assert players["Ben"].breakdown["arcades"] == 0  # not second with zero arcades
    assert players["Ben"].breakdown["pavilion"] == 8
    assert players["Ana"].breakdown["pavilion"] == 0
    assert players["Ana"].breakdown["seraglio"] == players["Ben"].breakdown["seraglio"] == 0


def test_after_the_second_scoring_tied_leaders_are_named_without_a_winner():
    result = score(2, player("Ana", previous=10, tower=1), player("Ben", previous=10, tower=1))
    assert result.winners == []
    assert str(result.explanation) == (
        "Après le deuxième décompte, Ana et Ben mènent à égalité avec 19 points ; "
        "la partie continue jusqu'au troisième décompte."
    )


# --- round 3: first, second and third ------------------------------------------------------------------


def test_third_scoring_three_way_tie_shares_the_three_places():
    result = score(
        3,
        player("Ana", previous=50, chambers=2, wall=6),
        player("Ben", previous=52, chambers=2, wall=4),
        player("Cléo", previous=40, chambers=2, wall=6),
        player("Dan", previous=61, chambers=1, wall=0),
    )
    players = by_name(result)
    # (19 + 11 + 4) // 3 = 11 each; Dan is fourth and scores nothing.
    assert [players[name].breakdown["chambers"] for name in ("Ana", "Ben", "Cléo")] == [11, 11, 11]
    assert players["Dan"].breakdown["chambers"] == 0
    assert [players[name].total for name in ("Ana", "Ben", "Cléo", "Dan")] == [67, 67, 57, 61]
    assert result.winners == ["Ana", "Ben"]
    assert players["Ana"].rank == players["Ben"].rank == 1
    assert players["Dan"].rank == 3
    assert players["Cléo"].rank == 4
    assert result.decided_by is None
    assert (
        str(result.explanation)
        == "Ana et Ben sont à égalité avec 67 points. Ana et Ben se partagent la victoire."
    )


def test_third_scoring_three_tied_for_second_share_second_and_third():
    result = score(
        3,
        player("Ana", garden=5),
        player("Ben", garden=1),
        player("Cléo", garden=1),
        player("Dan", garden=1),
    )
    players = by_name(result)
    assert players["Ana"].breakdown["garden"] == 20
    # (12 + 5) // 3 = 5: the fourth place they also occupy pays nothing.
    assert [players[name].breakdown["garden"] for name in ("Ben", "Cléo", "Dan")] == [5, 5, 5]


def test_third_scoring_two_tied_for_first_leave_third_place_to_the_next():
    result = score(
        3, player("Ana", tower=4), player("Ben", tower=4), player("Cléo", tower=2), player("Dan", tower=1)
    )
    players = by_name(result)
    assert players["Ana"].breakdown["tower"] == players["Ben"].breakdown["tower"] == 17  # (21 + 13) // 2
    assert players["Cléo"].breakdown["tower"] == 6
    assert players["Dan"].breakdown["tower"] == 0


def test_four_tied_in_the_third_scoring_share_the_three_paid_places():
    result = score(3, *(player(name, pavilion=1) for name in ("Ana", "Ben", "Cléo", "Dan")))
    assert {p.breakdown["pavilion"] for p in result.players} == {6}  # (16 + 8 + 1) // 4


def test_the_highest_total_after_the_third_scoring_wins_alone():
    result = score(
        3, player("Ana", previous=80, tower=3, wall=7), player("Ben", previous=85, tower=2, wall=2)
    )
    assert result.winners == ["Ana"]
    assert by_name(result)["Ana"].total == 80 + 21 + 7
    assert by_name(result)["Ben"].total == 85 + 13 + 2
    assert str(result.explanation) == "Ana gagne avec 108 points."


def test_every_breakdown_has_one_line_per_building_type_then_wall_and_previous():
    assert [line.slug for line in ALHAMBRA.lines(frozenset())] == [*KINDS, "wall", "previous"]
    result = score(2, player("Ana", tower=1), player("Ben"))
    assert all(list(p.breakdown) == [*KINDS, "wall", "previous"] for p in result.players)


# --- bad input --------------------------------------------------------------------------------------------


def test_the_round_is_required_and_is_one_two_or_three():
    assert errors_of({"players": [player("Ana"), player("Ben")]}) == {"round": ["Ce champ est obligatoire."]}
    assert errors_of({"round": 4, "players": [player("Ana"), player("Ben")]}) == {
        "round": ["La valeur doit être au plus 3."]
    }


def test_building_counts_above_the_box_and_unknown_types_are_refused_with_their_paths():
    errors = errors_of(
        {
            "round": 2,
            "players": [
                {"name": "Ana", "buildings": {"tower": 12, "fontaine": 1}, "wall": 0},
                {"name": "Ben", "buildings": {"pavilion": -1}},
            ],
        }
    )
    assert errors == {
        "players.0.buildings.tower": ["La valeur doit être au plus 11."],
        "players.0.buildings.fontaine": ["Champ inconnu pour ce jeu."],
        "players.1.buildings.pavilion": ["La valeur doit être au moins 0."],
        "players.1.wall": ["Ce champ est obligatoire."],
    }


def test_more_tiles_of_a_type_than_the_box_holds_cannot_happen():
    errors = errors_of(
        {"round": 3, "players": [player("Ana", pavilion=4), player("Ben", pavilion=4), player("Cléo")]}
    )
    message = "La boîte ne contient que 7 tuiles Pavillon : les joueurs en déclarent 8."
    assert errors == {"players.0.buildings.pavilion": [message], "players.1.buildings.pavilion": [message]}


def test_a_wall_longer_than_the_tiles_can_carry_cannot_happen():
    errors = errors_of(
        {"round": 2, "players": [player("Ana", wall=4, garden=1), player("Ben", wall=3, tower=1)]}
    )
    assert errors == {
        "players.0.wall": [
            "Un mur de 4 portions demande plus de tuiles : une tuile porte au plus 3 portions de mur "
            "et cet Alhambra compte 1 tuile bâtiment."
        ]
    }


def test_points_before_the_first_scoring_cannot_happen():
    errors = errors_of({"round": 1, "players": [player("Ana", previous=5), player("Ben", previous=0)]})
    assert errors == {
        "players.0.previous": ["Avant le premier décompte, personne n'a encore marqué de points."]
    }


def test_seven_builders_are_refused():
    errors = errors_of({"round": 3, "players": [player(f"Joueur {i}") for i in range(7)]})
    assert errors == {"players": ["Ce jeu se joue de 2 à 6 joueurs."]}


# --- properties -------------------------------------------------------------------------------------------

NAMES = ["Ana", "Ben", "Cléo", "Dan", "Eva", "Farid"]


@st.composite
def sheets(draw):
    count = draw(st.integers(2, 6))
    round_ = draw(st.integers(1, 3))
    remaining = dict(TILES)
    players = []
    for name in NAMES[:count]:
        buildings = {}
        for kind in KINDS:
            buildings[kind] = draw(st.integers(0, min(3, remaining[kind])))
            remaining[kind] -= buildings[kind]
        wall = draw(st.integers(0, 3 * sum(buildings.values())))
        previous = 0 if round_ == 1 else draw(st.integers(0, 120))
        players.append({"name": name, "buildings": buildings, "wall": wall, "previous": previous})
    return {"round": round_, "players": players}


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_a_total_is_the_sum_of_its_breakdown_and_the_wall_pays_one_point_a_segment(body):
    result = ALHAMBRA.run_score(body)
    for entry, scored in zip(body["players"], result.players, strict=True):
        assert scored.total == sum(scored.breakdown.values())
        assert scored.breakdown["wall"] == entry["wall"]
        assert scored.breakdown["previous"] == entry["previous"]


@settings(max_examples=100, deadline=None)
@given(sheets(), st.randoms(use_true_random=False))
def test_permuting_the_players_changes_nobodys_total_nor_rank(body, random):
    before = {p.name: (p.total, p.rank, p.breakdown) for p in ALHAMBRA.run_score(body).players}
    shuffled = list(body["players"])
    random.shuffle(shuffled)
    after = ALHAMBRA.run_score({**body, "players": shuffled})
    assert {p.name: (p.total, p.rank, p.breakdown) for p in after.players} == before


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_a_building_type_never_pays_more_than_its_places_are_worth(body):
    table = {1: [1, 2, 3, 4, 5, 6], 2: [9, 11, 13, 15, 17, 19], 3: [25, 28, 31, 34, 37, 40]}[body["round"]]
    result = ALHAMBRA.run_score(body)
    for kind, worth in zip(KINDS, table, strict=True):
        assert sum(p.breakdown[kind] for p in result.players) <= worth


@settings(max_examples=150, deadline=None)
@given(sheets(), st.integers(0, 5), st.sampled_from(KINDS))
def test_one_more_tile_never_costs_its_builder_and_never_helps_the_others(body, who, kind):
    who = who % len(body["players"])
    builder = body["players"][who]
    if sum(p["buildings"][kind] for p in body["players"]) == TILES[kind]:
        return  # every tile of this type is already built
    before = {p.name: p.breakdown[kind] for p in ALHAMBRA.run_score(body).players}
    grown = [
        {**p, "buildings": {**p["buildings"], kind: p["buildings"][kind] + 1}} if p is builder else p
        for p in body["players"]
    ]
    after = {p.name: p.breakdown[kind] for p in ALHAMBRA.run_score({**body, "players": grown}).players}
    assert after[builder["name"]] >= before[builder["name"]]
    for name, points in after.items():
        if name != builder["name"]:
            assert points <= before[name]


@settings(max_examples=100, deadline=None)
@given(sheets())
def test_only_the_final_scoring_names_winners(body):
    result = ALHAMBRA.run_score(body)
    if body["round"] < 3:
        assert result.winners == []
        assert "la partie continue" in str(result.explanation)
    else:
        best = max(p.total for p in result.players)
        assert sorted(result.winners) == sorted(p.name for p in result.players if p.total == best)
