"""Kits (« malles ») lent to groups: what the desk says of a kit before lending it (each copy missing
or incomplete), lending it as one (every copy's loan, one due date, all or nothing), the copies kept
for their kit, taking it back (every copy's pieces check, the loose material), and the group
membership's quota and period.
"""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalogue.models import Copy, ItemKind
from kits import services
from kits.models import KitItem, KitLoanCopy
from kits.services import CopyCheck, CopyState
from loans import services as loans
from loans.models import Hold, Loan, MissingPiece
from members.models import Member
from tests.kit_helpers import make_group, make_kit
from tests.loan_helpers import make_copy, make_game, make_member
from tests.pack_helpers import make_chasse, make_incomplete_copy

pytestmark = pytest.mark.django_db


def codes(excinfo) -> set[str]:
    error = excinfo.value
    if hasattr(error, "error_dict"):
        return {item.code for items in error.error_dict.values() for item in items}
    return {item.code for item in error.error_list}


def states(report) -> dict[str, str]:
    return {line.copy.barcode: line.state for line in report.lines}


# --- completeness: what the desk says before lending ----------------------------------------------------


def test_a_kit_with_every_copy_on_its_shelf_is_complete():
    kit = make_kit()
    report = services.kit_completeness(kit)
    assert report.complete
    assert set(states(report).values()) == {CopyState.READY}
    assert len(report.lines) == 3


def test_a_copy_on_loan_elsewhere_is_named_with_its_borrower_and_date(staff_user):
    kit = make_kit()
    copy = Copy.objects.get(barcode="95001")
    KitItem.objects.filter(copy=copy).delete()  # lent alone, before it went into the kit
    loan = loans.loan_create(copy=copy, member=make_member("M0001", "Alex Tartempion"), staff=staff_user)
    KitItem.objects.create(kit=kit, copy=copy)

    report = services.kit_completeness(kit)
    assert not report.complete
    assert states(report)["95001"] == CopyState.ON_LOAN
    (line,) = report.problems
    assert "chez Alex Tartempion" in line.detail and line.loan == loan


@pytest.mark.parametrize(
    ("status", "shown"),
    [
        (Copy.Status.LOST, "Perdu"),
        (Copy.Status.WITHDRAWN, "Retiré des collections"),
        (Copy.Status.IN_REPAIR, "En réparation"),
    ],
)
def test_a_lost_withdrawn_or_repaired_copy_is_unavailable(status, shown):
    kit = make_kit()
    Copy.objects.filter(barcode="95002").update(status=status)
    report = services.kit_completeness(kit)
    (line,) = report.problems
    assert line.state == CopyState.UNAVAILABLE and line.detail == shown
    assert f"« Jeu 952 » (95002) : indisponible, {shown}" in services.describe_problems(report)


def test_an_incomplete_copy_says_which_pieces_are_missing(staff_user):
    kit = make_kit()
    copy = Copy.objects.get(barcode="95000")
    KitItem.objects.filter(copy=copy).delete()
    loan = loans.loan_create(copy=copy, member=make_member("M0001"), staff=staff_user)
    loans.loan_return(loan=loan, staff=staff_user, missing=[(copy.game.components.get(label="jetons"), 2)])
    KitItem.objects.create(kit=kit, copy=copy)

    (line,) = services.kit_completeness(kit).problems
    assert line.state == CopyState.INCOMPLETE
    assert line.detail == "il manque 2 × jetons"


def test_an_incomplete_copy_still_playable_says_what_it_allows(staff_user):
    kit = make_kit(games=1)
    chasse = make_chasse()
    copy = make_incomplete_copy(
        chasse, "91684", missing=[("cartes monstres", 6)], member=make_member("M0009"), staff=staff_user
    )
    KitItem.objects.create(kit=kit, copy=copy)
    line = next(line for line in services.kit_completeness(kit).lines if line.copy == copy)
    assert line.state == CopyState.INCOMPLETE_PLAYABLE
    assert "il manque 6 × cartes monstres" in line.detail and "jouable : parties courtes" in line.detail


def test_loose_material_missing_since_the_last_return_makes_the_kit_incomplete():
    kit = make_kit(material_missing="1 tapis")
    report = services.kit_completeness(kit)
    assert not report.problems and not report.complete
    assert services.describe_problems(report) == "matériel manquant : 1 tapis"


# --- lending a kit ---------------------------------------------------------------------------------------


def test_lending_a_kit_lends_every_copy_to_the_group_due_back_the_same_day(staff_user):
    kit = make_kit()
    school = make_group()
    kit_loan = services.kit_lend(kit=kit, member=school, staff=staff_user)

    loans_out = list(Loan.objects.open().filter(member=school).order_by("copy__barcode"))
    assert [loan.copy.barcode for loan in loans_out] == ["95000", "95001", "95002"]
    today = timezone.localdate()
    # The group membership's six weeks (a site without hours: that very day).
    assert {loan.due_on for loan in loans_out} == {today + datetime.timedelta(days=42)}
    assert kit_loan.due_on == today + datetime.timedelta(days=42)
    assert set(kit_loan.lines.values_list("loan", flat=True)) == {loan.pk for loan in loans_out}
    assert kit_loan.is_open and kit_loan.member == school


