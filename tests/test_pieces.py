"""Playable with missing pieces, for every coded game: which ways and player counts a box still allows.

Each case is worked by hand from the rule each module cites (the seeds and the rules pages'
« Matériel ») and checks `rules.engine.playable_with` through the game's declared COMPONENTS. Then
properties for every game: a complete box allows everything, fewer missing pieces never allow less,
and an unknown piece allows nothing.
"""

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rules.engine import ACCESSORY, playable_with
from rules.games import all_games, components_of, get_game

ALL = {game.slug: game for game in all_games()}


def allowed(slug: str, missing: dict[str, int]) -> dict[str, tuple[int, ...]]:
    """{way slug: player counts} the box missing `missing` still allows."""
    game = get_game(slug)
    result = playable_with(components_of(game), game.players, missing)
    return {way.slug: counts for way, counts in result.allowed}


def summary(slug: str, missing: dict[str, int]) -> str:
    game = get_game(slug)
    return str(playable_with(components_of(game), game.players, missing).summary())


def test_every_coded_game_declares_its_pieces():
    assert len(ALL) == 14
    assert all(components_of(game) is not None for game in ALL.values())


# --- hand-worked, one game after the other -------------------------------------------------------------


def test_la_chasse_aux_monstres_missing_a_monster_card_still_plays_short_and_medium_games():
    # Seed 004: « Employez 10 cartes pour une partie courte […], 15 cartes pour une partie moyenne et les
    # 20 cartes pour une partie longue. » 19 cards left: short (10) and medium (15) games, 1 to 5 players.
    found = allowed("la-chasse-aux-monstres", {"monster_cards": 1})
    assert found["short"] == found["medium"] == (1, 2, 3, 4, 5)
    assert found["long"] == ()
    # 6 missing (14 left): only the short games.
    found = allowed("la-chasse-aux-monstres", {"monster_cards": 6})
    assert found["short"] == (1, 2, 3, 4, 5) and found["medium"] == found["long"] == ()
    assert summary(
        "la-chasse-aux-monstres", {"monster_cards": 6, "expert_tiles": 2, "progression_tiles": 0}
    ) == ("jouable : parties courtes, jeu plus facile (parties courtes), 1 à 5 joueurs")


def test_la_chasse_aux_monstres_without_a_progression_tile_plays_the_easier_game():
    # « Jeu plus facile : on laisse de côté les tuiles de progression. »
    found = allowed("la-chasse-aux-monstres", {"progression_tiles": 1})
    assert found == {"short": (), "medium": (), "long": (), "easy": (1, 2, 3, 4, 5), "expert": ()}


def test_seven_wonders_missing_a_card_marked_5_plus_plays_at_2_to_4():
    # « Pour chaque âge, gardez les cartes marquées 3+ … N+ »: a 5+ card is used from 5 players on;
    # 2 players use the 3-player cards (« cartes 3+ seulement »).
    assert allowed("7-wonders", {"age_cards_5": 1}) == {"": (2, 3, 4)}
    # A card of age I whose mark nobody noted may be a 3+ card: no table is sure to have its deck.
    assert allowed("7-wonders", {"age_1_cards": 1}) == {"": ()}
    # The score pad, the rule book and value-3 coins stop nothing (« Il n'y a pas de limite aux pièces »).
    assert summary("7-wonders", {ACCESSORY: 1, "coins_3": 4}) == "jouable comme un jeu complet"


def test_seven_wonders_guilds_and_the_two_player_cards():
    # « le nombre de Guildes à conserver est égal au nombre de joueurs +2 »: 10 in the box, 9 at 7.
    assert allowed("7-wonders", {"guilds": 1}) == {"": (2, 3, 4, 5, 6, 7)}
    assert allowed("7-wonders", {"guilds": 2}) == {"": (2, 3, 4, 5, 6)}
    assert allowed("7-wonders", {"guilds": 5}) == {"": (2, 3)}
    # Without the Frontière or the Cité franche, no two-player game.
    assert allowed("7-wonders", {"two_player_cards": 1}) == {"": (3, 4, 5, 6, 7)}


