"""A family's own holds, asked for from its page on the site."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Copy, Game, Location
from members.models import Member

from . import services
from .holds import usual_site
from .models import Hold


def hold_quota(member: Member) -> int:
    """How many games a family may reserve itself at once: as many as it may borrow."""
    return member.membership_type.loan_quota


@transaction.atomic
def hold_request(
    *, game: Game, member: Member, user: AbstractBaseUser, pickup_site: Location | None = None
) -> Hold:
    """A family reserves a game from its page, to collect at `pickup_site` (its usual site unless said):
    the desk's rules (services.hold_create), a game on the shelf of that site sent to the desk
    instead, and no more active holds than it may borrow games."""
    member = (
        Member.objects.select_for_update(of=("self",)).select_related("membership_type").get(pk=member.pk)
    )
    pickup_site = pickup_site or usual_site(member)
    on_shelf = Copy.objects.filter(game=game).available()
    if pickup_site is not None:
        on_shelf = on_shelf.filter(location=pickup_site)
    if on_shelf.exists():
        raise ValidationError(
            {
                "game": ValidationError(
                    _("« %(game)s » est en rayon à %(site)s : venez l'emprunter, pas besoin de le réserver."),
                    code="on_shelf",
                    params={"game": game.title, "site": pickup_site.name if pickup_site else ""},
                )
            }
        )
    quota = hold_quota(member)
    if member.holds.active().count() >= quota:
        raise ValidationError(
            {
                "member": ValidationError(
                    ngettext_lazy(
                        "Vous avez déjà %(count)s réservation en cours : c'est le maximum de votre adhésion.",
                        "Vous avez déjà %(count)s réservations en cours : c'est le maximum de votre adhésion.",
                        "count",
                    ),
                    code="hold_quota",
                    params={"count": quota},
                )
            }
        )
    return services.hold_create(game=game, member=member, staff=user, pickup_site=pickup_site)
