"""The rules engine's shared primitives: majorities, places, tables, sets, ranking, fields, sentences."""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import (
    AmbiguousTie,
    Boolean,
    Choice,
    Criterion,
    Group,
    Integer,
    InvalidInput,
    Letter,
    ListOf,
    NameList,
    ScoredPlayer,
    ScoreSheet,
    Table,
    Tie,
    _,
    best_with_wilds,
    complete_sets,
    leaders,
    majority,
    ngettext,
    places,
    rank,
    refuse_over_supply,
    text,
    tie_break_rule,
)
from rules.engine.fields import clean_fields, object_schema
from rules.games import all_games, get_game

# --- majorities ------------------------------------------------------------------------------------


def test_leaders_are_the_holders_of_the_highest_count_in_input_order():
    assert leaders({"Ana": 3, "Ben": 5, "Cléo": 5}) == ["Ben", "Cléo"]


def test_nobody_leads_below_the_minimum():
    assert leaders({"Ana": 0, "Ben": 0}) == []
    assert leaders({"Ana": 1, "Ben": 0}, minimum=2) == []
    assert leaders({}) == []


def test_a_clear_majority_scores_the_full_amount_whatever_the_tie_policy():
    for tie in Tie:
        assert majority({"Ana": 4, "Ben": 2}, 12, tie=tie, tie_break=lambda name: name) == {"Ana": 12}


@pytest.mark.parametrize(
    ("tie", "expected"),
    [
        (Tie.ALL_SCORE, {"Ana": 10, "Ben": 10}),
        (Tie.HALF_IF_TWO, {"Ana": 5, "Ben": 5}),
        (Tie.NOBODY, {}),
        (Tie.SPLIT, {"Ana": 5, "Ben": 5}),
    ],
)
def test_a_two_way_tie_follows_the_declared_policy(tie, expected):
    assert majority({"Ana": 3, "Ben": 3, "Cléo": 1}, 10, tie=tie) == expected


def test_half_if_two_gives_nothing_to_three_tied_players():
    assert majority({"Ana": 2, "Ben": 2, "Cléo": 2}, 12, tie=Tie.HALF_IF_TWO) == {}


def test_split_rounds_each_share_down():
    assert majority({"Ana": 2, "Ben": 2, "Cléo": 2}, 10, tie=Tie.SPLIT) == {"Ana": 3, "Ben": 3, "Cléo": 3}


def test_break_gives_the_majority_to_the_lowest_tie_break_value():
    letters = {"Cédric": "C", "Rodolphe": "B"}
    assert majority({"Cédric": 9, "Rodolphe": 9}, 5, tie=Tie.BREAK, tie_break=letters.get) == {"Rodolphe": 5}


def test_break_with_equal_deciding_values_is_an_ambiguous_tie():
    with pytest.raises(AmbiguousTie) as raised:
        majority({"Ana": 2, "Ben": 2}, 5, tie=Tie.BREAK, tie_break=lambda name: "B")
    assert raised.value.keys == ["Ana", "Ben"]


def test_nobody_scores_a_majority_of_nothing():
    assert majority({"Ana": 0, "Ben": 0}, 10, tie=Tie.ALL_SCORE) == {}


# --- places (Alhambra-style scoring rounds) -----------------------------------------------------------


def test_places_give_first_second_and_third_their_points():
    assert places({"Ana": 5, "Ben": 3, "Cléo": 1, "Dan": 0}, [16, 8, 1]) == {"Ana": 16, "Ben": 8, "Cléo": 1}


def test_tied_players_pool_the_places_they_occupy_and_share_them_rounded_down():
    # Ana and Ben share first and second: (16 + 8) // 2 = 12; Cléo is third.
    assert places({"Ana": 4, "Ben": 4, "Cléo": 2}, [16, 8, 1]) == {"Ana": 12, "Ben": 12, "Cléo": 1}
    # Three tied for first share 16 + 8 + 1 = 25: 8 each.
    assert places({"Ana": 2, "Ben": 2, "Cléo": 2}, [16, 8, 1]) == {"Ana": 8, "Ben": 8, "Cléo": 8}
    # Two tied for second share 8 + 1 = 9: 4 each.
    assert places({"Ana": 5, "Ben": 2, "Cléo": 2}, [16, 8, 1]) == {"Ana": 16, "Ben": 4, "Cléo": 4}


