"""Repairs: a copy sent to repair with a reason (by hand, or from a return's pieces check), the queue, its
cost in the ledger (the ludothèque's expense, or charged to the family who had it), and its coming back
to the shelves, where the first family waiting gets it."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from catalogue.models import Copy
from ledger import services as ledger
from ledger.expenses import expense_create
from ledger.models import Entry, Kind
from loans import services as loans
from loans.models import Hold, MissingPiece
from onsite import services as onsite
from repairs import services
from repairs.models import Repair
from tests.conftest import text_of
from tests.kit_helpers import make_kit
from tests.ledger_helpers import make_site, owed
from tests.loan_helpers import make_copy, make_game, make_member


@pytest.fixture
def quarto(db):
    return make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])


@pytest.fixture
def copy(quarto):
    return make_copy(quarto, "90468")


@pytest.fixture
def tartempion(db):
    return make_member("M0001", "Alex Tartempion")


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def refused(code: str, call, **kwargs) -> ValidationError:
    with pytest.raises(ValidationError) as caught:
        call(**kwargs)
    error = caught.value
    codes = (
        [item.code for items in error.error_dict.values() for item in items]
        if hasattr(error, "error_dict")
        else [error.code]
    )
    assert code in codes, codes
    return error


def test_a_copy_sent_to_repair_is_in_the_queue_and_not_lent(copy, tartempion, staff_user):
    repair = services.repair_open(copy=copy, reason="Plateau déchiré", staff=staff_user)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.IN_REPAIR
    assert list(Repair.objects.open()) == [repair]
    assert copy not in Copy.objects.available()
    error = refused("copy_not_lendable", loans.loan_create, copy=copy, member=tartempion, staff=staff_user)
    day = loans.short_date(repair.opened_at.date())
    assert (
        f"« Quarto » (90468) ne peut pas être prêté : il est en réparation depuis le {day} : Plateau déchiré."
        in error.messages
    )


def test_a_copy_in_repair_cannot_be_sent_twice_nor_one_on_loan_or_lost(copy, quarto, tartempion, staff_user):
    refused("reason_required", services.repair_open, copy=copy, reason="  ", staff=staff_user)
    services.repair_open(copy=copy, reason="Boîte enfoncée", staff=staff_user)
    refused("already_in_repair", services.repair_open, copy=copy, reason="Encore", staff=staff_user)
    lent = make_copy(quarto, "90408")
    loans.loan_create(copy=lent, member=tartempion, staff=staff_user)
    refused("on_loan", services.repair_open, copy=lent, reason="Pion cassé", staff=staff_user)
    lost = make_copy(quarto, "90409", status=Copy.Status.LOST)
    refused("not_in_circulation", services.repair_open, copy=lost, reason="Pion cassé", staff=staff_user)
    assert Repair.objects.count() == 1


def test_a_copy_marked_in_repair_without_a_record_gets_one_and_then_goes_back_on_the_shelf(
    desk, quarto, staff_user
):
    copy = make_copy(quarto, "90409", status=Copy.Status.IN_REPAIR)  # as a spreadsheet import leaves it
    page = text_of(desk.get(reverse("repairs:queue")))
    assert "Marqués « en réparation » sans raison notée" in page and "Quarto (90409)" in page
    repair = services.repair_open(copy=copy, reason="Coins décollés", staff=staff_user)
    assert repair.status_before == Copy.Status.ON_SHELF
    services.repair_close(repair=repair, staff=staff_user)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.ON_SHELF


def test_a_copy_set_aside_for_a_hold_is_not_sent_to_repair(copy, quarto, tartempion, staff_user):
    loans.hold_create(game=quarto, member=tartempion, staff=staff_user)  # sets the copy aside
    refused("set_aside", services.repair_open, copy=copy, reason="Pion cassé", staff=staff_user)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.ON_SHELF


def test_the_ludotheque_pays_a_repair_with_an_expense_that_no_family_owes(copy, tartempion, staff_user):
    repair = services.repair_open(copy=copy, reason="Plateau déchiré", staff=staff_user)
    done = services.repair_close(
        repair=repair, staff=staff_user, notes="Recollé au kraft", cost=Decimal("12.50")
    )
    entry = done.entry
    assert (entry.kind, entry.amount, entry.member_id, entry.copy_id) == (
        Kind.EXPENSE,
        Decimal("12.50"),
        None,
        copy.pk,
    )
    assert entry.note == "Quarto (90468) : Plateau déchiré"
    assert owed(tartempion) == Decimal("0.00") and Entry.objects.balance() == Decimal("0.00")
    repair.refresh_from_db()
    assert (repair.cost, repair.entry, repair.notes, repair.charged_to) == (
        Decimal("12.50"),
        entry,
        "Recollé au kraft",
        Repair.ChargedTo.LUDOTHEQUE,
    )
    copy.refresh_from_db()
    assert copy.status == Copy.Status.ON_SHELF
    # A mistake is reversed by a new entry, never edited.
    reversal = ledger.entry_reverse(entry=entry, staff=staff_user, site=copy.location, note="Gratuit en fait")
    assert (reversal.kind, reversal.amount, reversal.member_id) == (Kind.EXPENSE, Decimal("-12.50"), None)


def test_a_repair_found_at_a_return_may_be_charged_to_the_family(copy, tartempion, staff_user):
    loan = loans.loan_create(copy=copy, member=tartempion, staff=staff_user)
    with transaction.atomic():
        result = loans.loan_return(loan=loan, staff=staff_user, keep_back=True)
        repair = services.repair_open(
            copy=copy, reason="Pièces mâchouillées", staff=staff_user, loan=result.loan, charge_family=True
        )
    done = services.repair_close(repair=repair, staff=staff_user, cost=Decimal("8.00"))
    assert (done.entry.kind, done.entry.member, done.entry.loan, done.entry.amount) == (
        Kind.REPAIR,
        tartempion,
        loan,
        Decimal("8.00"),
    )
    assert owed(tartempion) == Decimal("8.00")
    assert done.repair.charged_to == Repair.ChargedTo.FAMILY


def test_the_clerk_decides_again_who_pays_when_the_copy_comes_back(copy, tartempion, staff_user):
    loan = loans.loan_create(copy=copy, member=tartempion, staff=staff_user)
    with transaction.atomic():
        loans.loan_return(loan=loan, staff=staff_user, keep_back=True)
        repair = services.repair_open(
            copy=copy, reason="Boîte", staff=staff_user, loan=loan, charge_family=True
        )
    done = services.repair_close(repair=repair, staff=staff_user, cost=Decimal("3.00"), charge_family=False)
    assert done.entry.kind == Kind.EXPENSE and owed(tartempion) == Decimal("0.00")


def test_only_a_repair_from_a_return_is_charged_to_a_family(copy, staff_user):
    repair = services.repair_open(copy=copy, reason="Boîte", staff=staff_user)
    refused(
        "no_family",
        services.repair_close,
        repair=repair,
        staff=staff_user,
        cost=Decimal("3"),
        charge_family=True,
    )
    assert Repair.objects.get().is_open and not Entry.objects.exists()


def test_a_repair_closed_twice_writes_nothing_twice(copy, quarto, tartempion, staff_user):
    repair = services.repair_open(copy=copy, reason="Boîte", staff=staff_user)
    loans.hold_create(game=quarto, member=tartempion, staff=staff_user)
    services.repair_close(repair=repair, staff=staff_user, cost=Decimal("5.00"))
    refused("already_closed", services.repair_close, repair=repair, staff=staff_user, cost=Decimal("5.00"))
    assert Entry.objects.count() == 1
    assert Hold.objects.ready().count() == 1


def test_a_repair_without_cost_writes_nothing_in_the_ledger(copy, staff_user):
    repair = services.repair_open(copy=copy, reason="Boîte", staff=staff_user)
    assert services.repair_close(repair=repair, staff=staff_user).entry is None
    assert not Entry.objects.exists()


def test_holds_wait_while_in_repair_and_the_first_is_served_when_it_comes_back(copy, quarto, staff_user):
    services.repair_open(copy=copy, reason="Plateau déchiré", staff=staff_user)
    first, second = make_member("M0001", "Alex Tartempion"), make_member("M0002", "Sam Bidule")
    # The only copy is in repair: families may still queue for the game.
    hold = loans.hold_create(game=quarto, member=first, staff=staff_user)
    loans.hold_create(game=quarto, member=second, staff=staff_user)
    assert hold.status == Hold.Status.WAITING
    done = services.repair_close(repair=Repair.objects.get(), staff=staff_user)
    assert done.hold == hold
    hold.refresh_from_db()
    assert (hold.status, hold.copy) == (Hold.Status.READY, copy)
    assert Hold.objects.waiting().get().member == second


def test_a_copy_with_pieces_still_missing_comes_back_incomplete(copy, quarto, tartempion, staff_user):
    loan = loans.loan_create(copy=copy, member=tartempion, staff=staff_user)
    pieces = quarto.components.get(label="pièces")
    loans.loan_return(loan=loan, staff=staff_user, missing=[(pieces, 1)])
    copy.refresh_from_db()
    assert copy.status == Copy.Status.INCOMPLETE
    repair = services.repair_open(copy=copy, reason="Plateau gondolé", staff=staff_user)
    assert repair.status_before == Copy.Status.INCOMPLETE
    services.repair_close(repair=repair, staff=staff_user)
    copy.refresh_from_db()
    assert copy.status == Copy.Status.INCOMPLETE
    MissingPiece.objects.get()  # still missing: nothing recovered by the repair


@pytest.mark.postgresql
def test_postgresql_refuses_to_delete_a_repair(copy, staff_user):
    services.repair_open(copy=copy, reason="Boîte", staff=staff_user)
    with pytest.raises(IntegrityError), transaction.atomic():
        with connection.cursor() as cursor:
            cursor.execute("DELETE FROM repairs_repair")
    assert Repair.objects.count() == 1


# The desk's pages.


def test_the_queue_sends_a_copy_to_repair_by_its_barcode(desk, copy):
    response = desk.post(reverse("repairs:queue"), {"barcode": "90468", "reason": "Plateau déchiré"})
    repair = Repair.objects.get()
    assert response.status_code == 302 and response.url == repair.get_absolute_url()
    text = text_of(desk.get(reverse("repairs:queue")))
    assert "1 exemplaire en réparation" in text and "Quarto (90468)" in text and "Plateau déchiré" in text


def test_the_queue_refuses_bad_input_with_its_reason(desk, copy):
    response = desk.post(reverse("repairs:queue"), {"barcode": "00000", "reason": "Boîte"})
    assert response.status_code == 400
    assert "Aucun exemplaire ne porte le code-barres « 00000 »." in text_of(response)
    response = desk.post(reverse("repairs:queue"), {"barcode": "90468", "reason": ""})
    assert response.status_code == 400 and not Repair.objects.exists()
    desk.post(reverse("repairs:queue"), {"barcode": "90468", "reason": "Boîte"})
    response = desk.post(reverse("repairs:queue"), {"barcode": "90468", "reason": "Boîte"})
    assert response.status_code == 400 and "est déjà en réparation depuis le" in text_of(response)


def test_the_queue_reads_a_fixed_number_of_queries(desk, quarto, staff_user):
    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert desk.get(reverse("repairs:queue")).status_code == 200
        return len(queries)

    services.repair_close(
        repair=services.repair_open(copy=make_copy(quarto, "A0"), reason="Boîte", staff=staff_user),
        staff=staff_user,
        cost=Decimal("1"),
    )
    services.repair_open(copy=make_copy(quarto, "B0"), reason="Boîte", staff=staff_user)
    few = count()
    for number in range(1, 6):
        repair = services.repair_open(copy=make_copy(quarto, f"A{number}"), reason="Coins", staff=staff_user)
        services.repair_close(repair=repair, staff=staff_user, cost=Decimal("2"))
        services.repair_open(copy=make_copy(quarto, f"B{number}"), reason="Pion", staff=staff_user)
    assert count() == few


def test_a_repair_is_brought_back_to_the_shelf_with_its_cost(desk, copy, staff_user):
    repair = services.repair_open(copy=copy, reason="Plateau déchiré", staff=staff_user)
    url = reverse("repairs:repair-close", args=[repair.pk])
    assert desk.post(url, {"cost": "douze"}).status_code == 400
    response = desk.post(url, {"notes": "Recollé", "cost": "12,50"}, follow=True)
    text = text_of(response)
    assert "« Quarto » (90468) revient de réparation : En rayon." in text
    assert "Réparation : 12,50 €, dépense de la ludothèque." in text
    again = desk.post(url, {"notes": "Recollé", "cost": "12,50"}, follow=True)
    assert "est déjà revenu de réparation le" in text_of(again)
    assert Entry.objects.count() == 1
    page = text_of(desk.get(reverse("repairs:copy-repairs", args=[copy.pk])))
    assert "Historique des réparations" in page and "Plateau déchiré" in page and "Recollé" in page
    assert "12,50 € — dépense de la ludothèque" in page


def test_the_copy_page_sends_it_to_repair_by_hand_and_keeps_its_history(desk, copy, staff_user):
    url = reverse("repairs:copy-repairs", args=[copy.pk])
    assert "Jamais réparé." in text_of(desk.get(url))
    assert desk.post(url, {"reason": ""}).status_code == 400
    assert desk.post(url, {"reason": "Dé fendu"}).status_code == 302
    page = text_of(desk.get(url))
    assert "En réparation depuis le" in page and "Dé fendu" in page
    notes = reverse("repairs:repair-notes", args=[Repair.objects.get().pk])
    assert desk.post(notes, {"notes": "Dé commandé chez l'éditeur"}).status_code == 302
    assert "Dé commandé chez l'éditeur" in text_of(desk.get(reverse("repairs:queue")))


def test_a_copy_scanned_at_the_desk_says_it_is_in_repair_or_offers_to_send_it(desk, copy, staff_user):
    page = text_of(desk.get(reverse("loans:desk"), {"code": "90468"}))
    assert "Envoyer en réparation, ou voir ses réparations" in page
    services.repair_open(copy=copy, reason="Plateau déchiré", staff=staff_user)
    page = text_of(desk.get(reverse("loans:desk"), {"code": "90468"}))
    assert "En réparation depuis le" in page and ": Plateau déchiré. Ouvrir la réparation" in page


def test_the_repair_pages_are_for_staff_and_answer_the_right_methods(
    client, desk, outsider, copy, staff_user
):
    repair = services.repair_open(copy=copy, reason="Boîte", staff=staff_user)
    urls = [
        reverse("repairs:queue"),
        repair.get_absolute_url(),
        reverse("repairs:copy-repairs", args=[copy.pk]),
    ]
    for url in urls:
        assert desk.get(url).status_code == 200
    assert desk.get(reverse("repairs:repair-close", args=[repair.pk])).status_code == 405
    assert desk.post(repair.get_absolute_url()).status_code == 405
    client.logout()
    client.force_login(outsider)
    for url in [*urls, reverse("repairs:repair-close", args=[repair.pk])]:
        response = client.post(url, {"reason": "x", "cost": "1"})
        assert response.status_code in (302, 403, 405)
    assert Repair.objects.get().is_open


# The ledger's side: an expense belongs to no family.


def test_an_expense_needs_no_family_and_a_family_entry_is_never_an_expense(tartempion, staff_user):
    site = make_site()
    entry = expense_create(amount=Decimal("4"), staff=staff_user, site=site, note="Colle")
    assert entry.member is None and entry.owed_change == Decimal("0")
    refused("note_required", expense_create, amount=Decimal("4"), staff=staff_user, site=site, note=" ")
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(kind=Kind.EXPENSE, member=tartempion, amount=1, site=site, clerk=staff_user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Entry.objects.create(kind=Kind.OTHER, member=None, amount=1, site=site, clerk=staff_user, note="x")


def test_a_copy_on_a_table_waits_to_be_put_away_but_one_in_its_kit_s_crate_goes_to_repair(copy, staff_user):
    """A table's copy is in a family's hands; a kit's is on the shelf in its crate (kits: « réservé à
    sa malle »), where a volunteer finds the torn board and sends it to repair."""
    session = onsite.session_open(location=copy.location, staff=staff_user)
    onsite.table_take(session=session, copy=copy, staff=staff_user)
    error = refused("copy_elsewhere", services.repair_open, copy=copy, reason="pion cassé", staff=staff_user)
    assert "il part en réparation une fois rangé" in error.messages[0]

    in_kit = make_kit(games=1).items.get().copy
    repair = services.repair_open(copy=in_kit, reason="plateau déchiré", staff=staff_user)
    assert repair.copy == in_kit and Copy.objects.get(pk=in_kit.pk).status == Copy.Status.IN_REPAIR
