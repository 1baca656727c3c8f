"""The desk's front: scanning a card, the family's page, lending one barcode after another, renewing, holds."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from loans import services
from loans.models import Hold, Loan
from tests.loan_helpers import make_copy, make_desk_world, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(staff_user):
    return make_desk_world(staff_user)


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def family_url(member) -> str:
    return reverse("loans:member-detail", args=[member.pk])


def test_the_desk_opens_with_the_scan_box_focused(desk, world):
    html = desk.get(reverse("loans:desk")).content.decode()
    assert 'name="code"' in html and "autofocus" in html
    assert "Comptoir de prêt" in html


def test_the_desk_offers_every_librarian_to_register_a_family(desk, world, staff_user):
    assert not staff_user.user_permissions.exists()  # the admin lets every staff member add a family
    html = desk.get(reverse("loans:desk")).content.decode()
    assert f'href="{reverse("admin:members_member_add")}"' in html


def test_scanning_a_card_opens_the_familys_page(desk, world):
    response = desk.get(reverse("loans:desk"), {"code": " m0001 "})
    assert response.status_code == 302
    assert response["Location"] == family_url(world["tartempion"])


def test_scanning_a_copy_on_loan_opens_its_return_checklist(desk, world):
    response = desk.get(reverse("loans:desk"), {"code": "90461"})
    assert response["Location"] == reverse("loans:loan-return", args=[world["current"].pk])


def test_scanning_a_copy_on_the_shelf_says_where_it_stands(desk, world):
    html = desk.get(reverse("loans:desk"), {"code": "90408"}).content.decode()
    assert "n&#x27;est pas en prêt" in html or "n'est pas en prêt" in html
    assert "mis de côté pour Sam Bidule" in html


def test_typing_a_name_lists_the_matching_families(desk, world):
    html = desk.get(reverse("loans:desk"), {"code": "bidule"}).content.decode()
    assert "Sam Bidule" in html and family_url(world["bidule"]) in html
    assert "Alex Tartempion" not in html


def test_an_unknown_code_says_nothing_matches(desk, world):
    html = desk.get(reverse("loans:desk"), {"code": "ZZZ"}).content.decode()
    assert "Aucune famille ni aucun jeu ne correspond à « ZZZ »" in html


def test_the_family_page_shows_loans_late_ones_in_red_and_the_quota_left(desk, world):
    html = desk.get(family_url(world["tartempion"])).content.decode()
    assert "Alex Tartempion" in html and "M0001" in html
    assert "Les colons de Catane" in html and "Quarto" in html
    assert '<tr class="late">' in html
    assert "1 en retard" in html
    assert "Encore 1 prêt possible sur 3." in html
    assert world["late"].due_on.strftime("%d/%m/%Y") in html


def test_the_family_page_shows_the_hold_ready_for_them(desk, world):
    html = desk.get(family_url(world["bidule"])).content.decode()
    assert "Réservations prêtes pour cette famille" in html
    assert "exemplaire 90408 mis de côté" in html


def test_lending_by_barcode_comes_back_to_the_family_page_ready_for_the_next_scan(desk, world):
    member = world["bidule"]
    biblios_two = make_copy(world["biblios"], "90902")

    response = desk.post(family_url(member), {"barcode": " 90902 "})

    assert response.status_code == 302 and response["Location"] == family_url(member)
    loan = Loan.objects.open().get(copy=biblios_two)
    assert loan.member == member
    page = desk.get(response["Location"]).content.decode()
    assert "« Biblios » (90902) prêté, à rendre le" in page
    assert 'name="barcode" id="id_barcode" maxlength="40" autofocus' in page


def test_lending_the_copy_set_aside_hands_over_the_hold(desk, world):
    response = desk.post(family_url(world["bidule"]), {"barcode": "90408"})
    assert response.status_code == 302
    world["ready"].refresh_from_db()
    assert world["ready"].status == Hold.Status.FULFILLED


def test_a_refused_loan_answers_400_with_the_reason_and_an_empty_box(desk, world):
    response = desk.post(family_url(world["bidule"]), {"barcode": "90461"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "déjà en prêt chez Alex Tartempion" in html
    assert 'aria-invalid="true"' in html and 'value="90461"' not in html
    assert Loan.objects.open().filter(copy__barcode="90461").get().member == world["tartempion"]


def test_an_unknown_barcode_answers_400(desk, world):
    response = desk.post(family_url(world["bidule"]), {"barcode": "00000"})
    assert response.status_code == 400
    assert "Aucun exemplaire ne porte le code-barres « 00000 »" in response.content.decode()


def test_an_empty_scan_answers_400(desk, world):
    assert desk.post(family_url(world["bidule"]), {"barcode": ""}).status_code == 400


def test_the_desk_says_the_membership_has_expired(desk, world, staff_user):
    today = timezone.localdate()
    member = make_member(
        "M0004",
        "Dominique Chose",
        start=today - datetime.timedelta(days=430),
        expiry=today - datetime.timedelta(days=65),
    )
    page = desk.get(family_url(member)).content.decode()
    assert "adhésion expirée le" in page
    response = desk.post(family_url(member), {"barcode": "90901"})
    assert response.status_code == 400
    assert "L&#x27;adhésion de Dominique Chose a expiré" in response.content.decode()


def test_the_desk_refuses_a_family_over_its_quota(desk, world):
    member = make_member("M0005", "Charlie Machin", membership_type=make_membership_type(loan_quota=1))
    game = make_game("Marrakech")
    make_copy(game, "1")
    make_copy(game, "2")
    assert desk.post(family_url(member), {"barcode": "1"}).status_code == 302
    response = desk.post(family_url(member), {"barcode": "2"})
    assert response.status_code == 400
    assert "Charlie Machin a déjà 1 jeu en prêt : c&#x27;est le maximum" in response.content.decode()


def test_renewing_moves_the_due_date(desk, world):
    loan = world["current"]
    response = desk.post(reverse("loans:loan-renew", args=[loan.pk]))
    assert response.status_code == 302 and response["Location"] == family_url(loan.member)
    loan.refresh_from_db()
    assert loan.renewals == 1
    assert "prolongé : à rendre le" in desk.get(response["Location"]).content.decode()


def test_a_refused_renewal_answers_400_with_the_reason(desk, world, staff_user):
    services.hold_create(game=world["catane"], member=world["bidule"], staff=staff_user)
    response = desk.post(reverse("loans:loan-renew", args=[world["current"].pk]))
    assert response.status_code == 400
    assert "réservé par une autre famille" in response.content.decode()
    world["current"].refresh_from_db()
    assert world["current"].renewals == 0


def test_reserving_a_game_puts_the_family_in_the_queue(desk, world):
    response = desk.post(
        reverse("loans:hold-create", args=[world["bidule"].pk]), {"game": world["catane"].pk}
    )
    assert response.status_code == 302
    hold = Hold.objects.get(member=world["bidule"], game=world["catane"])
    assert hold.status == Hold.Status.WAITING
    assert "place 1 dans la file" in desk.get(response["Location"]).content.decode()


def test_reserving_a_game_on_the_shelf_tells_the_clerk_to_set_it_aside(desk, world):
    game = make_game("Alhambra")
    make_copy(game, "77777")
    response = desk.post(
        reverse("loans:hold-create", args=[world["bidule"].pk]),
        {"game": game.pk, "set_aside": "on"},
        follow=True,
    )
    assert "mettez « Alhambra » (77777) de côté pour Sam Bidule" in response.content.decode()


def test_a_refused_hold_answers_400(desk, world):
    response = desk.post(
        reverse("loans:hold-create", args=[world["tartempion"].pk]), {"game": world["catane"].pk}
    )
    assert response.status_code == 400
    assert "a déjà « Les colons de Catane » en prêt" in response.content.decode()
    assert (
        desk.post(reverse("loans:hold-create", args=[world["tartempion"].pk]), {"game": ""}).status_code
        == 400
    )


def test_the_family_page_costs_the_same_queries_with_more_loans(desk, world, staff_user):
    url = family_url(world["tartempion"])
    desk.get(url)
    with CaptureQueriesContext(connection) as few:
        desk.get(url)
    world["tartempion"].membership_type.loan_quota = 10
    world["tartempion"].membership_type.save()
    for barcode in ["a1", "a2", "a3", "a4"]:
        desk.post(url, {"barcode": make_copy(make_game(f"Jeu {barcode}"), barcode).barcode})
    with CaptureQueriesContext(connection) as many:
        response = desk.get(url)
    assert response.content.decode().count("<tr") >= 7
    # 13 with the kinds of item, whose loan rules the « Prêter » section lists (loans/loan_rules.py);
    # 14 with the sites a hold can be collected at (the hold form's « À retirer à »).
    assert len(many) == len(few) <= 14


def test_the_desk_speaks_english_when_the_browser_asks(desk, world):
    html = desk.get(family_url(world["tartempion"]), HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert "Games at home" in html and "1 more loan possible out of 3." in html
    response = desk.post(family_url(world["bidule"]), {"barcode": "90461"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "is already on loan to Alex Tartempion" in response.content.decode()
