"""The collection's part of the annual report: titles and copies at the end of the year, acquisitions, withdrawals.

A copy belongs to the collection at the end of a year when it was acquired by then (or, without a date
of acquisition, catalogued by then) and had not left it (`Copy.withdrawn_on`: withdrawn or lost).
By ESAR group, from each title's category; a site's figures are those of the copies it holds.
"""

import datetime

from django.db.models import Count, Q
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext

from catalogue.models import Copy

from .figures import esar_rows
from .registry import Section, Table


def held_at_end(year: int) -> Q:
    end = datetime.date(year, 12, 31)
    catalogued_by = timezone.make_aware(datetime.datetime(year + 1, 1, 1))
    acquired = Q(acquired_on__lte=end) | Q(acquired_on__isnull=True, created_at__lt=catalogued_by)
    return acquired & (Q(withdrawn_on__isnull=True) | Q(withdrawn_on__gt=end))


def section(year: int, site: int | None) -> Section:
    copies = Copy.objects.order_by() if site is None else Copy.objects.order_by().filter(location_id=site)
    held = held_at_end(year)
    rows = copies.values_list("game__category__code").annotate(
        titles=Count("game", distinct=True, filter=held),
        copies=Count("pk", filter=held),
        acquired=Count("pk", filter=Q(acquired_on__year=year)),
        withdrawn=Count("pk", filter=Q(withdrawn_on__year=year)),
    )
    # A title has one category: its copies' distinct titles add up across the codes of a group.
    table = esar_rows(((code, list(numbers)) for code, *numbers in rows), 4)
    undated = copies.filter(held, acquired_on__isnull=True).count()
    notes = []
    if undated:
        message = ngettext(
            "%(count)s exemplaire sans date d'acquisition compte dans la collection, pas dans les acquisitions.",
            "%(count)s exemplaires sans date d'acquisition comptent dans la collection, pas dans les acquisitions.",
            undated,
        )
        notes.append(message % {"count": undated})
    return Section(
        slug="collection",
        title=_("Collection"),
        tables=[
            Table(
                "collection",
                _("Collection au 31 décembre, acquisitions et sorties de l'année, par groupe ESAR"),
                [_("Groupe ESAR"), _("Titres"), _("Exemplaires"), _("Acquisitions"), _("Sorties")],
                table,
            )
        ],
        notes=notes,
    )
