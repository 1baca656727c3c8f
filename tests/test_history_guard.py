"""History is guarded by PostgreSQL itself: no path deletes a loan, a hold, a missing piece or a
revision, nor rewrites a revision's text (ludotheque/history.py); everything else still works."""

import pytest
from django.contrib.auth import get_user_model
from django.db import IntegrityError, connection, transaction
from django.utils import timezone

from loans import services
from loans.models import Hold, Loan, MissingPiece
from rules.models import LOADER_AUTHOR, Revision, RulePage
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def loan(staff_user) -> Loan:
    game = make_game("Quarto", pieces=[(16, "pièces")])
    return services.loan_create(copy=make_copy(game, "90468"), member=make_member("M1"), staff=staff_user)


@pytest.fixture
def revision(staff_user) -> Revision:
    page = RulePage.objects.create(slug="quarto", title="Quarto")
    return Revision.objects.create(
        page=page, number=1, author=staff_user, author_name="Anne", content="== But du jeu ==\nAligner.\n"
    )


def refused(statement: str, params=()) -> str:
    """Run SQL as any script could; return PostgreSQL's refusal."""
    with pytest.raises(IntegrityError) as error, transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement, params)
    return str(error.value)


def test_the_database_refuses_to_delete_a_loan(loan):
    assert "DELETE on loans_loan refused" in refused("DELETE FROM loans_loan WHERE id = %s", [loan.pk])
    with pytest.raises(IntegrityError), transaction.atomic():
        Loan.objects.filter(pk=loan.pk).delete()
    assert Loan.objects.filter(pk=loan.pk).exists()


def test_a_loan_can_still_be_returned_renewed_and_updated(loan, staff_user):
    services.loan_renew(loan=loan)
    services.loan_return(loan=Loan.objects.get(pk=loan.pk), staff=staff_user, missing=[], recovered=[])
    # What anonymising old loans will do: an UPDATE of the loan row.
    Loan.objects.filter(pk=loan.pk).update(due_on=timezone.localdate())
    assert Loan.objects.get(pk=loan.pk).returned_at is not None


def test_the_database_refuses_to_delete_a_hold(loan, staff_user):
    hold = services.hold_create(game=loan.copy.game, member=make_member("M2", "Bidule"), staff=staff_user)
    assert "DELETE on loans_hold refused" in refused("DELETE FROM loans_hold")
    services.hold_cancel(hold=hold)  # an UPDATE: allowed
    assert Hold.objects.get(pk=hold.pk).status == Hold.Status.CANCELLED


def test_the_database_refuses_to_delete_a_missing_piece(loan, staff_user):
    pieces = loan.copy.game.components.get()
    services.loan_return(loan=loan, staff=staff_user, missing=[(pieces, 2)], recovered=[])
    assert MissingPiece.objects.count() == 1
    assert "DELETE on loans_missingpiece refused" in refused("DELETE FROM loans_missingpiece")


def test_the_database_refuses_to_delete_a_revision_or_change_its_text(revision):
    assert "DELETE on rules_revision refused" in refused("DELETE FROM rules_revision")
    message = refused("UPDATE rules_revision SET content = 'effacé' WHERE id = %s", [revision.pk])
    assert "UPDATE on rules_revision refused: content, page_id, number" in message
    refused("UPDATE rules_revision SET number = 2 WHERE id = %s", [revision.pk])
    assert Revision.objects.get(pk=revision.pk).content == "== But du jeu ==\nAligner.\n"


def test_a_revision_can_be_saved_unchanged_rendered_again_and_lose_its_author_account(revision, staff_user):
    revision.save()  # every column written, the text unchanged: allowed
    Revision.objects.filter(pk=revision.pk).update(sections=[])
    get_user_model().objects.filter(pk=staff_user.pk).delete()  # the author link is set to null
    revision.refresh_from_db()
    assert revision.author is None and revision.author_name == "Anne" and revision.sections == []


@pytest.mark.django_db(transaction=True)
def test_the_test_runners_flush_still_empties_history_tables(loan):
    # A transactional test ends with TRUNCATE, which row triggers do not see; this one proves it
    # runs (the next test starts empty) and that new rows can be written meanwhile.
    Revision.objects.create(
        page=RulePage.objects.create(slug="k2", title="K2"), number=1, author_name=LOADER_AUTHOR, content="x"
    )
    assert Loan.objects.count() == 1 and Revision.objects.count() == 1


@pytest.mark.django_db(transaction=True)
def test_the_flush_left_nothing_behind():
    assert not Loan.objects.exists() and not Revision.objects.exists()
