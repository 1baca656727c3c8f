"""The home page, in French by default and in English on request."""

from decimal import Decimal

import pytest
from django.urls import reverse

from catalogue.models import Copy, Location
from loans import services
from tests.conftest import pdf_page_count, text_of
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type
from tests.notice_helpers import open_wednesdays_and_saturdays

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


# The home page welcomes: covers of new titles and titles on the shelf, how to join, the search first.


def _world(staff_user, games: int = 2, sites: int = 1):
    """`games` titles on the shelf, one out at a family's, one withdrawn, one without a copy; `sites`
    sites with their address, contact and hours; the two memberships a ludothèque offers, and one it does not."""
    make_membership_type(name="Famille (1 an)", price=Decimal("25.00"), loan_quota=4, loan_period_days=21)
    make_membership_type(name="Découverte (3 mois)", price=Decimal("8.00"), loan_quota=2, loan_period_days=14)
    make_membership_type(name="Partenaire (interne)", price=Decimal("0"), public=False)
    for number in range(sites):
        site = Location.objects.create(
            name=f"Site {number}",
            address="Rue de l'Exemple 12\n1000 Bruxelles",
            phone="02 000 00 00",
            email="ludotheque@example.org",
        )
        open_wednesdays_and_saturdays(site)
    for number in range(games):
        make_copy(make_game(f"En rayon {number}"), f"S{number}")
    out = make_game("Sorti")
    services.loan_create(
        copy=make_copy(out, "O1"), member=make_member("M0009", "Sam Bidule"), staff=staff_user
    )
    make_copy(make_game("Retiré"), "W1", status=Copy.Status.WITHDRAWN)
    make_game("Sans exemplaire")


def _section(html: str, heading: str) -> str:
    start = html.index(f">{heading}</h2>")
    return html[start : html.index("</section>", start)]


def test_the_home_page_shows_covers_of_new_titles_and_of_titles_on_the_shelf(client, staff_user):
    _world(staff_user)
    html = client.get(reverse("home")).content.decode()
    new, on_shelf = _section(html, "Nouveautés"), _section(html, "En rayon maintenant")
    assert "Sorti" in new and "En rayon 1" in new and "Retiré" not in new and "Sans exemplaire" not in new
    assert "En rayon 0" in on_shelf and "Sorti" not in on_shelf
    assert new.count('<svg class="box-picture box-placeholder"') == 3  # a cover each, drawn without a picture
    assert 'href="/jeux/?disponible=oui"' in on_shelf


def test_the_home_page_says_how_to_join_from_the_sites_data(client, staff_user):
    _world(staff_user)
    text = text_of(client.get(reverse("home"))).replace("\xa0", " ")
    assert "Devenir membre" in text
    assert "Découverte (3 mois) : 8,00 € — 2 jeux à la fois, 14 jours par prêt" in text
    assert "Famille (1 an) : 25,00 € — 4 jeux à la fois, 21 jours par prêt" in text
    assert "Partenaire" not in text
    assert "Site 0 Rue de l'Exemple 12 1000 Bruxelles 02 000 00 00 · ludotheque@example.org" in text
    assert "Mercredi 14:00–18:00 Samedi 10:00–12:00, 14:00–17:00" in text


def test_staff_edit_what_the_home_page_says_in_the_admin(client, staff_user):
    _world(staff_user)
    client.force_login(staff_user)
    site = Location.objects.get(name="Site 0")
    form = client.get(reverse("admin:catalogue_location_change", args=[site.pk])).content.decode()
    assert 'name="phone"' in form and 'name="email"' in form and 'name="address"' in form
    assert 'name="opening_hours-0-weekday"' in form
    membership = client.get(reverse("admin:members_membershiptype_add")).content.decode()
    assert 'name="public"' in membership and 'name="price"' in membership


def test_the_search_comes_first(client, staff_user):
    _world(staff_user)
    html = client.get(reverse("home")).content.decode()
    assert html.index('role="search"') < html.index(">Nouveautés</h2>") < html.index(">Devenir membre</h2>")


@pytest.mark.postgresql
def test_the_home_page_takes_as_many_queries_for_many_games_and_sites_as_for_few(
    client, staff_user, django_assert_max_num_queries
):
    _world(staff_user, games=2, sites=1)
    with django_assert_max_num_queries(12) as few:
        client.get(reverse("home"))
    for number in range(2, 14):
        make_copy(make_game(f"Encore {number}"), f"E{number}")
    for number in range(1, 4):
        open_wednesdays_and_saturdays(
            Location.objects.create(name=f"Autre site {number}", address="Ailleurs")
        )
    with django_assert_max_num_queries(12) as many:
        html = client.get(reverse("home")).content.decode()
    assert html.count("Autre site") == 6  # each in « Devenir membre » and in the next openings
    assert len(many.captured_queries) == len(few.captured_queries)
