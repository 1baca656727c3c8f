"""The score sheet every title has: one row per round, a total, the highest (or lowest) wins, ties shared."""

import re

import pytest
from django.urls import reverse

from catalogue import registry
from catalogue.models import Game
from rules.declared.sheets import LineDeclaration, declared_sheet_create
from rules.models import RulePage, Winning
from tests.conftest import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def skyjo(db) -> RulePage:
    game = Game.objects.create(title="Skyjo", slug="skyjo", players_min=2, players_max=8)
    registry.catalogued([game.pk])
    return RulePage.objects.get(game=game)


def score(client, slug: str, players: list) -> tuple[int, dict]:
    body = {
        "players": [
            {"name": name, "rounds": [{"points": points} for points in rounds]} for name, rounds in players
        ]
    }
    response = client.post(f"/api/rules/{slug}/score/", body, content_type="application/json")
    return response.status_code, response.json()


def test_the_highest_total_wins_by_default(client, skyjo):
    status, result = score(client, skyjo.slug, [("Alice", [10, 5]), ("Bruno", [3, 20]), ("Chloé", [12])])
    assert status == 200
    assert [(player["name"], player["total"], player["rank"]) for player in result["players"]] == [
        ("Alice", 15, 2),
        ("Bruno", 23, 1),
        ("Chloé", 12, 3),
    ]
    assert result["winners"] == ["Bruno"]
    page = client.get(f"/api/rules/{skyjo.slug}/").json()
    assert page["features"] == ["score"] and page["players"] == {"min": 2, "max": 8}


def test_the_lowest_total_wins_when_the_title_says_so(client, skyjo):
    skyjo.sheet_winning = Winning.LOWEST
    skyjo.save()
    status, result = score(client, skyjo.slug, [("Alice", [10, -5]), ("Bruno", [3, 20])])
    assert status == 200
    assert result["winners"] == ["Alice"]
    assert [player["rank"] for player in result["players"]] == [1, 2]


def test_players_with_the_same_total_share_the_win(client, skyjo):
    status, result = score(client, skyjo.slug, [("Alice", [4, 4]), ("Bruno", [8]), ("Chloé", [1])])
    assert status == 200
    assert result["winners"] == ["Alice", "Bruno"]
    assert [player["rank"] for player in result["players"]] == [1, 1, 3]
    assert "se partagent la victoire" in result["explanation"]


def test_bad_input_gets_a_400_with_a_message_per_field(client, skyjo):
    url = f"/api/rules/{skyjo.slug}/score/"
    body = {"players": [{"name": "Alice", "rounds": [{"points": "x"}]}, {"name": "", "rounds": []}]}
    response = client.post(url, body, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "players.0.rounds.0.points": ["Saisissez un nombre entier."],
        "players.1.name": ["Chaque joueur doit avoir un nom."],
    }
    status, errors = score(client, skyjo.slug, [(f"J{n}", [1]) for n in range(9)])
    assert status == 400 and errors == {"players": ["Ce jeu se joue de 2 à 8 joueurs."]}
    response = client.post(url, "{", content_type="application/json")
    assert response.status_code == 400 and "non_field_errors" in response.json()
    english = client.post(url, body, content_type="application/json", headers={"Accept-Language": "en"})
    assert english.json()["players.0.rounds.0.points"] == ["Enter a whole number."]


def test_the_page_s_sheet_scores_round_by_round(client, skyjo):
    url = reverse("rules:score-sheet", args=[skyjo.slug])
    data = {
        "players": "2",
        "players.0.name": "Alice",
        "players.1.name": "Bruno",
        "players.0.rounds._slots": "2",
        "players.1.rounds._slots": "2",
        "players.0.rounds.0.points": "7",
        "players.0.rounds.1.points": "-2",
        "players.1.rounds.0.points": "1",
    }
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Victoire : Alice" in text_of(response)
    live = client.post(url, data, headers={"Accept": "application/json"})
    assert live.json()["winners"] == ["Alice"]
    data["players.1.rounds.0.points"] = "un"
    live = client.post(url, data, headers={"Accept": "application/json"})
    assert live.status_code == 400 and live.json() == {
        "players.1.rounds.0.points": ["Saisissez un nombre entier."]
    }


def unmasked(html: str) -> str:
    """The page without its CSRF tokens (masked afresh for each request)."""
    return re.sub(r'name="csrfmiddlewaretoken" value="[^"]+"', "", html)


