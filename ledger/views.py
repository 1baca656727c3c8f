"""The desk's money pages (staff only): a family's ledger, payments and receipts, deposits, renewals,
the till. The treasurer's reports are in ledger/reports.py."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.core.paginator import Paginator
from django.db.models import Q
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import Location
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal, next_url
from members.models import Member, MembershipType
from once.forms import submit_once

from . import services
from .forms import (
    REFUSAL_FIELDS,
    ChargeForm,
    DepositSettleForm,
    MoneyForm,
    RenewalForm,
    ReversalForm,
    TillCloseForm,
    TillClosureReverseForm,
    desk_site,
    remember_site,
)
from .models import ZERO, Entry, Kind, Method, TillClosure, TillClosureReversal, money_sum, till_effect
from .services import euros
from .till import till_close, till_period
from .till import till_closure_reverse as till_closure_reverse_write

ENTRIES_PER_PAGE = 50
# A till period normally holds one opening's entries; the page lists at most this many.
TILL_ENTRIES_SHOWN = 1000
MONTHS = range(1, 13)


def _get_member(pk: int) -> Member:
    return get_object_or_404(Member.objects.select_related("membership_type"), pk=pk)


# A family's ledger: its balance, deposits and entries, and the forms that add to them.


def _render_family(request: HttpRequest, member: Member, *, status: int = 200, **forms) -> HttpResponse:
    entries = Entry.objects.filter(member=member)
    balance = entries.balance()
    page = Paginator(entries.for_display().order_by("-recorded_at", "-pk"), ENTRIES_PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "member": member,
        "balance": balance,
        "deposits": entries.deposits_held().select_related("site").order_by("recorded_at"),
        "page": page,
        "payment_form": forms.get("payment_form")
        or MoneyForm(request=request, initial={"amount": balance} if balance > 0 else {}),
        "charge_form": forms.get("charge_form") or ChargeForm(request=request),
        "deposit_form": forms.get("deposit_form") or MoneyForm(request=request, prefix="deposit"),
        "refund_form": forms.get("refund_form")
        or MoneyForm(request=request, prefix="refund", initial={"amount": -balance} if balance < 0 else {}),
        "memberships": member.memberships.select_related("membership_type")[:10],
        "first_membership": services.is_first_membership(member),
        "desk_site": desk_site(request),
    }
    return render(request, "ledger/family.html", context, status=status)


@staff_required
@require_GET
def family(request: HttpRequest, pk: int) -> HttpResponse:
    return _render_family(request, _get_member(pk))


def _money_view(request: HttpRequest, pk: int, *, prefix: str | None, form_name: str, write) -> HttpResponse:
    """Validate a money form, call the service `write(member, data, staff)`, show the receipt if any."""
    member = _get_member(pk)
    form = MoneyForm(request.POST, request=request, prefix=prefix)

    def act() -> HttpResponse | None:
        data = form.cleaned_data
        try:
            entry = write(member=member, data=data, staff=request.user)
        except ValidationError as error:
            add_refusal(form, error, REFUSAL_FIELDS)
            return None
        remember_site(request, data["site"])
        messages.success(
            request,
            _("%(kind)s de %(amount)s enregistré pour %(family)s.")
            % {"kind": entry.get_kind_display(), "amount": euros(entry.amount), "family": member.name},
        )
        if entry.receipt:
            return redirect("ledger:receipt", pk=entry.pk)
        return redirect("ledger:family", pk=member.pk)

    if form.is_valid() and (answer := submit_once(request, form, act)):
        return answer
    return _render_family(request, member, status=400, **{form_name: form})


def _money(data: dict) -> dict:
    return {
        "amount": data["amount"],
        "method": data["method"],
        "cheque_number": data["cheque_number"],
        "note": data["note"],
        "site": data["site"],
    }


@staff_required
@require_POST
def payment_create(request: HttpRequest, pk: int) -> HttpResponse:
    def write(*, member, data, staff):
        return services.payment_create(member=member, staff=staff, **_money(data))

    return _money_view(request, pk, prefix=None, form_name="payment_form", write=write)


@staff_required
@require_POST
def deposit_receive(request: HttpRequest, pk: int) -> HttpResponse:
    def write(*, member, data, staff):
        return services.deposit_receive(member=member, staff=staff, **_money(data))

    return _money_view(request, pk, prefix="deposit", form_name="deposit_form", write=write)


@staff_required
@require_POST
def refund_create(request: HttpRequest, pk: int) -> HttpResponse:
    def write(*, member, data, staff):
        return services.refund_create(member=member, staff=staff, **_money(data))

    return _money_view(request, pk, prefix="refund", form_name="refund_form", write=write)


@staff_required
@require_POST
def charge_create(request: HttpRequest, pk: int) -> HttpResponse:
    member = _get_member(pk)
    form = ChargeForm(request.POST, request=request)

    def act() -> HttpResponse | None:
        data = form.cleaned_data
        try:
            entry = services.charge_create(
                member=member,
                kind=data["kind"],
                amount=data["amount"],
                note=data["note"],
                site=data["site"],
                staff=request.user,
            )
        except ValidationError as error:
            add_refusal(form, error, REFUSAL_FIELDS)
            return None
        remember_site(request, data["site"])
        messages.success(
            request,
            _("%(kind)s de %(amount)s facturé à %(family)s.")
            % {"kind": entry.get_kind_display(), "amount": euros(entry.amount), "family": member.name},
        )
        return redirect("ledger:family", pk=member.pk)

    if form.is_valid() and (answer := submit_once(request, form, act)):
        return answer
    return _render_family(request, member, status=400, charge_form=form)


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def entry_reverse(request: HttpRequest, pk: int) -> HttpResponse:
    """Confirm, with a reason, the cancellation of a mistaken entry."""
    entry = get_object_or_404(Entry.objects.for_display(), pk=pk)
    form = ReversalForm(request.POST if request.method == "POST" else None, request=request)
    if form.is_valid():
        try:
            services.entry_reverse(
                entry=entry,
                staff=request.user,
                site=form.cleaned_data["site"],
                note=form.cleaned_data["note"],
            )
        except ValidationError as error:
            add_refusal(form, error, REFUSAL_FIELDS)
        else:
            remember_site(request, form.cleaned_data["site"])
            messages.success(
                request,
                _("Écriture annulée : %(kind)s de %(amount)s.")
                % {"kind": entry.get_kind_display(), "amount": euros(entry.amount)},
            )
            return redirect(entry)  # a family's ledger, or the books for the ludothèque's expense
    status = 400 if form.is_bound else 200
    return render(request, "ledger/entry_reverse.html", {"entry": entry, "form": form}, status=status)


def _deposit_view(request: HttpRequest, pk: int, *, settle, done: str) -> HttpResponse:
    deposit = get_object_or_404(Entry.objects.select_related("member"), pk=pk, kind=Kind.DEPOSIT_RECEIVED)
    form = DepositSettleForm(request.POST, request=request)
    if form.is_valid():
        try:
            settle(
                deposit=deposit,
                staff=request.user,
                site=form.cleaned_data["site"],
                note=form.cleaned_data["note"],
            )
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
        else:
            remember_site(request, form.cleaned_data["site"])
            messages.success(request, done % {"amount": euros(deposit.amount), "family": deposit.member.name})
    else:
        messages.error(request, " ".join(str(error) for errors in form.errors.values() for error in errors))
    return redirect(next_url(request, reverse("ledger:family", args=[deposit.member_id])))


@staff_required
@require_POST
def deposit_return(request: HttpRequest, pk: int) -> HttpResponse:
    return _deposit_view(
        request, pk, settle=services.deposit_return, done=_("Caution de %(amount)s rendue à %(family)s.")
    )


@staff_required
@require_POST
def deposit_cash(request: HttpRequest, pk: int) -> HttpResponse:
    return _deposit_view(
        request, pk, settle=services.deposit_cash, done=_("Caution de %(amount)s de %(family)s encaissée.")
    )


# Memberships.


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def membership_renew(request: HttpRequest, pk: int) -> HttpResponse:
    """Renew a family's membership: the new period, its price, paid now or owed (never an erased one's)."""
    member = get_object_or_404(
        Member.objects.select_related("membership_type"), pk=pk, erased_at__isnull=True
    )
    form = RenewalForm(
        request.POST if request.method == "POST" else None,
        request=request,
        initial={"membership_type": member.membership_type_id},
    )

    def act() -> HttpResponse | None:
        data = form.cleaned_data
        try:
            renewal = services.membership_renew(
                member=member,
                membership_type=data["membership_type"],
                method=data["method"],
                cheque_number=data["cheque_number"],
                site=data["site"],
                staff=request.user,
            )
        except ValidationError as error:
            add_refusal(form, error, REFUSAL_FIELDS)
            return None
        remember_site(request, data["site"])
        membership = renewal.membership
        text = _("Adhésion de %(family)s renouvelée : « %(type)s » jusqu'au %(date)s.") % {
            "family": member.name,
            "type": membership.membership_type.name,
            "date": formats.date_format(membership.end, "SHORT_DATE_FORMAT"),
        }
        owed = Entry.objects.filter(member=member).balance()
        if owed > 0:
            text += " " + _("Reste dû : %(amount)s.") % {"amount": euros(owed)}
        messages.success(request, text)
        if renewal.payment is not None:
            return redirect("ledger:receipt", pk=renewal.payment.pk)
        return redirect(member.get_absolute_url())

    if form.is_valid() and (answer := submit_once(request, form, act)):
        return answer
    today = timezone.localdate()
    types = [
        dict(zip(("start", "end"), services.renewal_period(member, membership_type, today), strict=True))
        | {"type": membership_type}
        for membership_type in MembershipType.objects.order_by("name")
    ]
    context = {
        "member": member,
        "form": form,
        "start": types[0]["start"] if types else today,
        "first": services.is_first_membership(member, today),
        "types": types,
        "too_early": not services.can_renew(member, today),
        "window": services.RENEWAL_WINDOW_DAYS,
    }
    return render(request, "ledger/membership_renew.html", context, status=400 if form.is_bound else 200)


# Receipts.


@staff_required
@require_GET
def receipt(request: HttpRequest, pk: int) -> HttpResponse:
    """A numbered receipt, printable on A4 or A5 (`?format=a5`)."""
    entry = get_object_or_404(
        Entry.objects.select_related("member", "site", "clerk"), pk=pk, receipt_number__isnull=False
    )
    paper = "a5" if request.GET.get("format") == "a5" else "a4"
    context = {
        "entry": entry,
        "paper": paper,
        # What the family still owed once this money was received.
        "balance": Entry.objects.filter(member_id=entry.member_id)
        .filter(Q(recorded_at__lt=entry.recorded_at) | Q(recorded_at=entry.recorded_at, pk__lte=entry.pk))
        .balance(),
        "reversed": Entry.objects.filter(reverses=entry).first(),
    }
    return render(request, "ledger/receipt.html", context)


# Deposits held.


@staff_required
@require_GET
def deposit_list(request: HttpRequest) -> HttpResponse:
    deposits = Entry.objects.deposits_held().select_related("member", "site").order_by("recorded_at", "pk")
    total = deposits.aggregate(total=money_sum("amount"))["total"] or ZERO
    context = {"deposits": deposits, "total": total, "desk_site": desk_site(request)}
    return render(request, "ledger/deposit_list.html", context)


# The till.


def _till_site(request: HttpRequest) -> Location:
    site_id = request.GET.get("site", "")
    if site_id.isascii() and site_id.isdigit() and len(site_id) < 10:
        return get_object_or_404(Location, pk=site_id)
    site = desk_site(request)
    if site is None:
        raise Http404(_("Aucun site n'est enregistré : créez-en un dans l'administration."))
    return site


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def till(request: HttpRequest) -> HttpResponse:
    """A site's open till period: its entries, totals and the cash expected; the form that closes it."""
    site = _till_site(request)
    form = TillCloseForm(request.POST if request.method == "POST" else None)

    def act() -> HttpResponse | None:
        counted = {name: form.cleaned_data[name] for name in ("cash_counted", "float_kept", "note")}
        try:
            closure = till_close(site=site, staff=request.user, **counted)
        except ValidationError as error:
            add_refusal(form, error, REFUSAL_FIELDS)
            return None
        remember_site(request, site)
        messages.success(request, _("Caisse de %(site)s clôturée.") % {"site": site.name})
        return redirect(closure)

    if form.is_valid() and (answer := submit_once(request, form, act)):
        return answer
    standing, opened_after = till_period(site)
    entries = Entry.objects.in_period(site=site, after=opened_after)
    opening_float = standing.float_kept if standing else ZERO
    cash = entries.filter(method=Method.CASH).aggregate(total=money_sum(till_effect()))["total"] or ZERO
    context = {
        "site": site,
        "sites": Location.objects.order_by("name"),
        "previous": standing,
        "opened_after": opened_after,
        "entries": entries.for_display().order_by("recorded_at", "pk")[:TILL_ENTRIES_SHOWN],
        "entry_count": entries.count(),
        "shown": TILL_ENTRIES_SHOWN,
        "totals": _totals_rows(entries.till_totals()),
        "opening_float": opening_float,
        "cash_expected": opening_float + cash,
        "form": form,
        "closures": TillClosure.objects.filter(site=site).select_related("closed_by", "reversal")[:10],
    }
    return render(request, "ledger/till.html", context, status=400 if form.is_bound else 200)


