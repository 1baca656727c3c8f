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
from rules.declared.files import DECLARED_DIR, declared_file_load, declared_files_load, read_file
from rules.services import game_rules

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
    assert len(FILES) >= 6
    for path in FILES:
        data = read_file(path)
        rules = game_rules(titles[path.stem])
        assert rules is not None, path.name
        assert rules.features == ["setup", *(["score"] if "score" in data else [])], path.name
        assert (rules.players.minimum, rules.players.maximum) == (
            data["players"]["min"],
            data["players"]["max"],
        )
    before = _row_counts()
    out = StringIO()
    call_command("load_declared_rules", stdout=out)
    assert _row_counts() == before
    assert out.getvalue().count("already declared, kept") == len(FILES)


def test_every_file_cites_its_publisher_and_every_title_is_catalogued_once(titles):
    for path in FILES:
        data = read_file(path)
        assert all(len(source) > 40 for source in data["sources"]), path.name
    assert Game.objects.count() == len(FILES)


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
]


@pytest.mark.parametrize(("slug", "players", "totals", "winners"), EXAMPLES, ids=[e[0] for e in EXAMPLES])
def test_a_game_worked_by_hand_scores_the_same_through_the_api(db, slug, players, totals, winners):
    result = score(title(slug), players)
    assert {player["name"]: player["total"] for player in result["players"]} == totals
    assert result["winners"] == winners


def test_every_title_with_a_score_sheet_has_a_worked_example():
    scored = {path.stem for path in FILES if "score" in json.loads(path.read_text())}
    assert scored == {example[0] for example in EXAMPLES}


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
