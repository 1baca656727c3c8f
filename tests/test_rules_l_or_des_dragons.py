"""L'or des Dragons: the base count, the advanced rule's cursed black diamond and the FAQ's set option."""

import pytest
from hypothesis import given
from hypothesis import strategies as st

from rules.engine import InvalidInput
from rules.games import get_game
from rules.games.l_or_des_dragons import GEMS, IN_THE_BAG, TOKEN_LABELS, TOKENS

RULES = get_game("l-or-des-dragons")


def player(name, **tokens):
    return {"name": name, **tokens}


def score(players, variants=()):
    return RULES.run_score({"variants": list(variants), "players": players})


def by_name(result):
    return {p.name: p for p in result.players}


def errors_of(excinfo):
    return {path: [str(message) for message in messages] for path, messages in excinfo.value.errors.items()}


# Anne holds the black diamond. Green: Anne and Bruno 3 each; blue: Bruno and Chloé 2 each;
# purple: Anne 2 (Bruno 1); yellow: Anne alone; white: Bruno alone.
TABLE = [
    player("Anne", silver=5, gold=2, red=1, black=1, green=3, purple=2, yellow=1),
    player("Bruno", silver=3, gold=4, green=3, blue=2, purple=1, white=1),
    player("Chloé", gold=1, red=2, green=1, blue=2),
]


def test_base_count_scores_tokens_and_gives_every_tied_player_the_full_majority():
    result = score(TABLE)
    players = by_name(result)
    # Anne: 5 silver + 2 gold × 3 + 1 red + black 7 = 19; majorities green (tied), purple, yellow at 15.
    assert players["Anne"].breakdown == {
        "silver": 5,
        "gold": 6,
        "red": 1,
        "black": 7,
        "green": 15,
        "blue": 0,
        "purple": 15,
        "yellow": 15,
        "white": 0,
        "set": 0,
    }
    assert players["Anne"].total == 64
    # Bruno: 3 + 12; green (tied with Anne), blue (tied with Chloé) and white at 15.
    assert players["Bruno"].total == 3 + 12 + 15 + 15 + 15
    # Chloé: 3 + 2; blue tied with Bruno.
    assert players["Chloé"].total == 3 + 2 + 15
    assert result.winners == ["Anne"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 2, 3]
    assert str(result.explanation) == "Anne gagne avec 64 points."


@pytest.mark.parametrize(("count", "points"), [(3, 15), (4, 12), (5, 12), (6, 10)])
def test_base_majority_is_worth_15_12_or_10_points_by_player_count(count, points):
    players = [player("P0", yellow=1)] + [player(f"P{index}") for index in range(1, count)]
    result = score(players)
    assert result.players[0].breakdown["yellow"] == points
    assert RULES.run_setup({"players": count}).values["majority_points"] == points


def test_base_three_tied_players_all_score_the_full_majority():
    players = [player("A", white=2), player("B", white=2), player("C", white=2), player("D", white=0)]
    assert [p.breakdown["white"] for p in score(players).players] == [12, 12, 12, 0]


def test_a_colour_nobody_holds_scores_nothing():
    result = score([player("A", silver=1), player("B"), player("C")])
    assert all(p.breakdown[gem] == 0 for p in result.players for gem in GEMS)


def test_advanced_rule_curses_the_black_diamond_holder_as_the_seed_describes():
    result = score(TABLE, variants=["advanced"])
    players = by_name(result)
    # Anne: black diamond 15 points, but no majority and no set bonus; alone at the top of purple and
    # yellow, nobody scores those colours (not even Bruno, second in purple).
    assert players["Anne"].breakdown == {
        "silver": 5,
        "gold": 6,
        "red": 1,
        "black": 15,
        "green": 0,
        "blue": 0,
        "purple": 0,
        "yellow": 0,
        "white": 0,
        "set": 0,
    }
    assert players["Bruno"].breakdown["purple"] == 0
    # Ruling: tied with the holder for green, Bruno scores half of 12; blue tied with Chloé, half each;
    # white alone, 12.
    assert players["Bruno"].breakdown["green"] == 6
    assert players["Bruno"].breakdown["blue"] == 6
    assert players["Chloé"].breakdown["blue"] == 6
    assert players["Bruno"].breakdown["white"] == 12
    assert players["Bruno"].total == 15 + 6 + 6 + 12
    assert players["Chloé"].total == 5 + 6
    assert result.winners == ["Bruno"]
    assert str(result.explanation) == "Bruno gagne avec 39 points."


