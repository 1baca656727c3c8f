"""Repairs seen from elsewhere: a return's pieces check that sends the copy to repair, the API, the
stocktake, and the year simulation's invariants (every copy in exactly one place; what a family owes)."""

from decimal import Decimal

import pytest
from django.urls import reverse
from rest_framework.authtoken.models import Token

from bench.yearsim.invariants import OWED_SQL, PLACES, rows
from catalogue.models import Copy
from inventory.models import Stocktake
from ledger.models import member_balance
from loans import services as loans
from loans.models import Hold, Loan
from members.models import Member
from repairs import services
from repairs.models import Repair
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member


@pytest.fixture
def quarto(db):
    return make_game("Quarto", pieces=[(1, "plateau de 16 cases"), (16, "pièces")])


@pytest.fixture
def copy(quarto):
    return make_copy(quarto, "90468")


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def lent(copy, staff_user):
    """Quarto 90468 lent to Alex Tartempion; Sam Bidule waits for the game."""
    tartempion, bidule = make_member("M0001", "Alex Tartempion"), make_member("M0002", "Sam Bidule")
    loan = loans.loan_create(copy=copy, member=tartempion, staff=staff_user)
    loans.hold_create(game=copy.game, member=bidule, staff=staff_user)
    return loan


def return_page(desk, loan, data: dict):
    return desk.post(reverse("loans:loan-return", args=[loan.pk]), data, follow=True)


def test_the_return_page_offers_to_send_the_copy_to_repair(desk, lent):
    page = text_of(desk.get(reverse("loans:loan-return", args=[lent.pk])))
    assert "Envoyer en réparation au lieu de remettre en rayon" in page
    assert "Facturer la réparation à la famille" in page


def test_a_return_sends_the_copy_to_repair_and_the_waiting_family_keeps_its_place(desk, lent, copy):
    response = return_page(desk, lent, {"repair-send": "on", "repair-reason": "Plateau déchiré"})
    text = text_of(response)
    assert "« Quarto » (90468) part en réparation : Plateau déchiré." in text
    assert "car il ne retourne pas en rayon ; la famille reste première de la file" in text
    lent.refresh_from_db()
    copy.refresh_from_db()
    assert not lent.is_open and copy.status == Copy.Status.IN_REPAIR
    repair = Repair.objects.get()
    assert (repair.loan, repair.reason, repair.charged_to) == (lent, "Plateau déchiré", "ludotheque")
    hold = Hold.objects.get()
    assert hold.status == Hold.Status.WAITING
    # Repaired: the copy goes to the family waiting, as a return would.
    closed = desk.post(reverse("repairs:repair-close", args=[repair.pk]), {"cost": ""}, follow=True)
    assert "Mettez « Quarto » (90468) de côté pour Sam Bidule (carte M0002)" in text_of(closed)
    hold.refresh_from_db()
    assert (hold.status, hold.copy) == (Hold.Status.READY, copy)


def test_a_return_to_repair_needs_a_reason_and_then_writes_nothing(desk, lent, copy):
    response = desk.post(
        reverse("loans:loan-return", args=[lent.pk]), {"repair-send": "on", "repair-reason": ""}
    )
    assert response.status_code == 400 and "Dites ce qui est à réparer." in text_of(response)
    lent.refresh_from_db()
    assert lent.is_open and not Repair.objects.exists()


def test_damage_found_at_a_return_is_charged_to_the_family_when_repaired(desk, lent, copy):
    return_page(
        desk,
        lent,
        {"repair-send": "on", "repair-reason": "Pièces mâchouillées", "repair-charge_family": "on"},
    )
    repair = Repair.objects.get()
    page = text_of(desk.get(repair.get_absolute_url()))
    assert "Alex Tartempion, qui avait le jeu" in page
    response = desk.post(
        reverse("repairs:repair-close", args=[repair.pk]), {"cost": "6", "charged_to": "family"}, follow=True
    )
    assert "Réparation : 6,00 € facturé à Alex Tartempion." in text_of(response)
    family = Member.objects.annotate(balance=member_balance()).get(card_barcode="M0001")
    assert family.balance == Decimal("6.00")
    # The year simulation's own SQL of what a family owes agrees with the site.
    assert dict(rows(OWED_SQL))[family.pk] == Decimal("6.00")


def test_a_plain_return_still_serves_the_waiting_family(desk, lent, copy):
    return_page(desk, lent, {"all_complete": "1"})
    assert Hold.objects.get().status == Hold.Status.READY and not Repair.objects.exists()


def test_every_copy_is_in_exactly_one_place_through_a_repair(lent, copy, staff_user):
    def places() -> dict[int, list[str]]:
        found: dict[int, list[str]] = {}
        for place, sql in PLACES.items():
            for (copy_id,) in rows(sql):
                found.setdefault(copy_id, []).append(place)
        return found

    assert places() == {copy.pk: ["on loan"]}
    result = loans.loan_return(loan=lent, staff=staff_user, keep_back=True)
    services.repair_open(copy=copy, reason="Boîte", staff=staff_user, loan=result.loan)
    assert places() == {copy.pk: ["in repair"]}
    services.repair_close(repair=Repair.objects.get(), staff=staff_user)
    assert places() == {copy.pk: ["set aside for a hold"]}


