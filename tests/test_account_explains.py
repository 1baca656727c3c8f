"""A family's account explains itself: why a game cannot be renewed, a late fee building up, « en
retard depuis le … » rather than a return date gone by (on the game page too)."""

import datetime
from decimal import Decimal

import pytest
from django.urls import reverse
from django.utils import timezone

from loans import services
from opening.schedule import weekday_date
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


def lend(staff_user, member, title: str, *, days_late: int = 0, renewals: int = 0):
    game = make_game(title)
    loan = services.loan_create(copy=make_copy(game, title[:3].upper()), member=member, staff=staff_user)
    if days_late:
        loan.due_on = timezone.localdate() - datetime.timedelta(days=days_late)
    loan.renewals = renewals
    loan.save(update_fields=["due_on", "renewals"])
    return loan


def account_text(client, member) -> str:
    client.force_login(member.user)
    return text_of(client.get(reverse("loans:account"))).replace("\u202f", " ").replace("\xa0", " ")


@pytest.fixture
def yearly():
    return make_membership_type(
        renewals_allowed=1, loan_quota=6, late_fee_per_day=Decimal("0.20"), late_fee_cap=Decimal("5.00")
    )


@pytest.fixture
def alex(yearly):
    return make_member("M0001", "Alex Tartempion", membership_type=yearly, user=make_family_user())


def test_the_account_says_why_a_game_cannot_be_renewed(client, staff_user, alex):
    lend(staff_user, alex, "Biblios", renewals=1)
    waited_for = lend(staff_user, alex, "Catane")
    services.hold_create(
        game=waited_for.copy.game, member=make_member("M0002", "Sam Bidule"), staff=staff_user
    )
    lend(staff_user, alex, "Quarto")
    text = account_text(client, alex)
    assert "« Biblios » a déjà été prolongé 1 fois : c'est le maximum de l'adhésion" in text
    assert "« Catane » est réservé par une autre famille : le prêt ne peut pas être prolongé." in text
    # Quarto can be renewed: its button, no reason.
    html = client.get(reverse("loans:account")).content.decode()
    assert html.count('class="renew-form"') == 1 and "Prolonger « Quarto »" in html


def test_a_membership_without_renewals_or_expired_says_so(client, staff_user):
    trial = make_membership_type(name="Découverte", renewals_allowed=0)
    sam = make_member("M0002", "Sam Bidule", membership_type=trial, user=make_family_user("sam"))
    lend(staff_user, sam, "Quarto")
    assert "L'adhésion « Découverte » ne permet pas de prolonger un prêt." in account_text(client, sam)
    sam.membership_expiry = timezone.localdate() - datetime.timedelta(days=1)
    sam.save()
    assert "Adhésion expirée : renouvelez-la au comptoir pour prolonger vos prêts." in account_text(
        client, sam
    )


def test_a_late_game_says_since_when_and_its_fee_building_up(client, staff_user, alex):
    late = lend(staff_user, alex, "Quarto", days_late=9)
    lend(staff_user, alex, "Catane", days_late=40)
    text = account_text(client, alex)
    since = weekday_date(late.due_on + datetime.timedelta(days=1))
    assert f"en retard depuis le {since}" in text
    assert weekday_date(late.due_on) not in text
    assert (
        "Frais de retard : 1,80 € à ce jour, 0,20 € de plus par jour jusqu'au retour (5,00 € au plus)."
        in text
    )
    assert "Frais de retard : 5,00 € (le plafond : ils n'augmentent plus)." in text
    # The fee the account shows is the one the return will propose.
    assert services.late_fee_due(late, alex.membership_type) == Decimal("1.80")


def test_a_late_game_without_late_fees_shows_no_fee(client, staff_user):
    free = make_member("M0003", "Charlie Machin", user=make_family_user("charlie"))
    lend(staff_user, free, "Quarto", days_late=3)
    text = account_text(client, free)
    assert "en retard depuis le" in text and "Frais de retard" not in text


def test_the_game_page_says_since_when_its_copies_are_late(client, staff_user, alex):
    loan = lend(staff_user, alex, "Quarto", days_late=4)
    text = text_of(client.get(loan.copy.game.get_absolute_url()))
    since = loan.due_on + datetime.timedelta(days=1)
    assert f"Tous sortis — en retard depuis le {since:%d/%m}" in text
    assert f"En prêt, en retard depuis le {since:%d/%m/%Y}" in text
    assert "retour prévu le" not in text
    on_time = lend(staff_user, alex, "Biblios")
    text = text_of(client.get(on_time.copy.game.get_absolute_url()))
    assert f"Tous sortis — retour prévu le {on_time.due_on:%d/%m}" in text
