"""The ledger's staff API: list entries, add charges, payments and deposits, reverse; never edit or delete."""

import datetime
import uuid
from decimal import Decimal

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from ledger import till
from ledger.models import Entry, Kind
from tests.ledger_helpers import charge, make_site, owed, pay
from tests.loan_helpers import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(db):
    return make_member("M0001", "Alex Tartempion")


@pytest.fixture
def api(client, staff_user):
    client.force_login(staff_user)
    return client


def post(client, url: str, data: dict):
    return client.post(url, data, content_type="application/json")


def test_staff_list_a_familys_entries_newest_first(api, family, staff_user):
    other = make_member("M0002", "Sam Bidule")
    charge(family, "25.00", staff_user, kind=Kind.MEMBERSHIP)
    payment = pay(family, "25.00", staff_user)
    charge(other, "3.00", staff_user)
    body = api.get(f"/api/ledger/?member={family.pk}").json()
    assert body["count"] == 2
    first = body["results"][0]
    assert (first["id"], first["kind"], first["amount"], first["balance_change"], first["receipt"]) == (
        payment.pk,
        "payment",
        "25.00",
        "-25.00",
        payment.receipt,
    )
    assert first["member_name"] == "Alex Tartempion" and first["clerk"] == "bibliothecaire"


def test_outsiders_and_anonymous_visitors_get_nothing(client, outsider, family, staff_user):
    charge(family, "25.00", staff_user)
    assert client.get("/api/ledger/").status_code in (401, 403)
    client.force_login(outsider)
    assert client.get("/api/ledger/").status_code == 403
    response = post(client, "/api/ledger/", {"member": family.pk, "kind": "other", "amount": "5", "site": 1})
    assert response.status_code == 403
    assert Entry.objects.count() == 1


def test_a_charge_then_a_payment_through_the_api(api, family):
    site = make_site()
    response = post(
        api,
        "/api/ledger/",
        {"member": family.pk, "kind": "other", "amount": "4.50", "site": site.pk, "note": "Dé perdu"},
    )
    assert response.status_code == 201 and response.json()["balance_change"] == "4.50"
    response = post(
        api,
        "/api/ledger/",
        {"member": family.pk, "kind": "payment", "amount": "4.50", "method": "card", "site": site.pk},
    )
    assert response.status_code == 201
    assert response.json()["receipt"] == f"{timezone.localdate().year}-0001"
    assert owed(family) == Decimal("0.00")


def test_a_reversal_through_the_api(api, family, staff_user):
    mistake = charge(family, "30.00", staff_user)
    response = post(api, f"/api/ledger/{mistake.pk}/reverse/", {"site": make_site().pk, "note": "Erreur"})
    assert response.status_code == 201
    assert (response.json()["reverses"], response.json()["amount"]) == (mistake.pk, "-30.00")
    assert api.get(f"/api/ledger/{mistake.pk}/").json()["reversed_by"] == response.json()["id"]
    again = post(api, f"/api/ledger/{mistake.pk}/reverse/", {"site": make_site().pk, "note": "Encore"})
    assert again.status_code == 409
    assert again.json() == {"detail": "Cette écriture est déjà annulée.", "code": "already_reversed"}


def test_a_deposit_received_returned_and_settled_twice_through_the_api(api, family):
    site = make_site()
    deposit = post(
        api,
        "/api/ledger/",
        {
            "member": family.pk,
            "kind": "deposit_received",
            "amount": "50",
            "method": "cheque",
            "cheque_number": "7",
            "site": site.pk,
        },
    ).json()
    assert deposit["receipt"]
    response = post(api, f"/api/ledger/{deposit['id']}/return-deposit/", {"site": site.pk})
    assert response.status_code == 201 and response.json()["kind"] == "deposit_returned"
    response = post(api, f"/api/ledger/{deposit['id']}/cash-deposit/", {"site": site.pk})
    assert response.status_code == 409 and response.json()["code"] == "deposit_settled"


@pytest.mark.parametrize(
    ("data", "field", "message"),
    [
        ({"kind": "payment", "amount": "5", "method": "cash"}, "amount", "Alex Tartempion ne doit rien"),
        (
            {"kind": "payment", "amount": "5", "method": "cheque"},
            "cheque_number",
            "Indiquez le numéro du chèque.",
        ),
        ({"kind": "other", "amount": "5"}, "note", "Dites ce que ce frais paie."),
        (
            {"kind": "other", "amount": "5", "method": "cash", "note": "x"},
            "method",
            "Un frais n'a pas de mode",
        ),
        ({"kind": "other", "amount": "-5", "note": "x"}, "amount", "supérieure ou égale à"),
        ({"kind": "other", "amount": "1.234", "note": "x"}, "amount", "chiffres après la virgule"),
        ({"kind": "deposit_returned", "amount": "5", "method": "cash"}, "kind", "n'est pas un choix valide"),
        ({"kind": "refund", "amount": "5", "method": "cash"}, "amount", "La ludothèque ne doit que 0,00"),
    ],
)
def test_a_refused_write_answers_400_with_the_reason_on_its_field(api, family, data, field, message):
    response = post(api, "/api/ledger/", {"member": family.pk, "site": make_site().pk} | data)
    assert response.status_code == 400
    assert message in " ".join(response.json()[field])
    assert not Entry.objects.exists()


