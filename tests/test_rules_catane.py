"""Les colons de Catane: victory points, the 10-point win, the special cards and the set-up for 3 or 4."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

RULES = get_game("catane")


def player(name, settlements=2, **fields):
    return {"name": name, "settlements": settlements, **fields}


def score(players):
    return RULES.run_score({"players": players})


def errors_of(excinfo):
    return {path: [str(message) for message in messages] for path, messages in excinfo.value.errors.items()}


def test_the_seed_example_reaches_exactly_10_points_and_wins():
    # « Un joueur possède 2 colonies (2 points de victoire), la carte Route la plus longue (2 points de
    # victoire), 2 villes (4 points de victoire) et 2 cartes Point de victoire (2 points de victoire). Il
    # retourne ces dernières et atteint ainsi les 10 points qui font gagner. »
    result = score(
        [
            player("Vincent", settlements=2, cities=2, longest_road=True, vp_cards=2),
            player("Émilie", settlements=3, cities=2, largest_army=True),
            player("Stéphane", settlements=4, cities=1),
        ]
    )
    vincent, emilie, stephane = result.players
    assert vincent.breakdown == {
        "settlements": 2,
        "cities": 4,
        "longest_road": 2,
        "largest_army": 0,
        "vp_cards": 2,
    }
    assert vincent.total == 10
    assert emilie.total == 3 + 4 + 2
    assert stephane.total == 4 + 2
    assert result.winners == ["Vincent"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 2, 3]
    assert str(result.explanation) == "Vincent gagne avec 10 points."


def test_every_player_starts_with_2_points_and_nobody_has_won_yet():
    # « Chaque joueur commence la partie avec 2 points de victoire (2 colonies). »
    result = score([player("A"), player("B"), player("C"), player("D")])
    assert [p.total for p in result.players] == [2, 2, 2, 2]
    assert result.winners == []
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 1, 1]
    assert str(result.explanation) == "Personne n'a encore 10 points de victoire : la partie continue."


def test_nine_points_is_not_a_win_and_players_below_ten_are_ranked_by_total():
    result = score(
        [
            player("A", settlements=3, cities=3),
            player("B", settlements=1, cities=4),
            player("C", settlements=2, cities=1),
        ]
    )
    assert [p.total for p in result.players] == [9, 9, 4]
    assert result.winners == []
    assert [p.rank for p in result.players] == [1, 1, 3]


def test_special_cards_are_worth_two_points_and_victory_point_cards_one():
    result = score(
        [
            player("A", settlements=1, cities=3, largest_army=True, vp_cards=1),
            player("B", settlements=4, cities=1, longest_road=True),
            player("C", settlements=5),
        ]
    )
    assert result.players[0].breakdown == {
        "settlements": 1,
        "cities": 6,
        "longest_road": 0,
        "largest_army": 2,
        "vp_cards": 1,
    }
    assert result.players[1].breakdown["longest_road"] == 2
    assert [p.total for p in result.players] == [10, 8, 5]
    assert result.winners == ["A"]
    assert [p.rank for p in result.players] == [1, 2, 3]


def test_a_city_counts_two_points_and_a_winner_may_pass_ten():
    result = score(
        [
            player("A", settlements=2, cities=4, longest_road=True, largest_army=False),
            player("B"),
            player("C"),
        ]
    )
    assert result.players[0].breakdown["cities"] == 8
    assert result.players[0].total == 12
    assert result.winners == ["A"]
    assert str(result.explanation) == "A gagne avec 12 points."


def test_the_score_pad_footnote_states_the_ten_point_win():
    assert str(RULES.tie_break_rule()) == (
        "Le premier joueur qui atteint 10 points de victoire pendant son tour gagne aussitôt."
    )


def test_two_players_at_ten_or_more_is_a_position_that_cannot_happen():
    with pytest.raises(InvalidInput) as excinfo:
        score(
            [
                player("A", settlements=2, cities=4),
                player("B", settlements=4, cities=3),
                player("C"),
            ]
        )
    assert errors_of(excinfo) == {
        "players": [
            "Deux joueurs ne peuvent pas avoir atteint 10 points : la partie s'arrête dès que le premier "
            "les atteint pendant son tour."
        ]
    }


@pytest.mark.parametrize("card", ["longest_road", "largest_army"])
def test_a_special_card_has_at_most_one_holder(card):
    with pytest.raises(InvalidInput) as excinfo:
        score([player("A", **{card: True}), player("B"), player("C", **{card: "oui"})])
    message = "Cette carte spéciale n'a qu'un détenteur à la fois."
    assert errors_of(excinfo) == {f"players.0.{card}": [message], f"players.2.{card}": [message]}


def test_more_victory_point_cards_than_the_deck_holds_are_refused():
    with pytest.raises(InvalidInput) as excinfo:
        score([player("A", vp_cards=3), player("B"), player("C", vp_cards=3)])
    message = "Le jeu ne compte que 5 cartes Point de victoire ; les joueurs en déclarent 6."
    assert errors_of(excinfo) == {"players.0.vp_cards": [message], "players.2.vp_cards": [message]}


def test_out_of_range_missing_and_unknown_fields_have_french_messages_under_their_paths():
    players = [
        {"name": "A", "settlements": 6},
        {"name": "B"},
        {
            "name": "C",
            "settlements": 2,
            "cities": 5,
            "vp_cards": -1,
            "longest_road": "peut-être",
            "knights": 3,
        },
    ]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    assert errors_of(excinfo) == {
        "players.0.settlements": ["La valeur doit être au plus 5."],
        "players.1.settlements": ["Ce champ est obligatoire."],
        "players.2.cities": ["La valeur doit être au plus 4."],
        "players.2.vp_cards": ["La valeur doit être au moins 0."],
        "players.2.longest_road": ["Répondez par vrai ou faux."],
        "players.2.knights": ["Champ inconnu pour ce jeu."],
    }


@pytest.mark.parametrize("count", [2, 5])
def test_a_score_sheet_needs_three_or_four_players(count):
    with pytest.raises(InvalidInput) as excinfo:
        score([player(f"J{index}") for index in range(count)])
    assert errors_of(excinfo) == {"players": ["Ce jeu se joue de 3 à 4 joueurs."]}


def test_catane_has_no_variants():
    with pytest.raises(InvalidInput) as excinfo:
        RULES.run_score({"variants": ["marins"], "players": [player("A"), player("B"), player("C")]})
    assert list(errors_of(excinfo)) == ["variants"]


# --- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(("count", "removed"), [(3, ["rouge"]), (4, [])])
def test_setup_values_for_three_and_four_players(count, removed):
    result = RULES.run_setup({"players": count})
    assert result.values == {
        "settlements_per_player": 5,
        "cities_per_player": 4,
        "roads_per_player": 15,
        "land_hexes": 19,
        "number_tokens": 18,
        "colours_removed": removed,
    }
    components = {str(c.name): c.count for c in result.components}
    assert components["Colonies"] == 5 * count
    assert components["Villes"] == 4 * count
    assert components["Routes"] == 15 * count
    assert components["Fiches Coûts de construction"] == count


def test_setup_components_match_the_notice_contents():
    components = {str(c.name): c.count for c in RULES.run_setup({"players": 4}).components}
    land = sum(
        components[name]
        for name in (
            "Forêts (bois)",
            "Pâturages (laine)",
            "Champs (blé)",
            "Collines (argile)",
            "Montagnes (minerai)",
            "Désert",
        )
    )
    sea = components["Hexagones maritimes avec port"] + components["Hexagones maritimes sans port"]
    # « 37 hexagones […] 95 cartes Matières Premières, 25 cartes Développement […] 2 cartes spéciales
    # […] 16 villes, 20 colonies, 60 routes, 18 jetons numérotés, 1 pion Brigand, 2 dés »
    assert (land, sea, land + sea) == (19, 18, 37)
    assert components["Cartes Matières premières"] == 95
    assert components["Cartes Développement"] == 25
    assert components["Cartes spéciales"] == 2
    assert (components["Villes"], components["Colonies"], components["Routes"]) == (16, 20, 60)
    assert components["Jetons numérotés"] == 18
    assert components["Brigand"] == 1 and components["Dés"] == 2


def test_setup_steps_describe_the_variable_board_and_remove_red_only_for_three():
    three = [str(step) for step in RULES.run_setup({"players": 3}).steps]
    four = [str(step) for step in RULES.run_setup({"players": 4}).steps]
    assert any("lignes verticales de 3, 4, 5, 4, 3 hexagones" in step for step in three)
    assert any(
        "18 jetons numérotés côté lettre" in step and "sans jeton sur le désert" in step for step in three
    )
    assert any("9 hexagones Port" in step for step in three)
    assert any(step.startswith("À 3 joueurs, écartez les pions rouges.") for step in three)
    assert not any("rouges" in step for step in four)
    assert any("2e tour, dans le sens inverse" in step for step in four)


@pytest.mark.parametrize("count", ["2", "5", ""])
def test_setup_refuses_a_player_count_outside_3_to_4(count):
    with pytest.raises(InvalidInput) as excinfo:
        RULES.run_setup({"players": count})
    assert list(errors_of(excinfo)) == ["players"]


# --- properties ------------------------------------------------------------------------------------


@st.composite
def tables(draw):
    count = draw(st.integers(min_value=3, max_value=4))
    road = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=count - 1)))
    army = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=count - 1)))
    cards = draw(st.lists(st.integers(min_value=0, max_value=2), min_size=count, max_size=count))
    players = [
        player(
            f"J{index}",
            settlements=draw(st.integers(min_value=0, max_value=5)),
            cities=draw(st.integers(min_value=0, max_value=4)),
            longest_road=index == road,
            largest_army=index == army,
            vp_cards=cards[index] if sum(cards) <= 5 else 0,
        )
        for index in range(count)
    ]

    def points(p):
        return (
            p["settlements"] + 2 * p["cities"] + 2 * p["longest_road"] + 2 * p["largest_army"] + p["vp_cards"]
        )

    # Keep only positions that can happen: at most one player at 10 or more.
    winners = [p for p in players if points(p) >= 10]
    for extra in winners[1:]:
        extra.update(settlements=1, cities=1, longest_road=False, largest_army=False, vp_cards=0)
    return players


@given(tables())
def test_property_total_is_the_rule_books_sum_and_only_a_ten_point_player_wins(players):
    result = score(players)
    for scored, raw in zip(result.players, players, strict=True):
        assert scored.total == sum(scored.breakdown.values())
        assert scored.total == (
            raw["settlements"]
            + 2 * raw["cities"]
            + 2 * raw["longest_road"]
            + 2 * raw["largest_army"]
            + raw["vp_cards"]
        )
    assert result.winners == [p.name for p in result.players if p.total >= 10]
    for scored in result.players:
        assert scored.rank == 1 + sum(1 for other in result.players if other.total > scored.total)


@given(tables(), st.randoms(use_true_random=False))
def test_property_permuting_players_changes_nobodys_total_or_rank(players, random):
    shuffled = players[:]
    random.shuffle(shuffled)
    first = score(players)
    second = score(shuffled)
    assert {p.name: (p.total, p.rank) for p in first.players} == {
        p.name: (p.total, p.rank) for p in second.players
    }
    assert first.winners == second.winners
