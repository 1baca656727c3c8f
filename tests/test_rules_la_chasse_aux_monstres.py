"""La chasse aux monstres' rules (seed 004): lengths, the easier and harder variants, the competitive score."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

MONSTERS = get_game("la-chasse-aux-monstres")


def setup_for(players=3, **query):
    return MONSTERS.run_setup({"players": players, **query})


def score(*players, variants=("easy",)):
    return MONSTERS.run_score({"variants": list(variants), "players": list(players)})


def messages(error):
    return {path: [str(message) for message in texts] for path, texts in error.errors.items()}


def component_counts(result):
    return {str(component.name): component.count for component in result.components}


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize(("length", "cards", "left"), [("short", 10, 10), ("medium", 15, 5)])
def test_a_shorter_game_uses_fewer_monster_cards(length, cards, left):
    """« Employez 10 cartes pour une courte (pour les plus jeunes), 15 cartes pour une partie moyenne »"""
    result = setup_for(length=length)
    assert result.values == {"monster_cards": cards, "toy_tiles": 10, "progression_tiles": 3}
    assert str(result.steps[0]) == (
        f"Mélangez les cartes monstre et formez une pile de {cards} cartes, côté enfant dessus "
        f"(côté monstre caché) : c'est le lit. Rangez les {left} autres dans la boîte."
    )


def test_a_long_game_uses_all_twenty_monster_cards():
    """« et les 20 cartes pour une partie longue »"""
    result = setup_for(length="long")
    assert result.values["monster_cards"] == 20
    assert str(result.steps[0]).startswith("Mélangez les 20 cartes monstre et formez une pile")


def test_the_base_game_is_medium_length_with_ten_toys_and_three_progression_tiles():
    result = setup_for()
    assert result.values == {"monster_cards": 15, "toy_tiles": 10, "progression_tiles": 3}
    assert component_counts(result) == {
        "Cartes monstre": 15,
        "Carte placard": 1,
        "Tuiles jouet": 10,
        "Tuiles de progression des monstres": 3,
    }
    steps = [str(step) for step in result.steps]
    assert steps[1] == (
        "Sans les regarder, placez les 10 tuiles jouet face cachée sur la table, en laissant un espace autour du lit."
    )
    assert "avec 3 tuiles de progression" in steps[2]
    assert steps[3] == "Placez la carte placard à environ 15 cm du lit."
    assert steps[4] == "Retournez une carte monstre et placez-la au-dessus du lit, « au nord »."


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_works_for_one_to_five_players(players):
    assert setup_for(players).values["monster_cards"] == 15


@pytest.mark.parametrize("players", [0, 6])
def test_setup_refuses_more_than_five_players_or_none(players):
    with pytest.raises(InvalidInput) as error:
        setup_for(players)
    assert messages(error.value) == {"players": ["Ce jeu se joue de 1 à 5 joueurs."]}


def test_an_unknown_length_is_refused():
    with pytest.raises(InvalidInput) as error:
        setup_for(length="eternal")
    assert messages(error.value) == {"length": ["Choisissez une de ces valeurs : short, medium, long."]}


def test_the_easier_game_leaves_the_progression_tiles_aside():
    """« on laisse de côté les tuiles de progression. Ainsi, il n'y a qu'un seul monstre en jeu à la fois. »"""
    result = setup_for(variants="easy")
    assert result.values == {"monster_cards": 15, "toy_tiles": 10, "progression_tiles": 0}
    steps = [str(step) for step in result.steps]
    assert "Laissez de côté les tuiles de progression" in steps[2]
    assert steps[-1].startswith("En compétition, chaque joueur garde les cartes monstre")


def test_fast_monsters_drop_the_middle_progression_tile_and_show_the_toys():
    """« On retire la tuile de progression des monstres du milieu […] après 2 erreurs au lieu de 3 ! »"""
    result = setup_for(variants="fast")
    assert result.values["progression_tiles"] == 2
    steps = [str(step) for step in result.steps]
    assert "avec 2 tuiles de progression" in steps[2] and "toutes les 2 erreurs" in steps[2]
    assert "retournez les 10 jouets face visible 15 secondes" in " ".join(steps)


def test_expert_hunters_add_two_tiles_among_the_toys():
    """« 2 tuiles pour chasseurs expert (fond bleu) » « placez-les avec les autres tuiles sans les regarder »"""
    result = setup_for(variants="expert")
    assert result.values == {"monster_cards": 15, "toy_tiles": 12, "progression_tiles": 3}
    assert component_counts(result)["Tuiles chasseurs experts (fond bleu)"] == 2
    assert "les 10 tuiles jouet et les 2 tuiles chasseurs experts face cachée" in str(result.steps[1])


def test_the_pack_changes_no_component():
    assert setup_for(variants="pack").values == setup_for().values


def test_all_the_harder_options_combine():
    """« Toutes les options suivantes renforcent le camp des monstres. Intégrez-les progressivement. »"""
    result = setup_for(5, variants="pack,fast,expert", length="long")
    assert result.values == {"monster_cards": 20, "toy_tiles": 12, "progression_tiles": 2}


@pytest.mark.parametrize(
    ("variants", "named"),
    [
        ("easy,pack", "Monstres en meute"),
        ("easy,fast", "Monstres rapides"),
        ("expert,easy", "Chasseurs experts"),
        ("easy,pack,fast,expert", "Monstres en meute, Monstres rapides et Chasseurs experts"),
    ],
)
def test_the_easier_game_does_not_combine_with_a_harder_option(variants, named):
    with pytest.raises(InvalidInput) as error:
        setup_for(variants=variants)
    assert messages(error.value) == {
        "variants": [
            "Le « Jeu plus facile » laisse de côté les tuiles de progression : "
            f"il ne se combine pas avec {named}."
        ]
    }


# --- score ------------------------------------------------------------------------------------------


def test_the_cooperative_game_has_no_score():
    """« La chasse aux monstres est un jeu coopératif. […] Les joueurs gagnent ou perdent ensemble. »"""
    for variants in ([], ["pack", "expert"]):
        with pytest.raises(InvalidInput) as error:
            score({"name": "Léa", "monsters": 3}, variants=variants)
        assert messages(error.value) == {
            "variants": [
                "La chasse aux monstres est un jeu coopératif : les joueurs gagnent ou perdent ensemble, sans "
                "score. Seul le « Jeu plus facile » se joue en compétition : choisissez cette variante."
            ]
        }


def test_in_the_competitive_easier_game_the_most_monster_cards_win():
    """« celui qui a le plus de cartes monstre gagne ! »"""
    result = score(
        {"name": "Léa", "monsters": 4}, {"name": "Tom", "monsters": 7}, {"name": "Zoé", "monsters": 4}
    )
    assert [(p.name, p.total, p.breakdown, p.rank) for p in result.players] == [
        ("Léa", 4, {"monsters": 4}, 2),
        ("Tom", 7, {"monsters": 7}, 1),
        ("Zoé", 4, {"monsters": 4}, 2),
    ]
    assert result.winners == ["Tom"]
    assert result.decided_by is None
    assert str(result.explanation) == "Tom gagne avec 7 cartes monstre."


def test_players_with_as_many_monster_cards_share_the_victory():
    result = score(
        {"name": "Léa", "monsters": 5}, {"name": "Tom", "monsters": 5}, {"name": "Zoé", "monsters": 2}
    )
    assert result.winners == ["Léa", "Tom"]
    assert result.decided_by is None
    assert [player.rank for player in result.players] == [1, 1, 3]
    assert (
        str(result.explanation)
        == "Léa et Tom sont à égalité avec 5 cartes monstre. Léa et Tom se partagent la victoire."
    )
    assert str(MONSTERS.tie_break_rule(frozenset({"easy"}))) == (
        "Le plus grand total gagne. Les joueurs à égalité se partagent la victoire."
    )


def test_the_competitive_sheet_refuses_a_child_alone():
    # Seed 004: « celui qui a le plus de cartes monstre gagne » — a competition needs an opponent; one
    # child plays the cooperative game, which has no score.
    with pytest.raises(InvalidInput) as error:
        score({"name": "Léa", "monsters": 10})
    assert messages(error.value) == {
        "players": [
            "En jeu compétitif, il faut au moins 2 joueurs : seul, jouez la partie coopérative (sans feuille "
            "de score)."
        ]
    }


def test_bad_monster_counts_are_refused_with_their_path():
    with pytest.raises(InvalidInput) as error:
        score(
            {"name": "Léa", "monsters": -1},
            {"name": "Tom", "monsters": 21},
            {"name": "Zoé", "monsters": "trois"},
        )
    assert messages(error.value) == {
        "players.0.monsters": ["La valeur doit être au moins 0."],
        "players.1.monsters": ["La valeur doit être au plus 20."],
        "players.2.monsters": ["Saisissez un nombre entier."],
    }


def test_more_monster_cards_than_the_chosen_length_holds_is_refused():
    # Seed 004: « Nombre de cartes monstre : 10 (partie courte), 15 (moyenne), 20 (longue) ».
    message = (
        "Les joueurs ont gardé 21 cartes monstre en tout ; une partie de cette durée n'en compte que 15."
    )
    with pytest.raises(InvalidInput) as error:
        score({"name": "Léa", "monsters": 12}, {"name": "Tom", "monsters": 9})
    assert messages(error.value) == {"players.0.monsters": [message], "players.1.monsters": [message]}


@pytest.mark.parametrize(("length", "pile"), [("short", 10), ("medium", 15), ("long", 20)])
def test_the_competitive_sheet_is_capped_by_the_chosen_length(length, pile):
    body = {"variants": ["easy"], "length": length}
    fits = MONSTERS.run_score(
        {**body, "players": [{"name": "Léa", "monsters": pile - 1}, {"name": "Tom", "monsters": 1}]}
    )
    assert fits.winners == ["Léa"]
    with pytest.raises(InvalidInput):
        MONSTERS.run_score(
            {**body, "players": [{"name": "Léa", "monsters": pile}, {"name": "Tom", "monsters": 1}]}
        )


def test_six_players_are_refused_on_the_score_sheet_too():
    with pytest.raises(InvalidInput) as error:
        score(*({"name": f"Enfant {i}", "monsters": 1} for i in range(6)))
    assert messages(error.value) == {"players": ["Ce jeu se joue de 1 à 5 joueurs."]}


# --- properties -------------------------------------------------------------------------------------

tables = st.lists(st.integers(min_value=0, max_value=3), min_size=2, max_size=5).map(
    lambda counts: [{"name": f"Enfant {index + 1}", "monsters": count} for index, count in enumerate(counts)]
)


@given(tables, st.randoms(use_true_random=False))
def test_the_winners_hold_the_most_cards_whatever_the_seating(players, random):
    result = score(*players)
    best = max(player["monsters"] for player in players)
    assert sorted(result.winners) == sorted(p["name"] for p in players if p["monsters"] == best)
    for player in result.players:
        assert player.total == sum(player.breakdown.values())
    shuffled = players[:]
    random.shuffle(shuffled)
    again = score(*shuffled)
    assert {p.name: (p.total, p.rank) for p in again.players} == {
        p.name: (p.total, p.rank) for p in result.players
    }


@given(
    st.integers(min_value=1, max_value=5),
    st.sets(st.sampled_from(["pack", "fast", "expert"])),
    st.sampled_from(["short", "medium", "long"]),
)
def test_harder_options_never_add_monsters_nor_progression_tiles(players, harder, length):
    base = setup_for(players, length=length).values
    values = setup_for(players, variants=",".join(sorted(harder)), length=length).values
    assert values["monster_cards"] == base["monster_cards"]
    assert values["progression_tiles"] <= base["progression_tiles"]
    assert values["toy_tiles"] - base["toy_tiles"] == (2 if "expert" in harder else 0)
