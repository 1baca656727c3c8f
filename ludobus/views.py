"""The ludobus desk: the offline page, its data, its sync, the conflicts to settle, and the web app's
manifest and service worker (scope /comptoir/)."""

import hashlib
import json

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.templatetags.static import static
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.cache import never_cache
from django.views.decorators.http import require_GET, require_POST

from catalogue.models import Copy, Location
from ledger.models import Method
from ludotheque.access import staff_required
from members.models import Member

from .forms import MAX_ACTIONS, ActionForm, DismissForm, RetryForm
from .models import OfflineAction
from .replay import action_dismiss, action_replay, action_retry
from .snapshot import KEEP_DAYS, tour_data
from .texts import tour_texts

SETTLED_SHOWN = 20
# What the service worker keeps for the offline page besides the page itself (docs/operations.md).
OFFLINE_ASSETS = ("css/ludotheque.css", "js/tour.js", "js/tour-register.js", "img/ludobus-192.png")

# How each kind of conflict is usually settled, said beside it.
WAYS = {
    "not_on_loan": gettext_lazy(
        "Le jeu a été rendu ailleurs entre-temps : vérifiez qu'il est bien revenu, puis classez ce conflit."
    ),
    "membership_expired": gettext_lazy(
        "L'adhésion a pris fin : renouvelez-la sur la fiche de la famille puis réessayez, "
        "ou récupérez le jeu et classez ce conflit."
    ),
    "quota_reached": gettext_lazy(
        "La famille a déjà son maximum de jeux : enregistrez d'abord le retour d'un de ses jeux puis "
        "réessayez, ou récupérez ce jeu et classez ce conflit."
    ),
    "already_on_loan": gettext_lazy(
        "Le jeu est en prêt chez une autre famille : passez-le au retour s'il est revenu, puis réessayez."
    ),
    "lend_not_recorded": gettext_lazy("Réglez d'abord le conflit du prêt de ce jeu, puis réessayez."),
    "deposit_required": gettext_lazy(
        "Ce type de jeu demande une caution : dites comment la famille l'a versée, puis réessayez ; "
        "ou récupérez le jeu et classez ce conflit."
    ),
    "kind_quota_reached": gettext_lazy(
        "La famille a déjà le maximum de jeux de ce type : enregistrez d'abord le retour de l'un d'eux "
        "puis réessayez, ou récupérez ce jeu et classez ce conflit."
    ),
}
# The refusals of a lend's deposit (loans/checkout.py, ledger/services.py): its retry asks how it was paid.
DEPOSIT_CODES = {"deposit_required", "method_required", "cheque_number_required", "cheque_number_not_cheque"}
OTHER_WAY = gettext_lazy(
    "Réessayez une fois la cause réglée, ou classez ce conflit en disant comment il a été réglé."
)


@staff_required
@require_GET
def tour(request: HttpRequest) -> HttpResponse:
    """The ludobus desk: prepare a tour, then lend, take back and count visits, online or not."""
    context = {
        "sites": Location.objects.order_by("name"),
        "texts": tour_texts(),
        "keep_days": KEEP_DAYS,
        "conflicts": OfflineAction.objects.conflicts().count(),
        "deposit_methods": Method.choices,
    }
    return render(request, "ludobus/tour.html", context)


@staff_required
@require_GET
@never_cache
def tour_download(request: HttpRequest, pk: int) -> JsonResponse:
    """« Préparer la tournée »: the site's families, copies and rules, for the desk to keep offline."""
    return JsonResponse(tour_data(get_object_or_404(Location, pk=pk)))


def _bad_request(errors: dict) -> JsonResponse:
    return JsonResponse({"errors": errors}, status=400)


@staff_required
@require_POST
@never_cache
def tour_sync(request: HttpRequest) -> JsonResponse:
    """Replay the offline desk's actions in their order, each once; answer each one's outcome."""
    try:
        body = json.loads(request.body)
        # A lone surrogate (\ud800) decodes, but no database text can hold it.
        json.dumps(body, ensure_ascii=False).encode()
    except (ValueError, RecursionError):
        return _bad_request({"actions": [_("Le contenu envoyé n'est pas du JSON.")]})
    actions = body.get("actions") if isinstance(body, dict) else None
    if not isinstance(actions, list) or not 1 <= len(actions) <= MAX_ACTIONS:
        return _bad_request(
            {"actions": [_("Envoyez une liste de 1 à %(max)s actions.") % {"max": MAX_ACTIONS}]}
        )
    forms = [ActionForm(action if isinstance(action, dict) else {}) for action in actions]
    errors = {
        str(index): {name: list(messages) for name, messages in form.errors.items()}
        for index, form in enumerate(forms)
        if not form.is_valid()
    }
    if errors:
        return _bad_request(errors)
    results = []
    for form in sorted(forms, key=lambda form: form.cleaned_data["sequence"]):
        action = action_replay(staff=request.user, **form.replay_values())
        results.append(
            {
                "id": str(action.pk),
                "status": action.status,
                "label": action.get_status_display(),
                "reason": action.reason,
            }
        )
    return JsonResponse({"results": results, "conflicts_url": reverse("ludobus:conflict-list")})


