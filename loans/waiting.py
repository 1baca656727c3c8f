"""The families queued for a game whose copy is declared lost: what the desk warns the clerk of.

When no other copy can serve them, the daily run's notices tell them (notices/services.py,
« réservation sans exemplaire »), once per hold.
"""

from django.utils.translation import ngettext

from catalogue.models import Copy

from .models import Hold


def waiting_for_lost(copy: Copy) -> tuple[list[Hold], bool]:
    """The holds waiting for the copy's game, in queue order, and whether another copy can still serve them."""
    holds = list(
        Hold.objects.filter(game=copy.game_id, status=Hold.Status.WAITING)
        .select_related("member")
        .order_by("position")
    )
    served = Copy.objects.filter(game=copy.game_id).in_circulation().exclude(pk=copy.pk).exists()
    return holds, served


def waiting_warning(copy: Copy) -> str:
    """What the desk says of the families waiting for a lost copy's game (empty: nobody waits)."""
    holds, served = waiting_for_lost(copy)
    if not holds:
        return ""
    values = {
        "count": len(holds),
        "game": copy.game.title,
        "families": ", ".join(hold.member.name for hold in holds if hold.member_id),
    }
    if served:
        return (
            ngettext(
                "%(count)d famille attend « %(game)s » (%(families)s) : un autre exemplaire la servira.",
                "%(count)d familles attendent « %(game)s » (%(families)s) : un autre exemplaire les servira.",
                len(holds),
            )
            % values
        )
    return (
        ngettext(
            "%(count)d famille attend « %(game)s » (%(families)s) et aucun autre exemplaire ne peut la servir : "
            "un avis la prévient au prochain passage quotidien.",
            "%(count)d familles attendent « %(game)s » (%(families)s) et aucun autre exemplaire ne peut les "
            "servir : un avis les prévient au prochain passage quotidien.",
            len(holds),
        )
        % values
    )
