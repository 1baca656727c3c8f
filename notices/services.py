"""What each family must be told today, and the notices that tell it (the daily run's notices step).

`notices_plan(today=…)` reads: for every family, the loans due soon or late, the holds ready or about
to expire and the membership about to end, by the delays of its membership type, leaving out what an
earlier notice already said. `notices_send(today=…)` writes: one transaction per family, which locks
the family's row and checks again what was already said, so that two runs at the same time (or a run
repeated after a crash) add nothing twice; the database's unique constraints on NoticeItem back
that up. E-mails are handed to the tasks framework once their notice is committed; letters wait at
the desk. An e-mail that failed is tried again by the next run.
"""

import datetime
from collections import defaultdict
from dataclasses import dataclass

from django.conf import settings
from django.db import IntegrityError, transaction
from django.db.models import Exists, F, OuterRef, Subquery
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _

from catalogue.models import Copy, Location
from events.models import Booking
from loans.models import DateBooking, Hold, Loan
from members.models import Member, MembershipType
from opening.schedule import SiteCalendar, hours_text, site_calendars

from .date_bookings import plan_date_bookings
from .events import event_context, plan_events
from .models import Notice, NoticeItem
from .tasks import notice_send

Kind = NoticeItem.Kind

# The formal letter: the last overdue level always goes by post, e-mail or not.
LETTER_LEVEL = 3
# How many opening days a notice lists per site.
OPENING_DAYS_IN_NOTICE = 3
# A failed e-mail is tried again by each run for this many days after it was written, no longer:
# a reminder weeks late would be wrong (the desk lists the failures, with their error).
RETRY_DAYS = 7
# A notice still pending this long after it was written lost its task (a crash): enqueue it again.
PENDING_GRACE = datetime.timedelta(hours=1)


@dataclass
class Planned:
    """One thing to tell a family: a loan at a reminder level, a hold, or its membership's end."""

    kind: str
    about_date: datetime.date
    level: int = 0
    loan: Loan | None = None
    hold: Hold | None = None
    booking: Booking | None = None
    date_booking: DateBooking | None = None

    @property
    def key(self) -> tuple:
        return (
            self.kind,
            self.level,
            self.loan and self.loan.pk,
            self.hold and self.hold.pk,
            self.booking and self.booking.pk,
            self.date_booking and self.date_booking.pk,
            self.about_date,
        )

    @property
    def location_id(self) -> int | None:
        if self.loan is not None:
            return self.loan.copy.location_id
        if self.hold is not None and self.hold.pickup_site_id is not None:
            return self.hold.pickup_site_id
        if self.hold is not None and self.hold.copy_id is not None:
            return self.hold.copy.location_id
        if self.date_booking is not None:
            return self.date_booking.copy.location_id
        return None


def _days(value: int) -> datetime.timedelta:
    return datetime.timedelta(days=value)


def notices_plan(*, today: datetime.date) -> dict[int, list[Planned]]:
    """What each family (by id) should be told on `today` and has not been told yet."""
    types = {membership_type.pk: membership_type for membership_type in MembershipType.objects.all()}
    plan: dict[int, list[Planned]] = defaultdict(list)
    _plan_loans(plan, types, today)
    _plan_holds(plan, types, today)
    _plan_holds_without_copy(plan)
    _plan_memberships(plan, types, today)
    plan_events(plan, today, Planned)
    plan_date_bookings(plan, today, Planned)
    return plan


