"""The events' API: events read by anyone and written by staff; bookings (staff) through the desk's rules."""

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from events import services
from events.models import Booking, Event
from tests.event_helpers import make_event
from tests.loan_helpers import make_member

pytestmark = pytest.mark.django_db


def post(client, url: str, data: dict | None = None):
    return client.post(url, data or {}, content_type="application/json")


@pytest.fixture
def api(client, staff_user):
    client.force_login(staff_user)
    return client


def test_anyone_reads_the_upcoming_events_with_their_places_left(client, staff_user):
    event = make_event("Soirée jeux", places=5)
    make_event("Passée", in_days=-3)
    services.booking_create(event=event, member=make_member("M1"), children=1, adults=1, staff=staff_user)

    body = client.get("/api/events/", {"upcoming": "true"}).json()

    assert [item["title"] for item in body["results"]] == ["Soirée jeux"]
    assert body["results"][0]["places_left"] == 3


def test_only_staff_writes_events_and_bad_input_answers_400_per_field(client, api, staff_user):
    location = make_event().location_id
    data = {
        "title": "Atelier",
        "location": location,
        "starts_at": "2030-03-10T14:00:00+01:00",
        "ends_at": "2030-03-10T13:00:00+01:00",
        "price": "-1",
        "places": 0,
    }
    response = post(api, "/api/events/", data)
    assert response.status_code == 400
    assert set(response.json()) >= {"price"}
    response = post(api, "/api/events/", data | {"price": "2.50", "places": 8})
    assert response.status_code == 400 and "ends_at" in response.json()
    response = post(
        api, "/api/events/", data | {"price": "2.50", "places": 8, "ends_at": "2030-03-10T17:00:00+01:00"}
    )
    assert response.status_code == 201
    assert Event.objects.get(title="Atelier").places == 8
    api.logout()
    assert post(client, "/api/events/", data).status_code == 403


def test_staff_books_through_the_api_full_goes_to_the_waiting_list(api, staff_user):
    event = make_event(places=2)
    first = post(
        api, "/api/event-bookings/", {"event": event.pk, "member": make_member("M1").pk, "adults": 2}
    )
    second = post(api, "/api/event-bookings/", {"event": event.pk, "name": "Camille", "contact": "0470"})
    assert first.status_code == 201 and first.json()["status"] == "confirmed"
    assert second.status_code == 201 and second.json()["status"] == "waiting"

    cancelled = post(api, f"/api/event-bookings/{first.json()['id']}/cancel/")
    assert cancelled.status_code == 200 and cancelled.json()["status"] == "cancelled"
    assert Booking.objects.get(pk=second.json()["id"]).status == "confirmed"
    again = post(api, f"/api/event-bookings/{first.json()['id']}/cancel/")
    assert again.status_code == 409


def test_a_refused_booking_answers_400_with_the_reason_on_its_field(api):
    event = make_event(members_only=True)
    response = post(api, "/api/event-bookings/", {"event": event.pk, "name": "Camille"})
    assert response.status_code == 400 and "member" in response.json()
    response = post(api, "/api/event-bookings/", {"event": event.pk, "member": 999999})
    assert response.status_code == 400 and "member" in response.json()
    response = post(api, "/api/event-bookings/", {"event": event.pk, "adults": "x"})
    assert response.status_code == 400 and "adults" in response.json()


def test_attendance_is_ticked_through_the_api(api, staff_user):
    booking = services.booking_create(event=make_event(), member=make_member("M1"), staff=staff_user)
    response = post(api, f"/api/event-bookings/{booking.pk}/attendance/", {"attendance": "present"})
    assert response.status_code == 200 and response.json()["attendance"] == "present"
    response = post(api, f"/api/event-bookings/{booking.pk}/attendance/", {"attendance": "maybe"})
    assert response.status_code == 400


def test_bookings_are_staff_only_and_never_deleted(client, api, staff_user):
    booking = services.booking_create(event=make_event(), member=make_member("M1"), staff=staff_user)
    assert api.delete(f"/api/event-bookings/{booking.pk}/").status_code == 405
    api.logout()
    assert client.get("/api/event-bookings/").status_code == 403


def test_the_event_list_reads_a_page_in_a_bounded_number_of_queries(client, staff_user):
    for index in range(5):
        make_event(f"Soirée {index}")

    with CaptureQueriesContext(connection) as queries:
        assert client.get("/api/events/").status_code == 200
    few = len(queries)
    for index in range(5):
        make_event(f"Atelier {index}")
    with CaptureQueriesContext(connection) as queries:
        client.get("/api/events/")
    assert len(queries) == few  # the places left are counted in the list's query