def _describe(actions: list[OfflineAction]) -> None:
    """Name each action's family and game (what the desk recorded was a card and a barcode)."""
    cards = {action.card.upper() for action in actions if action.card}
    barcodes = {action.barcode for action in actions if action.barcode}
    families = {
        member.card_barcode.upper(): member for member in Member.objects.filter(card_barcode__in=cards)
    }
    copies = {copy.barcode: copy for copy in Copy.objects.filter(barcode__in=barcodes).select_related("game")}
    for action in actions:
        action.family = families.get(action.card.upper())
        action.copy = copies.get(action.barcode)
        action.way = WAYS.get(action.reason_code, OTHER_WAY)
        action.asks_deposit = action.reason_code in DEPOSIT_CODES


@staff_required
@require_GET
def conflict_list(request: HttpRequest) -> HttpResponse:
    """The offline actions the desk's services refused on replay, to settle, and the last ones settled."""
    return _render_conflicts(request)


def _render_conflicts(request: HttpRequest, *, status: int = 200) -> HttpResponse:
    conflicts = list(
        OfflineAction.objects.conflicts()
        .select_related("location", "sent_by")
        .order_by("received_at", "sequence")
    )
    settled = list(
        OfflineAction.objects.filter(settled_at__isnull=False)
        .select_related("location", "settled_by")
        .order_by("-settled_at")[:SETTLED_SHOWN]
    )
    _describe(conflicts + settled)
    return render(
        request,
        "ludobus/conflict_list.html",
        {"conflicts": conflicts, "settled": settled, "deposit_methods": Method.choices},
        status=status,
    )


@staff_required
@require_POST
def conflict_settle(request: HttpRequest, pk) -> HttpResponse:
    """Settle a conflict: apply it again now (`retry`), or close it with a note (`dismiss`)."""
    action = get_object_or_404(OfflineAction, pk=pk)
    try:
        if request.POST.get("settle") == "retry":
            form = RetryForm(request.POST)
            if not form.is_valid():
                messages.error(
                    request, " ".join(error for errors in form.errors.values() for error in errors)
                )
                return _render_conflicts(request, status=400)
            if action_retry(action=action, staff=request.user, **form.cleaned_data):
                messages.success(request, _("Action enregistrée : le conflit est réglé."))
            else:
                action.refresh_from_db()
                messages.error(request, _("Toujours refusée : %(reason)s") % {"reason": action.reason})
        elif request.POST.get("settle") == "dismiss":
            form = DismissForm(request.POST)
            if not form.is_valid():
                messages.error(request, " ".join(form.errors["note"]))
                return _render_conflicts(request, status=400)
            action_dismiss(action=action, staff=request.user, note=form.cleaned_data["note"])
            messages.success(request, _("Conflit classé sans suite."))
        else:
            return HttpResponse(_("Action inconnue."), status=400)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect("ludobus:conflict-list")


@require_GET
def manifest(request: HttpRequest) -> JsonResponse:
    """The desk as an installable web app; public, as browsers fetch a manifest without cookies."""
    data = {
        "name": _("Ludothèque — comptoir du ludobus"),
        "short_name": _("Ludobus"),
        "lang": request.LANGUAGE_CODE,
        "start_url": reverse("ludobus:tour"),
        "scope": reverse("loans:desk"),
        "display": "standalone",
        "background_color": "#ffffff",
        "theme_color": "#1d4e89",
        "icons": [
            {"src": static("img/ludobus-192.png"), "sizes": "192x192", "type": "image/png"},
            {"src": static("img/ludobus-512.png"), "sizes": "512x512", "type": "image/png"},
        ],
    }
    return JsonResponse(
        data, content_type="application/manifest+json", json_dumps_params={"ensure_ascii": False}
    )


@require_GET
def service_worker(request: HttpRequest) -> HttpResponse:
    """The desk's service worker, served under /comptoir/ so that its scope is the whole desk."""
    shell = reverse("ludobus:tour")
    assets = [static(path) for path in OFFLINE_ASSETS]
    # A new version of an asset (its hashed name) is a new worker, which replaces the old cache.
    version = hashlib.sha256("\n".join([shell, *assets]).encode()).hexdigest()[:16]
    response = render(
        request,
        "ludobus/sw.js",
        {"shell": shell, "assets": assets, "version": version},
        content_type="text/javascript; charset=utf-8",
    )
    response["Cache-Control"] = "no-cache"
    return response
