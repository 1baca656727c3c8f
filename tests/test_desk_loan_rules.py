"""Loan rules per kind of item where people read them: the desk's family page, its checkout and return, a
family's /compte/, the API, the catalogue's spreadsheet and the admin."""

from decimal import Decimal

import pytest
from django.contrib.messages import get_messages
from django.urls import reverse
from rest_framework.authtoken.models import Token

from catalogue.models import Copy, ItemKind
from ledger.models import Entry, Kind
from loans import services
from loans.models import Loan
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


@pytest.fixture
def giant(db) -> ItemKind:
    return ItemKind.objects.create(name="Grand jeu", loan_period_days=7, deposit=Decimal("20"), loan_quota=1)


@pytest.fixture
def family(db):
    membership = make_membership_type(name="Annuelle", loan_period_days=21, loan_quota=5)
    return make_member("M0001", "Alex Tartempion", membership_type=membership)


@pytest.fixture
def giant_quarto(giant) -> Copy:
    copy = make_copy(make_game("Quarto", pieces=[(16, "pièces")]), "96001")
    copy.kind = giant
    copy.save()
    return copy


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def family_url(member) -> str:
    return reverse("loans:member-detail", args=[member.pk])


def said(response) -> list[str]:
    return [str(message) for message in get_messages(response.wsgi_request)]


def test_the_family_page_lists_each_kinds_rule_for_this_family_and_why(desk, family, giant):
    text = text_of(desk.get(family_url(family)))
    assert "Règles de prêt par type d'objet" in text
    assert "Grand jeu — grand jeu : 7 jours, caution 20,00 €, 1 par famille (0 à la maison)" in text
    assert "Jeu — adhésion « Annuelle » : 21 jours" in text


def test_a_copy_whose_kind_asks_a_deposit_shows_the_deposit_fields_keeping_its_barcode(
    desk, family, giant_quarto
):
    response = desk.post(family_url(family), {"barcode": "96001"})
    assert response.status_code == 400
    html = response.content.decode()
    assert "est de type « Grand jeu » : une caution de 20,00" in html
    assert 'name="deposit_method"' in html and 'value="96001"' in html
    assert not Loan.objects.exists()


def test_lending_with_the_deposit_says_the_rules_applied_and_holds_the_deposit(desk, family, giant_quarto):
    response = desk.post(family_url(family), {"barcode": "96001", "deposit_method": "cash"})
    assert response.status_code == 302
    assert any(
        "Règles : grand jeu : 7 jours, caution 20,00\u00a0€, 1 par famille." in text
        for text in said(response)
    )
    deposit = Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED)
    assert deposit.amount == Decimal("20.00") and deposit.loan.copy == giant_quarto
    page = text_of(desk.get(family_url(family)))
    assert "Caution détenue : 20,00 €." in page
    assert "Grand jeu — grand jeu : 7 jours" in page  # the loan's row says its rule
    assert "(1 à la maison)" in page


def test_a_cheque_without_its_number_is_refused_on_its_field(desk, family, giant_quarto):
    response = desk.post(family_url(family), {"barcode": "96001", "deposit_method": "cheque"})
    assert response.status_code == 400
    assert 'id="deposit-cheque-errors"' in response.content.decode()
    assert not Loan.objects.exists()


def test_the_return_gives_the_deposit_back_and_says_so(desk, family, giant_quarto, staff_user):
    loan = services.loan_create(copy=giant_quarto, member=family, staff=staff_user, deposit_method="cash")
    response = desk.post(reverse("loans:loan-return", args=[loan.pk]), {"all_complete": "1"})
    assert response.status_code == 302
    assert "Caution de 20,00\u00a0€ rendue (espèces) : rendez-la à la famille." in said(response)
    assert Entry.objects.filter(member=family).deposit_total() == 0


def test_the_desk_says_a_scanned_copys_kind(desk, giant_quarto):
    text = text_of(desk.get(reverse("loans:desk"), {"code": "96001"}))
    assert "« Quarto » (96001, Grand jeu) n'est pas en prêt" in text


