"""The ludobus desk's actions, replayed when the network is back: each once, in order, through the live
desk's services; what no longer holds becomes a conflict for staff to settle, never dropped."""

import datetime
import json
import uuid
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy, ItemKind, Location
from ledger.models import Entry, Kind
from loans import services
from loans.models import Loan, MissingPiece
from ludobus.models import OfflineAction
from ludobus.replay import action_replay
from onsite.models import Session, Visit
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type, run_at_once

SYNC = "/comptoir/tournee/envoi/"


@pytest.fixture
def world(db):
    catane = make_game("Les colons de Catane", pieces=[(19, "hexagones Terrains"), (95, "cartes")])
    quarto = make_game("Quarto", pieces=[(16, "pièces")])
    copies = {
        "90461": make_copy(catane, "90461"),
        "90468": make_copy(quarto, "90468"),
        "90408": make_copy(quarto, "90408"),
    }
    site = Location.objects.get(name="Maison des Enfants")
    two_games = make_membership_type(loan_quota=2)
    return {
        "site": site,
        "copies": copies,
        "catane": catane,
        "alex": make_member("M0001", "Alex Tartempion", membership_type=two_games),
        "sam": make_member("M0002", "Sam Bidule", membership_type=two_games),
    }


class Desk:
    """The offline desk of one device: numbers its actions in order, as static/js/tour.js does."""

    def __init__(self, site: Location) -> None:
        self.site = site
        self.sequence = 0

    def action(self, kind: str, **values) -> dict:
        self.sequence += 1
        return {
            "id": str(uuid.uuid4()),
            "kind": kind,
            "site": self.site.pk,
            "sequence": self.sequence,
            "recorded_at": timezone.now().isoformat(),
            **values,
        }


def sync(client, actions: list[dict]):
    return client.post(SYNC, json.dumps({"actions": actions}), content_type="application/json")


def outcomes(response) -> list[tuple[str, str]]:
    assert response.status_code == 200, response.content
    return [(result["status"], result["reason"]) for result in response.json()["results"]]


@pytest.fixture
def desk(world, client, staff_user):
    client.force_login(staff_user)
    return Desk(world["site"])


def test_a_tour_of_lends_and_returns_is_written_as_the_live_desk_would(client, desk, world):
    lend = desk.action("lend", card="M0001", barcode="90461")
    actions = [
        lend,
        desk.action("lend", card="m0002", barcode="90468"),
        desk.action("return", barcode="90461", lend=lend["id"], missing=[], playable_anyway=False),
        desk.action("visit", card="M0001", children=2, adults=1),
        desk.action("visit", children=3, adults=2),
    ]
    assert [status for status, _ in outcomes(sync(client, actions))] == ["applied"] * 5
    catane_loan = Loan.objects.get(copy__barcode="90461")
    assert catane_loan.member == world["alex"] and catane_loan.return_check == Loan.ReturnCheck.COMPLETE
    assert Loan.objects.open().get().copy.barcode == "90468"
    assert Loan.objects.open().get().member == world["sam"]
    session = Session.objects.open().get(location=world["site"])
    assert session.attendance() == {"families": 2, "children": 5, "adults": 3}
    assert OfflineAction.objects.filter(status="applied").count() == 5


def test_the_same_action_sent_twice_is_applied_once(client, desk, world):
    lend = desk.action("lend", card="M0001", barcode="90461")
    visit = desk.action("visit", card="M0001", children=1, adults=1)
    first = outcomes(sync(client, [lend, visit]))
    # The answer was lost on the way back: the desk sends both again, and once more one of them.
    assert outcomes(sync(client, [lend, visit])) == first == [("applied", ""), ("applied", "")]
    assert outcomes(sync(client, [visit])) == [("applied", "")]
    assert Loan.objects.count() == 1
    assert Visit.objects.count() == 1
    assert OfflineAction.objects.count() == 2


