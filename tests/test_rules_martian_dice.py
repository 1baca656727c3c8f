"""Martian Dice's turn-by-turn score sheet and its 25-point end (seed 003, « Gamehelpmartiandice »)."""

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

MARTIAN_DICE = get_game("martian-dice")
SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"


def turn(tanks=0, rays=0, humans=0, cows=0, chickens=0):
    return {"tanks": tanks, "death_rays": rays, "humans": humans, "cows": cows, "chickens": chickens}


def score(**turns_by_name):
    return MARTIAN_DICE.run_score({"players": [{"name": n, "turns": t} for n, t in turns_by_name.items()]})


def totals(result):
    return {p.name: p.total for p in result.players}


def errors_of(players):
    with pytest.raises(InvalidInput) as raised:
        MARTIAN_DICE.run_score({"players": players})
    return {path: [str(message) for message in messages] for path, messages in raised.value.errors.items()}


NINE = turn(tanks=1, rays=4, humans=2, cows=1, chickens=3)  # 6 earthlings + 3 bonus = 9 points
ELEVEN = turn(tanks=2, rays=3, humans=3, cows=3, chickens=2)  # 8 earthlings + 3 = 11 points


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 8, 20])
def test_setup_is_thirteen_dice_and_a_target_of_twenty_five_for_any_table(players):
    setup = MARTIAN_DICE.run_setup({"players": players})
    assert setup.values["dice"] == 13
    assert setup.values["target"] == 25
    assert [(str(c.name), c.count) for c in setup.components] == [("Dés martiens", 13)]
    assert "Dès qu'un joueur atteint 25 points" in " ".join(map(str, setup.steps))


def test_the_die_faces_are_those_of_the_seed_page():
    listed = re.findall(r"^\* (.+?) \((\w+)\) ×(\d)$", SEED.read_text(), flags=re.MULTILINE)
    assert [int(count) for _face, _colour, count in listed] == [1, 2, 1, 1, 1]
    assert list(MARTIAN_DICE.run_setup({"players": 2}).values["faces"].values()) == [1, 2, 1, 1, 1]
    assert sum(MARTIAN_DICE.run_setup({"players": 2}).values["faces"].values()) == 6


def test_a_single_martian_is_refused():
    with pytest.raises(InvalidInput) as raised:
        MARTIAN_DICE.run_setup({"players": 1})
    assert [str(m) for m in raised.value.errors["players"]] == ["Ce jeu se joue à partir de 2 joueurs."]


# --- scoring a turn -----------------------------------------------------------------------------------------


def test_a_turn_scores_a_point_per_earthling_kept():
    result = score(Ana=[turn(tanks=1, rays=3, humans=4)], Ben=[turn(rays=5, cows=2, chickens=1)])
    assert totals(result) == {"Ana": 4, "Ben": 3}
    assert result.players[1].breakdown == {"humans": 0, "cows": 2, "chickens": 1, "bonus": 0}


def test_as_many_death_rays_as_tanks_is_enough_to_score():
    # The ruling: « au moins autant de rayons de la mort que de tanks ».
    result = score(Ana=[turn(tanks=3, rays=3, humans=2, chickens=4)], Ben=[turn()])
    assert totals(result)["Ana"] == 6


def test_fewer_death_rays_than_tanks_scores_nothing_that_turn():
    result = score(Ana=[turn(tanks=4, rays=3, humans=3, cows=2, chickens=1)], Ben=[turn(chickens=1)])
    assert result.players[0].breakdown == {"humans": 0, "cows": 0, "chickens": 0, "bonus": 0}
    assert totals(result) == {"Ana": 0, "Ben": 1}


def test_keeping_all_three_kinds_adds_three_bonus_points():
    result = score(Ana=[NINE], Ben=[ELEVEN])
    assert result.players[0].breakdown == {"humans": 2, "cows": 1, "chickens": 3, "bonus": 3}
    assert totals(result) == {"Ana": 9, "Ben": 11}


def test_a_sheet_adds_up_every_turn():
    result = score(
        Ana=[NINE, turn(tanks=5, rays=2, humans=6), turn(rays=2, chickens=3)],
        Ben=[turn(tanks=1, rays=1, cows=1), turn(rays=4, humans=1, cows=2), turn(tanks=2, rays=6)],
    )
    assert totals(result) == {"Ana": 9 + 0 + 3, "Ben": 1 + 3 + 0}
    assert result.players[0].breakdown == {"humans": 2, "cows": 1, "chickens": 6, "bonus": 3}


# --- the end of the game --------------------------------------------------------------------------------------


