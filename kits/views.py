"""The desk's kits (`/comptoir/malles/…`): where each kit is, a kit with its contents and checklist,
lending it to a group, taking it back with every copy's pieces check on one page, its label."""

from types import SimpleNamespace
from urllib.parse import urlencode

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Count, Prefetch
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.labels import PRESETS, label_sheets
from loans.forms import ReturnForm
from loans.models import Loan
from loans.registry import return_forms
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal
from members.models import Member
from opening.schedule import weekday_date

from . import services
from .forms import KitCopyForm, KitLendForm, KitScanForm, MaterialForm
from .models import Kit, KitItem, KitLoan

# A refusal of the loans app is about the borrower (`member`) or a copy of the kit (the whole form).
LEND_FIELDS = {"member": "card", "without_missing": "without_missing", **KitLendForm.DEPOSIT_REFUSALS}


def _kits_with_whereabouts():
    """Every kit with its number of copies and its open loan and borrower: three queries in all."""
    return (
        Kit.objects.select_related("site")
        .annotate(copies=Count("items"))
        .prefetch_related(
            Prefetch("loans", queryset=KitLoan.objects.open().select_related("member"), to_attr="open_loans")
        )
    )


@staff_required
@require_GET
def kit_list(request: HttpRequest) -> HttpResponse:
    """The kits and where each is; scanning a kit opens its page, or its return when it is out."""
    form = KitScanForm(request.GET or None)
    if form.is_valid():
        kit = form.cleaned_data["barcode"]
        if kit.loans.open().exists():
            return redirect("kits:kit-return", pk=kit.pk)
        return redirect(kit)
    context = {"form": form, "kits": _kits_with_whereabouts(), "today": timezone.localdate()}
    return render(request, "kits/kit_list.html", context, status=400 if form.is_bound else 200)


def _detail(request: HttpRequest, kit: Kit, *, lend_form=None, copy_form=None, status: int = 200):
    report = services.kit_completeness(kit)
    items = dict(kit.items.values_list("copy_id", "pk"))
    context = {
        "kit": kit,
        "report": report,
        "problems": services.describe_problems(report),
        "lend_form": lend_form or KitLendForm(),
        "copy_form": copy_form or KitCopyForm(),
        "history": kit.loans.select_related("member")[:10],
        "rows": [(line, items[line.copy.pk]) for line in report.lines],
    }
    return render(request, "kits/kit_detail.html", context, status=status)


@staff_required
@require_GET
def kit_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The kit's page; `?carte=` (a kit scanned on a group's page) fills in the borrower's card."""
    kit = get_object_or_404(Kit.objects.select_related("site"), pk=pk)
    card = request.GET.get("carte", "")[:40]
    return _detail(request, kit, lend_form=KitLendForm(initial={"card": card}) if card else None)


def desk_barcode_page(barcode: str, member: Member | None) -> str | None:
    """For the desk's boxes (loans/registry.py): a kit scanned on a member's page opens it ready to lend
    to that member; from the return box or the card box, its return when it is out, else its page."""
    kit = Kit.objects.filter(barcode__iexact=barcode).first()
    if kit is None:
        return None
    if member is not None:
        return f"{kit.get_absolute_url()}?{urlencode({'carte': member.card_barcode})}"
    if kit.loans.open().exists():
        return reverse("kits:kit-return", kwargs={"pk": kit.pk})
    return kit.get_absolute_url()