# The API.


@pytest.fixture
def api(client, staff_user):
    token = Token.objects.create(user=staff_user)
    client.defaults["HTTP_AUTHORIZATION"] = f"Token {token.key}"
    return client


def test_the_api_sends_a_copy_to_repair_lists_the_queue_and_brings_it_back(api, copy):
    response = api.post(
        "/api/repairs/", {"barcode": "90468", "reason": "Boîte"}, content_type="application/json"
    )
    assert response.status_code == 201
    body = response.json()
    assert (body["barcode"], body["reason"], body["is_open"]) == ("90468", "Boîte", True)
    again = api.post(
        "/api/repairs/", {"barcode": "90468", "reason": "Boîte"}, content_type="application/json"
    )
    assert again.status_code == 409 and again.json()["code"] == "already_in_repair"
    unknown = api.post(
        "/api/repairs/", {"barcode": "0000", "reason": "Boîte"}, content_type="application/json"
    )
    assert unknown.status_code == 400 and "barcode" in unknown.json()
    assert [row["id"] for row in api.get("/api/repairs/?open=true").json()["results"]] == [body["id"]]
    close = f"/api/repairs/{body['id']}/close/"
    assert api.post(close, {"cost": "abc"}, content_type="application/json").status_code == 400
    done = api.post(close, {"cost": "9.90", "notes": "Recollé"}, content_type="application/json")
    assert done.status_code == 200
    assert (done.json()["cost"], done.json()["copy_status"], done.json()["is_open"]) == (
        "9.90",
        "on_shelf",
        False,
    )
    assert api.post(close, {}, content_type="application/json").status_code == 409
    assert api.delete(f"/api/repairs/{body['id']}/").status_code == 405
    assert api.get("/api/repairs/?open=true").json()["results"] == []
    expense = api.get("/api/ledger/?kind=expense").json()["results"][0]
    assert (expense["member"], expense["member_name"], expense["amount"]) == (None, None, "9.90")


def test_the_repairs_are_in_the_api_schema(api):
    schema = api.get("/api/schema/?format=json").json()
    assert {
        "/api/repairs/",
        "/api/repairs/{id}/",
        "/api/repairs/{id}/close/",
        "/api/repairs/{id}/notes/",
    } <= set(schema["paths"])


def test_the_api_is_for_staff_only(client, copy):
    assert client.post("/api/repairs/", {"barcode": "90468", "reason": "Boîte"}).status_code in (401, 403)


# The stocktake.


def test_a_copy_in_repair_is_not_missing_and_is_listed_apart(desk, copy, quarto, staff_user):
    make_copy(quarto, "90408")
    services.repair_open(copy=copy, reason="Boîte", staff=staff_user)
    response = desk.post(reverse("inventory:stocktake-list"), {"localisation": copy.location_id})
    stocktake = Stocktake.objects.get()
    scanned = desk.post(stocktake.get_absolute_url(), {"barcode": "90468"}, follow=True)
    assert "« Quarto » (90468) est enregistré en réparation" in text_of(scanned)
    desk.post(reverse("inventory:stocktake-close", args=[stocktake.pk]))
    assert list(stocktake.missing_copies().values_list("barcode", flat=True)) == ["90408"]
    assert not stocktake.unexpected_copies().exists()
    assert list(stocktake.in_repair_copies().values_list("barcode", flat=True)) == ["90468"]
    text = text_of(desk.get(stocktake.get_absolute_url()))
    assert "1 manquant" in text and "0 inattendu" in text and "1 en réparation" in text
    assert response.status_code == 302
    desk.post(reverse("inventory:stocktake-mark-lost", args=[stocktake.pk]))
    assert Copy.objects.get(barcode="90468").status == Copy.Status.IN_REPAIR
    assert Loan.objects.count() == 0


# The annual report.


def test_the_annual_report_counts_repairs_sent_and_back_by_site(desk, copy, quarto, staff_user):
    from django.utils import timezone

    services.repair_close(
        repair=services.repair_open(copy=copy, reason="Boîte", staff=staff_user), staff=staff_user
    )
    services.repair_open(copy=make_copy(quarto, "90408"), reason="Pion", staff=staff_user)
    year = timezone.localdate().year
    sections = desk.get(reverse("report:annual"), {"annee": year}).context["sections"]
    table = next(
        table for section in sections for table in section.tables if table.slug == "reparations-sites"
    )
    assert table.rows == [["Maison des Enfants", 2, 1]]
    assert "Envoyés en réparation" in text_of(desk.get(reverse("report:annual"), {"annee": year}))