def test_places_beyond_the_table_score_nothing():
    assert places({"Ana": 3, "Ben": 2}, [6]) == {"Ana": 6}
    assert places({"Ana": 3, "Ben": 3}, [6]) == {"Ana": 3, "Ben": 3}


@given(
    st.dictionaries(st.sampled_from("ABCDEF"), st.integers(0, 6)), st.lists(st.integers(0, 30), max_size=3)
)
def test_places_never_hand_out_more_than_the_places_are_worth(counts, points_by_place):
    assert sum(places(counts, points_by_place).values()) <= sum(points_by_place)


# --- tables and sets ----------------------------------------------------------------------------------


def test_a_table_reads_like_the_printed_one_and_can_clamp():
    sets = Table({1: 3, 2: 7, 3: 12}, clamp=True)
    assert (sets[1], sets[3], sets[9]) == (3, 12, 12)
    assert 9 in sets
    with pytest.raises(KeyError):
        Table({2: "a", 3: "b"})[4]
    assert Table([0, 0, 4, 8])[3] == 8


@pytest.mark.parametrize(
    ("counts", "wild", "per_set", "expected"),
    [
        ({"vase": 2, "jewel": 2, "statue": 2}, 0, 2, 2),
        ({"vase": 3, "jewel": 1, "statue": 0}, 2, 2, 1),  # jewel+vase+joker, then only vases are left
        ({"vase": 3, "jewel": 3, "statue": 0}, 3, 2, 3),
        ({"vase": 1, "jewel": 0, "statue": 0}, 4, 2, 1),  # a set holds at most two jokers
        ({"vase": 0, "jewel": 0, "statue": 0}, 6, 2, 0),  # three jokers never make a set
        ({"vase": 0, "jewel": 0, "statue": 0}, 6, None, 2),
    ],
)
def test_complete_sets_use_wild_cards_within_the_per_set_limit(counts, wild, per_set, expected):
    assert complete_sets(counts, ["vase", "jewel", "statue"], wild=wild, wild_per_set=per_set) == expected


@settings(deadline=None, max_examples=60)
@given(
    st.fixed_dictionaries({kind: st.integers(0, 4) for kind in ("vase", "jewel", "statue")}),
    st.integers(0, 5),
)
def test_complete_sets_agree_with_an_exhaustive_search(counts, wild):
    def brute(remaining: dict, jokers: int) -> int:
        best = 0
        for used in range(0, min(2, jokers) + 1):
            for missing in _subsets_of_size(["vase", "jewel", "statue"], used):
                if all(remaining[kind] >= 1 for kind in remaining if kind not in missing):
                    after = {kind: remaining[kind] - (kind not in missing) for kind in remaining}
                    best = max(best, 1 + brute(after, jokers - used))
        return best

    assert complete_sets(counts, ["vase", "jewel", "statue"], wild=wild, wild_per_set=2) == brute(
        counts, wild
    )


def _subsets_of_size(items, size):
    from itertools import combinations

    return [set(combo) for combo in combinations(items, size)]


def test_wild_symbols_go_where_they_score_most():
    def science(counts):
        return sum(count**2 for count in counts.values()) + 7 * min(counts.values())

    score, used = best_with_wilds(
        {"tablet": 2, "compass": 2, "gear": 1}, ["tablet", "compass", "gear"], 1, science
    )
    assert score == 4 + 4 + 4 + 14  # the wild completes a second set
    assert used == {"tablet": 2, "compass": 2, "gear": 2}
    assert best_with_wilds({"tablet": 1}, ["tablet"], 0, lambda c: c["tablet"]) == (1, {"tablet": 1})


# --- ranking ------------------------------------------------------------------------------------------


def player(name, total, **fields):
    return ScoredPlayer(name=name, breakdown={"points": total}, fields=fields)


GOLD = Criterion("gold", _("l'or restant"), key=lambda p: p.fields["gold"])
MONKS = Criterion("moines", _("la catégorie Moines"), key=lambda p: p.fields["monks"], show_values=False)


def test_the_highest_total_wins_and_totals_alone_decide():
    result = rank([player("Ana", 9, gold=0), player("Ben", 12, gold=0)], tie_breakers=[GOLD])
    assert result.winners == ["Ben"]
    assert result.ranks == {"Ben": 1, "Ana": 2}
    assert result.decided_by is None
    assert str(result.explanation) == "Ben gagne avec 12 points."


