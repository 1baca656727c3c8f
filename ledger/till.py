"""The till of a site: its closures, their reversals, and the writes that close it or reverse a closure.

A site's till period runs from its previous closure (excluded) to now; *Clôturer* records the cash
counted against the cash expected. A closure is history like an entry (never changed or deleted; the
database refuses it, migrations 0002 and 0005): one that should not have been made (a double click
closed the till twice) is corrected by a reversal, with its reason. A reversed closure no longer
stands: its difference is struck out, and the next period opens with the float of the last closure
that stands. Its period stays closed (new entries are dated now, after it) and is not counted again.

Like ledger/services.py, each write is one transaction that locks the site's row first.
"""

import datetime
from decimal import Decimal

from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import models, transaction
from django.db.models import F, Q
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Location
from ludotheque.answers import refuse as _refuse

from .models import (
    BEYOND_MONEY,
    MONEY,
    ZERO,
    AppendOnlyModel,
    AppendOnlyQuerySet,
    Entry,
    EntryQuerySet,
    Method,
    money_sum,
    till_effect,
)


class TillClosureQuerySet(AppendOnlyQuerySet):
    def standing(self) -> "TillClosureQuerySet":
        """The closures no reversal struck out."""
        return self.filter(reversal__isnull=True)


class TillClosure(AppendOnlyModel):
    """The till of a site closed: the period since its previous closure, its totals and the cash counted.

    A site's till period runs from its previous closure (excluded) to this one (included); entries
    recorded later fall into the next period, and none can be recorded into a closed one.
    """

    site = models.ForeignKey(
        "catalogue.Location", on_delete=models.PROTECT, related_name="till_closures", verbose_name=_("site")
    )
    opened_after = models.DateTimeField(_("période ouverte après"), null=True, blank=True)
    closed_at = models.DateTimeField(_("clôturée le"), default=timezone.now)
    closed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("clôturée par")
    )
    opening_float = models.DecimalField(_("fond de caisse au départ (€)"), **MONEY, default=ZERO)
    cash_expected = models.DecimalField(_("espèces attendues (€)"), **MONEY)
    cash_counted = models.DecimalField(_("espèces comptées (€)"), **MONEY)
    difference = models.GeneratedField(
        expression=F("cash_counted") - F("cash_expected"),
        output_field=models.DecimalField(**MONEY),
        db_persist=True,
        verbose_name=_("écart (€)"),
    )
    float_kept = models.DecimalField(_("fond de caisse laissé (€)"), **MONEY, default=ZERO)
    note = models.CharField(_("note"), max_length=200, blank=True)

    objects = TillClosureQuerySet.as_manager()

    class Meta:
        ordering = ["-closed_at", "-pk"]
        get_latest_by = "closed_at"
        verbose_name = _("clôture de caisse")
        verbose_name_plural = _("clôtures de caisse")
        constraints = [
            # Each period is closed once: one first closure per site, then one after each closure.
            models.UniqueConstraint(
                fields=["site"],
                condition=Q(opened_after__isnull=True),
                name="ledger_tillclosure_one_first_per_site",
                violation_error_message=_("La caisse de ce site a déjà été clôturée."),
            ),
            models.UniqueConstraint(
                fields=["site", "opened_after"],
                name="ledger_tillclosure_one_per_period",
                violation_error_message=_("Cette période de caisse est déjà clôturée."),
            ),
            models.CheckConstraint(
                condition=Q(opened_after__isnull=True) | Q(opened_after__lt=F("closed_at")),
                name="ledger_tillclosure_period_forward",
                violation_error_message=_("Une période de caisse finit après avoir commencé."),
            ),
            models.CheckConstraint(
                condition=Q(cash_counted__gte=0, float_kept__gte=0, opening_float__gte=0)
                & Q(float_kept__lte=F("cash_counted"))
                & Q(cash_counted__lt=BEYOND_MONEY, opening_float__lt=BEYOND_MONEY)
                & Q(cash_expected__lt=BEYOND_MONEY, cash_expected__gt=-BEYOND_MONEY),
                name="ledger_tillclosure_cash_amounts",
                violation_error_message=_(
                    "Les espèces comptées et le fond de caisse sont positifs ; on ne laisse pas plus "
                    "que ce qu'on a compté."
                ),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.site} — {timezone.localtime(self.closed_at):%Y-%m-%d %H:%M}"

    def get_absolute_url(self) -> str:
        return reverse("ledger:till-closure", kwargs={"pk": self.pk})

    def entries(self) -> EntryQuerySet:
        return Entry.objects.in_period(site=self.site_id, after=self.opened_after, until=self.closed_at)


class TillClosureReversal(AppendOnlyModel):
    """A till closure struck out, by whom, when and why (it stays, marked, with its figures)."""

    closure = models.OneToOneField(
        TillClosure, on_delete=models.PROTECT, related_name="reversal", verbose_name=_("clôture annulée")
    )
    reversed_at = models.DateTimeField(_("annulée le"), default=timezone.now)
    reversed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+", verbose_name=_("annulée par")
    )
    note = models.CharField(_("raison"), max_length=200)

    objects = AppendOnlyQuerySet.as_manager()

    class Meta:
        ordering = ["-reversed_at", "-pk"]
        verbose_name = _("annulation de clôture")
        verbose_name_plural = _("annulations de clôture")
        constraints = [
            models.CheckConstraint(
                condition=~Q(note=""),
                name="ledger_tillclosurereversal_has_reason",
                violation_error_message=_("Une annulation de clôture dit pourquoi."),
            ),
        ]

    def __str__(self) -> str:
        return f"{self.closure} ✕"


