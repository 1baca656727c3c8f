"""Logging in keeps the page: « Se connecter » comes back to it, a visitor is invited to log in to
reserve a game whose copies are all out, and without a page each lands where it works."""

import re
from html import unescape

import pytest
from django.urls import reverse

from loans import services
from tests.conftest import PASSWORD
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member

PHONE = {"width": 390, "height": 844}
DESKTOP = {"width": 1280, "height": 800}


@pytest.fixture
def alex(db):
    member = make_member("M0001", "Alex Tartempion", email="alex@example.org")
    member.user = make_family_user()
    member.save()
    return member


@pytest.fixture
def all_out(staff_user):
    """A game whose only copy is at another family's home."""
    game = make_game("Les colons de Catane")
    services.loan_create(
        copy=make_copy(game, "C1"), member=make_member("M0002", "Sam Bidule"), staff=staff_user
    )
    return game


def login_link(html: str) -> str:
    return unescape(re.search(r'<a href="(/connexion/[^"]*)">Se connecter</a>', html).group(1))


@pytest.mark.django_db
def test_se_connecter_on_a_game_page_comes_back_to_it(client, alex, all_out):
    page = all_out.get_absolute_url() + "?onglet=1"
    link = login_link(client.get(page).content.decode())
    assert link == reverse("login") + "?next=" + all_out.get_absolute_url() + "%3Fonglet%3D1"
    form = client.get(link).content.decode()
    assert f'name="next" value="{page}"' in unescape(form)
    response = client.post(link, {"username": "M0001", "password": PASSWORD, "next": page})
    assert response.status_code == 302 and response.url == page


@pytest.mark.django_db
def test_without_a_page_a_family_lands_on_its_account_and_staff_at_the_desk(
    client, alex, staff_user, outsider
):
    assert login_link(client.get("/").content.decode()) == reverse("login")
    response = client.post(reverse("login"), {"username": "alex@example.org", "password": PASSWORD})
    assert response.url == reverse("loans:account")
    client.logout()
    response = client.post(reverse("login"), {"username": staff_user.username, "password": PASSWORD})
    assert response.url == reverse("loans:desk")
    client.logout()
    response = client.post(reverse("login"), {"username": outsider.username, "password": PASSWORD})
    assert response.url == reverse("home")


@pytest.mark.django_db
def test_a_page_elsewhere_is_not_followed(client, alex):
    response = client.post(
        reverse("login"), {"username": "M0001", "password": PASSWORD, "next": "https://example.com/"}
    )
    assert response.url == reverse("loans:account")


@pytest.mark.django_db
def test_a_visitor_is_invited_to_log_in_to_reserve_a_game_whose_copies_are_all_out(client, all_out):
    html = client.get(all_out.get_absolute_url()).content.decode()
    assert "Connectez-vous pour le réserver" in html
    assert f'href="/connexion/?next={all_out.get_absolute_url()}"' in html
    on_shelf = make_game("Quarto")
    make_copy(on_shelf, "Q1")
    assert "Connectez-vous pour le réserver" not in client.get(on_shelf.get_absolute_url()).content.decode()
    no_copy = make_game("Biblios")
    assert "Connectez-vous pour le réserver" not in client.get(no_copy.get_absolute_url()).content.decode()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_visitor_logs_in_from_a_game_page_and_reserves_it(page, live_server, alex, all_out, viewport):
    page.set_viewport_size(viewport)
    page.goto(live_server.url + all_out.get_absolute_url())
    invite = page.get_by_role("link", name="Connectez-vous pour le réserver")
    assert invite.is_visible() and invite.bounding_box()["y"] + 40 < viewport["height"]
    with page.expect_navigation():
        invite.click()
    page.fill("#id_username", "M0001")
    page.fill("#id_password", PASSWORD)
    with page.expect_navigation():
        page.click("main button[type=submit]")
    assert page.url == live_server.url + all_out.get_absolute_url()
    with page.expect_navigation():
        page.get_by_role("button", name="Réserver").click()
    assert page.url == live_server.url + reverse("loans:account")
    assert "réservé : vous êtes à la place 1 dans la file" in page.locator(".messages").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
