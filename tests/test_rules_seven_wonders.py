"""7 Wonders' rules (seed 004): setup for 2–7 players (Cité franche at 2), scoring, science wilds, coins tie-break."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game
from rules.games.seven_wonders import conflict_tokens, science_points

WONDERS = get_game("7-wonders")


def score(*players, **body):
    return WONDERS.run_score({"players": list(players), **body})


def messages(error):
    return {path: [str(message) for message in texts] for path, texts in error.errors.items()}


def component_counts(result):
    return {str(component.name): component.count for component in result.components}


# --- the seed's worked examples --------------------------------------------------------------------


def test_an_age_ii_conflict_gives_alexandrie_a_defeat_and_a_victory():
    """« Alexandrie (3 Boucliers) […] Rhodes (5 Boucliers), à gauche, et Éphèse (2 Boucliers), à droite.
    Alexandrie prend un jeton Défaite (-1) […] et un jeton Victoire (+3 points de victoire, âge II) »"""
    assert conflict_tokens(2, 3, left=5, right=2) == [-1, 3]


def test_equal_shields_take_no_token():
    assert conflict_tokens(1, 2, left=2, right=2) == []


def test_alexandrie_ends_with_six_military_points():
    """« +1, +3, +5, -1, -1, -1 pour un total de 6 points de victoire »"""
    tokens = conflict_tokens(1, 2, 1, 3) + conflict_tokens(2, 2, 1, 3) + conflict_tokens(3, 2, 1, 3)
    assert sorted(tokens) == [-1, -1, -1, 1, 3, 5]
    result = score({"name": "Alexandrie", "military": sum(tokens)}, {"name": "Rhodes"})
    assert result.players[0].breakdown["military"] == 6


def test_alexandrie_scores_21_for_science_and_31_with_one_more_building():
    """« un seul groupe de 3 symboles différents […] 21 points de victoire. […] (9+4+4) + (7+7) = 31 »"""
    before = score(
        {"name": "Alexandrie", "science": {"tablet": 3, "compass": 2, "gear": 1}}, {"name": "Rhodes"}
    )
    after = score(
        {"name": "Alexandrie", "science": {"tablet": 3, "compass": 2, "gear": 2}}, {"name": "Rhodes"}
    )
    assert before.players[0].breakdown["science"] == 21
    assert after.players[0].breakdown["science"] == 31


def test_a_wild_symbol_goes_where_it_scores_most():
    """Babylone's « symbole scientifique supplémentaire de son choix » on Alexandrie's six buildings: 31."""
    result = score(
        {"name": "Alexandrie", "science": {"tablet": 3, "compass": 2, "gear": 1, "wild": 1}},
        {"name": "Rhodes"},
    )
    assert result.players[0].breakdown["science"] == 31


def test_five_and_six_identical_symbols_score_25_and_36():
    """« 5 symboles identiques rapportent 25 points de victoire, 6 symboles identiques rapportent 36 »"""
    five = score({"name": "Ana", "science": {"gear": 4, "wild": 1}}, {"name": "Ben"})
    six = score({"name": "Ana", "science": {"gear": 4, "wild": 2}}, {"name": "Ben"})
    assert five.players[0].breakdown["science"] == 25
    assert six.players[0].breakdown["science"] == 36


@pytest.mark.parametrize(("count", "points"), [(0, 0), (1, 1), (2, 4), (3, 9), (4, 16)])
def test_a_family_of_identical_symbols_scores_its_count_squared(count, points):
    assert science_points({"tablet": count, "compass": 0, "gear": 0}) == points


def test_alexandries_whole_score_sheet():
    """The seed's example city: 6 military, 14 coins (4), wonder 10, civic 2 + 5 + 6, science 21, commerce 4."""
    result = score(
        {
            "name": "Alexandrie",
            "military": 6,
            "coins": 14,
            "wonder": 3 + 7,
            "civilian": 2 + 5 + 6,
            "science": {"tablet": 3, "compass": 2, "gear": 1},
            "commercial": 2 * 2,
            "guilds": 0,
        },
        {"name": "Rhodes", "coins": 3},
    )
    alexandrie = result.players[0]
    assert alexandrie.breakdown == {
        "military": 6,
        "treasury": 4,
        "wonder": 10,
        "civilian": 13,
        "science": 21,
        "commercial": 4,
        "guilds": 0,
    }
    assert alexandrie.total == 58
    assert result.winners == ["Alexandrie"]
    assert result.decided_by is None
    assert str(result.explanation) == "Alexandrie gagne avec 58 points."


