"""Sheets at the table, without a browser (issue 16): placeholders, pads that match their screen sheet,
the print aids' QR codes and drawn pieces, Quarto's piece picker as HTML."""

import re

import pytest
from django.urls import reverse

from rules.games import all_games, get_game
from rules.score_sheet import PAD_SLOTS, ScoreSheetForm
from tests.conftest import text_of

pytestmark = pytest.mark.django_db


def test_the_sheets_fields_show_placeholders_not_values(client):
    html = client.get(reverse("rules:score-sheet", args=["7-wonders"]), {"players": "3"}).content.decode()
    name = re.search(r'<input type="text" name="players\.0\.name"[^>]*>', html).group(0)
    coins = re.search(r'<input type="number" name="players\.0\.coins"[^>]*>', html).group(0)
    assert "value=" not in name and 'placeholder="Joueur 1"' in name
    assert "value=" not in coins and 'placeholder="0"' in coins


def test_a_name_left_blank_is_its_placeholder_and_a_number_left_blank_its_default(client):
    sheet = {"players": "2", "players.0.name": "Léa", "players.0.coins": "9", "players.1.name": ""}
    response = client.post(
        reverse("rules:score-sheet", args=["7-wonders"]), sheet, headers={"Accept": "application/json"}
    )
    assert response.status_code == 200, response.json()
    players = response.json()["players"]
    assert [(player["name"], player["total"]) for player in players] == [("Léa", 3), ("Joueur 2", 0)]


def test_live_checking_answers_the_reason_of_the_form_by_input_name(client):
    sheet = {"players": "2", "players.1.military": "19"}
    response = client.post(
        reverse("rules:score-sheet", args=["7-wonders"]), sheet, headers={"Accept": "application/json"}
    )
    assert response.status_code == 400
    assert response.json() == {"players.1.military": ["La valeur doit être au plus 18."]}


def sheet_labels(form: ScoreSheetForm) -> list[str]:
    return [row.label for row in [*form.shared_rows, *form.rows]]


@pytest.mark.parametrize("game", [game for game in all_games() if "score" in game.features], ids=str)
def test_a_blank_pad_has_the_rows_of_its_screen_sheet(client, game):
    variants = frozenset() if game.score_refusal(frozenset()) is None else frozenset({"easy"})
    players = max(game.players.minimum, 2) if game.players.maximum != 1 else 1
    query = {"players": str(players), "variants": ",".join(sorted(variants))}
    response = client.get(reverse("rules:score-pad", args=[game.slug]), query)
    assert response.status_code == 200
    screen = ScoreSheetForm(game, players=players, variants=variants)
    pad = ScoreSheetForm(game, players=players, variants=variants, slots=PAD_SLOTS)
    page = text_of(response)
    for label in sheet_labels(pad):
        assert label in page, label
    # The same rows as on screen; a list of rounds only gets more of them, to fill the page.
    assert [label for label in sheet_labels(pad) if label in sheet_labels(screen)] == sheet_labels(screen)


def test_the_martian_dice_pad_has_a_row_per_turn_with_the_dice_kept():
    game = get_game("martian-dice")
    pad = ScoreSheetForm(game, players=4, variants=frozenset(), slots=PAD_SLOTS)
    turns = [row for row in pad.rows if row.kind == "slot"]
    assert len(turns) == PAD_SLOTS
    assert [field.label for field in turns[0].cells[0].fields][:2] == ["Tanks", "Rayons de la mort"]


@pytest.mark.parametrize(
    ("view", "slug", "query", "links"),
    [
        ("rules:setup-print", "quarto", {"players": "2"}, ["/regles/quarto/"]),
        ("rules:score-pad", "k2", {"players": "5"}, ["/regles/k2/", "/regles/k2/feuille-de-score/"]),
        (
            "rules:score-print",
            "biblios",
            {"players": "2", "players.0.name": "Ana", "players.1.name": "Bo"},
            ["/regles/biblios/", "/regles/biblios/feuille-de-score/"],
        ),
    ],
)
def test_the_print_aids_carry_qr_codes_of_the_live_pages(client, view, slug, query, links):
    response = client.get(reverse(view, args=[slug]), query)
    assert response.status_code == 200
    html = response.content.decode()
    assert html.count('class="segno"') == len(links)
    assert html.count("<figcaption>") == len(links)


def test_the_quarto_setup_aid_draws_the_sixteen_pieces_with_their_names(client):
    html = client.get(reverse("rules:setup-print", args=["quarto"]), {"players": "2"}).content.decode()
    pieces = re.findall(r'<svg class="piece" viewBox="0 0 24 32" role="img" aria-label="([^"]+)">', html)
    # Seed 002: « 16 pièces différentes ayant 4 caractères : haute ou basse, ronde ou carrée, claire ou
    # foncée, pleine ou creuse ».
    assert len(pieces) == len(set(pieces)) == 16
    assert "Basse, carrée, claire, pleine" in pieces and "Haute, ronde, foncée, creuse" in pieces
    assert html.count('<symbol id="quarto-piece-') == 16


def test_the_quarto_referee_draws_the_pieces_to_pick_from_in_each_cell(client):
    html = client.get(reverse("rules:check", args=["quarto"])).content.decode()
    for row in range(4):
        for column in range(4):
            radios = re.findall(rf'<input type="radio" name="board\.{row}\.{column}" value="(\d*)"', html)
            assert radios == ["", *(str(piece) for piece in range(16))]
    assert html.count('<use href="#quarto-piece-') == 16 * 16
    assert html.count('<symbol id="quarto-piece-') == 16  # the drawings are defined once
    assert "Haute, ronde, foncée, creuse" in html


def test_a_picked_board_is_checked_and_shown_as_picked(client):
    board = {f"board.1.{column}": str(piece) for column, piece in enumerate((1, 3, 5, 7))}
    response = client.post(
        reverse("rules:check", args=["quarto"]),
        {**board, "characters": ["height", "shape", "colour", "fill"]},
    )
    assert response.status_code == 200
    # Pieces 1, 3, 5, 7 are all tall and solid (bits 1 set, 8 clear): seed 002's « 4 hautes », « 4 pleines ».
    assert "Quarto : oui" in text_of(response)
    assert "hautes, pleines" in text_of(response)
    assert re.search(r'name="board\.1\.3" value="7" checked', response.content.decode())
