"""The ledger in the admin is read only; fees and prices are set there (membership types, pieces, copies)."""

from decimal import Decimal

import pytest
from django.urls import reverse

from ledger.models import Entry
from members.models import MembershipType
from tests.conftest import text_of
from tests.ledger_helpers import charge
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def admin_client(client, staff_user):
    client.force_login(staff_user)
    return client


def test_an_entry_can_be_read_but_not_changed_or_deleted_in_the_admin(admin_client, staff_user):
    entry = charge(make_member("M0001"), "5.00", staff_user, note="Boîte abîmée")
    change = reverse("admin:ledger_entry_change", args=[entry.pk])
    page = admin_client.get(change)
    assert page.status_code == 200 and "Boîte abîmée" in text_of(page)
    assert 'name="_save"' not in page.content.decode()
    assert admin_client.post(change, {"amount": "0.50", "note": "x"}).status_code == 403
    assert admin_client.get(reverse("admin:ledger_entry_delete", args=[entry.pk])).status_code == 403
    assert (
        admin_client.post(reverse("admin:ledger_entry_delete", args=[entry.pk]), {"post": "yes"}).status_code
        == 403
    )
    assert Entry.objects.get().amount == Decimal("5.00")


def test_the_entry_list_searches_by_family_and_receipt_number(admin_client, staff_user):
    charge(make_member("M0001", "Alex Tartempion"), "5.00", staff_user)
    url = reverse("admin:ledger_entry_changelist")
    assert "Alex Tartempion" in text_of(admin_client.get(url + "?q=Tartempion"))
    assert admin_client.get(url + "?q=abc").status_code == 200
    assert admin_client.get(url + "?q=12").status_code == 200


def test_a_fee_in_other_digits_is_refused_in_the_admin(admin_client):
    fields = {
        "name": "Famille (1 an)",
        "duration_days": 365,
        "price": "٢٥",
        "loan_quota": 4,
        "loan_period_days": 21,
        "renewals_allowed": 1,
        "late_loans": "refuse",
        "loan_fee": "0",
        "late_fee_per_day": "0,20",
        "debt_limit": "20",
    }
    response = admin_client.post(reverse("admin:members_membershiptype_add"), fields)
    assert response.status_code == 200
    assert "Écrivez le montant avec les chiffres 0 à 9 et une virgule, par exemple 12,50." in text_of(
        response
    )
    assert not MembershipType.objects.exists()


def test_a_librarian_sets_the_fees_of_a_membership_type(admin_client):
    response = admin_client.post(
        reverse("admin:members_membershiptype_add"),
        {
            "name": "Famille (1 an)",
            "kind": "family",
            "duration_days": 365,
            "price": "25",
            "loan_quota": 4,
            "loan_period_days": 21,
            "renewals_allowed": 1,
            "late_loans": "refuse",
            "loan_fee": "0",
            "late_fee_per_day": "0,20",
            "late_fee_cap": "5",
            "charge_missing_pieces": "on",
            "debt_limit": "20",
        },
    )
    assert response.status_code == 302, text_of(response)
    saved = MembershipType.objects.get()
    assert (
        saved.late_fee_per_day,
        saved.late_fee_cap,
        saved.charge_missing_pieces,
        saved.charge_lost_games,
        saved.late_loans,
    ) == (
        Decimal("0.20"),
        Decimal("5"),
        True,
        False,
        MembershipType.LateLoans.REFUSE,
    )


def test_a_negative_fee_is_refused_with_a_message(admin_client):
    response = admin_client.post(
        reverse("admin:members_membershiptype_add"),
        {
            "name": "Gratuit",
            "duration_days": 365,
            "price": "0",
            "loan_quota": 4,
            "loan_period_days": 21,
            "renewals_allowed": 1,
            "late_loans": "warn",
            "loan_fee": "-1",
            "late_fee_per_day": "0",
            "debt_limit": "0",
        },
    )
    assert response.status_code == 200
    assert "Les frais et les plafonds ne peuvent pas être négatifs." in text_of(response)
    assert not MembershipType.objects.exists()


def test_pieces_and_copies_carry_their_price_in_the_catalogue_admin(admin_client):
    game = make_game("Quarto", pieces=[(16, "pièces")])
    copy = make_copy(game, "90468")
    html = admin_client.get(reverse("admin:catalogue_game_change", args=[game.pk])).content.decode()
    assert "unit_price" in html and "replacement_value" in html
    assert (
        "replacement_value"
        in admin_client.get(reverse("admin:catalogue_copy_change", args=[copy.pk])).content.decode()
    )