# --- scoring by hand --------------------------------------------------------------------------------


@pytest.mark.parametrize(("coins", "points"), [(0, 0), (2, 0), (3, 1), (14, 4), (15, 5)])
def test_the_treasury_scores_one_point_per_three_coins(coins, points):
    result = score({"name": "Ana", "coins": coins}, {"name": "Ben"})
    assert result.players[0].breakdown["treasury"] == points


def test_a_blank_sheet_scores_nothing():
    result = score({"name": "Ana"}, {"name": "Ben"}, {"name": "Cléo"})
    assert [player.total for player in result.players] == [0, 0, 0]
    assert result.winners == ["Ana", "Ben", "Cléo"]


def test_military_points_may_be_negative():
    result = score({"name": "Ana", "military": -6, "civilian": 3}, {"name": "Ben"})
    assert result.players[0].total == -3
    assert result.winners == ["Ben"]


def test_equal_totals_go_to_the_player_with_more_coins():
    """« En cas d'égalité, le joueur qui possède le plus de pièces de monnaie dans son trésor est le vainqueur. »"""
    result = score(
        {"name": "Ana", "civilian": 10, "coins": 5},  # 10 + 1
        {"name": "Ben", "civilian": 9, "coins": 7},  # 9 + 2
        {"name": "Cléo", "civilian": 4},
    )
    assert [player.total for player in result.players] == [11, 11, 4]
    assert result.winners == ["Ben"]
    assert result.decided_by == "coins"
    assert [player.rank for player in result.players] == [2, 1, 3]
    assert str(result.explanation) == (
        "Ana et Ben sont à égalité avec 11 points. Départage par les pièces du trésor : Ben l'emporte (7 contre 5)."
    )


def test_equal_coins_share_the_victory():
    """« Une égalité sur les pièces n'est pas départagée. »"""
    result = score(
        {"name": "Ana", "civilian": 10, "coins": 5},
        {"name": "Ben", "wonder": 10, "coins": 5},
        {"name": "Cléo", "civilian": 7, "coins": 9},
    )
    assert result.winners == ["Ana", "Ben"]
    assert result.decided_by is None
    assert [player.rank for player in result.players] == [1, 1, 3]
    assert str(result.explanation) == (
        "Ana et Ben sont à égalité avec 11 points. Ana et Ben se partagent la victoire."
    )


def test_coins_may_leave_two_of_three_tied_players_sharing_the_victory():
    result = score(
        {"name": "Ana", "civilian": 10, "coins": 5},
        {"name": "Ben", "wonder": 10, "coins": 5},
        {"name": "Cléo", "civilian": 10, "coins": 4},
    )
    assert result.winners == ["Ana", "Ben"]
    assert result.decided_by == "coins"
    assert [player.rank for player in result.players] == [1, 1, 3]
    assert str(result.explanation) == (
        "Ana, Ben et Cléo sont à égalité avec 11 points. "
        "Départage par les pièces du trésor : Ana et Ben restent à égalité. Ana et Ben se partagent la victoire."
    )


def test_the_tie_break_rule_names_the_coins():
    assert str(WONDERS.tie_break_rule()) == (
        "Le plus grand total gagne. En cas d'égalité, départage par les pièces du trésor ; "
        "si l'égalité persiste, la victoire est partagée."
    )


