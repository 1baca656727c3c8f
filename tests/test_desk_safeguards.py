"""The desk's safeguards (issue 14): a late game named at lending (or the loan refused), a card scanned
in the lend box, holds on a title without copies or with one on the shelf, an expired membership, and
a return in one action that still names the family waiting for the game."""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan
from members.models import MembershipType
from tests.conftest import text_of
from tests.loan_helpers import (
    make_copy,
    make_desk_world,
    make_family_user,
    make_game,
    make_member,
    make_membership_type,
)

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


def return_url(loan) -> str:
    return reverse("loans:loan-return", args=[loan.pk])


# A late game at lending: warn (the default) or refuse.


def test_the_family_page_names_the_late_game_before_lending(desk, world):
    page = text_of(desk.get(family_url(world["tartempion"])))
    assert (
        "En retard : « Quarto » (90468, 4 jours de retard). Demandez-le à la famille avant de prêter." in page
    )


def test_lending_to_a_family_with_a_late_game_warns_naming_it(desk, world):
    copy = make_copy(world["biblios"], "90902")
    response = desk.post(family_url(world["tartempion"]), {"barcode": "90902"}, follow=True)
    page = text_of(response)
    assert "« Biblios » (90902) prêté" in page
    assert "Attention : Alex Tartempion a un jeu en retard, « Quarto » (90468, 4 jours de retard)." in page
    assert Loan.objects.open().filter(copy=copy).exists()


def test_a_family_without_late_games_gets_no_warning(desk, world):
    make_copy(world["catane"], "90462")
    page = text_of(desk.post(family_url(world["bidule"]), {"barcode": "90462"}, follow=True))
    assert "prêté" in page and "en retard" not in page


def test_a_membership_type_can_refuse_lending_while_a_game_is_late(desk, world, staff_user):
    strict = make_membership_type(late_loans=MembershipType.LateLoans.REFUSE)
    family = make_member("M0009", "Camille Strict", membership_type=strict)
    late = services.loan_create(copy=make_copy(world["catane"], "90463"), member=family, staff=staff_user)
    Loan.objects.filter(pk=late.pk).update(due_on=timezone.localdate() - datetime.timedelta(days=9))
    other = make_copy(world["biblios"], "90903")

    with pytest.raises(ValidationError) as excinfo:
        services.loan_create(copy=other, member=family, staff=staff_user)
    error = excinfo.value.error_dict["member"][0]
    assert error.code == "late_loans"
    assert "« Les colons de Catane » (90463, 9 jours de retard)" in error.messages[0]

    page = text_of(desk.get(family_url(family)))
    assert "Pas de nouveau prêt tant que ce jeu n'est pas rendu." in page
    response = desk.post(family_url(family), {"barcode": "90903"})
    assert response.status_code == 400
    assert "Camille Strict n'a pas rendu « Les colons de Catane » (90463, 9 jours de retard)" in text_of(
        response
    )
    api = desk.post("/api/loans/", {"barcode": "90903", "member": family.pk}, content_type="application/json")
    assert api.status_code == 400 and "n'a pas rendu « Les colons de Catane »" in api.json()["member"][0]
    assert not Loan.objects.open().filter(copy=other).exists()

    services.loan_return(loan=late, staff=staff_user)  # the late game comes back: lending is open again
    assert services.loan_create(copy=other, member=family, staff=staff_user).is_open


def test_warning_is_the_default_policy():
    assert MembershipType().late_loans == MembershipType.LateLoans.WARN


# Scans in the wrong box.


def test_a_card_scanned_in_the_lend_box_opens_that_familys_page(desk, world):
    response = desk.post(family_url(world["tartempion"]), {"barcode": " m0002 "})
    assert response.status_code == 302 and response["Location"] == family_url(world["bidule"])
    page = text_of(desk.get(response["Location"]))
    assert "Carte M0002 : fiche de Sam Bidule." in page
    assert not Loan.objects.filter(member=world["bidule"], copy__barcode="M0002").exists()


