"""On-site play in a real browser (issue 14's « done when »): a session opened, a family scanned in, a
copy taken to a table and back with its pieces checked, the session closed once the close screen's
list of copies still out is empty."""

import pytest

from catalogue.models import Copy
from loans.models import MissingPiece
from onsite.models import Session, TableUse, Visit
from tests.desk_browser import focused_id, scan
from tests.loan_helpers import make_copy, make_game, make_member


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_volunteer_runs_an_on_site_session_from_opening_to_closing(page, live_server, staff_user):
    catane = make_game(
        "Les colons de Catane", pieces=[(19, "hexagones Terrains"), (95, "cartes Matières Premières")]
    )
    quarto = make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])
    make_copy(catane, "90461")
    make_copy(quarto, "90468")
    make_member("M0001", "Alex Tartempion")

    page.goto(live_server.url + "/comptoir/")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    with page.expect_navigation():
        page.click("nav.desk-nav >> text=Jeu sur place")

    # Open the session of the site.
    with page.expect_navigation():
        page.click("text=Ouvrir la séance")
    assert "Séance ouverte à Maison des Enfants." in page.locator(".messages").inner_text()
    assert page.locator("h1").inner_text().startswith("Jeu sur place — Maison des Enfants")

    # A member family arrives: its card scanned, two children and one adult.
    assert focused_id(page) == "id_card"
    page.fill("#id_children", "2")
    page.fill("#id_adults", "1")
    page.focus("#id_card")
    scan(page, "M0001")
    assert "Alex Tartempion — enfants : 2, adultes : 1." in page.locator(".messages").inner_text()
    # Then a family that is not a member.
    page.check("#id_non_member")
    page.fill("#id_children", "3")
    page.fill("#id_adults", "2")
    with page.expect_navigation():
        page.click("text=Compter la famille")
    assert "2 familles — 5 enfants, 3 adultes" in page.locator(".attendance").inner_text()

    # Two games go to the tables, scanned one after the other: the box keeps the focus.
    page.focus("#id_barcode")
    scan(page, "90461")
    assert "« Les colons de Catane » (90461) sur table." in page.locator(".messages").inner_text()
    assert focused_id(page) == "id_barcode"
    scan(page, "90468")
    assert page.locator("table.onsite-tables tbody tr").count() == 2
    assert not Copy.objects.available().filter(barcode__in=["90461", "90468"]).exists()

    # Closing: the close screen lists first what is still at a table, and cannot close yet.
    with page.expect_navigation():
        page.click("main >> text=Fermer la séance")
    still_out = page.locator(".still-out")
    assert "2 jeux encore sur les tables" in still_out.inner_text()
    assert "Les colons de Catane" in still_out.inner_text() and "Quarto" in still_out.inner_text()
    assert page.locator("button:has-text('Fermer la séance')").is_disabled()

    # Catane comes back with two cards missing: the pieces check, then back to the close screen.
    with page.expect_navigation():
        page.click(".still-out li:has-text('Les colons de Catane') >> text=Rentrer")
    assert "Retour de table : « Les colons de Catane » (90461)" in page.locator("h1").inner_text()
    terrains, cards = catane.components.all()
    page.fill(f"#id_missing_{cards.pk}", "2")
    with page.expect_navigation():
        page.click("text=Confirmer le retour de table")
    messages = page.locator(".messages").inner_text()
    assert "« Les colons de Catane » (90461) rentré." in messages
    assert "Il manque 2 × cartes Matières Premières." in messages
    assert "1 jeu encore sur une table" in page.locator(".still-out").inner_text()

    # Quarto comes back complete: nothing to type.
    with page.expect_navigation():
        page.click(".still-out li:has-text('Quarto') >> text=Rentrer")
    with page.expect_navigation():
        page.click("text=Confirmer le retour de table")
    assert "Tous les jeux sont rentrés." in page.locator("main").inner_text()
    with page.expect_navigation():
        page.click("button:has-text('Fermer la séance')")
    assert "Séance fermée — familles : 2, enfants : 5, adultes : 3." in page.locator(".messages").inner_text()

    session = Session.objects.get()
    assert session.closed_at is not None
    assert Visit.objects.filter(session=session).count() == 2
    assert list(TableUse.objects.order_by("taken_at").values_list("copy__barcode", "return_check")) == [
        ("90461", "incomplete"),
        ("90468", "complete"),
    ]
    assert Copy.objects.get(barcode="90461").status == Copy.Status.INCOMPLETE
    assert MissingPiece.objects.get().quantity == 2
    assert Copy.objects.available().filter(barcode="90468").exists()
