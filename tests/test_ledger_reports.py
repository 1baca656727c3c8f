"""The treasurer's reports: revenue by kind and month, takings by method, memberships, deposits, CSV export."""

import csv
import datetime
import io
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Kind
from ledger.reports import memberships_by_type, revenue_by_month, takings_by_month
from tests.conftest import text_of
from tests.ledger_helpers import charge, make_site, pay
from tests.loan_helpers import make_member, make_membership_type

pytestmark = pytest.mark.django_db


def at(month: int, day: int = 10) -> datetime.datetime:
    """A moment of last year (this year's months may lie in the future)."""
    year = timezone.localdate().year - 1
    return timezone.make_aware(datetime.datetime(year, month, day, 15, 0))


@pytest.fixture
def year_of_books(staff_user):
    """Last year: two memberships, a late fee waived, a lost game reversed, payments by cash and card."""
    yearly = make_membership_type(name="Famille (1 an)", price=Decimal("25.00"))
    family = make_member("M0001", "Alex Tartempion", membership_type=yearly)
    other = make_member("M0002", "Sam Bidule", membership_type=yearly)
    charge(family, "25.00", staff_user, kind=Kind.MEMBERSHIP, at=at(1))
    charge(other, "25.00", staff_user, kind=Kind.MEMBERSHIP, at=at(1, 20))
    charge(family, "2.00", staff_user, kind=Kind.LATE_FEE, waived=True, at=at(3))
    lost = charge(family, "30.00", staff_user, kind=Kind.LOST_GAME, at=at(3))
    pay(family, "25.00", staff_user, at=at(1, 11))
    pay(other, "20.00", staff_user, method="card", at=at(2))
    services.entry_reverse(entry=lost, staff=staff_user, site=make_site(), note="Jeu retrouvé")
    return {"family": family, "other": other, "year": at(1).year}


def row(table: list[dict], value: str) -> dict:
    return next(line for line in table if line["value"] == value)


def test_revenue_counts_charges_by_kind_and_month_without_waived_ones(year_of_books):
    table = revenue_by_month(year_of_books["year"])
    assert row(table, Kind.MEMBERSHIP)["months"][0] == Decimal("50.00")
    assert row(table, Kind.LATE_FEE)["total"] == Decimal("0")
    assert row(table, Kind.LOST_GAME)["months"][2] == Decimal("30.00")
    assert table[-1]["label"] == "Total" and table[-1]["total"] == Decimal("80.00")


def test_a_reversal_counts_in_the_month_it_was_made(year_of_books):
    # The lost game charged in March was reversed today: this year's books carry the -30.
    this_year = revenue_by_month(timezone.localdate().year)
    assert row(this_year, Kind.LOST_GAME)["total"] == Decimal("-30.00")


def test_takings_are_payments_by_method_and_month(year_of_books):
    table = takings_by_month(year_of_books["year"])
    assert row(table, "cash")["months"][0] == Decimal("25.00")
    assert row(table, "card")["months"][1] == Decimal("20.00")
    assert table[-1]["total"] == Decimal("45.00")


def test_memberships_are_counted_by_type(staff_user):
    yearly = make_membership_type(name="Famille (1 an)", price=Decimal("25.00"))
    make_membership_type(name="Découverte (3 mois)", price=Decimal("8.00"))
    today = timezone.localdate()
    for card in ("M0001", "M0002"):
        family = make_member(
            card,
            membership_type=yearly,
            start=today - datetime.timedelta(days=400),
            expiry=today - datetime.timedelta(days=35),
        )
        services.membership_renew(member=family, membership_type=yearly, staff=staff_user, site=make_site())
    rows = {line["name"]: line for line in memberships_by_type(today.year)}
    assert rows["Famille (1 an)"] | {"name": ""} == {
        "name": "",
        "renewed": 2,
        "amount": Decimal("50.00"),
        "valid_today": 2,
    }
    assert rows["Découverte (3 mois)"]["renewed"] == 0


def test_the_reports_page_shows_the_year_its_deposits_and_who_owes(client, staff_user, year_of_books):
    services.deposit_receive(
        member=year_of_books["family"],
        amount=Decimal("50"),
        method="cheque",
        cheque_number="12",
        staff=staff_user,
        site=make_site(),
    )
    client.force_login(staff_user)
    text = text_of(client.get(reverse("ledger:reports") + f"?annee={year_of_books['year']}"))
    assert f"Comptabilité {year_of_books['year']}" in text
    assert "Recettes par nature et par mois" in text and "80,00 €" in text
    assert "1 caution, 50,00 € en tout." in text
    assert "Familles qui doivent de l'argent" in text and "Sam Bidule" in text


def _csv_rows(response) -> list[list[str]]:
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    body = b"".join(response.streaming_content).decode("utf-8")
    assert body.startswith("\ufeff")
    return list(csv.reader(io.StringIO(body[1:]), delimiter=";"))


def test_the_revenue_exports_as_a_csv_a_french_spreadsheet_opens(client, staff_user, year_of_books):
    client.force_login(staff_user)
    year = year_of_books["year"]
    response = client.get(reverse("ledger:reports") + f"?annee={year}&export=recettes")
    assert response["Content-Disposition"] == f'attachment; filename="recettes-{year}.csv"'
    assert _csv_rows(response) == [
        ["mois", "nature", "montant"],
        [f"{year}-01", "Adhésion", "50,00"],
        [f"{year}-03", "Jeu perdu", "30,00"],
    ]


def test_the_journal_exports_every_entry_of_the_year_in_order(client, staff_user, year_of_books):
    client.force_login(staff_user)
    rows = _csv_rows(client.get(reverse("ledger:reports") + f"?annee={year_of_books['year']}&export=journal"))
    assert rows[0][:7] == ["date", "écriture", "reçu", "famille", "carte", "nature", "montant"]
    assert len(rows) == 1 + 6
    assert [line[5] for line in rows[1:]] == [
        "Adhésion",
        "Paiement",
        "Adhésion",
        "Paiement",
        "Frais de retard",
        "Jeu perdu",
    ]
    waived = rows[5]
    assert (waived[6], waived[7], waived[12]) == ("2,00", "0,00", "oui")


@pytest.mark.parametrize("export", ["encaissements", "adhesions", "cautions"])
def test_every_table_exports(client, staff_user, year_of_books, export):
    client.force_login(staff_user)
    rows = _csv_rows(client.get(reverse("ledger:reports") + f"?export={export}"))
    assert rows and rows[0]


def test_a_bad_year_or_export_is_handled(client, staff_user):
    client.force_login(staff_user)
    assert client.get(reverse("ledger:reports") + "?annee=abc").status_code == 200
    assert client.get(reverse("ledger:reports") + "?annee=99999999999999999999").status_code == 200
    assert client.get(reverse("ledger:reports") + "?annee=²⁰²⁶").status_code == 200
    assert client.get(reverse("ledger:reports") + "?export=everything").status_code == 404


def test_the_reports_are_for_staff_only(client, outsider):
    client.force_login(outsider)
    assert client.get(reverse("ledger:reports")).status_code == 403
    assert client.get(reverse("ledger:reports") + "?export=journal").status_code == 403
