"""A family's money at the desk: its balance on the family page, payments with a receipt, charges, reversals."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from ledger.models import Entry, Kind
from tests.conftest import text_of
from tests.ledger_helpers import charge, make_site, owed, pay
from tests.loan_helpers import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(db):
    return make_member("M0001", "Alex Tartempion")


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def test_the_family_page_shows_what_the_family_owes_and_offers_to_take_it(desk, family, staff_user):
    charge(family, "4.50", staff_user, kind=Kind.LATE_FEE)
    response = desk.get(family.get_absolute_url())
    text = text_of(response)
    assert "Doit 4,50 € à la ludothèque." in text
    assert 'value="4,50"' in response.content.decode()
    assert reverse("ledger:payment-create", args=[family.pk]) in response.content.decode()


def test_a_family_that_owes_nothing_gets_no_payment_form(desk, family):
    response = desk.get(family.get_absolute_url())
    assert "Ne doit rien à la ludothèque." in text_of(response)
    assert reverse("ledger:payment-create", args=[family.pk]) not in response.content.decode()


def test_taking_a_payment_opens_its_receipt_and_remembers_the_site(desk, family, staff_user):
    make_site("Annexe du village")
    site = make_site("Maison des Enfants")
    charge(family, "25.00", staff_user, kind=Kind.MEMBERSHIP)
    response = desk.post(
        reverse("ledger:payment-create", args=[family.pk]),
        {"amount": "25,00", "method": "cash", "cheque_number": "", "note": "", "site": site.pk},
    )
    payment = Entry.objects.get(kind=Kind.PAYMENT)
    assert response.status_code == 302 and response["Location"] == reverse(
        "ledger:receipt", args=[payment.pk]
    )
    assert (payment.amount, payment.method, payment.site) == (Decimal("25.00"), "cash", site)
    assert owed(family) == Decimal("0.00")
    assert desk.session["desk_site"] == site.pk


def test_a_payment_larger_than_the_debt_is_refused_on_the_amount(desk, family, staff_user):
    charge(family, "5.00", staff_user)
    response = desk.post(
        reverse("ledger:payment-create", args=[family.pk]),
        {"amount": "50", "method": "cash", "site": make_site().pk},
    )
    assert response.status_code == 400
    assert "50,00 €, c'est plus que ce que Alex Tartempion doit (5,00 €)." in text_of(response)
    assert not Entry.objects.filter(kind=Kind.PAYMENT).exists()


@pytest.mark.parametrize("amount", ["", "abc", "-3", "0", "1,234", "1e9"])
def test_a_payment_with_a_bad_amount_is_refused(desk, family, staff_user, amount):
    charge(family, "5.00", staff_user)
    response = desk.post(
        reverse("ledger:payment-create", args=[family.pk]),
        {"amount": amount, "method": "cash", "site": make_site().pk},
    )
    assert response.status_code == 400
    assert not Entry.objects.filter(kind=Kind.PAYMENT).exists()


@pytest.mark.parametrize("amount", ["١٢", "１２", "12,٥٠", "1E1"])
def test_an_amount_in_other_digits_or_with_an_exponent_is_refused_with_how_to_write_it(
    desk, family, staff_user, amount
):
    charge(family, "15.00", staff_user)
    response = desk.post(
        reverse("ledger:payment-create", args=[family.pk]),
        {"amount": amount, "method": "cash", "site": make_site().pk},
    )
    assert response.status_code == 400
    assert "Écrivez le montant avec les chiffres 0 à 9 et une virgule, par exemple 12,50." in text_of(
        response
    )
    assert not Entry.objects.filter(kind=Kind.PAYMENT).exists()


def test_the_desk_charges_a_fee_with_what_it_is_for(desk, family):
    response = desk.post(
        reverse("ledger:charge-create", args=[family.pk]),
        {"kind": "other", "amount": "3", "note": "Boîte abîmée", "site": make_site().pk},
    )
    assert response.status_code == 302
    entry = Entry.objects.get()
    assert (entry.kind, entry.amount, entry.note) == (Kind.OTHER, Decimal("3.00"), "Boîte abîmée")
    text = text_of(desk.get(reverse("ledger:family", args=[family.pk])))
    assert "Autre frais" in text and "Boîte abîmée" in text and "Doit 3,00 €" in text


def test_memberships_are_charged_by_their_renewal_not_by_hand(desk, family):
    response = desk.post(
        reverse("ledger:charge-create", args=[family.pk]),
        {"kind": "membership", "amount": "25", "note": "", "site": make_site().pk},
    )
    assert response.status_code == 400 and not Entry.objects.exists()


def test_the_desk_reverses_an_entry_with_a_reason(desk, family, staff_user):
    mistake = charge(family, "30.00", staff_user)
    url = reverse("ledger:entry-reverse", args=[mistake.pk])
    assert f"Écriture n° {mistake.pk} : Autre frais de 30,00 €" in text_of(desk.get(url))
    response = desk.post(url, {"note": "", "site": make_site().pk})
    assert response.status_code == 400 and not Entry.objects.filter(reverses=mistake).exists()
    response = desk.post(url, {"note": "Facturé deux fois", "site": make_site().pk})
    assert response.status_code == 302
    assert owed(family) == Decimal("0.00")
    text = text_of(desk.get(reverse("ledger:family", args=[family.pk])))
    assert f"annulée par l'écriture n° {mistake.pk + 1}" in text and "Facturé deux fois" in text
    response = desk.post(url, {"note": "Encore", "site": make_site().pk})
    assert response.status_code == 400 and "Cette écriture est déjà annulée." in text_of(response)


def test_a_credit_is_refunded_at_the_desk(desk, family, staff_user):
    piece = charge(family, "4.00", staff_user, kind=Kind.MISSING_PIECE)
    pay(family, "4.00", staff_user)
    desk.post(
        reverse("ledger:entry-reverse", args=[piece.pk]), {"note": "Pièce rapportée", "site": make_site().pk}
    )
    assert "La ludothèque doit 4,00 € à la famille (avoir)." in text_of(
        desk.get(reverse("ledger:family", args=[family.pk]))
    )
    response = desk.post(
        reverse("ledger:refund-create", args=[family.pk]),
        {"refund-amount": "4", "refund-method": "cash", "refund-site": make_site().pk},
    )
    assert response.status_code == 302 and owed(family) == Decimal("0.00")


def test_the_family_ledger_is_for_staff_only(client, family, outsider):
    url = reverse("ledger:family", args=[family.pk])
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert client.post(reverse("ledger:payment-create", args=[family.pk]), {"amount": "1"}).status_code == 403


def test_the_money_pages_refuse_the_wrong_method_and_unknown_families(desk, family):
    assert desk.get(reverse("ledger:payment-create", args=[family.pk])).status_code == 405
    assert desk.get(reverse("ledger:family", args=[999999])).status_code == 404


def test_the_family_ledger_takes_the_same_queries_however_long_it_is(desk, family, staff_user):
    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert desk.get(reverse("ledger:family", args=[family.pk])).status_code == 200
        return len(captured)

    charge(family, "1.00", staff_user)
    few = queries()
    for _ in range(60):
        charge(family, "1.00", staff_user)
    assert queries() == few <= 17