def test_actions_are_replayed_in_the_desks_order_whatever_the_order_sent(client, desk, world):
    lend = desk.action("lend", card="M0001", barcode="90461")
    back = desk.action("return", barcode="90461", lend=lend["id"], missing=[])
    lend_again = desk.action("lend", card="M0002", barcode="90461")
    assert [status for status, _ in outcomes(sync(client, [lend_again, back, lend]))] == ["applied"] * 3
    loans = Loan.objects.order_by("lent_at", "pk")
    assert [(loan.member.card_barcode, loan.is_open) for loan in loans] == [("M0001", False), ("M0002", True)]


def test_a_return_found_missing_pieces_as_the_desk_checks_them(client, desk, world, staff_user):
    loan = services.loan_create(copy=world["copies"]["90461"], member=world["alex"], staff=staff_user)
    cards = world["catane"].components.get(label="cartes")
    back = desk.action(
        "return", barcode="90461", loan=loan.pk, missing=[{"component": cards.pk, "quantity": 3}]
    )
    assert outcomes(sync(client, [back])) == [("applied", "")]
    loan.refresh_from_db()
    assert loan.return_check == Loan.ReturnCheck.INCOMPLETE
    assert MissingPiece.objects.get(copy__barcode="90461").quantity == 3
    assert Copy.objects.get(barcode="90461").status == Copy.Status.INCOMPLETE


def test_a_copy_returned_elsewhere_meanwhile_is_a_conflict_and_nothing_is_written(
    client, desk, world, staff_user
):
    loan = services.loan_create(copy=world["copies"]["90461"], member=world["alex"], staff=staff_user)
    # Brought back at the main site while the ludobus was away, then lent to another family.
    services.loan_return(loan=loan, staff=staff_user)
    services.loan_create(copy=world["copies"]["90461"], member=world["sam"], staff=staff_user)
    back = desk.action("return", barcode="90461", loan=loan.pk, missing=[])
    [(status, reason)] = outcomes(sync(client, [back]))
    assert status == "conflict"
    assert "déjà clôturé" in reason
    assert Loan.objects.open().get(copy__barcode="90461").member == world["sam"]
    assert OfflineAction.objects.get().reason_code == "not_on_loan"


def test_a_lend_to_a_family_whose_membership_ended_is_a_conflict(client, desk, world):
    alex = world["alex"]
    alex.membership_expiry = timezone.localdate() - datetime.timedelta(days=1)
    alex.save()
    [(status, reason)] = outcomes(sync(client, [desk.action("lend", card="M0001", barcode="90461")]))
    assert status == "conflict" and "adhésion" in reason and "a expiré" in reason
    assert not Loan.objects.exists()
    assert OfflineAction.objects.get().reason_code == "membership_expired"


def test_a_lend_past_the_familys_quota_is_a_conflict_and_its_return_too(client, desk, world, staff_user):
    # The family borrowed two games at the main site meanwhile: its quota is reached.
    for barcode in ("90468", "90408"):
        services.loan_create(copy=world["copies"][barcode], member=world["alex"], staff=staff_user)
    lend = desk.action("lend", card="M0001", barcode="90461")
    back = desk.action("return", barcode="90461", lend=lend["id"], missing=[])
    (lend_status, reason), (back_status, back_reason) = outcomes(sync(client, [lend, back]))
    assert lend_status == back_status == "conflict"
    assert "c'est le maximum" in reason
    assert "n'a pas été enregistré" in back_reason
    assert list(OfflineAction.objects.order_by("sequence").values_list("reason_code", flat=True)) == [
        "quota_reached",
        "lend_not_recorded",
    ]
    assert Loan.objects.filter(copy__barcode="90461").count() == 0


def test_staff_see_each_conflict_with_its_reason_and_ways_to_settle_it(client, desk, world):
    world["alex"].membership_expiry = timezone.localdate() - datetime.timedelta(days=1)
    world["alex"].save()
    sync(client, [desk.action("lend", card="M0001", barcode="90461")])
    page = text_of(client.get(reverse("ludobus:conflict-list")))
    assert "Prêt — « Les colons de Catane » (90461), Alex Tartempion" in page
    assert "a expiré" in page
    assert "renouvelez-la sur la fiche de la famille puis réessayez" in page
    assert "Réessayer maintenant" in page and "Classer sans suite" in page