def _totals_rows(totals: dict) -> list[dict]:
    rows = [{"method": label, **totals[value]} for value, label in Method.choices]
    rows.append(
        {
            "method": _("Total"),
            **{key: sum((row[key] for row in rows), ZERO) for key in ("payments", "deposits", "total")},
        }
    )
    return rows


def _render_closure(request: HttpRequest, closure: TillClosure, form=None, status: int = 200) -> HttpResponse:
    entries = closure.entries()
    context = {
        "closure": closure,
        "reversal": TillClosureReversal.objects.filter(closure=closure).select_related("reversed_by").first(),
        "entries": entries.for_display().order_by("recorded_at", "pk"),
        "totals": _totals_rows(entries.till_totals()),
        "form": form or TillClosureReverseForm(),
    }
    return render(request, "ledger/till_closure.html", context, status=status)


@staff_required
@require_GET
def till_closure(request: HttpRequest, pk: int) -> HttpResponse:
    """A till closure, printable: the period, totals by method, the cash counted, every entry."""
    return _render_closure(
        request, get_object_or_404(TillClosure.objects.select_related("site", "closed_by"), pk=pk)
    )


@staff_required
@require_POST
def till_closure_reverse(request: HttpRequest, pk: int) -> HttpResponse:
    """Strike out a wrong till closure (a double click, a miscount), with the reason."""
    closure = get_object_or_404(TillClosure.objects.select_related("site", "closed_by"), pk=pk)
    form = TillClosureReverseForm(request.POST)

    def act() -> HttpResponse | None:
        try:
            till_closure_reverse_write(closure=closure, staff=request.user, note=form.cleaned_data["note"])
        except ValidationError as error:
            add_refusal(form, error, {"note": "note"})
            return None
        messages.success(request, _("Clôture de caisse annulée : elle ne compte plus."))
        return redirect(closure)

    if form.is_valid() and (answer := submit_once(request, form, act)):
        return answer
    return _render_closure(request, closure, form, status=400)
