"""A game declared lost while families wait for it: the desk warns the clerk, and when no other copy
can serve them the daily run's notices tell each family once, instead of leaving it waiting forever."""

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy
from loans import services
from notices.models import Notice, NoticeItem
from notices.services import notices_send
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def queue(staff_user):
    """Quarto's only copy lent to Alex; Sam and Charlie wait for it (Charlie receives letters)."""
    quarto = make_game("Quarto", pieces=[(16, "pièces")])
    copy = make_copy(quarto, "90468")
    loan = services.loan_create(copy=copy, member=make_member("M0001", "Alex Tartempion"), staff=staff_user)
    sam = make_member("M0002", "Sam Bidule", email="bidule@example.org")
    charlie = make_member("M0003", "Charlie Machin", email="")
    for family in (sam, charlie):
        services.hold_create(game=quarto, member=family, staff=staff_user)
    return loan, sam, charlie


def declare_lost(desk, loan):
    return desk.post(reverse("loans:loan-lost", args=[loan.pk]), {"waive_charge": "on"}, follow=True)


def test_the_desk_warns_that_the_families_waiting_have_no_other_copy(desk, queue):
    loan, sam, charlie = queue
    before = text_of(desk.get(reverse("loans:loan-lost", args=[loan.pk])))
    warning = (
        "2 familles attendent « Quarto » (Sam Bidule, Charlie Machin) et aucun autre exemplaire ne peut "
        "les servir : un avis les prévient au prochain passage quotidien."
    )
    assert warning in before
    after = declare_lost(desk, loan)
    assert warning in text_of(after)
    assert Copy.objects.get(barcode="90468").status == Copy.Status.LOST


def test_when_the_last_copy_is_lost_each_waiting_family_is_told_once(desk, queue):
    loan, sam, charlie = queue
    today = timezone.localdate()
    notices_send(today=today)
    assert not NoticeItem.objects.filter(kind=NoticeItem.Kind.HOLD_NO_COPY).exists()

    declare_lost(desk, loan)
    notices_send(today=today)
    email = next(message for message in mail.outbox if message.to == ["bidule@example.org"])
    assert email.subject == "Ludothèque : Le jeu que vous attendez n'a plus d'exemplaire"
    assert "« Quarto »" in email.body and "votre réservation reste dans la file" in email.body
    letter = Notice.objects.get(member=charlie, items__kind=NoticeItem.Kind.HOLD_NO_COPY)
    assert letter.channel == Notice.Channel.LETTER and "« Quarto »" in letter.body_text

    # Once per event: the next runs say nothing more, and the families still hold their place.
    notices_send(today=today)
    notices_send(today=today + timezone.timedelta(days=1))
    assert NoticeItem.objects.filter(kind=NoticeItem.Kind.HOLD_NO_COPY).count() == 2
    assert sam.holds.get().status == "waiting" and charlie.holds.get().status == "waiting"


def test_another_copy_in_repair_will_serve_them_so_nobody_is_told(desk, queue, staff_user):
    loan, sam, charlie = queue
    make_copy(loan.copy.game, "90408", status=Copy.Status.IN_REPAIR)
    after = declare_lost(desk, loan)
    assert (
        "2 familles attendent « Quarto » (Sam Bidule, Charlie Machin) : un autre exemplaire les servira."
        in text_of(after)
    )
    notices_send(today=timezone.localdate())
    assert not NoticeItem.objects.filter(kind=NoticeItem.Kind.HOLD_NO_COPY).exists()


def test_a_lost_game_nobody_waits_for_says_nothing_more(desk, staff_user):
    copy = make_copy(make_game("Dixit"), "91001")
    loan = services.loan_create(copy=copy, member=make_member("M0001"), staff=staff_user)
    text = text_of(declare_lost(desk, loan))
    assert "« Dixit » (91001) noté perdu" in text
    assert "famille attend" not in text and "familles attendent" not in text
    notices_send(today=timezone.localdate())
    assert not NoticeItem.objects.filter(kind=NoticeItem.Kind.HOLD_NO_COPY).exists()