def test_a_card_scanned_in_the_return_box_opens_that_familys_page(desk, world):
    response = desk.get(reverse("loans:return-scan"), {"barcode": "M0002"})
    assert response.status_code == 302 and response["Location"] == family_url(world["bidule"])


def test_a_code_that_is_neither_a_copy_nor_a_card_still_answers_400(desk, world):
    response = desk.post(family_url(world["tartempion"]), {"barcode": "M9999"})
    assert response.status_code == 400
    assert "Aucun exemplaire ne porte le code-barres « M9999 »" in text_of(response)
    for code in ("M0002\x00", "\x00"):
        assert desk.post(family_url(world["tartempion"]), {"barcode": code}).status_code == 400
        assert desk.get(reverse("loans:return-scan"), {"barcode": code}).status_code == 400


def test_a_copy_scanned_in_the_card_box_opens_its_return_or_says_where_it_stands(desk, world):
    response = desk.get(reverse("loans:desk"), {"code": "90468"})
    assert response["Location"] == return_url(world["late"])
    page = text_of(desk.get(reverse("loans:desk"), {"code": "90408"}))
    assert "« Quarto » (90408, Jeu) n'est pas en prêt" in page and "mis de côté pour Sam Bidule" in page


# Holds at the desk.


def test_a_hold_on_a_title_without_any_copy_is_refused_at_the_desk(desk, world):
    alhambra = make_game("Alhambra")
    response = desk.post(reverse("loans:hold-create", args=[world["bidule"].pk]), {"game": alhambra.pk})
    assert response.status_code == 400
    assert "« Alhambra » n'a aucun exemplaire prêtable : il ne peut pas être réservé." in text_of(response)
    assert not Hold.objects.filter(game=alhambra).exists()


def test_a_hold_on_a_title_on_the_shelf_offers_to_lend_it_now(desk, world):
    luxor = make_game("Luxor")
    make_copy(luxor, "55555")
    response = desk.post(reverse("loans:hold-create", args=[world["bidule"].pk]), {"game": luxor.pk})
    assert response.status_code == 200
    page = text_of(response)
    assert "« Luxor » est en rayon (exemplaire 55555, cote TEU) : pas besoin de le réserver" in page
    assert "Le prêter maintenant (55555)" in page
    assert not Hold.objects.filter(game=luxor).exists()

    # The offer's button posts the copy to the lend box.
    desk.post(family_url(world["bidule"]), {"barcode": "55555"})
    assert Loan.objects.open().get(copy__barcode="55555").member == world["bidule"]


def test_the_shelf_offer_can_still_set_the_copy_aside(desk, world):
    luxor = make_game("Luxor")
    copy = make_copy(luxor, "55555")
    response = desk.post(
        reverse("loans:hold-create", args=[world["bidule"].pk]), {"game": luxor.pk, "set_aside": "on"}
    )
    assert response.status_code == 302
    hold = Hold.objects.get(game=luxor)
    assert hold.status == Hold.Status.READY and hold.copy == copy


def test_a_title_whose_copies_are_all_out_is_reserved_without_an_offer(desk, world):
    response = desk.post(
        reverse("loans:hold-create", args=[world["bidule"].pk]), {"game": world["catane"].pk}
    )
    assert response.status_code == 302
    assert Hold.objects.get(game=world["catane"]).status == Hold.Status.WAITING


# An expired membership.


def test_an_expired_membership_is_said_plainly_with_its_renewal_and_no_quota(desk, world):
    today = timezone.localdate()
    member = make_member(
        "M0004",
        "Dominique Chose",
        start=today - datetime.timedelta(days=430),
        expiry=today - datetime.timedelta(days=65),
    )
    response = desk.get(family_url(member))
    page = text_of(response)
    expired_on = (today - datetime.timedelta(days=65)).strftime("%d/%m/%Y")
    assert f"adhésion expirée le {expired_on}" in page
    assert "Adhésion expirée : aucun prêt possible tant qu'elle n'est pas renouvelée." in page
    assert "prêts possibles" not in page and "prêt possible sur" not in page
    new_end = (today + datetime.timedelta(days=364)).strftime("%d/%m/%Y")
    assert f"l'adhésion « {member.membership_type.name} » irait jusqu'au {new_end}, pour 0,00 €." in page
    assert reverse("ledger:membership-renew", args=[member.pk]) in response.content.decode()


