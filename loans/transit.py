"""A copy leaving for another site: the transfer line opened, the copy « en transit » until it arrives.

Kept apart from loans/transfers.py (the desk's sends and receptions) because the hold queue
(loans/desk.py) opens lines too, and transfers.py builds on the queue.
"""

import datetime

from catalogue.models import Copy

from .models import Hold, Transfer


def transfer_open(
    *,
    copy: Copy,
    from_site_id: int,
    to_site_id: int,
    reason: str,
    now: datetime.datetime,
    hold: Hold | None = None,
) -> Transfer:
    """Open the line of a locked copy that must leave `from_site_id`: it is in transit from now on."""
    transfer = Transfer.objects.create(
        copy=copy,
        reason=reason,
        hold=hold,
        from_site_id=from_site_id,
        to_site_id=to_site_id,
        copy_status=copy.status,
        requested_at=now,
    )
    copy.status = Copy.Status.IN_TRANSIT
    copy.save(update_fields=["status", "updated_at"])
    return transfer