@pytest.mark.parametrize(("count", "half"), [(3, 6), (4, 5), (5, 5), (6, 4)])
def test_advanced_two_way_tie_with_the_holder_gives_the_other_player_half(count, half):
    players = [player("Porteur", black=1, green=2), player("Autre", green=2)]
    players += [player(f"P{index}", green=1) for index in range(2, count)]
    result = score(players, variants=["advanced"])
    assert [p.breakdown["green"] for p in result.players] == [0, half] + [0] * (count - 2)


def test_advanced_three_way_tie_including_the_holder_scores_nothing():
    players = [
        player("Porteur", black=1, blue=3),
        player("B", blue=3),
        player("C", blue=3),
        player("D", blue=1),
    ]
    assert [p.breakdown["blue"] for p in score(players, variants=["advanced"]).players] == [0, 0, 0, 0]


def test_advanced_holder_alone_at_the_top_cancels_the_colour_for_everybody():
    players = [player("Porteur", black=1, white=3), player("B", white=2), player("C", white=1)]
    assert [p.breakdown["white"] for p in score(players, variants=["advanced"]).players] == [0, 0, 0]


def test_advanced_majorities_without_the_holder_are_whole_half_or_nothing():
    players = [
        player("A", green=2, blue=1, purple=1),
        player("B", green=1, blue=1, purple=1),
        player("C", green=1, blue=0, purple=1),
        player("D"),
    ]
    result = score(players, variants=["advanced"])
    # 4 players: 10 points; green A alone; blue A and B tied (5 each); purple three tied (nothing).
    assert [p.breakdown["green"] for p in result.players] == [10, 0, 0, 0]
    assert [p.breakdown["blue"] for p in result.players] == [5, 5, 0, 0]
    assert [p.breakdown["purple"] for p in result.players] == [0, 0, 0, 0]


def test_advanced_set_bonus_needs_one_of_each_of_the_five_gems():
    full = {gem: 2 for gem in GEMS}
    players = [
        player("Complet", **full),
        player("Sans blanc", **{**full, "white": 0}),
        player("Porteur", black=1, **{gem: 1 for gem in GEMS}),
    ]
    result = score(players, variants=["advanced"])
    assert [p.breakdown["set"] for p in result.players] == [5, 0, 0]
    # Without the advanced rule there is no set bonus at all.
    assert [p.breakdown["set"] for p in score(players).players] == [0, 0, 0]


def test_faq_option_scores_5_points_per_complete_set():
    players = [
        player("Deux", **{gem: 2 for gem in GEMS}),
        player("Un", green=3, blue=1, purple=1, yellow=5, white=1),
        player("Porteur", black=1, **{gem: 1 for gem in GEMS}),
    ]
    result = score(players, variants=["advanced", "set_per_collection"])
    # The FAQ's own example: two of each colour score 10 points.
    assert [p.breakdown["set"] for p in result.players] == [10, 5, 0]
    assert [p.breakdown["set"] for p in score(players, variants=["advanced"]).players] == [5, 5, 0]


def test_equal_totals_share_the_victory():
    result = score([player("Anne", silver=4), player("Bruno", gold=1, red=1), player("Chloé")])
    assert result.winners == ["Anne", "Bruno"]
    assert result.decided_by is None
    assert [p.rank for p in result.players] == [1, 1, 3]
    assert str(result.explanation) == (
        "Anne et Bruno sont à égalité avec 4 points. Anne et Bruno se partagent la victoire."
    )
    assert (
        str(RULES.tie_break_rule())
        == "Le plus grand total gagne. Les joueurs à égalité se partagent la victoire."
    )