def test_alhambra_needs_every_building_tile_and_a_fountain_per_player():
    # « 6 tuiles de départ (la fontaine), une par couleur de joueur »; the bag's 54 tiles are all drawn.
    assert allowed("alhambra", {"starting_tiles": 1}) == {"": (2, 3, 4, 5)}
    assert allowed("alhambra", {"tiles_garden": 1}) == {"": ()}
    assert allowed("alhambra", {"starting_tiles": 1, "markers": 1}) == {"": (2, 3, 4)}


def test_biblios_missing_cards_count_as_cards_removed_at_random():
    # Setup removes 21 cards at random at 2 players, 12 at 3, 7 at 4 (seed 000, REMOVED).
    assert allowed("biblios", {"cards": 7}) == {"": (2, 3, 4)}
    assert allowed("biblios", {"cards": 8}) == {"": (2, 3)}
    assert allowed("biblios", {"cards": 21}) == {"": (2,)}
    assert allowed("biblios", {"cards": 22}) == {"": ()}
    assert allowed("biblios", {"dice": 1}) == {"": ()}


def test_catan_a_missing_road_leaves_one_colour_out():
    # « pour chacune des 4 couleurs, 4 villes, 5 colonies et 15 routes »; at 3 players one colour stays
    # in the box. Which colour a missing piece is, nobody noted: two missing pieces may spoil two colours.
    assert allowed("catane", {"roads": 1}) == {"": (3,)}
    assert allowed("catane", {"roads": 1, "settlements": 1}) == {"": ()}
    assert allowed("catane", {"cost_cards": 2}) == {"": (3, 4)}
    assert allowed("catane", {"hexes": 1}) == {"": ()}


def test_k2_a_season_needs_its_six_weather_tiles_and_each_climber_a_colour():
    # « 12 tuiles météo (6 d'été, 6 d'hiver) »; « par couleur (5 couleurs) : 4 pions grimpeur, 2 tentes… »
    assert allowed("k2", {"weather_winter": 1}) == {"summer": (1, 2, 3, 4, 5), "winter": ()}
    assert allowed("k2", {"tents": 1}) == {"summer": (1, 2, 3, 4), "winter": (1, 2, 3, 4)}
    assert summary("k2", {"weather_winter": 1, "tents": 1}) == "jouable : saison d'été, 1 à 4 joueurs"
    assert allowed("k2", {"risk_tokens": 1}) == {"summer": (), "winter": ()}


def test_l_or_des_dragons_magic_items_only_for_the_advanced_rules():
    # « 17 cartes Objet magique (règle avancée seulement) »; « 24 cartes Aventurier (6 couleurs × 4) ».
    assert allowed("l-or-des-dragons", {"magic_item_cards": 1}) == {"": (3, 4, 5, 6), "advanced": ()}
    assert allowed("l-or-des-dragons", {"adventurer_cards": 1}) == {"": (3, 4, 5), "advanced": (3, 4, 5)}
    assert allowed("l-or-des-dragons", {"tokens_silver": 1}) == {"": (), "advanced": ()}
    assert allowed("l-or-des-dragons", {"bag": 1}) == {"": (3, 4, 5, 6), "advanced": (3, 4, 5, 6)}


def test_luxor_adventurers_per_colour():
    # « 20 aventuriers (5 par couleur), 4 marqueurs de score »: one missing spoils a colour.
    assert allowed("luxor", {"adventurers": 1}) == {"": (2, 3)}
    assert allowed("luxor", {"keys": 1}) == {"": ()}


def test_marrakech_a_colour_short_of_carpets_stays_in_the_box():
    # « 60 tapis textile (4 séries de 15) »: 12 per colour at 2 and 4 players, 15 for 3 colours at 3.
    assert allowed("marrakech", {"carpets_1": 3}) == {"": (2, 3, 4)}
    assert allowed("marrakech", {"carpets_1": 4}) == {"": (3,)}
    assert allowed("marrakech", {"carpets_1": 1, "carpets_2": 1}) == {"": (2, 4)}
    # « Chaque joueur reçoit 30 dirhams (5 pièces de 1 et 5 pièces de 5) », 20 of each in the box.
    assert allowed("marrakech", {"coins_5": 5}) == {"": (2, 3)}


def test_martian_dice_needs_its_thirteen_dice():
    # « 13 dés martiens »: every turn starts by throwing all of them.
    assert allowed("martian-dice", {"dice": 1}) == {"": ()}
    assert summary("martian-dice", {}) == "jouable comme un jeu complet"


