"""Loan rules per kind of item: each line of the table in loans/loan_rules.py, against the membership's."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone

from catalogue.models import Copy, ItemKind
from ledger.models import Entry, Kind
from loans import services
from loans.loan_rules import family_rules, loan_rule
from tests.ledger_helpers import owed
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


def kind(name: str, **rules) -> ItemKind:
    return ItemKind.objects.create(name=name, **rules)


def copy_of(kind_: ItemKind, barcode: str, title: str = "Catane géant") -> Copy:
    copy = make_copy(make_game(title), barcode)
    copy.kind = kind_
    copy.save(update_fields=["kind"])
    return Copy.objects.select_related("game", "kind").get(pk=copy.pk)


def family(**membership):
    values = {"name": "Annuelle", "loan_period_days": 21, "loan_quota": 3} | membership
    return make_member("M0001", "Alex Tartempion", membership_type=make_membership_type(**values))


def in_days(days: int) -> datetime.date:
    return timezone.localdate() + datetime.timedelta(days=days)


def refusal_code(error: ValidationError) -> set[str]:
    return {item.code for items in error.error_dict.values() for item in items}


# Every copy has a kind: « Jeu » by default, the migration's kind for the copies already there.


def test_a_new_copy_is_a_jeu_unless_told_otherwise():
    copy = make_copy(make_game("Quarto"), "90468")
    assert copy.kind.name == "Jeu" and copy.kind.is_default


def test_a_new_copy_takes_the_kind_the_ludotheque_marked_as_default():
    ItemKind.objects.filter(is_default=True).update(is_default=False)
    toy = kind("Jouet", is_default=True)
    assert make_copy(make_game("Kapla"), "90001").kind == toy


def test_only_one_kind_is_the_default():
    make_copy(make_game("Quarto"), "90468")  # makes « Jeu », the default
    with pytest.raises(IntegrityError), transaction.atomic():
        kind("Jouet", is_default=True)


@pytest.mark.parametrize(
    "rules",
    [{"loan_period_days": 0}, {"loan_quota": 0}, {"loan_fee": Decimal("-1")}, {"deposit": Decimal(0)}],
)
def test_the_database_refuses_a_rule_that_makes_no_sense(rules):
    with pytest.raises(IntegrityError), transaction.atomic():
        kind("Grand jeu", **rules)


# Period: the kind's when set, else the membership's; a renewal adds the same period.


def test_the_period_is_the_kinds_when_it_sets_one(staff_user):
    member = family(loan_period_days=21)
    loan = services.loan_create(
        copy=copy_of(kind("Grand jeu", loan_period_days=7), "91001"), member=member, staff=staff_user
    )
    assert loan.due_on == in_days(7)


def test_the_period_is_the_memberships_when_the_kind_leaves_it_blank(staff_user):
    member = family(loan_period_days=21)
    loan = services.loan_create(copy=copy_of(kind("Jouet"), "91001"), member=member, staff=staff_user)
    assert loan.due_on == in_days(21)


def test_a_renewal_adds_the_kinds_period_again(staff_user):
    member = family(loan_period_days=21, renewals_allowed=1)
    loan = services.loan_create(
        copy=copy_of(kind("Grand jeu", loan_period_days=7), "91001"), member=member, staff=staff_user
    )
    assert services.loan_renew(loan=loan).due_on == in_days(14)


def test_a_renewal_of_a_copy_without_its_own_period_adds_the_memberships(staff_user):
    member = family(loan_period_days=21, renewals_allowed=1)
    loan = services.loan_create(copy=copy_of(kind("Jouet"), "91001"), member=member, staff=staff_user)
    assert services.loan_renew(loan=loan).due_on == in_days(42)


def test_the_number_of_renewals_stays_the_memberships(staff_user):
    member = family(renewals_allowed=0)
    loan = services.loan_create(
        copy=copy_of(kind("Grand jeu", loan_period_days=7), "91001"), member=member, staff=staff_user
    )
    with pytest.raises(ValidationError) as refused:
        services.loan_renew(loan=loan)
    assert refused.value.code == "renewal_limit"


# Fee: the kind's when set (0: free), else the membership's; never both.


def fees(member) -> list[Decimal]:
    return list(Entry.objects.filter(member=member, kind=Kind.LOAN_FEE).values_list("amount", flat=True))


def test_the_fee_is_the_kinds_instead_of_the_memberships(staff_user):
    member = family(loan_fee=Decimal("0.50"))
    services.loan_create(
        copy=copy_of(kind("Jeu vidéo", loan_fee=Decimal("2.00")), "91001"), member=member, staff=staff_user
    )
    assert fees(member) == [Decimal("2.00")]
    assert owed(member) == Decimal("2.00")


def test_a_kind_fee_of_zero_makes_the_loan_free_whatever_the_membership_charges(staff_user):
    member = family(loan_fee=Decimal("0.50"))
    services.loan_create(
        copy=copy_of(kind("Jouet", loan_fee=Decimal(0)), "91001"), member=member, staff=staff_user
    )
    assert fees(member) == []


def test_the_fee_is_the_memberships_when_the_kind_leaves_it_blank(staff_user):
    member = family(loan_fee=Decimal("0.50"))
    services.loan_create(copy=copy_of(kind("Jouet"), "91001"), member=member, staff=staff_user)
    assert fees(member) == [Decimal("0.50")]


def test_a_kind_fee_is_charged_to_a_membership_that_charges_nothing(staff_user):
    member = family()
    services.loan_create(
        copy=copy_of(kind("Jeu vidéo", loan_fee=Decimal("1.00")), "91001"), member=member, staff=staff_user
    )
    entry = Entry.objects.get(member=member, kind=Kind.LOAN_FEE)
    assert entry.amount == Decimal("1.00") and entry.copy.barcode == "91001"


# Quota: both apply, the membership's total and the kind's.


def test_the_kinds_quota_refuses_one_more_of_that_kind(staff_user):
    member = family(loan_quota=5)
    giant = kind("Grand jeu", loan_quota=1)
    services.loan_create(copy=copy_of(giant, "91001"), member=member, staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        services.loan_create(copy=copy_of(giant, "91002", "Jenga géant"), member=member, staff=staff_user)
    assert refusal_code(refused.value) == {"kind_quota_reached"}
    assert "1 exemplaire de type « Grand jeu »" in " ".join(refused.value.messages)
    assert member.loans.open().count() == 1


def test_the_kinds_quota_leaves_other_kinds_free(staff_user):
    member = family(loan_quota=5)
    services.loan_create(
        copy=copy_of(kind("Grand jeu", loan_quota=1), "91001"), member=member, staff=staff_user
    )
    services.loan_create(copy=make_copy(make_game("Quarto"), "91002"), member=member, staff=staff_user)
    assert member.loans.open().count() == 2


def test_the_memberships_total_still_counts_copies_of_a_kind_with_room_left(staff_user):
    member = family(loan_quota=1)
    services.loan_create(copy=make_copy(make_game("Quarto"), "91002"), member=member, staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        services.loan_create(
            copy=copy_of(kind("Grand jeu", loan_quota=2), "91001"), member=member, staff=staff_user
        )
    assert refusal_code(refused.value) == {"quota_reached"}


def test_a_returned_copy_frees_its_place_in_the_kinds_quota(staff_user):
    member = family(loan_quota=5)
    giant = kind("Grand jeu", loan_quota=1)
    first = services.loan_create(copy=copy_of(giant, "91001"), member=member, staff=staff_user)
    services.loan_return(loan=first, staff=staff_user)
    services.loan_create(copy=copy_of(giant, "91002", "Jenga géant"), member=member, staff=staff_user)
    assert member.loans.open().count() == 1


# Deposit: the kind's, received at checkout and held in the ledger, given back at the return.


def test_a_copy_whose_kind_asks_a_deposit_is_refused_until_the_clerk_says_how_it_is_paid(staff_user):
    member = family()
    copy = copy_of(kind("Grand jeu", deposit=Decimal("50")), "91001")
    with pytest.raises(ValidationError) as refused:
        services.loan_create(copy=copy, member=member, staff=staff_user)
    assert refusal_code(refused.value) == {"deposit_required"}
    assert "une caution de 50,00\u00a0€ est demandée" in " ".join(refused.value.messages)
    assert not member.loans.exists() and not Entry.objects.exists()


def test_the_deposit_is_received_with_the_loan_and_held(staff_user):
    member = family()
    copy = copy_of(kind("Grand jeu", deposit=Decimal("50")), "91001")
    loan = services.loan_create(
        copy=copy, member=member, staff=staff_user, deposit_method="cheque", deposit_cheque_number="1234567"
    )
    deposit = Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED)
    assert (deposit.amount, deposit.loan, deposit.copy, deposit.cheque_number) == (
        Decimal("50.00"),
        loan,
        copy,
        "1234567",
    )
    assert deposit.receipt_number is not None
    entries = Entry.objects.filter(member=member)
    assert entries.deposit_total() == Decimal("50.00")
    assert owed(member) == 0  # a deposit is held, not owed nor paid


def test_the_deposit_is_given_back_at_the_return(staff_user):
    member = family()
    loan = services.loan_create(
        copy=copy_of(kind("Grand jeu", deposit=Decimal("50")), "91001"),
        member=member,
        staff=staff_user,
        deposit_method="cash",
    )
    result = services.loan_return(loan=loan, staff=staff_user)
    back = Entry.objects.get(kind=Kind.DEPOSIT_RETURNED)
    assert result.deposits == [back]
    assert (back.amount, back.method, back.loan, back.deposit.kind) == (
        Decimal("50.00"),
        "cash",
        loan,
        Kind.DEPOSIT_RECEIVED,
    )
    assert Entry.objects.filter(member=member).deposit_total() == 0


def test_a_lost_games_deposit_stays_held_for_the_desk_to_cash(staff_user):
    member = family()
    loan = services.loan_create(
        copy=copy_of(kind("Grand jeu", deposit=Decimal("50")), "91001"),
        member=member,
        staff=staff_user,
        deposit_method="cash",
    )
    services.loan_declare_lost(loan=loan, staff=staff_user)
    assert Entry.objects.filter(member=member).deposit_total() == Decimal("50.00")
    assert not Entry.objects.filter(kind=Kind.DEPOSIT_RETURNED).exists()


def test_a_bad_cheque_refuses_the_whole_loan(staff_user):
    member = family()
    copy = copy_of(kind("Grand jeu", deposit=Decimal("50")), "91001")
    with pytest.raises(ValidationError) as refused:
        services.loan_create(copy=copy, member=member, staff=staff_user, deposit_method="cheque")
    assert refusal_code(refused.value) == {"cheque_number_required"}
    assert not member.loans.exists() and not Entry.objects.exists()


def test_no_deposit_is_taken_for_a_kind_without_one(staff_user):
    member = family()
    services.loan_create(
        copy=copy_of(kind("Jouet"), "91001"), member=member, staff=staff_user, deposit_method="cash"
    )
    assert not Entry.objects.exists()


# Always the membership's: late fees and the rest (about the family, not the object).


def test_late_fees_stay_the_memberships_for_a_kind_with_its_own_period(staff_user):
    member = family(late_fee_per_day=Decimal("0.20"))
    loan = services.loan_create(
        copy=copy_of(kind("Grand jeu", loan_period_days=7), "91001"), member=member, staff=staff_user
    )
    type(loan).objects.filter(pk=loan.pk).update(due_on=in_days(-3))
    services.loan_return(loan=type(loan).objects.get(pk=loan.pk), staff=staff_user)
    assert Entry.objects.get(kind=Kind.LATE_FEE).amount == Decimal("0.60")


# What the desk and the family read: the rule and its reason.


def test_the_rule_says_where_each_part_comes_from():
    membership = make_membership_type(name="Annuelle", loan_period_days=21, loan_fee=Decimal("0.50"))
    giant = kind("Grand jeu", loan_period_days=7, deposit=Decimal("50"), loan_quota=1)
    assert str(loan_rule(giant, membership)) == (
        "grand jeu : 7 jours, caution 50,00\u00a0€, 1 par famille ; adhésion « Annuelle » : frais 0,50\u00a0€"
    )
    assert str(loan_rule(kind("Jouet", loan_fee=Decimal(0)), membership)) == (
        "jouet : sans frais ; adhésion « Annuelle » : 21 jours"
    )


def test_the_familys_rules_list_every_kind(django_assert_num_queries):
    member = family()
    kind("Grand jeu", loan_period_days=7)
    kind("Jouet")
    with django_assert_num_queries(1):
        rules = family_rules(member)
    assert [(rule.kind.name, rule.period_days) for rule in rules] == [
        ("Grand jeu", 7),
        ("Jeu", 21),
        ("Jouet", 21),
    ]
