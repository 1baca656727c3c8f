"""A family's own account (/compte/): its loans and holds, renewing, reserving, its language and its
calendar feed."""

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.db.models import Exists, OuterRef
from django.http import Http404, HttpRequest, HttpResponse, HttpResponseBadRequest
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone, translation
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from catalogue.models import Copy, Game
from members.models import Member
from once.forms import OnceForm, submit_once
from opening.schedule import weekday_date

from . import accounts, services
from .feeds import member_calendar
from .forms import (
    LanguageForm,
)
from .models import Hold, Loan
from .renewals import explain_loans
from .transfer_forms import PickupSiteForm
from .views import _calendar_token_change, _calendar_url, _queue_rank

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
    loans = list(member.loans.open().select_related("copy__game", "copy__kind").order_by("due_on", "pk"))
    explain_loans(loans, member, timezone.localdate())
    return render(
        request,
        "loans/account.html",
        {
            "member": member,
            "loans": loans,
            "quota_left": member.quota_left(len(loans)),
            "holds": member.holds.active()
            .select_related("game", "pickup_site")
            .with_queue_rank()
            .order_by("created_at"),
            "date_bookings": member.date_bookings.upcoming().select_related("copy__game", "copy__location"),
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
    form = PickupSiteForm(request.POST)
    pickup_site = form.cleaned_data["pickup_site"] if form.is_valid() else None
    try:
        hold = accounts.hold_request(game=game, member=member, user=request.user, pickup_site=pickup_site)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(game.get_absolute_url())
    if hold.status == Hold.Status.TRANSIT:
        messages.success(
            request,
            _("« %(game)s » réservé : un exemplaire part pour %(site)s, nous vous prévenons à son arrivée.")
            % {"game": game.title, "site": hold.pickup_site.name},
        )
    elif hold.status == Hold.Status.READY:
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