def test_an_entry_dated_into_a_closed_till_period_answers_409(api, family, staff_user):
    site = make_site()
    charge(family, "10.00", staff_user, at=timezone.now() - datetime.timedelta(hours=2))
    till.till_close(site=site, staff=staff_user, cash_counted=Decimal("0"))
    response = post(
        api,
        "/api/ledger/",
        {
            "member": family.pk,
            "kind": "payment",
            "amount": "10",
            "method": "cash",
            "site": site.pk,
            "recorded_at": (timezone.now() - datetime.timedelta(hours=1)).isoformat(),
        },
    )
    assert response.status_code == 409 and response.json()["code"] == "period_closed"
    assert "La caisse de Maison des Enfants est clôturée" in response.json()["detail"]


def test_entries_cannot_be_edited_or_deleted_through_the_api(api, family, staff_user):
    entry = charge(family, "10.00", staff_user)
    url = f"/api/ledger/{entry.pk}/"
    assert api.put(url, {"amount": "1"}, content_type="application/json").status_code == 405
    assert api.patch(url, {"amount": "1"}, content_type="application/json").status_code == 405
    assert api.delete(url).status_code == 405
    assert Entry.objects.get().amount == Decimal("10.00")


def test_a_token_opens_the_ledger_to_a_desk_client(client, family, staff_user):
    token = Token.objects.create(user=staff_user).key
    charge(family, "10.00", staff_user)
    response = client.get("/api/ledger/", HTTP_AUTHORIZATION=f"Token {token}")
    assert response.status_code == 200 and response.json()["count"] == 1


def test_the_members_api_gives_each_familys_balance(api, family, staff_user):
    charge(family, "12.50", staff_user)
    make_member("M0002", "Sam Bidule")
    rows = {row["card_barcode"]: row for row in api.get("/api/members/").json()["results"]}
    assert (rows["M0001"]["balance"], rows["M0002"]["balance"]) == ("12.50", "0.00")
    assert api.get(f"/api/members/{family.pk}/").json()["balance"] == "12.50"


@pytest.mark.parametrize("when", ["2001-01-01T10:00:00+01:00", "0001-01-01T00:00:00+14:00", "demain"])
def test_an_entry_dated_long_ago_or_unreadably_is_refused_on_its_date(api, family, when):
    response = post(
        api,
        "/api/ledger/",
        {
            "member": family.pk,
            "kind": "other",
            "amount": "5",
            "note": "x",
            "site": make_site().pk,
            "recorded_at": when,
        },
    )
    assert response.status_code == 400 and response.json()["recorded_at"]
    assert not Entry.objects.exists()


@pytest.mark.parametrize("amount", ["١٢", "١٢.٠٠", "１２", "1E1"])
def test_an_amount_in_other_digits_is_refused_on_its_field(api, family, staff_user, amount):
    charge(family, "15.00", staff_user)
    response = post(
        api,
        "/api/ledger/",
        {"member": family.pk, "kind": "payment", "amount": amount, "method": "cash", "site": make_site().pk},
    )
    assert response.status_code == 400
    assert response.json() == {
        "amount": ["Écrivez le montant avec les chiffres 0 à 9 et une virgule, par exemple 12,50."]
    }
    assert not Entry.objects.filter(kind=Kind.PAYMENT).exists()


def test_an_amount_as_a_json_number_or_plain_digits_is_taken(api, family, staff_user):
    charge(family, "15.00", staff_user)
    site = make_site().pk
    for amount in (2, 2.5, "2.50"):
        response = post(
            api,
            "/api/ledger/",
            {"member": family.pk, "kind": "payment", "amount": amount, "method": "cash", "site": site},
        )
        assert response.status_code == 201, response.json()
    assert owed(family) == Decimal("8.00")


def test_a_deposit_sent_again_with_its_once_token_is_added_once(api, family):
    body = {
        "member": family.pk,
        "kind": "deposit_received",
        "amount": "20.00",
        "method": "cash",
        "site": make_site().pk,
        "once": str(uuid.uuid4()),
    }
    answers = [post(api, "/api/ledger/", body) for _ in range(3)]
    assert [answer.status_code for answer in answers] == [201, 200, 200]
    assert len({answer.json()["id"] for answer in answers}) == 1
    assert Entry.objects.count() == 1 and answers[2].json()["receipt"] == answers[0].json()["receipt"]


def test_a_refused_request_leaves_its_once_token_free(api, family, staff_user):
    charge(family, "5.00", staff_user)
    body = {
        "member": family.pk,
        "kind": "payment",
        "method": "cash",
        "site": make_site().pk,
        "once": str(uuid.uuid4()),
    }
    assert post(api, "/api/ledger/", body | {"amount": "50"}).status_code == 400
    assert post(api, "/api/ledger/", body | {"amount": "5"}).status_code == 201
    assert owed(family) == Decimal("0.00")
