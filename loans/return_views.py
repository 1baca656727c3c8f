"""The desk's returns: scan a copy back, tick its pieces, confirm; a game declared lost."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ledger.forms import chosen_desk_site
from ledger.services import euros
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal
from members.models import Member

from . import services
from .forms import (
    LostForm,
    ReturnForm,
    copy_for_barcode,
)
from .models import Hold, Loan
from .registry import desk_barcode_page, return_forms
from .services import short_date
from .views import _announce_hold
from .waiting import waiting_warning

# Returns: scan, tick the pieces, confirm.


@staff_required
@require_GET
def return_scan(request: HttpRequest) -> HttpResponse:
    """Return mode: scan a copy to open its checklist, then come back here for the next one."""
    error = None
    barcode = request.GET.get("barcode", "").strip()
    if barcode:
        try:
            copy = copy_for_barcode(barcode)
        except ValidationError as unknown:
            # A family's card scanned in the return box opens that family's page, as in the lend box.
            member = (
                None if "\x00" in barcode else Member.objects.filter(card_barcode__iexact=barcode).first()
            )
            if member is not None:
                return redirect("loans:member-detail", pk=member.pk)
            if page := desk_barcode_page(barcode):  # a kit's barcode: its return (loans/registry.py)
                return redirect(page)
            error = unknown.messages[0]
        else:
            loan = copy.loans.open().first()
            if loan is not None:
                return redirect("loans:loan-return", pk=loan.pk)
            error = _("« %(game)s » (%(barcode)s) n'est pas en prêt : il n'y a rien à rendre.") % {
                "game": copy.game.title,
                "barcode": copy.barcode,
            }
    return render(request, "loans/return_scan.html", {"error": error}, status=400 if error else 200)


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def loan_return(request: HttpRequest, pk: int) -> HttpResponse:
    loan = get_object_or_404(Loan.objects.select_related("copy__game", "member__membership_type"), pk=pk)
    if not loan.is_open:
        messages.info(
            request,
            _("« %(game)s » (%(barcode)s) a déjà été rendu le %(date)s.")
            % {
                "game": loan.copy.game.title,
                "barcode": loan.copy.barcode,
                "date": short_date(timezone.localdate(loan.returned_at)),
            },
        )
        return redirect("loans:return-scan")
    data = request.POST if request.method == "POST" else None
    form = ReturnForm(data, loan=loan)
    # What other apps add under the pieces check (« Envoyer en réparation »: loans/registry.py).
    extras = [form_class(data, loan=loan) for form_class in return_forms()]
    if form.is_valid() & all([extra.is_valid() for extra in extras]):
        try:
            with transaction.atomic():
                result = services.loan_return(
                    loan=loan,
                    staff=request.user,
                    missing=form.missing(),
                    recovered=form.recovered(),
                    playable_anyway=form.cleaned_data["playable_anyway"],
                    waive_late_fee=form.cleaned_data.get("waive_late_fee", False),
                    waive_missing_pieces=form.cleaned_data.get("waive_missing_pieces", False),
                    keep_back=any(extra.keeps_copy() for extra in extras),
                    site=chosen_desk_site(request),
                )
                said = [extra.apply(result=result, staff=request.user) for extra in extras]
        except ValidationError as error:
            add_refusal(form, error, {})
        else:
            _announce_return(request, result)
            for text in filter(None, said):
                messages.warning(request, text)
            return redirect("loans:return-scan")
    status = 400 if form.is_bound else 200
    # The family first in the queue for this game, named whether the copy comes back complete or not.
    waiting = Hold.objects.waiting().filter(game=loan.copy.game).select_related("member").order_by("position")
    context = {"loan": loan, "form": form, "extras": extras, "waiting": waiting.first()}
    return render(request, "loans/loan_return.html", context, status=status)


def _announce_return(request: HttpRequest, result: services.ReturnResult) -> None:
    loan = result.loan
    messages.success(
        request,
        _("« %(game)s » (%(barcode)s) rendu par %(family)s.")
        % {"game": loan.copy.game.title, "barcode": loan.copy.barcode, "family": loan.member.name},
    )
    if result.missing:
        pieces = ", ".join(f"{piece.quantity} × {piece.component.label}" for piece in result.missing)
        if loan.return_check == Loan.ReturnCheck.INCOMPLETE:
            text = _("Il manque %(pieces)s : l'exemplaire est marqué incomplet et ne sera plus prêté.")
        else:
            text = _("Il manque %(pieces)s : noté, l'exemplaire reste prêtable.")
        messages.warning(request, text % {"pieces": pieces})
    _announce_money(request, result)
    _announce_hold(request, result.hold)
    if result.transfer is not None and result.transfer.hold_id is None:
        messages.warning(
            request,
            _(
                "Cet exemplaire n'est pas de ce site : mettez « %(game)s » (%(barcode)s) de côté, à envoyer à %(site)s."
            )
            % {
                "game": loan.copy.game.title,
                "barcode": loan.copy.barcode,
                "site": result.transfer.to_site.name,
            },
            extra_tags="hold",
        )
    if result.waiting is not None:
        if result.kept_back:
            text = _(
                "%(family)s (carte %(card)s) attend « %(game)s » : cet exemplaire n'est pas mis de côté "
                "car il ne retourne pas en rayon ; la famille reste première de la file."
            )
        else:
            text = _(
                "%(family)s (carte %(card)s) attend « %(game)s » : cet exemplaire n'est pas mis de côté "
                "car il est incomplet ; la famille reste première de la file."
            )
        messages.warning(
            request,
            text
            % {
                "family": result.waiting.member.name,
                "card": result.waiting.member.card_barcode,
                "game": loan.copy.game.title,
            },
            extra_tags="hold",
        )


def _announce_money(request: HttpRequest, result: services.ReturnResult) -> None:
    """Say what a return or a loss charged the family, waived, or credited back."""
    for charge in result.charges:
        values = {"kind": charge.get_kind_display(), "amount": euros(charge.amount), "note": charge.note}
        if charge.waived:
            messages.info(request, _("%(kind)s (%(note)s) : %(amount)s remis, non facturé.") % values)
        else:
            messages.warning(request, _("%(kind)s (%(note)s) : %(amount)s facturé à la famille.") % values)
    for credit in result.credits:
        messages.info(
            request,
            _("Pièce rapportée : %(amount)s recrédité à la famille.") % {"amount": euros(-credit.amount)},
        )
    for deposit in result.deposits:  # the copy's kind asked a deposit at the loan (loans/loan_rules.py)
        messages.warning(
            request,
            _("Caution de %(amount)s rendue (%(method)s) : rendez-la à la famille.")
            % {"amount": euros(deposit.amount), "method": deposit.get_method_display().lower()},
        )


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def loan_lost(request: HttpRequest, pk: int) -> HttpResponse:
    """The family lost the game: close the loan, mark the copy lost, propose its replacement value."""
    loan = get_object_or_404(Loan.objects.select_related("copy__game", "member__membership_type"), pk=pk)
    if not loan.is_open:
        messages.info(request, _("Ce prêt est déjà clôturé."))
        return redirect(loan.member or "loans:desk")  # an anonymised loan has no family left
    price = services.lost_game_price(loan)
    form = LostForm(request.POST if request.method == "POST" else None, price=price)
    if form.is_valid():
        try:
            result = services.loan_declare_lost(
                loan=loan, staff=request.user, waive_charge=form.cleaned_data.get("waive_charge", False)
            )
        except ValidationError as error:
            add_refusal(form, error, {})
        else:
            messages.success(
                request,
                _("« %(game)s » (%(barcode)s) noté perdu par %(family)s ; l'exemplaire est retiré du prêt.")
                % {"game": loan.copy.game.title, "barcode": loan.copy.barcode, "family": loan.member.name},
            )
            _announce_money(request, result)
            if warning := waiting_warning(loan.copy):
                messages.warning(request, warning)
            return redirect(loan.member)
    status = 400 if form.is_bound else 200
    context = {"loan": loan, "form": form, "price": price, "waiting": waiting_warning(loan.copy)}
    return render(request, "loans/loan_lost.html", context, status=status)
