"""The desk renews a loan; a late one's fee is charged or waived first, on the record."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from ludotheque.access import staff_required
from opening.schedule import weekday_date

from . import services
from .forms import RenewForm, add_refusal
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
    if form.is_valid():
        try:
            loan = services.loan_renew(loan=loan, staff=request.user, **form.cleaned_data)
        except ValidationError as error:
            if not set(getattr(error, "error_dict", {})) & set(DECISION_FIELDS):
                return _render_member(request, _get_member(loan.member_id), refusal=error, status=400)
            add_refusal(form, error, DECISION_FIELDS)
        else:
            messages.success(
                request,
                _("« %(game)s » prolongé : à rendre le %(date)s.")
                % {"game": loan.copy.game.title, "date": weekday_date(loan.due_on)},
            )
            return redirect("loans:member-detail", pk=loan.member_id)
    context = {"loan": loan, "form": form, "fee": fee, "days_late": loan.days_late(today)}
    return render(request, "loans/loan_renew.html", context, status=400 if form.is_bound else 200)