def test_rulings_state_the_two_way_tie_with_the_cursed_holder():
    rulings = [str(ruling) for ruling in RULES.rulings]
    assert any("moitié des points (6, 5 ou 4)" in ruling and "porteur" in ruling for ruling in rulings)


# --- setup -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("count", [3, 4, 5, 6])
def test_setup_values_for_each_player_count(count):
    base = RULES.run_setup({"players": count})
    advanced = RULES.run_setup({"players": count, "variants": "advanced,set_per_collection"})
    assert base.values == {
        "majority_points": {3: 15, 4: 12, 5: 12, 6: 10}[count],
        "magic_items_dealt": 0,
        "adventurers_per_player": 4,
        "dragons_face_up": 4,
    }
    assert advanced.values == {
        "majority_points": {3: 12, 4: 10, 5: 10, 6: 8}[count],
        "magic_items_dealt": count,
        "adventurers_per_player": 4,
        "dragons_face_up": 4,
    }
    components = {str(c.name): c.count for c in base.components}
    assert components["Écrans"] == count
    assert components["Cartes Aventurier (deux guerriers, un voleur, un magicien par joueur)"] == 4 * count


def test_setup_components_hold_the_126_treasure_tokens_and_magic_cards_only_in_the_advanced_rule():
    base = {str(c.name): c.count for c in RULES.run_setup({"players": 4}).components}
    advanced = {
        str(c.name): c.count for c in RULES.run_setup({"players": 4, "variants": "advanced"}).components
    }
    # « 126 jetons trésors en bois […] 35 jetons argentés »
    assert sum(IN_THE_BAG.values()) == 126
    assert base["Pièces d'argent"] == 35
    assert base["Diamant noir"] == 1
    assert sum(base[TOKEN_LABELS[token]] for token in TOKENS) == 126
    assert base["Cartes Dragon"] == 18 and base["Carte Foire"] == 1
    assert "Cartes Objet magique" not in base
    assert advanced["Cartes Objet magique"] == 17


def test_setup_steps_put_the_fair_in_the_middle_and_deal_magic_items_in_the_advanced_rule():
    base = [str(step) for step in RULES.run_setup({"players": 5}).steps]
    advanced = [str(step) for step in RULES.run_setup({"players": 5, "variants": "advanced"}).steps]
    assert any("14 cartes Dragon restantes : 7 cartes au-dessus, 7 en dessous" in step for step in base)
    assert not any("Objet magique" in step for step in base)
    assert any("(5 en tout)" in step and "Les 12 autres" in step for step in advanced)
    assert base[-1] == "À 5 joueurs, la majorité d'une couleur rapporte 12 points en fin de partie."


@pytest.mark.parametrize("count", ["2", "7", "trois"])
def test_setup_refuses_a_player_count_outside_3_to_6(count):
    with pytest.raises(InvalidInput) as excinfo:
        RULES.run_setup({"players": count})
    assert list(errors_of(excinfo)) == ["players"]


def test_the_faq_option_alone_is_refused_because_it_changes_the_advanced_bonus():
    with pytest.raises(InvalidInput) as excinfo:
        RULES.run_setup({"players": 4, "variants": "set_per_collection"})
    assert errors_of(excinfo) == {
        "variants": [
            "L'option « 5 points par collection » modifie le bonus de la règle avancée : "
            "choisissez aussi la règle avancée."
        ]
    }
    with pytest.raises(InvalidInput) as excinfo:
        score(TABLE, variants=["set_per_collection"])
    assert list(errors_of(excinfo)) == ["variants"]


# --- bad input -------------------------------------------------------------------------------------


def test_two_black_diamonds_are_refused_on_both_holders():
    players = [player("A", black=1), player("B"), player("C", black=1)]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    message = "Il n'y a qu'un diamant noir dans le jeu : un seul joueur peut l'avoir."
    assert errors_of(excinfo) == {"players.0.black": [message], "players.2.black": [message]}


