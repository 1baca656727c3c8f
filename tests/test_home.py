"""The home page, in French by default and in English on request."""

import pytest
from django.urls import reverse

from tests.conftest import pdf_page_count

pytestmark = pytest.mark.django_db


def test_home_speaks_french_by_default(client):
    response = client.get(reverse("home"))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<html lang="fr">' in html
    assert "Bienvenue à la ludothèque" in html
    assert reverse("catalogue:game-list") in html
    assert reverse("rules:page-list") in html


def test_the_desk_card_is_shown_to_staff_only(client, staff_user, outsider):
    assert reverse("loans:desk") not in client.get(reverse("home")).content.decode()
    client.force_login(outsider)
    assert reverse("loans:desk") not in client.get(reverse("home")).content.decode()
    client.force_login(staff_user)
    assert "Le comptoir de prêt" in client.get(reverse("home")).content.decode()


def test_home_speaks_english_when_the_browser_asks(client):
    response = client.get(reverse("home"), HTTP_ACCEPT_LANGUAGE="en")
    html = response.content.decode()
    assert '<html lang="en">' in html
    assert "Welcome to the toy library" in html
    assert "Bienvenue à la ludothèque" not in html


def test_the_language_switch_changes_the_language_for_the_next_pages(client):
    response = client.post(reverse("set_language"), {"language": "en", "next": "/"})
    assert response.status_code == 302
    html = client.get(reverse("home")).content.decode()
    assert "Welcome to the toy library" in html
    client.post(reverse("set_language"), {"language": "fr", "next": "/"})
    assert "Bienvenue à la ludothèque" in client.get(reverse("home")).content.decode()


def test_the_header_offers_the_other_language_in_one_click_keeping_the_page(client):
    html = client.get(reverse("home")).content.decode()
    header = html.split("</header>")[0]
    assert 'action="/i18n/setlang/"' in header
    assert '<button type="submit" name="language" value="en" lang="en">English</button>' in header
    assert 'name="next" type="hidden" value="/"' in header
    english = client.get("/jeux/?ages=6", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert 'value="fr" lang="fr">Français</button>' in english
    assert 'name="next" type="hidden" value="/jeux/?ages=6"' in english


def test_the_home_page_has_the_search_box(client):
    html = client.get(reverse("home")).content.decode()
    assert 'action="/jeux/"' in html
    for name in ("q", "ages", "duree_max"):
        assert f'name="{name}"' in html


def test_a_page_that_does_not_exist_answers_404(client):
    assert client.get("/nulle-part/").status_code == 404


@pytest.mark.browser
def test_home_in_a_real_browser_prints_on_one_a4_page(live_server, print_to_pdf):
    pdf = print_to_pdf(live_server.url + "/")
    assert pdf_page_count(pdf) == 1
