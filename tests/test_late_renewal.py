"""A late loan is not renewed by its family: the desk renews it, once its late fee is charged or waived."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger.models import Entry, Kind
from loans import services
from loans.models import Loan
from tests.conftest import text_of
from tests.ledger_helpers import owed
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db

REFUSED = "un jeu en retard ne se prolonge pas en ligne"


@pytest.fixture
def late_loan(staff_user) -> Loan:
    """« 7 Wonders », 20 days late, at 0,20 € a day: 4,00 € of late fee so far."""
    membership_type = make_membership_type(name="Famille (1 an)", late_fee_per_day=Decimal("0.20"))
    member = make_member("M0001", membership_type=membership_type, user=make_family_user())
    loan = services.loan_create(
        copy=make_copy(make_game("7 Wonders"), "91233"), member=member, staff=staff_user
    )
    Loan.objects.filter(pk=loan.pk).update(due_on=timezone.localdate() - datetime.timedelta(days=20))
    loan.refresh_from_db()
    return loan


def test_the_family_cannot_renew_a_late_loan_and_is_told_why(client, late_loan):
    client.force_login(late_loan.member.user)
    page = text_of(client.get(reverse("loans:account")))
    assert REFUSED in page
    assert reverse("loans:account-loan-renew", args=[late_loan.pk]) not in page
    response = client.post(reverse("loans:account-loan-renew", args=[late_loan.pk]), follow=True)
    assert REFUSED in text_of(response)
    assert Loan.objects.get(pk=late_loan.pk).due_on == late_loan.due_on
    assert Loan.objects.get(pk=late_loan.pk).renewals == 0


def test_the_api_asks_the_desk_to_charge_or_waive_the_late_fee(client, staff_user, late_loan):
    client.force_login(staff_user)
    url = f"/api/loans/{late_loan.pk}/renew/"
    response = client.post(url, {}, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {
        "late_fee": [
            "« 7 Wonders » a 20 jours de retard (4,00\u00a0€ de frais) : facturez le retard ou annulez-le, "
            "avec une raison, avant de le prolonger."
        ]
    }
    assert Loan.objects.get(pk=late_loan.pk).due_on == late_loan.due_on and not Entry.objects.exists()


def test_the_desk_charges_the_late_fee_so_far_and_renews_from_today(client, staff_user, late_loan):
    client.force_login(staff_user)
    response = client.post(
        f"/api/loans/{late_loan.pk}/renew/", {"late_fee": "charge"}, content_type="application/json"
    )
    assert response.status_code == 200
    fee = Entry.objects.get()
    assert (fee.kind, fee.amount, fee.waived, fee.loan_id) == (
        Kind.LATE_FEE,
        Decimal("4.00"),
        False,
        late_loan.pk,
    )
    assert "20 jours de retard" in fee.note
    assert owed(late_loan.member) == Decimal("4.00")
    renewed = Loan.objects.get(pk=late_loan.pk)
    assert renewed.due_on >= timezone.localdate() + datetime.timedelta(days=21) and renewed.renewals == 1
    # Returned on time after the renewal, the loan owes no more late fee.
    services.loan_return(loan=renewed, staff=staff_user)
    assert Entry.objects.filter(kind=Kind.LATE_FEE).count() == 1


def test_a_waiver_says_why_and_stays_on_the_record(client, staff_user, late_loan):
    client.force_login(staff_user)
    url = f"/api/loans/{late_loan.pk}/renew/"
    response = client.post(url, {"late_fee": "waive"}, content_type="application/json")
    assert response.status_code == 400
    assert response.json() == {"reason": ["Dites pourquoi le retard est annulé."]}
    response = client.post(
        url,
        {"late_fee": "waive", "reason": "Ludothèque fermée deux semaines"},
        content_type="application/json",
    )
    assert response.status_code == 200
    waived = Entry.objects.get()
    assert (waived.amount, waived.waived) == (Decimal("4.00"), True)
    assert "Ludothèque fermée deux semaines" in waived.note
    assert owed(late_loan.member) == Decimal("0.00")


def test_the_desk_page_offers_to_charge_or_waive_before_renewing(client, staff_user, late_loan):
    client.force_login(staff_user)
    url = reverse("loans:loan-renew", args=[late_loan.pk])
    assert url in client.get(late_loan.member.get_absolute_url()).content.decode()
    page = text_of(client.get(url))
    assert "En retard de 20 jours : 4,00 € de frais de retard à ce jour." in page
    assert "Facturer les 4,00 € de retard" in page and "Annuler le retard" in page
    # The family page's button posted without a choice: the renewal's page asks for one.
    response = client.post(url)
    assert response.status_code == 400
    assert "facturez le retard ou annulez-le" in text_of(response)
    response = client.post(url, {"late_fee": "waive", "reason": "Enfant malade"})
    assert response.status_code == 302
    assert Entry.objects.get().waived and Loan.objects.get(pk=late_loan.pk).renewals == 1


def test_a_late_loan_without_late_fees_is_renewed_at_the_desk_without_a_question(
    client, staff_user, late_loan
):
    late_loan.member.membership_type.late_fee_per_day = Decimal("0")
    late_loan.member.membership_type.save()
    client.force_login(staff_user)
    response = client.post(reverse("loans:loan-renew", args=[late_loan.pk]))
    assert response.status_code == 302
    assert Loan.objects.get(pk=late_loan.pk).renewals == 1 and not Entry.objects.exists()
