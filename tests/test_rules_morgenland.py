"""Morgenland: magic objects win; the full game breaks ties by parchments, then treasures."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

RULES = get_game("morgenland")


def base(name, objects):
    return {"name": name, "magic_objects": objects}


def full(name, objects, parchments=0, treasures=0):
    return {"name": name, "magic_objects": objects, "parchments": parchments, "treasures": treasures}


def score(players, variants=()):
    return RULES.run_score({"variants": list(variants), "players": players})


def errors_of(excinfo):
    return {path: [str(message) for message in messages] for path, messages in excinfo.value.errors.items()}


def test_base_game_the_most_magic_objects_wins():
    result = score([base("Ali", 3), base("Baba", 4), base("Shéhérazade", 1)])
    assert [p.total for p in result.players] == [3, 4, 1]
    assert [p.breakdown for p in result.players] == [
        {"magic_objects": 3},
        {"magic_objects": 4},
        {"magic_objects": 1},
    ]
    assert result.winners == ["Baba"]
    assert [p.rank for p in result.players] == [2, 1, 3]
    assert str(result.explanation) == "Baba gagne avec 4 objets magiques."


def test_base_game_ties_are_not_broken():
    # « Il est possible que plusieurs joueurs soient ex aequo. On ne les départage pas. »
    result = score([base("Ali", 3), base("Baba", 3), base("Shéhérazade", 2), base("Sindbad", 0)])
    assert result.winners == ["Ali", "Baba"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 3, 4]
    assert (
        str(result.explanation)
        == "Ali et Baba sont à égalité avec 3 objets magiques. Ali et Baba se partagent la victoire."
    )
    assert (
        str(RULES.tie_break_rule())
        == "Le plus grand total gagne. Les joueurs à égalité se partagent la victoire."
    )


def test_full_game_tie_is_broken_by_parchments():
    result = score(
        [
            full("Ali", 5, parchments=1, treasures=9),
            full("Baba", 5, parchments=2, treasures=0),
            full("Sindbad", 4),
        ],
        variants=["full"],
    )
    assert result.winners == ["Baba"]
    assert result.decided_by == "parchments"
    assert [p.rank for p in result.players] == [2, 1, 3]
    assert str(result.explanation) == (
        "Ali et Baba sont à égalité avec 5 objets magiques. Départage par les parchemins : Baba l'emporte (2 contre 1)."
    )


def test_full_game_equal_parchments_go_to_treasures():
    result = score(
        [
            full("Ali", 5, parchments=1, treasures=7),
            full("Baba", 5, parchments=1, treasures=11),
            full("Sindbad", 5, parchments=0, treasures=20),
        ],
        variants=["full"],
    )
    # Sindbad has the most treasures but fewer parchments: the parchments come first.
    assert result.winners == ["Baba"]
    assert result.decided_by == "treasures"
    assert [p.rank for p in result.players] == [2, 1, 3]
    assert str(result.explanation) == (
        "Ali, Baba et Sindbad sont à égalité avec 5 objets magiques. "
        "Départage par les parchemins : Ali et Baba restent à égalité. "
        "Départage par les trésors : Baba l'emporte (11 contre 7)."
    )


def test_full_game_still_tied_after_treasures_shares_the_victory():
    result = score(
        [
            full("Ali", 4, parchments=1, treasures=6),
            full("Baba", 4, parchments=1, treasures=6),
            full("Sindbad", 3),
        ],
        variants=["full"],
    )
    assert result.winners == ["Ali", "Baba"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 3]
    assert str(RULES.tie_break_rule(frozenset({"full"}))) == (
        "Le plus grand total gagne. En cas d'égalité, départage par les parchemins, puis les trésors ; "
        "si l'égalité persiste, la victoire est partagée."
    )


# --- bad input -------------------------------------------------------------------------------------


def test_full_game_needs_parchments_and_treasures_and_the_base_game_refuses_them():
    with pytest.raises(InvalidInput) as excinfo:
        score([base("Ali", 2), full("Baba", 1), full("Sindbad", 0)], variants=["full"])
    assert errors_of(excinfo) == {
        "players.0.parchments": ["Ce champ est obligatoire."],
        "players.0.treasures": ["Ce champ est obligatoire."],
    }
    with pytest.raises(InvalidInput) as excinfo:
        score([full("Ali", 2), base("Baba", 1), base("Sindbad", 0)])
    assert errors_of(excinfo) == {
        "players.0.parchments": ["Champ inconnu pour ce jeu."],
        "players.0.treasures": ["Champ inconnu pour ce jeu."],
    }


def test_more_parchments_than_magic_objects_is_refused():
    with pytest.raises(InvalidInput) as excinfo:
        score([full("Ali", 1, parchments=2), full("Baba", 1), full("Sindbad", 1)], variants=["full"])
    assert errors_of(excinfo) == {
        "players.0.parchments": [
            "Un parchemin est un objet magique : pas plus de parchemins que d'objets magiques."
        ]
    }


def test_more_parchments_than_copies_in_play_is_refused():
    # Full game with 3 players: 3 copies of each magic object, so 3 parchments.
    with pytest.raises(InvalidInput) as excinfo:
        score(
            [full("Ali", 3, parchments=2), full("Baba", 3, parchments=2), full("Sindbad", 1)],
            variants=["full"],
        )
    message = "La partie ne compte que 3 parchemins ; les joueurs en déclarent 4."
    assert errors_of(excinfo) == {"players.0.parchments": [message], "players.1.parchments": [message]}


@pytest.mark.parametrize(
    ("variants", "objects", "in_game"), [((), [16, 15, 0], 30), (("full",), [10, 9, 0], 18)]
)
def test_more_magic_objects_than_the_game_holds_are_refused(variants, objects, in_game):
    players = [full(f"J{i}", n) if variants else base(f"J{i}", n) for i, n in enumerate(objects)]
    with pytest.raises(InvalidInput) as excinfo:
        score(players, variants)
    message = f"La partie ne compte que {in_game} objets magiques ; les joueurs en déclarent {sum(objects)}."
    assert errors_of(excinfo) == {"players.0.magic_objects": [message], "players.1.magic_objects": [message]}


def test_bad_values_player_counts_and_variants_have_french_messages():
    with pytest.raises(InvalidInput) as excinfo:
        score([base("Ali", -1), base("Baba", "trois"), {"name": "Sindbad"}])
    assert errors_of(excinfo) == {
        "players.0.magic_objects": ["La valeur doit être au moins 0."],
        "players.1.magic_objects": ["Saisissez un nombre entier."],
        "players.2.magic_objects": ["Ce champ est obligatoire."],
    }
    with pytest.raises(InvalidInput) as excinfo:
        score([base("Ali", 1), base("Baba", 1)], variants=["complet"])
    errors = errors_of(excinfo)
    assert errors["players"] == ["Ce jeu se joue de 3 à 5 joueurs."]
    assert errors["variants"] == ["Variante inconnue : complet. Variantes de ce jeu : full."]


# --- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 4, 5])
def test_base_setup_values_and_components(count):
    result = RULES.run_setup({"players": count})
    assert result.values == {
        "pawns_per_player": 8,
        "guardians": 10,
        "treasure_card_series": count,
        "piles": 5,
        "objects_per_pile": 6,
    }
    components = {str(c.name): c.count for c in result.components}
    assert components["Pions (série de 8 par joueur)"] == 8 * count
    assert components["Paravents"] == count
    assert components["Objets magiques"] == 30
    assert components["Petits trésors de départ"] == 3 * count
    assert "Cartes magiques" not in components
    steps = [str(step) for step in result.steps]
    assert any("30 objets magiques, faces cachées, en 5 tas de 6" in step for step in steps)
    assert any(f"verso montre {count} personnages" in step for step in steps)


@pytest.mark.parametrize(("count", "unused"), [(3, 2), (4, 1), (5, 0)])
def test_full_game_setup_uses_one_pile_per_player_and_leaves_rooms_unused(count, unused):
    result = RULES.run_setup({"players": count, "variants": "full"})
    assert result.values == {
        "pawns_per_player": 8,
        "guardians": 10,
        "treasure_card_series": count,
        "piles": count,
        "objects_per_pile": 5,
        "lamps": count,
        "rooms_unused": unused,
    }
    components = {str(c.name): c.count for c in result.components}
    # One copy of each of the 6 objects per player: a lamp each, the rest in piles of 5.
    assert components["Objets magiques"] == 6 * count == count + 5 * count
    assert components["Cartes magiques"] == 21
    steps = [str(step) for step in result.steps]
    assert any(f"en {count} tas de 5" in step for step in steps)
    rooms = [step for step in steps if "inutilisée" in step]
    expected = {
        2: ["2 salles du palais restent inutilisées pendant la partie."],
        1: ["1 salle du palais reste inutilisée pendant la partie."],
        0: [],
    }
    assert rooms == expected[unused]


def test_the_pawn_series_has_no_3():
    steps = [str(step) for step in RULES.run_setup({"players": 4}).steps]
    assert "valeurs 1, 2, 4, 5, 6, 7, 8, 9 : le 3 n'existe pas" in steps[0]


@pytest.mark.parametrize("count", ["2", "6"])
def test_setup_refuses_a_player_count_outside_3_to_5(count):
    with pytest.raises(InvalidInput) as excinfo:
        RULES.run_setup({"players": count, "variants": "full"})
    assert errors_of(excinfo) == {"players": ["Ce jeu se joue de 3 à 5 joueurs."]}


# --- properties ------------------------------------------------------------------------------------


@st.composite
def tables(draw):
    count = draw(st.integers(min_value=3, max_value=5))
    players = []
    parchments_left = count
    for index in range(count):
        objects = draw(st.integers(min_value=0, max_value=6))
        parchments = draw(st.integers(min_value=0, max_value=min(objects, parchments_left, 1)))
        parchments_left -= parchments
        players.append(full(f"J{index}", objects, parchments, draw(st.integers(min_value=0, max_value=4))))
    return players


@given(tables(), st.booleans())
def test_property_winners_hold_the_most_magic_objects_and_base_ties_are_all_winners(players, is_full):
    if not is_full:
        players = [base(p["name"], p["magic_objects"]) for p in players]
    result = score(players, ["full"] if is_full else [])
    best = max(p["magic_objects"] for p in players)
    leaders = [p["name"] for p in players if p["magic_objects"] == best]
    assert set(result.winners) <= set(leaders)
    for scored, raw in zip(result.players, players, strict=True):
        assert scored.total == sum(scored.breakdown.values()) == raw["magic_objects"]
    if not is_full:
        assert result.winners == leaders
    else:
        key = {p["name"]: (p["parchments"], p["treasures"]) for p in players if p["name"] in leaders}
        assert {key[name] for name in result.winners} == {max(key.values())}


@given(tables(), st.booleans(), st.randoms(use_true_random=False))
def test_property_permuting_players_changes_nobodys_total_or_rank(players, is_full, random):
    variants = ["full"] if is_full else []
    if not is_full:
        players = [base(p["name"], p["magic_objects"]) for p in players]
    shuffled = players[:]
    random.shuffle(shuffled)
    first = score(players, variants)
    second = score(shuffled, variants)
    assert {p.name: (p.total, p.rank) for p in first.players} == {
        p.name: (p.total, p.rank) for p in second.players
    }
    assert sorted(first.winners) == sorted(second.winners)
    assert first.decided_by == second.decided_by
