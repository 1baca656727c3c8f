"""Notices through a real SMTP server (aiosmtpd, started by the test on a free local port).

The message a family receives is read back from the server; a server that refuses one address makes
that family's notice fail, recorded with the server's answer, while the others go out; the next run
tries it again.
"""

import email
import socket
from email import policy

import pytest
from aiosmtpd.controller import Controller

from members.models import Member
from notices.models import Notice
from notices.services import notices_send
from tests.loan_helpers import make_member
from tests.notice_helpers import TODAY, days, game_copy, lend, open_wednesdays_and_saturdays

pytestmark = pytest.mark.django_db


class Mailbox:
    """An aiosmtpd handler that keeps what it receives and refuses the addresses it is told to."""

    def __init__(self):
        self.messages: list[email.message.EmailMessage] = []
        self.envelopes: list[tuple[str, list[str]]] = []
        self.refused: set[str] = set()

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        if address in self.refused:
            return f"550 5.1.1 <{address}>: Recipient address rejected: User unknown"
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        self.envelopes.append((envelope.mail_from, list(envelope.rcpt_tos)))
        self.messages.append(email.message_from_bytes(envelope.original_content, policy=policy.default))
        return "250 Message accepted for delivery"


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@pytest.fixture
def smtp_server(settings):
    mailbox = Mailbox()
    port = free_port()
    controller = Controller(mailbox, hostname="127.0.0.1", port=port)
    controller.start()
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": port, "timeout": 10},
        }
    }
    settings.DEFAULT_FROM_EMAIL = "Ludothèque <ludotheque@example.org>"
    yield mailbox
    controller.stop()


def test_a_family_receives_its_notice_from_a_real_smtp_server(smtp_server, staff_user):
    open_wednesdays_and_saturdays()
    family = make_member("M0001", "Alex Tartempion", email="tartempion@example.org")
    lend(
        game_copy("7 Wonders", "91233"), family, staff_user, lent_on=TODAY - days(29), due_on=TODAY - days(8)
    )
    lend(game_copy("Quarto", "90468"), family, staff_user, lent_on=TODAY - days(30), due_on=TODAY - days(9))

    notices_send(today=TODAY)

    assert smtp_server.envelopes == [("ludotheque@example.org", ["tartempion@example.org"])]
    message = smtp_server.messages[0]
    assert message["Subject"] == "Ludothèque : Jeux en retard"
    assert message["To"] == "tartempion@example.org"
    assert message["From"] == "Ludothèque <ludotheque@example.org>"
    assert message["Auto-Submitted"] == "auto-generated"
    text = message.get_body(preferencelist=("plain",)).get_content()
    html = message.get_body(preferencelist=("html",)).get_content()
    for line in [
        "« 7 Wonders » (code-barres 91233) : à rendre le mardi 02/03/2027, 8 jours de retard",
        "« Quarto » (code-barres 90468) : à rendre le lundi 01/03/2027, 9 jours de retard",
        "samedi 13 mars : 10:00–12:00, 14:00–17:00",
    ]:
        assert line in text and line in html
    notice = Notice.objects.get()
    assert notice.status == Notice.Status.SENT and notice.sent_at is not None and notice.attempts == 1


def test_a_refused_address_is_recorded_and_retried_next_run_without_stopping_the_others(
    smtp_server, staff_user
):
    families = [
        make_member(f"M000{index}", name, email=address)
        for index, (name, address) in enumerate(
            [
                ("Alex Tartempion", "tartempion@example.org"),
                ("Sam Bidule", "bidule@nowhere.example"),
                ("Lou Chose", "chose@example.org"),
            ]
        )
    ]
    for index, family in enumerate(families):
        lend(
            game_copy("7 Wonders", f"9123{index}"),
            family,
            staff_user,
            lent_on=TODAY - days(29),
            due_on=TODAY - days(8),
        )
    smtp_server.refused.add("bidule@nowhere.example")

    notices_send(today=TODAY)

    delivered = sorted(to for _sender, recipients in smtp_server.envelopes for to in recipients)
    assert delivered == ["chose@example.org", "tartempion@example.org"]
    failed = Notice.objects.get(member=families[1])
    assert failed.status == Notice.Status.FAILED and failed.sent_at is None and failed.attempts == 1
    assert "SMTPRecipientsRefused" in failed.error and "User unknown" in failed.error

    # The desk corrects the address; the next run (the next day) sends the same notice, and only it.
    Member.objects.filter(pk=families[1].pk).update(email="bidule@example.org")
    Notice.objects.filter(pk=failed.pk).update(created_at=failed.created_at - days(1))
    report = notices_send(today=TODAY + days(1))

    assert "1 e-mail(s) tried again" in report
    assert [recipients for _sender, recipients in smtp_server.envelopes][2:] == [["bidule@example.org"]]
    failed.refresh_from_db()
    assert failed.status == Notice.Status.SENT and failed.attempts == 2 and failed.error == ""
    assert failed.recipient == "bidule@example.org"
    assert Notice.objects.count() == 3


def test_a_server_that_does_not_answer_fails_the_notice_without_stopping_the_run(settings, staff_user):
    settings.MAILERS = {
        "default": {
            "BACKEND": "django.core.mail.backends.smtp.EmailBackend",
            "OPTIONS": {"host": "127.0.0.1", "port": free_port(), "timeout": 2},
        }
    }
    family = make_member("M0001", "Alex Tartempion")
    lend(
        game_copy("7 Wonders", "91233"), family, staff_user, lent_on=TODAY - days(29), due_on=TODAY - days(8)
    )
    report = notices_send(today=TODAY)
    assert report.startswith("1 e-mail(s) handed")
    notice = Notice.objects.get()
    assert notice.status == Notice.Status.FAILED and "ConnectionRefusedError" in notice.error