def test_a_conflict_retried_once_its_cause_is_settled_is_written_then(client, desk, world):
    alex = world["alex"]
    alex.membership_expiry = timezone.localdate() - datetime.timedelta(days=1)
    alex.save()
    sync(client, [lend := desk.action("lend", card="M0001", barcode="90461")])
    url = reverse("ludobus:conflict-settle", args=[lend["id"]])
    client.post(url, {"settle": "retry"})
    assert OfflineAction.objects.get().status == "conflict"  # still refused
    alex.membership_expiry = timezone.localdate() + datetime.timedelta(days=300)
    alex.save()
    response = client.post(url, {"settle": "retry"}, follow=True)
    assert "le conflit est réglé" in text_of(response)
    action = OfflineAction.objects.get()
    assert action.status == "applied_later" and action.loan.member == alex
    # Retried again (a second click): nothing more.
    client.post(url, {"settle": "retry"})
    assert Loan.objects.count() == 1
    # The same action sent again by the desk: its outcome, not a second loan.
    assert outcomes(sync(client, [lend]))[0][0] == "applied_later"
    assert Loan.objects.count() == 1


def test_a_conflict_is_dismissed_with_a_note_never_deleted(client, desk, world, staff_user):
    loan = services.loan_create(copy=world["copies"]["90461"], member=world["alex"], staff=staff_user)
    services.loan_return(loan=loan, staff=staff_user)
    sync(client, [back := desk.action("return", barcode="90461", loan=loan.pk)])
    url = reverse("ludobus:conflict-settle", args=[back["id"]])
    response = client.post(url, {"settle": "dismiss", "note": ""})
    assert response.status_code == 400
    assert "Ce champ est obligatoire." in text_of(response)
    client.post(url, {"settle": "dismiss", "note": "Le jeu est bien dans le ludobus."})
    action = OfflineAction.objects.get()
    assert (action.status, action.note, action.settled_by) == (
        "dismissed",
        "Le jeu est bien dans le ludobus.",
        staff_user,
    )
    assert "Aucun conflit à régler." in text_of(client.get(reverse("ludobus:conflict-list")))


def test_bad_actions_are_refused_with_a_message_per_field_and_nothing_is_replayed(client, desk):
    good = desk.action("lend", card="M0001", barcode="90461")
    bad = desk.action("lend", card="", barcode="x" * 41, missing="toutes")
    bad["id"] = "pas-un-uuid"
    response = sync(client, [good, bad])
    assert response.status_code == 400
    errors = response.json()["errors"]
    assert set(errors) == {"1"}
    assert set(errors["1"]) == {"id", "card", "barcode", "__all__"}
    assert not OfflineAction.objects.exists()
    assert sync(client, []).status_code == 400
    for body in ("{", '{"actions": [{"card": "\\ud800"}]}', "[" * 100_000):
        assert client.post(SYNC, body, content_type="application/json").status_code == 400
    nul = desk.action("lend", card="M\x000001", barcode="90461")
    assert sync(client, [nul]).json()["errors"]["0"]["card"] == ["Le caractère nul n’est pas autorisé."]


def test_only_staff_may_send_or_download_a_tour(client, world, outsider):
    site = world["site"]
    download = reverse("ludobus:tour-download", args=[site.pk])
    assert client.get(download).status_code == 302
    assert client.post(SYNC, "{}", content_type="application/json").status_code == 302
    client.force_login(outsider)
    assert client.get(download).status_code == 403
    assert client.post(SYNC, "{}", content_type="application/json").status_code == 403
    assert client.get(reverse("ludobus:conflict-list")).status_code == 403


def test_the_sync_takes_only_post(client, desk):
    assert client.get(SYNC).status_code == 405


@pytest.mark.postgresql
@pytest.mark.django_db(transaction=True)
def test_the_same_action_sent_twice_at_once_is_applied_once(world, staff_user):
    values = {
        "id": uuid.uuid4(),
        "kind": "lend",
        "location": world["site"],
        "sequence": 1,
        "recorded_at": timezone.now(),
        "payload": {"card": "M0001", "barcode": "90461"},
    }
    first, second = run_at_once([lambda: action_replay(staff=staff_user, **values)] * 2)
    assert first.pk == second.pk == values["id"]
    assert first.status == second.status == "applied"
    assert Loan.objects.count() == 1
    assert OfflineAction.objects.count() == 1


