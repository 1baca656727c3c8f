"""A hold whose copy travelled to its family's pick-up site: the family is told when it arrives.

The loans app calls `hold_arrived_tell` once the desk's reception has committed (loans/registry.py,
registered by NoticesConfig.ready()). It writes the same « réservation prête » notice as the daily
run would the next morning, through the same writer, which reads again under the family's lock what
was already said: the daily run then finds it told and says nothing twice.
"""

from django.utils import timezone

from catalogue.models import Location
from loans.models import Hold
from opening.schedule import site_calendars

from .models import Notice, NoticeItem
from .services import Planned, notices_create_for_member
from .tasks import notice_send


def hold_arrived_tell(hold_id: int) -> list[Notice]:
    """Tell the family of a hold made ready by its copy's arrival, if its membership type says so."""
    hold = (
        Hold.objects.ready()
        .select_related("game", "copy", "pickup_site", "member__membership_type")
        .filter(pk=hold_id, member__isnull=False)
        .first()
    )
    if hold is None or not hold.member.membership_type.notify_hold_ready:
        return []
    today = timezone.localdate()
    item = Planned(NoticeItem.Kind.HOLD_READY, hold.ready_until, hold=hold)
    sites = Location.objects.in_bulk([item.location_id])
    notices = notices_create_for_member(
        member_id=hold.member_id,
        items=[item],
        today=today,
        calendars=site_calendars(set(sites), from_day=today),
        sites=sites,
    )
    for notice in notices:
        if notice.channel == Notice.Channel.EMAIL:
            notice_send.enqueue(notice_id=notice.pk)
    return notices
