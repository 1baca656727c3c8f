"""The loan desk (staff only): the one box for every scan, a family's page (lend, reserve, invite),
the holds' queue. Returns, the back office's lists and a family's own account have their modules."""

from collections import Counter

from django.conf import settings
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import Copy
from ledger.forms import MoneyForm
from ledger.models import Entry
from ledger.services import renewal_due, renewal_period
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal, next_url
from members import accounts as family_accounts
from members.models import Member, MembershipType
from opening.schedule import weekday_date

from . import services
from .forms import (
    CalendarTokenForm,
    HoldForm,
    LendForm,
    ScanForm,
)
from .loan_rules import checkout_said, family_rules
from .models import Hold, Loan
from .registry import desk_barcode_page


def _announce_hold(request: HttpRequest, hold: Hold | None) -> None:
    """Tell the clerk, loud and clear, that a copy must go on the reservations shelf."""
    if hold is None:
        return
    if hold.status == Hold.Status.TRANSIT:
        messages.warning(
            request,
            _(
                "Réservation : « %(game)s » (%(barcode)s) part pour %(site)s, où %(family)s le retirera : "
                "mettez-le de côté avec les transferts à envoyer."
            )
            % {
                "game": hold.game.title,
                "barcode": hold.copy.barcode,
                "site": hold.pickup_site.name,
                "family": hold.member.name,
            },
            extra_tags="hold",
        )
        return
    messages.warning(
        request,
        _(
            "Réservation : mettez « %(game)s » (%(barcode)s) de côté pour %(family)s (carte %(card)s), "
            "à retirer avant le %(date)s."
        )
        % {
            "game": hold.game.title,
            "barcode": hold.copy.barcode,
            "family": hold.member.name,
            "card": hold.member.card_barcode,
            "date": weekday_date(hold.ready_until),
        },
        extra_tags="hold",
    )


# The desk home: one box for every scan.


@staff_required
@require_GET
def desk(request: HttpRequest) -> HttpResponse:
    form = ScanForm(request.GET if "code" in request.GET else None)
    context = {"form": form, "families": None, "copy": None}
    if form.is_valid():
        code = form.cleaned_data["code"]
        member = Member.objects.filter(card_barcode__iexact=code).first()
        if member is not None:
            return redirect("loans:member-detail", pk=member.pk)
        copy = Copy.objects.select_related("game", "kind").filter(barcode=code).first()
        if copy is not None:
            loan = copy.loans.open().first()
            if loan is not None:
                return redirect("loans:loan-return", pk=loan.pk)
            context["copy"] = copy
            context["set_aside_for"] = Hold.objects.ready().filter(copy=copy).select_related("member").first()
        elif page := desk_barcode_page(code):  # a kit's barcode: its page (loans/registry.py)
            return redirect(page)
        else:
            context["families"] = Member.objects.matching(code).select_related("membership_type")[:50]
    context["counts"] = {
        "overdue": Loan.objects.overdue().count(),
        "ready": Hold.objects.ready().count(),
        "incomplete": Copy.objects.filter(status=Copy.Status.INCOMPLETE).count(),
    }
    return render(request, "loans/desk.html", context)


# A family's page: lend, renew, reserve.


def _render_member(
    request: HttpRequest,
    member: Member,
    *,
    lend_form: LendForm | None = None,
    hold_form: HoldForm | None = None,
    refusal: ValidationError | None = None,
    shelf_offer: dict | None = None,
    status: int = 200,
) -> HttpResponse:
    loans = list(member.loans.open().select_related("copy__game", "copy__kind").order_by("due_on", "pk"))
    holds = list(member.holds.active().select_related("game", "copy", "pickup_site").with_queue_rank())
    entries = Entry.objects.filter(member=member)
    late = [loan for loan in loans if loan.is_overdue()]
    balance = entries.balance()
    today = timezone.localdate()
    membership_valid = member.membership_is_valid(today)
    renewal = None
    if not membership_valid and member.membership_start <= today and member.erased_at is None:
        # What renewing the expired membership gives, said beside the button: the new expiry and the price.
        renewal = {
            "end": renewal_period(member, member.membership_type, today)[1],
            "price": member.membership_type.price,
        }
    context = {
        "member": member,
        "balance": balance,
        "deposit_held": entries.deposit_total(),
        "renewal_due": renewal_due(member),
        "payment_form": MoneyForm(request=request, initial={"amount": balance}) if balance > 0 else None,
        "household": list(member.household.all()),
        "loans": loans,
        "late_count": len(late),
        "late_games": services.describe_late(late),
        "late_refused": bool(late) and member.membership_type.late_loans == MembershipType.LateLoans.REFUSE,
        "membership_valid": membership_valid,
        "membership_not_started": member.membership_start > today,
        "renewal": renewal,
        "shelf_offer": shelf_offer,
        "quota_left": member.quota_left(len(loans)),
        "kind_rules": _kind_rules(member, loans),
        "ready_holds": [hold for hold in holds if hold.status == Hold.Status.READY],
        "waiting_holds": [hold for hold in holds if hold.status != Hold.Status.READY],
        "history": member.loans.returned().select_related("copy__game").order_by("-returned_at")[:10],
        "lend_form": lend_form or LendForm(),
        "hold_form": hold_form or HoldForm(),
        "refusal": refusal.messages if refusal else None,
        "calendar_url": _calendar_url(request, member),
    }
    return render(request, "loans/member_detail.html", context, status=status)


