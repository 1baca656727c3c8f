"""What « Préparer la tournée » downloads for a site: the least the offline desk needs to lend, take
back and count visits without network.

Families: only those whose membership runs today or later, with their name, card, membership type,
expiry and the number of games they have at home, in all and per kind of item (no e-mail, phone,
address or household). Copies: those of the site, with their kind, their pieces, the pieces already
known missing and their open loan. Rules: each membership type's quota, loan period and what it does
with a late game; each kind of item's own quota and deposit (loans/loan_rules.py), for the desk to
refuse offline what the live desk would and to ask how a deposit is paid.
"""

import datetime

from django.db.models import Count, Prefetch, Q
from django.utils import timezone

from catalogue.models import Component, Copy, ItemKind, Location
from loans.models import Hold, Loan, MissingPiece
from members.models import Member, MembershipType

# How long the offline desk keeps a tour's data on the device (static/js/tour.js deletes it then).
KEEP_DAYS = 7


def _families(today: datetime.date) -> list[dict]:
    families = (
        Member.objects.filter(erased_at__isnull=True, membership_expiry__gte=today)
        .annotate(
            open_loans=Count("loans", filter=Q(loans__returned_at__isnull=True)),
            late_loans=Count("loans", filter=Q(loans__returned_at__isnull=True, loans__due_on__lt=today)),
        )
        .order_by("name", "pk")
    )
    by_kind: dict[int, dict[str, int]] = {}
    at_home = (
        Loan.objects.open()
        .filter(
            member__erased_at__isnull=True,
            member__membership_expiry__gte=today,
            copy__kind__loan_quota__isnull=False,
        )
        .values_list("member_id", "copy__kind_id")
        .annotate(count=Count("pk"))
        .order_by()
    )
    for member_id, kind_id, count in at_home:
        by_kind.setdefault(member_id, {})[str(kind_id)] = count
    return [
        {
            "id": family.pk,
            "name": family.name,
            "card": family.card_barcode,
            "type": family.membership_type_id,
            "start": family.membership_start.isoformat(),
            "expiry": family.membership_expiry.isoformat(),
            "open_loans": family.open_loans,
            "late_loans": family.late_loans,
            # Only the kinds with a quota of their own: the games at home of each.
            "kind_loans": by_kind.get(family.pk, {}),
        }
        for family in families.only(
            "pk", "name", "card_barcode", "membership_type_id", "membership_start", "membership_expiry"
        )
    ]


def _copies(location: Location) -> list[dict]:
    copies = (
        Copy.objects.filter(location=location)
        .exclude(status__in=[Copy.Status.LOST, Copy.Status.WITHDRAWN])
        .select_related("game")
        .prefetch_related(
            Prefetch("game__components", queryset=Component.objects.order_by("position", "pk")),
            Prefetch("missing_pieces", queryset=MissingPiece.objects.still_missing(), to_attr="missing"),
            Prefetch("loans", queryset=Loan.objects.open(), to_attr="open_loans"),
        )
        .order_by("barcode")
    )
    set_aside = dict(Hold.objects.ready().filter(copy__location=location).values_list("copy_id", "member_id"))
    result = []
    for copy in copies:
        missing = {}
        for piece in copy.missing:
            missing[piece.component_id] = missing.get(piece.component_id, 0) + piece.quantity
        loan = copy.open_loans[0] if copy.open_loans else None
        result.append(
            {
                "barcode": copy.barcode,
                "title": copy.game.title,
                "kind": copy.kind_id,
                "lendable": copy.status_allows_lending,
                "status": copy.get_status_display(),
                "pieces": [
                    {
                        "id": component.pk,
                        "label": component.label,
                        "quantity": component.quantity - missing.get(component.pk, 0),
                    }
                    for component in copy.game.components.all()
                ],
                "loan": {"id": loan.pk, "family": loan.member_id, "due": loan.due_on.isoformat()}
                if loan
                else None,
                "set_aside_for": set_aside.get(copy.pk),
            }
        )
    return result


def tour_data(location: Location) -> dict:
    """The tour's data for `location`, prepared now."""
    now = timezone.now()
    today = timezone.localdate(now)
    return {
        "site": {"id": location.pk, "name": location.name},
        "prepared_at": now.isoformat(),
        "keep_days": KEEP_DAYS,
        "families": _families(today),
        "types": [
            {
                "id": kind.pk,
                "name": kind.name,
                "quota": kind.loan_quota,
                "period_days": kind.loan_period_days,
                "refuse_when_late": kind.late_loans == MembershipType.LateLoans.REFUSE,
            }
            for kind in MembershipType.objects.order_by("pk")
        ],
        "kinds": [
            {
                "id": kind.pk,
                "name": kind.name,
                "quota": kind.loan_quota,
                "deposit": str(kind.deposit) if kind.deposit else None,
            }
            for kind in ItemKind.objects.filter(Q(loan_quota__isnull=False) | Q(deposit__gt=0)).order_by("pk")
        ],
        "copies": _copies(location),
    }
