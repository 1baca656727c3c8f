"""A family's account: the desk's invitation by e-mail, the password reset, login by e-mail or card."""

import re

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.urls import reverse

from members.models import Member
from tests.conftest import text_of
from tests.loan_helpers import make_family_user, make_member

pytestmark = pytest.mark.django_db

NEW_PASSWORD = "un-jeu-de-societe-2026"


@pytest.fixture
def alex(db):
    return make_member("M0001", "Alex Tartempion", email="alex@example.org")


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def choose_password(client, link: str):
    """Open the e-mailed link and choose a password, as Django's confirmation page asks."""
    path = re.sub(r"^https?://[^/]+", "", link)
    response = client.get(path, follow=True)
    assert response.status_code == 200 and "validlink" in response.context and response.context["validlink"]
    form_url = response.redirect_chain[-1][0] if response.redirect_chain else path
    return client.post(form_url, {"new_password1": NEW_PASSWORD, "new_password2": NEW_PASSWORD})


def invite(client, staff_user, member):
    client.force_login(staff_user)
    response = client.post(reverse("loans:member-invite", args=[member.pk]), follow=True)
    client.logout()
    return response


def test_the_desk_invites_a_family_which_chooses_its_password_and_logs_in_with_its_card(
    client, staff_user, alex, django_capture_on_commit_callbacks
):
    with django_capture_on_commit_callbacks(execute=True):
        response = invite(client, staff_user, alex)
    assert "Invitation envoyée à alex@example.org" in text_of(response)
    alex.refresh_from_db()
    assert alex.user is not None and alex.user.username == "M0001" and not alex.user.has_usable_password()
    [message] = mail.outbox
    assert message.to == ["alex@example.org"]
    assert message.subject == "Votre compte à la ludothèque"
    assert "Bonjour Alex Tartempion," in message.body and "(M0001)" in message.body

    assert choose_password(client, link_in(message)).status_code == 302
    # The link worked once: it is dead now.
    response = client.get(re.sub(r"^https?://[^/]+", "", link_in(message)), follow=True)
    assert "Ce lien ne fonctionne plus" in text_of(response)

    response = client.post(reverse("login"), {"username": "m0001", "password": NEW_PASSWORD})
    assert response.status_code == 302
    assert client.get(reverse("loans:account")).status_code == 200


def test_an_invitation_is_written_in_the_familys_language(
    client, staff_user, alex, django_capture_on_commit_callbacks
):
    alex.language = "en"
    alex.save()
    with django_capture_on_commit_callbacks(execute=True):
        invite(client, staff_user, alex)
    assert mail.outbox[0].subject == "Your account at the toy library"


def test_a_family_without_an_e_mail_cannot_be_invited(client, staff_user):
    member = make_member("M0009", "Noa Truc", email="")
    response = invite(client, staff_user, member)
    assert "n'a pas d'adresse e-mail" in text_of(response)
    assert Member.objects.get(pk=member.pk).user is None and not mail.outbox


def test_only_the_desk_invites(client, outsider, alex):
    url = reverse("loans:member-invite", args=[alex.pk])
    client.force_login(outsider)
    assert client.post(url).status_code == 403
    client.force_login(get_user_model().objects.create_user("chef", is_staff=True))
    assert client.get(url).status_code == 405


def test_the_admin_action_invites_the_selected_families(
    client, staff_user, alex, django_capture_on_commit_callbacks
):
    client.force_login(staff_user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(
            reverse("admin:members_member_changelist"),
            {"action": "invite", "_selected_action": [alex.pk]},
            follow=True,
        )
    assert "1 invitation envoyée." in response.content.decode()
    assert len(mail.outbox) == 1


def test_a_family_resets_its_password_by_e_mail_and_logs_in_with_its_e_mail(client, alex):
    alex.user = make_family_user("alex")
    alex.user.email = "alex@example.org"
    alex.user.save()
    alex.save()
    response = client.post(reverse("password_reset"), {"email": "ALEX@example.org"})
    assert response.status_code == 302 and response.url == reverse("password_reset_done")
    [message] = mail.outbox
    assert message.subject == "Ludothèque : choisir un nouveau mot de passe"
    assert choose_password(client, link_in(message)).status_code == 302
    assert (
        client.post(reverse("login"), {"username": "alex@example.org", "password": NEW_PASSWORD}).status_code
        == 302
    )


def test_an_invited_family_that_lost_the_link_asks_for_a_new_one(client, staff_user, alex):
    invite(client, staff_user, alex)  # the e-mail is not sent (no commit), the account exists
    client.post(reverse("password_reset"), {"email": "alex@example.org"})
    assert len(mail.outbox) == 1


def test_an_unknown_address_gets_the_same_answer_and_no_e_mail(client):
    response = client.post(reverse("password_reset"), {"email": "personne@example.org"})
    assert response.status_code == 302 and not mail.outbox


def test_the_login_page_says_how_a_family_logs_in(client):
    html = client.get(reverse("login")).content.decode()
    assert "E-mail, numéro de carte ou identifiant" in html
    assert reverse("password_reset") in html


def test_a_wrong_password_by_card_or_e_mail_logs_nobody_in(client, alex):
    alex.user = make_family_user("alex")
    alex.save()
    for login in ("M0001", "alex", "inconnu"):
        assert client.post(reverse("login"), {"username": login, "password": "mauvais"}).status_code == 200
    assert "_auth_user_id" not in client.session


def test_failures_by_card_and_by_e_mail_count_against_the_same_account(client, alex, settings):
    settings.AXES_FAILURE_LIMIT = 3
    user = make_family_user("alex")
    user.email = "alex@example.org"
    user.save()
    alex.user = user
    alex.save()
    for login in ("M0001", "alex@example.org", "alex"):
        client.post(reverse("login"), {"username": login, "password": "mauvais"})
    response = client.post(reverse("login"), {"username": "M0001", "password": user.raw_password})
    assert response.status_code == 429
