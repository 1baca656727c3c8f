"""The popular titles shipped as declared rules (fixtures/declared/*.json): each loads, sets up and scores.

Every scoring example below was worked by hand from the publisher's scoring rule, cited above it
(the same source as the file's `sources`); the API must find the same totals and the same winner.
"""

import json
from io import StringIO

import pytest
from django.apps import apps
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from catalogue.models import Game
from rules.declared.demo import DEMO_FILES
from rules.declared.files import DECLARED_DIR, declared_file_load, declared_files_load, read_file
from rules.services import game_rules
from tests.conftest import text_of

FILES = sorted(DECLARED_DIR.glob("*.json"))


@pytest.fixture
def titles(db) -> dict[str, str]:
    """Every shipped file loaded as `load_declared_rules` does; the file's slug → its rules page's slug."""
    report = declared_files_load()
    assert report.errors == []
    return {
        path.stem: Game.objects.get(title__iexact=read_file(path)["title"]).rules_page.slug for path in FILES
    }


def title(slug: str) -> str:
    """Load one shipped file (fixtures/declared/<slug>.json); its rules page's slug."""
    page_slug, written = declared_file_load(DECLARED_DIR / f"{slug}.json")
    assert written
    return page_slug


def score(slug: str, players: list[tuple[str, dict]]) -> dict:
    body = {"players": [{"name": name, **fields} for name, fields in players]}
    response = Client().post(
        reverse("rules-score", args=[slug]), json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response.json()


def setup(slug: str, players: int, variants: str = "") -> dict:
    response = Client().get(f"/api/rules/{slug}/setup/", {"players": players, "variants": variants})
    assert response.status_code == 200, response.content
    return response.json()


def _row_counts() -> dict[str, int]:
    return {model._meta.label: model._default_manager.count() for model in apps.get_models()}


# --- every file ---------------------------------------------------------------------------------------


def test_every_file_loads_its_title_with_a_setup_and_runs_again_without_change(titles):
    assert len(FILES) >= 20
    for path in FILES:
        data = read_file(path)
        rules = game_rules(titles[path.stem])
        assert rules is not None, path.name
        # A file without a sheet still gets one: the default sheet by rounds (rules/default_sheet.py).
        assert rules.features == ["setup", "score"], path.name
        assert (rules.players.minimum, rules.players.maximum) == (
            data["players"]["min"],
            data["players"]["max"],
        )
    before = _row_counts()
    out = StringIO()
    call_command("load_declared_rules", stdout=out)
    assert _row_counts() == before
    assert out.getvalue().count("already declared, kept") == len(FILES)


def test_every_player_count_of_every_title_gets_a_setup(titles):
    for path in FILES:
        rules = game_rules(titles[path.stem])
        for players in range(rules.players.minimum, rules.players.highest + 1):
            data = setup(titles[path.stem], players)
            assert data["steps"], (path.name, players)


# --- one game of each title, worked by hand ----------------------------------------------------------

EXAMPLES = [
    # Dobble, Play Factory (2009), « La tour infernale »: whoever holds the most cards when the centre
    # pile is empty wins. 3 players, 55 cards: 21 + 18 + 16.
    (
        "dobble",
        [("Alice", {"cards": 21}), ("Bruno", {"cards": 18}), ("Claire", {"cards": 16})],
        {"Alice": 21, "Bruno": 18, "Claire": 16},
        ["Alice"],
    ),
    # UNO, Mattel, décompte: the round's winner scores the cards left in the others' hands. Bruno holds
    # 7, 3 and a Passe, Claire a 9 and a Joker +4: Alice scores 7 + 3 + 9 + 20 + 50 = 89.
    (
        "uno",
        [("Alice", {"numbers": 19, "actions": 1, "wilds": 1}), ("Bruno", {}), ("Claire", {})],
        {"Alice": 89, "Bruno": 0, "Claire": 0},
        ["Alice"],
    ),
    # Jungle Speed, Asmodee, but du jeu: the first player left without cards wins.
    (
        "jungle-speed",
        [("Alice", {"cards": 0}), ("Bruno", {"cards": 14}), ("Claire", {"cards": 9})],
        {"Alice": 0, "Bruno": 14, "Claire": 9},
        ["Alice"],
    ),
    # Carcassonne, Hans im Glück (2000), décompte. Alice: roads 7 tiles (7), cities 8 tiles and
    # 2 shields (16 + 4), one cloister (9), two cities next to her fields (6) = 42. Bruno: a road of 4 (4),
    # cities 12 tiles and 3 shields (24 + 6); at the end an open city of 3 tiles and 1 shield (3 + 1)
    # and an open cloister with 5 neighbours (6) = 44.
    (
        "carcassonne",
        [
            (
                "Alice",
                {"roads_done": 7, "cities_done": 8, "shields_done": 2, "cloisters_done": 1, "farms": 2},
            ),
            (
                "Bruno",
                {
                    "roads_done": 4,
                    "cities_done": 12,
                    "shields_done": 3,
                    "cities_open": 3,
                    "shields_open": 1,
                    "cloisters_open": 6,
                },
            ),
        ],
        {"Alice": 42, "Bruno": 44},
        ["Bruno"],
    ),
    # Azul, Plan B Games (2017), fin de partie et égalité. Alice: 58 − 9 + 2×2 + 7 + 10 = 70;
    # Bruno: 65 − 4 + 2 + 7 = 70; tied, Alice has more complete horizontal lines (2 against 1).
    (
        "azul",
        [
            ("Alice", {"placed": 58, "floor": 9, "rows": 2, "columns": 1, "colours": 1}),
            ("Bruno", {"placed": 65, "floor": 4, "rows": 1, "columns": 1}),
        ],
        {"Alice": 70, "Bruno": 70},
        ["Alice"],
    ),
    # Kingdomino, Blue Orange (2016), décompte et égalité: tied at 40, the larger property wins.
    (
        "kingdomino",
        [
            ("Alice", {"prestige": 40, "largest": 12, "crowns": 6}),
            ("Bruno", {"prestige": 40, "largest": 15, "crowns": 5}),
        ],
        {"Alice": 40, "Bruno": 40},
        ["Bruno"],
    ),
    # Splendor, Space Cowboys (2014), fin de partie et égalité: a Noble is worth 3. Alice 12 + 3 = 15 with
    # 14 cards bought, Bruno 9 + 2×3 = 15 with 12: tied, the fewer cards wins.
    (
        "splendor",
        [
            ("Alice", {"cards": 12, "nobles": 1, "card_count": 14}),
            ("Bruno", {"cards": 9, "nobles": 2, "card_count": 12}),
            ("Claire", {"cards": 10, "card_count": 11}),
        ],
        {"Alice": 15, "Bruno": 15, "Claire": 10},
        ["Bruno"],
    ),
    # Skyjo, Magilano (2015), décompte: the sum of the cards, the lowest wins. Alice 14 − 1 − 2 = 11,
    # Bruno 9 − 2×2 = 5, Claire 22 (the round closer's doubling is written by hand: see the file's limits).
    (
        "skyjo",
        [
            ("Alice", {"positive": 14, "minus_one": 1, "minus_two": 1}),
            ("Bruno", {"positive": 9, "minus_two": 2}),
            ("Claire", {"positive": 22}),
        ],
        {"Alice": 11, "Bruno": 5, "Claire": 22},
        ["Bruno"],
    ),
    # Takenoko, Bombyx (2011), fin de partie: Alice 14 + 10 + 8 + the Emperor's 2 = 34; Bruno 12 + 10 + 12
    # = 34; tied, Bruno scored more with his Panda objectives (12 against 8).
    (
        "takenoko",
        [
            ("Alice", {"plot": 14, "gardener": 10, "panda": 8, "emperor": 1}),
            ("Bruno", {"plot": 12, "gardener": 10, "panda": 12}),
        ],
        {"Alice": 34, "Bruno": 34},
        ["Bruno"],
    ),
    # Dixit, Libellud (2008), décompte, one turn at 4: Alice tells, Bruno finds her card, Claire votes for
    # Bruno's, David for Claire's. Alice 3, Bruno 3 + 1 vote = 4, Claire 1 vote, David 0.
    (
        "dixit",
        [
            ("Alice", {"told": 1}),
            ("Bruno", {"found": 1, "votes": 1}),
            ("Claire", {"votes": 1}),
            ("David", {}),
        ],
        {"Alice": 3, "Bruno": 4, "Claire": 1, "David": 0},
        ["Bruno"],
    ),
    # Qwirkle, MindWare (2006), décompte: Alice 98 + 2 Qwirkles × 6 + 6 for going out = 116; Bruno 104 + 6 = 110.
    (
        "qwirkle",
        [("Alice", {"lines": 98, "qwirkles": 2, "finished": 1}), ("Bruno", {"lines": 104, "qwirkles": 1})],
        {"Alice": 116, "Bruno": 110},
        ["Alice"],
    ),
    # Love Letter, AEG (2012), victoire: at 3 players the first to 5 tokens of affection wins.
    (
        "love-letter",
        [("Alice", {"tokens": 5}), ("Bruno", {"tokens": 3}), ("Claire", {"tokens": 4})],
        {"Alice": 5, "Bruno": 3, "Claire": 4},
        ["Alice"],
    ),
    # Small World, Days of Wonder (2009), fin de partie: the most victory coins wins.
    (
        "small-world",
        [("Alice", {"coins": 87}), ("Bruno", {"coins": 92}), ("Claire", {"coins": 79})],
        {"Alice": 87, "Bruno": 92, "Claire": 79},
        ["Bruno"],
    ),
    # Sushi Go!, Gamewright (2013), décompte et égalité. Alice: makis 9, 2 tempura pairs 10, a sashimi
    # set 10, dumplings 10, 2 salmon 4, a squid on wasabi 9, most puddings 6 = 58. Bruno: 6 + 15 + 15 + 2
    # eggs 2 + a salmon on wasabi 6 + 2 squid 6 − fewest puddings 6 = 44. Claire: 3 sashimi sets 30,
    # dumplings 6, 3 squid 9, 4 salmon 8, makis 3, 2 eggs 2 = 58. Alice and Claire tie: Alice has more
    # puddings (4 against 2).
    (
        "sushi-go",
        [
            (
                "Alice",
                {
                    "maki": 9,
                    "tempura": 2,
                    "sashimi": 1,
                    "dumplings": 10,
                    "salmon": 2,
                    "squid_wasabi": 1,
                    "pudding_most": 6,
                    "puddings": 4,
                },
            ),
            (
                "Bruno",
                {
                    "maki": 6,
                    "tempura": 3,
                    "dumplings": 15,
                    "egg": 2,
                    "salmon_wasabi": 1,
                    "squid": 2,
                    "pudding_fewest": 6,
                    "puddings": 1,
                },
            ),
            (
                "Claire",
                {"sashimi": 3, "dumplings": 6, "squid": 3, "salmon": 4, "maki": 3, "egg": 2, "puddings": 2},
            ),
        ],
        {"Alice": 58, "Bruno": 44, "Claire": 58},
        ["Alice"],
    ),
    # Cortex Challenge, Captain Macaque (2016), but: the first to complete a brain of 4 pieces wins.
    (
        "cortex-challenge",
        [("Alice", {"pieces": 4}), ("Bruno", {"pieces": 2}), ("Claire", {"pieces": 3})],
        {"Alice": 4, "Bruno": 2, "Claire": 3},
        ["Alice"],
    ),
]


@pytest.mark.parametrize(("slug", "players", "totals", "winners"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_a_game_worked_by_hand_scores_the_same_through_the_api(db, slug, players, totals, winners):
    result = score(title(slug), players)
    assert {player["name"]: player["total"] for player in result["players"]} == totals
    assert result["winners"] == winners


def score_body(slug: str, body: dict) -> dict:
    response = Client().post(
        reverse("rules-score", args=[slug]), json.dumps(body), content_type="application/json"
    )
    assert response.status_code == 200, response.content
    return response.json()


# Titles won together, by teams or by sides (score.play): the sheet's columns, the lines written once
# for the table, or each player's role.
PLAYED_TOGETHER_OR_IN_TEAMS = {"hanabi", "pandemic", "codenames", "time-s-up", "bang"}


def test_hanabi_the_table_shares_the_sum_of_its_highest_cards(db):
    # Hanabi, Les XII Singes (2010), décompte: the score is the sum of the highest card laid in each of
    # the five colours, for the whole team. White up to 4, blue 3, green 5, yellow 2, red 4: 18.
    result = score_body(
        title("hanabi"),
        {
            "players": [{"name": "Alice"}, {"name": "Bruno"}, {"name": "Claire"}],
            "white": 4,
            "blue": 3,
            "green": 5,
            "yellow": 2,
            "red": 4,
        },
    )
    assert {player["name"]: player["total"] for player in result["players"]} == {
        "Alice": 18,
        "Bruno": 18,
        "Claire": 18,
    }
    assert result["winners"] == ["Alice", "Bruno", "Claire"]
    assert result["explanation"] == "Toute la table marque 18 points."


def test_pandemic_all_win_with_four_cures_and_all_lose_at_the_eighth_outbreak(db):
    # Pandemic, Z-Man Games (2013), fin de partie: the players win together as soon as the 4 cures are
    # discovered; they all lose at the 8th outbreak, when a colour's cubes run out or the player deck does.
    slug = title("pandemic")
    players = [{"name": "Alice"}, {"name": "Bruno"}]
    won = score_body(slug, {"players": players, "cures": 4})
    assert won["winners"] == ["Alice", "Bruno"]
    assert won["explanation"] == "Toute la table gagne la partie avec 4 points."
    lost = score_body(slug, {"players": players, "cures": 3, "outbreaks": True})
    assert lost["winners"] == []
    assert lost["explanation"] == "La table perd la partie : 8e éclosion."
    short = score_body(slug, {"players": players, "cures": 2})
    assert short["winners"] == []


def test_codenames_the_team_that_finds_all_its_agents_wins_unless_it_touched_the_assassin(db):
    # Codenames, Czech Games Edition (2015), fin de partie: the first team whose agents are all found wins
    # (the starting team has 9, the other 8); a team that points to the assassin loses at once.
    slug = title("codenames")
    done = score_body(
        slug, {"players": [{"name": "Rouges", "agents_left": 0}, {"name": "Bleus", "agents_left": 3}]}
    )
    assert done["winners"] == ["Rouges"]
    assassin = score_body(
        slug,
        {
            "players": [
                {"name": "Rouges", "agents_left": 2, "assassin": True},
                {"name": "Bleus", "agents_left": 5},
            ]
        },
    )
    assert assassin["winners"] == ["Bleus"]
    assert [player["eliminated"] for player in assassin["players"]] == [True, False]


def test_time_s_up_the_team_with_most_cards_over_three_rounds_wins(db):
    # Time's Up!, Repos Production, décompte: 1 point per card found, the 40 cards of each of the three
    # rounds shared between the teams; the most points over the three rounds wins.
    # Team 1: 22 + 19 + 23 = 64; team 2: 18 + 21 + 17 = 56.
    result = score_body(
        title("time-s-up"),
        {
            "players": [
                {"name": "Équipe des As", "round_1": 22, "round_2": 19, "round_3": 23},
                {"name": "Les Mimes", "round_1": 18, "round_2": 21, "round_3": 17},
            ]
        },
    )
    assert {player["name"]: player["total"] for player in result["players"]} == {
        "Équipe des As": 64,
        "Les Mimes": 56,
    }
    assert result["winners"] == ["Équipe des As"]


def test_bang_the_side_whose_condition_holds_wins_with_its_dead(db):
    # Bang!, dV Giochi (2002), but du jeu. At 5: a Sheriff, a Deputy, 2 Outlaws, a Renegade. The Outlaws
    # and the Renegade all out: the Sheriff and his Deputy win, the Deputy although shot.
    slug = title("bang")

    def table(*dealt):
        return {"players": [{"name": name, "role": role, "out": out} for name, role, out in dealt]}

    law = score_body(
        slug,
        table(
            ("Alice", "sheriff", False),
            ("Bruno", "deputy", True),
            ("Claire", "outlaw", True),
            ("David", "outlaw", True),
            ("Emma", "renegade", True),
        ),
    )
    assert law["winners"] == ["Alice", "Bruno"]
    # The Sheriff shot while an Outlaw is still in: the Outlaws win, both of them.
    outlaws = score_body(
        slug,
        table(
            ("Alice", "sheriff", True),
            ("Bruno", "deputy", True),
            ("Claire", "outlaw", False),
            ("David", "outlaw", True),
            ("Emma", "renegade", False),
        ),
    )
    assert outlaws["winners"] == ["Claire", "David"]
    # The Renegade last in, the Sheriff shot last: the Renegade alone wins.
    renegade = score_body(
        slug,
        table(
            ("Alice", "sheriff", True),
            ("Bruno", "outlaw", True),
            ("Claire", "outlaw", True),
            ("David", "renegade", False),
        ),
    )
    assert renegade["winners"] == ["David"]


def test_bang_refuses_a_deal_that_is_not_the_rule_s_and_a_game_still_going_on(db):
    slug = title("bang")
    url = reverse("rules-score", args=[slug])
    four_outlaws = {
        "players": [
            {"name": name, "role": role, "out": False}
            for name, role in [("A", "sheriff"), ("B", "outlaw"), ("C", "outlaw"), ("D", "outlaw")]
        ]
    }
    response = Client().post(url, json.dumps(four_outlaws), content_type="application/json")
    assert response.status_code == 400
    assert response.json()["players"] == [
        "À 4 joueurs, les rôles sont : 1 × Shérif, 2 × Hors-la-loi, 1 × Renégat."
    ]
    going_on = {
        "players": [
            {"name": name, "role": role, "out": False}
            for name, role in [("A", "sheriff"), ("B", "outlaw"), ("C", "outlaw"), ("D", "renegade")]
        ]
    }
    response = Client().post(url, json.dumps(going_on), content_type="application/json")
    assert response.status_code == 400
    assert "Aucun camp n'a encore gagné" in response.json()["players"][0]


def test_every_title_with_a_score_sheet_has_a_worked_example():
    scored = {path.stem for path in FILES if "score" in json.loads(path.read_text())}
    assert scored == {example[0] for example in EXAMPLES} | PLAYED_TOGETHER_OR_IN_TEAMS


# --- setups at two player counts, from the published rules ---------------------------------------------


def components(data: dict) -> dict[str, int]:
    return {component["name"]: component["count"] for component in data["components"]}


def test_azul_puts_out_five_factories_at_two_and_nine_at_four(db):
    # Azul, Plan B Games (2017), préparation: 5 factories at 2 players, 7 at 3, 9 at 4.
    slug = title("azul")
    assert components(setup(slug, 2))["Fabriques"] == 5
    assert components(setup(slug, 4))["Fabriques"] == 9
    assert setup(slug, 3)["values"]["first_player"] == "le dernier à avoir visité le Portugal"


def test_uno_deals_seven_cards_to_each_player_at_two_and_at_ten(db):
    # UNO, Mattel, préparation: 7 cards to each player, whatever their number.
    slug = title("uno")
    assert components(setup(slug, 2))["Cartes"] == 14
    assert components(setup(slug, 10))["Cartes"] == 70


def test_splendor_keeps_four_gems_of_a_colour_and_three_nobles_at_two_and_all_at_four(db):
    # Splendor, Space Cowboys (2014), mise en place: 3 gems of each colour out at 2 players, none at 4;
    # one Noble more than the players; the 5 gold tokens always.
    slug = title("splendor")
    two, four = components(setup(slug, 2)), components(setup(slug, 4))
    assert (two["Jetons Gemme (5 couleurs)"], two["Tuiles Noble"], two["Jetons Or"]) == (20, 3, 5)
    assert (four["Jetons Gemme (5 couleurs)"], four["Tuiles Noble"], four["Jetons Or"]) == (35, 5, 5)


def test_sushi_go_deals_ten_cards_each_at_two_and_seven_at_five(db):
    # Sushi Go!, Gamewright (2013), préparation: 10, 9, 8, 7 cards at 2, 3, 4, 5 players.
    slug = title("sushi-go")
    assert components(setup(slug, 2))["Cartes"] == 20
    assert components(setup(slug, 5))["Cartes"] == 35


def test_bang_hands_out_the_roles_for_four_and_for_seven(db):
    # Bang!, dV Giochi (2002), préparation: 4 players, Sheriff, Renegade, 2 Outlaws; 7 players, Sheriff,
    # Renegade, 3 Outlaws, 2 Deputies.
    slug = title("bang")
    roles = ("Shérif", "Renégat", "Hors-la-loi", "Adjoints")
    four, seven = components(setup(slug, 4)), components(setup(slug, 7))
    assert [four.get(role, 0) for role in roles] == [1, 1, 2, 0]
    assert [seven.get(role, 0) for role in roles] == [1, 1, 3, 2]
    assert setup(slug, 5)["values"]["first_player"] == "le Shérif"


def test_hanabi_deals_five_cards_at_three_and_four_at_four(db):
    # Hanabi, Cocktail Games (2010), mise en place: 5 cards each at 2–3 players, 4 at 4–5.
    slug = title("hanabi")
    assert components(setup(slug, 3))["Cartes Feu d'artifice"] == 15
    assert components(setup(slug, 4))["Cartes Feu d'artifice"] == 16


def test_pandemic_deals_by_player_count_and_sets_the_epidemics_by_difficulty(db):
    # Pandemic, Z-Man (2013), mise en place: 4, 3, 2 cards each at 2, 3, 4 players; 4, 5, 6 Epidemics.
    slug = title("pandemic")
    assert components(setup(slug, 2))["Cartes Joueur (Ville et Événement)"] == 8
    assert components(setup(slug, 3))["Cartes Joueur (Ville et Événement)"] == 9
    assert components(setup(slug, 4))["Cartes Épidémie"] == 5
    assert components(setup(slug, 4, "initiation"))["Cartes Épidémie"] == 4
    assert components(setup(slug, 4, "heroique"))["Cartes Épidémie"] == 6


def test_love_letter_sets_aside_four_cards_at_two_and_one_at_three(db):
    # Love Letter, AEG (2012), préparation et victoire: one card aside, three more at 2; 7, 5, 4 tokens to win.
    slug = title("love-letter")
    two, three = setup(slug, 2)["values"], setup(slug, 3)["values"]
    assert (two["cards_removed"], two["tokens_to_win"]) == (4, "7")
    assert (three["cards_removed"], three["tokens_to_win"]) == (1, "5")


def test_the_demo_shows_declared_titles_in_the_catalogue_with_their_rules_page(db, client):
    call_command("load_demo", "--force", stdout=StringIO())
    for name in DEMO_FILES:
        game = Game.objects.get(title__iexact=read_file(DECLARED_DIR / f"{name}.json")["title"])
        page = client.get(reverse("catalogue:game-detail", args=[game.slug])).content.decode()
        assert f'href="/regles/{game.rules_page.slug}/"' in page, name
        assert game_rules(game.rules_page.slug).features == ["setup", "score"], name
    # Azul's rules page: the calculator for 3 players puts out 7 factories.
    response = client.get(reverse("rules:setup", args=["azul"]), {"players": 3}, follow=True)
    assert "Disposez 7 fabriques en cercle" in response.content.decode()


def test_a_declared_title_s_rules_page_cites_where_its_numbers_come_from(db, client):
    slug = title("azul")
    source = read_file(DECLARED_DIR / "azul.json")["sources"][0]
    text = text_of(client.get(reverse("rules:page-detail", args=[slug])))
    assert "Sources La mise en place et le décompte de cette page viennent de :" in text
    assert source in text
    # A title with no declared source (the default sheet only) says nothing of the kind.
    game = Game.objects.create(title="Sans source", slug="sans-source", players_min=2, players_max=4)
    generate = client.get(reverse("rules:page-detail", args=[game.slug]), follow=True)
    assert generate.status_code == 200 and "viennent de" not in text_of(generate)
