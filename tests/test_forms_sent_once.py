"""A desk form is acted on once: the same form posted again (a double click, a page sent twice) gets the
first post's answer, never a second deposit, receipt, till closure or renewal."""

import re
import uuid
from decimal import Decimal

import pytest
from django.test import Client
from django.urls import reverse

from ledger.models import Entry, Kind, TillClosure
from loans import services
from loans.models import Loan
from once.models import Submission
from tests.conftest import text_of
from tests.ledger_helpers import charge, make_site, owed
from tests.loan_helpers import (
    make_copy,
    make_family_user,
    make_game,
    make_member,
    make_membership_type,
    run_at_once,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def family(db):
    return make_member("M0001", "Alex Tartempion")


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def token_in(page: str, name: str = "once") -> str:
    """The one-time token a rendered form carries."""
    return re.search(rf'name="{name}" value="([0-9a-f-]+)"', page).group(1)


def test_three_identical_deposit_posts_make_one_deposit_and_one_receipt(desk, family):
    page = desk.get(reverse("ledger:family", args=[family.pk])).content.decode()
    form = {
        "deposit-amount": "20,00",
        "deposit-method": "cash",
        "deposit-site": make_site().pk,
        "deposit-once": token_in(page, "deposit-once"),
    }
    answers = [desk.post(reverse("ledger:deposit-receive", args=[family.pk]), form) for _ in range(3)]
    deposit = Entry.objects.get()
    assert (deposit.kind, deposit.amount, deposit.receipt_number) == (
        Kind.DEPOSIT_RECEIVED,
        Decimal("20.00"),
        1,
    )
    receipt = reverse("ledger:receipt", args=[deposit.pk])
    assert [answer["Location"] for answer in answers] == [receipt] * 3
    again = text_of(desk.get(receipt))
    assert "Ce formulaire était déjà envoyé : rien n'a été enregistré une deuxième fois." in again


def test_five_till_closing_posts_make_one_closure(desk, family, staff_user):
    site = make_site()
    charge(family, "90.00", staff_user)
    desk.post(
        reverse("ledger:payment-create", args=[family.pk]),
        {"amount": "90", "method": "cash", "site": site.pk},
    )
    page = desk.get(reverse("ledger:till"), {"site": site.pk}).content.decode()
    form = {"cash_counted": "90,00", "float_kept": "0", "once": token_in(page)}
    answers = [desk.post(reverse("ledger:till") + f"?site={site.pk}", form) for _ in range(5)]
    closure = TillClosure.objects.get()
    assert closure.difference == Decimal("0.00")
    assert {answer["Location"] for answer in answers} == {closure.get_absolute_url()}


def test_a_refused_post_leaves_its_form_free_to_send_again_corrected(desk, family, staff_user):
    charge(family, "5.00", staff_user)
    token = str(uuid.uuid4())
    url = reverse("ledger:payment-create", args=[family.pk])
    refused = desk.post(url, {"amount": "50", "method": "cash", "site": make_site().pk, "once": token})
    assert refused.status_code == 400 and token_in(refused.content.decode()) == token
    assert not Submission.objects.exists()
    taken = desk.post(url, {"amount": "5", "method": "cash", "site": make_site().pk, "once": token})
    assert taken.status_code == 302 and owed(family) == Decimal("0.00")
    assert Entry.objects.filter(kind=Kind.PAYMENT).count() == 1


def test_every_money_form_of_the_family_pages_carries_its_own_token(desk, family, staff_user):
    charge(family, "5.00", staff_user)
    ledger_page = desk.get(reverse("ledger:family", args=[family.pk])).content.decode()
    tokens = re.findall(r'name="(?:[a-z]+-)?once" value="([0-9a-f-]+)"', ledger_page)
    assert len(tokens) == 3 and len(set(tokens)) == 3  # a payment, a charge, a deposit
    desk_page = desk.get(family.get_absolute_url()).content.decode()
    assert token_in(desk_page) not in tokens


def test_a_renewal_posted_twice_renews_once(desk, staff_user):
    member = make_member("M0002", membership_type=make_membership_type(renewals_allowed=3))
    loan = services.loan_create(copy=make_copy(make_game("Quarto"), "91001"), member=member, staff=staff_user)
    page = desk.get(member.get_absolute_url()).content.decode()
    token = token_in(page)
    for _ in range(2):
        desk.post(reverse("loans:loan-renew", args=[loan.pk]), {"once": token})
    assert Loan.objects.get(pk=loan.pk).renewals == 1


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # two posts at once wait for each other on the token's row
def test_the_same_deposit_posted_by_two_tabs_at_once_is_made_once(staff_user):
    family = make_member("M0001", "Alex Tartempion")
    form = {"deposit-amount": "20", "deposit-method": "cash", "deposit-site": make_site().pk}
    form["deposit-once"] = str(uuid.uuid4())

    def post():
        client = Client()
        client.force_login(staff_user)
        return client.post(reverse("ledger:deposit-receive", args=[family.pk]), form).status_code

    assert run_at_once([post, post, post]) == [302, 302, 302]
    assert Entry.objects.count() == 1


def test_a_family_counted_twice_by_a_double_click_comes_once(desk, staff_user):
    from django.utils import timezone

    from onsite.models import Play, Session, Visit

    session = Session.objects.create(location=make_site(), opened_by=staff_user, opened_at=timezone.now())
    page = desk.get(session.get_absolute_url()).content.decode()
    visit = {"non_member": "on", "children": "2", "adults": "1", "once": token_in(page)}
    for _ in range(2):
        desk.post(reverse("onsite:visit-create", args=[session.pk]), visit)
    assert Visit.objects.count() == 1
    play = {
        "session": session.pk,
        "game": make_game("Quarto").pk,
        "source": "score_pad",
        "players": "3",
        "once": str(uuid.uuid4()),
    }
    for _ in range(2):
        desk.post(reverse("onsite:play-create"), play)
    assert Play.objects.count() == 1


def test_a_family_renewing_from_its_account_twice_renews_once(client, staff_user):
    member = make_member(
        "M0003", membership_type=make_membership_type(renewals_allowed=3), user=make_family_user()
    )
    loan = services.loan_create(copy=make_copy(make_game("Quarto"), "91002"), member=member, staff=staff_user)
    client.force_login(member.user)
    token = token_in(client.get(reverse("loans:account")).content.decode())
    for _ in range(2):
        client.post(reverse("loans:account-loan-renew", args=[loan.pk]), {"once": token})
    assert Loan.objects.get(pk=loan.pk).renewals == 1
