"""Receipts: money received gets a number, without gaps, per year, even with clerks taking payments at once."""

import datetime
from decimal import Decimal

import pytest
from django.db import transaction
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Entry, Kind
from tests.conftest import pdf_page_count, text_of
from tests.ledger_helpers import charge, make_site, pay, pdf_page_size_mm, session_cookie
from tests.loan_helpers import make_member, run_at_once

CLERKS = 12


@pytest.fixture
def family(db):
    return make_member("M0001", "Alex Tartempion")


@pytest.mark.django_db
def test_payments_and_deposits_are_numbered_one_after_the_other_charges_are_not(family, staff_user):
    year = timezone.localdate().year
    charge(family, "30.00", staff_user)
    first = pay(family, "10.00", staff_user)
    deposit = services.deposit_receive(
        member=family,
        amount=Decimal("50"),
        method="cheque",
        cheque_number="9",
        staff=staff_user,
        site=make_site(),
    )
    second = pay(family, "20.00", staff_user)
    assert [first.receipt, deposit.receipt, second.receipt] == [
        f"{year}-0001",
        f"{year}-0002",
        f"{year}-0003",
    ]
    assert Entry.objects.filter(kind=Kind.OTHER).get().receipt == ""
    reversal = services.entry_reverse(
        entry=second, staff=staff_user, site=make_site(), note="Erreur de saisie"
    )
    assert reversal.receipt == ""


@pytest.mark.django_db
def test_numbering_starts_again_each_year(family, staff_user):
    last_year = timezone.now() - datetime.timedelta(days=366)
    charge(family, "30.00", staff_user, at=last_year)
    old = pay(family, "10.00", staff_user, at=last_year)
    new = pay(family, "10.00", staff_user)
    assert (old.receipt_year, old.receipt_number) == (timezone.localdate(last_year).year, 1)
    assert (new.receipt_year, new.receipt_number) == (timezone.localdate().year, 1)


@pytest.mark.django_db
def test_a_payment_rolled_back_leaves_no_gap(family, staff_user):
    charge(family, "30.00", staff_user)
    with pytest.raises(RuntimeError), transaction.atomic():
        pay(family, "10.00", staff_user)
        raise RuntimeError("the till printer caught fire")
    assert pay(family, "10.00", staff_user).receipt_number == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # row locks
def test_clerks_taking_payments_at_once_get_distinct_consecutive_numbers(staff_user):
    families = [make_member(f"M{i:04d}", f"Famille {i}") for i in range(CLERKS)]
    for member in families:
        charge(member, "8.00", staff_user, kind=Kind.MEMBERSHIP)

    outcomes = run_at_once([lambda member=member: pay(member, "8.00", staff_user) for member in families])

    assert all(isinstance(outcome, Entry) for outcome in outcomes), outcomes
    numbers = sorted(Entry.objects.filter(kind=Kind.PAYMENT).values_list("receipt_number", flat=True))
    assert numbers == list(range(1, CLERKS + 1))


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # row locks
def test_two_clerks_paying_one_familys_debt_at_once_take_it_once(staff_user):
    family = make_member("M0001")
    charge(family, "25.00", staff_user, kind=Kind.MEMBERSHIP)

    outcomes = run_at_once([lambda: pay(family, "25.00", staff_user) for _ in range(2)])

    assert sum(isinstance(outcome, Entry) for outcome in outcomes) == 1, outcomes
    assert [error.messages for error in outcomes if not isinstance(error, Entry)] == [
        ["Alex Tartempion ne doit rien à la ludothèque."]
    ]
    assert list(Entry.objects.filter(kind=Kind.PAYMENT).values_list("receipt_number", flat=True)) == [1]


@pytest.mark.django_db
def test_the_receipt_page_shows_its_number_the_family_the_amount_and_what_is_left(client, family, staff_user):
    charge(family, "30.00", staff_user, kind=Kind.MEMBERSHIP)
    payment = pay(family, "20.00", staff_user, method="cheque", cheque_number="0012345", note="Adhésion 2026")
    client.force_login(staff_user)
    text = text_of(client.get(reverse("ledger:receipt", args=[payment.pk])))
    assert f"Reçu n° {payment.receipt}" in text
    assert "Alex Tartempion (carte M0001)" in text
    assert "20,00 €" in text and "Chèque n° 0012345" in text and "Adhésion 2026" in text
    assert "Reste dû 10,00 €" in text


@pytest.mark.django_db
def test_a_receipt_shows_when_its_payment_was_cancelled(client, family, staff_user):
    charge(family, "30.00", staff_user)
    payment = pay(family, "30.00", staff_user)
    services.entry_reverse(entry=payment, staff=staff_user, site=make_site(), note="Erreur")
    client.force_login(staff_user)
    assert "Annulé le" in text_of(client.get(reverse("ledger:receipt", args=[payment.pk])))


@pytest.mark.django_db
def test_only_money_received_has_a_receipt_page_and_only_staff_see_it(client, family, staff_user, outsider):
    fee = charge(family, "30.00", staff_user)
    payment = pay(family, "30.00", staff_user)
    url = reverse("ledger:receipt", args=[payment.pk])
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    client.force_login(staff_user)
    assert client.get(reverse("ledger:receipt", args=[fee.pk])).status_code == 404
    assert client.post(url).status_code == 405


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize(("paper", "size"), [("a4", (210, 297)), ("a5", (148, 210))])
def test_a_receipt_prints_on_one_page_of_a4_or_a5(print_to_pdf, page, live_server, staff_user, paper, size):
    family = make_member("M0001", "Alex Tartempion")
    charge(family, "25.00", staff_user, kind=Kind.MEMBERSHIP)
    payment = pay(family, "25.00", staff_user)
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    pdf = print_to_pdf(f"{live_server.url}{reverse('ledger:receipt', args=[payment.pk])}?format={paper}")
    assert pdf_page_count(pdf) == 1
    assert pdf_page_size_mm(pdf) == size
