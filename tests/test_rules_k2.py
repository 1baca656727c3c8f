"""K2 — setup calculator and score sheet with dead climbers and eliminations (seed 003, « Gamehelpk2 »)."""

import re
from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

K2 = get_game("k2")
SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"


def k2_page() -> str:
    text = SEED.read_text()
    return text[text.index("Gamehelpk2") : text.index("Gamehelpalhambra")]


def climber(points, alive=True):
    return {"points": points, "alive": alive}


def team(name, first, second):
    return {"name": name, "climbers": [first, second]}


def score(*players):
    return K2.run_score({"players": list(players)})


def by_name(result):
    return {p.name: p for p in result.players}


def errors_of(body):
    with pytest.raises(InvalidInput) as raised:
        K2.run_score(body)
    return {path: [str(message) for message in messages] for path, messages in raised.value.errors.items()}


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_gives_each_player_two_climbers_two_tents_and_eighteen_cards(players):
    setup = K2.run_setup({"players": players})
    assert setup.values == {
        "days": 18,
        "cards_per_player": 18,
        "hand_size": 6,
        "cards_per_day": 3,
        # muchachitaludica.com's summary of the publisher's setup: markers on 1, 3 risk tokens face up.
        "acclimatisation_start": 1,
        "risk_tokens_face_up": 3,
        "rescue_cards": 0,
    }
    counts = {str(component.name): component.count for component in setup.components}
    assert counts["Pions grimpeur (2 sur la montagne, 2 sur la piste de score par joueur)"] == 4 * players
    assert counts["Tentes"] == 2 * players
    assert counts["Marqueurs d'acclimatation"] == 2 * players
    assert counts["Cartes (18 par joueur)"] == 18 * players
    assert counts["Tuiles météo de la saison"] == 6
    steps = " ".join(str(step) for step in setup.steps)
    if players == 1:  # solo: no « chacun des 1 joueurs » (issue 16)
        assert "Prenez dans votre couleur 4 pions grimpeur, 2 tentes" in steps and "Chacun des" not in steps
    else:
        assert f"Chacun des {players} joueurs prend dans sa couleur 4 pions grimpeur, 2 tentes" in steps
    assert "en pioche 6 ; chaque jour, il en joue 3 puis complète sa main à 6" in steps


def test_the_card_numbers_are_those_of_the_seed_page():
    page = k2_page()
    # « Total: 18 cartes » and the three card families' totals (10 + 3 + 5).
    assert re.search(r"Total: (\d+) cartes", page).group(1) == "18"
    families = [int(total) for total in re.findall(r"\| Total: (\d+)", page)]
    assert families == [10, 3, 5]
    assert "choisit 3 cartes parmi les 6" in page
    setup = K2.run_setup({"players": 2})
    assert setup.values["cards_per_player"] == sum(families)
    assert (setup.values["cards_per_day"], setup.values["hand_size"]) == (3, 6)


def test_winter_uses_the_winter_weather_tiles_and_slows_moves():
    # « Prendre en compte l'influence de la météo sur le mouvement (seulement en hiver !) »
    summer = [str(step) for step in K2.run_setup({"players": 2}).steps]
    winter = [str(step) for step in K2.run_setup({"players": 2, "season": "winter"}).steps]
    assert summer[1] == (
        "Mélangez les 6 tuiles météo d'été et empilez-les face cachée près du plateau : "
        "chacune annonce 3 jours, soit 18 jours d'expédition. Retournez la première tuile face visible et posez "
        "le marqueur météo sur son premier jour."
    )
    assert winter[1].startswith("Mélangez les 6 tuiles météo d'hiver")
    assert winter[1].endswith("En hiver, la météo peut aussi ralentir les déplacements.")


