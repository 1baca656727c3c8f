"""Biblios: categories won by the highest total (letter closest to A on a tie), then gold, then Monks."""

import string

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game
from rules.games.biblios import CATEGORIES

RULES = get_game("biblios")
SLUGS = [slug for slug, _label in CATEGORIES]


def cat(total, letter=None):
    return {"total": total, "best_letter": letter}


def score(players, dice=None):
    body = {"players": players}
    if dice is not None:
        body["dice"] = dice
    return RULES.run_score(body)


def errors_of(excinfo):
    return {path: [str(message) for message in messages] for path, messages in excinfo.value.errors.items()}


# The seed's final example: Monks tied at 9, Rodolphe holds a « B » and Cédric only a « C »; the Monks
# die shows 5. Cédric wins three categories (dice 2, 2 and 4: 8 points), Rodolphe two (5 and 3: 8
# points), and Rodolphe has more gold. Igor, the third player of the auction example, wins nothing.
EXAMPLE_DICE = {"moines": 5, "manuscrits": 3, "pigments": 2, "grimoires": 2, "livres_sacres": 4}


def example(cedric_gold, rodolphe_gold):
    return [
        {
            "name": "Cédric",
            "categories": {
                "moines": cat(9, "C"),  # « 3 cartes Moines (2, 3, 4) »
                "manuscrits": cat(2, "F"),
                "pigments": cat(7, "A"),
                "grimoires": cat(4, "D"),
                "livres_sacres": cat(3, "B"),
            },
            "gold": cedric_gold,
        },
        {
            "name": "Rodolphe",
            "categories": {"moines": cat(9, "B"), "manuscrits": cat(5, "A"), "grimoires": cat(2, "E")},
            "gold": rodolphe_gold,
        },
        {"name": "Igor", "categories": {"pigments": cat(3, "C"), "livres_sacres": cat(1, "G")}, "gold": 1},
    ]


def test_seed_example_rodolphe_wins_the_monks_on_letter_b_and_the_game_on_gold():
    result = score(example(cedric_gold=2, rodolphe_gold=5), dice=EXAMPLE_DICE)
    cedric, rodolphe, igor = result.players
    assert rodolphe.breakdown == {
        "moines": 5,
        "manuscrits": 3,
        "pigments": 0,
        "grimoires": 0,
        "livres_sacres": 0,
    }
    assert cedric.breakdown == {
        "moines": 0,
        "manuscrits": 0,
        "pigments": 2,
        "grimoires": 2,
        "livres_sacres": 4,
    }
    assert (cedric.total, rodolphe.total, igor.total) == (8, 8, 0)
    assert result.winners == ["Rodolphe"]
    assert result.decided_by == "gold"
    assert (rodolphe.rank, cedric.rank, igor.rank) == (1, 2, 3)
    assert str(result.explanation) == (
        "Cédric et Rodolphe sont à égalité avec 8 points. Départage par l'or restant : Rodolphe l'emporte (5 contre 2)."
    )


def test_with_equal_gold_the_winner_of_the_monks_wins():
    result = score(example(cedric_gold=3, rodolphe_gold=3), dice=EXAMPLE_DICE)
    assert result.winners == ["Rodolphe"]
    assert result.decided_by == "moines"
    assert [p.rank for p in result.players] == [2, 1, 3]
    assert str(result.explanation) == (
        "Cédric et Rodolphe sont à égalité avec 8 points. Départage par la catégorie Moines : Rodolphe l'emporte."
    )


def test_a_category_tie_goes_to_the_letter_closest_to_a_among_three():
    players = [
        {"name": "A", "categories": {"pigments": cat(6, "K")}},
        {"name": "B", "categories": {"pigments": cat(6, "C")}},
        {"name": "C", "categories": {"pigments": cat(6, "H")}},
        {"name": "D", "categories": {"pigments": cat(5, "A")}},  # the A card, but a lower total
    ]
    result = score(players)
    assert [p.breakdown["pigments"] for p in result.players] == [0, 3, 0, 0]


def test_a_category_nobody_has_is_won_by_nobody_and_dice_default_to_3():
    players = [
        {"name": "A", "categories": {"moines": cat(4, "A")}},
        {"name": "B", "categories": {"moines": cat(0)}},
    ]
    result = score(players)
    assert result.players[0].breakdown == {
        "moines": 3,
        "manuscrits": 0,
        "pigments": 0,
        "grimoires": 0,
        "livres_sacres": 0,
    }
    assert result.players[1].total == 0
    assert str(result.explanation) == "A gagne avec 3 points."