def _plan_loans(plan: dict, types: dict[int, MembershipType], today: datetime.date) -> None:
    soon = [t.due_soon_days for t in types.values() if t.due_soon_days is not None]
    if not soon and not any(t.overdue_levels() for t in types.values()):
        return
    told = NoticeItem.objects.filter(loan=OuterRef("pk"), about_date=OuterRef("due_on"))
    loans = (
        Loan.objects.open()
        .filter(due_on__lte=today + _days(max(soon, default=-1)))
        .annotate(
            type_id=F("member__membership_type_id"),
            soon_told=Exists(told.filter(kind=Kind.DUE_SOON)),
            level_told=Subquery(told.filter(kind=Kind.OVERDUE).order_by("-level").values("level")[:1]),
        )
        .select_related("copy__game")
        .only("member_id", "due_on", "lent_at", "copy__barcode", "copy__location", "copy__game__title")
        .order_by("due_on", "pk")
    )
    for loan in loans:
        membership_type = types[loan.type_id]
        if loan.due_on >= today:
            days = membership_type.due_soon_days
            if days is None or loan.soon_told:
                continue
            remind_on = loan.due_on - _days(days)
            # A loan lent inside the reminder window (a short period) needs no reminder: the date is fresh.
            if remind_on <= today and timezone.localdate(loan.lent_at) < remind_on:
                plan[loan.member_id].append(Planned(Kind.DUE_SOON, loan.due_on, loan=loan))
            continue
        late = (today - loan.due_on).days
        level = max((level for level, days in membership_type.overdue_levels() if late >= days), default=0)
        # After missed runs only the highest level reached is sent; a level is never sent again.
        if level > (loan.level_told or 0):
            plan[loan.member_id].append(Planned(Kind.OVERDUE, loan.due_on, level=level, loan=loan))


def _plan_holds(plan: dict, types: dict[int, MembershipType], today: datetime.date) -> None:
    told = NoticeItem.objects.filter(hold=OuterRef("pk"))
    holds = (
        Hold.objects.ready()
        .filter(ready_until__gte=today)
        .annotate(
            type_id=F("member__membership_type_id"),
            ready_told=Exists(told.filter(kind=Kind.HOLD_READY)),
            expiring_told=Exists(told.filter(kind=Kind.HOLD_EXPIRING)),
        )
        .select_related("game", "copy", "pickup_site")
        .only(
            "member_id",
            "ready_at",
            "ready_until",
            "pickup_site__name",
            "game__title",
            "copy__barcode",
            "copy__location",
        )
        .order_by("ready_until", "pk")
    )
    for hold in holds:
        membership_type = types[hold.type_id]
        if membership_type.notify_hold_ready and not hold.ready_told:
            plan[hold.member_id].append(Planned(Kind.HOLD_READY, hold.ready_until, hold=hold))
        days = membership_type.hold_expiring_days
        if days is None or hold.expiring_told:
            continue
        remind_on = hold.ready_until - _days(days)
        if remind_on <= today and timezone.localdate(hold.ready_at) < remind_on:
            plan[hold.member_id].append(Planned(Kind.HOLD_EXPIRING, hold.ready_until, hold=hold))


def _plan_holds_without_copy(plan: dict) -> None:
    """Families waiting for a game that no copy can serve any more (the last one lost or withdrawn):
    told once, rather than left waiting for a copy that will not come back."""
    served = Copy.objects.filter(game=OuterRef("game")).in_circulation()
    holds = (
        Hold.objects.filter(status=Hold.Status.WAITING)
        .exclude(Exists(served))
        .exclude(Exists(NoticeItem.objects.filter(hold=OuterRef("pk"), kind=Kind.HOLD_NO_COPY)))
        .select_related("game")
        .only("member_id", "created_at", "copy_id", "pickup_site_id", "game__title")
        .order_by("pk")
    )
    for hold in holds:
        plan[hold.member_id].append(
            Planned(Kind.HOLD_NO_COPY, timezone.localdate(hold.created_at), hold=hold)
        )


def _plan_memberships(plan: dict, types: dict[int, MembershipType], today: datetime.date) -> None:
    delays = [t.membership_expiring_days for t in types.values() if t.membership_expiring_days is not None]
    if not delays:
        return
    told = NoticeItem.objects.filter(
        member=OuterRef("pk"), kind=Kind.MEMBERSHIP_EXPIRING, about_date=OuterRef("membership_expiry")
    )
    members = (
        Member.objects.filter(membership_expiry__gte=today, membership_expiry__lte=today + _days(max(delays)))
        .annotate(told=Exists(told))
        .only("membership_type_id", "membership_start", "membership_expiry")
        .order_by()
    )
    for member in members:
        days = types[member.membership_type_id].membership_expiring_days
        if days is None or member.told:
            continue
        remind_on = member.membership_expiry - _days(days)
        if remind_on <= today and member.membership_start < remind_on:
            plan[member.pk].append(Planned(Kind.MEMBERSHIP_EXPIRING, member.membership_expiry))