def _kind_rules(member: Member, loans: list[Loan]) -> list[dict]:
    """The family's loan rule for each kind of item, with how many it has at home (loans/loan_rules.py);
    each open loan gets its own rule (`loan.rule`)."""
    at_home = Counter(loan.copy.kind_id for loan in loans)
    rules = family_rules(member)
    by_kind = {rule.kind.pk: rule for rule in rules}
    for loan in loans:
        loan.rule = by_kind.get(loan.copy.kind_id)
    return [{"rule": rule, "at_home": at_home.get(rule.kind.pk, 0)} for rule in rules]


def _calendar_url(request: HttpRequest, member: Member) -> str | None:
    if not member.calendar_token:
        return None
    return request.build_absolute_uri(reverse("loans:calendar-feed", args=[member.calendar_token]))


def _calendar_token_change(request: HttpRequest, member: Member) -> bool:
    """Renew or revoke the family's calendar address as the posted form asks; False on a bad form."""
    form = CalendarTokenForm(request.POST)
    if not form.is_valid():
        return False
    if form.cleaned_data["action"] == CalendarTokenForm.RENEW:
        member.calendar_token_renew()
        messages.success(request, _("Nouvelle adresse du calendrier créée : l'ancienne ne fonctionne plus."))
    else:
        member.calendar_token_revoke()
        messages.success(request, _("Calendrier désactivé : son adresse ne fonctionne plus."))
    return True


def _get_member(pk: int) -> Member:
    return get_object_or_404(Member.objects.select_related("membership_type"), pk=pk)


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def member_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The family's page; its form lends one scanned copy at a time and comes back ready for the next."""
    member = _get_member(pk)
    if request.method != "POST":
        return _render_member(request, member)
    form = LendForm(request.POST)
    if form.is_valid():
        copy = form.cleaned_data["barcode"]
        try:
            loan = services.loan_create(
                copy=copy,
                member=member,
                staff=request.user,
                lend_incomplete=form.cleaned_data["lend_incomplete"],
                deposit_method=form.cleaned_data["deposit_method"],
                deposit_cheque_number=form.cleaned_data["deposit_cheque_number"],
            )
        except ValidationError as error:
            add_refusal(form, error, form.REFUSALS)
            # An incomplete copy that is still playable: the form offers to lend it anyway.
            codes = {item.code for items in getattr(error, "error_dict", {}).values() for item in items}
            form.offer_incomplete = "incomplete_playable" in codes
        else:
            messages.success(
                request,
                _("« %(game)s » (%(barcode)s) prêté, à rendre le %(date)s.")
                % {"game": copy.game.title, "barcode": copy.barcode, "date": weekday_date(loan.due_on)}
                + " "
                + checkout_said(loan),
            )
            _warn_date_booking(request, loan)
            _warn_late(request, member)
            return redirect("loans:member-detail", pk=member.pk)
    elif form.has_error("barcode", "unknown_barcode"):
        if page := desk_barcode_page(request.POST["barcode"], member):  # a kit, to lend to this family
            return redirect(page)
        # Not a copy: the next family's card, scanned in the lend box, opens that family's page.
        other = Member.objects.filter(card_barcode__iexact=request.POST["barcode"].strip()).first()
        if other is not None:
            messages.info(
                request,
                _("Carte %(card)s : fiche de %(family)s.")
                % {"card": other.card_barcode, "family": other.name},
            )
            return redirect("loans:member-detail", pk=other.pk)
    return _render_member(request, member, lend_form=form, status=400)


