"""Printable aids: setup aid, blank score pad and filled sheet print on ONE A4 page, for every game.

Each game is printed at its largest table (games with no maximum at 8 players) with each largest set of
variants that combine, through headless Chromium's print to PDF.
"""

from itertools import combinations
from urllib.parse import urlencode

import pytest
from django.urls import reverse

from rules.engine import MISSING, Boolean, Choice, Group, Integer, ListOf
from rules.games import all_games
from tests.conftest import pdf_page_count

NO_MAXIMUM_CAP = 8


def largest_table(game) -> int:
    return game.players.maximum or NO_MAXIMUM_CAP


def variant_sets(game) -> list[tuple[str, ...]]:
    """The largest sets of variants the game accepts together (all of them when they all combine)."""
    slugs = [variant.slug for variant in game.variants]
    found: list[tuple[str, ...]] = []
    for size in range(len(slugs), -1, -1):
        for combo in combinations(slugs, size):
            errors: dict = {}
            game.clean_variants(list(combo), errors)
            if not errors and not any(set(combo) < set(larger) for larger in found):
                found.append(combo)
    return found


def cases(feature: str, scored: bool = False) -> list:
    found = []
    for game in all_games():
        if feature not in game.features:
            continue
        for variants in variant_sets(game):
            if scored and game.score_refusal(frozenset(variants)) is not None:
                continue
            found.append(pytest.param(game, variants, id=f"{game.slug}[{','.join(variants)}]"))
    return found


def filled_sheet(game, players: int, variants: tuple[str, ...]) -> dict:
    """A sheet as the form posts it: every number at its default (or lowest) value, long names."""
    data: dict = {"players": str(players), "variants": list(variants)}

    def fill(fields, prefix):
        for field in fields:
            path = f"{prefix}.{field.name}" if prefix else field.name
            default = None if field.default is MISSING else field.default
            if isinstance(field, Group):
                fill(field.fields, path)
            elif isinstance(field, ListOf):
                if isinstance(field.item, Group):
                    data[f"{path}._slots"] = str(field.min_items)
                    for slot in range(field.min_items):
                        fill(field.item.fields, f"{path}.{slot}")
                elif isinstance(field.item, Choice):
                    data[path] = list(default or field.item.values[:1])
            elif isinstance(field, Boolean):
                continue
            elif isinstance(field, Choice):
                if default is not None or not field.nullable:
                    data[path] = default if default is not None else field.values[0]
            elif isinstance(field, Integer):
                data[path] = str(default if default is not None else (field.minimum or 0))

    frozen = frozenset(variants)
    for index in range(players):
        data[f"players.{index}.name"] = f"Joueuse numéro {index + 1}"
        fill(game.player_fields(frozen), f"players.{index}")
    fill(game.shared_fields(frozen), "")
    return data


def one_page(print_to_pdf, url: str) -> None:
    pdf = print_to_pdf(url)
    assert pdf_page_count(pdf) == 1, url


@pytest.mark.browser
@pytest.mark.parametrize(("game", "variants"), cases("setup"))
def test_the_setup_aid_prints_on_one_page(live_server, transactional_db, print_to_pdf, game, variants):
    query = urlencode({"players": largest_table(game), "variants": ",".join(variants)})
    one_page(print_to_pdf, f"{live_server.url}{reverse('rules:setup-print', args=[game.slug])}?{query}")


@pytest.mark.browser
@pytest.mark.parametrize(("game", "variants"), cases("score", scored=True))
def test_the_blank_score_pad_prints_on_one_page(live_server, transactional_db, print_to_pdf, game, variants):
    query = urlencode({"players": largest_table(game), "variants": ",".join(variants)})
    one_page(print_to_pdf, f"{live_server.url}{reverse('rules:score-pad', args=[game.slug])}?{query}")


@pytest.mark.browser
@pytest.mark.parametrize(("game", "variants"), cases("score", scored=True))
def test_the_filled_sheet_prints_on_one_page(live_server, transactional_db, print_to_pdf, game, variants):
    query = urlencode(filled_sheet(game, largest_table(game), variants), doseq=True)
    one_page(print_to_pdf, f"{live_server.url}{reverse('rules:score-print', args=[game.slug])}?{query}")


# --- what the aids say (no browser needed) ---------------------------------------------------------------


@pytest.mark.django_db
def test_the_setup_aid_names_the_table_variants_and_steps(client):
    response = client.get(
        reverse("rules:setup-print", args=["la-chasse-aux-monstres"]),
        {"players": "4", "variants": "fast,expert", "length": "long"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert "4 joueurs" in html
    assert "Monstres rapides" in html or "rapides" in html
    assert "Durée de la partie : Longue" in html
    assert '<ol class="steps">' in html


@pytest.mark.django_db
def test_the_blank_pad_has_the_sheets_rows_players_as_columns_and_the_tie_break_footnote(client):
    response = client.get(reverse("rules:score-pad", args=["biblios"]), {"players": "4"})
    assert response.status_code == 200
    html = response.content.decode()
    for label in ("Moines", "Manuscrits", "Pigments", "Grimoires interdits", "Livres sacrés"):
        assert f'<th scope="row" colspan="5">{label}</th>' in html
    for label in ("Total des cartes", "Lettre la plus proche de A", "Or restant", "Total"):
        assert f'<th scope="row">{label}</th>' in html
    assert html.count('<th scope="col" class="write-in"></th>') == 4
    assert "départage par l&#x27;or restant, puis la catégorie Moines" in html


@pytest.mark.django_db
def test_the_filled_sheet_shows_results_winner_and_why(client):
    data = {
        "players": "2",
        "players.0.name": "Cédric",
        "players.1.name": "Rodolphe",
        "dice.moines": "5",
        "players.0.categories.moines.total": "9",
        "players.0.categories.moines.best_letter": "C",
        "players.1.categories.moines.total": "9",
        "players.1.categories.moines.best_letter": "B",
    }
    response = client.get(reverse("rules:score-print", args=["biblios"]), data)
    assert response.status_code == 200
    html = response.content.decode()
    assert "<strong>Victoire :</strong> Rodolphe" in html
    assert "Rodolphe gagne avec 5 points." in html
    assert '<th scope="col" class="winner">Rodolphe</th>' in html


@pytest.mark.django_db
def test_a_filled_sheet_that_cannot_be_scored_is_400_with_the_reasons(client):
    data = {"players": "2", "players.0.name": "Ana", "players.1.name": "Ana"}
    response = client.get(reverse("rules:score-print", args=["biblios"]), data)
    assert response.status_code == 400
    assert "Deux joueurs portent le nom « Ana »." in response.content.decode()


@pytest.mark.django_db
@pytest.mark.parametrize(("game", "variants"), cases("score", scored=True))
def test_the_sample_sheets_of_the_print_tests_are_valid(client, game, variants):
    response = client.get(
        reverse("rules:score-print", args=[game.slug]), filled_sheet(game, largest_table(game), variants)
    )
    assert response.status_code == 200, response.content.decode()[-2000:]


@pytest.mark.django_db
def test_the_filled_sheet_can_also_be_posted_from_the_form(client):
    data = {"players": "2", "players.0.name": "Ana", "players.1.name": "Bo", "players.0.gold": "3"}
    response = client.post(reverse("rules:score-print", args=["biblios"]), data)
    assert response.status_code == 200
    assert "Ana et Bo sont à égalité avec 0 point." in response.content.decode()
