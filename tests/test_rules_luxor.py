"""Luxor — setup calculator and final score with treasure sets and jokers (seed 003, « Gamehelpluxor »)."""

from pathlib import Path

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game

LUXOR = get_game("luxor")
SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"
KINDS = ("vase", "jewel", "statue", "joker")


def seed_table(caption: str) -> dict[str, list[str]]:
    """The rows of the seed's wikitable with this caption: {first cell: the other cells}."""
    lines = SEED.read_text().splitlines()
    start = lines.index(f"|+{caption}")
    rows: list[list[str]] = []
    for line in lines[start + 1 :]:
        if line.startswith("|}"):
            break
        if line.startswith("|-"):
            rows.append([])
        elif line.startswith("|"):
            rows[-1].append(line[1:].strip())
    return {row[0]: row[1:] for row in rows if row}


def explorer(name, positions=0, sarcophagi=0, keys=0, scarabs=0, treasure_tiles=0, cards=None):
    entry = {
        "name": name,
        "positions": positions,
        "sarcophagi": sarcophagi,
        "keys": keys,
        "scarabs": scarabs,
        "treasure_tiles": treasure_tiles,
    }
    if cards is not None:
        entry["cards"] = cards
    return entry


def hand(vase=0, jewel=0, statue=0, joker=0):
    return {"vase": vase, "jewel": jewel, "statue": statue, "joker": joker}


def score(*players):
    return LUXOR.run_score({"players": list(players)})


def set_points(**cards):
    return score(explorer("Ana", cards=hand(**cards)), explorer("Bob")).players[0].breakdown["sets"]


def errors_of(body):
    with pytest.raises(InvalidInput) as raised:
        LUXOR.run_score(body)
    return {path: [str(message) for message in messages] for path, messages in raised.value.errors.items()}


# --- the seed's sets table --------------------------------------------------------------------------


def test_set_points_are_the_seed_table_eight_or_more_sets_scoring_52():
    table = seed_table("Série de trésors")
    assert table["Série complète"] == ["1", "2", "3", "4", "5", "6", "7", "8+"]
    expected = [int(points) for points in table["Points"]]
    assert expected == [3, 7, 12, 18, 25, 33, 42, 52]
    scored = [set_points(vase=sets, jewel=sets, statue=sets) for sets in range(1, 9)]
    assert scored == expected
    # « 8+ » : nine and ten complete sets still score the last column.
    assert set_points(vase=9, jewel=9, statue=9) == 52
    assert set_points(vase=10, jewel=10, statue=10, joker=18) == 52


def test_no_complete_set_scores_nothing():
    assert set_points(vase=4, jewel=3) == 0
    assert set_points() == 0


# --- jokers -----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("cards", "points"),
    [
        ({"vase": 1, "jewel": 1, "joker": 1}, 3),  # a joker completes a set
        ({"vase": 1, "joker": 2}, 3),  # two jokers and one real treasure
        ({"joker": 3}, 0),  # three jokers alone are no set
        ({"joker": 6}, 0),
        ({"vase": 1, "joker": 5}, 3),  # a second set would need three jokers
        ({"vase": 2, "joker": 4}, 7),  # vase + 2 jokers, twice
        ({"vase": 3, "jewel": 1, "statue": 1, "joker": 4}, 12),  # 1 full set + 2 × (vase + 2 jokers)
        ({"vase": 5, "jewel": 5, "statue": 2, "joker": 3}, 25),  # 2 full sets + 3 sets missing a statue
    ],
)
def test_jokers_stand_for_any_treasure_at_most_two_in_a_set(cards, points):
    assert set_points(**cards) == points


def test_the_rulings_say_a_set_holds_at_most_two_jokers():
    rulings = " ".join(str(ruling) for ruling in LUXOR.rulings)
    assert "au plus 2 jokers" in rulings
    assert "3 jokers seuls ne font pas de série" in rulings


# --- the whole score --------------------------------------------------------------------------------


