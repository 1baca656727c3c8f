"""Money read from the books is in cents on every database: the demo's first payment goes through as prefilled.

SQLite adds decimals as floats (a late fee of 1,80 € read back as 1,80000000000000, which the payment
form then refused as « pas plus de 9 chiffres »); run this file with DATABASE_URL=sqlite:///… too.
"""

import io
import re
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.urls import reverse

from ledger import reports
from ledger.models import Entry, Kind, member_balance
from members.models import Member
from tests.conftest import text_of

pytestmark = pytest.mark.django_db


@pytest.fixture
def demo(client):
    call_command("load_demo", "--force", stdout=io.StringIO())
    client.force_login(get_user_model().objects.get(username="benevole"))
    return client


def _form_fields(html: str, action: str) -> dict[str, str]:
    """The fields a browser would send from the form posting to `action`, as the page prefilled them."""
    form = re.search(rf'<form[^>]*action="{re.escape(action)}".*?</form>', html, flags=re.DOTALL)
    assert form, f"no form posting to {action}"
    fields = dict(re.findall(r'<input[^>]*name="([^"]+)"[^>]*value="([^"]*)"', form.group()))
    for name, options in re.findall(
        r'<select[^>]*name="([^"]+)"[^>]*>(.*?)</select>', form.group(), re.DOTALL
    ):
        chosen = re.search(r'<option value="([^"]*)"[^>]*selected', options) or re.search(
            r'<option value="([^"]+)"', options
        )
        fields[name] = chosen.group(1)
    return fields


def test_the_demo_family_page_prefills_the_late_fee_in_cents_and_encaisser_takes_it(demo):
    charlie = Member.objects.get(card_barcode="M0003")
    page = demo.get(charlie.get_absolute_url())
    assert "Doit 1,80 € à la ludothèque." in text_of(page)
    action = reverse("ledger:payment-create", args=[charlie.pk])
    fields = _form_fields(page.content.decode(), action)
    assert fields["amount"] == "1,80"

    paid = demo.post(action, fields)
    payment = Entry.objects.get(kind=Kind.PAYMENT)
    assert paid.status_code == 302 and paid["Location"] == reverse("ledger:receipt", args=[payment.pk])
    assert payment.amount == Decimal("1.80")
    assert Entry.objects.filter(member=charlie).balance() == Decimal("0.00")


def test_the_demo_family_till_prefills_in_cents(demo):
    charlie = Member.objects.get(card_barcode="M0003")
    page = demo.get(reverse("ledger:family", args=[charlie.pk]))
    fields = _form_fields(page.content.decode(), reverse("ledger:payment-create", args=[charlie.pk]))
    assert fields["amount"] == "1,80"


def test_every_sum_of_the_demo_books_is_in_cents(demo):
    sums = [
        Entry.objects.balance(),
        Entry.objects.deposit_total(),
        Member.objects.annotate(balance=member_balance()).get(card_barcode="M0003").balance,
        *[cell for totals in Entry.objects.till_totals().values() for cell in totals.values()],
        *[row["total"] for row in reports.revenue_by_month(Entry.objects.first().recorded_at.year)],
    ]
    assert [value.as_tuple().exponent for value in sums] == [-2] * len(sums)
    assert (Entry.objects.balance(), Entry.objects.deposit_total()) == (Decimal("1.80"), Decimal("50.00"))
    # What the pages show of them: the accounts and the deposits held.
    assert "50,00" in text_of(demo.get(reverse("ledger:deposit-list")))
    assert "1,80" in text_of(demo.get(reverse("ledger:reports")))