def test_a_tie_broken_by_the_first_criterion_names_it_and_shows_the_values():
    result = rank(
        [player("Cédric", 8, gold=2, monks=True), player("Rodolphe", 8, gold=5, monks=False)],
        tie_breakers=[GOLD, MONKS],
    )
    assert result.winners == ["Rodolphe"]
    assert result.decided_by == "gold"
    assert result.ranks == {"Rodolphe": 1, "Cédric": 2}
    assert str(result.explanation) == (
        "Cédric et Rodolphe sont à égalité avec 8 points. "
        "Départage par l'or restant : Rodolphe l'emporte (5 contre 2)."
    )


def test_the_second_criterion_decides_when_the_first_does_not_separate():
    players = [player("Ana", 8, gold=3, monks=False), player("Ben", 8, gold=3, monks=True)]
    result = rank(players, tie_breakers=[GOLD, MONKS])
    assert (result.winners, result.decided_by) == (["Ben"], "moines")
    assert str(result.explanation).endswith("Départage par la catégorie Moines : Ben l'emporte.")


def test_players_still_tied_after_every_criterion_share_the_rank_and_the_victory():
    players = [
        player("Ana", 8, gold=3, monks=False),
        player("Ben", 8, gold=3, monks=False),
        player("Cléo", 2, gold=9, monks=True),
    ]
    result = rank(players, tie_breakers=[GOLD, MONKS])
    assert result.winners == ["Ana", "Ben"]
    assert result.ranks == {"Ana": 1, "Ben": 1, "Cléo": 3}
    assert result.decided_by is None
    assert (
        str(result.explanation)
        == "Ana et Ben sont à égalité avec 8 points. Ana et Ben se partagent la victoire."
    )


def test_a_three_way_tie_narrowed_then_decided_names_the_last_deciding_criterion():
    players = [
        player("Ana", 8, gold=1, monks=True),
        player("Ben", 8, gold=4, monks=False),
        player("Cléo", 8, gold=4, monks=True),
    ]
    result = rank(players, tie_breakers=[GOLD, MONKS])
    assert result.winners == ["Cléo"]
    assert result.decided_by == "moines"
    assert result.ranks == {"Cléo": 1, "Ben": 2, "Ana": 3}
    assert "Départage par l'or restant : Ben et Cléo restent à égalité." in str(result.explanation)


def test_lowest_total_can_win():
    result = rank([player("Ana", 3), player("Ben", 1)], highest_total_wins=False)
    assert result.winners == ["Ben"]
    assert result.ranks == {"Ben": 1, "Ana": 2}


def test_ineligible_players_rank_last_and_never_win():
    out = ScoredPlayer(name="Ben", breakdown={"points": 40}, eliminated=True)
    result = rank([player("Ana", 3), out])
    assert result.winners == ["Ana"]
    assert result.ranks == {"Ana": 1, "Ben": 2}


def test_no_eligible_player_means_no_winner_with_the_games_sentence():
    result = rank(
        [player("Ana", 7), player("Ben", 9)],
        eligible=lambda p: p.total >= 10,
        no_winner=text(_("Personne n'a encore 10 points.")),
    )
    assert result.winners == []
    assert result.ranks == {"Ben": 1, "Ana": 2}
    assert str(result.explanation) == "Personne n'a encore 10 points."


@given(
    st.lists(
        st.tuples(st.integers(0, 20), st.integers(0, 5), st.booleans()),
        min_size=1,
        max_size=6,
    ),
    st.randoms(),
)
def test_permuting_players_changes_nobodys_rank_nor_the_winners(rows, random):
    players = [
        player(f"P{index}", total, gold=gold, monks=monks) for index, (total, gold, monks) in enumerate(rows)
    ]
    shuffled = players[:]
    random.shuffle(shuffled)
    first = rank(players, tie_breakers=[GOLD, MONKS])
    second = rank(shuffled, tie_breakers=[GOLD, MONKS])
    assert first.ranks == second.ranks
    assert sorted(first.winners) == sorted(second.winners)
    assert first.decided_by == second.decided_by
    assert all(first.ranks[name] == 1 for name in first.winners)