def test_more_tokens_of_a_colour_than_the_bag_holds_are_refused():
    players = [player("A", green=7), player("B", green=6), player("C")]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    message = "Le jeu ne contient que 12 jetons de ce type ; les joueurs en déclarent 13."
    assert errors_of(excinfo) == {"players.0.green": [message], "players.1.green": [message]}


def test_out_of_range_and_unknown_fields_have_french_messages_under_their_paths():
    players = [player("A", black=2), player("B", silver=-1), player("C", rubies=3, white=7)]
    with pytest.raises(InvalidInput) as excinfo:
        score(players)
    assert errors_of(excinfo) == {
        "players.0.black": ["La valeur doit être au plus 1."],
        "players.1.silver": ["La valeur doit être au moins 0."],
        "players.2.white": ["La valeur doit être au plus 6."],
        "players.2.rubies": ["Champ inconnu pour ce jeu."],
    }


def test_a_score_sheet_needs_three_to_six_players_and_known_variants():
    with pytest.raises(InvalidInput) as excinfo:
        score([player("A"), player("B")], variants=["dragons_rouges"])
    errors = errors_of(excinfo)
    assert errors["players"] == ["Ce jeu se joue de 3 à 6 joueurs."]
    assert errors["variants"][0].startswith("Variante inconnue : dragons_rouges.")


# --- properties ------------------------------------------------------------------------------------

# At most 6 players, so these per-player limits never exceed what the bag holds.
LIMITS = {"silver": 5, "gold": 3, "red": 2, "green": 2, "blue": 2, "purple": 2, "yellow": 2, "white": 1}
VARIANTS = st.sampled_from([(), ("advanced",), ("advanced", "set_per_collection")])


@st.composite
def tables(draw):
    count = draw(st.integers(min_value=3, max_value=6))
    holder = draw(st.one_of(st.none(), st.integers(min_value=0, max_value=count - 1)))
    players = []
    for index in range(count):
        tokens = {token: draw(st.integers(min_value=0, max_value=limit)) for token, limit in LIMITS.items()}
        players.append(player(f"J{index}", black=int(index == holder), **tokens))
    return players


@given(tables(), VARIANTS)
def test_property_a_total_is_the_sum_of_its_lines_and_lines_match_the_sheet(players, variants):
    result = score(players, variants)
    slugs = [line.slug for line in RULES.lines(frozenset(variants))]
    for scored in result.players:
        assert list(scored.breakdown) == slugs == [*TOKENS, "set"]
        assert scored.total == sum(scored.breakdown.values())


@given(tables(), VARIANTS, st.randoms(use_true_random=False))
def test_property_permuting_players_changes_nobodys_total_or_rank(players, variants, random):
    shuffled = players[:]
    random.shuffle(shuffled)
    first = {p.name: (p.total, p.rank, p.breakdown) for p in score(players, variants).players}
    second = {p.name: (p.total, p.rank, p.breakdown) for p in score(shuffled, variants).players}
    assert first == second


@given(tables(), VARIANTS)
def test_property_a_colour_never_pays_out_more_than_its_majority_and_the_holder_is_cursed(players, variants):
    result = score(players, variants)
    count = len(players)
    points = RULES.run_setup({"players": count, "variants": ",".join(variants)}).values["majority_points"]
    for gem in GEMS:
        paid = [p.breakdown[gem] for p in result.players]
        top = max(p[gem] for p in players)
        leaders = [p for p in players if p[gem] == top and top > 0]
        if not variants:
            assert sum(paid) == points * len(leaders)
        else:
            assert sum(paid) <= points
            assert set(paid) <= {0, points, points // 2}
    if variants:
        for scored, raw in zip(result.players, players, strict=True):
            if raw["black"]:
                assert scored.breakdown["black"] == 15
                assert all(scored.breakdown[gem] == 0 for gem in GEMS) and scored.breakdown["set"] == 0
