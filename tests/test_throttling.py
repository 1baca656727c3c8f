"""Throttles: logins (site and admin) per account and per address, the API per client, with a clear
message; the rates come from the settings, lowered here so that a few requests reach them."""

import json

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.conftest import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_failures(settings):
    """Three failures on an account at one address lock it there; six lock it, or the address, everywhere."""
    settings.AXES_FAILURE_LIMIT = 3
    settings.LOGIN_WIDE_FACTOR = 2


def log_in(client, username: str, password: str, address: str = "192.0.2.1", url: str = "/connexion/"):
    return client.post(url, {"username": username, "password": password}, REMOTE_ADDR=address)


def test_an_account_is_locked_at_an_address_after_too_many_failures_there(client, staff_user, three_failures):
    assert log_in(client, staff_user.username, "mauvais").status_code == 200
    assert log_in(client, staff_user.username, "mauvais").status_code == 200
    # The third failure locks the account (the page says so at once)…
    assert log_in(client, staff_user.username, "mauvais").status_code == 429
    # …so even the right password, from there, is refused for now.
    response = log_in(client, staff_user.username, staff_user.raw_password)
    assert response.status_code == 429
    assert "Trop de tentatives de connexion ont échoué pour ce compte ou depuis cette adresse" in text_of(
        response
    )
    assert "Réessayez dans 15 minutes." in text_of(response)
    assert "_auth_user_id" not in client.session
    # Whoever typed them locked nobody else out: from another address, the account logs in.
    assert log_in(client, staff_user.username, staff_user.raw_password, "192.0.2.9").status_code == 302


def test_an_account_tried_from_many_addresses_is_locked_everywhere(client, staff_user, three_failures):
    statuses = [log_in(client, staff_user.username, "mauvais", f"192.0.2.{n}").status_code for n in range(6)]
    assert statuses == [200] * 5 + [429]
    locked = log_in(client, staff_user.username, staff_user.raw_password, "192.0.2.99")
    assert locked.status_code == 429
    # It says why without naming the limit of one address, which five tries from five did not reach.
    assert "Trop de tentatives de connexion ont échoué" in text_of(locked)
    assert "au plus" not in text_of(locked)


def test_an_address_trying_many_accounts_is_locked_for_every_account(client, staff_user, three_failures):
    for username in ("alice", "bob", "carole"):
        log_in(client, username, "mauvais")
        log_in(client, username, "mauvais")
    assert log_in(client, staff_user.username, staff_user.raw_password).status_code == 429
    # The account itself is not locked: from another address it logs in.
    assert log_in(client, staff_user.username, staff_user.raw_password, "192.0.2.9").status_code == 302


def test_the_admin_login_is_throttled_the_same_way(client, staff_user, three_failures):
    admin_login = reverse("admin:login")
    for _ in range(2):
        assert log_in(client, staff_user.username, "mauvais", url=admin_login).status_code == 200
    assert log_in(client, staff_user.username, "mauvais", url=admin_login).status_code == 429
    response = log_in(client, staff_user.username, staff_user.raw_password, url=admin_login)
    assert response.status_code == 429
    assert "Connexion bloquée" in text_of(response)


def test_a_success_before_the_limit_starts_the_count_again(client, staff_user, three_failures):
    for _ in range(2):
        log_in(client, staff_user.username, "mauvais")
    assert log_in(client, staff_user.username, staff_user.raw_password).status_code == 302
    client.logout()
    for _ in range(2):
        log_in(client, staff_user.username, "mauvais")
    assert log_in(client, staff_user.username, staff_user.raw_password).status_code == 302


def test_the_rules_computations_are_throttled_per_address(client, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "rules": "3/minute"}
    url = "/api/rules/quarto/setup/?players=2"
    for _ in range(3):
        assert client.get(url, REMOTE_ADDR="192.0.2.1").status_code == 200
    response = client.get(url, REMOTE_ADDR="192.0.2.1")
    assert response.status_code == 429
    assert response.json()["detail"].startswith("Requête ralentie.")
    assert int(response["Retry-After"]) > 0
    # Another address, and the rules list (no computation), still answer.
    assert client.get(url, REMOTE_ADDR="192.0.2.2").status_code == 200
    assert client.get("/api/rules/", REMOTE_ADDR="192.0.2.1").status_code == 200


def test_a_spoofed_forwarded_address_does_not_escape_the_throttle(client, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "rules": "2/minute"}
    url = "/api/rules/quarto/setup/?players=2"
    statuses = [
        client.get(url, REMOTE_ADDR="192.0.2.1", HTTP_X_FORWARDED_FOR=f"198.51.100.{number}").status_code
        for number in range(3)
    ]
    assert statuses == [200, 200, 429]


def test_calls_with_a_token_are_throttled_per_account(client, staff_user, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "user": "2/minute"}
    token = Token.objects.create(user=staff_user).key
    statuses = [
        client.get(
            "/api/members/", HTTP_AUTHORIZATION=f"Token {token}", REMOTE_ADDR=f"192.0.2.{number}"
        ).status_code
        for number in range(3)
    ]
    assert statuses == [200, 200, 429]


def test_anonymous_api_calls_are_throttled_per_address(client, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "anon": "2/minute"}
    statuses = [client.get("/api/games/").status_code for _ in range(3)]
    assert statuses == [200, 200, 429]


def test_the_live_score_sheet_stays_under_the_default_rate(client):
    # A table typing scores: the page's script posts at most 4 times a second (250 ms pause).
    body = json.dumps(
        {
            "players": [
                {"name": "A", "building_points": 1, "coins": 0},
                {"name": "B", "building_points": 2, "coins": 0},
            ]
        }
    )
    for _ in range(60):
        response = client.post("/api/rules/the-builders/score/", body, content_type="application/json")
        assert response.status_code == 200
