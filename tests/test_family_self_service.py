"""A family on its own: « Réserver » from a game's page, cancel a hold, renew a loan, its language, suggestions."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan
from members.models import HouseholdMember, Member
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def alex(db):
    member = make_member("M0001", "Alex Tartempion")
    member.user = make_family_user()
    member.save()
    return member


@pytest.fixture
def family(client, alex):
    client.force_login(alex.user)
    return client


@pytest.fixture
def sam(db):
    return make_member("M0002", "Sam Bidule")


def out_game(staff_user, sam, title="Catane", barcode="C1"):
    """A game whose only copy is at Sam's."""
    game = make_game(title)
    services.loan_create(copy=make_copy(game, barcode), member=sam, staff=staff_user)
    return game


def reserve(client, game):
    return client.post(reverse("loans:account-hold-create", args=[game.pk]), follow=True)


def messages_of(response) -> str:
    return " ".join(str(message) for message in response.context["messages"]).replace("\u202f", " ")


def test_a_family_reserves_a_game_whose_copies_are_all_out(family, alex, sam, staff_user):
    game = out_game(staff_user, sam)
    html = family.get(game.get_absolute_url()).content.decode()
    assert "Réserver" in html and reverse("loans:account-hold-create", args=[game.pk]) in html
    response = reserve(family, game)
    assert response.redirect_chain[-1][0] == reverse("loans:account")
    assert "« Catane » réservé : vous êtes à la place 1 dans la file." in messages_of(response)
    hold = Hold.objects.get(member=alex)
    assert hold.status == Hold.Status.WAITING and hold.created_by == alex.user
    assert "place 1 dans la file" in response.content.decode()


def test_the_queue_position_counts_the_families_before(family, alex, sam, staff_user):
    game = out_game(staff_user, sam)
    services.hold_create(game=game, member=make_member("M0003", "Noa Truc"), staff=staff_user)
    response = reserve(family, game)
    assert "place 2 dans la file" in messages_of(response)
    assert "place 2 dans la file" in family.get(reverse("loans:account")).content.decode()


def test_a_game_on_the_shelf_says_come_and_borrow_it(family, alex):
    game = make_game("Quarto")
    make_copy(game, "Q1")
    html = family.get(game.get_absolute_url()).content.decode()
    assert "En rayon à Maison des Enfants : venez l'emprunter." in html
    assert reverse("loans:account-hold-create", args=[game.pk]) not in html
    response = reserve(family, game)
    assert "est en rayon à Maison des Enfants : venez l'emprunter" in messages_of(response)
    assert response.redirect_chain[-1][0] == game.get_absolute_url()
    assert not Hold.objects.exists()


def test_a_game_without_a_lendable_copy_cannot_be_reserved(family):
    game = make_game("Luxor")
    make_copy(game, "L1", status=Copy.Status.WITHDRAWN)
    assert "Réserver" not in family.get(game.get_absolute_url()).content.decode()
    assert "n'a aucun exemplaire prêtable" in messages_of(reserve(family, game))
    assert not Hold.objects.exists()


def test_an_expired_membership_cannot_reserve(family, alex, sam, staff_user):
    game = out_game(staff_user, sam)
    today = timezone.localdate()
    Member.objects.filter(pk=alex.pk).update(
        membership_start=today - datetime.timedelta(days=400),
        membership_expiry=today - datetime.timedelta(days=1),
    )
    assert "a expiré le" in messages_of(reserve(family, game))
    assert not Hold.objects.filter(member=alex).exists()


def test_a_game_reserved_twice_is_refused(family, alex, sam, staff_user):
    game = out_game(staff_user, sam)
    reserve(family, game)
    assert "a déjà une réservation en cours pour « Catane »" in messages_of(reserve(family, game))
    assert Hold.objects.filter(member=alex).count() == 1


def test_a_game_the_family_has_at_home_cannot_be_reserved(family, alex, staff_user):
    game = make_game("Biblios")
    services.loan_create(copy=make_copy(game, "B1"), member=alex, staff=staff_user)
    make_copy(game, "B2", status=Copy.Status.IN_REPAIR)
    assert "Ce jeu est chez vous en ce moment." in family.get(game.get_absolute_url()).content.decode()
    assert "a déjà « Biblios » en prêt" in messages_of(reserve(family, game))


def test_a_family_reserves_no_more_games_than_it_may_borrow(family, alex, sam, staff_user):
    alex.membership_type.loan_quota = 1
    alex.membership_type.save()
    reserve(family, out_game(staff_user, sam, "Catane", "C1"))
    response = reserve(family, out_game(staff_user, sam, "Quarto", "Q1"))
    assert "Vous avez déjà 1 réservation en cours : c'est le maximum de votre adhésion." in messages_of(
        response
    )
    assert Hold.objects.filter(member=alex).count() == 1


def test_reserving_is_for_a_logged_in_family_by_post(client, outsider, sam, staff_user):
    game = out_game(staff_user, sam)
    url = reverse("loans:account-hold-create", args=[game.pk])
    assert client.post(url).status_code == 302  # to the login page
    assert "Réserver" not in client.get(game.get_absolute_url()).content.decode()
    client.force_login(outsider)
    assert client.post(url).status_code == 404
    client.force_login(staff_user)
    assert "Réserver</button>" not in client.get(game.get_absolute_url()).content.decode()
    assert not Hold.objects.exists()


