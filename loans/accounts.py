"""A family's own holds, asked for from its page on the site."""

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext_lazy

from catalogue.models import Copy, Game
from members.models import Member

from . import services
from .models import Hold


def hold_quota(member: Member) -> int:
    """How many games a family may reserve itself at once: as many as it may borrow."""
    return member.membership_type.loan_quota


@transaction.atomic
def hold_request(*, game: Game, member: Member, user: AbstractBaseUser) -> Hold:
    """A family reserves a game from its page: the desk's rules (services.hold_create), a game on the
    shelf sent to the desk instead, and no more active holds than it may borrow games."""
    member = (
        Member.objects.select_for_update(of=("self",)).select_related("membership_type").get(pk=member.pk)
    )
    if Copy.objects.filter(game=game).available().exists():
        raise ValidationError(
            {
                "game": ValidationError(
                    _("« %(game)s » est en rayon : venez l'emprunter, pas besoin de le réserver."),
                    code="on_shelf",
                    params={"game": game.title},
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
    return services.hold_create(game=game, member=member, staff=user)
