"""What the desk's pages show of a copy's repairs (the loans app's desk loads this; it imports nothing
of the repairs app): `{% copy_repairs copy %}`, its repair if it is in one, else a link to send it."""

from django import template

from catalogue.models import Copy

from ..models import Repair

register = template.Library()


@register.inclusion_tag("repairs/includes/copy_line.html")
def copy_repairs(copy: Copy) -> dict:
    """The copy's open repair (one query), or the way to send it to repair and to see its history."""
    repair = (
        Repair.objects.open().filter(copy_id=copy.pk).first()
        if copy.status == Copy.Status.IN_REPAIR
        else None
    )
    return {"copy": copy, "repair": repair}
