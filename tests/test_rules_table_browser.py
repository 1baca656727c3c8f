"""Sheets at the table, in a real browser (Debian's Chromium) on a 1024 × 768 tablet (issue 16).

Typing into a sheet gives exactly what was typed (the fields show placeholders, not values); live
checking writes the form's own reason next to the field; Quarto's referee board is picked from drawn
pieces with the mouse and with the keyboard; the print aids carry a QR code of the live pages that a
phone can read back from the printed PDF.
"""

import subprocess
import tempfile
from pathlib import Path

import pytest
from django.urls import reverse

from tests.conftest import pdf_page_count

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

TABLET = {"width": 1024, "height": 768}


@pytest.fixture
def tablet(page):
    page.set_viewport_size(TABLET)
    return page


def test_typing_into_a_sheet_gives_exactly_what_was_typed(tablet, live_server):
    tablet.goto(f"{live_server.url}{reverse('rules:score-sheet', args=['7-wonders'])}?players=3")
    name = tablet.locator('input[name="players.0.name"]')
    coins = tablet.locator('input[name="players.0.coins"]')
    # What the empty fields show is a placeholder: « Joueur 1 », the default 0.
    assert name.input_value() == "" and name.get_attribute("placeholder") == "Joueur 1"
    assert coins.input_value() == "" and coins.get_attribute("placeholder") == "0"
    name.click()
    tablet.keyboard.type("Léa")
    coins.click()
    tablet.keyboard.type("9")
    assert name.input_value() == "Léa"
    assert coins.input_value() == "9"
    # The live totals use what was typed, and the blank columns keep their placeholder names.
    result = tablet.locator("[data-score-result]")
    result.wait_for(state="visible")
    tablet.locator('[data-total="0"]').first.filter(has_text="3").wait_for()
    assert tablet.locator('th[data-name="0"]').inner_text() == "Léa"
    assert tablet.locator('th[data-name="1"]').inner_text() == "Joueur 2"


def test_live_checking_shows_the_forms_reason_next_to_the_field(tablet, live_server):
    tablet.goto(f"{live_server.url}{reverse('rules:score-sheet', args=['7-wonders'])}?players=3")
    military = tablet.locator('input[name="players.1.military"]')
    military.click()
    tablet.keyboard.type("19")
    # The reason is the engine's message (rules/engine/fields.py), posted back as JSON by the page.
    reason = tablet.locator("#id_players-1-military-live-errors")
    reason.wait_for()
    assert reason.inner_text() == "La valeur doit être au plus 18."
    assert military.get_attribute("aria-invalid") == "true"
    assert military.get_attribute("aria-describedby") == "id_players-1-military-live-errors"
    military.press("Backspace")  # 1: the reason goes away, the totals come back
    reason.wait_for(state="detached")
    tablet.locator('[data-total="1"]').first.filter(has_text="1").wait_for()


def test_quarto_pieces_are_picked_with_the_mouse_and_with_the_keyboard(tablet, live_server):
    tablet.goto(f"{live_server.url}{reverse('rules:check', args=['quarto'])}")
    # Mouse: click the drawn piece 0 (short, square, light, solid) in the first cell.
    tablet.locator('label.piece-option:has(input[name="board.0.0"][value="0"])').click()
    assert tablet.locator('input[name="board.0.0"][value="0"]').is_checked()
    # Keyboard: in each next cell of the row, the arrow keys move from « empty » to pieces 1, 2, 3.
    for column, piece in ((1, 1), (2, 2), (3, 3)):
        tablet.locator(f'input[name="board.0.{column}"][value=""]').focus()
        for _press in range(piece + 1):
            tablet.keyboard.press("ArrowRight")
        assert tablet.locator(f'input[name="board.0.{column}"][value="{piece}"]').is_checked()
    # Each piece is named for screen readers and drawn.
    label = tablet.locator('label.piece-option:has(input[name="board.0.3"][value="3"])')
    assert label.get_attribute("title") == "Haute, ronde, claire, pleine"
    assert label.locator("svg use").count() == 1
    tablet.get_by_role("button", name="Vérifier la position").focus()
    with tablet.expect_navigation():
        tablet.keyboard.press("Enter")
    # Seed 002: four pieces in a line sharing a character make a Quarto (here light and solid).
    assert "Quarto : oui" in tablet.locator(".check-result").inner_text()
    assert "claires, pleines" in tablet.locator(".lines-found").inner_text()
    assert tablet.locator('input[name="board.0.2"][value="2"]').is_checked()  # the board stays as picked


def qr_codes(pdf: bytes) -> list[str]:
    """The QR codes a phone reads on the printed page: the PDF rendered at 150 dpi, read by zbarimg."""
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "aid.pdf"
        path.write_bytes(pdf)
        subprocess.run(["pdftoppm", "-r", "150", "-png", str(path), str(Path(folder) / "page")], check=True)
        found = []
        for image in sorted(Path(folder).glob("page*.png")):
            read = subprocess.run(["zbarimg", "--quiet", "--raw", str(image)], capture_output=True, text=True)
            found += [line for line in read.stdout.splitlines() if line]
        return found


@pytest.mark.parametrize(
    ("view", "slug", "query"),
    [
        ("rules:setup-print", "quarto", "players=2&variants=squares"),
        ("rules:setup-print", "k2", "players=5"),
        ("rules:score-pad", "martian-dice", "players=8"),
        ("rules:score-pad", "biblios", "players=4"),
    ],
)
def test_the_print_aids_carry_the_live_pages_as_qr_codes_on_one_page(
    print_to_pdf, live_server, view, slug, query
):
    pdf = print_to_pdf(f"{live_server.url}{reverse(view, args=[slug])}?{query}")
    assert pdf_page_count(pdf) == 1
    codes = qr_codes(pdf)
    assert f"{live_server.url}{reverse('rules:page-detail', args=[slug])}" in codes
    if slug != "quarto":  # Quarto has no score sheet
        assert f"{live_server.url}{reverse('rules:score-sheet', args=[slug])}" in codes
