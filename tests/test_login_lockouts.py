"""Login lockouts: one family's wrong passwords lock that family, never the desk behind the same
address; the desk lists what is locked and lifts it; nobody else may."""

import pytest
from django.urls import reverse

from tests.conftest import text_of
from tests.loan_helpers import make_family_user, make_member

pytestmark = pytest.mark.django_db

LIBRARY = "192.0.2.10"  # the library's address, shared by the desk and the families on its Wi-Fi


@pytest.fixture
def family(db):
    user = make_family_user("famille")
    make_member("M0001", "Alex Tartempion", email="tartempion@example.org", user=user)
    return user


def log_in(client, username: str, password: str, address: str = LIBRARY):
    return client.post(reverse("login"), {"username": username, "password": password}, REMOTE_ADDR=address)


def ten_typos(client, login: str = "M0001"):
    return [log_in(client, login, f"mauvais-{n}").status_code for n in range(10)]


def test_one_familys_ten_wrong_passwords_lock_it_but_not_the_desk_at_the_same_address(
    client, family, staff_user
):
    assert ten_typos(client) == [200] * 9 + [429]
    assert log_in(client, "M0001", family.raw_password).status_code == 429
    assert log_in(client, staff_user.username, staff_user.raw_password).status_code == 302


def test_the_family_keeping_on_typing_does_not_lock_the_address(client, family, staff_user):
    for _ in range(6):
        ten_typos(client)
    assert log_in(client, staff_user.username, staff_user.raw_password).status_code == 302


def test_the_desk_lists_a_locked_family_and_unlocks_it(client, family, staff_user):
    ten_typos(client)
    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:lockout-list")))
    assert "famille" in page and "Alex Tartempion" in page and "10, depuis 1 adresse" in page

    response = client.post(reverse("loans:lockout-unlock"), {"username": "famille"}, follow=True)
    assert "Le compte famille peut à nouveau se connecter." in text_of(response)
    assert "Aucun compte bloqué." in text_of(response)
    client.logout()
    assert log_in(client, "M0001", family.raw_password).status_code == 302


def test_the_desk_unlocks_an_address_that_tried_too_many_accounts(client, staff_user, settings):
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_WIDE_FACTOR = 2
    for login in ("M0001", "M0002", "M0003", "M0004", "M0005", "M0006"):
        log_in(client, login, "mauvais", "198.51.100.7")
    assert log_in(client, staff_user.username, staff_user.raw_password, "198.51.100.7").status_code == 429
    client.force_login(staff_user)
    assert "6, pour 6 comptes" in text_of(client.get(reverse("loans:lockout-list")))
    client.post(reverse("loans:lockout-unlock"), {"address": "198.51.100.7"})
    client.logout()
    assert log_in(client, staff_user.username, staff_user.raw_password, "198.51.100.7").status_code == 302


def test_only_the_desk_sees_and_lifts_lockouts(client, family, outsider):
    ten_typos(client)
    assert client.get(reverse("loans:lockout-list")).status_code == 302  # to the login page
    assert client.post(reverse("loans:lockout-unlock"), {"username": "famille"}).status_code == 302
    for user in (outsider, family):
        client.force_login(user)
        assert client.get(reverse("loans:lockout-list")).status_code == 403
        assert client.post(reverse("loans:lockout-unlock"), {"username": "famille"}).status_code == 403
    client.logout()
    assert log_in(client, "M0001", family.raw_password).status_code == 429


def test_unlocking_takes_a_post_with_one_account_or_one_address(client, staff_user):
    client.force_login(staff_user)
    url = reverse("loans:lockout-unlock")
    assert client.get(url).status_code == 405
    response = client.post(url, {})
    assert response.status_code == 400
    assert "Choisissez un compte ou une adresse à débloquer." in text_of(response)
    response = client.post(url, {"address": "pas-une-adresse"})
    assert response.status_code == 400
    assert "Saisissez une adresse IPv4 ou IPv6 valide." in text_of(response)
