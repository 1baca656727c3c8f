"""What families booked at an event are told by the daily run, through a real SMTP server: the booking
confirmed, a place freed for them, the day before, the event cancelled; each once, in their language,
by e-mail or, without an address, by a letter to print."""

import datetime

import pytest
from django.utils import timezone

from events import services
from notices.models import Notice, NoticeItem
from notices.services import notices_send
from tests.event_helpers import make_event
from tests.loan_helpers import make_member
from tests.test_notice_smtp import smtp_server  # noqa: F401 — the real SMTP server fixture

pytestmark = pytest.mark.django_db


def texts(mailbox) -> list[str]:
    return [message.get_body(preferencelist=("plain",)).get_content() for message in mailbox.messages]


def test_a_booking_is_confirmed_once_by_e_mail(smtp_server, staff_user):  # noqa: F811
    family = make_member("M1", "Alex Tartempion", email="tartempion@example.org")
    event = make_event("Soirée jeux en famille", in_days=5)
    services.booking_create(event=event, member=family, children=2, adults=1, staff=staff_user)
    today = timezone.localdate()

    notices_send(today=today)
    notices_send(today=today)

    assert [message["Subject"] for message in smtp_server.messages] == [
        "Ludothèque : Votre réservation à une animation"
    ]
    assert smtp_server.envelopes[0][1] == ["tartempion@example.org"]
    text = texts(smtp_server)[0]
    assert "Votre réservation est confirmée" in text
    assert "« Soirée jeux en famille »" in text and "Maison des Enfants (3 personnes)" in text
    assert NoticeItem.objects.get().kind == NoticeItem.Kind.EVENT_BOOKED


def test_a_family_moved_up_from_the_waiting_list_is_told_its_place_is_freed(smtp_server, staff_user):  # noqa: F811
    event = make_event("Tournoi", places=1)
    leaving = services.booking_create(event=event, member=make_member("M1", email=""), staff=staff_user)
    waiting_family = make_member("M2", "Sam Bidule", email="bidule@example.org")
    services.booking_create(event=event, member=waiting_family, staff=staff_user)
    notices_send(today=timezone.localdate())
    assert smtp_server.messages == []  # on the waiting list: nothing to confirm yet; the other has no e-mail
    assert Notice.objects.get().channel == Notice.Channel.LETTER

    services.booking_cancel(booking=leaving, staff=staff_user, by_family=True)
    notices_send(today=timezone.localdate())

    assert [message["Subject"] for message in smtp_server.messages] == [
        "Ludothèque : Une place s'est libérée pour vous"
    ]
    assert "une place s'est libérée" in texts(smtp_server)[0]


def test_the_day_before_the_family_is_reminded_once(smtp_server, staff_user):  # noqa: F811
    family = make_member("M1", email="tartempion@example.org")
    event = make_event("Jeux géants", in_days=5)
    services.booking_create(event=event, member=family, staff=staff_user)
    start_day = timezone.localtime(event.starts_at).date()
    notices_send(today=start_day - datetime.timedelta(days=3))

    notices_send(today=start_day - datetime.timedelta(days=1))
    notices_send(today=start_day - datetime.timedelta(days=1))

    assert [message["Subject"] for message in smtp_server.messages] == [
        "Ludothèque : Votre réservation à une animation",
        "Ludothèque : Votre animation, c'est demain",
    ]
    assert "À demain !" in texts(smtp_server)[1]


def test_an_event_cancelled_is_told_to_the_booked_and_the_waiting_in_their_language(smtp_server, staff_user):  # noqa: F811
    event = make_event("Soirée jeux", places=1)
    french = make_member("M1", email="fr@example.org")
    english = make_member("M2", email="en@example.org")
    english.language = "en"
    english.save()
    services.booking_create(event=event, member=french, staff=staff_user)
    services.booking_create(event=event, member=english, staff=staff_user)
    notices_send(today=timezone.localdate())
    smtp_server.messages.clear()

    services.event_cancel(event=event, staff=staff_user)
    notices_send(today=timezone.localdate())
    notices_send(today=timezone.localdate())

    subjects = {message["To"]: message["Subject"] for message in smtp_server.messages}
    assert subjects == {
        "fr@example.org": "Ludothèque : Une animation est annulée",
        "en@example.org": "Toy library: An event is cancelled",
    }
