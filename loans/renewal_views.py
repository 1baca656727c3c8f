"""The desk renews a loan; a late one's fee is charged or waived first, on the record."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ludotheque.access import staff_required
from ludotheque.answers import add_refusal
from once.forms import submit_once
from opening.schedule import weekday_date

from . import services
from .forms import RenewForm
from .models import Loan
from .views import _get_member, _render_member

# A refusal about these arguments is answered on the renewal's own page, beside its choices.
DECISION_FIELDS = {"late_fee": "late_fee", "reason": "reason"}


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def loan_renew(request: HttpRequest, pk: int) -> HttpResponse:
    """Renew a loan; a late one asks first to charge its late fee or waive it, with a reason."""
    # A loan anonymised (closed, its family forgotten) has no family page to renew it from.
    loan = get_object_or_404(
        Loan.objects.select_related("copy__game", "member__membership_type"), pk=pk, member__isnull=False
    )
    today = timezone.localdate()
    fee = loan.member.membership_type.late_fee(loan.days_late(today))
    form = RenewForm(request.POST if request.method == "POST" else None, fee=fee)
    refused = None

    def act() -> HttpResponse | None:
        nonlocal refused
        decision = {name: form.cleaned_data[name] for name in DECISION_FIELDS}
        try:
            renewed = services.loan_renew(loan=loan, staff=request.user, **decision)
        except ValidationError as error:
            if set(getattr(error, "error_dict", {})) & set(DECISION_FIELDS):
                add_refusal(form, error, DECISION_FIELDS)
            else:
                refused = error
            return None
        messages.success(
            request,
            _("« %(game)s » prolongé : à rendre le %(date)s.")
            % {"game": renewed.copy.game.title, "date": weekday_date(renewed.due_on)},
        )
        return redirect("loans:member-detail", pk=renewed.member_id)

    if form.is_valid() and (answer := submit_once(request, form, act)):
        return answer
    if refused is not None:
        return _render_member(request, _get_member(loan.member_id), refusal=refused, status=400)
    context = {"loan": loan, "form": form, "fee": fee, "days_late": loan.days_late(today)}
    return render(request, "loans/loan_renew.html", context, status=400 if form.is_bound else 200)
