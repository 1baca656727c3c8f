"""The desk's demo data: fictional families in every situation, and an account to open the desk."""

import io

import pytest
from django.core.management import call_command
from django.urls import reverse

from catalogue.models import Copy, Location
from kits.models import Kit
from loans.models import Hold, Loan, MissingPiece
from members.models import Member, MembershipType

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo():
    out = io.StringIO()
    call_command("load_demo", "--force", stdout=out)
    return out.getvalue()


def test_the_demo_has_families_with_current_and_late_loans_a_hold_and_an_incomplete_copy(demo):
    families = Member.objects.filter(membership_type__kind=MembershipType.Kind.FAMILY)
    assert families.count() == 4
    assert all(member.email.endswith("@example.org") for member in families.exclude(card_barcode="M0003"))
    assert Member.objects.get(card_barcode="M0003").email == ""  # told by letter
    # The families' games at home (the school's kit is the kits demo's).
    assert Loan.objects.open().filter(member__in=families).count() == 4
    assert Loan.objects.overdue().count() == 2
    assert Hold.objects.waiting().get().game.title == "7 Wonders"
    assert Hold.objects.ready().get().game.title == "Biblios"
    assert Copy.objects.get(barcode="91684").status == Copy.Status.INCOMPLETE
    assert MissingPiece.objects.still_missing().count() == 1
    assert not Member.objects.get(card_barcode="M0004").membership_is_valid()
    # The school has its kit out.
    assert "« Malle jeux de coopération » out at École Jules Ferry" in demo
    kit = Kit.objects.get(name="Malle jeux de coopération")
    school_loans = Loan.objects.open().filter(member__card_barcode="C0001")
    assert set(school_loans.values_list("copy", flat=True)) == set(kit.items.values_list("copy", flat=True))


def test_the_demo_has_an_old_loan_anonymised_by_the_daily_step(demo):
    assert "1 loan(s), 0 hold(s), 0 notice(s) older than 24 months anonymised" in demo
    old = Loan.objects.get(member__isnull=True)
    assert old.returned_at is not None
    call_command("load_demo", "--force", stdout=io.StringIO())
    assert Loan.objects.filter(member__isnull=True).count() == 1


def log_in(client, username: str, password: str) -> None:
    """Through the login page, as a person does (every login goes through the lockout check)."""
    response = client.post(reverse("login"), {"username": username, "password": password})
    assert response.status_code == 302, response.content


def test_the_demo_s_week_has_its_openings_its_christmas_closure_and_its_notices(demo):
    from notices.models import Notice
    from opening.models import Closure, OpeningHours

    # Every site (the annex without a copy of its own yet) opens the demo's week.
    assert OpeningHours.objects.count() == 3 * Location.objects.count()
    assert Closure.objects.get().reason == "Vacances de Noël"
    # Due dates fall on the days the site opens (Wednesday and Saturday).
    assert {loan.due_on.weekday() for loan in Loan.objects.open()} <= {2, 5}
    notices = Notice.objects.order_by("member__card_barcode")
    assert [(n.member.card_barcode, n.channel) for n in notices] == [
        ("M0001", "email"),
        ("M0002", "email"),
        ("M0003", "letter"),
    ]
    assert "2 e-mail(s) handed to the tasks backend, 1 letter(s) to print" in demo
    call_command("load_demo", "--force", stdout=io.StringIO())
    assert Notice.objects.count() == 3  # run again: nobody is told twice


def test_the_demo_prints_the_desk_account_and_it_opens_the_desk(client, demo):
    assert "benevole / ludotheque" in demo
    log_in(client, "benevole", "ludotheque")
    assert client.get(reverse("loans:desk")).status_code == 200
    assert client.get(reverse("admin:members_member_changelist")).status_code == 200


def test_the_demo_family_account_reads_its_loans(client, demo):
    log_in(client, "famille", "ludotheque")
    html = client.get(reverse("loans:account")).content.decode()
    assert "Alex Tartempion" in html and "7 Wonders" in html
    assert client.get(reverse("loans:desk")).status_code == 403


def test_the_demo_books_its_giant_game_for_dates(demo):
    from loans.models import DateBooking

    bookings = list(DateBooking.objects.active().select_related("copy__game", "member"))
    assert {booking.member.card_barcode for booking in bookings} == {"M0001", "M0002"}
    assert all(booking.copy.game.date_bookable for booking in bookings)
    assert "Puissance 4 géant booked for Alex Tartempion" in demo