def test_reserving_a_game_that_does_not_exist_is_a_404(family):
    assert family.post(reverse("loans:account-hold-create", args=[999999])).status_code == 404
    assert family.get(reverse("loans:account-hold-create", args=[999999])).status_code == 405


def test_a_family_cancels_its_hold(family, alex, sam, staff_user):
    game = out_game(staff_user, sam)
    reserve(family, game)
    hold = Hold.objects.get(member=alex)
    response = family.post(reverse("loans:account-hold-cancel", args=[hold.pk]), follow=True)
    assert "Réservation de « Catane » annulée." in messages_of(response)
    hold.refresh_from_db()
    assert hold.status == Hold.Status.CANCELLED
    again = family.post(reverse("loans:account-hold-cancel", args=[hold.pk]), follow=True)
    assert "est déjà close" in messages_of(again)


def test_a_family_cannot_cancel_another_familys_hold(family, sam, staff_user):
    game = make_game("Quarto")
    make_copy(game, "Q1")
    hold = services.hold_create(game=game, member=sam, staff=staff_user)
    assert family.post(reverse("loans:account-hold-cancel", args=[hold.pk])).status_code == 404
    assert Hold.objects.get(pk=hold.pk).status == Hold.Status.READY


def test_a_family_renews_its_loan(family, alex, staff_user):
    loan = services.loan_create(copy=make_copy(make_game("Biblios"), "B1"), member=alex, staff=staff_user)
    html = family.get(reverse("loans:account")).content.decode()
    assert reverse("loans:account-loan-renew", args=[loan.pk]) in html
    response = family.post(reverse("loans:account-loan-renew", args=[loan.pk]), follow=True)
    assert "« Biblios » prolongé : à rendre le" in messages_of(response)
    renewed = Loan.objects.get(pk=loan.pk)
    assert renewed.renewals == 1 and renewed.due_on > loan.due_on
    # One renewal allowed: the button is gone, and a second try says why.
    assert reverse("loans:account-loan-renew", args=[loan.pk]) not in response.content.decode()
    again = family.post(reverse("loans:account-loan-renew", args=[loan.pk]), follow=True)
    assert "a déjà été prolongé 1 fois" in messages_of(again)


def test_a_loan_another_family_waits_for_cannot_be_renewed(family, alex, sam, staff_user):
    game = make_game("Biblios")
    loan = services.loan_create(copy=make_copy(game, "B1"), member=alex, staff=staff_user)
    services.hold_create(game=game, member=sam, staff=staff_user)
    assert (
        reverse("loans:account-loan-renew", args=[loan.pk])
        not in family.get(reverse("loans:account")).content.decode()
    )
    response = family.post(reverse("loans:account-loan-renew", args=[loan.pk]), follow=True)
    assert "est réservé par une autre famille" in messages_of(response)
    assert Loan.objects.get(pk=loan.pk).renewals == 0


def test_an_expired_membership_cannot_renew(family, alex, staff_user):
    loan = services.loan_create(copy=make_copy(make_game("Biblios"), "B1"), member=alex, staff=staff_user)
    today = timezone.localdate()
    Member.objects.filter(pk=alex.pk).update(
        membership_start=today - datetime.timedelta(days=400),
        membership_expiry=today - datetime.timedelta(days=1),
    )
    response = family.post(reverse("loans:account-loan-renew", args=[loan.pk]), follow=True)
    assert "a expiré le" in messages_of(response)
    assert Loan.objects.get(pk=loan.pk).renewals == 0


def test_a_family_cannot_renew_another_familys_loan(family, sam, staff_user):
    loan = services.loan_create(copy=make_copy(make_game("Biblios"), "B1"), member=sam, staff=staff_user)
    assert family.post(reverse("loans:account-loan-renew", args=[loan.pk])).status_code == 404
    assert family.get(reverse("loans:account-loan-renew", args=[loan.pk])).status_code == 405


def test_a_family_chooses_the_language_of_its_notices(family, alex):
    response = family.post(reverse("loans:account-language"), {"language": "en"})
    assert response.status_code == 302
    alex.refresh_from_db()
    assert alex.language == "en"
    assert family.post(reverse("loans:account-language"), {"language": "xx"}).status_code == 400


def test_suggestions_fit_the_household_are_on_the_shelf_and_new_to_the_family(family, alex, sam, staff_user):
    HouseholdMember.objects.create(member=alex, first_name="Zoé", birth_year=timezone.localdate().year - 7)

    def game(title, barcode, age_min, **more):
        made = make_game(title)
        made.age_min, made.players_min, made.players_max = age_min, 2, 4
        for name, value in more.items():
            setattr(made, name, value)
        made.save()
        make_copy(made, barcode)
        return made

    game("Dobble", "D1", 6)
    game("Agricola", "A1", 12)  # too old for Zoé
    out = game("Kingdomino", "K1", 5)
    services.loan_create(copy=out.copies.get(), member=sam, staff=staff_user)  # not on the shelf
    known = game("Quarto", "Q1", 6)
    services.loan_return(
        loan=services.loan_create(copy=known.copies.get(), member=alex, staff=staff_user), staff=staff_user
    )

    html = family.get(reverse("loans:account")).content.decode()
    section = html.split("À essayer en famille", 1)[1].split("</ul>", 1)[0]
    assert "Dobble" in section
    assert "Agricola" not in section and "Kingdomino" not in section and "Quarto" not in section
