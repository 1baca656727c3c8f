"""The desk's back office: the late loans, the holds, the incomplete copies and their missing pieces,
the statistics."""

import datetime

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, OuterRef, Prefetch, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from catalogue.models import Copy, Game
from ludotheque.access import staff_required

from . import services
from .models import Hold, Loan, MissingPiece
from .views import _announce_hold

# The lists of the back office.

STATS_MONTHS = 12
TOP_GAMES = 10
# The statistics list at most this many titles never lent or without copies (all are counted).
STATS_LIST_MAX = 200


@staff_required
@require_GET
def overdue_list(request: HttpRequest) -> HttpResponse:
    loans = Loan.objects.overdue().for_desk().order_by("due_on", "member__name")
    return render(request, "loans/overdue_list.html", {"loans": loans})


@staff_required
@require_GET
def hold_list(request: HttpRequest) -> HttpResponse:
    ready = Hold.objects.ready().select_related("game", "member", "copy").order_by("ready_until", "pk")
    waiting = Hold.objects.waiting().select_related("game", "member").order_by("game__title", "position")
    return render(request, "loans/hold_list.html", {"ready": ready, "waiting": waiting})


@staff_required
@require_GET
def incomplete_list(request: HttpRequest) -> HttpResponse:
    copies = (
        Copy.objects.filter(
            Q(status=Copy.Status.INCOMPLETE)
            | Q(pk__in=MissingPiece.objects.still_missing().values("copy_id"))
        )
        .select_related("game", "location")
        .prefetch_related(
            Prefetch(
                "missing_pieces",
                queryset=MissingPiece.objects.still_missing().select_related("component", "loan__member"),
                to_attr="pieces",
            )
        )
        .order_by("game__title", "barcode")
    )
    return render(request, "loans/incomplete_list.html", {"copies": copies})


@staff_required
@require_POST
def missing_piece_recover(request: HttpRequest, pk: int) -> HttpResponse:
    piece = get_object_or_404(MissingPiece.objects.select_related("component", "copy__game"), pk=pk)
    try:
        hold = services.missing_piece_recover(missing_piece=piece, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("%(count)s × « %(piece)s » de retour dans « %(game)s » (%(barcode)s).")
            % {
                "count": piece.quantity,
                "piece": piece.component.label,
                "game": piece.copy.game.title,
                "barcode": piece.copy.barcode,
            },
        )
        _announce_hold(request, hold)
    return redirect("loans:incomplete-list")


@staff_required
@require_GET
def stats(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    months_ago = today.year * 12 + today.month - 1 - (STATS_MONTHS - 1)
    first_month = datetime.date(months_ago // 12, months_ago % 12 + 1, 1)
    start = timezone.make_aware(datetime.datetime.combine(first_month, datetime.time.min))
    counts = Loan.objects.count_per_month(first_month)
    months = []
    month = first_month
    while month <= today:
        months.append({"month": month, "count": counts.get(month, 0)})
        month = (month + datetime.timedelta(days=32)).replace(day=1)
    busiest = max((row["count"] for row in months), default=0) or 1
    for row in months:
        row["percent"] = round(100 * row["count"] / busiest)
    top_games = (
        Game.objects.annotate(loan_count=Count("copies__loans", filter=Q(copies__loans__lent_at__gte=start)))
        .filter(loan_count__gt=0)
        .order_by("-loan_count", "title")[:TOP_GAMES]
    )
    # « Jamais prêtés » is about titles a family could have borrowed: those with a copy and no loan
    # ever. Catalogue titles without any copy (wish list, lost, not yet bought) are counted apart.
    has_copy = Exists(Copy.objects.filter(game=OuterRef("pk")))
    was_lent = Exists(Loan.objects.filter(copy__game=OuterRef("pk")))
    never_lent = (
        Game.objects.filter(has_copy & ~was_lent).annotate(copy_count=Count("copies")).order_by("title")
    )
    without_copies = Game.objects.filter(~has_copy).order_by("title")
    titles = Game.objects.aggregate(
        all=Count("pk"),
        never_lent=Count("pk", filter=has_copy & ~was_lent),
        without_copies=Count("pk", filter=~has_copy),
    )
    return render(
        request,
        "loans/stats.html",
        {
            "months": months,
            "total": sum(row["count"] for row in months),
            "top_games": top_games,
            "never_lent": never_lent[:STATS_LIST_MAX],
            "without_copies": without_copies[:STATS_LIST_MAX] if titles["without_copies"] else [],
            "titles": titles,
            "list_max": STATS_LIST_MAX,
            "since": first_month,
        },
    )