def test_the_kits_own_period_wins_over_the_membership(staff_user):
    kit = make_kit(loan_period_days=28)
    kit_loan = services.kit_lend(kit=kit, member=make_group(), staff=staff_user)
    assert kit_loan.due_on == timezone.localdate() + datetime.timedelta(days=28)
    assert set(Loan.objects.open().values_list("due_on", flat=True)) == {kit_loan.due_on}


def test_a_kit_goes_out_as_packed_past_a_kinds_maximum_per_family_which_still_holds_alone(staff_user):
    """The kind's maximum (one « Grand jeu » per family, loans/loan_rules.py) is for a family's own
    choice at the desk; staff packed two giant games in this kit, and the school takes both."""
    giant = ItemKind.objects.create(name="Grand jeu", loan_quota=1)
    kit = make_kit()
    Copy.objects.filter(barcode__in=["95000", "95001"]).update(kind=giant)
    school = make_group()

    services.kit_lend(kit=kit, member=school, staff=staff_user)

    assert Loan.objects.open().filter(member=school, copy__kind=giant).count() == 2
    # A giant game lent alone still counts the two the school has at home.
    alone = make_copy(make_game("Mikado géant"), "96001")
    Copy.objects.filter(pk=alone.pk).update(kind=giant)
    with pytest.raises(ValidationError) as refused:
        loans.loan_create(copy=Copy.objects.get(pk=alone.pk), member=school, staff=staff_user)
    assert codes(refused) == {"kind_quota_reached"}


def test_a_kit_with_a_copy_missing_is_refused_until_the_clerk_lends_it_without(staff_user):
    kit = make_kit()
    Copy.objects.filter(barcode="95001").update(status=Copy.Status.LOST)
    school = make_group()

    with pytest.raises(ValidationError) as excinfo:
        services.kit_lend(kit=kit, member=school, staff=staff_user)
    assert codes(excinfo) == {"kit_incomplete"}
    assert "« Jeu 951 » (95001) : indisponible, Perdu" in excinfo.value.messages[0]
    assert not Loan.objects.exists() and not kit.loans.exists()

    kit_loan = services.kit_lend(kit=kit, member=school, staff=staff_user, without_missing=True)
    assert sorted(kit_loan.lines.values_list("copy__barcode", flat=True)) == ["95000", "95002"]


def test_an_incomplete_playable_copy_goes_with_the_kit_only_when_the_clerk_says_so(staff_user):
    kit = make_kit(games=1)
    copy = make_incomplete_copy(
        make_chasse(),
        "91684",
        missing=[("cartes monstres", 6)],
        member=make_member("M0009"),
        staff=staff_user,
    )
    KitItem.objects.create(kit=kit, copy=copy)
    school = make_group()
    with pytest.raises(ValidationError) as excinfo:
        services.kit_lend(kit=kit, member=school, staff=staff_user)
    assert codes(excinfo) == {"kit_incomplete"}

    services.kit_lend(kit=kit, member=school, staff=staff_user, lend_incomplete=True)
    assert Loan.objects.open().filter(copy=copy, member=school).exists()


def test_a_kit_already_out_is_refused(staff_user):
    kit = make_kit()
    services.kit_lend(kit=kit, member=make_group(), staff=staff_user)
    with pytest.raises(ValidationError) as excinfo:
        services.kit_lend(kit=kit, member=make_group("C0002", "Crèche Les Lutins"), staff=staff_user)
    assert codes(excinfo) == {"kit_on_loan"}
    assert "École Jules Ferry — CE1, contact Mme Durand" in excinfo.value.messages[0]


def test_a_copy_of_a_kit_is_not_lent_alone_whether_the_kit_is_home_or_out(staff_user):
    kit = make_kit()
    family = make_member("M0001")
    copy = Copy.objects.get(barcode="95000")
    with pytest.raises(ValidationError) as excinfo:
        loans.loan_create(copy=copy, member=family, staff=staff_user)
    assert codes(excinfo) == {"copy_elsewhere"}
    assert "réservé à sa malle" in excinfo.value.messages[0]
    assert not Copy.objects.filter(pk=copy.pk).available().exists()

    # Out without its lost copy; found again, it still waits for its kit.
    Copy.objects.filter(barcode="95001").update(status=Copy.Status.LOST)
    services.kit_lend(kit=kit, member=make_group(), staff=staff_user, without_missing=True)
    Copy.objects.filter(barcode="95001").update(status=Copy.Status.ON_SHELF)
    with pytest.raises(ValidationError) as excinfo:
        loans.loan_create(copy=Copy.objects.get(barcode="95001"), member=family, staff=staff_user)
    assert codes(excinfo) == {"copy_elsewhere"}
    assert not KitLoanCopy.objects.filter(loan__isnull=True).exists()


