"""The loan desk (staff only) and a family's own account page."""

import datetime

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Count, Exists, OuterRef, Prefetch, Q
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import Copy, Game
from ledger.forms import MoneyForm
from ledger.models import Entry
from ledger.services import euros, renewal_due, renewal_period
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal, next_url
from members import accounts as family_accounts
from members.models import Member, MembershipType
from once.forms import OnceForm, submit_once
from opening.schedule import weekday_date

from . import accounts, services
from .feeds import member_calendar
from .forms import (
    CalendarTokenForm,
    HoldForm,
    LanguageForm,
    LendForm,
    LostForm,
    ReturnForm,
    ScanForm,
    copy_for_barcode,
)
from .models import Hold, Loan, MissingPiece
from .renewals import explain_loans
from .services import short_date
from .waiting import waiting_warning

STATS_MONTHS = 12
TOP_GAMES = 10
# The statistics list at most this many titles never lent or without copies (all are counted).
STATS_LIST_MAX = 200


def _announce_hold(request: HttpRequest, hold: Hold | None) -> None:
    """Tell the clerk, loud and clear, that a copy must go on the reservations shelf."""
    if hold is None:
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
        copy = Copy.objects.select_related("game").filter(barcode=code).first()
        if copy is not None:
            loan = copy.loans.open().first()
            if loan is not None:
                return redirect("loans:loan-return", pk=loan.pk)
            context["copy"] = copy
            context["set_aside_for"] = Hold.objects.ready().filter(copy=copy).select_related("member").first()
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
    loans = list(member.loans.open().select_related("copy__game").order_by("due_on", "pk"))
    holds = list(member.holds.active().select_related("game", "copy").with_queue_rank())
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
        "ready_holds": [hold for hold in holds if hold.status == Hold.Status.READY],
        "waiting_holds": [hold for hold in holds if hold.status == Hold.Status.WAITING],
        "history": member.loans.returned().select_related("copy__game").order_by("-returned_at")[:10],
        "lend_form": lend_form or LendForm(),
        "hold_form": hold_form or HoldForm(),
        "refusal": refusal.messages if refusal else None,
        "calendar_url": _calendar_url(request, member),
    }
    return render(request, "loans/member_detail.html", context, status=status)


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
            )
        except ValidationError as error:
            add_refusal(form, error, {"copy": "barcode", "member": None})
            # An incomplete copy that is still playable: the form offers to lend it anyway.
            codes = {item.code for items in getattr(error, "error_dict", {}).values() for item in items}
            form.offer_incomplete = "incomplete_playable" in codes
        else:
            messages.success(
                request,
                _("« %(game)s » (%(barcode)s) prêté, à rendre le %(date)s.")
                % {"game": copy.game.title, "barcode": copy.barcode, "date": weekday_date(loan.due_on)},
            )
            _warn_late(request, member)
            return redirect("loans:member-detail", pk=member.pk)
    elif form.has_error("barcode", "unknown_barcode"):
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
        on_shelf = Copy.objects.filter(game=game).available().order_by("barcode").first()
        if on_shelf is not None:
            # No need to reserve what the family can take home now: say so, offer to lend it.
            return _render_member(request, member, shelf_offer={"game": game, "copy": on_shelf})
    if form.is_valid():
        try:
            hold = services.hold_create(game=form.cleaned_data["game"], member=member, staff=request.user)
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
    form = ReturnForm(request.POST if request.method == "POST" else None, loan=loan)
    if form.is_valid():
        try:
            result = services.loan_return(
                loan=loan,
                staff=request.user,
                missing=form.missing(),
                recovered=form.recovered(),
                playable_anyway=form.cleaned_data["playable_anyway"],
                waive_late_fee=form.cleaned_data.get("waive_late_fee", False),
                waive_missing_pieces=form.cleaned_data.get("waive_missing_pieces", False),
            )
        except ValidationError as error:
            add_refusal(form, error, {})
        else:
            _announce_return(request, result)
            return redirect("loans:return-scan")
    status = 400 if form.is_bound else 200
    # The family first in the queue for this game, named whether the copy comes back complete or not.
    waiting = Hold.objects.waiting().filter(game=loan.copy.game).select_related("member").order_by("position")
    context = {"loan": loan, "form": form, "waiting": waiting.first()}
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
    if result.waiting is not None:
        messages.warning(
            request,
            _(
                "%(family)s (carte %(card)s) attend « %(game)s » : cet exemplaire n'est pas mis de côté "
                "car il est incomplet ; la famille reste première de la file."
            )
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


# The lists of the back office.


@staff_required
@require_GET
def overdue_list(request: HttpRequest) -> HttpResponse:
    loans = Loan.objects.overdue().for_desk().order_by("due_on", "member__name")
    return render(request, "loans/overdue_list.html", {"loans": loans})


@staff_required
@require_GET
def hold_list(request: HttpRequest) -> HttpResponse:
    ready = Hold.objects.ready().select_related("game", "member", "copy").order_by("ready_until", "pk")
    waiting = Hold.objects.waiting().select_related("game", "member").order_by("game__title", "position")
    return render(request, "loans/hold_list.html", {"ready": ready, "waiting": waiting})


@staff_required
@require_GET
def incomplete_list(request: HttpRequest) -> HttpResponse:
    copies = (
        Copy.objects.filter(
            Q(status=Copy.Status.INCOMPLETE)
            | Q(pk__in=MissingPiece.objects.still_missing().values("copy_id"))
        )
        .select_related("game", "location")
        .prefetch_related(
            Prefetch(
                "missing_pieces",
                queryset=MissingPiece.objects.still_missing().select_related("component", "loan__member"),
                to_attr="pieces",
            )
        )
        .order_by("game__title", "barcode")
    )
    return render(request, "loans/incomplete_list.html", {"copies": copies})


@staff_required
@require_POST
def missing_piece_recover(request: HttpRequest, pk: int) -> HttpResponse:
    piece = get_object_or_404(MissingPiece.objects.select_related("component", "copy__game"), pk=pk)
    try:
        hold = services.missing_piece_recover(missing_piece=piece, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("%(count)s × « %(piece)s » de retour dans « %(game)s » (%(barcode)s).")
            % {
                "count": piece.quantity,
                "piece": piece.component.label,
                "game": piece.copy.game.title,
                "barcode": piece.copy.barcode,
            },
        )
        _announce_hold(request, hold)
    return redirect("loans:incomplete-list")


@staff_required
@require_GET
def stats(request: HttpRequest) -> HttpResponse:
    today = timezone.localdate()
    months_ago = today.year * 12 + today.month - 1 - (STATS_MONTHS - 1)
    first_month = datetime.date(months_ago // 12, months_ago % 12 + 1, 1)
    start = timezone.make_aware(datetime.datetime.combine(first_month, datetime.time.min))
    counts = Loan.objects.count_per_month(first_month)
    months = []
    month = first_month
    while month <= today:
        months.append({"month": month, "count": counts.get(month, 0)})
        month = (month + datetime.timedelta(days=32)).replace(day=1)
    busiest = max((row["count"] for row in months), default=0) or 1
    for row in months:
        row["percent"] = round(100 * row["count"] / busiest)
    top_games = (
        Game.objects.annotate(loan_count=Count("copies__loans", filter=Q(copies__loans__lent_at__gte=start)))
        .filter(loan_count__gt=0)
        .order_by("-loan_count", "title")[:TOP_GAMES]
    )
    # « Jamais prêtés » is about titles a family could have borrowed: those with a copy and no loan
    # ever. Catalogue titles without any copy (wish list, lost, not yet bought) are counted apart.
    has_copy = Exists(Copy.objects.filter(game=OuterRef("pk")))
    was_lent = Exists(Loan.objects.filter(copy__game=OuterRef("pk")))
    never_lent = (
        Game.objects.filter(has_copy & ~was_lent).annotate(copy_count=Count("copies")).order_by("title")
    )
    without_copies = Game.objects.filter(~has_copy).order_by("title")
    titles = Game.objects.aggregate(
        all=Count("pk"),
        never_lent=Count("pk", filter=has_copy & ~was_lent),
        without_copies=Count("pk", filter=~has_copy),
    )
    return render(
        request,
        "loans/stats.html",
        {
            "months": months,
            "total": sum(row["count"] for row in months),
            "top_games": top_games,
            "never_lent": never_lent[:STATS_LIST_MAX],
            "without_copies": without_copies[:STATS_LIST_MAX] if titles["without_copies"] else [],
            "titles": titles,
            "list_max": STATS_LIST_MAX,
            "since": first_month,
        },
    )


# A family's own page.


def _get_member_for_user(user) -> Member:
    """The family account of the logged-in user; nobody else's, ever."""
    member = Member.objects.select_related("membership_type").filter(user=user).first()
    if member is None:
        raise Http404(_("Aucune famille membre n'est liée à votre identifiant."))
    return member


SUGGESTIONS = 6


def _suggestions(member: Member) -> list[Game]:
    """Games for the household: right for its members' ages, on the shelf now, never borrowed by it."""
    today = timezone.localdate()
    ages = [person.age(today) for person in member.household.all()]
    if not ages:
        return []
    return list(
        Game.objects.playable_by(ages=ages)
        .filter(Exists(Copy.objects.available().filter(game=OuterRef("pk"))))
        .exclude(pk__in=Loan.objects.filter(member=member).values("copy__game"))
        .exclude(pk__in=member.holds.active().values("game"))
        .order_by("title")[:SUGGESTIONS]
    )


@login_required
@require_GET
def account(request: HttpRequest) -> HttpResponse:
    member = _get_member_for_user(request.user)
    loans = list(member.loans.open().select_related("copy__game").order_by("due_on", "pk"))
    explain_loans(loans, member, timezone.localdate())
    return render(
        request,
        "loans/account.html",
        {
            "member": member,
            "loans": loans,
            "quota_left": member.quota_left(len(loans)),
            "holds": member.holds.active().select_related("game").with_queue_rank().order_by("created_at"),
            "history": member.loans.returned().select_related("copy__game").order_by("-returned_at")[:20],
            "calendar_url": _calendar_url(request, member),
            "suggestions": _suggestions(member),
            "language_form": LanguageForm(instance=member),
        },
    )


@login_required
@require_POST
def account_hold_create(request: HttpRequest, pk: int) -> HttpResponse:
    """A family reserves a game from its page; a refusal goes back to the game's page with its reason."""
    member = _get_member_for_user(request.user)
    game = get_object_or_404(Game, pk=pk)
    try:
        hold = accounts.hold_request(game=game, member=member, user=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(game.get_absolute_url())
    if hold.status == Hold.Status.READY:
        messages.success(
            request,
            _("« %(game)s » réservé : un exemplaire vous attend au comptoir jusqu'au %(date)s.")
            % {"game": game.title, "date": weekday_date(hold.ready_until)},
        )
    else:
        messages.success(
            request,
            _("« %(game)s » réservé : vous êtes à la place %(position)s dans la file.")
            % {"game": game.title, "position": _queue_rank(hold)},
        )
    return redirect("loans:account")


@login_required
@require_POST
def account_hold_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    member = _get_member_for_user(request.user)
    hold = get_object_or_404(Hold.objects.select_related("game"), pk=pk, member=member)
    try:
        services.hold_cancel(hold=hold)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Réservation de « %(game)s » annulée.") % {"game": hold.game.title})
    return redirect("loans:account")


@login_required
@require_POST
def account_loan_renew(request: HttpRequest, pk: int) -> HttpResponse:
    """A family renews one of its loans, by the desk's rules (services.loan_renew)."""
    member = _get_member_for_user(request.user)
    loan = get_object_or_404(Loan.objects.select_related("copy__game"), pk=pk, member=member)
    form = OnceForm(request.POST)
    form.is_valid()  # a token that is no UUID counts as none

    def act() -> HttpResponse | None:
        try:
            renewed = services.loan_renew(loan=loan)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            return None
        messages.success(
            request,
            _("« %(game)s » prolongé : à rendre le %(date)s.")
            % {"game": renewed.copy.game.title, "date": weekday_date(renewed.due_on)},
        )
        return redirect("loans:account")

    return submit_once(request, form, act) or redirect("loans:account")


@login_required
@require_POST
def account_language(request: HttpRequest) -> HttpResponse:
    """The family chooses the language of its notices (and of the site, for this visit)."""
    member = _get_member_for_user(request.user)
    form = LanguageForm(request.POST, instance=member)
    if not form.is_valid():
        return HttpResponseBadRequest(" ".join(form.errors.get("language", [])))
    form.save()
    response = redirect("loans:account")
    response.set_cookie(settings.LANGUAGE_COOKIE_NAME, member.language, samesite="Lax")
    with translation.override(member.language):
        messages.success(request, _("Langue enregistrée : les avis vous seront écrits dans cette langue."))
    return response


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


@login_required
@require_POST
def account_calendar_token(request: HttpRequest) -> HttpResponse:
    """The family renews or revokes its own calendar address."""
    member = _get_member_for_user(request.user)
    if not _calendar_token_change(request, member):
        return HttpResponseBadRequest(_("Action inconnue."))
    return redirect("loans:account")


@require_GET
def calendar_feed(request: HttpRequest, token: str) -> HttpResponse:
    """A family's calendar (iCalendar), found by its secret token alone; any other token is a plain 404."""
    member = Member.objects.exclude(calendar_token="").filter(calendar_token=token).first()
    if member is None:
        raise Http404
    with translation.override(member.language):
        body = member_calendar(member)
    response = HttpResponse(body, content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="ludotheque.ics"'
    response["Cache-Control"] = "private, max-age=900"
    return response