def test_setup_refuses_an_unknown_season_and_six_players():
    with pytest.raises(InvalidInput) as raised:
        K2.run_setup({"players": 6, "season": "autumn"})
    errors = {path: [str(m) for m in messages] for path, messages in raised.value.errors.items()}
    assert errors == {
        "players": ["Ce jeu se joue de 1 à 5 joueurs."],
        "season": ["Choisissez une de ces valeurs : summer, winter."],
    }


# --- scoring ----------------------------------------------------------------------------------------


def test_living_climbers_count_their_highest_flag_and_a_dead_one_counts_one():
    # « Les points de victoire de ce grimpeur sont perdus, il ne compte que pour 1 seul point »
    result = score(
        team("Wanda", climber(10), climber(8, alive=False)),
        team("Jerzy", climber(7), climber(6)),
    )
    players = by_name(result)
    assert players["Wanda"].breakdown == {"climber_1": 10, "climber_2": 1}
    assert players["Wanda"].total == 11
    assert players["Jerzy"].breakdown == {"climber_1": 7, "climber_2": 6}
    assert players["Jerzy"].total == 13
    assert result.winners == ["Jerzy"]
    assert str(result.explanation) == "Jerzy gagne avec 13 points."


def test_losing_both_climbers_eliminates_the_player_whatever_the_points():
    # « La perte des 2 grimpeurs entraîne l'élimination du joueur »
    result = score(
        team("Wanda", climber(9, alive=False), climber(10, alive=False)),
        team("Jerzy", climber(0), climber(4, alive=False)),
        team("Reinhold", climber(2), climber(3)),
    )
    players = by_name(result)
    assert players["Wanda"].eliminated is True
    assert players["Wanda"].total == 2
    assert players["Jerzy"].eliminated is False
    assert players["Jerzy"].total == 1
    assert result.winners == ["Reinhold"]
    assert (players["Reinhold"].rank, players["Jerzy"].rank, players["Wanda"].rank) == (1, 2, 3)


def test_an_eliminated_player_ranks_after_everyone_even_with_more_points():
    result = score(
        team("Wanda", climber(5, alive=False), climber(5, alive=False)),
        team("Jerzy", climber(1), climber(0)),
    )
    players = by_name(result)
    assert players["Wanda"].total == 2 > players["Jerzy"].total == 1
    assert result.winners == ["Jerzy"]
    assert players["Wanda"].rank == 2
    assert str(result.explanation) == "Jerzy gagne avec 1 point."


def test_when_every_climber_dies_nobody_wins():
    result = score(
        team("Wanda", climber(5, alive=False), climber(5, alive=False)),
        team("Jerzy", climber(9, alive=False), climber(2, alive=False)),
    )
    assert result.winners == []
    assert all(p.eliminated for p in result.players)
    assert [p.rank for p in result.players] == [1, 1]
    assert str(result.explanation) == "Tous les grimpeurs sont morts : personne ne remporte la partie."


def test_equal_totals_share_the_victory():
    result = score(
        team("Wanda", climber(7), climber(3)),
        team("Jerzy", climber(5), climber(5)),
        team("Reinhold", climber(8), climber(6, alive=False)),
    )
    assert result.winners == ["Wanda", "Jerzy"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 3]
    assert (
        str(result.explanation)
        == "Wanda et Jerzy sont à égalité avec 10 points. Wanda et Jerzy se partagent la victoire."
    )
    # Nobody ticked « premier au point le plus haut »: the tie-breaker cannot separate them.
    assert str(K2.tie_break_rule()) == (
        "Le plus grand total gagne. En cas d'égalité, départage par le premier grimpeur arrivé au point le "
        "plus haut ; si l'égalité persiste, la victoire est partagée."
    )


def test_solo_play_gives_the_expeditions_total():
    result = score(team("Wanda", climber(10), climber(7)))
    assert result.winners == ["Wanda"]
    assert result.players[0].total == 17
    assert result.players[0].rank == 1
    assert str(result.explanation) == "Wanda termine l'expédition avec 17 points."