def _not_told_yet(member: Member, items: list[Planned]) -> list[Planned]:
    """The planned items no notice has said yet, read again under the family's lock."""
    said = set()
    levels_said: dict[tuple, int] = {}
    for kind, level, loan_id, hold_id, booking_id, date_booking_id, about_date in NoticeItem.objects.filter(
        member=member, about_date__in={item.about_date for item in items}
    ).values_list("kind", "level", "loan_id", "hold_id", "booking_id", "date_booking_id", "about_date"):
        said.add((kind, level, loan_id, hold_id, booking_id, date_booking_id, about_date))
        if kind == Kind.OVERDUE:
            key = (loan_id, about_date)
            levels_said[key] = max(level, levels_said.get(key, 0))
    return [
        item
        for item in items
        if item.key not in said
        and not (
            item.kind == Kind.OVERDUE and levels_said.get((item.loan.pk, item.about_date), 0) >= item.level
        )
    ]


def _channel(member: Member, item: Planned) -> str:
    if not member.email or (item.kind == Kind.OVERDUE and item.level >= LETTER_LEVEL):
        return Notice.Channel.LETTER
    return Notice.Channel.EMAIL


def _subject(items: list[Planned]) -> str:
    kinds = {item.kind for item in items}
    if any(item.kind == Kind.OVERDUE and item.level >= LETTER_LEVEL for item in items):
        text = _("Mise en demeure : jeux à rendre")
    elif Kind.OVERDUE in kinds:
        text = _("Jeux en retard")
    elif Kind.HOLD_READY in kinds:
        text = _("Votre réservation est prête")
    elif Kind.HOLD_EXPIRING in kinds:
        text = _("Votre réservation vous attend encore")
    elif Kind.HOLD_NO_COPY in kinds:
        text = _("Le jeu que vous attendez n'a plus d'exemplaire")
    elif Kind.EVENT_CANCELLED in kinds:
        text = _("Une animation est annulée")
    elif Kind.EVENT_PROMOTED in kinds:
        text = _("Une place s'est libérée pour vous")
    elif Kind.EVENT_BOOKED in kinds:
        text = _("Votre réservation à une animation")
    elif Kind.EVENT_TOMORROW in kinds:
        text = _("Votre animation, c'est demain")
    elif Kind.DATE_BOOKING_EVE in kinds:
        text = _("Votre jeu réservé vous attend demain")
    elif Kind.DUE_SOON in kinds:
        text = _("Jeux à rendre bientôt")
    else:
        text = _("Votre adhésion se termine bientôt")
    return _("Ludothèque : %(subject)s") % {"subject": text}


def _postal_address(member: Member) -> str:
    return "\n".join([member.name, *[line.strip() for line in member.address.splitlines() if line.strip()]])


def notice_context(
    *,
    member: Member,
    items: list[Planned],
    today: datetime.date,
    calendars: dict[int, SiteCalendar],
    sites: dict[int, Location],
) -> dict:
    """What the notice templates show: the items by kind, and the next openings of the sites concerned."""
    by_kind = defaultdict(list)
    for item in items:
        by_kind[item.kind].append(item)
    overdue = sorted(by_kind[Kind.OVERDUE], key=lambda item: item.about_date)
    ready_holds = {item.hold.pk for item in by_kind[Kind.HOLD_READY]}
    location_ids = sorted({item.location_id for item in items if item.location_id is not None})
    return {
        "member": member,
        "today": today,
        "overdue_levels": [
            (level, [(item, (today - item.about_date).days) for item in overdue if item.level == level])
            for level in sorted({item.level for item in overdue}, reverse=True)
        ],
        "due_soon": by_kind[Kind.DUE_SOON],
        "holds_ready": by_kind[Kind.HOLD_READY],
        # A hold announced ready in this notice is not reminded again in it.
        "holds_expiring": [item for item in by_kind[Kind.HOLD_EXPIRING] if item.hold.pk not in ready_holds],
        "holds_no_copy": by_kind[Kind.HOLD_NO_COPY],
        "membership_expiry": next((item.about_date for item in by_kind[Kind.MEMBERSHIP_EXPIRING]), None),
        "sites": [
            {
                "site": sites[location_id],
                "address_line": ", ".join(
                    line.strip() for line in sites[location_id].address.splitlines() if line.strip()
                ),
                "days": [
                    (day, hours_text(openings))
                    for day, openings in calendars[location_id].opening_days(today, OPENING_DAYS_IN_NOTICE)
                ],
            }
            for location_id in location_ids
            if location_id in calendars and calendars[location_id].has_hours
        ],
        "account_url": settings.SITE_URL + reverse("loans:account"),
        **event_context(by_kind),
        "date_bookings_tomorrow": by_kind[Kind.DATE_BOOKING_EVE],
    }


