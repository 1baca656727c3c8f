"""Who may open what: every desk page, the family account page and every API endpoint.

Anonymous visitors are sent to the login page (pages) or refused (API); a logged-in family or any
other non-staff account gets 403; staff get in. A family's own page shows its data and nobody else's.
"""

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from tests.loan_helpers import make_desk_world, make_family_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(staff_user):
    return make_desk_world(staff_user)


@pytest.fixture
def family_user(world):
    """The Tartempion family's own site account."""
    user = make_family_user()
    world["tartempion"].user = user
    world["tartempion"].save()
    return user


def desk_pages(world) -> list[tuple[str, str]]:
    """(method, url) of every desk page and action."""
    return [
        ("get", reverse("loans:desk")),
        ("get", reverse("loans:desk") + "?code=M0001"),
        ("get", reverse("loans:member-detail", args=[world["tartempion"].pk])),
        ("post", reverse("loans:member-detail", args=[world["tartempion"].pk])),
        ("post", reverse("loans:hold-create", args=[world["tartempion"].pk])),
        ("post", reverse("loans:loan-renew", args=[world["current"].pk])),
        ("get", reverse("loans:return-scan")),
        ("get", reverse("loans:loan-return", args=[world["current"].pk])),
        ("post", reverse("loans:loan-return", args=[world["current"].pk])),
        ("get", reverse("loans:overdue-list")),
        ("get", reverse("loans:hold-list")),
        ("post", reverse("loans:hold-cancel", args=[world["ready"].pk])),
        ("post", reverse("loans:hold-expire", args=[world["ready"].pk])),
        ("get", reverse("loans:incomplete-list")),
        ("post", reverse("loans:missing-piece-recover", args=[world["missing_piece"].pk])),
        ("get", reverse("loans:stats")),
        ("get", reverse("loans:lockout-list")),
        ("post", reverse("loans:lockout-unlock")),
    ]


def api_endpoints(world) -> list[tuple[str, str]]:
    return [
        ("get", "/api/members/"),
        ("get", f"/api/members/{world['tartempion'].pk}/"),
        ("post", "/api/members/"),
        ("patch", f"/api/members/{world['tartempion'].pk}/"),
        ("get", "/api/loans/"),
        ("get", f"/api/loans/{world['current'].pk}/"),
        ("post", "/api/loans/"),
        ("post", f"/api/loans/{world['current'].pk}/return/"),
        ("post", f"/api/loans/{world['current'].pk}/renew/"),
        ("get", "/api/holds/"),
        ("get", f"/api/holds/{world['ready'].pk}/"),
        ("post", "/api/holds/"),
        ("post", f"/api/holds/{world['ready'].pk}/cancel/"),
    ]


def test_anonymous_visitors_are_sent_to_the_login_page_from_every_desk_page(client, world):
    for method, url in desk_pages(world):
        response = getattr(client, method)(url)
        assert response.status_code == 302, (method, url)
        assert response["Location"].startswith(reverse("login") + "?next="), (method, url)


def test_a_family_account_is_refused_every_desk_page(client, world, family_user):
    client.force_login(family_user)
    for method, url in desk_pages(world):
        assert getattr(client, method)(url).status_code == 403, (method, url)


def test_a_logged_in_outsider_is_refused_every_desk_page(client, world, outsider):
    client.force_login(outsider)
    for method, url in desk_pages(world):
        assert getattr(client, method)(url).status_code == 403, (method, url)


def test_staff_open_every_desk_page(client, world, staff_user):
    client.force_login(staff_user)
    for method, url in desk_pages(world):
        if method == "get":
            assert client.get(url).status_code in (200, 302), url
    assert client.get(reverse("loans:desk")).status_code == 200


def test_desk_actions_refuse_the_wrong_method(client, world, staff_user):
    client.force_login(staff_user)
    # A renewal is asked by GET too: a late loan's fee is settled on that page first.
    assert client.delete(reverse("loans:loan-renew", args=[world["current"].pk])).status_code == 405
    assert client.get(reverse("loans:hold-cancel", args=[world["ready"].pk])).status_code == 405
    assert client.get(reverse("loans:hold-create", args=[world["tartempion"].pk])).status_code == 405
    assert client.post(reverse("loans:overdue-list")).status_code == 405
    assert client.post(reverse("loans:desk")).status_code == 405


def test_anonymous_api_calls_are_refused(client, world):
    for method, url in api_endpoints(world):
        assert getattr(client, method)(url, content_type="application/json").status_code == 403, (method, url)


def test_a_family_account_is_refused_by_the_api(client, world, family_user):
    client.force_login(family_user)
    for method, url in api_endpoints(world):
        response = getattr(client, method)(url, data={}, content_type="application/json")
        assert response.status_code == 403, (method, url)


def test_a_family_token_is_refused_by_the_api(client, world, family_user):
    token = Token.objects.create(user=family_user)
    response = client.get("/api/loans/", HTTP_AUTHORIZATION=f"Token {token.key}")
    assert response.status_code == 403


def test_staff_read_the_api_with_a_session_or_a_token(client, world, staff_user):
    client.force_login(staff_user)
    for method, url in api_endpoints(world):
        if method == "get":
            assert client.get(url).status_code == 200, url
    client.logout()
    token = Token.objects.create(user=staff_user)
    assert client.get("/api/loans/", HTTP_AUTHORIZATION=f"Token {token.key}").status_code == 200


def test_the_api_never_deletes_history(client, world, staff_user):
    client.force_login(staff_user)
    assert client.delete(f"/api/loans/{world['current'].pk}/").status_code == 405
    assert client.delete(f"/api/holds/{world['ready'].pk}/").status_code == 405
    assert client.delete(f"/api/members/{world['tartempion'].pk}/").status_code == 405
    assert (
        client.patch(f"/api/loans/{world['current'].pk}/", {}, content_type="application/json").status_code
        == 405
    )


def test_the_account_page_sends_anonymous_visitors_to_the_login_page(client, world):
    response = client.get(reverse("loans:account"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("login"))


def test_a_family_reads_its_own_loans_and_nobody_elses(client, world, family_user):
    client.force_login(family_user)
    response = client.get(reverse("loans:account"))
    assert response.status_code == 200
    html = response.content.decode()
    assert "Alex Tartempion" in html
    assert "Les colons de Catane" in html and "Quarto" in html
    # The Bidule family's loan, hold and name never appear.
    assert "Sam Bidule" not in html and "Biblios" not in html


def test_an_account_without_a_family_gets_404_on_the_account_page(client, world, outsider, staff_user):
    client.force_login(outsider)
    assert client.get(reverse("loans:account")).status_code == 404
    client.force_login(staff_user)
    assert client.get(reverse("loans:account")).status_code == 404


def test_the_admin_shows_loans_but_offers_no_delete(admin_client, world):
    assert admin_client.get(reverse("admin:loans_loan_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:loans_loan_change", args=[world["current"].pk])).status_code == 200
    assert admin_client.get(reverse("admin:loans_loan_delete", args=[world["current"].pk])).status_code == 403
    assert admin_client.get(reverse("admin:loans_loan_add")).status_code == 403
    assert admin_client.get(reverse("admin:members_member_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:members_member_add")).status_code == 200
    assert (
        admin_client.get(reverse("admin:members_member_delete", args=[world["tartempion"].pk])).status_code
        == 403
    )
    assert admin_client.get(reverse("admin:loans_hold_changelist")).status_code == 200
    assert admin_client.get(reverse("admin:loans_missingpiece_changelist")).status_code == 200
