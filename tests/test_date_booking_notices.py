"""The day before a date booking's first day, the daily run reminds its family through a real SMTP
server: once, in the family's language, only for bookings still to hand out."""

import pytest

from loans import services
from notices.models import NoticeItem
from notices.services import notices_send
from tests.booking_helpers import day, make_bookable_game
from tests.loan_helpers import make_member
from tests.test_notice_smtp import smtp_server  # noqa: F401 — the real SMTP server fixture

pytestmark = pytest.mark.django_db


def texts(mailbox) -> list[str]:
    return [message.get_body(preferencelist=("plain",)).get_content() for message in mailbox.messages]


@pytest.fixture
def giant():
    return make_bookable_game(barcodes=("G001", "G002"))


def test_the_day_before_the_family_is_reminded_once_in_its_language(smtp_server, giant, staff_user):  # noqa: F811
    french = make_member("M1", "Alex Tartempion", email="tartempion@example.org")
    english = make_member("M2", "Sam Bidule", email="bidule@example.org")
    english.language = "en"
    english.save()
    for family in (french, english):
        services.booking_create(member=family, game=giant, starts_on=day(2), ends_on=day(3), user=staff_user)

    notices_send(today=day(0))
    assert smtp_server.messages == []  # two days before: nothing yet

    notices_send(today=day(1))
    notices_send(today=day(1))

    subjects = sorted(message["Subject"] for message in smtp_server.messages)
    assert subjects == [
        "Ludothèque : Votre jeu réservé vous attend demain",
        "Toy library: Your booked game awaits you tomorrow",
    ]
    by_address = {
        envelope[1][0]: text for envelope, text in zip(smtp_server.envelopes, texts(smtp_server), strict=True)
    }
    assert "« Puissance 4 géant », à retirer à Maison des Enfants le" in by_address["tartempion@example.org"]
    assert "“Puissance 4 géant”, to collect at Maison des Enfants on" in by_address["bidule@example.org"]
    assert NoticeItem.objects.filter(kind=NoticeItem.Kind.DATE_BOOKING_EVE).count() == 2


def test_a_cancelled_booking_is_not_reminded(smtp_server, giant, staff_user):  # noqa: F811
    booking = services.booking_create(
        member=make_member("M1", email="m1@example.org"),
        game=giant,
        starts_on=day(1),
        ends_on=day(2),
        user=staff_user,
    )
    services.booking_cancel(booking=booking)
    notices_send(today=day(0))
    assert smtp_server.messages == []