def _notice_render(context: dict, items: list[Planned]) -> tuple[str, str, str]:
    return (
        _subject(items),
        render_to_string("notices/notice.txt", context).strip() + "\n",
        render_to_string("notices/notice.html", context).strip(),
    )


@transaction.atomic
def notices_create_for_member(
    *,
    member_id: int,
    items: list[Planned],
    today: datetime.date,
    calendars: dict[int, SiteCalendar],
    sites: dict[int, Location],
) -> list[Notice]:
    """Write the family's notices of this run (an e-mail, a letter, or both), each with its items."""
    member = Member.objects.select_for_update(of=("self",)).get(pk=member_id)
    items = _not_told_yet(member, items)
    by_channel: dict[str, list[Planned]] = defaultdict(list)
    for item in items:
        by_channel[_channel(member, item)].append(item)
    notices = []
    for channel, channel_items in sorted(by_channel.items()):
        with translation.override(member.language):
            context = notice_context(
                member=member, items=channel_items, today=today, calendars=calendars, sites=sites
            )
            context["channel"] = channel
            subject, body_text, body_html = _notice_render(context, channel_items)
        email = channel == Notice.Channel.EMAIL
        notice = Notice.objects.create(
            member=member,
            channel=channel,
            status=Notice.Status.PENDING if email else Notice.Status.TO_PRINT,
            language=member.language,
            run_on=today,
            recipient=member.email if email else _postal_address(member),
            subject=subject,
            body_text=body_text,
            body_html=body_html,
        )
        NoticeItem.objects.bulk_create(
            NoticeItem(
                notice=notice,
                member=member,
                kind=item.kind,
                level=item.level,
                loan=item.loan,
                hold=item.hold,
                booking=item.booking,
                date_booking=item.date_booking,
                about_date=item.about_date,
            )
            for item in channel_items
        )
        notices.append(notice)
    return notices


def notices_send(*, today: datetime.date) -> str:
    """The daily step: write today's notices family by family, hand the e-mails over, retry the failed ones."""
    started = timezone.now()
    plan = notices_plan(today=today)
    location_ids = {item.location_id for items in plan.values() for item in items} - {None}
    calendars = site_calendars(location_ids, from_day=today)
    sites = Location.objects.in_bulk(location_ids)
    emails = letters = already = 0
    for member_id, items in plan.items():
        try:
            notices = notices_create_for_member(
                member_id=member_id, items=items, today=today, calendars=calendars, sites=sites
            )
        except IntegrityError:
            already += 1  # another run told this family at the same moment: its notice stands
            continue
        for notice in notices:
            if notice.channel == Notice.Channel.EMAIL:
                notice_send.enqueue(notice_id=notice.pk)
                emails += 1
            else:
                letters += 1
    retried = 0
    for notice_id in (
        Notice.objects.to_send()
        .filter(created_at__lt=started, created_at__gte=started - datetime.timedelta(days=RETRY_DAYS))
        .exclude(status=Notice.Status.PENDING, created_at__gte=started - PENDING_GRACE)
        .values_list("pk", flat=True)
    ):
        notice_send.enqueue(notice_id=notice_id)
        retried += 1
    return (
        f"{emails} e-mail(s) handed to the tasks backend, {letters} letter(s) to print, "
        f"{retried} e-mail(s) tried again, {already} family(ies) told by another run at the same time"
    )
