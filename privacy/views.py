"""A family's data (to read or download), the privacy page, and a family's erasure at the desk."""

import json

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.core.serializers.json import DjangoJSONEncoder
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ledger.models import Entry
from ludotheque.access import staff_required
from members.models import Member

from . import services
from .export import member_data


def _get_member_for_user(user) -> Member:
    """The family of the logged-in user; nobody else's."""
    member = Member.objects.select_related("membership_type", "user").filter(user=user).first()
    if member is None:
        raise Http404(_("Aucune famille membre n'est liée à votre identifiant."))
    return member


@login_required
@require_GET
def my_data(request: HttpRequest) -> HttpResponse:
    member = _get_member_for_user(request.user)
    context = {
        "member": member,
        "data": member_data(member),
        "loans": member.loans.select_related("copy__game").order_by("-lent_at"),
        "entries": member.ledger_entries.order_by("recorded_at", "pk"),
        "memberships": member.memberships.select_related("membership_type").order_by("start"),
    }
    return render(request, "privacy/my_data.html", context)


@login_required
@require_GET
def my_data_json(request: HttpRequest) -> HttpResponse:
    member = _get_member_for_user(request.user)
    body = json.dumps(member_data(member), cls=DjangoJSONEncoder, ensure_ascii=False, indent=2)
    response = HttpResponse(body, content_type="application/json; charset=utf-8")
    filename = f"ludotheque-{member.card_barcode}-{timezone.localdate():%Y-%m-%d}.json"
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Cache-Control"] = "private, no-store"
    return response


@require_GET
def policy(request: HttpRequest) -> HttpResponse:
    return render(request, "privacy/policy.html", {"months": settings.HISTORY_RETENTION_MONTHS})


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def member_erase(request: HttpRequest, pk: int) -> HttpResponse:
    """Ask for confirmation, then erase the family (privacy.services.member_erase) or say why not."""
    member = get_object_or_404(Member.objects.filter(erased_at__isnull=True), pk=pk)
    if request.method == "POST":
        try:
            services.member_erase(member=member, staff=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return redirect("loans:member-detail", pk=member.pk)
        messages.success(request, _("La famille a été effacée ; son historique est anonymisé."))
        return redirect("loans:desk")
    entries = Entry.objects.filter(member=member)
    context = {
        "member": member,
        "open_loans": member.loans.open().count(),
        "balance": entries.balance(),
        "deposit": entries.deposit_total(),
        "active_holds": member.holds.active().count(),
    }
    return render(request, "privacy/member_erase.html", context)
