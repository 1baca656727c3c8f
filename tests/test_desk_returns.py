"""Returns at the desk: scan the copy, give what is missing (0 counts as all there); waiting holds."""

import pytest
from django.urls import reverse

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan, MissingPiece
from tests.loan_helpers import make_desk_world, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(staff_user):
    return make_desk_world(staff_user)


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def return_url(loan) -> str:
    return reverse("loans:loan-return", args=[loan.pk])


def all_ticked(game) -> dict:
    """The checklist sent as it comes: every count at 0, which is a complete box."""
    return {f"missing_{component.pk}": "0" for component in game.components.all()}


def test_the_return_page_scans_a_copy_into_its_checklist(desk, world):
    html = desk.get(reverse("loans:return-scan")).content.decode()
    assert 'name="barcode"' in html and "autofocus" in html
    response = desk.get(reverse("loans:return-scan"), {"barcode": "90461"})
    assert response["Location"] == return_url(world["current"])


def test_scanning_a_copy_that_is_not_out_answers_400(desk, world):
    response = desk.get(reverse("loans:return-scan"), {"barcode": "90408"})
    assert response.status_code == 400
    assert "n&#x27;est pas en prêt" in response.content.decode()
    response = desk.get(reverse("loans:return-scan"), {"barcode": "nope"})
    assert response.status_code == 400
    assert "Aucun exemplaire ne porte le code-barres « nope »" in response.content.decode()


def test_the_checklist_lists_every_piece_of_the_game(desk, world):
    html = desk.get(return_url(world["current"])).content.decode()
    assert "Retour de « Les colons de Catane » (90461)" in html
    assert "hexagones Terrains" in html and "cartes Matières Premières" in html
    assert "Prêté à Alex Tartempion" in html
    for component in world["catane"].components.all():
        assert f'name="missing_{component.pk}"' in html
    assert 'name="all_complete"' in html and 'accesskey="c"' in html and "Alt+C" in html


def test_a_late_return_says_how_late(desk, world):
    html = desk.get(return_url(world["late"])).content.decode()
    assert "En retard de 4 jours." in html


def test_a_complete_return_goes_back_to_the_scan_box(desk, world):
    response = desk.post(return_url(world["current"]), all_ticked(world["catane"]))
    assert response.status_code == 302 and response["Location"] == reverse("loans:return-scan")
    world["current"].refresh_from_db()
    assert world["current"].return_check == Loan.ReturnCheck.COMPLETE
    page = desk.get(response["Location"]).content.decode()
    assert "« Les colons de Catane » (90461) rendu par Alex Tartempion." in page
    assert 'name="barcode"' in page and "autofocus" in page


def test_a_line_left_at_zero_counts_as_all_there(desk, world):
    first, _ = world["catane"].components.all()
    response = desk.post(return_url(world["current"]), {f"missing_{first.pk}": "0"})
    assert response.status_code == 302
    world["current"].refresh_from_db()
    assert world["current"].return_check == Loan.ReturnCheck.COMPLETE


def test_a_return_with_a_missing_piece_makes_the_copy_incomplete(desk, world):
    _, second = world["catane"].components.all()
    data = {f"missing_{second.pk}": "3"}
    response = desk.post(return_url(world["current"]), data, follow=True)
    html = response.content.decode()
    assert "Il manque 3 × cartes Matières Premières : l&#x27;exemplaire est marqué incomplet" in html
    assert Copy.objects.get(barcode="90461").status == Copy.Status.INCOMPLETE
    assert MissingPiece.objects.still_missing().filter(copy__barcode="90461", quantity=3).exists()


def test_a_copy_marked_playable_anyway_stays_lendable(desk, world):
    _, second = world["catane"].components.all()
    data = {f"missing_{second.pk}": "1", "playable_anyway": "on"}
    html = desk.post(return_url(world["current"]), data, follow=True).content.decode()
    assert "l&#x27;exemplaire reste prêtable" in html
    assert Copy.objects.get(barcode="90461").status == Copy.Status.ON_SHELF


def test_more_missing_than_the_box_holds_answers_400(desk, world):
    _, second = world["catane"].components.all()
    response = desk.post(return_url(world["current"]), {f"missing_{second.pk}": "96"})
    assert response.status_code == 400
    world["current"].refresh_from_db()
    assert world["current"].is_open


def test_a_return_tells_the_clerk_to_set_the_copy_aside_for_a_waiting_family(desk, world, staff_user):
    waiting = make_member("M0007", "Charlie Machin")
    hold = services.hold_create(game=world["catane"], member=waiting, staff=staff_user)
    assert hold.status == Hold.Status.WAITING

    html = desk.post(return_url(world["current"]), all_ticked(world["catane"]), follow=True).content.decode()

    assert (
        "Réservation : mettez « Les colons de Catane » (90461) de côté pour Charlie Machin (carte M0007)"
        in html
    )
    hold.refresh_from_db()
    assert hold.status == Hold.Status.READY and hold.copy.barcode == "90461"


def test_pieces_already_missing_can_be_ticked_as_brought_back(desk, world, staff_user):
    # Biblios 90901 is incomplete (2 dice missing); lend it anyway as playable, then it comes back whole.
    piece = world["missing_piece"]
    Copy.objects.filter(pk=piece.copy_id).update(status=Copy.Status.ON_SHELF)
    loan = services.loan_create(copy=piece.copy, member=world["tartempion"], staff=staff_user)
    html = desk.get(return_url(loan)).content.decode()
    assert "il en manquait déjà 2 avant ce prêt" in html
    assert f'name="recovered_{piece.pk}"' in html

    dice = world["biblios"].components.get()
    desk.post(return_url(loan), {f"missing_{dice.pk}": "0", f"recovered_{piece.pk}": "on"})

    piece.refresh_from_db()
    loan.refresh_from_db()
    assert piece.recovered_at is not None
    assert loan.return_check == Loan.ReturnCheck.COMPLETE


def test_a_loan_already_returned_sends_back_to_the_scan_box(desk, world):
    response = desk.get(return_url(world["broken"]), follow=True)
    assert "a déjà été rendu le" in response.content.decode()
    assert desk.post(return_url(world["broken"]), {}).status_code == 302
