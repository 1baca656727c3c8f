"""A giant game lent at the desk in a real browser: the rule said before the scan, the deposit asked, chosen
and held, the page still clean for axe on a phone."""

from decimal import Decimal

import pytest

from catalogue.models import ItemKind
from ledger.models import Entry, Kind
from tests.axe import axe_tab, page_violations
from tests.desk_browser import scan
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_volunteer_lends_a_giant_game_taking_its_deposit_by_cheque(browser, live_server, staff_user):
    giant = ItemKind.objects.create(name="Grand jeu", loan_period_days=7, deposit=Decimal("20"), loan_quota=1)
    copy = make_copy(make_game("Quarto"), "96001")
    copy.kind = giant
    copy.save()
    family = make_member("M0001", "Alex Tartempion", membership_type=make_membership_type(name="Annuelle"))

    with axe_tab(browser, base_url=live_server.url, user=staff_user) as page:
        page.goto(f"{live_server.url}/comptoir/familles/{family.pk}/")
        rules = page.locator(".kind-rules").inner_text()
        assert "Grand jeu — grand jeu : 7 jours, caution 20,00\u00a0€, 1 par famille (0 à la maison)" in rules

        # The scan is answered with the deposit to take; the barcode stays in the box.
        scan(page, "96001")
        assert "une caution de 20,00\u00a0€ est demandée" in page.locator(".deposit-fields").inner_text()
        assert page.input_value("#id_barcode") == "96001"
        assert page_violations(page) == []

        page.select_option("#id_deposit_method", "cheque")
        page.fill("#id_deposit_cheque_number", "7654321")
        with page.expect_navigation():
            page.click("button:text('Prêter')")
        messages = page.locator(".messages").inner_text()
        assert "« Quarto » (96001) prêté" in messages
        assert "Règles : grand jeu : 7 jours, caution 20,00\u00a0€, 1 par famille." in messages
        assert "Grand jeu — grand jeu : 7 jours" in page.locator("table.loans").inner_text()
        assert page_violations(page) == []

    deposit = Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED)
    assert (deposit.amount, deposit.cheque_number, deposit.loan.copy.barcode) == (
        Decimal("20.00"),
        "7654321",
        "96001",
    )
