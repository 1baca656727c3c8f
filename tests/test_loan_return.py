"""Taking a copy back: the pieces check, incomplete copies, pieces brought back, holds served."""

import pytest
from django.core.exceptions import ValidationError

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan, MissingPiece
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def quarto():
    return make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])


@pytest.fixture
def lent(staff_user, quarto):
    """Quarto 90468, lent to the Tartempion family."""
    copy = make_copy(quarto, "90468")
    return services.loan_create(copy=copy, member=make_member("M1", "Alex Tartempion"), staff=staff_user)


def pieces(game):
    return {component.label: component for component in game.components.all()}


def test_a_complete_return_closes_the_loan_and_puts_the_copy_back_on_the_shelf(staff_user, lent):
    result = services.loan_return(loan=lent, staff=staff_user, missing=[])

    lent.refresh_from_db()
    assert lent.returned_at is not None and lent.returned_by == staff_user
    assert lent.return_check == Loan.ReturnCheck.COMPLETE
    assert result.hold is None and result.missing == []
    assert list(Copy.objects.available()) == [lent.copy]


def test_missing_pieces_make_the_copy_incomplete(staff_user, lent, quarto):
    result = services.loan_return(loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 2)])

    lent.refresh_from_db()
    copy = Copy.objects.get(pk=lent.copy_id)
    assert lent.return_check == Loan.ReturnCheck.INCOMPLETE
    assert copy.status == Copy.Status.INCOMPLETE
    assert [(piece.component.label, piece.quantity) for piece in result.missing] == [("pièces", 2)]
    assert MissingPiece.objects.still_missing().get().loan == lent
    assert not Copy.objects.available().exists()


def test_the_librarian_may_keep_an_incomplete_copy_on_the_shelf(staff_user, lent, quarto):
    services.loan_return(
        loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 1)], playable_anyway=True
    )

    lent.refresh_from_db()
    assert lent.return_check == Loan.ReturnCheck.PLAYABLE
    assert Copy.objects.get(pk=lent.copy_id).status == Copy.Status.ON_SHELF
    assert MissingPiece.objects.still_missing().count() == 1
    assert Copy.objects.available().get() == lent.copy


def test_it_refuses_more_missing_pieces_than_the_box_holds(staff_user, lent, quarto):
    with pytest.raises(ValidationError) as excinfo:
        services.loan_return(loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 17)])
    error = excinfo.value.error_dict["missing"][0]
    assert error.code == "too_many_missing"
    assert "plus de 16" in error.messages[0]
    lent.refresh_from_db()
    assert lent.is_open and not MissingPiece.objects.exists()


def test_it_refuses_a_piece_of_another_game(staff_user, lent):
    other = make_game("Biblios", pieces=[(5, "dés à six faces")])
    with pytest.raises(ValidationError) as excinfo:
        services.loan_return(loan=lent, staff=staff_user, missing=[(other.components.get(), 1)])
    assert excinfo.value.error_dict["missing"][0].code == "wrong_component"
    lent.refresh_from_db()
    assert lent.is_open


def test_it_refuses_to_return_a_loan_twice(staff_user, lent):
    services.loan_return(loan=lent, staff=staff_user)
    with pytest.raises(ValidationError) as excinfo:
        services.loan_return(loan=lent, staff=staff_user)
    assert excinfo.value.code == "not_on_loan"
    assert "déjà clôturé" in excinfo.value.messages[0]


def test_a_piece_brought_back_later_makes_the_copy_complete_again(staff_user, lent, quarto):
    services.loan_return(loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 1)])
    piece = MissingPiece.objects.get()

    services.missing_piece_recover(missing_piece=piece, staff=staff_user)

    piece.refresh_from_db()
    assert piece.recovered_at is not None and piece.recovered_by == staff_user
    assert Copy.objects.get(pk=lent.copy_id).status == Copy.Status.ON_SHELF
    with pytest.raises(ValidationError) as excinfo:
        services.missing_piece_recover(missing_piece=piece, staff=staff_user)
    assert excinfo.value.code == "already_recovered"


def test_the_copy_stays_incomplete_while_another_piece_is_missing(staff_user, lent, quarto):
    services.loan_return(
        loan=lent,
        staff=staff_user,
        missing=[(pieces(quarto)["pièces"], 1), (pieces(quarto)["plateau de 16 cases"], 1)],
    )
    first, _second = MissingPiece.objects.order_by("pk")
    services.missing_piece_recover(missing_piece=first, staff=staff_user)
    assert Copy.objects.get(pk=lent.copy_id).status == Copy.Status.INCOMPLETE


def test_a_later_return_with_the_piece_in_the_box_clears_it(staff_user, lent, quarto):
    services.loan_return(
        loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 1)], playable_anyway=True
    )
    again = services.loan_create(copy=lent.copy, member=make_member("M2"), staff=staff_user)
    known = MissingPiece.objects.still_missing().get()

    services.loan_return(loan=again, staff=staff_user, recovered=[known])

    again.refresh_from_db()
    assert again.return_check == Loan.ReturnCheck.COMPLETE
    assert not MissingPiece.objects.still_missing().exists()


def test_a_piece_already_missing_is_not_expected_again(staff_user, lent, quarto):
    services.loan_return(
        loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 3)], playable_anyway=True
    )
    again = services.loan_create(copy=lent.copy, member=make_member("M2"), staff=staff_user)
    with pytest.raises(ValidationError) as excinfo:
        services.loan_return(loan=again, staff=staff_user, missing=[(pieces(quarto)["pièces"], 14)])
    assert "plus de 13" in excinfo.value.error_dict["missing"][0].messages[0]


def test_a_returned_copy_is_set_aside_for_the_first_family_waiting(staff_user, lent, quarto):
    first = make_member("M2", "Sam Bidule")
    second = make_member("M3", "Charlie Machin")
    first_hold = services.hold_create(game=quarto, member=first, staff=staff_user)
    second_hold = services.hold_create(game=quarto, member=second, staff=staff_user)

    result = services.loan_return(loan=lent, staff=staff_user)

    assert result.hold == first_hold
    first_hold.refresh_from_db()
    second_hold.refresh_from_db()
    assert first_hold.status == Hold.Status.READY and first_hold.copy == lent.copy
    assert first_hold.ready_until is not None
    assert second_hold.status == Hold.Status.WAITING
    assert not Copy.objects.available().exists()


def test_an_incomplete_copy_is_not_set_aside_for_a_hold(staff_user, lent, quarto):
    hold = services.hold_create(game=quarto, member=make_member("M2"), staff=staff_user)
    result = services.loan_return(loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 1)])
    assert result.hold is None
    hold.refresh_from_db()
    assert hold.status == Hold.Status.WAITING


def test_a_copy_complete_again_is_set_aside_for_the_family_waiting(staff_user, lent, quarto):
    # The family reserves while the copy is out (an incomplete copy cannot be reserved: no_lendable_copy).
    hold = services.hold_create(game=quarto, member=make_member("M2"), staff=staff_user)
    services.loan_return(loan=lent, staff=staff_user, missing=[(pieces(quarto)["pièces"], 1)])
    hold.refresh_from_db()
    assert hold.status == Hold.Status.WAITING

    ready = services.missing_piece_recover(missing_piece=MissingPiece.objects.get(), staff=staff_user)

    assert ready == hold
    hold.refresh_from_db()
    assert hold.status == Hold.Status.READY and hold.copy == lent.copy
