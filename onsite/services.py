"""On-site play's writes: open and close a session, count a family, take a copy to a table and back,
count a play.

Each function is one transaction. A session's row is locked first by every write about it (so a
session cannot close while a copy is being taken to one of its tables), then, as the loan desk does
(loans/services.py), a copy's game and the copy: a copy cannot go to a table and out on loan at once.
Refusals raise ValidationError with a `code`, keyed by the argument they are about.
"""

import datetime
from collections.abc import Iterable
from dataclasses import dataclass, field

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

from catalogue.models import Component, Copy, Game, Location
from loans import services as loans
from loans.models import Hold, Loan, MissingPiece
from loans.playable import copy_playable_store
from ludotheque.answers import refuse as _refuse
from members.models import Member
from opening.schedule import site_calendar

from .models import Play, Session, TableUse, Visit


@dataclass(frozen=True)
class TableReturnResult:
    """What the desk tells the clerk when a copy comes back from a table."""

    table_use: TableUse
    missing: list[MissingPiece] = field(default_factory=list)
    # The hold the copy is now set aside for, if a family was waiting for the game.
    hold: Hold | None = None


def planned_hours(location: Location | int, day: datetime.date) -> tuple[datetime.time, datetime.time] | None:
    """The site's hours on `day` from the opening calendar (first opening to last closing), or None."""
    calendar = site_calendar(location, from_day=day)
    if not calendar.has_hours or not calendar.is_open(day):
        return None
    hours = calendar.hours[day.weekday()]
    return hours[0][0], hours[-1][1]


def _lock_open_session(session: Session) -> Session:
    session = Session.objects.select_for_update(of=("self",)).select_related("location").get(pk=session.pk)
    if not session.is_open:
        _refuse(
            _("La séance du %(date)s à %(site)s est fermée."),
            code="session_closed",
            on="session",
            date=timezone.localtime(session.opened_at).strftime("%d/%m/%Y"),
            site=session.location.name,
        )
    return session


@transaction.atomic
def session_open(*, location: Location, staff: AbstractBaseUser) -> Session:
    """Open a session at `location`, planned for the hours the opening calendar gives today."""
    location = Location.objects.select_for_update().get(pk=location.pk)
    if Session.objects.open().filter(location=location).exists():
        _refuse(
            _("Une séance est déjà ouverte à %(site)s : fermez-la avant d'en ouvrir une autre."),
            code="session_already_open",
            on="location",
            site=location.name,
        )
    now = timezone.now()
    hours = planned_hours(location, timezone.localdate(now)) or (None, None)
    return Session.objects.create(
        location=location, opened_at=now, opened_by=staff, planned_from=hours[0], planned_until=hours[1]
    )


@transaction.atomic
def session_close(*, session: Session, staff: AbstractBaseUser) -> Session:
    """Close a session; refused while a copy is still at one of its tables."""
    session = _lock_open_session(session)
    out = list(session.table_uses.at_table().select_related("copy__game").order_by("taken_at"))
    if out:
        _refuse(
            _("Des jeux sont encore sur les tables : %(games)s. Rentrez-les avant de fermer la séance."),
            code="copies_at_table",
            games=", ".join(f"« {use.copy.game.title} » ({use.copy.barcode})" for use in out),
        )
    session.closed_at = timezone.now()
    session.closed_by = staff
    session.save(update_fields=["closed_at", "closed_by"])
    return session


@transaction.atomic
def visit_record(
    *, session: Session, staff: AbstractBaseUser, member: Member | None = None, children: int, adults: int
) -> Visit:
    """Count a family come to play: a member by its card, or a family that is not one (`member` None)."""
    session = _lock_open_session(session)
    if children < 0 or adults < 0:
        _refuse(_("Le nombre d'enfants et d'adultes ne peut pas être négatif."), code="negative_count")
    if children + adults == 0:
        _refuse(_("Indiquez combien d'enfants et d'adultes sont venus."), code="nobody")
    if member is not None and session.visits.filter(member=member).exists():
        _refuse(
            _("%(family)s est déjà comptée dans cette séance."),
            code="already_counted",
            on="member",
            family=member.name,
        )
    return Visit.objects.create(
        session=session, member=member, children=children, adults=adults, recorded_by=staff
    )


