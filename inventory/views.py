"""The stocktake pages (staff): start or resume a count, scan (a scanner types the code and Enter), close."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, OuterRef
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_http_methods, require_POST

from loans.models import Loan
from ludotheque.access import staff_required

from . import services
from .forms import ScanForm, StocktakeForm
from .models import Scan, Stocktake

RECENT_SCANS = 15


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def stocktake_list(request: HttpRequest) -> HttpResponse:
    form = StocktakeForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            stocktake = services.stocktake_start(
                location=form.cleaned_data["localisation"], staff=request.user
            )
        except ValidationError as error:
            form.add_error("localisation", error)
        else:
            return redirect(stocktake)
    stocktakes = Stocktake.objects.select_related("location").annotate(scan_count=Count("scans"))[:30]
    return render(
        request,
        "inventory/stocktake_list.html",
        {"form": form, "stocktakes": stocktakes},
        status=400 if form.errors else 200,
    )


def _scan_message(scan: Scan, outcome: Scan.Outcome, repeated: bool) -> tuple[int, str]:
    """What the clerk must know at once about the box in hand."""
    if outcome == Scan.Outcome.UNKNOWN:
        return messages.ERROR, _(
            "%(barcode)s : code-barres inconnu du catalogue, mettez la boîte de côté."
        ) % {"barcode": scan.barcode}
    values = {"game": scan.copy.game.title, "barcode": scan.barcode, "site": scan.copy.location.name}
    text = {
        Scan.Outcome.FOUND: _("« %(game)s » (%(barcode)s) : en place."),
        Scan.Outcome.MISPLACED: _("« %(game)s » (%(barcode)s) appartient au site %(site)s."),
        Scan.Outcome.ON_LOAN: _(
            "« %(game)s » (%(barcode)s) est encore enregistré en prêt : passez-le au retour."
        ),
        Scan.Outcome.IN_REPAIR: _(
            "« %(game)s » (%(barcode)s) est enregistré en réparation : rangez-le à part, ou remettez-le "
            "en rayon depuis la file des réparations s'il est réparé."
        ),
        Scan.Outcome.UNEXPECTED: _("« %(game)s » (%(barcode)s) a le statut « %(status)s »."),
        Scan.Outcome.IN_TRANSIT: _(
            "« %(game)s » (%(barcode)s) est en transit : mettez-le avec les envois, ou réceptionnez-le."
        ),
    }[outcome] % (values | {"status": scan.copy.get_status_display()})
    if repeated:
        text += " " + _("(déjà scanné)")
    return (messages.SUCCESS if outcome == Scan.Outcome.FOUND else messages.WARNING), text


def _report(stocktake: Stocktake) -> dict:
    related = ("game", "location")
    report = {
        "missing": stocktake.missing_copies()
        .select_related(*related)
        .order_by("location__name", "cote", "barcode"),
        "misplaced": stocktake.misplaced_copies().select_related(*related).order_by("barcode"),
        "on_loan": stocktake.on_loan_copies().select_related(*related).order_by("barcode"),
        "in_transit": stocktake.in_transit_copies().select_related(*related).order_by("barcode"),
        "unexpected": stocktake.unexpected_copies().select_related(*related).order_by("barcode"),
        "in_repair": stocktake.in_repair_copies().select_related(*related).order_by("barcode"),
        "unknown": stocktake.unknown_barcodes(),
    }
    report["unexpected_count"] = len(report["unexpected"]) + len(report["unknown"])
    return report


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def stocktake_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """Scan box after box (the field keeps the focus); the page shows the progress and the last scans."""
    stocktake = get_object_or_404(Stocktake.objects.select_related("location", "closed_by"), pk=pk)
    form = ScanForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        barcode = form.cleaned_data["barcode"]
        repeated = stocktake.scans.filter(barcode=barcode).exists()
        try:
            scan = services.scan_record(stocktake=stocktake, barcode=barcode, staff=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            copy_on_loan = scan.copy is not None and Loan.objects.open().filter(copy=scan.copy).exists()
            level, text = _scan_message(scan, scan.outcome(copy_on_loan=copy_on_loan), repeated)
            messages.add_message(request, level, text)
        return redirect(stocktake)
    expected = stocktake.expected_copies()
    scanned_ids = stocktake.scans.filter(copy__isnull=False).values("copy")
    scans = list(
        stocktake.scans.select_related("copy__game", "copy__location", "scanned_by", "stocktake").annotate(
            copy_on_loan=Exists(Loan.objects.open().filter(copy=OuterRef("copy")))
        )[:RECENT_SCANS]
    )
    context = {
        "stocktake": stocktake,
        "form": form,
        "expected_count": expected.count(),
        "found_count": expected.filter(pk__in=scanned_ids).count(),
        "scan_count": stocktake.scans.count(),
        "scans": [(scan, scan.outcome(copy_on_loan=scan.copy_on_loan)) for scan in scans],
        "report": None if stocktake.is_open else _report(stocktake),
        "changes": stocktake.changes.select_related("copy__game", "made_by"),
    }
    status = 400 if request.method == "POST" else 200
    return render(request, "inventory/stocktake_detail.html", context, status=status)


@staff_required
@require_POST
def stocktake_close(request: HttpRequest, pk: int) -> HttpResponse:
    stocktake = get_object_or_404(Stocktake, pk=pk)
    try:
        services.stocktake_close(stocktake=stocktake, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(stocktake)


def _correct(request: HttpRequest, pk: int, service, done) -> HttpResponse:
    """Apply one of a closed stocktake's corrections and say how many copies it changed."""
    stocktake = get_object_or_404(Stocktake, pk=pk)
    try:
        count = service(stocktake=stocktake, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, done(count) % {"count": count})
    return redirect(stocktake)


@staff_required
@require_POST
def stocktake_mark_lost(request: HttpRequest, pk: int) -> HttpResponse:
    return _correct(
        request,
        pk,
        services.stocktake_mark_missing_lost,
        lambda count: ngettext(
            "%(count)d exemplaire marqué perdu.", "%(count)d exemplaires marqués perdus.", count
        ),
    )


@staff_required
@require_POST
def stocktake_move(request: HttpRequest, pk: int) -> HttpResponse:
    return _correct(
        request,
        pk,
        services.stocktake_move_misplaced,
        lambda count: ngettext(
            "%(count)d exemplaire rangé sur ce site.", "%(count)d exemplaires rangés sur ce site.", count
        ),
    )
