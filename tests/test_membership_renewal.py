"""Renewing a family's membership at the desk: the new period, its price charged, paid now or owed."""

import datetime
from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse
from django.utils import timezone

from ledger import services
from ledger.models import Entry, Kind, Membership
from loans import services as loans_services
from tests.conftest import text_of
from tests.ledger_helpers import charge, make_site, owed
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 3, 10)


@pytest.fixture
def yearly(db):
    return make_membership_type(name="Famille (1 an)", duration_days=365, price=Decimal("25.00"))


def expired_family(membership_type, ended: datetime.date = TODAY - datetime.timedelta(days=40)):
    return make_member(
        "M0004",
        "Dominique Chose",
        membership_type=membership_type,
        start=ended - datetime.timedelta(days=364),
        expiry=ended,
    )


def renew(member, membership_type, staff, **more) -> services.Renewal:
    return services.membership_renew(
        member=member, membership_type=membership_type, staff=staff, site=make_site(), **more
    )


def test_an_expired_membership_starts_again_today_and_its_price_is_owed(yearly, staff_user):
    family = expired_family(yearly)
    renewal = renew(family, yearly, staff_user, today=TODAY)
    family.refresh_from_db()
    assert (family.membership_start, family.membership_expiry) == (TODAY, datetime.date(2027, 3, 9))
    assert family.membership_is_valid(TODAY)
    membership = Membership.objects.get()
    assert membership == renewal.membership and renewal.payment is None
    assert (membership.start, membership.end, membership.price) == (
        TODAY,
        datetime.date(2027, 3, 9),
        Decimal("25"),
    )
    assert (membership.charge.kind, membership.charge.amount) == (Kind.MEMBERSHIP, Decimal("25.00"))
    assert membership.charge.note == "Famille (1 an) du 10/03/2026 au 09/03/2027"
    assert owed(family) == Decimal("25.00")


def test_a_membership_renewed_before_it_ends_follows_on_and_stays_valid_meanwhile(yearly, staff_user):
    ends = TODAY + datetime.timedelta(days=20)
    family = make_member(
        "M0001", membership_type=yearly, start=ends - datetime.timedelta(days=364), expiry=ends
    )
    renew(family, yearly, staff_user, today=TODAY)
    family.refresh_from_db()
    assert family.membership_expiry == ends + datetime.timedelta(days=365)
    assert family.membership_start == ends - datetime.timedelta(days=364)
    assert family.membership_is_valid(TODAY)
    assert Membership.objects.get().start == ends + datetime.timedelta(days=1)


def test_a_first_membership_records_and_charges_the_period_registered_in_the_admin(yearly, staff_user):
    ends = TODAY + datetime.timedelta(days=364)
    family = make_member("M0001", membership_type=yearly, start=TODAY, expiry=ends)
    renewal = renew(family, yearly, staff_user, method="cash", today=TODAY)
    assert (renewal.membership.start, renewal.membership.end) == (TODAY, ends)
    family.refresh_from_db()
    assert (family.membership_start, family.membership_expiry) == (TODAY, ends)
    assert renewal.payment.amount == Decimal("25.00") and owed(family) == Decimal("0.00")


def test_it_refuses_to_renew_a_membership_that_runs_for_months_yet(yearly, staff_user):
    family = make_member(
        "M0001", membership_type=yearly, start=TODAY, expiry=TODAY + datetime.timedelta(days=364)
    )
    renew(family, yearly, staff_user, today=TODAY)
    with pytest.raises(ValidationError) as refused:
        renew(family, yearly, staff_user, today=TODAY)
    assert refused.value.code == "renewal_too_early"
    assert refused.value.messages == [
        "L'adhésion de Alex Tartempion court jusqu'au 09/03/2027 : elle se renouvelle au plus tôt "
        "60 jours avant son terme."
    ]
    assert Membership.objects.count() == 1 and owed(family) == Decimal("25.00")


def test_renewing_twice_by_mistake_is_refused_the_second_time(yearly, staff_user):
    family = expired_family(yearly)
    renew(family, yearly, staff_user, today=TODAY)
    with pytest.raises(ValidationError):
        renew(family, yearly, staff_user, today=TODAY)
    assert Membership.objects.count() == 1 and owed(family) == Decimal("25.00")


def test_paid_at_once_the_renewal_takes_the_payment_with_its_receipt(yearly, staff_user):
    family = expired_family(yearly)
    renewal = renew(family, yearly, staff_user, method="cheque", cheque_number="555", today=TODAY)
    payment = renewal.payment
    assert (payment.kind, payment.amount, payment.method, payment.cheque_number) == (
        Kind.PAYMENT,
        Decimal("25.00"),
        "cheque",
        "555",
    )
    assert payment.receipt_number == 1
    assert owed(family) == Decimal("0.00")


