"""Marrakech's setup calculator and final count (seed 003, « Gamehelpmarrakech »)."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

MARRAKECH = get_game("marrakech")
SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"


def merchant(name, squares, dirhams, **extra):
    return {"name": name, "visible_squares": squares, "dirhams": dirhams, **extra}


def score(*players):
    return MARRAKECH.run_score({"players": list(players)})


def by_name(result):
    return {p.name: p for p in result.players}


def errors_of(*players):
    with pytest.raises(InvalidInput) as raised:
        MARRAKECH.run_score({"players": list(players)})
    return {path: [str(message) for message in messages] for path, messages in raised.value.errors.items()}


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "carpets", "colours", "back_in_box"),
    [(2, 24, 2, 12), (3, 15, 1, 15), (4, 12, 1, 12)],
)
def test_setup_deals_thirty_dirhams_and_the_carpets_for_the_player_count(
    players, carpets, colours, back_in_box
):
    setup = MARRAKECH.run_setup({"players": players})
    assert setup.values["dirhams_per_player"] == 30
    assert setup.values["carpets_per_player"] == carpets
    assert setup.values["colours_per_player"] == colours
    counts = {str(component.name): component.count for component in setup.components}
    assert counts["Tapis en jeu"] == players * carpets
    assert counts["Pièces de 1 dirham"] == counts["Pièces de 5 dirhams"] == 5 * players
    steps = [str(step) for step in setup.steps]
    assert "Chaque joueur reçoit 30 dirhams : 5 pièces de 1 et 5 pièces de 5." in steps
    assert f"Remettez dans la boîte les {back_in_box} tapis qui ne servent pas." in steps


def test_two_players_each_take_two_colours_shuffled_into_a_pile():
    steps = [str(step) for step in MARRAKECH.run_setup({"players": 2}).steps]
    assert (
        "Chaque joueur prend 2 couleurs, 12 tapis de chacune, soit 24 tapis : il les mélange en une pioche "
        "et les posera dans l'ordre de cette pioche." in steps
    )


def test_the_die_faces_are_those_of_the_seed_page():
    faces = re.search(r"=== Face du dé ===\n([\d, ]+)\n", SEED.read_text()).group(1)
    assert MARRAKECH.run_setup({"players": 3}).values["die_faces"] == [
        int(face) for face in faces.split(", ")
    ]


@pytest.mark.parametrize("players", [1, 5])
def test_setup_refuses_other_player_counts(players):
    with pytest.raises(InvalidInput) as raised:
        MARRAKECH.run_setup({"players": players})
    assert {path: [str(m) for m in messages] for path, messages in raised.value.errors.items()} == {
        "players": ["Ce jeu se joue de 2 à 4 joueurs."]
    }


# --- the final count ------------------------------------------------------------------------------------


def test_each_visible_half_carpet_and_each_dirham_is_a_point():
    result = score(merchant("Ana", 14, 35), merchant("Ben", 9, 31), merchant("Cléo", 11, 24))
    players = by_name(result)
    assert players["Ana"].breakdown == {"visible_squares": 14, "dirhams": 35}
    assert [players[name].total for name in ("Ana", "Ben", "Cléo")] == [49, 40, 35]
    assert [players[name].rank for name in ("Ana", "Ben", "Cléo")] == [1, 2, 3]
    assert result.winners == ["Ana"]
    assert result.decided_by is None
    assert str(result.explanation) == "Ana gagne avec 49 points."


def test_equal_points_go_to_the_merchant_with_more_dirhams():
    result = score(
        merchant("Ana", 12, 28), merchant("Ben", 10, 30), merchant("Cléo", 5, 20), merchant("Dan", 3, 10)
    )
    assert result.winners == ["Ben"]
    assert result.decided_by == "dirhams"
    assert by_name(result)["Ben"].rank == 1
    assert by_name(result)["Ana"].rank == 2
    assert str(result.explanation) == (
        "Ana et Ben sont à égalité avec 40 points. Départage par les dirhams : Ben l'emporte (30 contre 28)."
    )


def test_equal_points_and_equal_dirhams_share_the_victory():
    result = score(merchant("Ana", 10, 30), merchant("Ben", 10, 30))
    assert result.winners == ["Ana", "Ben"]
    assert result.decided_by is None
    assert {p.rank for p in result.players} == {1}
    assert (
        str(result.explanation)
        == "Ana et Ben sont à égalité avec 40 points. Ana et Ben se partagent la victoire."
    )


def test_dirhams_can_narrow_a_three_way_tie_to_two_winners():
    result = score(merchant("Ana", 10, 30), merchant("Ben", 10, 30), merchant("Cléo", 15, 25))
    assert result.winners == ["Ana", "Ben"]
    assert result.decided_by == "dirhams"
    assert by_name(result)["Cléo"].rank == 3
    assert str(result.explanation) == (
        "Ana, Ben et Cléo sont à égalité avec 40 points. Départage par les dirhams : Ana et Ben restent à "
        "égalité. Ana et Ben se partagent la victoire."
    )


def test_an_eliminated_merchant_ranks_last_and_cannot_win():
    result = score(merchant("Ana", 20, 50), merchant("Ben", 18, 40), merchant("Cléo", 0, 0, eliminated=True))
    players = by_name(result)
    assert players["Cléo"].eliminated is True
    assert players["Cléo"].rank == 3
    assert result.winners == ["Ana"]


def test_two_players_may_show_up_to_forty_eight_squares_between_them():
    result = score(merchant("Ana", 30, 25), merchant("Ben", 19, 35))
    assert [p.total for p in result.players] == [55, 54]


# --- bad input ----------------------------------------------------------------------------------------------


def test_missing_and_out_of_range_fields_are_refused_with_their_paths():
    assert errors_of(
        {"name": "Ana", "visible_squares": 50, "dirhams": -2}, {"name": "Ben", "dirhams": 3}
    ) == {
        "players.0.visible_squares": ["La valeur doit être au plus 49."],
        "players.0.dirhams": ["La valeur doit être au moins 0."],
        "players.1.visible_squares": ["Ce champ est obligatoire."],
    }


def test_more_squares_than_a_player_owns_carpets_for_cannot_happen():
    errors = errors_of(
        merchant("Ana", 25, 30), merchant("Ben", 5, 30), merchant("Cléo", 5, 30), merchant("Dan", 5, 30)
    )
    assert errors == {
        "players.0.visible_squares": ["À 4 joueurs, chacun pose 12 tapis, soit 24 cases au plus."]
    }


def test_more_visible_squares_than_the_market_holds_cannot_happen():
    errors = errors_of(merchant("Ana", 20, 30), merchant("Ben", 20, 30), merchant("Cléo", 10, 30))
    message = "Le marché compte 49 cases : les joueurs en déclarent 50 visibles."
    assert errors == {f"players.{i}.visible_squares": [message] for i in range(3)}


def test_more_dirhams_than_were_dealt_cannot_happen():
    errors = errors_of(merchant("Ana", 10, 40), merchant("Ben", 10, 21))
    message = "Les joueurs ont reçu 60 dirhams en tout et ne font que se les payer : les totaux déclarés en font 61."
    assert errors == {"players.0.dirhams": [message], "players.1.dirhams": [message]}


def test_an_eliminated_merchant_has_neither_dirhams_nor_carpets_left():
    errors = errors_of(merchant("Ana", 10, 40), merchant("Ben", 4, 2, eliminated=True))
    assert errors == {
        "players.1.dirhams": ["Un joueur éliminé a payé tout ce qu'il avait : il n'a plus de dirham."],
        "players.1.visible_squares": [
            "Les tapis d'un joueur éliminé sont devenus neutres : ils ne comptent plus pour lui."
        ],
    }


def test_five_merchants_are_refused():
    assert errors_of(*(merchant(f"M{i}", 1, 1) for i in range(5))) == {
        "players": ["Ce jeu se joue de 2 à 4 joueurs."]
    }


# --- properties -----------------------------------------------------------------------------------------------


@st.composite
def sheets(draw):
    count = draw(st.integers(2, 4))
    own = {2: 48, 3: 30, 4: 24}[count]
    squares_left, dirhams_left = 49, 30 * count
    players = []
    for index in range(count):
        squares = draw(st.integers(0, min(own, squares_left)))
        dirhams = draw(st.integers(0, min(60, dirhams_left)))
        squares_left -= squares
        dirhams_left -= dirhams
        players.append(merchant(f"Marchand {index}", squares, dirhams))
    return players


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_a_total_is_the_sum_of_visible_squares_and_dirhams(players):
    result = score(*players)
    for entry, scored in zip(players, result.players, strict=True):
        assert scored.total == sum(scored.breakdown.values()) == entry["visible_squares"] + entry["dirhams"]


@settings(max_examples=100, deadline=None)
@given(sheets(), st.randoms(use_true_random=False))
def test_permuting_the_merchants_changes_nobodys_total_nor_rank(players, random):
    before = {p.name: (p.total, p.rank) for p in score(*players).players}
    shuffled = list(players)
    random.shuffle(shuffled)
    result = score(*shuffled)
    assert {p.name: (p.total, p.rank) for p in result.players} == before


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_the_winners_have_the_most_points_then_the_most_dirhams(players):
    result = score(*players)
    best = max(p["visible_squares"] + p["dirhams"] for p in players)
    leading = [p for p in players if p["visible_squares"] + p["dirhams"] == best]
    richest = max(p["dirhams"] for p in leading)
    assert sorted(result.winners) == sorted(p["name"] for p in leading if p["dirhams"] == richest)
    separated = len(leading) > 1 and len({p["dirhams"] for p in leading}) > 1
    assert result.decided_by == ("dirhams" if separated else None)
