"""The printed A4 setup aid of a title whose setup is declared, not coded: its text and its QR code.

Chromium prints the aid to PDF as a browser's print dialog would; pypdf reads its text back; zbarimg
reads the QR code off a pdftoppm render, as a phone would off the paper.
"""

import json
from io import BytesIO
from pathlib import Path

import pytest
from django.urls import reverse

from catalogue.models import Game
from rules.declared.setups import declared_setup_save
from tests.conftest import pdf_page_count
from tests.test_rules_table_browser import qr_codes

pytestmark = [pytest.mark.browser, pytest.mark.usefixtures("transactional_db")]

KINGDOMINO = Path(__file__).resolve().parent.parent / "fixtures" / "declared" / "kingdomino.json"


def pdf_text(pdf: bytes) -> str:
    from pypdf import PdfReader

    return " ".join(" ".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages).split())


@pytest.fixture
def kingdomino():
    game = Game.objects.create(title="Kingdomino", slug="kingdomino", players_min=2, players_max=4)
    declared_setup_save(game=game, definition=json.loads(KINGDOMINO.read_text())["setup"])
    return game


@pytest.mark.parametrize(
    ("players", "removed", "dominoes"), [(2, "Retirez 24 dominos", "24"), (3, "Retirez 12 dominos", "36")]
)
def test_the_declared_setup_aid_prints_on_one_a4_page_with_its_counts_and_qr_code(
    print_to_pdf, live_server, kingdomino, players, removed, dominoes
):
    url = f"{live_server.url}{reverse('rules:setup-print', args=['kingdomino'])}?players={players}"
    pdf = print_to_pdf(url)
    assert pdf_page_count(pdf) == 1
    text = pdf_text(pdf)
    assert f"Kingdomino — mise en place {players} joueurs" in text
    assert f"{dominoes} Dominos" in text and f"{players} Châteaux" in text
    assert removed in text
    assert "Premier tour : les rois sont tirés au hasard." in text
    # The live rules page, and the score sheet by rounds every title has (rules/default_sheet.py).
    assert set(qr_codes(pdf)) == {
        f"{live_server.url}{reverse('rules:page-detail', args=['kingdomino'])}",
        f"{live_server.url}{reverse('rules:score-sheet', args=['kingdomino'])}",
    }


def test_at_four_players_nothing_is_removed_and_the_aid_says_nothing_of_it(
    print_to_pdf, live_server, kingdomino
):
    pdf = print_to_pdf(f"{live_server.url}{reverse('rules:setup-print', args=['kingdomino'])}?players=4")
    text = pdf_text(pdf)
    assert "48 Dominos" in text and "4 Rois" in text
    assert "Retirez" not in text
