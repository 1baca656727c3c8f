"""The checkout kit printed by Chromium: a one-page loan slip for the whole checkout, then one A4 page
per game where it fits (its setup and its checklist on the same sheet), no nearly blank sheet.

A family of four borrows Biblios and Quarto (coded rules, piece lists): the kit was four sheets, two
of them nearly blank (each game's checklist and pad forced onto a second page).
"""

import unicodedata

import pytest

from loans import services
from rules.models import RulePage
from tests.axe import PHONE, session_cookie
from tests.conftest import pdf_page_count
from tests.loan_helpers import make_copy, make_game, make_member
from tests.pack_helpers import add_household

DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def checkout(transactional_db, staff_user):
    biblios = make_game("Biblios", pieces=[(1, "plateau de valeurs"), (5, "dés à six faces"), (87, "cartes")])
    RulePage.objects.create(slug="biblios", title="Biblios", game=biblios)
    quarto = make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])
    RulePage.objects.create(slug="quarto", title="Quarto", game=quarto)
    family = make_member("M0003", "Charlie Machin")
    add_household(family, "Léa")
    loans = [
        services.loan_create(copy=make_copy(biblios, "90901"), member=family, staff=staff_user),
        services.loan_create(copy=make_copy(quarto, "90468"), member=family, staff=staff_user),
    ]
    return family, loans


def pdf_texts(pdf: bytes) -> list[str]:
    from io import BytesIO

    from pypdf import PdfReader

    # NFKC: the PDF's ligatures (« ﬁ ») read back as their letters.
    return [
        " ".join(unicodedata.normalize("NFKC", page.extract_text() or "").split())
        for page in PdfReader(BytesIO(pdf)).pages
    ]


@pytest.mark.browser
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_two_games_print_a_loan_slip_and_one_page_each(page, live_server, staff_user, checkout, viewport):
    family, (biblios, quarto) = checkout
    page.set_viewport_size(viewport)
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    response = page.goto(f"{live_server.url}/comptoir/familles/{family.pk}/kit/")
    assert response.ok
    # On screen, the slip comes first and nothing scrolls sideways on a phone.
    assert page.locator("h1").first.inner_text() == "Fiche de prêt — Charlie Machin"
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    page.emulate_media(media="print")
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    assert pdf_page_count(pdf) == 3
    slip, biblios_page, quarto_page = pdf_texts(pdf)
    assert "Fiche de prêt — Charlie Machin" in slip and "M0003" in slip
    for loan in (biblios, quarto):
        assert loan.copy.game.title in slip and loan.copy.barcode in slip
    assert "À vérifier au retour" in slip and "87 × cartes" in slip and "16 × pièces" in slip
    assert "kit de prêt" not in slip
    # Each game on its own page: setup, checklist and score pad together.
    assert "Biblios — kit de prêt" in biblios_page
    assert "Mise en place" in biblios_page and "Pièces de la boîte" in biblios_page
    assert "Feuille de score" in biblios_page
    assert "Quarto — kit de prêt" in quarto_page and "Pièces de la boîte" in quarto_page
