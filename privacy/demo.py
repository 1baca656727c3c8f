"""Demo history: a game the Tartempion family borrowed 30 months ago, anonymised by the daily step.

Runs after the loans and notices demos (INSTALLED_APPS order). Safe to run again: once an anonymised
loan exists, it does nothing.
"""

import datetime

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan
from members.demo import STAFF_USERNAME
from members.models import Member

from .services import history_anonymise, months_before


def load(*, stdout) -> None:
    if Loan.objects.filter(member__isnull=True).exists():
        return
    family = Member.objects.filter(card_barcode="M0001").first()
    staff = get_user_model().objects.filter(username=STAFF_USERNAME).first()
    waited_for = Hold.objects.active().values("game")
    copy = Copy.objects.available().exclude(game__in=waited_for).order_by("barcode").first()
    if family is None or staff is None or copy is None:
        return
    try:
        loan = services.loan_create(copy=copy, member=family, staff=staff)
    except ValidationError as refusal:
        stdout.write(f"  demo history skipped ({' '.join(refusal.messages)})")
        return
    services.loan_return(loan=loan, staff=staff)
    today = timezone.localdate()
    lent = timezone.make_aware(datetime.datetime.combine(months_before(today, 30), datetime.time(15)))
    Loan.objects.filter(pk=loan.pk).update(
        lent_at=lent,
        due_on=(lent + datetime.timedelta(days=21)).date(),
        returned_at=lent + datetime.timedelta(days=20),
    )
    stdout.write(f"  {history_anonymise(today=today)}")
