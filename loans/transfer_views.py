"""The desk's pages of copies between sites: what to send from here, what is on its way, the
reception scan, a crate sent in one go, and the history of moves. The desk's site is the one its
clerk chose (ledger/forms.py, `desk_site`), as for the till."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import Location
from ledger.forms import desk_site, remember_site
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal
from opening.schedule import weekday_date

from . import transfers as services
from .models import Transfer
from .transfer_forms import ReceiveForm, SendForm, ShipmentForm

# The history shows this many of the latest moves of the site.
HISTORY_LINES = 50


def _site(request: HttpRequest) -> Location | None:
    chosen = request.GET.get("site", "")
    if chosen.isdigit():
        site = Location.objects.filter(pk=chosen).first()
        if site is not None:
            remember_site(request, site)
    return desk_site(request)


def _page(request: HttpRequest, site: Location, *, receive_form=None, status: int = 200) -> HttpResponse:
    lines = Transfer.objects.for_desk()
    to_send = list(lines.to_send().filter(from_site=site).order_by("to_site__name", "requested_at", "pk"))
    groups: dict[Location, list[Transfer]] = {}
    for line in to_send:
        groups.setdefault(line.to_site, []).append(line)
    context = {
        "site": site,
        "sites": Location.objects.order_by("name"),
        "to_send": list(groups.items()),
        "incoming": lines.on_the_way().filter(to_site=site).order_by("shipment__sent_at", "pk"),
        "outgoing": lines.on_the_way().filter(from_site=site).order_by("shipment__sent_at", "pk"),
        "receive_form": receive_form or ReceiveForm(),
    }
    return render(request, "loans/transfer_desk.html", context, status=status)


@staff_required
@require_GET
def transfer_desk(request: HttpRequest) -> HttpResponse:
    """À envoyer, en route vers ce site, partis d'ici: the desk's page of transfers."""
    site = _site(request)
    if site is None:
        return render(request, "loans/transfer_desk.html", {"site": None})
    return _page(request, site)


@staff_required
@require_POST
def transfer_send(request: HttpRequest) -> HttpResponse:
    """Mark the copies ticked in a group of « À envoyer » as sent."""
    site = desk_site(request)
    form = SendForm(request.POST)
    if site is None or not form.is_valid():
        messages.error(request, " ".join(error for errors in form.errors.values() for error in errors))
        return redirect("loans:transfer-desk")
    lines = list(form.cleaned_data["transfers"].select_related("copy", "to_site"))
    try:
        shipment = services.transfer_send(
            copies=[line.copy for line in lines], from_site=site, to_site=lines[0].to_site, staff=request.user
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("loans:transfer-desk")
    messages.success(
        request,
        ngettext(
            "%(count)s exemplaire envoyé à %(site)s.", "%(count)s exemplaires envoyés à %(site)s.", len(lines)
        )
        % {"count": len(lines), "site": shipment.to_site.name},
    )
    return redirect("loans:transfer-desk")


def _announce_arrival(request: HttpRequest, arrival: services.Arrival) -> None:
    copy = arrival.transfer.copy
    hold = arrival.hold
    if hold is not None and hold.status == hold.Status.READY:
        messages.warning(
            request,
            _(
                "Arrivé : mettez « %(game)s » (%(barcode)s) de côté pour %(family)s (carte %(card)s), "
                "à retirer avant le %(date)s. La famille est prévenue."
            )
            % {
                "game": copy.game.title,
                "barcode": copy.barcode,
                "family": hold.member.name,
                "card": hold.member.card_barcode,
                "date": weekday_date(hold.ready_until),
            },
            extra_tags="hold",
        )
    elif arrival.onward is not None:
        messages.warning(
            request,
            _("Arrivé, mais « %(game)s » (%(barcode)s) repart : à envoyer à %(site)s.")
            % {"game": copy.game.title, "barcode": copy.barcode, "site": arrival.onward.to_site.name},
        )
    else:
        messages.success(
            request,
            _("Arrivé : « %(game)s » (%(barcode)s) est en rayon ici.")
            % {"game": copy.game.title, "barcode": copy.barcode},
        )


@staff_required
@require_POST
def transfer_receive(request: HttpRequest) -> HttpResponse:
    """« Réception »: a copy scanned in at this desk's site."""
    site = desk_site(request)
    if site is None:
        return redirect("loans:transfer-desk")
    form = ReceiveForm(request.POST)
    if form.is_valid():
        try:
            arrival = services.transfer_receive(
                copy=form.cleaned_data["barcode"], site=site, staff=request.user
            )
        except ValidationError as error:
            add_refusal(form, error, {"barcode": "barcode"})
        else:
            _announce_arrival(request, arrival)
            return redirect("loans:transfer-desk")
    return _page(request, site, receive_form=form, status=400)


@staff_required
@require_http_methods(["GET", "POST"])
def shipment_create(request: HttpRequest) -> HttpResponse:
    """« Envoi groupé »: a crate of copies scanned one after the other, for one site."""
    site = desk_site(request)
    form = ShipmentForm(request.POST or None)
    if site is not None:
        form.fields["to_site"].queryset = Location.objects.exclude(pk=site.pk).order_by("name")
    if request.method == "POST" and site is not None and form.is_valid():
        try:
            shipment = services.transfer_send(
                copies=form.cleaned_data["barcodes"],
                from_site=site,
                to_site=form.cleaned_data["to_site"],
                staff=request.user,
                note=form.cleaned_data["note"],
            )
        except ValidationError as error:
            add_refusal(form, error, {"barcodes": "barcodes", "to_site": "to_site"})
        else:
            count = shipment.transfers.count()
            messages.success(
                request,
                ngettext(
                    "Envoi à %(site)s enregistré : %(count)s exemplaire en transit.",
                    "Envoi à %(site)s enregistré : %(count)s exemplaires en transit.",
                    count,
                )
                % {"site": shipment.to_site.name, "count": count},
            )
            return redirect("loans:transfer-desk")
    status = 400 if request.method == "POST" else 200
    return render(request, "loans/shipment_form.html", {"form": form, "site": site}, status=status)


@staff_required
@require_GET
def transfer_history(request: HttpRequest) -> HttpResponse:
    """The latest moves from or to this desk's site: who sent, when, who received, when."""
    site = _site(request)
    lines = Transfer.objects.for_desk()
    if site is not None:
        lines = lines.filter(from_site=site) | lines.filter(to_site=site)
    lines = lines.order_by("-requested_at", "-pk")[:HISTORY_LINES]
    return render(
        request,
        "loans/transfer_history.html",
        {"site": site, "lines": lines, "sites": Location.objects.order_by("name")},
    )