def test_a_solo_player_who_loses_both_climbers_has_no_victory():
    result = score(team("Wanda", climber(10, alive=False), climber(7, alive=False)))
    assert result.winners == []
    assert result.players[0].eliminated is True
    assert str(result.explanation) == "Tous les grimpeurs sont morts : personne ne remporte la partie."


def test_five_players_are_scored():
    result = score(*(team(f"P{index}", climber(index), climber(index + 1)) for index in range(5)))
    assert [p.total for p in result.players] == [1, 3, 5, 7, 9]
    assert result.winners == ["P4"]


def test_form_strings_are_read_as_numbers_and_booleans():
    result = score(
        team("Wanda", {"points": "8", "alive": "on"}, {"points": "6", "alive": "false"}),
        team("Jerzy", climber(1), climber(1)),
    )
    assert by_name(result)["Wanda"].breakdown == {"climber_1": 8, "climber_2": 1}


# --- properties -------------------------------------------------------------------------------------

climbers = st.builds(climber, st.integers(0, 10), st.booleans())
teams = st.lists(st.tuples(climbers, climbers), min_size=1, max_size=5)


@given(teams)
def test_a_total_is_the_sum_of_its_breakdown(rows):
    result = score(*(team(f"P{index}", a, b) for index, (a, b) in enumerate(rows)))
    for entry, (first, second) in zip(result.players, rows, strict=True):
        assert entry.total == sum(entry.breakdown.values())
        assert entry.eliminated == (not first["alive"] and not second["alive"])
        assert entry.name not in result.winners or not entry.eliminated


@given(teams, st.randoms())
def test_permuting_players_changes_nobodys_total_or_rank(rows, random):
    players = [team(f"P{index}", a, b) for index, (a, b) in enumerate(rows)]
    before = score(*players)
    shuffled = players[:]
    random.shuffle(shuffled)
    after = score(*shuffled)
    assert {p.name: (p.total, p.rank) for p in before.players} == {
        p.name: (p.total, p.rank) for p in after.players
    }
    assert sorted(before.winners) == sorted(after.winners)


@given(teams)
def test_every_eliminated_player_ranks_below_every_survivor(rows):
    result = score(*(team(f"P{index}", a, b) for index, (a, b) in enumerate(rows)))
    survivors = [p.rank for p in result.players if not p.eliminated]
    eliminated = [p.rank for p in result.players if p.eliminated]
    if survivors and eliminated:
        assert max(survivors) < min(eliminated)


# --- bad input --------------------------------------------------------------------------------------


def test_a_player_needs_exactly_two_climbers():
    errors = errors_of(
        {
            "players": [
                {"name": "Wanda", "climbers": [climber(3)]},
                {"name": "Jerzy", "climbers": [climber(3), climber(2), climber(1)]},
                {"name": "Reinhold"},
            ]
        }
    )
    assert errors == {
        "players.0.climbers": ["Il faut au moins 2 éléments."],
        "players.1.climbers": ["Il faut au plus 2 éléments."],
        "players.2.climbers": ["Ce champ est obligatoire."],
    }


def test_bad_climbers_are_refused_with_their_paths():
    errors = errors_of(
        {
            "players": [
                team("Wanda", climber(11), {"points": 3, "alive": "peut-être"}),
                team("Jerzy", climber(-1), {"points": 2, "alive": True, "oxygen": 3}),
            ]
        }
    )
    assert errors == {
        "players.0.climbers.0.points": ["La valeur doit être au plus 10."],
        "players.0.climbers.1.alive": ["Répondez par vrai ou faux."],
        "players.1.climbers.0.points": ["La valeur doit être au moins 0."],
        "players.1.climbers.1.oxygen": ["Champ inconnu pour ce jeu."],
    }


def test_score_refuses_six_players():
    errors = errors_of({"players": [team(f"P{index}", climber(1), climber(1)) for index in range(6)]})
    assert errors == {"players": ["Ce jeu se joue de 1 à 5 joueurs."]}