@staff_required
@require_POST
def kit_lend(request: HttpRequest, pk: int) -> HttpResponse:
    kit = get_object_or_404(Kit.objects.select_related("site"), pk=pk)
    form = KitLendForm(request.POST)
    if form.is_valid():
        member = form.cleaned_data["card"]
        try:
            kit_loan = services.kit_lend(
                kit=kit,
                member=member,
                staff=request.user,
                without_missing=form.cleaned_data["without_missing"],
                lend_incomplete=form.cleaned_data["lend_incomplete"],
                deposit_method=form.cleaned_data["deposit_method"],
                deposit_cheque_number=form.cleaned_data["deposit_cheque_number"],
            )
        except ValidationError as error:
            add_refusal(form, error, LEND_FIELDS)
        else:
            count = kit_loan.lines.count()
            messages.success(
                request,
                ngettext(
                    "Malle « %(kit)s » prêtée à %(family)s : %(count)s jeu, à rendre le %(date)s.",
                    "Malle « %(kit)s » prêtée à %(family)s : %(count)s jeux, à rendre le %(date)s.",
                    count,
                )
                % {
                    "kit": kit.name,
                    "family": member.borrower_label,
                    "count": count,
                    "date": weekday_date(kit_loan.due_on),
                },
            )
            return redirect(kit)
    return _detail(request, kit, lend_form=form, status=400)


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def kit_return(request: HttpRequest, pk: int) -> HttpResponse:
    """The kit's return on one page: each copy's checklist, then the loose material, one confirmation."""
    kit = get_object_or_404(Kit.objects.select_related("site"), pk=pk)
    kit_loan = kit.loans.open().select_related("member").first()
    if kit_loan is None:
        messages.info(request, services.not_on_loan_message(kit))
        return redirect(kit)
    data = request.POST if request.method == "POST" else None
    out = (
        Loan.objects.open()
        .filter(kit_line__kit_loan=kit_loan)
        .select_related("copy__game", "member__membership_type")
        .prefetch_related("copy__game__components")
        .order_by("copy__game__title", "copy__barcode")
    )
    forms = [ReturnForm(data, loan=loan, prefix=f"loan{loan.pk}") for loan in out]
    # What other apps add under each copy's pieces check (« Envoyer en réparation »: loans/registry.py).
    extras = [
        [
            form_class(data, loan=loan, prefix=f"loan{loan.pk}-{index}")
            for index, form_class in enumerate(return_forms())
        ]
        for loan in out
    ]
    material = MaterialForm(data, kit=kit)
    valid = [form.is_valid() for form in forms] + [extra.is_valid() for more in extras for extra in more]
    if data is not None and all(valid) and material.is_valid():
        all_complete = ReturnForm.ALL_COMPLETE in data
        checks = {
            form_loan.pk: services.CopyCheck(
                missing=form.missing(),
                recovered=form.recovered(),
                playable_anyway=form.cleaned_data["playable_anyway"],
                waive_late_fee=form.cleaned_data.get("waive_late_fee", False),
                waive_missing_pieces=form.cleaned_data.get("waive_missing_pieces", False),
                keep_back=any(extra.keeps_copy() for extra in more),
            )
            for form_loan, form, more in zip(out, forms, extras, strict=True)
        }
        missing = "" if all_complete else material.missing()
        try:
            with transaction.atomic():
                results = services.kit_return(
                    kit_loan=kit_loan, staff=request.user, checks=checks, material_missing=missing
                )
                by_loan = {result.loan.pk: result for result in results}
                said = [
                    extra.apply(result=by_loan[loan.pk], staff=request.user)
                    for loan, more in zip(out, extras, strict=True)
                    for extra in more
                ]
        except ValidationError as error:
            add_refusal(material, error, {})
        else:
            _announce_return(request, kit, kit_loan, results, missing)
            for text in filter(None, said):
                messages.warning(request, text)
            return redirect("kits:kit-list")
    context = {
        "kit": kit,
        "kit_loan": kit_loan,
        "checks": list(zip(out, forms, extras, strict=True)),
        "material": material,
    }
    return render(request, "kits/kit_return.html", context, status=400 if data is not None else 200)


def _announce_return(request: HttpRequest, kit: Kit, kit_loan: KitLoan, results: list, missing: str) -> None:
    messages.success(
        request,
        ngettext(
            "Malle « %(kit)s » rendue par %(family)s : %(count)s jeu repris.",
            "Malle « %(kit)s » rendue par %(family)s : %(count)s jeux repris.",
            len(results),
        )
        % {"kit": kit.name, "family": kit_loan.member.borrower_label, "count": len(results)},
    )
    for result in results:
        if result.missing:
            pieces = ", ".join(f"{piece.quantity} × {piece.component.label}" for piece in result.missing)
            messages.warning(
                request,
                _("« %(game)s » (%(barcode)s) : il manque %(pieces)s.")
                % {
                    "game": result.loan.copy.game.title,
                    "barcode": result.loan.copy.barcode,
                    "pieces": pieces,
                },
            )
    if missing:
        messages.warning(request, _("Matériel manquant, noté sur la malle : %(what)s.") % {"what": missing})


@staff_required
@require_POST
def kit_copy_add(request: HttpRequest, pk: int) -> HttpResponse:
    kit = get_object_or_404(Kit.objects.select_related("site"), pk=pk)
    form = KitCopyForm(request.POST)
    if form.is_valid():
        copy = form.cleaned_data["barcode"]
        try:
            services.kit_add_copy(kit=kit, copy=copy)
        except ValidationError as error:
            add_refusal(form, error, {"barcode": "barcode"})
        else:
            messages.success(
                request,
                _("« %(game)s » (%(barcode)s) ajouté à la malle.")
                % {"game": copy.game.title, "barcode": copy.barcode},
            )
            return redirect(kit)
    return _detail(request, kit, copy_form=form, status=400)


@staff_required
@require_POST
def kit_copy_remove(request: HttpRequest, pk: int, item: int) -> HttpResponse:
    item = get_object_or_404(KitItem.objects.select_related("kit", "copy__game"), pk=item, kit_id=pk)
    try:
        services.kit_remove_copy(item=item)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("« %(game)s » (%(barcode)s) retiré de la malle : il peut être prêté seul.")
            % {"game": item.copy.game.title, "barcode": item.copy.barcode},
        )
    return redirect(item.kit)


@staff_required
@require_GET
def kit_label(request: HttpRequest, pk: int) -> HttpResponse:
    """The kit's label, drawn like the copies' (catalogue/labels.py), ready to print on its sheet."""
    kit = get_object_or_404(Kit.objects.select_related("site"), pk=pk)
    layout = PRESETS["2x7"][1]
    # A label reads a copy's game title, barcode, cote and site: the kit's name and barcode stand in.
    stand_in = SimpleNamespace(
        game=SimpleNamespace(title=kit.name), barcode=kit.barcode, cote=_("MALLE"), location=kit.site
    )
    context = {"kit": kit, "layout": layout, "sheets": label_sheets([stand_in], layout)}
    return render(request, "kits/kit_label.html", context)