def test_a_familys_own_page_counts_no_loans_left_once_its_membership_expired(client):
    today = timezone.localdate()
    user = make_family_user()
    make_member(
        "M0004",
        start=today - datetime.timedelta(days=430),
        expiry=today - datetime.timedelta(days=65),
        user=user,
    )
    client.force_login(user)
    page = text_of(client.get(reverse("loans:account")))
    assert "renouvelez-la au comptoir" in page and "Vous pouvez encore emprunter" not in page


def test_a_valid_membership_shows_the_quota_left(desk, world):
    page = text_of(desk.get(family_url(world["bidule"])))
    assert "Encore 3 prêts possibles sur 3." in page and "expirée" not in page


# Returns in one action.


def seven_wonders():
    """A box of 13 kinds of pieces, as the catalogue lists 7 Wonders."""
    return make_game("7 Wonders", pieces=[(count, f"pièce {count}") for count in range(1, 14)])


def test_a_checklist_sent_with_every_count_at_zero_is_a_complete_return(desk, world, staff_user):
    game = seven_wonders()
    loan = services.loan_create(copy=make_copy(game, "77001"), member=world["bidule"], staff=staff_user)
    data = {f"missing_{component.pk}": "0" for component in game.components.all()}
    response = desk.post(return_url(loan), data)
    assert response.status_code == 302
    loan.refresh_from_db()
    assert loan.return_check == Loan.ReturnCheck.COMPLETE


def test_tout_est_complet_returns_the_copy_complete_whatever_was_typed(desk, world, staff_user):
    game = seven_wonders()
    loan = services.loan_create(copy=make_copy(game, "77001"), member=world["bidule"], staff=staff_user)
    first = game.components.first()
    response = desk.post(return_url(loan), {"all_complete": "1", f"missing_{first.pk}": "999"})
    assert response.status_code == 302
    loan.refresh_from_db()
    assert loan.return_check == Loan.ReturnCheck.COMPLETE
    assert Copy.objects.get(barcode="77001").status == Copy.Status.ON_SHELF
    assert not loan.missing_pieces.exists()


def test_the_return_page_names_the_family_waiting_for_the_game(desk, world, staff_user):
    services.hold_create(
        game=world["catane"], member=make_member("M0007", "Charlie Machin"), staff=staff_user
    )
    page = text_of(desk.get(return_url(world["current"])))
    assert "Une famille attend ce jeu : Charlie Machin (carte M0007)" in page


def test_an_incomplete_return_still_names_the_waiting_family(desk, world, staff_user):
    hold = services.hold_create(
        game=world["catane"], member=make_member("M0007", "Charlie Machin"), staff=staff_user
    )
    _, cards = world["catane"].components.all()
    response = desk.post(return_url(world["current"]), {f"missing_{cards.pk}": "3"}, follow=True)
    page = text_of(response)
    assert (
        "Charlie Machin (carte M0007) attend « Les colons de Catane » : cet exemplaire n'est pas mis de côté"
        in page
    )
    hold.refresh_from_db()
    assert hold.status == Hold.Status.WAITING


def test_the_service_reports_the_waiting_family_when_the_copy_cannot_be_set_aside(world, staff_user):
    hold = services.hold_create(game=world["catane"], member=make_member("M0007"), staff=staff_user)
    _, cards = world["catane"].components.all()
    result = services.loan_return(loan=world["current"], staff=staff_user, missing=[(cards, 1)])
    assert result.hold is None and result.waiting == hold
