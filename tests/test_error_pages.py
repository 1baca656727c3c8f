"""Error pages in the site's design, French or English; a family on a staff page is shown the way home."""

import pytest
from django.test import Client
from django.urls import reverse

from tests.conftest import text_of
from tests.loan_helpers import make_family_user, make_member

pytestmark = pytest.mark.django_db


def test_a_missing_page_says_so_in_french_with_a_way_on(client):
    response = client.get("/pas-une-page/")
    assert response.status_code == 404
    text = text_of(response)
    assert "Page introuvable" in text and "Chercher un jeu" in text
    assert 'class="site-header"' in response.content.decode()


def test_a_missing_page_speaks_english_when_asked(client):
    response = client.get("/jeux/pas-un-jeu/", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 404
    assert "Page not found" in text_of(response)


def test_a_family_on_a_staff_page_is_sent_to_its_account(client):
    member = make_member("M0001", "Alex Tartempion")
    member.user = make_family_user()
    member.save()
    client.force_login(member.user)
    response = client.get(reverse("loans:desk"))
    assert response.status_code == 403
    text = text_of(response)
    assert "Cette page est réservée à l'équipe de la ludothèque" in text
    assert "Aller à mon compte" in text and reverse("loans:account") in response.content.decode()


def test_someone_else_on_a_staff_page_gets_the_polite_page_too(client, outsider):
    client.force_login(outsider)
    response = client.get(reverse("loans:desk"), HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 403
    assert "This page is for the toy library's staff" in text_of(response)
    assert reverse("loans:account") not in response.content.decode()


@pytest.mark.urls("tests.failing_urls")
def test_a_server_error_is_a_page_of_the_site(settings):
    response = Client(raise_request_exception=False).get("/panne/")
    assert response.status_code == 500
    text = text_of(response)
    assert "Le site a rencontré une erreur" in text and "Ludothèque" in text
    assert "/static/css/ludotheque" in response.content.decode()


@pytest.mark.browser
def test_the_bad_request_page_passes_axe_with_its_list_of_problems(browser, live_server, transactional_db):
    from tests.axe import axe_tab, page_violations

    with axe_tab(browser, base_url=live_server.url) as page:
        response = page.goto(f"{live_server.url}/jeux/?categorie=%00")
        assert response.status == 400
        assert page.locator("[role=alert] li").count() >= 1
        assert page_violations(page) == []
