"""The events' pages: the public list and page, a family booking and cancelling from its account, the
desk's booking list and attendance sheet, the calendar feed and the home page; outsiders, wrong
methods and bad input."""

import datetime
import uuid

import pytest
from django.urls import reverse
from django.utils import timezone
from icalendar import Calendar

from events import services
from events.models import Booking
from ledger.models import Entry
from tests.conftest import text_of
from tests.event_helpers import make_event
from tests.loan_helpers import make_family_user, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(db):
    user = make_family_user()
    return make_member("M0001", "Alex Tartempion", user=user)


def test_the_public_list_and_page_show_an_event_and_its_places(client):
    event = make_event("Soirée jeux en famille", places=12, price="2.00", age_min=6, age_max=12)
    event.games.add(make_game("Dixit"))
    make_event("Passée", in_days=-3)

    listing = text_of(client.get(reverse("events:event-list")))
    page = text_of(client.get(event.get_absolute_url()))

    assert "Soirée jeux en famille" in listing and "Passée" not in listing
    assert "encore 12 places" in page and "de 6 à 12 ans" in page and "Dixit" in page
    assert "2,00 € par personne" in page
    assert "Connectez-vous pour réserver" in page


def test_the_home_page_shows_the_next_events_and_not_a_cancelled_one(client, staff_user):
    make_event("Soirée jeux en famille")
    services.event_cancel(event=make_event("Tournoi annulé"), staff=staff_user)
    text = text_of(client.get(reverse("home")))
    assert "Prochaines animations" in text and "Soirée jeux en famille" in text
    assert "Tournoi annulé" not in text


def test_a_family_books_from_the_event_page_and_sees_it_on_its_account(client, family):
    event = make_event("Soirée jeux", places=3)
    client.force_login(family.user)

    response = client.post(event.get_absolute_url(), {"children": 2, "adults": 1, "once": uuid.uuid4()})

    assert response.status_code == 302
    booking = Booking.objects.get(member=family)
    assert booking.status == "confirmed" and booking.created_by == family.user
    assert "Réservation confirmée" in text_of(client.get(event.get_absolute_url()))
    account = text_of(client.get(reverse("loans:account")))
    assert "Soirée jeux" in account and "inscrits : 3 personnes" in account


def test_the_same_booking_form_posted_twice_books_once(client, family):
    event = make_event(price="3.00")
    client.force_login(family.user)
    data = {"children": 1, "adults": 1, "once": uuid.uuid4()}
    client.post(event.get_absolute_url(), data)
    client.post(event.get_absolute_url(), data)
    assert Booking.objects.count() == 1 and Entry.objects.count() == 1


def test_bad_counts_answer_400_with_the_reason_on_the_field(client, family):
    client.force_login(family.user)
    response = client.post(make_event().get_absolute_url(), {"children": 0, "adults": 0})
    assert response.status_code == 400
    assert "Réservez pour au moins une personne." in text_of(response)
    response = client.post(make_event().get_absolute_url(), {"children": "deux", "adults": 1})
    assert response.status_code == 400
    assert Booking.objects.count() == 0


def test_an_anonymous_post_goes_to_the_login_page_and_books_nothing(client):
    response = client.post(make_event().get_absolute_url(), {"children": 1, "adults": 1})
    assert response.status_code == 302 and reverse("login") in response["Location"]
    assert Booking.objects.count() == 0


def test_a_user_without_a_family_cannot_book(client, outsider):
    client.force_login(outsider)
    response = client.post(make_event().get_absolute_url(), {"children": 1, "adults": 1})
    assert response.status_code == 302 and Booking.objects.count() == 0


def test_a_family_cancels_its_booking_but_not_another_one(client, family, staff_user):
    event = make_event()
    other = services.booking_create(event=event, member=make_member("M0002", "Sam Bidule"), staff=staff_user)
    mine = services.booking_create(event=event, member=family, staff=staff_user)
    client.force_login(family.user)

    assert client.post(reverse("events:account-booking-cancel", args=[other.pk])).status_code == 404
    assert client.get(reverse("events:account-booking-cancel", args=[mine.pk])).status_code == 405
    client.post(reverse("events:account-booking-cancel", args=[mine.pk]))

    mine.refresh_from_db()
    other.refresh_from_db()
    assert mine.status == "cancelled" and other.status == "confirmed"


def test_a_family_too_late_to_cancel_is_told_to_call(client, family, staff_user):
    event = make_event(in_days=1, cancellation_hours=48)
    booking = services.booking_create(
        event=event, member=family, staff=staff_user, now=timezone.now() - datetime.timedelta(days=3)
    )
    client.force_login(family.user)
    assert "trop tard pour annuler en ligne" in text_of(client.get(reverse("loans:account")))
    response = client.post(reverse("events:account-booking-cancel", args=[booking.pk]), follow=True)
    assert "appelez la ludothèque" in text_of(response)
    booking.refresh_from_db()
    assert booking.status == "confirmed"


def test_the_desk_books_a_member_by_card_and_a_non_member_by_name(client, staff_user):
    event = make_event(places=4)
    make_member("M0002", "Sam Bidule")
    client.force_login(staff_user)
    url = reverse("events:desk-event", args=[event.pk])

    client.post(url, {"card": "M0002", "children": 1, "adults": 1, "once": uuid.uuid4()})
    client.post(url, {"name": "Camille Martin", "contact": "0470", "children": 2, "adults": 1})

    sheet = text_of(client.get(url))
    assert "Sam Bidule" in sheet and "Camille Martin" in sheet
    assert "Camille Martin — 3 personnes" in sheet  # on the waiting list: 2 places were left
    assert [b.status for b in Booking.objects.order_by("pk")] == ["confirmed", "waiting"]