def test_the_tie_break_rule_reads_as_one_sentence():
    assert str(tie_break_rule([GOLD, MONKS])) == (
        "Le plus grand total gagne. En cas d'égalité, départage par l'or restant, puis la catégorie Moines ; "
        "si l'égalité persiste, la victoire est partagée."
    )
    assert (
        str(tie_break_rule([]))
        == "Le plus grand total gagne. Les joueurs à égalité se partagent la victoire."
    )


# --- sentences -----------------------------------------------------------------------------------------


def test_texts_render_in_french_by_default_and_through_a_translator():
    greeting = text(_("%(names)s gagnent."), names=NameList(["Ana", "Ben", "Cléo"]))
    assert str(greeting) == "Ana, Ben et Cléo gagnent."
    english = {"%(names)s gagnent.": "%(names)s win.", "%(first)s et %(last)s": "%(first)s and %(last)s"}
    assert greeting.render(lambda message: english.get(message, message)) == "Ana, Ben and Cléo win."


def test_plural_texts_use_the_french_singular_for_zero_and_one():
    def cards(count):
        return text(ngettext("%(n)s carte", "%(n)s cartes", count), n=count)

    assert [str(cards(n)) for n in (0, 1, 2)] == ["0 carte", "1 carte", "2 cartes"]


# --- fields --------------------------------------------------------------------------------------------


def clean(fields, raw):
    errors = {}
    values = clean_fields(fields, raw, "", errors)
    return values, {path: [str(message) for message in messages] for path, messages in errors.items()}


def test_integers_accept_numbers_and_form_strings_within_their_range():
    fields = (Integer("gold", "Or", minimum=0, maximum=10),)
    assert clean(fields, {"gold": 4}) == ({"gold": 4}, {})
    assert clean(fields, {"gold": "7"}) == ({"gold": 7}, {})
    assert clean(fields, {"gold": -1})[1] == {"gold": ["La valeur doit être au moins 0."]}
    assert clean(fields, {"gold": 11})[1] == {"gold": ["La valeur doit être au plus 10."]}
    assert clean(fields, {"gold": "beaucoup"})[1] == {"gold": ["Saisissez un nombre entier."]}
    assert clean(fields, {"gold": True})[1] == {"gold": ["Saisissez un nombre entier."]}
    assert clean(fields, {})[1] == {"gold": ["Ce champ est obligatoire."]}


def test_defaults_fill_what_is_left_out_and_unknown_fields_are_refused():
    fields = (Integer("gold", "Or", default=0), Boolean("longest_road", "Route"))
    assert clean(fields, {}) == ({"gold": 0, "longest_road": False}, {})
    assert clean(fields, {"longest_road": "on", "silver": 1})[1] == {"silver": ["Champ inconnu pour ce jeu."]}
    assert clean(fields, {"longest_road": "peut-être"})[1] == {"longest_road": ["Répondez par vrai ou faux."]}


def test_choices_and_letters():
    fields = (
        Choice("length", "Durée", choices=(("short", "Courte"), ("long", "Longue"))),
        Letter("letter", "Lettre"),
    )
    assert clean(fields, {"length": "short", "letter": "B"}) == ({"length": "short", "letter": "B"}, {})
    assert clean(fields, {"length": "short", "letter": None}) == ({"length": "short", "letter": None}, {})
    errors = clean(fields, {"length": "moyenne", "letter": "b"})[1]
    assert errors["length"] == ["Choisissez une de ces valeurs : short, long."]
    assert "letter" in errors


def test_nested_groups_and_lists_report_dotted_paths():
    fields = (
        Group(
            "science",
            "Science",
            fields=(Integer("gear", "Roue"), Integer("wild", "Joker", maximum=2, default=0)),
        ),
        ListOf("networks", "Réseaux", item=Integer("exits", "Sorties", maximum=12), max_items=12),
    )
    values, errors = clean(fields, {"science": {"gear": 2}, "networks": [4, 3]})
    assert values == {"science": {"gear": 2, "wild": 0}, "networks": [4, 3]}
    assert errors == {}
    errors = clean(fields, {"science": {"gear": -2, "wild": 3}, "networks": [4, 13]})[1]
    assert errors == {
        "science.gear": ["La valeur doit être au moins 0."],
        "science.wild": ["La valeur doit être au plus 2."],
        "networks.1": ["La valeur doit être au plus 12."],
    }
    assert clean(fields, {"science": 3, "networks": "4"})[1] == {
        "science": ["Saisissez un objet avec les champs gear, wild."],
        "networks": ["Saisissez une liste."],
    }


