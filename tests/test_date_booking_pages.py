"""The date bookings' pages: the desk books for a family, hands today's bookings out in one click and
cancels; a family books a giant game from its page and cancels it from /compte/."""

from decimal import Decimal

import pytest

from catalogue.models import ItemKind
from ledger.models import Entry, Kind
from loans import services
from loans.models import DateBooking, Loan
from tests.booking_helpers import day, make_bookable_game
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_family_user, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def giant():
    return make_bookable_game()


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def test_the_desk_books_a_title_for_a_family(desk, giant):
    family = make_member("M0001", "Alex Tartempion")
    response = desk.post(
        "/comptoir/reservations-a-date/",
        {
            "card": "m0001",
            "game": giant.pk,
            "starts_on": day(3),
            "ends_on": day(5),
            "note": "Fête de l'école",
        },
        follow=True,
    )
    booking = DateBooking.objects.get()
    assert (booking.member, booking.copy.barcode, booking.note) == (family, "G001", "Fête de l'école")
    assert "réservé pour Alex Tartempion" in text_of(response)
    assert "Fête de l'école" in text_of(response)


def test_the_desk_sees_the_clash_on_the_form_with_its_dates_and_family(desk, giant, staff_user):
    services.booking_create(
        member=make_member("M0001", "Alex Tartempion"),
        game=giant,
        starts_on=day(3),
        ends_on=day(5),
        user=staff_user,
    )
    make_member("M0002", "Sam Bidule")
    response = desk.post(
        "/comptoir/reservations-a-date/",
        {"card": "M0002", "barcode": "G001", "starts_on": day(5), "ends_on": day(6)},
    )
    assert response.status_code == 400
    assert f"G001 : réservé du {day(3):%d/%m/%Y} au {day(5):%d/%m/%Y} (Alex Tartempion)" in text_of(response)


def test_bad_input_answers_400_per_field(desk, giant):
    response = desk.post(
        "/comptoir/reservations-a-date/", {"card": "X9", "starts_on": "demain", "ends_on": ""}
    )
    assert response.status_code == 400
    form = response.context["form"]
    assert set(form.errors) >= {"card", "starts_on", "ends_on"}


def test_todays_booking_is_lent_in_one_click(desk, giant, staff_user):
    family = make_member("M0001", "Alex Tartempion")
    booking = DateBooking.objects.create(
        copy=giant.copies.get(), member=family, starts_on=day(0), ends_on=day(2), created_by=staff_user
    )
    page = desk.get("/comptoir/reservations-a-date/")
    assert "Prêter « Puissance 4 géant » à Alex Tartempion" in page.content.decode()

    response = desk.post(f"/comptoir/reservations-a-date/{booking.pk}/preter/", follow=True)

    loan = Loan.objects.get()
    assert (loan.member, loan.due_on) == (family, day(2))
    assert "prêté à Alex Tartempion" in text_of(response)
    assert "Aucune réservation à remettre aujourd'hui." in text_of(response)


def test_a_booked_giant_game_whose_kind_asks_a_deposit_is_handed_out_with_how_it_is_paid(
    desk, giant, staff_user
):
    """A giant game's kind may ask a deposit (loans/loan_rules.py): the one-click hand-out asks how the
    family pays it, as the desk's loan does."""
    copy = giant.copies.get()
    copy.kind = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("20.00"))
    copy.save()
    family = make_member("M0001", "Alex Tartempion")
    booking = DateBooking.objects.create(
        copy=copy, member=family, starts_on=day(0), ends_on=day(2), created_by=staff_user
    )
    url = f"/comptoir/reservations-a-date/{booking.pk}/preter/"
    assert "Caution de 20,00 € versée en" in text_of(desk.get("/comptoir/reservations-a-date/"))

    refused = desk.post(url, follow=True)
    assert "une caution de 20,00 € est demandée" in text_of(refused)
    assert not Loan.objects.exists()
    bad = desk.post(url, {"deposit_method": "bitcoin"}, follow=True)
    assert "Sélectionnez un choix valide" in text_of(bad) and not Loan.objects.exists()

    lent = desk.post(url, {"deposit_method": "cheque", "deposit_cheque_number": "4242"}, follow=True)
    assert "prêté à Alex Tartempion" in text_of(lent)
    deposit = Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED)
    assert (deposit.amount, deposit.cheque_number, deposit.loan) == (
        Decimal("20.00"),
        "4242",
        Loan.objects.get(),
    )


def test_the_desk_list_reads_in_a_fixed_number_of_queries(
    desk, giant, staff_user, django_assert_max_num_queries
):
    for n in range(5):
        copy = make_copy(giant, f"G10{n}")
        DateBooking.objects.create(
            copy=copy,
            member=make_member(f"M10{n}"),
            starts_on=day(n),
            ends_on=day(n + 1),
            created_by=staff_user,
        )
    with django_assert_max_num_queries(12):
        assert desk.get("/comptoir/reservations-a-date/").status_code == 200


def test_outsiders_and_wrong_methods(client, outsider, giant):
    assert client.get("/comptoir/reservations-a-date/").status_code == 302
    client.force_login(outsider)
    assert client.get("/comptoir/reservations-a-date/").status_code in (302, 403)
    assert client.get(f"/compte/reserver-a-date/{giant.pk}/").status_code == 404  # no family
    client.force_login(make_family_user())
    assert client.get("/comptoir/reservations-a-date/1/preter/").status_code in (302, 403, 405)


def test_a_family_books_from_the_game_page_and_cancels_from_its_account(client, giant):
    family = make_member("M0001", "Alex Tartempion", user=make_family_user())
    client.force_login(family.user)
    game_page = client.get(giant.get_absolute_url())
    assert "Réserver pour mes dates" in text_of(game_page)

    response = client.post(
        f"/compte/reserver-a-date/{giant.pk}/", {"starts_on": day(3), "ends_on": day(4)}, follow=True
    )
    booking = DateBooking.objects.get()
    assert booking.member == family and booking.by_title
    assert "Réservations à date" in text_of(response)

    client.post(f"/compte/reservations-a-date/{booking.pk}/annuler/")
    booking.refresh_from_db()
    assert booking.status == DateBooking.Status.CANCELLED


def test_a_family_cannot_cancel_another_familys_booking(client, giant, staff_user):
    other = make_member("M0002", "Sam Bidule")
    booking = services.booking_create(
        member=other, game=giant, starts_on=day(3), ends_on=day(4), user=staff_user
    )
    family = make_member("M0001", "Alex Tartempion", user=make_family_user())
    client.force_login(family.user)
    assert client.post(f"/compte/reservations-a-date/{booking.pk}/annuler/").status_code == 404
    assert client.get(f"/compte/reservations-a-date/{booking.pk}/annuler/").status_code == 405


def test_the_familys_calendar_feed_has_its_booking_on_its_first_day(client, giant, staff_user):
    from icalendar import Calendar

    family = make_member("M0001", "Alex Tartempion")
    booking = services.booking_create(
        member=family, game=giant, starts_on=day(3), ends_on=day(5), user=staff_user
    )
    token = family.calendar_token_renew()

    (event,) = Calendar.from_ical(client.get(f"/compte/calendrier/{token}.ics").content).walk("VEVENT")

    assert str(event["UID"]) == f"date-booking-{booking.pk}@127.0.0.1"
    assert event.decoded("DTSTART") == day(3)
    assert str(event["SUMMARY"]).startswith("Retirer Puissance 4 géant à la ludothèque (réservé jusqu'au")
