"""The family ledger: charges and payments, a derived balance, reversals, and history nobody can change."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from ledger import services, till
from ledger.models import AppendOnlyError, Entry, Kind, Membership, Method, TillClosure, member_balance, owing
from members.models import Member
from tests.ledger_helpers import charge, make_site, owed, pay
from tests.loan_helpers import make_member

pytestmark = pytest.mark.django_db

on_postgresql = pytest.mark.postgresql  # the guard is a PostgreSQL trigger


@pytest.fixture
def family(db):
    return make_member("M0001", "Alex Tartempion")


def codes(error: ValidationError) -> set[str]:
    if hasattr(error, "error_dict"):
        return {item.code for items in error.error_dict.values() for item in items}
    return {item.code for item in error.error_list}


def test_a_family_owes_nothing_until_charged(family):
    assert owed(family) == Decimal("0.00")
    assert not owing(Member.objects.all()).exists()


def test_the_balance_is_the_charges_less_the_payments(family, staff_user):
    charge(family, "25.00", staff_user, kind=Kind.MEMBERSHIP)
    charge(family, "1.80", staff_user, kind=Kind.LATE_FEE)
    pay(family, "20.00", staff_user)
    assert owed(family) == Decimal("6.80")
    assert Member.objects.annotate(balance=member_balance()).get(pk=family.pk).balance == Decimal("6.80")
    assert list(owing(Member.objects.all())) == [family]


def test_a_payment_gets_the_method_the_site_the_clerk_and_the_date(family, staff_user):
    charge(family, "12.00", staff_user)
    before = timezone.now()
    payment = pay(family, "12.00", staff_user, method=Method.CHEQUE, cheque_number="0042")
    assert (payment.kind, payment.amount, payment.method, payment.cheque_number) == (
        Kind.PAYMENT,
        Decimal("12.00"),
        "cheque",
        "0042",
    )
    assert payment.site == make_site() and payment.clerk == staff_user and payment.recorded_at >= before


def test_it_refuses_a_payment_larger_than_what_the_family_owes(family, staff_user):
    charge(family, "5.00", staff_user)
    with pytest.raises(ValidationError) as refused:
        pay(family, "50.00", staff_user)
    assert codes(refused.value) == {"overpayment"}
    assert (
        "50,00\u00a0€, c'est plus que ce que Alex Tartempion doit (5,00\u00a0€)" in refused.value.messages[0]
    )
    assert owed(family) == Decimal("5.00")


def test_it_refuses_a_payment_from_a_family_that_owes_nothing(family, staff_user):
    with pytest.raises(ValidationError) as refused:
        pay(family, "5.00", staff_user)
    assert codes(refused.value) == {"nothing_owed"}
    assert refused.value.messages == ["Alex Tartempion ne doit rien à la ludothèque."]


@pytest.mark.parametrize(
    ("method", "number", "code", "message"),
    [
        ("cheque", "", "cheque_number_required", "Indiquez le numéro du chèque."),
        ("cash", "123", "cheque_number_not_cheque", "Seul un chèque a un numéro."),
        ("bitcoin", "", "method_required", "Choisissez un mode de paiement."),
    ],
)
def test_it_refuses_a_payment_whose_method_is_wrong(family, staff_user, method, number, code, message):
    charge(family, "5.00", staff_user)
    with pytest.raises(ValidationError) as refused:
        pay(family, "5.00", staff_user, method=method, cheque_number=number)
    assert codes(refused.value) == {code} and refused.value.messages == [message]


def test_it_refuses_a_charge_that_is_no_charge_or_costs_nothing(family, staff_user):
    with pytest.raises(ValidationError) as refused:
        charge(family, "5.00", staff_user, kind=Kind.PAYMENT)
    assert codes(refused.value) == {"not_a_charge"}
    with pytest.raises(ValidationError) as refused:
        charge(family, "0", staff_user)
    assert refused.value.messages == ["Le montant doit être supérieur à zéro."]


def test_another_charge_says_what_it_is_for(family, staff_user):
    with pytest.raises(ValidationError) as refused:
        charge(family, "5.00", staff_user, note=" ")
    assert codes(refused.value) == {"note_required"}
    assert refused.value.messages == ["Dites ce que ce frais paie."]


def test_a_reversal_cancels_a_charge_with_the_opposite_amount_and_points_to_it(family, staff_user):
    mistake = charge(family, "30.00", staff_user, kind=Kind.LOST_GAME)
    reversal = services.entry_reverse(entry=mistake, staff=staff_user, site=make_site(), note="Jeu retrouvé")
    assert (reversal.kind, reversal.amount, reversal.reverses, reversal.note) == (
        Kind.LOST_GAME,
        Decimal("-30.00"),
        mistake,
        "Jeu retrouvé",
    )
    assert owed(family) == Decimal("0.00")
    # The mistake is still there, unchanged.
    assert Entry.objects.get(pk=mistake.pk).amount == Decimal("30.00")
    assert Entry.objects.count() == 2


def test_a_reversed_payment_makes_the_family_owe_again(family, staff_user):
    charge(family, "10.00", staff_user)
    payment = pay(family, "10.00", staff_user, method=Method.CHEQUE, cheque_number="77")
    reversal = services.entry_reverse(
        entry=payment, staff=staff_user, site=make_site(), note="Chèque sans provision"
    )
    assert reversal.method == "cheque" and reversal.cheque_number == "77" and reversal.receipt == ""
    assert owed(family) == Decimal("10.00")


def test_an_entry_is_reversed_once_and_a_reversal_is_not_reversed(family, staff_user):
    mistake = charge(family, "3.00", staff_user)
    reversal = services.entry_reverse(entry=mistake, staff=staff_user, site=make_site(), note="Erreur")
    with pytest.raises(ValidationError) as refused:
        services.entry_reverse(entry=mistake, staff=staff_user, site=make_site(), note="Encore")
    assert codes(refused.value) == {"already_reversed"}
    assert refused.value.messages == ["Cette écriture est déjà annulée."]
    with pytest.raises(ValidationError) as refused:
        services.entry_reverse(entry=reversal, staff=staff_user, site=make_site(), note="Oups")
    assert codes(refused.value) == {"reversal_of_reversal"}
    assert owed(family) == Decimal("0.00")


def test_a_reversal_says_why(family, staff_user):
    mistake = charge(family, "3.00", staff_user)
    with pytest.raises(ValidationError) as refused:
        services.entry_reverse(entry=mistake, staff=staff_user, site=make_site(), note="")
    assert codes(refused.value) == {"note_required"}
    assert not Entry.objects.filter(reverses=mistake).exists()


def test_a_waived_charge_is_recorded_and_owes_nothing(family, staff_user):
    waived = charge(family, "2.40", staff_user, kind=Kind.LATE_FEE, waived=True, note="12 jours de retard")
    assert Entry.objects.get(pk=waived.pk).waived and waived.amount == Decimal("2.40")
    assert owed(family) == Decimal("0.00")
    with pytest.raises(ValidationError) as refused:
        services.entry_reverse(entry=waived, staff=staff_user, site=make_site(), note="?")
    assert codes(refused.value) == {"waived_charge"}


def test_a_refund_gives_back_the_familys_credit_and_no_more(family, staff_user):
    piece = charge(family, "4.00", staff_user, kind=Kind.MISSING_PIECE)
    pay(family, "4.00", staff_user)
    services.entry_reverse(entry=piece, staff=staff_user, site=make_site(), note="Pièce rapportée")
    assert owed(family) == Decimal("-4.00")
    with pytest.raises(ValidationError) as refused:
        services.refund_create(
            member=family, amount=Decimal("5.00"), method="cash", staff=staff_user, site=make_site()
        )
    assert codes(refused.value) == {"refund_exceeds_credit"}
    services.refund_create(
        member=family, amount=Decimal("4.00"), method="cash", staff=staff_user, site=make_site()
    )
    assert owed(family) == Decimal("0.00")


def test_the_orm_never_updates_or_deletes_an_entry(family, staff_user):
    entry = charge(family, "5.00", staff_user)
    entry.amount = Decimal("0.50")
    with pytest.raises(AppendOnlyError):
        entry.save()
    with pytest.raises(AppendOnlyError):
        entry.delete()
    with pytest.raises(AppendOnlyError):
        Entry.objects.filter(pk=entry.pk).update(amount=Decimal("0.50"))
    with pytest.raises(AppendOnlyError):
        Entry.objects.bulk_update([entry], ["amount"])
    with pytest.raises(AppendOnlyError):
        Entry.objects.filter(pk=entry.pk).delete()
    assert Entry.objects.get(pk=entry.pk).amount == Decimal("5.00")


@on_postgresql
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE ledger_entry SET amount = 0.01",
        "DELETE FROM ledger_entry",
        "UPDATE ledger_membership SET price = 0",
        "DELETE FROM ledger_membership",
        "UPDATE ledger_tillclosure SET cash_counted = 1",
        "DELETE FROM ledger_tillclosure",
    ],
)
def test_postgresql_refuses_to_change_or_delete_the_ledgers_history(family, staff_user, statement):
    membership_type = family.membership_type
    membership_type.price = Decimal("25.00")
    membership_type.save()
    Member.objects.filter(pk=family.pk).update(
        membership_expiry=timezone.localdate() - datetime.timedelta(days=1)
    )
    services.membership_renew(
        member=family, membership_type=membership_type, staff=staff_user, site=make_site()
    )
    till.till_close(site=make_site(), staff=staff_user, cash_counted=Decimal("0"))
    counts = (Entry.objects.count(), Membership.objects.count(), TillClosure.objects.count())
    assert counts == (1, 1, 1)
    with (
        pytest.raises(IntegrityError, match="refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement)
    assert (Entry.objects.count(), Membership.objects.count(), TillClosure.objects.count()) == counts
    assert Entry.objects.get().amount == Decimal("25.00")


@on_postgresql
@pytest.mark.parametrize(
    "statement",
    [
        "TRUNCATE ledger_entry CASCADE",
        "TRUNCATE ledger_membership",
        "TRUNCATE ledger_tillclosure CASCADE",
        "TRUNCATE ledger_tillclosurereversal",
        # Emptying the sites reaches the entries through their foreign key.
        "TRUNCATE catalogue_location CASCADE",
    ],
)
def test_postgresql_refuses_to_empty_the_ledgers_tables(family, staff_user, statement):
    charge(family, "5.00", staff_user)
    till.till_close(site=make_site(), staff=staff_user, cash_counted=Decimal("0"))
    with (
        pytest.raises(IntegrityError, match="TRUNCATE on ledger_.* refused"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        # The test runner's own connections may empty the tables between tests (tests/conftest.py);
        # this statement runs as any other session would.
        cursor.execute("SET LOCAL ludotheque.allow_truncate = off")
        # The test's rows are in its open transaction: their foreign keys checked now, as after a commit.
        cursor.execute("SET CONSTRAINTS ALL IMMEDIATE")
        cursor.execute(statement)
    assert Entry.objects.count() == 1 and TillClosure.objects.count() == 1


@on_postgresql
@pytest.mark.parametrize(
    "statement",
    [
        "INSERT INTO ledger_entry (member_id, kind, amount, method, cheque_number, recorded_at, site_id,"
        " clerk_id, waived, note) VALUES (%(member)s, 'other', 'NaN', '', '', now(), %(site)s, %(clerk)s,"
        " false, 'pas un nombre')",
        "INSERT INTO ledger_tillclosure (site_id, closed_at, closed_by_id, opening_float, cash_expected,"
        " cash_counted, float_kept, note) VALUES (%(site)s, now(), %(clerk)s, 0, 0, 'NaN', 0, '')",
    ],
)
def test_postgresql_refuses_an_amount_that_is_not_a_number(family, staff_user, statement):
    with (
        pytest.raises(IntegrityError, match="ledger_entry_amount_a_number|ledger_tillclosure_cash_amounts"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(statement, {"member": family.pk, "site": make_site().pk, "clerk": staff_user.pk})
    assert not Entry.objects.exists() and not TillClosure.objects.exists()


@on_postgresql
def test_postgresql_refuses_an_entry_dated_into_a_closed_till_period(family, staff_user):
    site = make_site()
    earlier = timezone.now() - datetime.timedelta(hours=1)
    till.till_close(site=site, staff=staff_user, cash_counted=Decimal("0"))
    with (
        pytest.raises(IntegrityError, match="the till of site .* is closed"),
        transaction.atomic(),
        connection.cursor() as cursor,
    ):
        cursor.execute(
            "INSERT INTO ledger_entry (member_id, kind, amount, method, cheque_number, recorded_at, site_id,"
            " clerk_id, waived, note) VALUES (%s, 'other', 5, '', '', %s, %s, %s, false, 'glissé')",
            [family.pk, earlier, site.pk, staff_user.pk],
        )
    assert not Entry.objects.exists()


@pytest.mark.parametrize(
    ("fields", "constraint"),
    [
        ({"kind": "gift", "amount": "5"}, "ledger_entry_kind_known"),
        ({"kind": "other", "amount": "-5"}, "ledger_entry_amount_sign"),
        ({"kind": "other", "amount": "0"}, "ledger_entry_amount_sign"),
        ({"kind": "other", "amount": "5", "method": "cash"}, "ledger_entry_method_iff_money"),
        ({"kind": "payment", "amount": "5"}, "ledger_entry_method_iff_money"),
        ({"kind": "payment", "amount": "5", "method": "cheque"}, "ledger_entry_cheque_number_iff_cheque"),
        (
            {"kind": "payment", "amount": "5", "method": "cash", "waived": True},
            "ledger_entry_only_charges_waived",
        ),
        (
            {"kind": "deposit_returned", "amount": "5", "method": "cash"},
            "ledger_entry_deposit_iff_settlement",
        ),
        (
            {"kind": "other", "amount": "5", "receipt_year": 2026, "receipt_number": 1},
            "ledger_entry_receipt_only_for_money_received",
        ),
    ],
)
def test_the_database_guards_amounts_and_kinds(family, staff_user, fields, constraint):
    values = {"method": "", "cheque_number": "", "note": "x"} | fields
    values["amount"] = Decimal(values["amount"])
    with pytest.raises(IntegrityError, match=constraint), transaction.atomic():
        Entry.objects.create(member=family, site=make_site(), clerk=staff_user, **values)
