"""Closing the till of a site: the period since the last closure, totals by method, the cash counted."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse
from django.utils import timezone

from ledger import services, till
from ledger.models import Entry, Kind, TillClosure
from tests.conftest import text_of
from tests.ledger_helpers import charge, make_site, pay, pdf_page_size_mm, pdf_text, session_cookie
from tests.loan_helpers import make_member, run_at_once


@pytest.fixture
def family(db):
    return make_member("M0001", "Alex Tartempion")


def close(site, staff, counted: str, kept: str = "0", note: str = "") -> TillClosure:
    return till.till_close(
        site=site, staff=staff, cash_counted=Decimal(counted), float_kept=Decimal(kept), note=note
    )


def _a_busy_afternoon(family, staff_user, site) -> None:
    charge(family, "100.00", staff_user)
    pay(family, "25.00", staff_user, site=site)  # cash in
    pay(family, "30.00", staff_user, site=site, method="cheque", cheque_number="11")
    pay(family, "15.00", staff_user, site=site, method="card")
    services.deposit_receive(member=family, amount=Decimal("50"), method="cash", staff=staff_user, site=site)
    mistake = pay(family, "5.00", staff_user, site=site)  # cash in, then given back by its reversal
    services.entry_reverse(entry=mistake, staff=staff_user, site=site, note="Rendu, erreur de saisie")


@pytest.mark.django_db
def test_closing_counts_the_cash_expected_and_records_the_difference(family, staff_user):
    site = make_site()
    _a_busy_afternoon(family, staff_user, site)
    closure = close(site, staff_user, counted="74.00", kept="20.00", note="Il manque un euro")
    closure.refresh_from_db()
    # Cash: 25 paid + 50 deposit + 5 paid - 5 reversed.
    assert closure.cash_expected == Decimal("75.00")
    assert closure.difference == Decimal("-1.00")
    assert (closure.opened_after, closure.opening_float, closure.note) == (
        None,
        Decimal("0"),
        "Il manque un euro",
    )
    totals = closure.entries().till_totals()
    assert totals["cash"] == {
        "payments": Decimal("25.00"),
        "deposits": Decimal("50.00"),
        "total": Decimal("75.00"),
    }
    assert totals["cheque"]["total"] == Decimal("30.00") and totals["card"]["total"] == Decimal("15.00")
    assert totals["transfer"]["total"] == Decimal("0")


@pytest.mark.django_db
def test_the_next_period_starts_at_the_closure_with_the_float_left(family, staff_user):
    site = make_site()
    charge(family, "40.00", staff_user)
    pay(family, "10.00", staff_user, site=site)
    first = close(site, staff_user, counted="10.00", kept="10.00")
    later = pay(family, "20.00", staff_user, site=site)
    assert later not in first.entries()
    second = close(site, staff_user, counted="30.00")
    assert second.opened_after == first.closed_at and second.opening_float == Decimal("10.00")
    assert second.cash_expected == Decimal("30.00") and second.difference == Decimal("0")
    assert list(second.entries()) == [later]


@pytest.mark.django_db
def test_a_closure_made_twice_by_mistake_is_reversed_with_its_reason_and_counts_no_more(
    client, family, staff_user
):
    site = make_site()
    charge(family, "90.00", staff_user)
    pay(family, "90.00", staff_user, site=site)
    right = close(site, staff_user, counted="90.00", kept="20.00")
    wrong = close(site, staff_user, counted="90.00", kept="20.00")  # the period since: nothing came in
    assert wrong.difference == Decimal("70.00")
    client.force_login(staff_user)
    url = reverse("ledger:till-closure-reverse", args=[wrong.pk])
    response = client.post(url, {"note": ""})
    assert response.status_code == 400 and "Ce champ est obligatoire." in text_of(response)
    response = client.post(url, {"note": "Clôturée deux fois (double clic)"})
    assert response.status_code == 302
    page = text_of(client.get(wrong.get_absolute_url()))
    assert (
        "Clôture annulée le" in page and "Clôturée deux fois (double clic). Son écart ne compte plus." in page
    )
    assert "annulée" in text_of(client.get(reverse("ledger:till") + f"?site={site.pk}"))
    # Both closures stay; the next period opens with the float of the one that stands.
    assert TillClosure.objects.count() == 2
    following = close(site, staff_user, counted="20.00", kept="20.00")
    assert following.opening_float == Decimal("20.00") and following.difference == Decimal("0.00")
    assert not TillClosure.objects.filter(pk=right.pk, reversal__isnull=False).exists()
    with pytest.raises(ValidationError) as error:
        till.till_closure_reverse(closure=wrong, staff=staff_user, note="Encore")
    assert error.value.code == "already_reversed"


@pytest.mark.django_db
def test_a_reversed_closure_gives_back_the_float_of_the_one_before(family, staff_user):
    site = make_site()
    close(site, staff_user, counted="15.00", kept="15.00")
    miscount = close(site, staff_user, counted="150.00", kept="150.00")  # 15 typed 150
    till.till_closure_reverse(closure=miscount, staff=staff_user, note="150 tapé pour 15")
    assert close(site, staff_user, counted="15.00").opening_float == Decimal("15.00")


@pytest.mark.django_db
@pytest.mark.postgresql
@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE ledger_tillclosurereversal SET note = 'autre'",
        "DELETE FROM ledger_tillclosurereversal",
    ],
)
def test_postgresql_refuses_to_change_or_delete_a_closures_reversal(staff_user, statement):
    closure = close(make_site(), staff_user, counted="0")
    till.till_closure_reverse(closure=closure, staff=staff_user, note="Essai")
    with pytest.raises(IntegrityError, match="refused"), transaction.atomic(), connection.cursor() as cursor:
        cursor.execute(statement)


@pytest.mark.django_db
def test_each_site_has_its_own_till(family, staff_user):
    town, village = make_site("Maison des Enfants"), make_site("Annexe du village")
    charge(family, "40.00", staff_user)
    pay(family, "10.00", staff_user, site=town)
    pay(family, "7.00", staff_user, site=village)
    assert close(town, staff_user, counted="10.00").cash_expected == Decimal("10.00")
    assert close(village, staff_user, counted="7.00").cash_expected == Decimal("7.00")


@pytest.mark.django_db
def test_a_closed_period_refuses_an_entry_dated_into_it_and_the_correction_goes_to_the_next(
    family, staff_user
):
    site = make_site()
    fee = charge(family, "40.00", staff_user)
    payment = pay(family, "10.00", staff_user, site=site)
    closure = close(site, staff_user, counted="10.00")
    before_closing = closure.closed_at - datetime.timedelta(minutes=5)
    with pytest.raises(ValidationError) as refused:
        pay(family, "10.00", staff_user, site=site, at=before_closing)
    assert {item.code for item in refused.value.error_list} == {"period_closed"}
    assert "La caisse de Maison des Enfants est clôturée jusqu'au" in refused.value.messages[0]
    assert "une correction s'enregistre dans la période suivante" in refused.value.messages[0]
    correction = services.entry_reverse(entry=payment, staff=staff_user, site=site, note="Chèque refusé")
    assert correction.recorded_at > closure.closed_at
    assert set(closure.entries()) == {fee, payment}
    assert Entry.objects.count() == 3


@pytest.mark.django_db
def test_it_refuses_to_leave_more_cash_than_was_counted(staff_user):
    with pytest.raises(ValidationError) as refused:
        close(make_site(), staff_user, counted="10.00", kept="20.00")
    assert refused.value.messages == ["Le fond de caisse laissé ne peut pas dépasser les espèces comptées."]
    assert not TillClosure.objects.exists()


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # row locks
def test_payments_taken_while_the_till_closes_land_in_the_closure_or_the_next_period(staff_user):
    site = make_site()
    families = [make_member(f"M{i:04d}", f"Famille {i}") for i in range(8)]
    for member in families:
        charge(member, "5.00", staff_user, site=site)

    calls = [lambda member=member: pay(member, "5.00", staff_user, site=site) for member in families]
    calls.insert(4, lambda: close(site, staff_user, counted="0"))
    outcomes = run_at_once(calls)

    assert not [outcome for outcome in outcomes if isinstance(outcome, Exception)], outcomes
    closure = TillClosure.objects.get()
    inside = list(closure.entries().filter(kind=Kind.PAYMENT))
    after = list(Entry.objects.filter(kind=Kind.PAYMENT, recorded_at__gt=closure.closed_at))
    assert len(inside) + len(after) == len(families)
    assert closure.cash_expected == Decimal("5.00") * len(inside)


@pytest.mark.django_db
def test_the_till_page_shows_the_period_and_closes_it(client, family, staff_user):
    site = make_site()
    _a_busy_afternoon(family, staff_user, site)
    client.force_login(staff_user)
    text = text_of(client.get(reverse("ledger:till")))
    assert "Caisse — Maison des Enfants" in text
    assert "Espèces attendues dans la caisse : 75,00 €" in text
    assert "jamais été clôturée" in text
    response = client.post(reverse("ledger:till"), {"cash_counted": "75,00", "float_kept": "20", "note": ""})
    closure = TillClosure.objects.get()
    assert response.status_code == 302 and response["Location"] == closure.get_absolute_url()
    report = text_of(client.get(closure.get_absolute_url()))
    assert "Clôture de caisse — Maison des Enfants" in report
    assert "Espèces comptées 75,00 €" in report and "Écart 0,00 €" in report
    assert "Fond de caisse laissé 20,00 €" in report
    assert "Alex Tartempion" in report and "Chèque n° 11" in report
    after = text_of(client.get(reverse("ledger:till")))
    assert "Aucune écriture depuis la dernière clôture." in after
    assert "Fond de caisse au départ : 20,00 €" in after


@pytest.mark.django_db
def test_the_till_page_refuses_bad_input_with_a_message(client, staff_user):
    make_site()
    client.force_login(staff_user)
    response = client.post(reverse("ledger:till"), {"cash_counted": "beaucoup", "float_kept": "0"})
    assert response.status_code == 400
    assert "Saisissez un nombre." in text_of(response)
    response = client.post(reverse("ledger:till"), {"cash_counted": "5", "float_kept": "8"})
    assert response.status_code == 400
    assert "ne peut pas dépasser les espèces comptées" in text_of(response)
    assert not TillClosure.objects.exists()


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("site", "status"), [("abc", 200), ("²", 200), ("99999999999999999999", 200), ("999", 404)]
)
def test_a_bad_site_in_the_address_is_no_server_error(client, staff_user, site, status):
    make_site()
    client.force_login(staff_user)
    assert client.get(reverse("ledger:till"), {"site": site}).status_code == status


@pytest.mark.django_db
def test_the_till_is_for_staff_only(client, outsider):
    make_site()
    assert client.get(reverse("ledger:till")).status_code == 302
    client.force_login(outsider)
    assert client.get(reverse("ledger:till")).status_code == 403
    assert client.post(reverse("ledger:till"), {"cash_counted": "0"}).status_code == 403
    assert not TillClosure.objects.exists()


@pytest.mark.django_db
def test_an_entry_is_dated_when_recorded_never_in_the_future(family, staff_user):
    charge(family, "5.00", staff_user)
    with pytest.raises(ValidationError) as refused:
        pay(family, "5.00", staff_user, at=timezone.now() + datetime.timedelta(days=1))
    assert refused.value.messages == ["Une écriture ne peut pas être datée dans le futur."]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_till_closure_prints_on_a4_with_its_totals_and_entries(print_to_pdf, page, live_server, staff_user):
    site = make_site()
    family = make_member("M0001", "Alex Tartempion")
    _a_busy_afternoon(family, staff_user, site)
    closure = close(site, staff_user, counted="75.00")
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    pdf = print_to_pdf(live_server.url + closure.get_absolute_url())
    assert pdf_page_size_mm(pdf) == (210, 297)
    text = pdf_text(pdf)
    assert "Clôture de caisse — Maison des Enfants" in text
    assert "Alex Tartempion" in text and "Espèces comptées" in text
    assert "Comptabilité" not in text  # no desk navigation on paper
