"""The desk's demo data: fictional families in every situation, and an account to open the desk."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from catalogue.models import Copy
from loans.models import Hold, Loan, Member, MissingPiece

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    out = io.StringIO()
    call_command("load_demo", "--force", stdout=out)
    return out.getvalue()


def test_the_demo_has_families_with_current_and_late_loans_a_hold_and_an_incomplete_copy(demo):
    assert Member.objects.count() == 4
    assert all(member.email.endswith("@example.org") for member in Member.objects.all())
    assert Loan.objects.open().count() == 4
    assert Loan.objects.overdue().count() == 2
    assert Hold.objects.waiting().get().game.title == "7 Wonders"
    assert Copy.objects.get(barcode="91684").status == Copy.Status.INCOMPLETE
    assert MissingPiece.objects.still_missing().count() == 1
    assert not Member.objects.get(card_barcode="M0004").membership_is_valid()


def log_in(client, username: str, password: str) -> None:
    """Through the login page, as a person does (every login goes through the lockout check)."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302, response.content


def test_the_demo_prints_the_desk_account_and_it_opens_the_desk(client, demo):
    assert "benevole / ludotheque" in demo
    log_in(client, "benevole", "ludotheque")
    assert client.get(reverse("loans:desk")).status_code == 200
    assert client.get(reverse("admin:loans_member_changelist")).status_code == 200


def test_the_demo_family_account_reads_its_loans(client, demo):
    log_in(client, "famille", "ludotheque")
    html = client.get(reverse("loans:account")).content.decode()
    assert "Alex Tartempion" in html and "7 Wonders" in html
    assert client.get(reverse("loans:desk")).status_code == 403