def test_dice_left_out_stay_on_3():
    players = [
        {"name": "A", "categories": {"moines": cat(4), "manuscrits": cat(2)}},
        {"name": "B", "categories": {"grimoires": cat(1)}},
    ]
    result = score(players, dice={"moines": 6})
    assert result.players[0].breakdown["moines"] == 6
    assert result.players[0].breakdown["manuscrits"] == 3
    assert result.players[1].breakdown["grimoires"] == 3


def test_three_way_tie_narrowed_by_gold_then_still_tied_shares_the_victory():
    # D wins the two cheap categories, Monks included, so the Monks cannot separate A and B.
    dice = {"moines": 1, "manuscrits": 5, "pigments": 5, "grimoires": 5, "livres_sacres": 1}
    players = [
        {"name": "A", "categories": {"manuscrits": cat(5)}, "gold": 4},
        {"name": "B", "categories": {"pigments": cat(5)}, "gold": 4},
        {"name": "C", "categories": {"grimoires": cat(5)}, "gold": 1},
        {"name": "D", "categories": {"moines": cat(2), "livres_sacres": cat(1)}, "gold": 9},
    ]
    result = score(players, dice=dice)
    assert [p.total for p in result.players] == [5, 5, 5, 2]
    assert result.winners == ["A", "B"]
    assert result.decided_by == "gold"
    assert [p.rank for p in result.players] == [1, 1, 3, 4]
    assert str(result.explanation) == (
        "A, B et C sont à égalité avec 5 points. Départage par l'or restant : A et B restent à égalité. "
        "A et B se partagent la victoire."
    )


def test_three_way_tie_with_equal_gold_goes_to_the_monks_winner():
    dice = {"moines": 5, "manuscrits": 5, "pigments": 5, "grimoires": 1, "livres_sacres": 1}
    players = [
        {"name": "A", "categories": {"moines": cat(5)}, "gold": 2},
        {"name": "B", "categories": {"manuscrits": cat(5)}, "gold": 2},
        {"name": "C", "categories": {"pigments": cat(5)}, "gold": 2},
        {"name": "D", "categories": {"grimoires": cat(1), "livres_sacres": cat(1)}, "gold": 2},
    ]
    result = score(players, dice=dice)
    assert result.winners == ["A"]
    assert result.decided_by == "moines"
    assert [p.rank for p in result.players] == [1, 2, 2, 4]
    assert str(result.explanation) == (
        "A, B et C sont à égalité avec 5 points. Départage par la catégorie Moines : A l'emporte."
    )


def test_tie_break_rule_sentence_for_the_score_pad():
    assert str(RULES.tie_break_rule()) == (
        "Le plus grand total gagne. En cas d'égalité, départage par l'or restant, puis la catégorie Moines ; "
        "si l'égalité persiste, la victoire est partagée."
    )


# --- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("count", "gold", "random", "deck"),
    [(2, 6, 21, 60), (3, 3, 12, 72), (4, 0, 7, 80)],
)
def test_setup_values_for_each_player_count(count, gold, random, deck):
    result = RULES.run_setup({"players": count})
    assert result.values == {
        "removed_gold": gold,
        "removed_random": random,
        "deck": deck,
        "cards_per_turn": count + 1,
        "public_cards": count - 1,
    }
    # The draw pile divides exactly into turns of players + 1 cards.
    assert deck % (count + 1) == 0
    components = {str(c.name): c.count for c in result.components}
    assert (
        components["Cartes dans la pioche"]
        + components.get("Cartes Or retirées", 0)
        + components["Cartes retirées au hasard"]
        == 87
    )
    assert components["Dés de catégorie (sur la face 3)"] == 5


def test_setup_steps_name_the_removed_cards():
    two = [str(step) for step in RULES.run_setup({"players": 2}).steps]
    four = [str(step) for step in RULES.run_setup({"players": 4}).steps]
    assert "Retirez sans les regarder 6 cartes Or (2 de chaque valeur), puis 21 cartes au hasard." in two
    assert "Retirez sans les regarder 7 cartes au hasard." in four
    assert any("alloue 3 cartes" in step and "1 sur la place publique" in step for step in two)
    assert any("alloue 5 cartes" in step and "3 sur la place publique" in step for step in four)


@pytest.mark.parametrize("count", ["1", "5", "deux"])
def test_setup_refuses_a_player_count_outside_2_to_4(count):
    with pytest.raises(InvalidInput) as excinfo:
        RULES.run_setup({"players": count})
    assert list(errors_of(excinfo)) == ["players"]


# --- bad input -------------------------------------------------------------------------------------


def test_two_tied_players_with_the_same_letter_are_refused():
    players = [
        {"name": "Cédric", "categories": {"moines": cat(9, "B")}},
        {"name": "Rodolphe", "categories": {"moines": cat(9, "B")}},
    ]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    message = "Deux joueurs à égalité ne peuvent pas avoir la même meilleure lettre."
    assert errors_of(excinfo) == {
        "players.0.categories.moines.best_letter": [message],
        "players.1.categories.moines.best_letter": [message],
    }


