"""The Builders: Middle Ages — setup calculator and score sheet (seed 003, « Gamehelpthebuilders »)."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

BUILDERS = get_game("the-builders")
SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"


def builders_page() -> str:
    text = SEED.read_text()
    return text[text.index("Gamehelpthebuilders") : text.index("Gamehelprailroadink")]


def player(name, building_points, coins):
    return {"name": name, "building_points": building_points, "coins": coins}


def score(*players):
    return BUILDERS.run_score({"players": list(players)})


def by_name(result):
    return {p.name: p for p in result.players}


def errors_of(body):
    with pytest.raises(InvalidInput) as raised:
        BUILDERS.run_score(body)
    return {path: [str(message) for message in messages] for path, messages in raised.value.errors.items()}


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_deals_an_apprentice_and_ten_ecus_to_each_player(players):
    setup = BUILDERS.run_setup({"players": players})
    counts = {str(component.name): component.count for component in setup.components}
    assert counts["Apprentis distribués (un par joueur)"] == players
    assert counts["Pièces d'or (5 écus) distribuées"] == players
    assert counts["Pièces d'argent (1 écu) distribuées"] == 5 * players
    assert counts["Cartes Bâtiment face visible"] == 5
    assert counts["Cartes Ouvrier face visible"] == 5
    steps = " ".join(str(step) for step in setup.steps)
    assert f"à chacun des {players} joueurs" in steps
    assert "chaque joueur reçoit 10 écus (1 pièce d'or et 5 pièces d'argent)" in steps


def test_setup_values_are_the_numbers_the_seed_page_gives():
    page = builders_page()
    actions = int(re.search(r"dispose de (\d+) actions obligatoires", page).group(1))
    cost = int(re.search(r"'''(\d+) écus''' par action supplémentaire", page).group(1))
    end = int(re.search(r"a atteint ou dépassé (\d+) points", page).group(1))
    setup = BUILDERS.run_setup({"players": 3})
    assert setup.values == {"actions_per_turn": actions, "extra_action_cost": cost, "end_trigger_points": end}
    assert setup.values == {"actions_per_turn": 3, "extra_action_cost": 5, "end_trigger_points": 17}
    assert "chacun a 3 actions ; chaque action supplémentaire coûte 5 écus" in str(setup.steps[-1])
    assert "atteint 17 points de bâtiments" in str(setup.steps[-1])


@pytest.mark.parametrize("players", [1, 5, "quatre"])
def test_setup_refuses_a_player_count_outside_two_to_four(players):
    with pytest.raises(InvalidInput) as raised:
        BUILDERS.run_setup({"players": players})
    assert list(raised.value.errors) == ["players"]


def test_the_builders_have_no_variant():
    with pytest.raises(InvalidInput) as raised:
        BUILDERS.run_setup({"players": 2, "variants": "antiquite"})
    assert "Variante inconnue : antiquite." in str(raised.value.errors["variants"][0])


# --- scoring ----------------------------------------------------------------------------------------


def test_crowns_are_building_points_plus_one_per_full_ten_ecus():
    # « les couronnes = Points des bâtiments + 1 points par tranche de 10 écus restants »
    result = score(player("Aude", 18, 19), player("Bruno", 17, 20), player("Cyril", 12, 9))
    players = by_name(result)
    assert players["Aude"].breakdown == {"building_points": 18, "coins": 1}
    assert players["Bruno"].breakdown == {"building_points": 17, "coins": 2}
    assert players["Cyril"].breakdown == {"building_points": 12, "coins": 0}
    assert [players[name].total for name in ("Aude", "Bruno", "Cyril")] == [19, 19, 12]


def test_equal_crowns_go_to_the_most_building_points():
    # « En cas d'égalité, le vainqueur est celui avec le plus de points de victoire obtenus par ses bâtiments. »
    result = score(player("Aude", 18, 19), player("Bruno", 17, 20), player("Cyril", 12, 9))
    assert result.winners == ["Aude"]
    assert result.decided_by == "building_points"
    assert [p.rank for p in result.players] == [1, 2, 3]
    assert str(result.explanation) == (
        "Aude et Bruno sont à égalité avec 19 points. "
        "Départage par les points des bâtiments : Aude l'emporte (18 contre 17)."
    )


def test_equal_crowns_and_buildings_go_to_the_most_ecus():
    # « S'il y a encore égalité, celui qui a le plus de pièces l'emporte. »
    result = score(player("Aude", 18, 15), player("Bruno", 18, 19))
    assert result.winners == ["Bruno"]
    assert result.decided_by == "coins"
    assert by_name(result)["Aude"].rank == 2
    assert str(result.explanation) == (
        "Aude et Bruno sont à égalité avec 19 points. "
        "Départage par les écus restants : Bruno l'emporte (19 contre 15)."
    )


def test_a_tie_on_crowns_buildings_and_ecus_is_a_shared_victory():
    result = score(
        player("Aude", 17, 12), player("Bruno", 17, 12), player("Cyril", 16, 15), player("Dora", 5, 3)
    )
    assert result.winners == ["Aude", "Bruno"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 3, 4]
    assert str(result.explanation) == (
        "Aude et Bruno sont à égalité avec 18 points. Aude et Bruno se partagent la victoire."
    )


def test_a_clear_leader_wins_on_crowns_alone():
    result = score(player("Aude", 21, 3), player("Bruno", 17, 31))
    assert result.winners == ["Aude"]
    assert result.decided_by is None
    assert str(result.explanation) == "Aude gagne avec 21 points."


@pytest.mark.parametrize("count", [2, 3, 4])
def test_every_player_count_is_scored(count):
    players = [player(f"Joueur {index}", 10 + index, 10 * index) for index in range(count)]
    result = score(*players)
    assert [p.total for p in result.players] == [10 + 2 * index for index in range(count)]
    assert result.winners == [f"Joueur {count - 1}"]


def test_the_tie_break_rule_reads_as_the_seed_says():
    assert str(BUILDERS.tie_break_rule()) == (
        "Le plus grand total gagne. En cas d'égalité, départage par les points des bâtiments, "
        "puis les écus restants ; si l'égalité persiste, la victoire est partagée."
    )


def test_the_rulings_state_how_ecus_are_counted():
    rulings = " ".join(str(ruling) for ruling in BUILDERS.rulings)
    assert "valeur des écus" in rulings
    assert "19 écus valent 1 point" in rulings


# --- properties -------------------------------------------------------------------------------------

sheets = st.lists(
    st.tuples(st.integers(0, 40), st.integers(0, 80)),
    min_size=2,
    max_size=4,
)


@given(sheets)
def test_a_total_is_the_sum_of_its_breakdown(rows):
    result = score(*(player(f"P{index}", b, c) for index, (b, c) in enumerate(rows)))
    for entry, (buildings, coins) in zip(result.players, rows, strict=True):
        assert entry.total == sum(entry.breakdown.values()) == buildings + coins // 10


@given(sheets, st.randoms())
def test_permuting_players_changes_nobodys_total_or_rank(rows, random):
    players = [player(f"P{index}", b, c) for index, (b, c) in enumerate(rows)]
    before = by_name(score(*players))
    shuffled = players[:]
    random.shuffle(shuffled)
    after_result = score(*shuffled)
    after = by_name(after_result)
    assert {n: (p.total, p.rank) for n, p in before.items()} == {
        n: (p.total, p.rank) for n, p in after.items()
    }
    assert sorted(score(*players).winners) == sorted(after_result.winners)


@given(sheets, st.integers(0, 3), st.integers(1, 30))
def test_more_ecus_never_lower_a_players_total_or_rank(rows, who, extra):
    who %= len(rows)
    players = [player(f"P{index}", b, c) for index, (b, c) in enumerate(rows)]
    richer = [dict(p) for p in players]
    richer[who]["coins"] += extra
    before = score(*players).players[who]
    after = score(*richer).players[who]
    assert after.total >= before.total
    assert after.rank <= before.rank


# --- bad input --------------------------------------------------------------------------------------


def test_negative_or_non_numeric_values_are_refused_with_their_paths():
    errors = errors_of({"players": [player("Aude", -1, 3), player("Bruno", 17, "beaucoup")]})
    assert errors == {
        "players.0.building_points": ["La valeur doit être au moins 0."],
        "players.1.coins": ["Saisissez un nombre entier."],
    }


def test_unknown_fields_and_duplicate_names_are_refused():
    errors = errors_of({"players": [player("Aude", 17, 3), {**player("aude", 12, 0), "gold": 4}]})
    assert errors == {
        "players.1.name": ["Deux joueurs portent le nom « aude »."],
        "players.1.gold": ["Champ inconnu pour ce jeu."],
    }


@pytest.mark.parametrize("count", [1, 5])
def test_score_refuses_a_table_of_one_or_five(count):
    errors = errors_of({"players": [player(f"P{index}", 17, 0) for index in range(count)]})
    assert errors == {"players": ["Ce jeu se joue de 2 à 4 joueurs."]}


def test_form_strings_are_accepted_like_numbers():
    result = score(player("Aude", "17", "25"), player("Bruno", "12", ""))
    assert [p.total for p in result.players] == [19, 12]