def test_a_family_with_a_credit_pays_only_the_rest(yearly, staff_user):
    family = expired_family(yearly)
    mistake = charge(family, "10.00", staff_user)
    loans_pay = services.payment_create(
        member=family, amount=Decimal("10.00"), method="cash", staff=staff_user, site=make_site()
    )
    services.entry_reverse(entry=mistake, staff=staff_user, site=make_site(), note="Erreur")
    assert loans_pay and owed(family) == Decimal("-10.00")
    renewal = renew(family, yearly, staff_user, method="cash", today=TODAY)
    assert renewal.payment.amount == Decimal("15.00") and owed(family) == Decimal("0.00")


def test_a_free_membership_type_charges_nothing_and_is_still_recorded(staff_user):
    free = make_membership_type(name="Partenaire", price=Decimal("0"))
    family = expired_family(free)
    renewal = renew(family, free, staff_user, method="cash", today=TODAY)
    assert renewal.payment is None and renewal.membership.charge is None
    assert not Entry.objects.exists()


def test_the_renewal_can_change_the_membership_type(yearly, staff_user):
    trial = make_membership_type(name="Découverte (3 mois)", duration_days=90, price=Decimal("8.00"))
    family = expired_family(yearly)
    renew(family, trial, staff_user, today=TODAY)
    family.refresh_from_db()
    assert family.membership_type == trial
    assert family.membership_expiry == TODAY + datetime.timedelta(days=89)
    assert owed(family) == Decimal("8.00")


def test_the_expired_family_page_offers_the_renewal_instead_of_a_dead_end(client, yearly, staff_user):
    family = expired_family(yearly, ended=timezone.localdate() - datetime.timedelta(days=40))
    client.force_login(staff_user)
    response = client.get(family.get_absolute_url())
    assert "Pour prêter ou réserver, renouvelez d'abord l'adhésion." in text_of(response)
    assert reverse("ledger:membership-renew", args=[family.pk]) in response.content.decode()


def test_the_desk_renews_and_the_family_may_borrow_again(client, yearly, staff_user):
    family = expired_family(yearly, ended=timezone.localdate() - datetime.timedelta(days=40))
    copy = make_copy(make_game("Quarto"), "90468")
    client.force_login(staff_user)
    url = reverse("ledger:membership-renew", args=[family.pk])
    page = text_of(client.get(url))
    assert f"La nouvelle adhésion commence le {timezone.localdate():%d/%m/%Y}" in page
    assert "Famille (1 an)" in page and "25,00 €" in page
    response = client.post(url, {"membership_type": yearly.pk, "method": "", "site": make_site().pk})
    assert response.status_code == 302 and response["Location"] == family.get_absolute_url()
    text = text_of(client.get(response["Location"]))
    assert "Adhésion de Dominique Chose renouvelée : « Famille (1 an) »" in text
    assert "Reste dû : 25,00 €." in text
    assert loans_services.loan_create(copy=copy, member=family, staff=staff_user)


def test_the_desk_renewal_paid_now_shows_the_receipt(client, yearly, staff_user):
    family = expired_family(yearly, ended=timezone.localdate() - datetime.timedelta(days=40))
    client.force_login(staff_user)
    response = client.post(
        reverse("ledger:membership-renew", args=[family.pk]),
        {"membership_type": yearly.pk, "method": "cash", "site": make_site().pk},
    )
    payment = Entry.objects.get(kind=Kind.PAYMENT)
    assert response["Location"] == reverse("ledger:receipt", args=[payment.pk])


def test_the_desk_renewal_refuses_bad_input_with_a_message(client, yearly, staff_user):
    family = expired_family(yearly, ended=timezone.localdate() - datetime.timedelta(days=40))
    client.force_login(staff_user)
    url = reverse("ledger:membership-renew", args=[family.pk])
    response = client.post(url, {"membership_type": yearly.pk, "method": "cheque", "site": make_site().pk})
    assert response.status_code == 400 and "Indiquez le numéro du chèque." in text_of(response)
    response = client.post(url, {"membership_type": "999", "method": "", "site": make_site().pk})
    assert response.status_code == 400
    assert not Membership.objects.exists()


def test_renewal_is_for_staff_only(client, yearly, outsider):
    family = expired_family(yearly)
    url = reverse("ledger:membership-renew", args=[family.pk])
    client.force_login(outsider)
    assert client.post(url, {"membership_type": yearly.pk, "site": make_site().pk}).status_code == 403
    assert not Membership.objects.exists()
