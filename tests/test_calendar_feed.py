"""A family's calendar feed: a secret address listing its due dates and pick-up deadlines (RFC 5545)."""

import datetime

import pytest
from django.urls import reverse
from icalendar import Calendar

from loans import services
from members.models import Member
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member
from tests.notice_helpers import open_wednesdays_and_saturdays

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(staff_user):
    """A family with a game at home and a hold ready, and its site account."""
    user = make_family_user()
    member = make_member("M0001", "Alex Tartempion", user=user)
    open_wednesdays_and_saturdays()
    services.loan_create(copy=make_copy(make_game("7 Wonders"), "91233"), member=member, staff=staff_user)
    services.hold_create(game=make_copy(make_game("Biblios"), "90901").game, member=member, staff=staff_user)
    member.refresh_from_db()
    return member


def feed(client, token: str):
    return client.get(reverse("loans:calendar-feed", args=[token]))


def events_of(response) -> list:
    return sorted(
        Calendar.from_ical(response.content).walk("VEVENT"), key=lambda event: str(event["SUMMARY"])
    )


def test_the_feed_lists_the_due_dates_and_pickup_deadlines_as_all_day_events(client, family):
    token = family.calendar_token_renew()
    response = feed(client, token)

    assert response.status_code == 200
    assert response["Content-Type"] == "text/calendar; charset=utf-8"
    loan = family.loans.get()
    hold = family.holds.get()
    due, pickup = events_of(response)
    assert str(due["SUMMARY"]) == "Rendre 7 Wonders à la ludothèque"
    assert due.decoded("DTSTART") == loan.due_on and due.decoded("DTEND") == loan.due_on + datetime.timedelta(
        days=1
    )
    assert "91233" in str(due["DESCRIPTION"]) and "Maison des Enfants" in str(due["LOCATION"])
    assert str(pickup["SUMMARY"]) == "Retirer Biblios à la ludothèque (réservation)"
    assert pickup.decoded("DTSTART") == hold.ready_until
    assert (
        str(due["UID"]) == f"loan-{loan.pk}@127.0.0.1" and str(pickup["UID"]) == f"hold-{hold.pk}@127.0.0.1"
    )
    # Due dates fall on opening days: the description gives that day's hours.
    assert "ouvert ce jour-là : 14:00–18:00" in str(due["DESCRIPTION"]) or "10:00–12:00" in str(
        due["DESCRIPTION"]
    )


def test_a_renewal_moves_the_event_and_a_return_removes_it(client, family, staff_user):
    token = family.calendar_token_renew()
    loan = family.loans.get()
    renewed = services.loan_renew(loan=loan)
    due = events_of(feed(client, token))[0]
    assert due.decoded("DTSTART") == renewed.due_on and str(due["UID"]) == f"loan-{loan.pk}@127.0.0.1"
    services.loan_return(loan=renewed, staff=staff_user)
    assert [str(event["SUMMARY"]) for event in events_of(feed(client, token))] == [
        "Retirer Biblios à la ludothèque (réservation)"
    ]


def test_the_feed_speaks_the_family_s_language(client, family):
    Member.objects.filter(pk=family.pk).update(language=Member.Language.ENGLISH)
    family.refresh_from_db()
    summaries = [str(event["SUMMARY"]) for event in events_of(feed(client, family.calendar_token_renew()))]
    assert summaries == ["Collect Biblios at the toy library (hold)", "Return 7 Wonders to the toy library"]


def test_an_unknown_revoked_or_replaced_token_is_a_plain_404(client, family):
    assert feed(client, "not-a-token").status_code == 404
    old = family.calendar_token_renew()
    new = family.calendar_token_renew()
    assert feed(client, old).status_code == 404
    assert feed(client, new).status_code == 200
    family.calendar_token_revoke()
    response = feed(client, new)
    assert response.status_code == 404 and "Tartempion" not in response.content.decode()


def test_the_feed_answers_reads_only(client, family):
    assert (
        client.post(reverse("loans:calendar-feed", args=[family.calendar_token_renew()])).status_code == 405
    )


def test_the_family_creates_renews_and_revokes_its_address_from_its_account(client, family):
    client.force_login(family.user)
    page = text_of(client.get(reverse("loans:account")))
    assert "Créer l'adresse de mon calendrier" in page

    response = client.post(reverse("loans:account-calendar-token"), {"action": "renew"})
    assert response.status_code == 302
    family.refresh_from_db()
    first = family.calendar_token
    assert len(first) >= 40
    page = text_of(client.get(reverse("loans:account")))
    assert f"http://testserver/compte/calendrier/{first}.ics" in page

    client.post(reverse("loans:account-calendar-token"), {"action": "renew"})
    family.refresh_from_db()
    assert family.calendar_token not in {"", first}
    client.post(reverse("loans:account-calendar-token"), {"action": "revoke"})
    family.refresh_from_db()
    assert family.calendar_token == ""


def test_the_account_s_calendar_form_refuses_bad_input_and_strangers(client, family, outsider):
    client.force_login(family.user)
    assert client.post(reverse("loans:account-calendar-token"), {"action": "delete-all"}).status_code == 400
    assert client.get(reverse("loans:account-calendar-token")).status_code == 405
    client.force_login(outsider)
    assert client.post(reverse("loans:account-calendar-token"), {"action": "renew"}).status_code == 404
    client.logout()
    assert client.post(reverse("loans:account-calendar-token"), {"action": "renew"}).status_code == 302
    family.refresh_from_db()
    assert family.calendar_token == ""


def test_the_desk_renews_and_revokes_a_family_s_address(client, family, staff_user, outsider):
    url = reverse("loans:member-calendar-token", args=[family.pk])
    client.force_login(outsider)
    assert client.post(url, {"action": "renew"}).status_code == 403
    client.force_login(staff_user)
    assert client.post(url, {"action": "renew"}).status_code == 302
    family.refresh_from_db()
    assert family.calendar_token
    page = text_of(client.get(reverse("loans:member-detail", args=[family.pk])))
    assert f"/compte/calendrier/{family.calendar_token}.ics" in page
    assert client.post(url, {"action": "revoke"}).status_code == 302
    family.refresh_from_db()
    assert family.calendar_token == ""
    assert client.post(url, {}).status_code == 400


def test_an_empty_feed_is_still_a_valid_calendar(client, staff_user):
    member = make_member("M0002", "Sam Bidule")
    calendar = Calendar.from_ical(feed(client, member.calendar_token_renew()).content)
    assert calendar.walk("VEVENT") == [] and str(calendar["X-WR-CALNAME"]) == "Ludothèque : jeux à rendre"


def test_the_account_offers_to_add_the_calendar_to_an_agenda_and_to_copy_its_address(client, family):
    client.force_login(family.user)
    assert "Ajouter à mon agenda" not in client.get(reverse("loans:account")).content.decode()
    token = family.calendar_token_renew()
    html = client.get(reverse("loans:account")).content.decode()
    assert (
        f'<a class="button" href="webcal://testserver/compte/calendrier/{token}.ics">Ajouter à mon agenda</a>'
        in html
    )
    assert f'data-copy="http://testserver/compte/calendrier/{token}.ics"' in html
    # Without JavaScript the copy button stays hidden; its script is a file (the CSP allows no inline one).
    assert "hidden>Copier l'adresse</button>" in html
    assert '<script src="/static/js/copy.js" defer></script>' in html