def test_the_score_sheet_lines_follow_the_seeds_counting_order():
    assert [line.slug for line in WONDERS.lines(frozenset())] == [
        "military",
        "treasury",
        "wonder",
        "civilian",
        "science",
        "commercial",
        "guilds",
    ]


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("players", "cards", "guilds", "age_iii_buildings", "marks"),
    [
        (3, 21, 5, 16, "3+"),
        (4, 28, 6, 22, "3+ et 4+"),
        (5, 35, 7, 28, "3+, 4+ et 5+"),
        (6, 42, 8, 34, "3+, 4+, 5+ et 6+"),
        (7, 49, 9, 40, "3+, 4+, 5+, 6+ et 7+"),
    ],
)
def test_setup_uses_seven_cards_per_player_and_players_plus_two_guilds(
    players, cards, guilds, age_iii_buildings, marks
):
    """« 3 joueurs : 5 guildes - 4 joueurs : 6 guildes - […] 7 joueurs : 9 guildes » ; « 7 cartes par joueur »"""
    result = WONDERS.run_setup({"players": players})
    assert result.values == {"cards_per_age": cards, "guilds": guilds, "hand_size": 7, "starting_coins": 3}
    assert component_counts(result) == {
        "Plateaux Merveille": players,
        "Cartes Âge I": cards,
        "Cartes Âge II": cards,
        "Cartes Âge III sans les Guildes": age_iii_buildings,
        "Guildes tirées au hasard": guilds,
        "Pièces de valeur 1 au départ": 3 * players,
    }
    steps = [str(step) for step in result.steps]
    assert (
        steps[0]
        == f"Pour chaque âge, gardez les cartes marquées {marks} et remettez les autres dans la boîte."
    )
    assert f"gardez-en {guilds} au hasard" in steps[1]
    assert "Cité franche" not in " ".join(steps)


def test_seven_players_use_the_whole_box():
    """« 49 cartes âge 1 ; 49 cartes âge 2, 50 cartes âge 3 » : 40 buildings and all 10 guilds' drawing pool."""
    counts = component_counts(WONDERS.run_setup({"players": 7}))
    assert counts["Cartes Âge I"] == 49
    assert counts["Cartes Âge III sans les Guildes"] + 10 == 50


def test_two_players_play_with_the_free_city_and_the_three_player_cards():
    """« les mêmes cartes que dans la configuration à 3 joueurs […] les 7 cartes restantes forment une pioche »"""
    result = WONDERS.run_setup({"players": 2})
    assert result.values == {"cards_per_age": 21, "guilds": 5, "hand_size": 7, "starting_coins": 3}
    assert component_counts(result) == {
        "Plateaux Merveille": 3,
        "Cartes Âge I": 21,
        "Cartes Âge II": 21,
        "Cartes Âge III sans les Guildes": 16,
        "Guildes tirées au hasard": 5,
        "Pièces de valeur 1 au départ": 9,
        "Cartes Frontière et Cité franche": 2,
    }
    steps = [str(step) for step in result.steps]
    assert steps[0] == "Pour chaque âge, gardez les cartes marquées 3+ et remettez les autres dans la boîte."
    assert "Chaque joueur et la Cité franche reçoivent 3 pièces de valeur 1" in steps[3]
    assert "les 7 cartes restantes forment la pioche de la Cité franche" in steps[4]
    assert "à celui de droite à l'âge II" in steps[5]


@pytest.mark.parametrize("players", [1, 8])
def test_setup_refuses_player_counts_outside_two_to_seven(players):
    with pytest.raises(InvalidInput) as error:
        WONDERS.run_setup({"players": players})
    assert messages(error.value) == {"players": ["Ce jeu se joue de 2 à 7 joueurs."]}


# --- bad input --------------------------------------------------------------------------------------


def test_military_points_outside_minus_six_to_eighteen_are_refused():
    with pytest.raises(InvalidInput) as error:
        score({"name": "Ana", "military": 19}, {"name": "Ben", "military": -7})
    assert messages(error.value) == {
        "players.0.military": ["La valeur doit être au plus 18."],
        "players.1.military": ["La valeur doit être au moins -6."],
    }


def test_impossible_science_is_refused_with_its_path():
    """« il existe 4 cartes vertes pour chaque symbole » ; at most two wild symbols (Babylone, the guild)."""
    with pytest.raises(InvalidInput) as error:
        score({"name": "Ana", "science": {"tablet": 5, "wild": 3, "atom": 1}}, {"name": "Ben", "science": 4})
    assert messages(error.value) == {
        "players.0.science.tablet": ["La valeur doit être au plus 4."],
        "players.0.science.wild": ["La valeur doit être au plus 2."],
        "players.0.science.atom": ["Champ inconnu pour ce jeu."],
        "players.1.science": ["Saisissez un objet avec les champs tablet, compass, gear, wild."],
    }


