"""A forgotten password: asked for with any login a family uses (its e-mail, its account's, its card),
answered alike whether an account exists, throttled, and e-mailed by the tasks' worker."""

import pytest
from aiosmtpd.controller import Controller
from django.core import mail
from django.core.management import call_command
from django.urls import reverse
from django_tasks_db.models import DBTaskResult

from tests.conftest import text_of
from tests.loan_helpers import make_family_user, make_member
from tests.test_notice_smtp import Mailbox, free_port

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(db):
    """The demo's shape: the family's contact e-mail is not its account's."""
    user = make_family_user("famille")
    user.email = "famille@example.org"
    user.save()
    return make_member("M0001", "Alex Tartempion", email="tartempion@example.org", user=user)


def ask(client, login: str, address: str = "192.0.2.1"):
    return client.post(reverse("password_reset"), {"email": login}, REMOTE_ADDR=address)


@pytest.mark.parametrize(
    ("login", "address"),
    [
        ("tartempion@example.org", "tartempion@example.org"),
        (" Tartempion@Example.org ", "tartempion@example.org"),
        ("famille@example.org", "famille@example.org"),
        ("m0001", "tartempion@example.org"),
    ],
)
def test_a_family_gets_one_link_whichever_login_it_types(client, family, login, address):
    response = ask(client, login)
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    [message] = mail.outbox
    assert message.to == [address]
    assert message.subject == "Ludothèque : choisir un nouveau mot de passe"
    assert "http://127.0.0.1:8000/mot-de-passe/" in message.body


def test_the_contact_e_mail_that_logs_in_also_gets_the_link(client, family):
    family.user.set_password("ancien-mot-de-passe-42")
    family.user.save()
    logged_in = client.post(
        reverse("login"), {"username": "tartempion@example.org", "password": "ancien-mot-de-passe-42"}
    )
    assert logged_in.status_code == 302
    client.logout()
    ask(client, "tartempion@example.org")
    assert [message.to for message in mail.outbox] == [["tartempion@example.org"]]


def test_an_unknown_login_gets_the_same_answer_and_no_e_mail(client, family):
    known = ask(client, "m0001")
    mail.outbox.clear()
    for login in ("personne@example.org", "M9999"):
        response = ask(client, login)
        assert (response.status_code, response.url) == (known.status_code, known.url)
        assert not mail.outbox


def test_a_family_without_an_address_gets_no_e_mail(client):
    user = make_family_user("noa")
    make_member("M0009", "Noa Truc", email="", user=user)
    assert ask(client, "M0009").status_code == 302 and not mail.outbox


def test_an_empty_or_over_long_login_is_refused_with_its_reason(client):
    response = client.post(reverse("password_reset"), {"email": ""})
    assert response.status_code == 400 and "Ce champ est obligatoire." in text_of(response)
    response = client.post(reverse("password_reset"), {"email": "x" * 255})
    assert response.status_code == 400 and "au plus 254 caractères" in text_of(response)
    assert not mail.outbox


def test_the_page_says_what_to_type(client):
    html = client.get(reverse("password_reset")).content.decode()
    assert "E-mail ou numéro de carte" in html and 'autocomplete="username"' in html


def test_too_many_requests_from_one_address_are_refused_with_a_clear_message(client, family, settings):
    settings.PASSWORD_RESET_RATES = {**settings.PASSWORD_RESET_RATES, "address": "2/hour"}
    assert ask(client, "m0001").status_code == 302
    assert ask(client, "personne@example.org").status_code == 302
    response = ask(client, "famille@example.org")
    assert response.status_code == 429
    assert (
        "Trop de demandes de lien depuis cette adresse ou pour cet identifiant : réessayez dans 60 minutes."
        in text_of(response)
    )
    assert len(mail.outbox) == 1
    # Another address still may.
    assert ask(client, "famille@example.org", address="192.0.2.2").status_code == 302
    assert len(mail.outbox) == 2


def test_too_many_requests_for_one_login_are_refused_whatever_the_address(client, family, settings):
    settings.PASSWORD_RESET_RATES = {**settings.PASSWORD_RESET_RATES, "login": "3/hour"}
    statuses = [
        ask(client, login, f"192.0.2.{n}").status_code for n, login in enumerate(["m0001"] * 3 + ["M0001 "])
    ]
    assert statuses == [302, 302, 302, 429]
    assert len(mail.outbox) == 3
    # An unknown login is refused alike: the refusal says nothing of which logins exist.
    unknown = [ask(client, "M9999", f"198.51.100.{n}").status_code for n in range(4)]
    assert unknown == [302, 302, 302, 429]


@pytest.fixture
def queued_mail(settings):
    """Production's way: tasks queued in PostgreSQL for `db_worker`, e-mails to a real SMTP server."""
    settings.TASKS = {"default": {"BACKEND": "django_tasks_db.DatabaseBackend"}}
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
    yield mailbox
    controller.stop()


# A transaction the test does not hold: the worker closes its database connection as it exits.
@pytest.mark.django_db(transaction=True)
def test_the_request_queues_the_e_mail_for_known_and_unknown_logins_and_the_worker_sends_it(
    client, family, queued_mail
):
    assert ask(client, "tartempion@example.org").status_code == 302
    assert ask(client, "personne@example.org").status_code == 302
    # Nothing sent by the requests: one task queued by each, the same for an account or none.
    assert not queued_mail.envelopes
    assert list(DBTaskResult.objects.values_list("task_path", "status")) == [
        ("members.passwords.password_reset_send", "READY"),
        ("members.passwords.password_reset_send", "READY"),
    ]

    call_command("db_worker", batch=True, startup_delay=False, reload=False, verbosity=0)

    assert [recipients for _, recipients in queued_mail.envelopes] == [["tartempion@example.org"]]
    assert "http://127.0.0.1:8000/mot-de-passe/" in queued_mail.messages[0].get_content()
    assert set(DBTaskResult.objects.values_list("status", flat=True)) == {"SUCCESSFUL"}


def test_the_link_is_written_in_the_language_of_the_page_it_was_asked_from(client, family):
    client.post(reverse("password_reset"), {"email": "m0001"}, headers={"accept-language": "en"})
    assert mail.outbox[0].subject != "Ludothèque : choisir un nouveau mot de passe"
