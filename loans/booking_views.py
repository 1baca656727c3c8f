"""Date bookings' pages: the desk's list (today's to hand out, the ones to come, a form to book for a
family) and a family's own (book a giant game for its dates from the game's page, cancel from /compte/).
The rules are loans/bookings.py's."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST

from catalogue.models import Game
from ledger.models import Method
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal, next_url
from opening.schedule import weekday_date

from . import services
from .account_views import _get_member_for_user
from .bookings import busy_periods
from .forms import DateBookingDatesForm, DateBookingForm, DepositFields
from .models import DateBooking

# How many bookings to come the desk's page lists.
UPCOMING = 100


def _booked_message(booking: DateBooking) -> str:
    return _("« %(game)s » (%(barcode)s) réservé pour %(family)s du %(start)s au %(end)s.") % {
        "game": booking.copy.game.title,
        "barcode": booking.copy.barcode,
        "family": booking.member.name,
        "start": weekday_date(booking.starts_on),
        "end": weekday_date(booking.ends_on),
    }


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def desk_bookings(request: HttpRequest) -> HttpResponse:
    """Today's bookings to hand out (one click lends), those to come, and the form to book for a family."""
    today = timezone.localdate()
    form = DateBookingForm(request.POST or None, initial={"card": request.GET.get("carte", "")})
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            data = form.cleaned_data
            try:
                booking = services.booking_create(
                    member=data["card"],
                    copy=data["barcode"],
                    game=None if data["barcode"] else data["game"],
                    starts_on=data["starts_on"],
                    ends_on=data["ends_on"],
                    note=data["note"],
                    user=request.user,
                )
            except ValidationError as error:
                add_refusal(
                    form,
                    error,
                    {
                        "member": "card",
                        "copy": "barcode",
                        "game": "game",
                        "starts_on": "starts_on",
                        "ends_on": "ends_on",
                    },
                )
            else:
                messages.success(request, _booked_message(booking))
                return redirect("loans:desk-bookings")
    bookings = DateBooking.objects.upcoming(today).for_desk()
    context = {
        "form": form,
        "today": [booking for booking in bookings.to_hand_out(today)],
        "deposit_methods": Method.choices,
        "upcoming": list(bookings.filter(starts_on__gt=today)[:UPCOMING]),
    }
    return render(request, "loans/desk_bookings.html", context, status=status)


@staff_required
@require_POST
def desk_booking_hand_out(request: HttpRequest, pk: int) -> HttpResponse:
    """One click: the booked copy is lent to the booking's family, due back on the booking's last day."""
    booking = get_object_or_404(DateBooking.objects.for_desk(), pk=pk)
    deposit = DepositFields(request.POST)
    try:
        if not deposit.is_valid():
            raise ValidationError([error for errors in deposit.errors.values() for error in errors])
        loan = services.booking_hand_out(booking=booking, staff=request.user, **deposit.cleaned_data)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request,
            _("« %(game)s » (%(barcode)s) prêté à %(family)s, à rendre le %(date)s.")
            % {
                "game": booking.copy.game.title,
                "barcode": booking.copy.barcode,
                "family": booking.member.name,
                "date": weekday_date(loan.due_on),
            },
        )
    return redirect(next_url(request, reverse("loans:desk-bookings")))


@staff_required
@require_POST
def desk_booking_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    booking = get_object_or_404(DateBooking.objects.for_desk(), pk=pk)
    try:
        services.booking_cancel(booking=booking)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request, _("Réservation à date de « %(game)s » annulée.") % {"game": booking.copy.game.title}
        )
    return redirect(next_url(request, reverse("loans:desk-bookings")))


# A family's own.


@login_required
@require_http_methods(["GET", "HEAD", "POST"])
def account_booking_create(request: HttpRequest, pk: int) -> HttpResponse:
    """A family books a giant game for its dates; a clash comes back with the dates that clash."""
    member = _get_member_for_user(request.user)
    game = get_object_or_404(Game, pk=pk, date_bookable=True)
    form = DateBookingDatesForm(request.POST or None)
    status = 200
    if request.method == "POST":
        status = 400
        if form.is_valid():
            try:
                booking = services.booking_create(
                    member=member,
                    game=game,
                    starts_on=form.cleaned_data["starts_on"],
                    ends_on=form.cleaned_data["ends_on"],
                    user=request.user,
                    by_family=True,
                )
            except ValidationError as error:
                add_refusal(form, error, {"starts_on": "starts_on", "ends_on": "ends_on"})
            else:
                messages.success(
                    request,
                    _("« %(game)s » réservé du %(start)s au %(end)s : venez le chercher le premier jour.")
                    % {
                        "game": game.title,
                        "start": weekday_date(booking.starts_on),
                        "end": weekday_date(booking.ends_on),
                    },
                )
                return redirect("loans:account")
    context = {"member": member, "game": game, "form": form, "busy": busy_periods(game)}
    return render(request, "loans/account_booking.html", context, status=status)


@login_required
@require_POST
def account_booking_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    member = _get_member_for_user(request.user)
    booking = get_object_or_404(DateBooking.objects.select_related("copy__game"), pk=pk, member=member)
    try:
        services.booking_cancel(booking=booking, by_family=True)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(
            request, _("Réservation de « %(game)s » annulée.") % {"game": booking.copy.game.title}
        )
    return redirect("loans:account")
