"""The repairs' part of the annual report: copies sent to repair and back on the shelf, by site.

Registered with the report (`report/registry.py`) from `RepairsConfig.ready()`; a repair counts in the
year it was sent (« envoyés ») and in the year it came back (« remis en rayon »), at its copy's site.
"""

from django.db.models import Count
from django.utils.translation import gettext as _

from catalogue.models import Location
from report.registry import Section, Table

from .models import Repair


def section(year: int, site: int | None) -> Section:
    repairs = Repair.objects.order_by()
    if site is not None:
        repairs = repairs.filter(copy__location_id=site)
    sent = dict(repairs.filter(opened_at__year=year).values_list("copy__location_id").annotate(n=Count("pk")))
    back = dict(repairs.filter(closed_at__year=year).values_list("copy__location_id").annotate(n=Count("pk")))
    locations = Location.objects.order_by("name")
    if site is not None:
        locations = locations.filter(pk=site)
    rows = [[location.name, sent.get(location.pk, 0), back.get(location.pk, 0)] for location in locations]
    return Section(
        slug="reparations",
        title=_("Réparations"),
        tables=[
            Table(
                "reparations-sites",
                _("Exemplaires envoyés en réparation et remis en rayon, par site"),
                [_("Site"), _("Envoyés en réparation"), _("Remis en rayon")],
                rows,
            )
        ],
        notes=[_("Leur coût est dans la comptabilité : dépenses de la ludothèque et réparations facturées.")],
    )