def test_the_desk_form_refuses_bad_input_with_400(client, staff_user):
    client.force_login(staff_user)
    url = reverse("events:desk-event", args=[make_event(price="2.00").pk])
    assert client.post(url, {"card": "NOPE", "children": 1, "adults": 1}).status_code == 400
    response = client.post(url, {"name": "Camille", "children": 1, "adults": 1})
    assert response.status_code == 400 and "famille inscrite" in text_of(response)
    assert client.post(url, {"children": 1, "adults": 1}).status_code == 400
    assert Booking.objects.count() == 0


def test_the_attendance_sheet_ticks_present_and_absent(client, staff_user):
    event = make_event()
    booking = services.booking_create(event=event, member=make_member("M0002"), staff=staff_user)
    client.force_login(staff_user)
    client.post(reverse("events:desk-attendance", args=[booking.pk]), {"attendance": "present"})
    booking.refresh_from_db()
    assert booking.attendance == "present"
    response = client.post(reverse("events:desk-attendance", args=[booking.pk]), {"attendance": "maybe"})
    assert response.status_code == 400


def test_the_desk_pages_are_staff_only(client, family, staff_user):
    event = make_event()
    booking = services.booking_create(event=event, member=family, staff=staff_user)
    client.force_login(family.user)
    for url in [
        reverse("events:desk-event-list"),
        reverse("events:desk-event", args=[event.pk]),
    ]:
        assert client.get(url).status_code == 403
    for url in [
        reverse("events:desk-attendance", args=[booking.pk]),
        reverse("events:desk-booking-cancel", args=[booking.pk]),
        reverse("events:desk-event-cancel", args=[event.pk]),
    ]:
        assert client.post(url, {"attendance": "present"}).status_code == 403
    booking.refresh_from_db()
    assert booking.attendance == "" and booking.status == "confirmed"


def test_the_desk_cancels_an_event(client, staff_user):
    event = make_event()
    client.force_login(staff_user)
    assert client.get(reverse("events:desk-event-cancel", args=[event.pk])).status_code == 405
    client.post(reverse("events:desk-event-cancel", args=[event.pk]))
    event.refresh_from_db()
    assert event.cancelled_at is not None
    assert "Cette animation est annulée." in text_of(client.get(event.get_absolute_url()))


def test_the_calendar_feed_lists_upcoming_events_with_cancelled_ones_marked(client, staff_user):
    kept = make_event("Soirée jeux")
    services.event_cancel(event=make_event("Tournoi"), staff=staff_user)
    make_event("Passée", in_days=-2)

    response = client.get(reverse("events:calendar-feed"))

    assert response["Content-Type"].startswith("text/calendar")
    entries = {str(item["summary"]): item for item in Calendar.from_ical(response.content).walk("VEVENT")}
    assert set(entries) == {"Soirée jeux", "Tournoi"}
    assert str(entries["Tournoi"]["status"]) == "CANCELLED"
    assert entries["Soirée jeux"].decoded("dtstart") == kept.starts_at
    assert str(entries["Soirée jeux"]["url"]).endswith(kept.get_absolute_url())


def test_the_stats_count_who_came_to_the_events(client, staff_user):
    event = make_event(in_days=0)
    event.starts_at = timezone.now() - datetime.timedelta(minutes=5)
    event.save()
    came = services.booking_create(
        event=event,
        member=make_member("M0002"),
        children=2,
        adults=1,
        staff=staff_user,
        now=event.starts_at - datetime.timedelta(days=1),
    )
    services.attendance_mark(booking=came, attendance="present", staff=staff_user)
    services.booking_create(
        event=event, name="De passage", children=1, adults=1, walk_in=True, staff=staff_user
    )
    client.force_login(staff_user)
    year = timezone.localtime(event.starts_at).year

    response = client.get(reverse("onsite:stats-export", args=["animations"]), {"annee": year})

    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert lines[1].split(";")[2:] == ["1", "2", "1", "1", "3", "2", "5", "0"]


def test_the_annual_report_has_the_events_and_their_attendance(client, staff_user):
    event = make_event(in_days=0)
    event.starts_at = timezone.now() - datetime.timedelta(minutes=5)
    event.save()
    family = make_member("M0002")
    came = services.booking_create(
        event=event,
        member=family,
        children=2,
        adults=1,
        staff=staff_user,
        now=event.starts_at - datetime.timedelta(days=1),
    )
    services.attendance_mark(booking=came, attendance="present", staff=staff_user)
    services.booking_create(
        event=event, name="De passage", children=1, adults=1, walk_in=True, staff=staff_user
    )
    client.force_login(staff_user)
    year = timezone.localtime(event.starts_at).year

    response = client.get(reverse("report:export-table", args=["animations-sites"]), {"annee": year})

    lines = b"".join(response.streaming_content).decode("utf-8-sig").splitlines()
    assert lines[1:] == ["Maison des Enfants;1;2;3;2;0", "Total;1;2;3;2;0"]
    page = text_of(client.get(reverse("report:annual"), {"annee": year}))
    assert "Animations et présences par mois" in page and "Sont venues à une animation" in page
