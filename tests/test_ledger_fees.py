"""Fees at the desk, all off by default: per loan, late returns, missing pieces, lost games, the debt limit."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy
from ledger.models import Entry, Kind
from loans import services
from loans.models import Loan
from tests.conftest import text_of
from tests.ledger_helpers import charge, owed, pay
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


@pytest.fixture
def quarto(db):
    game = make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])
    game.components.filter(label="pièces").update(unit_price=Decimal("1.50"))
    return game


def family_with(**fees):
    return make_member("M0001", "Alex Tartempion", membership_type=make_membership_type(**fees))


def lend_late(copy, member, staff, days_late: int) -> Loan:
    loan = services.loan_create(copy=copy, member=member, staff=staff)
    Loan.objects.filter(pk=loan.pk).update(due_on=timezone.localdate() - datetime.timedelta(days=days_late))
    return Loan.objects.get(pk=loan.pk)


def test_with_no_fee_set_the_desk_charges_nothing_whatever_happens(staff_user, quarto):
    copy = make_copy(quarto, "90468")
    copy.replacement_value = Decimal("29.90")
    copy.save()
    family = make_member("M0001")
    late = lend_late(copy, family, staff_user, days_late=30)
    pieces = quarto.components.get(label="pièces")
    services.loan_return(loan=late, staff=staff_user, missing=[(pieces, 2)], playable_anyway=True)
    lost = services.loan_create(copy=copy, member=family, staff=staff_user)
    services.loan_declare_lost(loan=lost, staff=staff_user)
    assert not Entry.objects.exists()


def test_with_no_fee_set_the_return_page_proposes_none(client, staff_user, quarto):
    family = make_member("M0001")
    loan = lend_late(make_copy(quarto, "90468"), family, staff_user, days_late=30)
    client.force_login(staff_user)
    text = text_of(client.get(reverse("loans:loan-return", args=[loan.pk])))
    assert "Frais" not in text and "Remettre" not in text and "Prix d'une pièce" not in text


def test_a_loan_fee_is_charged_at_each_loan(staff_user, quarto):
    family = family_with(loan_fee=Decimal("0.50"))
    loan = services.loan_create(copy=make_copy(quarto, "90468"), member=family, staff=staff_user)
    fee = Entry.objects.get()
    assert (fee.kind, fee.amount, fee.loan, fee.copy, fee.site) == (
        Kind.LOAN_FEE,
        Decimal("0.50"),
        loan,
        loan.copy,
        loan.copy.location,
    )
    assert owed(family) == Decimal("0.50")


@pytest.mark.parametrize(("days_late", "fee"), [(1, "0.20"), (9, "1.80"), (40, "5.00")])
def test_a_late_return_is_charged_so_much_a_day_up_to_the_cap(staff_user, quarto, days_late, fee):
    family = family_with(late_fee_per_day=Decimal("0.20"), late_fee_cap=Decimal("5.00"))
    loan = lend_late(make_copy(quarto, "90468"), family, staff_user, days_late)
    result = services.loan_return(loan=loan, staff=staff_user)
    charged = Entry.objects.get()
    assert result.charges == [charged]
    assert (charged.kind, charged.amount, charged.loan, charged.waived) == (
        Kind.LATE_FEE,
        Decimal(fee),
        loan,
        False,
    )
    assert owed(family) == Decimal(fee)


def test_a_return_on_time_is_charged_nothing(staff_user, quarto):
    family = family_with(late_fee_per_day=Decimal("0.20"))
    loan = services.loan_create(copy=make_copy(quarto, "90468"), member=family, staff=staff_user)
    services.loan_return(loan=loan, staff=staff_user)
    assert not Entry.objects.exists()


def test_a_waived_late_fee_is_recorded_and_costs_nothing(staff_user, quarto):
    family = family_with(late_fee_per_day=Decimal("0.50"))
    loan = lend_late(make_copy(quarto, "90468"), family, staff_user, days_late=4)
    services.loan_return(loan=loan, staff=staff_user, waive_late_fee=True)
    waived = Entry.objects.get()
    assert (waived.kind, waived.amount, waived.waived, waived.clerk) == (
        Kind.LATE_FEE,
        Decimal("2.00"),
        True,
        staff_user,
    )
    assert waived.note == "4 jours de retard"
    assert owed(family) == Decimal("0.00")


def test_the_return_page_proposes_the_late_fee_and_the_clerk_waives_it(client, staff_user, quarto):
    family = family_with(late_fee_per_day=Decimal("0.50"))
    loan = lend_late(make_copy(quarto, "90468"), family, staff_user, days_late=4)
    board, pieces = quarto.components.all()
    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:loan-return", args=[loan.pk])))
    assert "Frais de retard proposés : 2,00 € pour 4 jours de retard." in page
    response = client.post(
        reverse("loans:loan-return", args=[loan.pk]),
        {"all_complete": "1", "waive_late_fee": "on"},
        follow=True,
    )
    assert "Frais de retard (4 jours de retard) : 2,00 € remis, non facturé." in text_of(response)
    assert Entry.objects.get().waived and owed(family) == Decimal("0.00")


def test_missing_pieces_are_charged_at_their_price_and_credited_back_when_they_return(staff_user, quarto):
    family = family_with(charge_missing_pieces=True)
    copy = make_copy(quarto, "90468")
    loan = services.loan_create(copy=copy, member=family, staff=staff_user)
    pieces = quarto.components.get(label="pièces")
    result = services.loan_return(loan=loan, staff=staff_user, missing=[(pieces, 2)])
    charged = Entry.objects.get()
    assert (charged.kind, charged.amount, charged.missing_piece) == (
        Kind.MISSING_PIECE,
        Decimal("3.00"),
        result.missing[0],
    )
    assert charged.note == "2 × pièces"
    pay(family, "3.00", staff_user)

    services.missing_piece_recover(missing_piece=result.missing[0], staff=staff_user)
    credit = Entry.objects.get(reverses=charged)
    assert credit.amount == Decimal("-3.00") and credit.note == "Pièce rapportée"
    assert owed(family) == Decimal("-3.00")


def test_a_piece_found_in_the_box_at_the_next_return_is_credited_back(staff_user, quarto):
    family = family_with(charge_missing_pieces=True)
    copy = make_copy(quarto, "90468")
    pieces = quarto.components.get(label="pièces")
    first = services.loan_create(copy=copy, member=family, staff=staff_user)
    piece = services.loan_return(
        loan=first, staff=staff_user, missing=[(pieces, 1)], playable_anyway=True
    ).missing[0]
    second = services.loan_create(copy=copy, member=family, staff=staff_user)
    result = services.loan_return(loan=second, staff=staff_user, recovered=[piece])
    assert [credit.reverses.missing_piece for credit in result.credits] == [piece]
    assert owed(family) == Decimal("0.00")


def test_pieces_without_a_price_or_a_type_that_does_not_charge_them_cost_nothing(staff_user, quarto):
    board = quarto.components.get(label="plateau de 16 cases")
    family = family_with(charge_missing_pieces=True)
    loan = services.loan_create(copy=make_copy(quarto, "90468"), member=family, staff=staff_user)
    services.loan_return(loan=loan, staff=staff_user, missing=[(board, 1)])
    other = make_member("M0002", membership_type=make_membership_type())
    loan = services.loan_create(copy=make_copy(quarto, "90469"), member=other, staff=staff_user)
    services.loan_return(loan=loan, staff=staff_user, missing=[(quarto.components.get(label="pièces"), 3)])
    assert not Entry.objects.exists()


def test_the_return_page_shows_each_pieces_price_and_can_waive_them(client, staff_user, quarto):
    family = family_with(charge_missing_pieces=True)
    loan = services.loan_create(copy=make_copy(quarto, "90468"), member=family, staff=staff_user)
    board, pieces = quarto.components.all()
    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:loan-return", args=[loan.pk])))
    assert "Prix d'une pièce" in page and "1,50 €" in page
    response = client.post(
        reverse("loans:loan-return", args=[loan.pk]),
        {f"missing_{pieces.pk}": "2", "waive_missing_pieces": "on"},
        follow=True,
    )
    assert "Pièce manquante (2 × pièces) : 3,00 € remis, non facturé." in text_of(response)
    assert Entry.objects.get().waived


def test_a_lost_game_closes_the_loan_marks_the_copy_lost_and_charges_its_replacement_value(
    staff_user, quarto
):
    family = family_with(charge_lost_games=True)
    copy = make_copy(quarto, "90468")
    Copy.objects.filter(pk=copy.pk).update(replacement_value=Decimal("29.90"))
    loan = services.loan_create(copy=copy, member=family, staff=staff_user)
    result = services.loan_declare_lost(loan=loan, staff=staff_user)
    loan.refresh_from_db()
    assert not loan.is_open and loan.return_check == Loan.ReturnCheck.LOST
    assert Copy.objects.get(pk=copy.pk).status == Copy.Status.LOST
    assert [(entry.kind, entry.amount) for entry in result.charges] == [(Kind.LOST_GAME, Decimal("29.90"))]
    assert owed(family) == Decimal("29.90")
    with pytest.raises(ValidationError):
        services.loan_declare_lost(loan=loan, staff=staff_user)


def test_the_desk_declares_a_game_lost_and_may_waive_its_price(client, staff_user, quarto):
    family = family_with(charge_lost_games=True)
    copy = make_copy(quarto, "90468")
    Copy.objects.filter(pk=copy.pk).update(replacement_value=Decimal("29.90"))
    loan = services.loan_create(copy=copy, member=family, staff=staff_user)
    client.force_login(staff_user)
    url = reverse("loans:loan-lost", args=[loan.pk])
    assert "Valeur de remplacement proposée : 29,90 €" in text_of(client.get(url))
    response = client.post(url, {"waive_charge": "on"}, follow=True)
    assert "noté perdu par Alex Tartempion" in text_of(response)
    assert Entry.objects.get().waived and owed(family) == Decimal("0.00")


def test_lending_is_refused_when_the_family_owes_more_than_the_limit(staff_user, quarto):
    family = family_with(debt_limit=Decimal("10.00"))
    charge(family, "10.00", staff_user)
    services.loan_create(copy=make_copy(quarto, "90468"), member=family, staff=staff_user)
    charge(family, "0.01", staff_user)
    second = make_copy(quarto, "90469")
    with pytest.raises(ValidationError) as refused:
        services.loan_create(copy=second, member=family, staff=staff_user)
    assert {item.code for item in refused.value.error_dict["member"]} == {"debt_limit"}
    assert refused.value.messages == [
        "Alex Tartempion doit 10,01\u00a0€ à la ludothèque, plus que les 10,00\u00a0€ permis par l'adhésion "
        f"« {family.membership_type.name} » : encaissez un paiement avant de prêter."
    ]
    pay(family, "0.01", staff_user)
    assert services.loan_create(copy=second, member=family, staff=staff_user)


def test_a_limit_of_zero_never_refuses(staff_user, quarto):
    family = make_member("M0001")
    charge(family, "500.00", staff_user)
    assert services.loan_create(copy=make_copy(quarto, "90468"), member=family, staff=staff_user)


def test_the_desk_and_the_api_say_why_lending_is_refused(client, staff_user, quarto):
    family = family_with(debt_limit=Decimal("5.00"))
    charge(family, "12.00", staff_user)
    make_copy(quarto, "90468")
    client.force_login(staff_user)
    response = client.post(family.get_absolute_url(), {"barcode": "90468"})
    assert response.status_code == 400
    assert "Alex Tartempion doit 12,00 € à la ludothèque" in text_of(response)
    assert "Doit 12,00 € à la ludothèque." in text_of(response)
    response = client.post(
        "/api/loans/", {"barcode": "90468", "member": family.pk}, content_type="application/json"
    )
    assert response.status_code == 400
    assert "plus que les 5,00\u00a0€ permis" in response.json()["member"][0]
    assert not Loan.objects.exists()


def test_the_api_returns_a_late_game_with_its_fee_waived(client, staff_user, quarto):
    family = family_with(late_fee_per_day=Decimal("1.00"))
    loan = lend_late(make_copy(quarto, "90468"), family, staff_user, days_late=3)
    client.force_login(staff_user)
    response = client.post(
        f"/api/loans/{loan.pk}/return/", {"waive_late_fee": True}, content_type="application/json"
    )
    assert response.status_code == 200
    assert [(line["kind"], line["amount"], line["waived"]) for line in response.json()["charges"]] == [
        ("late_fee", "3.00", True)
    ]
    response = client.post(f"/api/loans/{loan.pk}/lost/", {}, content_type="application/json")
    assert response.status_code == 400 and "déjà clôturé" in response.json()["non_field_errors"][0]