def test_a_group_whose_members_all_have_defaults_may_be_left_out():
    dice = Group("dice", "Dés", fields=(Integer("moines", "Moines", minimum=1, maximum=6, default=3),))
    cards = Group("cards", "Cartes", fields=(Integer("vase", "Vases"),))
    assert not dice.required and cards.required
    assert clean((dice,), {}) == ({"dice": {"moines": 3}}, {})
    assert clean((dice,), {"dice": None}) == ({"dice": {"moines": 3}}, {})
    assert clean((cards,), {})[1] == {"cards": ["Ce champ est obligatoire."]}
    schema = object_schema((dice, cards))
    assert schema["required"] == ["cards"]
    assert "default" not in schema["properties"]["dice"]


def sheet_of(*players):
    return ScoreSheet(variants=frozenset(), players=list(players), shared={})


def test_more_pieces_than_the_game_holds_are_refused_on_every_player_who_declares_some():
    sheet = sheet_of(
        {"name": "Ana", "cards": {"vase": 6}},
        {"name": "Ben", "cards": {"vase": 0}},
        {"name": "Cléo", "cards": {"vase": 5}},
    )
    errors = {}
    refuse_over_supply(
        sheet, errors, "cards.vase", 10, _("%(supply)s vases, %(total)s déclarés (%(kind)s)."), kind="A"
    )
    rendered = {path: [str(message) for message in messages] for path, messages in errors.items()}
    assert rendered == {
        "players.0.cards.vase": ["10 vases, 11 déclarés (A)."],
        "players.2.cards.vase": ["10 vases, 11 déclarés (A)."],
    }
    errors = {}
    refuse_over_supply(sheet, errors, "cards.vase", 11, _("%(supply)s vases, %(total)s déclarés."))
    assert errors == {}


# --- the registry and the request envelope ---------------------------------------------------------


def test_every_registered_game_has_a_unique_slug_and_a_player_range():
    games = all_games()
    assert get_game("biblios") in games
    assert len({game.slug for game in games}) == len(games)
    assert get_game("pas-un-jeu") is None


def test_a_player_count_outside_the_range_is_refused_in_setup_and_score():
    biblios = get_game("biblios")
    with pytest.raises(InvalidInput) as raised:
        biblios.run_setup({"players": "5"})
    assert [str(m) for m in raised.value.errors["players"]] == ["Ce jeu se joue de 2 à 4 joueurs."]
    with pytest.raises(InvalidInput) as raised:
        biblios.run_score({"players": [{"name": "Ana"}]})
    assert "players" in raised.value.errors


def test_unknown_variants_and_nameless_players_are_refused():
    biblios = get_game("biblios")
    with pytest.raises(InvalidInput) as raised:
        biblios.run_score({"variants": ["turbo"], "players": [{"name": " "}, {"name": "Ben"}]})
    errors = {path: [str(m) for m in messages] for path, messages in raised.value.errors.items()}
    assert errors["variants"] == ["Variante inconnue : turbo. Variantes de ce jeu : —."]
    assert errors["players.0.name"] == ["Chaque joueur doit avoir un nom."]


def test_a_body_that_is_not_an_object_is_refused():
    with pytest.raises(InvalidInput) as raised:
        get_game("biblios").run_score(["Ana", "Ben"])
    assert list(raised.value.errors) == ["non_field_errors"]


def test_the_score_schema_describes_the_declared_fields():
    schema = get_game("biblios").score_schema()
    player = schema["properties"]["players"]["items"]
    assert schema["properties"]["players"]["minItems"] == 2
    assert schema["properties"]["players"]["maxItems"] == 4
    assert set(player["properties"]) == {"name", "categories", "gold"}
    assert player["properties"]["categories"]["properties"]["moines"]["properties"]["total"]["minimum"] == 0
    assert schema["properties"]["dice"]["properties"]["moines"] == {
        "type": "integer",
        "minimum": 1,
        "maximum": 6,
        "title": "Moines",
        "default": 3,
    }
