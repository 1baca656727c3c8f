"""Copies between sites: the desk sends them (one copy, or a crate of many) and scans them in on arrival.

A line (`Transfer`) is opened when a copy must travel: the hold queue opens one for a family that
collects the game at another site (loans/desk.py, `_hold_serve_next`), a return at another site
opens one home (`copy_settle`, as the copy's site says), a clerk opens one by putting a copy in a
crate (`transfer_send`). From then on the copy is « en transit »: in exactly one place, the line's.
The desk it leaves sends it (a `Shipment`: who, when), the desk it reaches scans it in
(`transfer_receive`): a hold becomes ready there and its family is told at once (`loans/registry.py`,
the notices app listening); another copy goes back on that site's shelf, or on to its next family.

Locks, in the desk's order (loans/desk.py): each copy's game then the copy, copies in id order.
"""

from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy, Location
from ludotheque.answers import refuse as _refuse

from . import registry
from .desk import _elsewhere, _lock_game_and_copy, copy_settle, hold_make_ready
from .models import Hold, Loan, Shipment, Transfer
from .transit import transfer_open

# A crate holds a bounded number of copies: a longer list is refused before anything is locked.
MAX_SHIPMENT_COPIES = 200
# The statuses of copies a clerk may put in a crate (lendable or not, but on a shelf).
SENDABLE = [Copy.Status.ON_SHELF, Copy.Status.INCOMPLETE, Copy.Status.NOT_FOR_LOAN]


@dataclass(frozen=True)
class Arrival:
    """What the receiving desk must tell its clerk."""

    transfer: Transfer
    # The hold now ready here (its family told), or the next family's hold this copy now serves.
    hold: Hold | None = None
    # The copy's next journey, when it only passed through (home, or to another family's site).
    onward: Transfer | None = None


def _sendable_refusal(
    copy: Copy, line: Transfer | None, from_site: Location, to_site: Location
) -> str | None:
    """Why a locked copy cannot leave `from_site` for `to_site` now, or None."""
    if line is not None:
        if line.shipment_id is not None:
            return _("déjà en transit vers %(site)s") % {"site": line.to_site.name}
        if line.from_site_id != from_site.pk:
            return _("à envoyer depuis %(site)s") % {"site": line.from_site.name}
        if line.to_site_id != to_site.pk:
            return _("à envoyer à %(site)s") % {"site": line.to_site.name}
        return None
    if copy.location_id != from_site.pk:
        return _("rangé à %(site)s") % {"site": copy.location.name}
    if copy.status not in SENDABLE:
        return copy.get_status_display().lower()
    if Loan.objects.open().filter(copy=copy).exists():
        return _("en prêt")
    if Hold.objects.ready().filter(copy=copy).exists():
        return _("mis de côté pour une réservation")
    away = _elsewhere(copy)
    return str(away) if away else None


@transaction.atomic
def transfer_send(
    *,
    copies: list[Copy],
    from_site: Location,
    to_site: Location,
    staff: AbstractBaseUser,
    note: str = "",
) -> Shipment:
    """Send copies from `from_site` to `to_site` in one shipment: those waiting there to leave for
    `to_site` (a hold, a return home), and any other copy on that site's shelves (a crate for the
    ludobus). All or nothing: one copy that cannot go refuses the whole crate, naming each."""
    if from_site.pk == to_site.pk:
        _refuse(_("Choisissez un autre site que celui d'où part l'envoi."), code="same_site", on="to_site")
    if not copies:
        _refuse(_("Scannez au moins un exemplaire."), code="no_copy", on="barcodes")
    if len(copies) > MAX_SHIPMENT_COPIES:
        _refuse(
            _("Un envoi compte au plus %(count)s exemplaires."),
            code="too_many",
            on="barcodes",
            count=MAX_SHIPMENT_COPIES,
        )
    now = timezone.now()
    lines, refusals = [], []
    for copy_id in sorted({copy.pk for copy in copies}):
        copy = _lock_game_and_copy(copy_id)
        line = Transfer.objects.open().select_related("to_site", "from_site").filter(copy=copy).first()
        why = _sendable_refusal(copy, line, from_site, to_site)
        if why:
            refusals.append(f"{copy.barcode} (« {copy.game.title} ») : {why}")
            continue
        if line is None:
            line = transfer_open(
                copy=copy,
                from_site_id=from_site.pk,
                to_site_id=to_site.pk,
                reason=Transfer.Reason.MOVE,
                now=now,
            )
        lines.append(line)
    if refusals:
        raise ValidationError(
            {"barcodes": [ValidationError(refusal, code="not_sendable") for refusal in refusals]}
        )
    shipment = Shipment.objects.create(
        from_site=from_site, to_site=to_site, sent_at=now, sent_by=staff, note=note
    )
    Transfer.objects.filter(pk__in=[line.pk for line in lines]).update(shipment=shipment)
    return shipment


@transaction.atomic
def transfer_receive(*, copy: Copy, site: Location, staff: AbstractBaseUser) -> Arrival:
    """Scan in a copy arriving at `site`: its line is closed, the copy back in its status before it
    left; a hold it travelled for is ready here (and its family told once this commits); a copy sent
    to stay here is shelved here; any other goes on to the next family, or home."""
    copy = _lock_game_and_copy(copy.pk)
    line = (
        Transfer.objects.open()
        .select_for_update(of=("self",))
        .select_related("from_site", "to_site", "hold")
        .filter(copy=copy)
        .first()
    )
    if line is None:
        _refuse(
            _("« %(game)s » (%(barcode)s) n'est pas en transit."),
            code="not_in_transit",
            on="barcode",
            game=copy.game.title,
            barcode=copy.barcode,
        )
    if line.to_site_id != site.pk:
        _refuse(
            _("« %(game)s » (%(barcode)s) est attendu à %(site)s, pas ici."),
            code="wrong_site",
            on="barcode",
            game=copy.game.title,
            barcode=copy.barcode,
            site=line.to_site.name,
        )
    if line.shipment_id is None:
        _refuse(
            _(
                "« %(game)s » (%(barcode)s) n'a pas encore été envoyé par %(site)s : marquez-le envoyé là-bas."
            ),
            code="not_sent",
            on="barcode",
            game=copy.game.title,
            barcode=copy.barcode,
            site=line.from_site.name,
        )
    now = timezone.now()
    line.received_at = now
    line.received_by = staff
    line.save(update_fields=["received_at", "received_by"])
    copy.status = line.copy_status
    fields = ["status", "updated_at"]
    if line.reason == Transfer.Reason.MOVE:
        copy.location_id = site.pk
        fields.append("location")
    copy.save(update_fields=fields)
    hold = line.hold
    if hold is not None and hold.status == Hold.Status.TRANSIT and hold.copy_id == copy.pk:
        hold_make_ready(hold, site=site.pk, now=now)
        registry.hold_arrived(hold.pk)
        return Arrival(transfer=line, hold=hold)
    hold = copy_settle(copy=copy, site=site.pk, now=now, staff=staff)
    onward = Transfer.objects.open().select_related("to_site").filter(copy=copy).first()
    return Arrival(transfer=line, hold=hold, onward=onward)
