"""The ludothèque's own money spent: an expense is an entry without a family (kind `expense`).

The ledger is the families' book; the ludothèque's own money appears in it only as what it spends on a
copy (a repair it pays for: the repairs app calls this). An expense changes no family's balance and is
not cash through the till (it has no method); like every entry it is never edited or deleted, and a
mistake is reversed (services.entry_reverse).
"""

import datetime
from decimal import Decimal

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from catalogue.models import Location

from .models import Entry, Kind
from .services import _check_amount, _record, _refuse


@transaction.atomic
def expense_create(
    *,
    amount: Decimal,
    staff: AbstractBaseUser,
    site: Location | int,
    note: str,
    copy=None,
    at: datetime.datetime | None = None,
) -> Entry:
    """Record money the ludothèque spends itself (a repair it pays for): no family's balance changes, nor
    the till's cash; a mistake is reversed like any entry (entry_reverse)."""
    _check_amount(amount)
    if not note.strip():
        _refuse(_("Dites ce que cette dépense paie."), code="note_required", on="note")
    return _record(
        site=site,
        at=at,
        member=None,
        kind=Kind.EXPENSE,
        amount=amount,
        clerk=staff,
        copy=copy,
        note=note.strip(),
    )