def test_morgenland_treasure_series_by_table_size():
    # « 45 cartes trésor (3 séries de 15, reconnaissables au verso qui montre 3, 4 ou 5 personnages) ».
    assert allowed("morgenland", {"treasure_cards_5": 1}) == {"": (3, 4), "full": (3, 4)}
    assert allowed("morgenland", {"treasure_cards": 1}) == {"": (), "full": ()}
    # The full game uses as many copies of each object as players, the base game all 30 (and 21 magic cards).
    assert allowed("morgenland", {"magic_objects": 1}) == {"": (), "full": (3, 4)}
    assert allowed("morgenland", {"magic_cards": 1}) == {"": (3, 4, 5), "full": ()}


def test_quarto_needs_all_sixteen_pieces():
    # « 16 pièces différentes »: each one a combination of the four characters.
    assert allowed("quarto", {"pieces": 1}) == {"": ()}


def test_railroad_ink_boards_per_player_and_each_expansion_its_dice():
    # « 6 plateaux effaçables et 6 feutres ; 4 dés Route ; 4 dés d'extension (2 par extension) ».
    found = allowed("railroad-ink", {"boards": 2, "dice_lava": 1})
    assert found[""] == found["river"] == found["meteor"] == (1, 2, 3, 4)
    assert found["lava"] == ()
    assert allowed("railroad-ink", {"route_dice": 1})[""] == ()


def test_the_builders_coins_for_ten_ecus_each():
    # « Chaque joueur reçoit 10 écus » (1 gold coin of 5 and 5 silver of 1); 15 gold, 25 silver in the box.
    assert allowed("the-builders", {"silver_coins": 10}) == {"": (2, 3)}
    assert allowed("the-builders", {"worker_cards": 1}) == {"": ()}


def test_a_piece_the_engine_does_not_know_allows_nothing():
    game = get_game("quarto")
    result = playable_with(components_of(game), game.players, {"no-such-piece": 1})
    assert not result.playable and result.unknown == ("no-such-piece",)
    unlinked = playable_with(components_of(game), game.players, {}, unknown=("boîte",))
    assert not unlinked.playable
    assert str(unlinked.summary()) == "pas jouable avec les pièces qui restent"


# --- properties, every game ---------------------------------------------------------------------------


@pytest.mark.parametrize("slug", sorted(ALL))
def test_a_complete_box_allows_every_way_at_every_count(slug):
    game = ALL[slug]
    pieces = components_of(game)
    result = playable_with(pieces, game.players, {})
    assert result.complete
    for way, counts in result.allowed:
        span = way.players or game.players
        assert counts == tuple(range(span.minimum, span.highest + 1)), way
    # Every key a table needs is a piece of the box, never more than the box holds.
    box = pieces.keys
    for way in pieces.ways:
        for players in range(game.players.minimum, game.players.highest + 1):
            for key, need in pieces.needs(players, way.slug).items():
                assert key in box and not box[key].covers and need <= box[key].in_box, (way, players, key)


def missing_sets(slug):
    pieces = components_of(ALL[slug])
    keys = {piece.key: piece.in_box for piece in pieces.pieces}
    return st.dictionaries(
        st.sampled_from(sorted(keys)), st.integers(min_value=0, max_value=30), max_size=4
    ).map(lambda missing: {key: min(count, keys[key]) for key, count in missing.items()})


def covers(smaller, larger) -> bool:
    """Whether every (way, count) of `smaller` is also in `larger`."""
    wider = {way.slug: set(counts) for way, counts in larger}
    return all(set(counts) <= wider[way.slug] for way, counts in smaller)


@pytest.mark.parametrize("slug", sorted(ALL))
@settings(max_examples=40, deadline=None)
@given(data=st.data())
def test_fewer_missing_pieces_never_allow_less(slug, data):
    game = ALL[slug]
    pieces = components_of(game)
    more = data.draw(missing_sets(slug))
    fewer = {key: data.draw(st.integers(min_value=0, max_value=count)) for key, count in more.items()}
    with_more = playable_with(pieces, game.players, more).allowed
    with_fewer = playable_with(pieces, game.players, fewer).allowed
    assert covers(with_more, with_fewer)
    assert covers(with_fewer, playable_with(pieces, game.players, {}).allowed)
    # What the desk reads renders, whatever is missing.
    assert str(playable_with(pieces, game.players, more).summary()).startswith(("jouable", "pas jouable"))