def test_a_copy_taken_out_of_its_kit_may_be_lent_alone(staff_user):
    kit = make_kit()
    item = kit.items.get(copy__barcode="95000")
    services.kit_remove_copy(item=item)
    loan = loans.loan_create(copy=item.copy, member=make_member("M0001"), staff=staff_user)
    assert loan.is_open


def test_a_copy_is_in_one_kit_only(staff_user):
    make_kit()
    other = make_kit("Malle des grands", "K0002", games=0)
    with pytest.raises(ValidationError) as excinfo:
        services.kit_add_copy(kit=other, copy=Copy.objects.get(barcode="95000"))
    assert codes(excinfo) == {"already_in_kit"}
    assert "déjà dans la malle « Malle maternelle »" in excinfo.value.messages[0]


# --- the group membership: quota and period --------------------------------------------------------------


def test_the_group_quota_counts_every_copy_and_refuses_the_whole_kit(staff_user):
    kit = make_kit(games=4)
    school = make_group(loan_quota=3)
    with pytest.raises(ValidationError) as excinfo:
        services.kit_lend(kit=kit, member=school, staff=staff_user)
    assert codes(excinfo) == {"quota_reached"}
    # All or nothing: no copy went out, no kit loan, the copies still wait in their kit.
    assert not Loan.objects.exists() and not kit.loans.exists()
    assert not KitLoanCopy.objects.exists()


def test_a_family_membership_lends_for_its_own_shorter_period(staff_user):
    kit = make_kit(games=2)
    family = make_member("M0001")  # 21 days, quota 3
    kit_loan = services.kit_lend(kit=kit, member=family, staff=staff_user)
    assert kit_loan.due_on == timezone.localdate() + datetime.timedelta(days=21)


def test_a_group_reads_as_a_group_and_needs_its_contact():
    school = make_group()
    assert school.borrower_label == "École Jules Ferry — CE1, contact Mme Durand"
    assert str(school) == "École Jules Ferry — CE1, contact Mme Durand (C0001)"
    school.contact_name = ""
    with pytest.raises(ValidationError) as excinfo:
        school.full_clean()
    assert "contact_name" in excinfo.value.error_dict
    family = make_member("M0001", "Alex Tartempion")
    assert family.borrower_label == "Alex Tartempion"
    family.full_clean()


# --- returning a kit -------------------------------------------------------------------------------------


def test_returning_a_kit_runs_each_copys_pieces_check(staff_user):
    kit = make_kit()
    school = make_group()
    kit_loan = services.kit_lend(kit=kit, member=school, staff=staff_user)
    broken = Loan.objects.get(copy__barcode="95001")
    jetons = broken.copy.game.components.get(label="jetons")

    results = services.kit_return(
        kit_loan=kit_loan,
        staff=staff_user,
        checks={broken.pk: CopyCheck(missing=[(jetons, 3)])},
        material_missing="1 sac",
    )
    assert len(results) == 3
    assert not Loan.objects.open().exists()
    checks = dict(Loan.objects.values_list("copy__barcode", "return_check"))
    assert checks == {"95000": "complete", "95001": "incomplete", "95002": "complete"}
    piece = MissingPiece.objects.get()
    assert (piece.copy.barcode, piece.quantity, piece.loan) == ("95001", 3, broken)
    assert Copy.objects.get(barcode="95001").status == Copy.Status.INCOMPLETE
    kit_loan.refresh_from_db()
    kit.refresh_from_db()
    assert kit_loan.returned_at is not None and kit_loan.material_missing == "1 sac"
    assert kit.material_missing == "1 sac"
    # Back home, the copies stay in their kit: still not lendable alone.
    assert not Copy.objects.filter(barcode="95000").available().exists()

    with pytest.raises(ValidationError) as excinfo:
        services.kit_return(kit_loan=kit_loan, staff=staff_user)
    assert codes(excinfo) == {"kit_not_on_loan"}


def test_a_copy_back_with_its_kit_is_not_set_aside_for_a_familys_hold(staff_user):
    kit = make_kit(games=1)
    kit_loan = services.kit_lend(kit=kit, member=make_group(), staff=staff_user)
    game = Copy.objects.get(barcode="95000").game
    hold = loans.hold_create(game=game, member=make_member("M0001"), staff=staff_user)
    services.kit_return(kit_loan=kit_loan, staff=staff_user)
    hold.refresh_from_db()
    assert hold.status == Hold.Status.WAITING and hold.copy is None


def test_a_kit_loan_is_history(staff_user):
    from django.db import DatabaseError, transaction

    kit_loan = services.kit_lend(kit=make_kit(games=1), member=make_group(), staff=staff_user)
    with pytest.raises(DatabaseError), transaction.atomic():
        kit_loan.lines.all().delete()
    assert Member.objects.filter(kit_loans=kit_loan).exists()
