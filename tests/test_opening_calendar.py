"""The opening calendar: due dates, pick-up deadlines and renewals land on a day the copy's site opens."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy, Location
from loans import services
from loans.models import Loan
from opening.models import Closure, OpeningHours, Weekday
from opening.schedule import (
    game_site_calendars,
    is_open,
    next_opening_day,
    next_openings,
    site_calendar,
    site_calendars,
)
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type
from tests.notice_helpers import days, open_wednesdays_and_saturdays

pytestmark = pytest.mark.django_db

# A week of December 2026: Wednesday the 16th, Saturday the 19th.
WEDNESDAY = datetime.date(2026, 12, 16)


def open_every_day(location: Location) -> None:
    for weekday in Weekday:
        OpeningHours.objects.create(
            location=location, weekday=weekday, opens_at=datetime.time(9), closes_at=datetime.time(17)
        )


def test_a_day_the_site_is_closed_moves_to_its_next_opening_day():
    site = open_wednesdays_and_saturdays()
    assert next_opening_day(site, WEDNESDAY) == WEDNESDAY
    assert next_opening_day(site, WEDNESDAY + days(1)) == datetime.date(2026, 12, 19)  # Thursday → Saturday
    assert next_opening_day(site, datetime.date(2026, 12, 20)) == datetime.date(2026, 12, 23)  # Sunday → Wed
    assert is_open(site, WEDNESDAY) and not is_open(site, WEDNESDAY + days(1))


def test_a_closure_range_over_the_year_end_is_skipped_as_a_whole():
    site = open_wednesdays_and_saturdays()
    Closure.objects.create(
        location=site,
        first_day=datetime.date(2026, 12, 21),
        last_day=datetime.date(2027, 1, 3),
        reason="Vacances de Noël",
    )
    # Wednesday 23, Saturday 26, Wednesday 30 December and Saturday 2 January are closed.
    assert next_opening_day(site, datetime.date(2026, 12, 22)) == datetime.date(2027, 1, 6)
    assert next_opening_day(site, datetime.date(2026, 12, 31)) == datetime.date(2027, 1, 6)
    assert not is_open(site, datetime.date(2027, 1, 2))


def test_a_closure_of_every_site_applies_to_each_and_another_site_s_closure_does_not():
    maison = open_wednesdays_and_saturdays()
    antenne = open_wednesdays_and_saturdays(Location.objects.create(name="Antenne Nord"))
    Closure.objects.create(location=None, first_day=WEDNESDAY, last_day=WEDNESDAY, reason="Grève")
    Closure.objects.create(
        location=antenne,
        first_day=datetime.date(2026, 12, 19),
        last_day=datetime.date(2026, 12, 19),
        reason="Travaux",
    )
    assert next_opening_day(maison, WEDNESDAY) == datetime.date(2026, 12, 19)
    assert next_opening_day(antenne, WEDNESDAY) == datetime.date(2026, 12, 23)


def test_a_site_without_hours_keeps_the_day_and_has_no_openings():
    site = Location.objects.create(name="Ludobus")
    Closure.objects.create(location=None, first_day=WEDNESDAY, last_day=WEDNESDAY + days(30), reason="Hiver")
    assert next_opening_day(site, WEDNESDAY) == WEDNESDAY
    assert is_open(site, WEDNESDAY)
    assert next_openings(site, WEDNESDAY) == []


def test_the_next_openings_list_each_opening_of_each_open_day_in_order():
    site = open_wednesdays_and_saturdays()
    openings = next_openings(site, WEDNESDAY, 4)
    assert [(o.day, o.opens_at.hour, o.closes_at.hour) for o in openings] == [
        (WEDNESDAY, 14, 18),
        (datetime.date(2026, 12, 19), 10, 12),
        (datetime.date(2026, 12, 19), 14, 17),
        (datetime.date(2026, 12, 23), 14, 18),
    ]
    # At 13:00 on Saturday the morning is over: the afternoon comes first.
    calendar = site_calendar(site, from_day=WEDNESDAY)
    saturday = datetime.date(2026, 12, 19)
    assert calendar.openings(saturday, 1, after=datetime.time(13))[0].opens_at == datetime.time(14)
    assert calendar.opening_days(saturday, 2) == [
        (saturday, openings[1:3]),
        (datetime.date(2026, 12, 23), [next_openings(site, datetime.date(2026, 12, 23), 1)[0]]),
    ]


def test_a_site_closed_beyond_a_year_keeps_the_day_rather_than_searching_forever():
    site = open_wednesdays_and_saturdays()
    Closure.objects.create(location=site, first_day=WEDNESDAY, last_day=WEDNESDAY + days(800), reason="Fermé")
    assert next_opening_day(site, WEDNESDAY) == WEDNESDAY


def test_hours_that_close_before_they_open_are_refused_with_a_message():
    hours = OpeningHours(
        location=Location.objects.create(name="Ludobus"),
        weekday=Weekday.MONDAY,
        opens_at=datetime.time(18),
        closes_at=datetime.time(14),
    )
    with pytest.raises(ValidationError, match="L'heure d'ouverture doit précéder"):
        hours.full_clean()
    closure = Closure(first_day=WEDNESDAY, last_day=WEDNESDAY - days(1), reason="?")
    with pytest.raises(ValidationError, match="ne peut pas finir avant"):
        closure.full_clean()


# The desk's services, with the real clock: the calendars are built around today.


def test_lending_moves_the_due_date_past_a_closure_to_the_next_opening_day(staff_user):
    today = timezone.localdate()
    copy = make_copy(make_game("7 Wonders"), "91233")
    open_every_day(copy.location)
    Closure.objects.create(
        location=copy.location, first_day=today + days(21), last_day=today + days(24), reason="Vacances"
    )
    loan = services.loan_create(copy=copy, member=make_member("M1"), staff=staff_user)
    assert loan.due_on == today + days(25)


def test_lending_moves_the_due_date_to_the_one_weekday_the_site_opens(staff_user):
    today = timezone.localdate()
    copy = make_copy(make_game("7 Wonders"), "91233")
    OpeningHours.objects.create(
        location=copy.location,
        weekday=(today + days(24)).weekday(),
        opens_at=datetime.time(14),
        closes_at=datetime.time(18),
    )
    loan = services.loan_create(copy=copy, member=make_member("M1"), staff=staff_user)
    assert loan.due_on == today + days(24)


def test_lending_on_a_site_without_hours_keeps_the_membership_s_period(staff_user):
    copy = make_copy(make_game("7 Wonders"), "91233")
    Closure.objects.create(
        location=None,
        first_day=timezone.localdate(),
        last_day=timezone.localdate() + days(60),
        reason="Hiver",
    )
    loan = services.loan_create(copy=copy, member=make_member("M1"), staff=staff_user)
    assert loan.due_on == timezone.localdate() + days(21)


def test_a_renewal_also_lands_on_an_opening_day(staff_user):
    today = timezone.localdate()
    copy = make_copy(make_game("7 Wonders"), "91233")
    loan = services.loan_create(copy=copy, member=make_member("M1"), staff=staff_user)
    assert loan.due_on == today + days(21)
    open_every_day(copy.location)
    Closure.objects.create(
        location=None, first_day=today + days(42), last_day=today + days(43), reason="Congé"
    )
    loan = services.loan_renew(loan=loan)
    assert loan.due_on == today + days(44)


def test_a_hold_s_pickup_deadline_lands_on_an_opening_day(staff_user):
    today = timezone.localdate()
    copy = make_copy(make_game("7 Wonders"), "91233")
    open_every_day(copy.location)
    Closure.objects.create(
        location=copy.location, first_day=today + days(7), last_day=today + days(9), reason="Inventaire"
    )
    hold = services.hold_create(game=copy.game, member=make_member("M1"), staff=staff_user)
    assert hold.ready_until == today + days(10)


# Where families see the calendar.


def test_the_home_page_shows_the_next_openings_and_the_coming_closure(client):
    site = open_wednesdays_and_saturdays()
    Location.objects.create(name="Réserve")  # no hours: not listed
    today = timezone.localdate()
    Closure.objects.create(
        location=None, first_day=today + days(20), last_day=today + days(33), reason="Vacances de Noël"
    )
    page = text_of(client.get(reverse("home")))
    assert "Prochaines ouvertures" in page and site.name in page and "Réserve" not in page
    assert "Vacances de Noël" in page
    assert "14:00–18:00" in page or "10:00–12:00" in page


def test_the_game_page_shows_the_next_openings_of_the_sites_holding_its_copies(client):
    site = open_wednesdays_and_saturdays()
    other = open_wednesdays_and_saturdays(Location.objects.create(name="Antenne Nord"))
    game = make_game("7 Wonders")
    make_copy(game, "91233")
    page = text_of(client.get(reverse("catalogue:game-detail", args=[game.slug])))
    assert "Prochaines ouvertures" in page and site.name in page and other.name not in page


def test_the_desk_and_the_family_account_show_due_dates_with_their_weekday(client, staff_user):
    copy = make_copy(make_game("7 Wonders"), "91233")
    member = make_member("M1", membership_type=make_membership_type())
    loan = services.loan_create(copy=copy, member=member, staff=staff_user)
    weekday = ["lundi", "mardi", "mercredi", "jeudi", "vendredi", "samedi", "dimanche"][loan.due_on.weekday()]
    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:member-detail", args=[member.pk])))
    assert f"{weekday} {loan.due_on:%d/%m/%Y}" in page
    assert Loan.objects.count() == 1


def test_the_admin_edits_a_site_s_hours_and_closures_on_its_page(client, staff_user):
    site = Location.objects.create(name="Ludobus")
    client.force_login(staff_user)
    page = text_of(client.get(reverse("admin:catalogue_location_change", args=[site.pk])))
    assert "Horaires d'ouverture" in page and "Fermetures" in page
    assert client.get(reverse("admin:opening_closure_changelist")).status_code == 200


def test_one_sites_calendar_is_what_the_calendars_of_several_sites_say_of_it():
    """site_calendar() runs SQL compiled once (a site and a day in place of placeholders): it reads
    the same hours and closures as site_calendars(), whatever the site and the day."""
    maison = open_wednesdays_and_saturdays()
    antenne = open_wednesdays_and_saturdays(Location.objects.create(name="Antenne Nord"))
    ludobus = Location.objects.create(name="Ludobus")
    Closure.objects.create(location=None, first_day=WEDNESDAY, last_day=WEDNESDAY, reason="Grève")
    Closure.objects.create(
        location=antenne, first_day=WEDNESDAY + days(3), last_day=WEDNESDAY + days(3), reason="Travaux"
    )
    Closure.objects.create(
        location=maison, first_day=WEDNESDAY + days(5), last_day=WEDNESDAY + days(20), reason="Noël"
    )
    for site in (maison, antenne, ludobus):
        for day in (WEDNESDAY - days(1), WEDNESDAY, WEDNESDAY + days(4), WEDNESDAY + days(30)):
            assert site_calendar(site, from_day=day) == site_calendars([site], from_day=day)[site.pk]
    assert site_calendar(antenne, from_day=WEDNESDAY).closures == [
        (WEDNESDAY, WEDNESDAY, "Grève"),
        (WEDNESDAY + days(3), WEDNESDAY + days(3), "Travaux"),
    ]
    assert site_calendar(maison, from_day=WEDNESDAY + days(4)).closures == [
        (WEDNESDAY + days(5), WEDNESDAY + days(20), "Noël")
    ]


def test_the_calendars_of_a_game_s_sites_are_those_of_the_sites_holding_its_copies():
    """game_site_calendars(), the game page's, runs SQL compiled once (a game and a day in place of
    placeholders): the sites with hours that hold a copy, by name, with what site_calendars() reads."""
    maison = open_wednesdays_and_saturdays()
    antenne = open_wednesdays_and_saturdays(Location.objects.create(name="Antenne Nord"))
    OpeningHours.objects.create(
        location=antenne, weekday=Weekday.MONDAY, opens_at=datetime.time(9), closes_at=datetime.time(11)
    )
    ludobus = Location.objects.create(name="Ludobus")  # no hours: never listed
    Closure.objects.create(location=None, first_day=WEDNESDAY, last_day=WEDNESDAY, reason="Grève")
    Closure.objects.create(
        location=antenne, first_day=WEDNESDAY + days(3), last_day=WEDNESDAY + days(3), reason="Travaux"
    )
    Closure.objects.create(
        location=maison, first_day=WEDNESDAY + days(5), last_day=WEDNESDAY + days(20), reason="Noël"
    )
    game, elsewhere, unheld = make_game("7 Wonders"), make_game("Azul"), make_game("Quarto")
    for barcode, site in [("1", maison), ("2", antenne), ("3", antenne), ("4", ludobus)]:
        Copy.objects.create(game=game, cote="SEP", location=site, barcode=barcode)
    Copy.objects.create(game=elsewhere, cote="AZU", location=ludobus, barcode="5")
    for day in (WEDNESDAY - days(1), WEDNESDAY, WEDNESDAY + days(4), WEDNESDAY + days(30)):
        sites, calendars = game_site_calendars(game.pk, from_day=day)
        assert sites == [antenne, maison]
        assert calendars == site_calendars(sites, from_day=day)
        assert game_site_calendars(elsewhere.pk, from_day=day) == ([], {})
        assert game_site_calendars(unheld.pk, from_day=day) == ([], {})
    assert game_site_calendars(game.pk, from_day=WEDNESDAY)[1][antenne.pk].closures == [
        (WEDNESDAY, WEDNESDAY, "Grève"),
        (WEDNESDAY + days(3), WEDNESDAY + days(3), "Travaux"),
    ]