def test_the_final_score_adds_the_six_lines():
    result = score(
        explorer(
            "Ana", positions=21, sarcophagi=5, keys=2, scarabs=9, treasure_tiles=26, cards=hand(3, 2, 2, 1)
        ),
        explorer(
            "Bob", positions=30, sarcophagi=3, keys=0, scarabs=12, treasure_tiles=18, cards=hand(1, 1, 0, 2)
        ),
        explorer("Cléa", positions=17, keys=4, scarabs=4, treasure_tiles=31),
    )
    ana, bob, clea = result.players
    # Ana: 3 vases, 2 jewels, 2 statues and 1 joker make 2 sets; a third would miss a jewel and a statue.
    assert ana.breakdown == {
        "positions": 21,
        "sarcophagi": 5,
        "keys": 2,
        "scarabs": 9,
        "treasure_tiles": 26,
        "sets": 7,
    }
    assert ana.total == 70
    # Bob: vase + jewel + a joker for the statue; his second joker alone makes nothing.
    assert bob.breakdown["sets"] == 3
    assert bob.total == 30 + 3 + 0 + 12 + 18 + 3 == 66
    assert clea.breakdown["sets"] == 0
    assert clea.total == 56
    assert result.winners == ["Ana"]
    assert [ana.rank, bob.rank, clea.rank] == [1, 2, 3]
    assert str(result.explanation) == "Ana gagne avec 70 points."


def test_ties_are_shared_there_is_no_tie_breaker():
    result = score(
        explorer("Ana", positions=20, keys=3),
        explorer("Bob", positions=18, keys=5),
        explorer("Cléa", positions=10),
    )
    assert result.winners == ["Ana", "Bob"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 3]
    assert (
        str(result.explanation)
        == "Ana et Bob sont à égalité avec 23 points. Ana et Bob se partagent la victoire."
    )
    assert (
        str(LUXOR.tie_break_rule())
        == "Le plus grand total gagne. Les joueurs à égalité se partagent la victoire."
    )


@pytest.mark.parametrize("count", [2, 3, 4])
def test_every_player_count_is_scored(count):
    result = score(*(explorer(f"P{index}", positions=index) for index in range(count)))
    assert [p.total for p in result.players] == list(range(count))
    assert result.winners == [f"P{count - 1}"]


def test_the_cards_may_be_left_out():
    result = score(explorer("Ana", positions=3), explorer("Bob", positions=4, cards=None))
    assert [p.breakdown["sets"] for p in result.players] == [0, 0]


# --- setup ------------------------------------------------------------------------------------------


@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_gives_five_adventurers_and_five_cards_to_each_player(players):
    setup = LUXOR.run_setup({"players": players})
    assert setup.values == {"adventurers_per_player": 5, "starting_adventurers": 2, "hand_size": 5}
    counts = {str(component.name): component.count for component in setup.components}
    assert counts["Aventuriers (5 par joueur)"] == 5 * players
    assert counts["Marqueurs de score"] == players
    assert counts["Sarcophages (5 et 3 points)"] == 2
    assert counts["Tuiles Scarabée"] == 22
    assert counts["Tuiles Trésor joker"] == 18
    steps = " ".join(str(step) for step in setup.steps)
    assert f"Chacun des {players} joueurs prend 5 aventuriers" in steps
    assert "2 sur l'escalier de départ, un couché devant chacune des 3 statues d'Anubis" in steps


def test_the_hand_size_is_the_seeds_four_cards_plus_the_one_drawn():
    # « Piocher une carte (en la mettant au milieu des 4 cartes de la main) »
    assert "au milieu des 4 cartes de la main" in SEED.read_text()
    assert LUXOR.run_setup({"players": 2}).values["hand_size"] == 4 + 1


@pytest.mark.parametrize("players", [1, 5])
def test_setup_refuses_a_player_count_outside_two_to_four(players):
    with pytest.raises(InvalidInput) as raised:
        LUXOR.run_setup({"players": players})
    assert [str(m) for m in raised.value.errors["players"]] == ["Ce jeu se joue de 2 à 4 joueurs."]


# --- properties -------------------------------------------------------------------------------------

hands = st.fixed_dictionaries(
    {
        "vase": st.integers(0, 5),
        "jewel": st.integers(0, 5),
        "statue": st.integers(0, 5),
        "joker": st.integers(0, 9),
    }
)

# Four players share the box (10 of each treasure, 18 jokers): at most 2 and 4 each.
table_hands = st.fixed_dictionaries(
    {
        "vase": st.integers(0, 2),
        "jewel": st.integers(0, 2),
        "statue": st.integers(0, 2),
        "joker": st.integers(0, 4),
    }
)


@st.composite
def explorers(draw, index):
    return explorer(
        f"P{index}",
        positions=draw(st.integers(0, 65)),
        sarcophagi=0,
        keys=draw(st.integers(0, 5)),
        scarabs=draw(st.integers(0, 13)),
        treasure_tiles=draw(st.integers(0, 40)),
        cards=draw(table_hands),
    )


@st.composite
def tables(draw):
    return [draw(explorers(index)) for index in range(draw(st.integers(2, 4)))]


@given(tables())
def test_a_total_is_the_sum_of_its_breakdown(players):
    for entry in score(*players).players:
        assert entry.total == sum(entry.breakdown.values())


