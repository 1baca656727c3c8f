"""Deposits (cautions): received with a receipt, held, then returned to the family or cashed; each step an entry."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.urls import reverse

from ledger import services
from ledger.models import Entry, Kind
from tests.conftest import text_of
from tests.ledger_helpers import charge, make_site, owed
from tests.loan_helpers import make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(db):
    return make_member("M0001", "Alex Tartempion")


def receive(family, staff, amount: str = "50.00", method: str = "cheque", number: str = "0012345") -> Entry:
    return services.deposit_receive(
        member=family,
        amount=Decimal(amount),
        method=method,
        cheque_number=number,
        staff=staff,
        site=make_site(),
    )


def held(family) -> list[Entry]:
    return list(Entry.objects.filter(member=family).deposits_held())


def test_a_deposit_received_is_held_with_a_receipt_and_owes_nothing(family, staff_user):
    deposit = receive(family, staff_user)
    assert held(family) == [deposit]
    assert deposit.receipt_number == 1 and deposit.cheque_number == "0012345"
    assert Entry.objects.filter(member=family).deposit_total() == Decimal("50.00")
    assert owed(family) == Decimal("0.00")


def test_a_deposit_returned_is_no_longer_held(family, staff_user):
    deposit = receive(family, staff_user)
    returned = services.deposit_return(deposit=deposit, staff=staff_user, site=make_site())
    assert (returned.kind, returned.amount, returned.deposit, returned.cheque_number) == (
        Kind.DEPOSIT_RETURNED,
        Decimal("50.00"),
        deposit,
        "0012345",
    )
    assert held(family) == [] and owed(family) == Decimal("0.00")
    assert Entry.objects.filter(member=family).deposit_total() == Decimal("0.00")


def test_a_deposit_cashed_pays_what_the_family_owes_and_the_rest_is_its_credit(family, staff_user):
    deposit = receive(family, staff_user)
    charge(family, "39.90", staff_user, kind=Kind.LOST_GAME, note="7 Wonders (91233)")
    services.deposit_cash(deposit=deposit, staff=staff_user, site=make_site(), note="Jeu perdu non payé")
    assert held(family) == []
    assert owed(family) == Decimal("-10.10")


def test_a_deposit_is_settled_once(family, staff_user):
    deposit = receive(family, staff_user)
    services.deposit_return(deposit=deposit, staff=staff_user, site=make_site())
    for settle in (services.deposit_return, services.deposit_cash):
        with pytest.raises(ValidationError) as refused:
            settle(deposit=deposit, staff=staff_user, site=make_site())
        assert refused.value.messages == ["Cette caution a déjà été rendue ou encaissée."]
        assert refused.value.code == "deposit_settled"
    assert Entry.objects.filter(member=family).count() == 2


def test_a_return_reversed_puts_the_deposit_back_in_the_drawer(family, staff_user):
    deposit = receive(family, staff_user)
    returned = services.deposit_return(deposit=deposit, staff=staff_user, site=make_site())
    services.entry_reverse(entry=returned, staff=staff_user, site=make_site(), note="Pas la bonne famille")
    assert held(family) == [deposit]
    services.deposit_cash(deposit=deposit, staff=staff_user, site=make_site())
    assert held(family) == []


def test_a_settled_deposit_cannot_be_reversed_and_a_reversed_one_cannot_be_settled(family, staff_user):
    settled = receive(family, staff_user)
    services.deposit_return(deposit=settled, staff=staff_user, site=make_site())
    with pytest.raises(ValidationError) as refused:
        services.entry_reverse(entry=settled, staff=staff_user, site=make_site(), note="Erreur")
    assert refused.value.code == "deposit_settled"
    typo = receive(family, staff_user, amount="500.00")
    services.entry_reverse(entry=typo, staff=staff_user, site=make_site(), note="500 au lieu de 50")
    assert held(family) == []
    with pytest.raises(ValidationError) as refused:
        services.deposit_return(deposit=typo, staff=staff_user, site=make_site())
    assert refused.value.messages == ["Cette caution a été annulée."]


def test_only_a_deposit_received_can_be_returned(family, staff_user):
    fee = charge(family, "5.00", staff_user)
    with pytest.raises(ValidationError) as refused:
        services.deposit_return(deposit=fee, staff=staff_user, site=make_site())
    assert refused.value.code == "not_a_deposit"


def test_the_desk_lists_the_deposits_held_and_returns_one(client, family, staff_user):
    other = make_member("M0002", "Sam Bidule")
    kept = receive(family, staff_user)
    returned = receive(other, staff_user, amount="20.00", method="cash", number="")
    services.deposit_return(deposit=returned, staff=staff_user, site=make_site())
    client.force_login(staff_user)
    text = text_of(client.get(reverse("ledger:deposit-list")))
    assert "1 caution, 50,00 € en tout." in text
    assert "Alex Tartempion" in text and "Chèque n° 0012345" in text and "Sam Bidule" not in text

    response = client.post(
        reverse("ledger:deposit-return", args=[kept.pk]),
        {"site": make_site().pk, "next": reverse("ledger:deposit-list")},
    )
    assert response.status_code == 302 and response["Location"] == reverse("ledger:deposit-list")
    assert held(family) == []
    assert "Aucune caution détenue." in text_of(client.get(reverse("ledger:deposit-list")))


def test_the_desk_receives_a_deposit_and_shows_its_receipt(client, family, staff_user):
    client.force_login(staff_user)
    response = client.post(
        reverse("ledger:deposit-receive", args=[family.pk]),
        {
            "deposit-amount": "50,00",
            "deposit-method": "cheque",
            "deposit-cheque_number": "0012345",
            "deposit-site": make_site().pk,
        },
    )
    deposit = Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED)
    assert response["Location"] == reverse("ledger:receipt", args=[deposit.pk])
    assert "Caution" in text_of(client.get(response["Location"]))
    assert "Caution détenue : 50,00 €." in text_of(client.get(family.get_absolute_url()))


def test_a_deposit_by_cheque_without_its_number_is_refused_on_the_field(client, family, staff_user):
    client.force_login(staff_user)
    response = client.post(
        reverse("ledger:deposit-receive", args=[family.pk]),
        {
            "deposit-amount": "50",
            "deposit-method": "cheque",
            "deposit-cheque_number": "",
            "deposit-site": make_site().pk,
        },
    )
    assert response.status_code == 400
    assert "Indiquez le numéro du chèque." in text_of(response)
    assert not Entry.objects.exists()


def test_deposit_actions_refuse_the_wrong_method_and_outsiders(client, family, staff_user, outsider):
    deposit = receive(family, staff_user)
    url = reverse("ledger:deposit-cash", args=[deposit.pk])
    client.force_login(outsider)
    assert client.post(url, {"site": make_site().pk}).status_code == 403
    client.force_login(staff_user)
    assert client.get(url).status_code == 405
    assert held(family) == [deposit]