def test_before_anyone_reaches_twenty_five_the_game_goes_on_without_a_winner():
    result = score(Ana=[ELEVEN], Ben=[NINE], Cléo=[turn(tanks=3)])
    assert result.winners == []
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 2, 3]
    assert str(result.explanation) == (
        "Personne n'a encore 25 points : la partie continue. En tête : Ana (11 points)."
    )


def test_an_empty_sheet_is_a_game_that_has_not_started():
    result = score(Ana=[], Ben=[])
    assert result.winners == []
    assert str(result.explanation) == "Personne n'a encore 25 points : la partie continue."


def test_reaching_twenty_five_lets_the_following_players_finish_the_round():
    result = score(Ana=[ELEVEN, ELEVEN, ELEVEN], Ben=[ELEVEN, NINE], Cléo=[NINE, turn()])
    assert totals(result) == {"Ana": 33, "Ben": 20, "Cléo": 9}
    assert result.winners == []
    assert str(result.explanation) == (
        "Ana a atteint 25 points au tour 3. La partie continue jusqu'à la fin de ce tour de table : "
        "Ben et Cléo doivent encore jouer."
    )


def test_once_the_round_is_complete_the_most_points_wins():
    result = score(Ana=[ELEVEN, ELEVEN, ELEVEN], Ben=[ELEVEN, NINE, ELEVEN], Cléo=[NINE, turn(), NINE])
    assert totals(result) == {"Ana": 33, "Ben": 31, "Cléo": 18}
    assert result.winners == ["Ana"]
    assert [p.rank for p in result.players] == [1, 2, 3]
    assert str(result.explanation) == "Ana gagne avec 33 points."


def test_a_later_player_can_overtake_in_the_last_round():
    # Ana reaches 25 first; Ben, playing after her in the same round, ends higher.
    result = score(Ana=[ELEVEN, ELEVEN, turn(rays=3, humans=3)], Ben=[ELEVEN, ELEVEN, ELEVEN])
    assert totals(result) == {"Ana": 25, "Ben": 33}
    assert result.winners == ["Ben"]


def test_exactly_twenty_five_ends_the_game():
    result = score(Ana=[ELEVEN, ELEVEN, turn(rays=3, humans=3)], Ben=[turn(), turn(), turn()])
    assert totals(result)["Ana"] == 25
    assert result.winners == ["Ana"]


def test_leaders_still_tied_share_the_victory_and_the_roll_off_stays_at_the_table():
    result = score(Ana=[ELEVEN, ELEVEN, ELEVEN], Ben=[ELEVEN, ELEVEN, ELEVEN], Cléo=[ELEVEN, ELEVEN, turn()])
    assert result.winners == ["Ana", "Ben"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 3]
    assert str(result.explanation) == (
        "Ana et Ben sont à égalité avec 33 points. Ana et Ben se partagent la victoire. Pour les départager à la "
        "table : un lancer de dés supplémentaire, le plus de rayons de la mort l'emporte."
    )


def test_the_order_of_the_players_on_the_sheet_is_free():
    # Cléo started the round: she has played one more turn than Ana and Ben.
    result = score(Ana=[ELEVEN, ELEVEN], Ben=[NINE, NINE], Cléo=[ELEVEN, ELEVEN, ELEVEN])
    assert result.winners == []
    assert "Ana et Ben doivent encore jouer" in str(result.explanation)


# --- bad input ---------------------------------------------------------------------------------------------------


def test_more_than_thirteen_dice_in_a_turn_is_refused_at_that_turn():
    errors = errors_of(
        [
            {"name": "Ana", "turns": [ELEVEN, ELEVEN, turn(tanks=5, rays=5, humans=4)]},
            {"name": "Ben", "turns": [ELEVEN, ELEVEN]},
        ]
    )
    assert errors == {"players.0.turns.2": ["On ne garde que 13 dés en un tour : ce tour en compte 14."]}


def test_bad_dice_counts_are_refused_with_their_exact_paths():
    errors = errors_of(
        [
            {"name": "Ana", "turns": [ELEVEN, ELEVEN, {**ELEVEN, "tanks": -1}]},
            {"name": "Ben", "turns": [{**ELEVEN, "cows": "trois"}, {**ELEVEN, "chickens": 14}, "rien"]},
        ]
    )
    assert errors == {
        "players.0.turns.2.tanks": ["La valeur doit être au moins 0."],
        "players.1.turns.0.cows": ["Saisissez un nombre entier."],
        "players.1.turns.1.chickens": ["La valeur doit être au plus 13."],
        "players.1.turns.2": [
            "Saisissez un objet avec les champs tanks, death_rays, humans, cows, chickens."
        ],
    }


