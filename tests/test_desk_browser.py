"""A full round at the desk in a real browser, with the keyboard only, as a barcode scanner types.

Log in, scan a family's card, lend two games one after the other, return one with a piece missing
(its count typed in the checklist), and find the copy among the incomplete ones.
"""

import pytest

from catalogue.models import Copy
from loans.models import Loan, MissingPiece
from tests.desk_browser import focused_id, scan
from tests.loan_helpers import make_copy, make_game, make_member


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_volunteer_lends_two_games_and_takes_one_back_with_a_piece_missing(page, live_server, staff_user):
    catane = make_game(
        "Les colons de Catane", pieces=[(37, "hexagones Terrains"), (95, "cartes Matières Premières")]
    )
    quarto = make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])
    make_copy(catane, "90461")
    make_copy(quarto, "90468")
    family = make_member("M0001", "Alex Tartempion")

    # Log in: the desk sends an anonymous visitor to the login page and back.
    page.goto(live_server.url + "/comptoir/")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert page.url == live_server.url + "/comptoir/"
    assert focused_id(page) == "id_code"

    # Find the family by its card.
    scan(page, "M0001")
    assert page.locator("h1").inner_text() == "Alex Tartempion"
    assert focused_id(page) == "id_barcode"

    # Lend two games, one scan after the other: the box is ready again after each.
    scan(page, "90461")
    assert "« Les colons de Catane » (90461) prêté" in page.locator(".messages").inner_text()
    assert focused_id(page) == "id_barcode"
    scan(page, "90468")
    assert "« Quarto » (90468) prêté" in page.locator(".messages").inner_text()
    assert focused_id(page) == "id_barcode"
    rows = page.locator("table.loans tbody tr")
    assert rows.count() == 2
    assert "Encore 1 prêt possible sur 3." in page.locator(".quota").inner_text()
    assert set(Loan.objects.open().values_list("copy__barcode", flat=True)) == {"90461", "90468"}

    # Return Catane: scan it at the desk, tick the checklist, three cards are missing.
    with page.expect_navigation():
        page.click("text=Retours")
    assert focused_id(page) == "id_barcode"
    scan(page, "90461")
    assert "Retour de « Les colons de Catane » (90461)" in page.locator("h1").inner_text()
    terrains, cards = catane.components.all()
    assert focused_id(page) == f"id_missing_{terrains.pk}"
    page.fill(f"#id_missing_{cards.pk}", "3")
    with page.expect_navigation():
        page.click("text=Confirmer le retour")
    messages = page.locator(".messages").inner_text()
    assert "« Les colons de Catane » (90461) rendu par Alex Tartempion." in messages
    assert "Il manque 3 × cartes Matières Premières" in messages
    assert focused_id(page) == "id_barcode"

    # The copy is now among the incomplete ones, and no longer lendable.
    with page.expect_navigation():
        page.click("text=Jeux incomplets")
    table = page.locator("table").inner_text()
    assert "Les colons de Catane" in table and "90461" in table and "3 × cartes Matières Premières" in table
    assert Copy.objects.get(barcode="90461").status == Copy.Status.INCOMPLETE
    assert MissingPiece.objects.still_missing().get().quantity == 3
    assert list(family.loans.open().values_list("copy__barcode", flat=True)) == ["90468"]