def test_a_shared_letter_behind_the_winner_of_a_three_way_tie_is_refused_too():
    # Each letter names one card of the category: two players cannot both hold the « C ».
    players = [
        {"name": "A", "categories": {"pigments": cat(6, "B")}},
        {"name": "B", "categories": {"pigments": cat(6, "C")}},
        {"name": "C", "categories": {"pigments": cat(6, "C")}},
    ]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    assert list(errors_of(excinfo)) == [
        "players.1.categories.pigments.best_letter",
        "players.2.categories.pigments.best_letter",
    ]


def test_a_tie_without_a_letter_asks_for_it():
    players = [
        {"name": "Cédric", "categories": {"grimoires": cat(4, "C")}},
        {"name": "Rodolphe", "categories": {"grimoires": cat(4)}},
    ]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    assert errors_of(excinfo) == {
        "players.1.categories.grimoires.best_letter": [
            "Égalité dans cette catégorie : indiquez la lettre de carte la plus proche de A."
        ]
    }


def test_dice_must_show_1_to_6():
    players = [{"name": "A"}, {"name": "B"}]
    with pytest.raises(InvalidInput) as excinfo:
        score(players, dice={"moines": 7, "pigments": 0, "manuscrits": "trois"})
    assert errors_of(excinfo) == {
        "dice.moines": ["La valeur doit être au plus 6."],
        "dice.pigments": ["La valeur doit être au moins 1."],
        "dice.manuscrits": ["Saisissez un nombre entier."],
    }


def test_five_players_are_refused():
    with pytest.raises(InvalidInput) as excinfo:
        score([{"name": f"J{index}"} for index in range(5)])
    assert errors_of(excinfo) == {"players": ["Ce jeu se joue de 2 à 4 joueurs."]}


def test_bad_fields_have_french_messages_under_their_paths():
    players = [
        {"name": "A", "gold": -2, "categories": {"enluminures": cat(3), "moines": cat(2, "AA")}},
        {"name": "a", "categories": {"pigments": {"total": -1}}},
    ]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    errors = errors_of(excinfo)
    assert errors["players.0.gold"] == ["La valeur doit être au moins 0."]
    assert errors["players.0.categories.enluminures"] == ["Champ inconnu pour ce jeu."]
    assert errors["players.0.categories.moines.best_letter"][0].startswith(
        "Choisissez une de ces valeurs : A, B, C"
    )
    assert errors["players.1.name"] == ["Deux joueurs portent le nom « a »."]
    assert errors["players.1.categories.pigments.total"] == ["La valeur doit être au moins 0."]


# --- properties ------------------------------------------------------------------------------------


@st.composite
def tables(draw):
    count = draw(st.integers(min_value=2, max_value=4))
    players = [
        {"name": f"J{index}", "categories": {}, "gold": draw(st.integers(0, 10))} for index in range(count)
    ]
    for slug in SLUGS:
        # A letter names one card of the category: distinct letters for distinct players.
        letters = draw(st.permutations(string.ascii_uppercase))[:count]
        for index, player in enumerate(players):
            total = draw(st.integers(min_value=0, max_value=12))
            if total or draw(st.booleans()):
                player["categories"][slug] = cat(total, letters[index])
    dice = {slug: draw(st.integers(min_value=1, max_value=6)) for slug in SLUGS}
    return players, dice


@given(tables())
def test_property_each_category_die_goes_to_one_player_with_the_highest_total(table):
    players, dice = table
    result = score(players, dice=dice)
    for scored in result.players:
        assert scored.total == sum(scored.breakdown.values())
        assert list(scored.breakdown) == SLUGS
    for slug in SLUGS:
        totals = [p["categories"].get(slug, cat(0))["total"] for p in players]
        paid = [scored.breakdown[slug] for scored in result.players]
        if max(totals) == 0:
            assert paid == [0] * len(players)
        else:
            assert sorted(paid) == [0] * (len(players) - 1) + [dice[slug]]
            assert totals[paid.index(dice[slug])] == max(totals)
    best = max(scored.total for scored in result.players)
    assert all(scored.total == best for scored in result.players if scored.name in result.winners)


@given(tables(), st.randoms(use_true_random=False))
def test_property_permuting_players_changes_nobodys_total_or_rank(table, random):
    players, dice = table
    shuffled = players[:]
    random.shuffle(shuffled)
    first = score(players, dice=dice)
    second = score(shuffled, dice=dice)
    assert {p.name: (p.total, p.rank) for p in first.players} == {
        p.name: (p.total, p.rank) for p in second.players
    }
    assert sorted(first.winners) == sorted(second.winners)
    assert first.decided_by == second.decided_by
