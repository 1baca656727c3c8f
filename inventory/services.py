"""Stocktake writes: start, scan, close, and the two corrections a closed stocktake's report offers.

Scanning and closing lock the stocktake's row: scans from several devices follow each other (each
holds the lock for one short transaction) and no scan slips in after the close.
"""

from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.utils import timezone
from django.utils.translation import gettext as _

from catalogue.models import Copy, Location

from .models import Scan, Stocktake, StocktakeChange


def stocktake_start(*, location: Location | None, staff) -> Stocktake:
    """Open a stocktake of this site (None: every site); one at a time per site."""
    try:
        with transaction.atomic():
            return Stocktake.objects.create(location=location, started_by=staff)
    except IntegrityError:
        raise ValidationError(
            _("Un inventaire de ce site est déjà en cours : reprenez-le."), code="already_open"
        ) from None


def _lock_open(stocktake: Stocktake) -> Stocktake:
    stocktake = (
        Stocktake.objects.select_for_update(of=("self",)).select_related("location").get(pk=stocktake.pk)
    )
    if not stocktake.is_open:
        raise ValidationError(_("Cet inventaire est clos."), code="closed")
    return stocktake


@transaction.atomic
def scan_record(*, stocktake: Stocktake, barcode: str, staff) -> Scan:
    """Record one scan (a repeated one too: it is harmless) and the copy it names, if any."""
    stocktake = _lock_open(stocktake)
    copy = Copy.objects.select_related("game", "location").filter(barcode=barcode).first()
    return Scan.objects.create(stocktake=stocktake, barcode=barcode, copy=copy, scanned_by=staff)


@transaction.atomic
def stocktake_close(*, stocktake: Stocktake, staff) -> Stocktake:
    """End the scanning; the report then says what is missing, misplaced, unexpected or on loan."""
    stocktake = _lock_open(stocktake)
    stocktake.closed_at = timezone.now()
    stocktake.closed_by = staff
    stocktake.save(update_fields=["closed_at", "closed_by"])
    return stocktake


def _lock_closed(stocktake: Stocktake) -> Stocktake:
    stocktake = (
        Stocktake.objects.select_for_update(of=("self",)).select_related("location").get(pk=stocktake.pk)
    )
    if stocktake.is_open:
        raise ValidationError(_("Clôturez d'abord l'inventaire."), code="open")
    return stocktake


def _lock_copies(copies) -> list[int]:
    """Lock these copies (in id order, as the desk does); the caller reads them again under the lock,
    so that a copy lent or returned meanwhile is judged as it is now."""
    ids = list(copies.values_list("pk", flat=True))
    return list(
        Copy.objects.select_for_update().filter(pk__in=ids).order_by("pk").values_list("pk", flat=True)
    )


@transaction.atomic
def stocktake_mark_missing_lost(*, stocktake: Stocktake, staff) -> int:
    """Mark « lost » every copy still missing, each change recorded with the stocktake; returns how many."""
    stocktake = _lock_closed(stocktake)
    locked = _lock_copies(stocktake.missing_copies())
    copies = list(stocktake.missing_copies().filter(pk__in=locked).order_by("pk"))
    StocktakeChange.objects.bulk_create(
        StocktakeChange(
            stocktake=stocktake,
            copy=copy,
            kind=StocktakeChange.Kind.LOST,
            before=copy.get_status_display(),
            after=Copy.Status.LOST.label,
            made_by=staff,
        )
        for copy in copies
    )
    Copy.objects.filter(pk__in=[copy.pk for copy in copies]).update(
        status=Copy.Status.LOST, withdrawn_on=timezone.localdate(), updated_at=timezone.now()
    )
    return len(copies)


@transaction.atomic
def stocktake_move_misplaced(*, stocktake: Stocktake, staff) -> int:
    """Move every copy scanned here but recorded elsewhere to this site; returns how many."""
    stocktake = _lock_closed(stocktake)
    if stocktake.location is None:
        return 0
    locked = _lock_copies(stocktake.misplaced_copies())
    copies = list(
        stocktake.misplaced_copies().filter(pk__in=locked).select_related("location").order_by("pk")
    )
    StocktakeChange.objects.bulk_create(
        StocktakeChange(
            stocktake=stocktake,
            copy=copy,
            kind=StocktakeChange.Kind.MOVED,
            before=copy.location.name,
            after=stocktake.location.name,
            made_by=staff,
        )
        for copy in copies
    )
    Copy.objects.filter(pk__in=[copy.pk for copy in copies]).update(
        location=stocktake.location, updated_at=timezone.now()
    )
    return len(copies)