@pytest.fixture
def giant(world):
    """A giant Quarto on board: its kind asks a 20 € deposit and allows one per family
    (loans/loan_rules.py)."""
    kind = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("20.00"), loan_quota=1)
    Copy.objects.filter(barcode__in=["90468", "90408"]).update(kind=kind)
    return kind


def test_a_deposit_taken_offline_is_received_at_the_sites_till_once_and_given_back_at_return(
    client, desk, world, giant
):
    lend = desk.action(
        "lend", card="M0001", barcode="90468", deposit_method="cheque", deposit_cheque_number=" 1234567 "
    )
    assert outcomes(sync(client, [lend])) == [("applied", "")]
    # Sent again (the answer was lost on the road): the same loan, the same deposit, once.
    assert outcomes(sync(client, [lend]))[0][0] == "applied"
    [deposit] = Entry.objects.filter(kind=Kind.DEPOSIT_RECEIVED)
    loan = Loan.objects.get()
    assert (deposit.amount, deposit.method, deposit.cheque_number, deposit.loan, deposit.site) == (
        Decimal("20.00"),
        "cheque",
        "1234567",
        loan,
        world["site"],
    )
    back = desk.action("return", barcode="90468", lend=lend["id"])
    assert outcomes(sync(client, [back])) == [("applied", "")]
    [given_back] = Entry.objects.filter(kind=Kind.DEPOSIT_RETURNED)
    assert given_back.amount == Decimal("20.00") and not loan.copy.loans.open().exists()


def test_a_lend_without_its_deposit_is_a_conflict_settled_by_saying_how_it_was_paid(
    client, desk, world, giant
):
    lend = desk.action("lend", card="M0001", barcode="90468")  # from a desk that did not ask
    [(status, reason)] = outcomes(sync(client, [lend]))
    assert status == "conflict" and "caution de 20,00" in reason
    assert not Loan.objects.exists() and not Entry.objects.filter(kind=Kind.DEPOSIT_RECEIVED).exists()
    page = text_of(client.get(reverse("ludobus:conflict-list")))
    assert "dites comment la famille l'a versée" in page and "Caution versée en" in page

    url = reverse("ludobus:conflict-settle", args=[lend["id"]])
    response = client.post(url, {"settle": "retry", "deposit_method": "bitcoin"})
    assert response.status_code == 400
    assert "Sélectionnez un choix valide" in text_of(response)
    client.post(url, {"settle": "retry", "deposit_method": "cheque"})  # a cheque without its number
    action = OfflineAction.objects.get()
    assert action.status == "conflict" and action.reason == "Indiquez le numéro du chèque."
    response = client.post(url, {"settle": "retry", "deposit_method": "cash"}, follow=True)
    assert "le conflit est réglé" in text_of(response)
    action.refresh_from_db()
    assert action.status == "applied_later" and action.payload["deposit_method"] == "cash"
    [deposit] = Entry.objects.filter(kind=Kind.DEPOSIT_RECEIVED)
    assert (deposit.method, deposit.loan) == ("cash", action.loan)


def test_a_second_copy_of_a_kind_past_its_family_quota_is_a_conflict(client, desk, world, giant):
    first = desk.action("lend", card="M0001", barcode="90468", deposit_method="cash")
    second = desk.action("lend", card="M0001", barcode="90408", deposit_method="cash")
    [applied, (status, reason)] = outcomes(sync(client, [first, second]))
    assert applied == ("applied", "") and status == "conflict"
    assert "c'est le maximum pour ce type d'objet" in reason
    assert OfflineAction.objects.get(pk=second["id"]).reason_code == "kind_quota_reached"
    assert Entry.objects.filter(kind=Kind.DEPOSIT_RECEIVED).count() == 1


def test_a_deposit_sent_with_an_unknown_method_is_refused_before_any_replay(client, desk, world, giant):
    lend = desk.action("lend", card="M0001", barcode="90468", deposit_method="bitcoin")
    response = sync(client, [lend])
    assert response.status_code == 400
    assert list(response.json()["errors"]["0"]) == ["deposit_method"]
    assert not OfflineAction.objects.exists()
