"""Holds: a family queues for a game, a copy on the shelf or coming back is set aside for the first
family waiting, a hold is cancelled or expires (a daily step passes an uncollected copy on).

The rules and the locks shared by the desk's writes are in loans/desk.py.
"""

import datetime

from django.contrib.auth.models import AbstractBaseUser
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Case, Max, QuerySet, Value, When
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Copy, Game, Location
from members.models import Member

from .desk import (
    _check_membership,
    _copy_is_free,
    _hold_serve_next,
    _lock_copy,
    _lock_game,
    _lock_game_and_copy,
    _lock_member,
    _refuse,
    copy_settle,
)
from .models import Hold


@transaction.atomic
def copy_back_on_shelf(*, copy: Copy) -> Hold | None:
    """A copy back on the shelf from elsewhere (a table, during an on-site session): set it aside for the
    first family waiting for its game, if it can go out. Returns that family's hold."""
    copy = _lock_game_and_copy(copy.pk)
    if not _copy_is_free(copy) or Hold.objects.ready().filter(copy=copy).exists():
        return None
    return _hold_serve_next(copy=copy, now=timezone.now())


def pickup_sites() -> QuerySet:
    """The sites where a family may collect a hold: those that lend."""
    return Location.objects.filter(lends=True).order_by("name")


def usual_site(member: Member) -> Location | None:
    """Where a family usually collects its games: its last hold's pick-up site, else the site of the
    last copy it borrowed, else the first site that lends."""
    last_hold = member.holds.exclude(pickup_site=None).order_by("-created_at", "-pk").first()
    site_id = last_hold and last_hold.pickup_site_id
    if site_id is None:
        last_loan = member.loans.order_by("-lent_at", "-pk").select_related("copy").first()
        site_id = last_loan and last_loan.copy.location_id
    sites = pickup_sites()
    return (site_id and sites.filter(pk=site_id).first()) or sites.first()


@transaction.atomic
def hold_create(
    *, game: Game, member: Member, staff: AbstractBaseUser, pickup_site: Location | None = None
) -> Hold:
    """Put a family in the queue for a game, to collect at `pickup_site` (its usual site unless said);
    a copy on the shelf is set aside at once (sent there from another site if need be)."""
    member = _lock_member(member)
    _lock_game(game.pk)
    _check_membership(member, timezone.localdate())
    if game.date_bookable:
        _refuse(
            _("« %(game)s » se réserve à date, pas dans une file : choisissez vos dates."),
            code="date_bookable",
            on="game",
            game=game.title,
        )
    pickup_site = pickup_site or usual_site(member)
    if pickup_site is not None and not pickup_site.lends:
        _refuse(
            _("« %(site)s » ne prête pas de jeux : choisissez un autre site de retrait."),
            code="pickup_site_not_lending",
            on="pickup_site",
            site=pickup_site.name,
        )
    # A copy in repair or waiting for a piece will come back: families may queue for it.
    if not Copy.objects.filter(game=game).in_circulation().exists():
        _refuse(
            _("« %(game)s » n'a aucun exemplaire prêtable : il ne peut pas être réservé."),
            code="no_lendable_copy",
            on="game",
            game=game.title,
        )
    if Hold.objects.active().filter(game=game, member=member).exists():
        _refuse(
            _("%(family)s a déjà une réservation en cours pour « %(game)s »."),
            code="already_held",
            on="game",
            family=member.name,
            game=game.title,
        )
    if member.loans.open().filter(copy__game=game).exists():
        _refuse(
            _("%(family)s a déjà « %(game)s » en prêt."),
            code="already_borrowed",
            on="game",
            family=member.name,
            game=game.title,
        )
    last = Hold.objects.filter(game=game).aggregate(last=Max("position"))["last"] or 0
    hold = Hold.objects.create(
        game=game, member=member, position=last + 1, created_by=staff, pickup_site=pickup_site
    )
    now = timezone.now()
    # Copies on the shelf go to the queue in order (this hold is last, it is served if nobody is before);
    # those at the pick-up site first, the others would have to travel.
    here = Case(When(location=pickup_site, then=0), default=1) if pickup_site else Value(0)
    copies = Copy.objects.filter(game=game).available().order_by(here, "pk").select_for_update(of=("self",))
    for copy in copies:
        if _hold_serve_next(copy=copy, now=now) is None:
            break
    hold.refresh_from_db()
    return hold


def _hold_close(*, hold: Hold, status: Hold.Status, today: datetime.date | None = None) -> Hold | None:
    """Close an active hold; a copy it kept aside goes to the next family. Returns that family's hold."""
    _lock_game(hold.game_id)
    hold = Hold.objects.select_for_update(of=("self",)).select_related("game").get(pk=hold.pk)
    now = timezone.now()
    if hold.status not in Hold.Status.active():
        _refuse(
            _("Cette réservation de « %(game)s » est déjà close (%(status)s)."),
            code="hold_closed",
            game=hold.game.title,
            status=hold.get_status_display().lower(),
        )
    if status == Hold.Status.EXPIRED and not hold.is_past_pickup(today or timezone.localdate(now)):
        _refuse(
            _("Seule une réservation prête dont le délai de retrait est dépassé peut expirer."),
            code="hold_not_expired",
        )
    was_ready = hold.status == Hold.Status.READY
    hold.status = status
    hold.closed_at = now
    hold.save(update_fields=["status", "closed_at"])
    if was_ready:
        # The copy waits at the pick-up site: the next family, or its way home (loans/desk.py).
        copy = _lock_copy(hold.copy_id)
        return copy_settle(copy=copy, site=hold.pickup_site_id or copy.location_id, now=now)
    # A hold whose copy is on its way: the copy still arrives, then serves the next family.
    return None


@transaction.atomic
def hold_cancel(*, hold: Hold) -> Hold | None:
    """Cancel a hold at the family's request; returns the next family's hold if the copy passes on."""
    return _hold_close(hold=hold, status=Hold.Status.CANCELLED)


@transaction.atomic
def hold_expire(*, hold: Hold, today: datetime.date | None = None) -> Hold | None:
    """Close a ready hold whose family did not come by the pick-up date; the copy passes on."""
    return _hold_close(hold=hold, status=Hold.Status.EXPIRED, today=today)


def holds_expire_past_pickup(*, today: datetime.date) -> str:
    """Expire every ready hold not collected by its date, one transaction each (a daily step)."""
    expired = passed_on = 0
    for hold in Hold.objects.past_pickup(today).order_by("ready_until", "pk"):
        try:
            next_hold = hold_expire(hold=hold, today=today)
        except ValidationError:
            continue  # collected, cancelled or expired meanwhile by someone else
        expired += 1
        passed_on += next_hold is not None
    return f"{expired} hold(s) expired, {passed_on} copy(ies) set aside for the next family"