def _lock_site(site: Location | int) -> Location:
    """Lock a site's row: its entries wait for a closure or a reversal, and these for each other."""
    return Location.objects.select_for_update().get(pk=getattr(site, "pk", site))


def till_period(site: Location | int) -> tuple[TillClosure | None, datetime.datetime | None]:
    """A site's open till period: the last closure that stands (its float opens the period; None
    before the first) and when the period opened (the last closure, standing or reversed)."""
    closures = TillClosure.objects.filter(site=site).order_by("-closed_at")
    last = closures.first()
    return closures.standing().first(), last.closed_at if last else None


@transaction.atomic
def till_close(
    *,
    site: Location | int,
    staff: AbstractBaseUser,
    cash_counted: Decimal,
    float_kept: Decimal = ZERO,
    note: str = "",
) -> TillClosure:
    """Close a site's till: the period since its last closure, the cash expected and the cash counted."""
    site = _lock_site(site)
    if cash_counted is None or cash_counted < 0:
        _refuse(
            _("Les espèces comptées ne peuvent pas être négatives."), code="negative_cash", on="cash_counted"
        )
    if float_kept < 0 or float_kept > cash_counted:
        _refuse(
            _("Le fond de caisse laissé ne peut pas dépasser les espèces comptées."),
            code="float_exceeds_cash",
            on="float_kept",
        )
    standing, opened_after = till_period(site)
    now = timezone.now()
    opening_float = standing.float_kept if standing else ZERO
    cash = (
        Entry.objects.in_period(site=site, after=opened_after, until=now)
        .filter(method=Method.CASH)
        .aggregate(total=money_sum(till_effect()))["total"]
        or ZERO
    )
    return TillClosure.objects.create(
        site=site,
        opened_after=opened_after,
        closed_at=now,
        closed_by=staff,
        opening_float=opening_float,
        cash_expected=opening_float + cash,
        cash_counted=cash_counted,
        float_kept=float_kept,
        note=note.strip(),
    )


@transaction.atomic
def till_closure_reverse(*, closure: TillClosure, staff: AbstractBaseUser, note: str) -> TillClosureReversal:
    """Strike out a wrong till closure, saying why; the next period opens with the float of the last
    closure that stands."""
    _lock_site(closure.site_id)
    if TillClosureReversal.objects.filter(closure=closure).exists():
        _refuse(_("Cette clôture est déjà annulée."), code="already_reversed")
    if not note.strip():
        _refuse(_("Dites pourquoi cette clôture est annulée."), code="note_required", on="note")
    return TillClosureReversal.objects.create(closure=closure, reversed_by=staff, note=note.strip())