def _warn_date_booking(request: HttpRequest, loan: Loan) -> None:
    """Say why a loan is due back early: its copy is booked for dates soon after (loans/booking_fit.py)."""
    booking = getattr(loan, "shortened_for", None)
    if booking is not None:
        messages.warning(
            request,
            _("Prêt raccourci : « %(game)s » est réservé à date à partir du %(date)s.")
            % {"game": loan.copy.game.title, "date": weekday_date(booking.starts_on)},
            extra_tags="date-booking",
        )


def _warn_late(request: HttpRequest, member: Member) -> None:
    """Name the family's late games after a loan (the membership type lets the desk lend anyway)."""
    late = services.late_loans(member)
    if late:
        messages.warning(
            request,
            ngettext(
                "Attention : %(family)s a un jeu en retard, %(games)s. Demandez-le.",
                "Attention : %(family)s a des jeux en retard, %(games)s. Demandez-les.",
                len(late),
            )
            % {"family": member.name, "games": services.describe_late(late)},
            extra_tags="late",
        )


@staff_required
@require_POST
def member_calendar_token(request: HttpRequest, pk: int) -> HttpResponse:
    """The desk renews or revokes a family's calendar address (on the family's request)."""
    member = _get_member(pk)
    if not _calendar_token_change(request, member):
        return HttpResponseBadRequest(_("Action inconnue."))
    return redirect("loans:member-detail", pk=member.pk)


@staff_required
@require_POST
def hold_create(request: HttpRequest, pk: int) -> HttpResponse:
    member = _get_member(pk)
    form = HoldForm(request.POST)
    if form.is_valid() and not form.cleaned_data["set_aside"]:
        game = form.cleaned_data["game"]
        copies = Copy.objects.filter(game=game).available().order_by("barcode")
        if form.cleaned_data["pickup_site"] is not None:
            copies = copies.filter(location=form.cleaned_data["pickup_site"])
        on_shelf = copies.first()
        if on_shelf is not None:
            # No need to reserve what the family can take home now: say so, offer to lend it.
            return _render_member(request, member, shelf_offer={"game": game, "copy": on_shelf})
    if form.is_valid():
        try:
            hold = services.hold_create(
                game=form.cleaned_data["game"],
                member=member,
                staff=request.user,
                pickup_site=form.cleaned_data["pickup_site"],
            )
        except ValidationError as error:
            add_refusal(form, error, {"game": "game", "member": None})
        else:
            messages.success(
                request,
                _("« %(game)s » réservé : place %(position)s dans la file.")
                % {"game": hold.game.title, "position": _queue_rank(hold)},
            )
            if hold.status == Hold.Status.READY:
                _announce_hold(request, hold)
            return redirect("loans:member-detail", pk=member.pk)
    return _render_member(request, member, hold_form=form, status=400)


def _queue_rank(hold: Hold) -> int:
    if hold.status != Hold.Status.WAITING:
        return 1
    return Hold.objects.with_queue_rank().get(pk=hold.pk).queue_rank


@staff_required
@require_POST
def hold_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    hold = get_object_or_404(Hold.objects.select_related("game"), pk=pk)
    try:
        next_hold = services.hold_cancel(hold=hold)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Réservation de « %(game)s » annulée.") % {"game": hold.game.title})
        _announce_hold(request, next_hold)
    return redirect(next_url(request, reverse("loans:member-detail", args=[hold.member_id])))


@staff_required
@require_POST
def hold_expire(request: HttpRequest, pk: int) -> HttpResponse:
    hold = get_object_or_404(Hold.objects.select_related("game", "member"), pk=pk)
    try:
        next_hold = services.hold_expire(hold=hold)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("Réservation de « %(game)s » pour %(family)s expirée.")
            % {"game": hold.game.title, "family": hold.member.name},
        )
        _announce_hold(request, next_hold)
    return redirect(next_url(request, reverse("loans:hold-list")))


@staff_required
@require_POST
def member_invite(request: HttpRequest, pk: int) -> HttpResponse:
    """The desk e-mails the family a link to choose the password of its account."""
    member = _get_member(pk)
    try:
        family_accounts.member_invite(member=member)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _(
                "Invitation envoyée à %(email)s : le lien pour choisir un mot de passe est valable %(days)s jours."
            )
            % {"email": member.email, "days": settings.PASSWORD_RESET_TIMEOUT // 86400},
        )
    return redirect("loans:member-detail", pk=member.pk)
