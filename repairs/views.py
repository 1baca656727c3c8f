"""The repairs at the desk: the queue, a repair's page (notes, « Réparé, remettre en rayon »), a copy's
repairs (its history, and the form that sends it to repair by hand)."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import Copy
from ledger.services import euros
from loans.services import short_date
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal

from . import services
from .forms import RepairCloseForm, RepairNotesForm, RepairOpenForm
from .models import Repair

REFUSAL_FIELDS = {"copy": "barcode", "reason": "reason", "cost": "cost", "charge_family": "charged_to"}
CLOSED_PER_PAGE = 30


def _open(request: HttpRequest, form: RepairOpenForm) -> HttpResponse | None:
    """Send the form's copy to repair; None when refused (the errors are on the form)."""
    try:
        repair = services.repair_open(copy=form.copy, reason=form.cleaned_data["reason"], staff=request.user)
    except ValidationError as error:
        add_refusal(form, error, REFUSAL_FIELDS if "barcode" in form.fields else {"reason": "reason"})
        return None
    messages.success(
        request,
        _("« %(game)s » (%(barcode)s) est en réparation : %(reason)s.")
        % {"game": repair.copy.game.title, "barcode": repair.copy.barcode, "reason": repair.reason},
    )
    return redirect(repair)


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def queue(request: HttpRequest) -> HttpResponse:
    """The copies in repair, oldest first, and the form that sends one more by its barcode."""
    form = RepairOpenForm(request.POST if request.method == "POST" else None)
    if form.is_valid() and (answer := _open(request, form)):
        return answer
    closed = Paginator(Repair.objects.closed().for_display().order_by("-closed_at", "-pk"), CLOSED_PER_PAGE)
    context = {
        "form": form,
        "repairs": Repair.objects.open().for_display().order_by("opened_at", "pk"),
        # Marked in repair without a record (a spreadsheet import, the admin): their page records why.
        "unrecorded": Copy.objects.filter(status=Copy.Status.IN_REPAIR)
        .exclude(pk__in=Repair.objects.open().values("copy"))
        .select_related("game", "location")
        .order_by("barcode"),
        "closed": closed.get_page(request.GET.get("page")),
    }
    return render(request, "repairs/queue.html", context, status=400 if form.is_bound else 200)


@staff_required
@require_GET
def repair_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _render_repair(request, get_object_or_404(Repair.objects.for_display(), pk=pk))


def _render_repair(request, repair: Repair, *, notes_form=None, close_form=None, status: int = 200):
    context = {
        "repair": repair,
        "notes_form": notes_form or RepairNotesForm(initial={"notes": repair.notes}),
        "close_form": close_form or RepairCloseForm(repair=repair),
    }
    return render(request, "repairs/repair_detail.html", context, status=status)


def _already_closed(request: HttpRequest, repair: Repair) -> HttpResponse:
    messages.info(
        request,
        _("« %(game)s » (%(barcode)s) est déjà revenu de réparation le %(date)s.")
        % {
            "game": repair.copy.game.title,
            "barcode": repair.copy.barcode,
            "date": short_date(timezone.localdate(repair.closed_at)),
        },
    )
    return redirect(repair)


@staff_required
@require_POST
def repair_notes(request: HttpRequest, pk: int) -> HttpResponse:
    """Write down what was done so far."""
    repair = get_object_or_404(Repair.objects.for_display(), pk=pk)
    if not repair.is_open:
        return _already_closed(request, repair)
    form = RepairNotesForm(request.POST)
    if form.is_valid():
        try:
            services.repair_note(repair=repair, notes=form.cleaned_data["notes"])
        except ValidationError as error:
            add_refusal(form, error, {})
        else:
            messages.success(request, _("Notes de la réparation enregistrées."))
            return redirect(repair)
    return _render_repair(request, repair, notes_form=form, status=400)


@staff_required
@require_POST
def repair_close(request: HttpRequest, pk: int) -> HttpResponse:
    """« Réparé, remettre en rayon »: the copy is back, its cost to the ledger, the next hold served."""
    repair = get_object_or_404(Repair.objects.for_display(), pk=pk)
    if not repair.is_open:
        return _already_closed(request, repair)
    form = RepairCloseForm(request.POST, repair=repair)
    if form.is_valid():
        try:
            done = services.repair_close(
                repair=repair,
                staff=request.user,
                notes=form.cleaned_data["notes"],
                cost=form.cleaned_data["cost"],
                charge_family=form.charge_family(),
            )
        except ValidationError as error:
            if not hasattr(error, "error_dict") and error.code == "already_closed":
                return _already_closed(request, Repair.objects.for_display().get(pk=pk))
            add_refusal(form, error, REFUSAL_FIELDS)
        else:
            _announce_close(request, done)
            return redirect("repairs:queue")
    return _render_repair(request, repair, close_form=form, status=400)


def _announce_close(request: HttpRequest, done: services.RepairClosed) -> None:
    copy = done.repair.copy
    values = {"game": copy.game.title, "barcode": copy.barcode, "status": copy.get_status_display()}
    messages.success(request, _("« %(game)s » (%(barcode)s) revient de réparation : %(status)s.") % values)
    if done.entry is not None:
        if done.entry.member_id:
            text = _("Réparation : %(amount)s facturé à %(family)s.")
        else:
            text = _("Réparation : %(amount)s, dépense de la ludothèque.")
        family = done.repair.family
        messages.info(
            request, text % {"amount": euros(done.entry.amount), "family": family.name if family else ""}
        )
    if done.hold is not None:
        member = done.hold.member
        messages.warning(
            request,
            _(
                "Mettez « %(game)s » (%(barcode)s) de côté pour %(family)s (carte %(card)s) : "
                "sa réservation est prête."
            )
            % (values | {"family": member.name, "card": member.card_barcode}),
            extra_tags="hold",
        )


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def copy_repairs(request: HttpRequest, pk: int) -> HttpResponse:
    """A copy at the desk: its status, its repair if it is in one, its repairs' history, and the form that
    sends it to repair by hand."""
    copy = get_object_or_404(Copy.objects.select_related("game", "location"), pk=pk)
    form = RepairOpenForm(request.POST if request.method == "POST" else None, copy=copy)
    if form.is_valid() and (answer := _open(request, form)):
        return answer
    repairs = Repair.objects.filter(copy=copy).select_related(
        "opened_by", "closed_by", "loan__member", "entry"
    )
    context = {
        "copy": copy,
        "form": form,
        "repairs": repairs,
        "open": next((r for r in repairs if r.is_open), None),
    }
    return render(request, "repairs/copy_repairs.html", context, status=400 if form.is_bound else 200)
