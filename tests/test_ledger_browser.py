"""In a real browser: a family whose membership expired renews it at the desk and pays cash; its receipt."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone

from ledger.models import Entry, Kind
from loans.models import Loan
from tests.ledger_helpers import make_site, owed
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type
from tests.test_desk_browser import scan


def text(page, selector: str) -> str:
    """What a reader sees in an element, spaces (and the non-breaking ones before €) collapsed."""
    return " ".join(page.locator(selector).inner_text().split())


def wait_for_focus(page, element_id: str) -> None:
    """A scanner types into the focused box: wait until the page has given it the focus."""
    page.wait_for_function(f"document.activeElement && document.activeElement.id === '{element_id}'")


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_volunteer_renews_an_expired_family_and_takes_a_cash_payment(page, live_server, staff_user):
    make_site()
    yearly = make_membership_type(name="Famille (1 an)", duration_days=365, price=Decimal("25.00"))
    ended = timezone.localdate() - datetime.timedelta(days=60)
    family = make_member(
        "M0004",
        "Dominique Chose",
        membership_type=yearly,
        start=ended - datetime.timedelta(days=364),
        expiry=ended,
    )
    make_copy(make_game("Quarto"), "90468")

    page.goto(live_server.url + "/comptoir/")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    wait_for_focus(page, "id_code")
    scan(page, "M0004")
    assert "renouvelez d'abord l'adhésion" in text(page, ".family-header")

    # Renew: the family will pay at once, at the desk; the renewal itself leaves the price owed.
    with page.expect_navigation():
        page.click("text=Renouveler l'adhésion")
    assert page.locator("h1").inner_text() == "Renouveler l'adhésion — Dominique Chose"
    assert page.is_checked("input[name=method][value='']")
    with page.expect_navigation():
        page.click("button:has-text('Renouveler')")
    messages = text(page, ".messages")
    assert "Adhésion de Dominique Chose renouvelée : « Famille (1 an) »" in messages
    assert "Reste dû : 25,00 €." in messages
    assert "Doit 25,00 € à la ludothèque." in text(page, ".money-panel")

    # Take the cash: the amount owed is already in the box, cash is the default method.
    assert page.input_value(".quick-pay input[name=amount]") == "25,00"
    assert page.input_value(".quick-pay select[name=method]") == "cash"
    with page.expect_navigation():
        page.click(".quick-pay button[type=submit]")
    year = timezone.localdate().year
    assert page.locator("h1").inner_text() == f"Reçu n° {year}-0001"
    receipt = text(page, ".receipt")
    assert "Dominique Chose" in receipt and "25,00 €" in receipt and "Espèces" in receipt
    payment = Entry.objects.get(kind=Kind.PAYMENT)
    assert (payment.amount, payment.method, payment.receipt_number) == (Decimal("25.00"), "cash", 1)
    assert owed(family) == Decimal("0.00")

    # Back on the family page: nothing owed, and the desk lends again.
    with page.expect_navigation():
        page.click("text=Fiche de la famille")
    assert "Ne doit rien à la ludothèque." in text(page, ".money-panel")
    wait_for_focus(page, "id_barcode")
    scan(page, "90468")
    assert "« Quarto » (90468) prêté" in page.locator(".messages").inner_text()
    assert Loan.objects.open().get().member == family


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_money_pages_fit_a_phone(browser, live_server, staff_user):
    make_site()
    family = make_member("M0001", "Alex Tartempion")
    context = browser.new_context(locale="fr-BE", viewport={"width": 390, "height": 844})
    phone = context.new_page()
    phone.goto(live_server.url + "/connexion/")
    phone.fill("#id_username", staff_user.username)
    phone.fill("#id_password", staff_user.raw_password)
    with phone.expect_navigation():
        phone.keyboard.press("Enter")
    for path in (
        f"/comptoir/familles/{family.pk}/caisse/",
        f"/comptoir/familles/{family.pk}/adhesion/",
        "/comptoir/caisse/",
        "/comptoir/cautions/",
        "/comptoir/comptabilite/",
    ):
        phone.goto(live_server.url + path)
        assert no_sideways_scroll(phone), path
    context.close()