@transaction.atomic
def table_take(
    *, session: Session, copy: Copy, staff: AbstractBaseUser, visit: Visit | None = None
) -> TableUse:
    """Take a copy to a table during the session (« sur place »): not a loan, but no one may borrow it meanwhile."""
    session = _lock_open_session(session)
    copy = (
        Copy.objects.select_related("game", "location").select_for_update(of=("game", "self")).get(pk=copy.pk)
    )
    values = {"game": copy.game.title, "barcode": copy.barcode}
    if TableUse.objects.at_table().filter(copy=copy).exists():
        _refuse(
            _("« %(game)s » (%(barcode)s) est déjà sur une table."),
            code="already_at_table",
            on="copy",
            **values,
        )
    if copy.location_id != session.location_id:
        _refuse(
            _("« %(game)s » (%(barcode)s) appartient au site %(site)s, pas à celui de la séance."),
            code="other_site",
            on="copy",
            site=copy.location.name,
            **values,
        )
    open_loan = Loan.objects.open().select_related("member").filter(copy=copy).first()
    if open_loan is not None:
        _refuse(
            _("« %(game)s » (%(barcode)s) est en prêt chez %(family)s : passez-le d'abord au retour."),
            code="on_loan",
            on="copy",
            family=open_loan.member.name,
            **values,
        )
    if not copy.status_allows_lending:
        _refuse(
            _("« %(game)s » (%(barcode)s) ne peut pas sortir : son statut est « %(status)s »."),
            code="copy_not_available",
            on="copy",
            status=copy.get_status_display(),
            **values,
        )
    set_aside = Hold.objects.ready().select_related("member").filter(copy=copy).first()
    if set_aside is not None:
        _refuse(
            _("« %(game)s » (%(barcode)s) est mis de côté pour la réservation de %(family)s."),
            code="set_aside",
            on="copy",
            family=set_aside.member.name,
            **values,
        )
    if visit is not None and visit.session_id != session.pk:
        _refuse(_("Cette famille n'est pas comptée dans cette séance."), code="wrong_visit", on="visit")
    return TableUse.objects.create(session=session, copy=copy, visit=visit, taken_by=staff)


@transaction.atomic
def table_return(
    *,
    table_use: TableUse,
    staff: AbstractBaseUser,
    missing: Iterable[tuple[Component, int]] = (),
    recovered: Iterable[MissingPiece] = (),
    playable_anyway: bool = False,
) -> TableReturnResult:
    """Take a copy back from a table after its pieces were checked, as at a loan's return.

    Missing pieces are recorded (the desk's *Jeux incomplets* lists them) and make the copy incomplete
    unless the librarian finds it `playable_anyway`; nobody is charged (a table is not a loan). A copy
    that can go out again is set aside for the first family waiting for its game.
    """
    # The session's row first, as every write about it (a session cannot close meanwhile).
    Session.objects.select_for_update(of=("self",)).filter(pk=table_use.session_id).values_list("pk").get()
    use = TableUse.objects.select_for_update(of=("self",)).get(pk=table_use.pk)
    if not use.is_out:
        _refuse(
            _("Ce jeu est déjà rentré de sa table, le %(date)s."),
            code="not_at_table",
            date=timezone.localtime(use.returned_at).strftime("%d/%m/%Y %H:%M"),
        )
    copy = Copy.objects.select_related("game").select_for_update(of=("game", "self")).get(pk=use.copy_id)
    now = timezone.now()
    check = loans.pieces_check_record(copy=copy, missing=missing, recovered=recovered, staff=staff, now=now)
    new_pieces = check.new
    if new_pieces:
        use.missing_pieces.add(*new_pieces)

    pieces_missing = check.pieces_missing
    if not pieces_missing:
        use.return_check = TableUse.ReturnCheck.COMPLETE
    elif playable_anyway:
        use.return_check = TableUse.ReturnCheck.PLAYABLE
    else:
        use.return_check = TableUse.ReturnCheck.INCOMPLETE
    use.returned_at = now
    use.returned_by = staff
    use.save(update_fields=["returned_at", "returned_by", "return_check"])

    loans.copy_set_completeness(copy, complete=not pieces_missing or playable_anyway)
    copy_playable_store(copy)  # the table sizes an incomplete copy still allows, for the family search
    hold = loans.copy_back_on_shelf(copy=copy)
    return TableReturnResult(table_use=use, missing=new_pieces, hold=hold)


@transaction.atomic
def play_record(
    *,
    session: Session,
    game: Game,
    staff: AbstractBaseUser,
    players: int | None = None,
    source: str = Play.Source.SCORE_SHEET,
) -> Play:
    """Count a play of `game` in the session (from its score sheet, computed or printed, at staff's word)."""
    session = _lock_open_session(session)
    if players is not None and players < 1:
        _refuse(_("Une partie compte au moins un joueur."), code="no_players", on="players")
    return Play.objects.create(session=session, game=game, players=players, source=source, recorded_by=staff)