def test_negative_or_non_numeric_points_are_refused():
    with pytest.raises(InvalidInput) as error:
        score({"name": "Ana", "coins": -1, "guilds": "beaucoup"}, {"name": "Ben", "wonder": 2.5})
    assert messages(error.value) == {
        "players.0.coins": ["La valeur doit être au moins 0."],
        "players.0.guilds": ["Saisissez un nombre entier."],
        "players.1.wonder": ["Saisissez un nombre entier."],
    }


def test_a_lone_player_or_two_players_with_one_name_are_refused():
    with pytest.raises(InvalidInput) as error:
        score({"name": "Ana"})
    assert messages(error.value) == {"players": ["Ce jeu se joue de 2 à 7 joueurs."]}
    with pytest.raises(InvalidInput) as error:
        score({"name": "Ana"}, {"name": "ana"})
    assert messages(error.value) == {"players.1.name": ["Deux joueurs portent le nom « ana »."]}


def test_seven_wonders_has_no_variants_to_choose():
    with pytest.raises(InvalidInput) as error:
        score({"name": "Ana"}, {"name": "Ben"}, variants=["leaders"])
    assert messages(error.value) == {"variants": ["Variante inconnue : leaders. Variantes de ce jeu : —."]}


# --- properties -------------------------------------------------------------------------------------

symbols = st.integers(min_value=0, max_value=4)
science_groups = st.fixed_dictionaries(
    {"tablet": symbols, "compass": symbols, "gear": symbols, "wild": st.integers(min_value=0, max_value=2)}
)
points = st.integers(min_value=0, max_value=60)
sheets = st.lists(
    st.fixed_dictionaries(
        {
            "military": st.integers(min_value=-6, max_value=18),
            "coins": points,
            "wonder": points,
            "civilian": points,
            "science": science_groups,
            "commercial": points,
            "guilds": points,
        }
    ),
    min_size=2,
    max_size=7,
).map(lambda players: [{"name": f"Joueur {index + 1}", **player} for index, player in enumerate(players)])


@given(sheets)
def test_a_total_is_the_sum_of_its_breakdown_and_the_winners_lead(players):
    result = score(*players)
    best = max(player.total for player in result.players)
    for player in result.players:
        assert player.total == sum(player.breakdown.values())
        assert (player.rank == 1) == (player.name in result.winners)
    assert all(player.total == best for player in result.players if player.name in result.winners)


@given(sheets, st.randoms(use_true_random=False))
def test_permuting_players_changes_nobodys_total_or_rank(players, random):
    shuffled = players[:]
    random.shuffle(shuffled)
    before = {p.name: (p.total, p.rank) for p in score(*players).players}
    after = {p.name: (p.total, p.rank) for p in score(*shuffled).players}
    assert before == after
    assert set(score(*players).winners) == set(score(*shuffled).winners)


@given(science_groups, st.sampled_from(["tablet", "compass", "gear", "wild"]))
def test_one_more_science_symbol_never_lowers_the_science_score(science, symbol):
    bigger = {**science, symbol: science[symbol] + 1}
    limit = 2 if symbol == "wild" else 4
    if bigger[symbol] > limit:
        return
    before = score({"name": "Ana", "science": science}, {"name": "Ben"}).players[0].breakdown["science"]
    after = score({"name": "Ana", "science": bigger}, {"name": "Ben"}).players[0].breakdown["science"]
    assert after > before


@given(science_groups)
def test_a_wild_symbol_is_worth_at_least_any_fixed_choice(science):
    if science["wild"] == 0:
        return
    with_wild = score({"name": "Ana", "science": science}, {"name": "Ben"}).players[0].breakdown["science"]
    for kind in ("tablet", "compass", "gear"):
        fixed = {**science, "wild": science["wild"] - 1, kind: science[kind] + 1}
        counts = {k: fixed[k] for k in ("tablet", "compass", "gear")}
        # The remaining wilds on that same kind give a lower bound too.
        counts[kind] += fixed["wild"]
        assert with_wild >= science_points(counts)
