"""The date bookings' API: staff book a copy or a title, see the clash as a 400 with its dates, cancel,
and hand a booking out on its day; nobody else reads or writes them."""

from decimal import Decimal

import pytest

from catalogue.models import ItemKind
from ledger.models import Entry, Kind
from loans import services
from loans.models import DateBooking
from tests.booking_helpers import day, make_bookable_game
from tests.loan_helpers import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def giant():
    return make_bookable_game()


@pytest.fixture
def api(client, staff_user):
    client.force_login(staff_user)
    return client


def test_staff_book_a_title_then_a_clash_answers_400_with_the_dates(api, giant):
    family, other = make_member("M0001", "Alex Tartempion"), make_member("M0002", "Sam Bidule")
    created = api.post(
        "/api/date-bookings/",
        {"member": family.pk, "game": giant.pk, "starts_on": day(3), "ends_on": day(5), "note": "Kermesse"},
        content_type="application/json",
    )
    assert created.status_code == 201, created.json()
    assert created.json()["barcode"] == "G001" and created.json()["status"] == "booked"

    clash = api.post(
        "/api/date-bookings/",
        {"member": other.pk, "barcode": "G001", "starts_on": day(5), "ends_on": day(6)},
        content_type="application/json",
    )
    assert clash.status_code == 400
    assert "Alex Tartempion" in clash.json()["starts_on"][0]
    listed = api.get("/api/date-bookings/", {"since": day(0)}).json()
    assert [row["member_name"] for row in listed["results"]] == ["Alex Tartempion"]


def test_bad_input_answers_400_per_field(api, giant):
    response = api.post(
        "/api/date-bookings/", {"member": 999, "starts_on": "demain"}, content_type="application/json"
    )
    assert response.status_code == 400
    assert set(response.json()) >= {"member", "starts_on", "ends_on"}
    neither = api.post(
        "/api/date-bookings/",
        {"member": make_member("M0001").pk, "starts_on": day(1), "ends_on": day(2)},
        content_type="application/json",
    )
    assert neither.status_code == 400 and "game" in neither.json()


def test_cancel_then_hand_out(api, giant, staff_user):
    family = make_member("M0001", "Alex Tartempion")
    later = services.booking_create(
        member=family, game=giant, starts_on=day(3), ends_on=day(4), user=staff_user
    )
    assert api.post(f"/api/date-bookings/{later.pk}/cancel/").json()["status"] == "cancelled"
    assert api.post(f"/api/date-bookings/{later.pk}/cancel/").status_code == 409
    today = DateBooking.objects.create(
        copy=giant.copies.get(),
        member=family,
        starts_on=day(0),
        ends_on=day(2),
        created_by=staff_user,
    )
    lent = api.post(f"/api/date-bookings/{today.pk}/hand-out/")
    assert lent.status_code == 201 and lent.json()["due_on"] == day(2).isoformat()
    assert api.get(f"/api/date-bookings/{today.pk}/").json()["status"] == "lent"


def test_handing_out_a_booked_copy_whose_kind_asks_a_deposit_takes_how_it_is_paid(api, giant, staff_user):
    copy = giant.copies.get()
    copy.kind = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("20.00"))
    copy.save()
    booking = DateBooking.objects.create(
        copy=copy, member=make_member("M0001"), starts_on=day(0), ends_on=day(2), created_by=staff_user
    )
    url = f"/api/date-bookings/{booking.pk}/hand-out/"
    refused = api.post(url)
    assert refused.status_code == 400 and "une caution de 20,00" in refused.json()["deposit_method"][0]
    assert api.post(url, {"deposit_method": "bitcoin"}, content_type="application/json").status_code == 400
    lent = api.post(url, {"deposit_method": "cash"}, content_type="application/json")
    assert lent.status_code == 201
    assert Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED).loan_id == lent.json()["id"]


def test_outsiders_get_nothing(client, outsider, giant):
    assert client.get("/api/date-bookings/").status_code in (401, 403)
    client.force_login(outsider)
    assert client.get("/api/date-bookings/").status_code == 403
    assert client.delete("/api/date-bookings/1/").status_code in (403, 405)
