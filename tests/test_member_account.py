"""A family's own page, /compte/: its loans, due dates and holds, and nobody else's."""

import pytest
from django.urls import reverse

from loans import services
from tests.loan_helpers import make_desk_world, make_family_user

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(staff_user):
    return make_desk_world(staff_user)


@pytest.fixture
def bidule(client, world):
    """The Bidule family, logged in with its own account."""
    user = make_family_user("famille-bidule")
    world["bidule"].user = user
    world["bidule"].save()
    client.force_login(user)
    return client


def test_a_family_sees_its_loans_with_their_due_dates(client, world):
    user = make_family_user()
    world["tartempion"].user = user
    world["tartempion"].save()
    client.force_login(user)
    html = client.get(reverse("loans:account")).content.decode()
    assert "Compte d'Alex Tartempion" in html
    assert world["current"].due_on.strftime("%d/%m/%Y") in html
    assert '<tr class="late">' in html and "en retard depuis le" in html
    assert "Vous pouvez encore emprunter 1 jeu." in html


def test_a_family_sees_the_hold_ready_for_it_and_its_past_loans(bidule, world):
    html = bidule.get(reverse("loans:account")).content.decode()
    assert "Quarto — <strong>prête : à retirer à Maison des Enfants avant le" in html
    assert "Jeux déjà rendus" in html and "Biblios" in html
    # Nothing of the Tartempion family, even the games it has that the Bidules wait for.
    assert "Tartempion" not in html and "Les colons de Catane" not in html


def test_a_waiting_hold_shows_as_waiting(bidule, world, staff_user):
    services.hold_create(game=world["catane"], member=world["bidule"], staff=staff_user)
    html = bidule.get(reverse("loans:account")).content.decode()
    assert "Les colons de Catane — en attente d'un exemplaire" in html


def test_the_account_page_is_read_only(bidule):
    assert bidule.post(reverse("loans:account")).status_code == 405


def test_a_family_cannot_reach_another_familys_desk_page(bidule, world):
    url = reverse("loans:member-detail", args=[world["tartempion"].pk])
    assert bidule.get(url).status_code == 403
    assert bidule.get(f"/api/members/{world['tartempion'].pk}/").status_code == 403


def test_a_logged_in_family_finds_its_account_in_the_menu(bidule):
    assert f'href="{reverse("loans:account")}"' in bidule.get(reverse("home")).content.decode()


def test_other_accounts_see_no_account_link(client, world, outsider, staff_user):
    for user in (outsider, staff_user):
        client.force_login(user)
        assert f'href="{reverse("loans:account")}"' not in client.get(reverse("home")).content.decode()