@given(st.lists(explorers(0), min_size=2, max_size=4), st.randoms())
def test_permuting_players_changes_nobodys_total_or_rank(players, random):
    players = [{**p, "name": f"P{index}", "cards": hand(1, 1, 1, 0)} for index, p in enumerate(players)]
    before = score(*players)
    shuffled = players[:]
    random.shuffle(shuffled)
    after = score(*shuffled)
    assert {p.name: (p.total, p.rank) for p in before.players} == {
        p.name: (p.total, p.rank) for p in after.players
    }
    assert sorted(before.winners) == sorted(after.winners)


@given(hands, st.sampled_from(KINDS))
def test_adding_a_card_never_lowers_the_score(cards, kind):
    more = {**cards, kind: cards[kind] + 1}
    assert set_points(**more) >= set_points(**cards)


@given(hands)
def test_every_set_holds_three_cards_and_at_least_one_real_treasure(cards):
    sets = LUXOR.sets(cards)
    real = cards["vase"] + cards["jewel"] + cards["statue"]
    assert sets <= real
    assert 3 * sets <= real + cards["joker"]
    for kind in ("vase", "jewel", "statue"):
        assert sets <= cards[kind] + cards["joker"]
    # … and it is the most: one more set would need too many jokers, or more than two in a set.
    missing = sum(max(0, sets + 1 - cards[kind]) for kind in ("vase", "jewel", "statue"))
    assert missing > cards["joker"] or missing > 2 * (sets + 1)


# --- bad input and positions that cannot happen -----------------------------------------------------


def test_a_sarcophagus_is_worth_five_or_three():
    errors = errors_of({"players": [explorer("Ana", sarcophagi=4), explorer("Bob", sarcophagi=7)]})
    assert errors == {
        "players.0.sarcophagi": ["Les sarcophages valent 5 et 3 points : indiquez 0, 3, 5 ou 8."],
        "players.1.sarcophagi": ["Les sarcophages valent 5 et 3 points : indiquez 0, 3, 5 ou 8."],
    }
    errors = errors_of({"players": [explorer("Ana", sarcophagi=9), explorer("Bob")]})
    assert errors == {"players.0.sarcophagi": ["La valeur doit être au plus 8."]}


def test_there_is_one_sarcophagus_of_each_value():
    errors = errors_of(
        {
            "players": [
                explorer("Ana", sarcophagi=8),
                explorer("Bob", sarcophagi=3),
                explorer("Cléa", sarcophagi=0),
            ]
        }
    )
    assert errors == {
        "players.0.sarcophagi": [
            "Il n'y a qu'un sarcophage de 3 points : deux joueurs ne peuvent pas l'avoir."
        ],
        "players.1.sarcophagi": [
            "Il n'y a qu'un sarcophage de 3 points : deux joueurs ne peuvent pas l'avoir."
        ],
    }
    # One player holding both sarcophagi is fine.
    result = score(explorer("Ana", sarcophagi=8), explorer("Bob"))
    assert result.players[0].total == 8


def test_the_players_cannot_hold_more_treasures_than_the_box():
    errors = errors_of(
        {
            "players": [
                explorer("Ana", cards=hand(vase=6, joker=9)),
                explorer("Bob", cards=hand(vase=5, joker=9)),
            ]
        }
    )
    assert errors == {
        "players.0.cards.vase": ["Le jeu n'en contient que 10 : les joueurs en ont trop à eux tous."],
        "players.1.cards.vase": ["Le jeu n'en contient que 10 : les joueurs en ont trop à eux tous."],
    }


def test_bad_values_are_refused_with_their_paths():
    errors = errors_of(
        {
            "players": [
                explorer("Ana", positions=66, cards={"vase": 11, "jewel": "deux", "gold": 1}),
                {**explorer("Bob", keys=-2), "cards": [1, 2, 3]},
            ]
        }
    )
    assert errors == {
        "players.0.positions": ["La valeur doit être au plus 65."],
        "players.0.cards.vase": ["La valeur doit être au plus 10."],
        "players.0.cards.jewel": ["Saisissez un nombre entier."],
        "players.0.cards.gold": ["Champ inconnu pour ce jeu."],
        "players.1.keys": ["La valeur doit être au moins 0."],
        "players.1.cards": ["Saisissez un objet avec les champs vase, jewel, statue, joker."],
    }


@pytest.mark.parametrize("count", [1, 5])
def test_score_refuses_one_or_five_players(count):
    errors = errors_of({"players": [explorer(f"P{index}") for index in range(count)]})
    assert errors == {"players": ["Ce jeu se joue de 2 à 4 joueurs."]}