def test_an_unknown_die_face_and_missing_turns_are_refused():
    errors = errors_of([{"name": "Ana", "turns": [{"tanks": 1, "lasers": 2}]}, {"name": "Ben"}])
    assert errors == {
        "players.0.turns.0.lasers": ["Champ inconnu pour ce jeu."],
        "players.1.turns": ["Ce champ est obligatoire."],
    }


def test_players_cannot_be_two_turns_apart():
    errors = errors_of([{"name": "Ana", "turns": [NINE, NINE, NINE]}, {"name": "Ben", "turns": [NINE]}])
    assert errors == {
        "players.1.turns": [
            "Ce joueur a joué 1 tour quand un autre en a joué 3 : chacun joue à son tour, l'écart ne peut pas "
            "dépasser un tour."
        ]
    }


def test_turns_after_the_round_that_reached_twenty_five_cannot_happen():
    errors = errors_of(
        [
            {"name": "Ana", "turns": [ELEVEN, ELEVEN, ELEVEN, ELEVEN]},
            {"name": "Ben", "turns": [ELEVEN, NINE, turn()]},
        ]
    )
    assert errors == {
        "players.0.turns.3": [
            "La partie s'est arrêtée à la fin du tour 3, quand 25 points ont été atteints : ce tour n'a pas pu "
            "être joué."
        ]
    }


# --- properties -----------------------------------------------------------------------------------------------------


@st.composite
def kept_dice(draw):
    left = 13
    counts = []
    for _face in range(5):
        count = draw(st.integers(0, min(left, 6)))
        counts.append(count)
        left -= count
    return turn(*counts)


def expected_points(t):
    if t["death_rays"] < t["tanks"]:
        return 0
    earthlings = t["humans"] + t["cows"] + t["chickens"]
    return earthlings + (3 if min(t["humans"], t["cows"], t["chickens"]) >= 1 else 0)


@st.composite
def sheets(draw):
    """Valid sheets: rounds cut where someone reached 25, possibly with the last round under way."""
    count = draw(st.integers(2, 6))
    rounds = draw(st.integers(0, 6))
    sheet = [draw(st.lists(kept_dice(), min_size=rounds, max_size=rounds)) for _ in range(count)]
    end = None
    for round_ in range(1, rounds + 1):
        if any(sum(expected_points(t) for t in turns[:round_]) >= 25 for turns in sheet):
            end = round_
            break
    if end is not None:
        sheet = [turns[:end] for turns in sheet]
    if rounds and draw(st.booleans()):
        behind = draw(st.lists(st.booleans(), min_size=count, max_size=count))
        if not all(behind):
            sheet = [turns[:-1] if late else turns for turns, late in zip(sheet, behind, strict=True)]
    return [{"name": f"Martien {index}", "turns": turns} for index, turns in enumerate(sheet)]


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_a_total_is_the_sum_of_its_breakdown_and_of_its_turns(players):
    result = MARTIAN_DICE.run_score({"players": players})
    for entry, scored in zip(players, result.players, strict=True):
        assert (
            scored.total == sum(scored.breakdown.values()) == sum(expected_points(t) for t in entry["turns"])
        )


@settings(max_examples=100, deadline=None)
@given(sheets(), st.randoms(use_true_random=False))
def test_permuting_the_martians_changes_nobodys_total_nor_rank(players, random):
    before = MARTIAN_DICE.run_score({"players": players})
    shuffled = list(players)
    random.shuffle(shuffled)
    after = MARTIAN_DICE.run_score({"players": shuffled})
    assert {p.name: (p.total, p.rank) for p in after.players} == {
        p.name: (p.total, p.rank) for p in before.players
    }
    assert sorted(after.winners) == sorted(before.winners)


@settings(max_examples=150, deadline=None)
@given(sheets())
def test_there_are_winners_only_once_everyone_has_played_the_round_that_reached_twenty_five(players):
    result = MARTIAN_DICE.run_score({"players": players})
    counts = {len(p["turns"]) for p in players}
    best = max(p.total for p in result.players)
    if len(counts) == 1 and best >= 25:
        assert sorted(result.winners) == sorted(p.name for p in result.players if p.total == best)
    else:
        assert result.winners == []
        assert "la partie continue" in str(result.explanation).lower()


@settings(max_examples=150, deadline=None)
@given(kept_dice(), st.integers(1, 13))
def test_more_tanks_than_death_rays_always_scores_nothing(kept, extra):
    outgunned = {**kept, "tanks": min(13, kept["death_rays"] + extra)}
    if sum(outgunned.values()) > 13:
        return
    result = score(Ana=[outgunned], Ben=[kept])
    assert result.players[0].total == 0