def test_the_page_s_blank_sheet_follows_the_notice_the_language_and_what_was_typed(client, skyjo):
    """An unbound default sheet is kept once drawn (the same for every reader): it must still follow
    a change of the notice's players, the reader's language, and never stand for a typed sheet."""
    page = reverse("rules:page-detail", args=[skyjo.slug])
    first = client.get(page).content.decode()  # a table of three, within the notice's 2 to 8
    assert 'name="players.2.name"' in first and 'name="players.3.name"' not in first
    again = client.get(page).content.decode()  # drawn from the cache, with this request's own CSRF token
    assert unmasked(again) == unmasked(first) and 'name="csrfmiddlewaretoken"' in again
    # Another title of the same range shares the blank sheet, its buttons naming its own page.
    uno = Game.objects.create(title="Uno", slug="uno", players_min=2, players_max=8)
    registry.catalogued([uno.pk])
    other = client.get(reverse("rules:page-detail", args=["uno"])).content.decode()
    assert reverse("rules:score-print", args=["uno"]) in other
    assert reverse("rules:score-print", args=[skyjo.slug]) not in other
    game = skyjo.game
    game.players_min = 4  # the librarian corrects the notice: from four players
    game.save()
    corrected = client.get(page).content.decode()
    assert 'name="players.3.name"' in corrected and 'name="players.4.name"' not in corrected
    english = client.get(page, headers={"Accept-Language": "en"}).content.decode()
    assert "Points of each round" in english and "Points de chaque manche" not in english
    assert "Points de chaque manche" in corrected
    typed = client.post(
        reverse("rules:score-sheet", args=[skyjo.slug]), {"players": "4", "players.0.name": "Alice"}
    )
    assert 'value="Alice"' in typed.content.decode()
    assert 'value="Alice"' not in client.get(page).content.decode()


def test_the_blank_pad_prints_a_column_per_player_and_a_row_per_round(client, skyjo):
    response = client.get(reverse("rules:score-pad", args=[skyjo.slug]), {"players": 5})
    assert response.status_code == 200
    text = text_of(response)
    assert "Manche 1" in text and "Manche 8" in text
    # A cell per player and round (each labelled for screen readers), under the heading « Points de chaque manche ».
    assert text.count("Points") == 5 * 8 + 1
    assert "Les joueurs à égalité se partagent la victoire." in text
    assert client.get(reverse("rules:score-pad", args=[skyjo.slug]), {"players": 9}).status_code == 400


def test_a_librarian_declares_that_the_lowest_wins_on_the_staff_page(client, skyjo, staff_user):
    url = reverse("rules:workshop", args=[skyjo.slug])
    client.force_login(staff_user)
    assert client.post(url, {"sheet_winning": "nobody"}).status_code == 400
    assert client.post(url, {"sheet_winning": "lowest"}).status_code == 302
    assert "Le plus petit total gagne." in text_of(
        client.get(reverse("rules:score-sheet", args=[skyjo.slug]))
    )


def test_a_declared_sheet_takes_the_place_of_the_default_one(client, skyjo):
    declared_sheet_create(game=skyjo.game, lines=[LineDeclaration("cartes", "Cartes", 2)])
    response = client.post(
        f"/api/rules/{skyjo.slug}/score/",
        {"players": [{"name": "A", "cartes": 3}, {"name": "B", "cartes": 1}]},
        content_type="application/json",
    )
    assert response.status_code == 200 and response.json()["winners"] == ["A"]
    status, errors = score(client, skyjo.slug, [("A", [1]), ("B", [2])])
    assert status == 400 and "players.0.rounds" in errors


def test_a_declared_sheet_starts_from_the_default_one_s_winner(client, skyjo, staff_user):
    skyjo.sheet_winning = Winning.LOWEST
    skyjo.save()
    client.force_login(staff_user)
    response = client.get(reverse("admin:rules_declaredsheet_add"), {"game": skyjo.game_id})
    assert response.status_code == 200
    assert 'value="lowest" checked' in response.content.decode() or (
        '<option value="lowest" selected>' in response.content.decode()
    )


def test_the_page_s_prepared_read_gives_what_its_queryset_gives(skyjo, settings):
    # The rules page, sheet and pad read the page, its notice's copies and its declarations in one
    # prepared statement (ludotheque/prepared.py), and its current revision in another.
    from catalogue.models import Copy, Location
    from rules.declared.sheets import declared_page

    site = Location.objects.create(name="Ixelles")
    Copy.objects.create(game=skyjo.game, barcode="SKY-1", location=site)
    Copy.objects.create(game=skyjo.game, barcode="SKY-2", location=site, status=Copy.Status.IN_REPAIR)
    prepared = declared_page("skyjo")
    prepared_revision = RulePage.objects.get(pk=skyjo.pk).current_revision
    settings.PREPARED_READS = False
    plain = declared_page("skyjo")
    plain_revision = RulePage.objects.get(pk=skyjo.pk).current_revision
    assert (prepared.pk, prepared.title, prepared.game_id) == (plain.pk, plain.title, plain.game_id)
    assert (prepared.game.copies_count, prepared.game.available_count) == (2, 1)
    assert (plain.game.copies_count, plain.game.available_count) == (2, 1)
    assert prepared_revision == plain_revision
    assert prepared_revision.sections == plain_revision.sections
    assert declared_page("no-such-page") is None