def test_the_family_reads_each_loans_rule_on_its_account(client, family, giant_quarto, staff_user):
    services.loan_create(copy=giant_quarto, member=family, staff=staff_user, deposit_method="cash")
    services.loan_create(copy=make_copy(make_game("Dixit"), "91001"), member=family, staff=staff_user)
    family.user = make_family_user()
    family.save()
    client.force_login(family.user)
    text = text_of(client.get(reverse("loans:account")))
    assert "Grand jeu — grand jeu : 7 jours, caution 20,00 €, 1 par famille" in text
    assert "Jeu — adhésion « Annuelle » : 21 jours" in text


@pytest.fixture
def api(client, staff_user):
    token = Token.objects.create(user=staff_user).key
    return lambda url, body: client.post(
        url, body, content_type="application/json", HTTP_AUTHORIZATION=f"Token {token}"
    )


def test_the_api_asks_the_deposit_then_lends_and_gives_it_back(api, family, giant_quarto):
    refused = api("/api/loans/", {"barcode": "96001", "member": family.pk})
    assert refused.status_code == 400 and "une caution de 20,00" in refused.json()["deposit_method"][0]
    lent = api(
        "/api/loans/",
        {"barcode": "96001", "member": family.pk, "deposit_method": "cheque", "deposit_cheque_number": "42"},
    )
    assert lent.status_code == 201 and lent.json()["kind"] == "Grand jeu"
    back = api(f"/api/loans/{lent.json()['id']}/return/", {})
    assert back.status_code == 200
    assert [(line["kind"], line["amount"]) for line in back.json()["deposits_returned"]] == [
        (Kind.DEPOSIT_RETURNED, "20.00")
    ]


def test_the_api_refuses_an_unknown_deposit_method_with_a_400(api, family, giant_quarto):
    response = api("/api/loans/", {"barcode": "96001", "member": family.pk, "deposit_method": "bitcoin"})
    assert response.status_code == 400 and "deposit_method" in response.json()


def test_the_copy_api_gives_its_kind(client, giant_quarto):
    assert client.get("/api/copies/96001/").json()["kind"] == "Grand jeu"


def test_the_catalogue_spreadsheet_exports_and_imports_the_kind(desk, giant_quarto):
    from tests.test_catalogue_spreadsheet import confirm, export_csv, upload

    assert "type_objet" in export_csv(desk).splitlines()[0]
    assert ";Grand jeu" in export_csv(desk)
    ItemKind.objects.create(name="Jouet")
    sheet = "titre;code_barres;cote;localisation;type_objet\nKapla;97001;KAP;Maison des Enfants;jouet\n"
    confirm(desk, upload(desk, sheet))
    sheet = "titre;code_barres;cote;localisation;type_objet\nQuarto;96001;QUA;Maison des Enfants;Jeu vidéo\n"
    confirm(desk, upload(desk, sheet))
    assert Copy.objects.get(barcode="97001").kind.name == "Jouet"  # known kind, whatever its case
    assert Copy.objects.get(barcode="96001").kind.name == "Jeu vidéo"  # a new name is a new kind


def test_the_admin_edits_the_kinds_and_a_copys_kind(desk, giant_quarto):
    assert "Grand jeu" in text_of(desk.get(reverse("admin:catalogue_itemkind_changelist")))
    response = desk.post(
        reverse("admin:catalogue_itemkind_add"),
        {"name": "Jeu vidéo", "loan_fee": "1,50", "loan_period_days": "", "deposit": "", "loan_quota": ""},
    )
    assert response.status_code == 302
    assert ItemKind.objects.get(name="Jeu vidéo").loan_fee == Decimal("1.50")
    bad = desk.post(
        reverse("admin:catalogue_itemkind_add"), {"name": "Malle", "loan_quota": "0", "deposit": "-5"}
    )
    assert bad.status_code == 200 and "errornote" in bad.content.decode()
    html = desk.get(reverse("admin:catalogue_copy_change", args=[giant_quarto.pk])).content.decode()
    assert 'name="kind"' in html
