"""Events' pages: the public list and each event's page (a family books there), the family's
cancellation, the desk's booking list that is the attendance sheet on the day, the calendar feed."""

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.contrib.auth.views import redirect_to_login
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from ledger.services import euros
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal
from members.models import Member
from once.forms import submit_once

from . import services
from .feeds import events_calendar
from .forms import AttendanceForm, BookingForm, DeskBookingForm
from .models import Booking, Event

FIELDS = {"children": "children", "adults": "adults", "name": "name", "member": "card", "method": "method"}
FIELDS |= {"cheque_number": "cheque_number", "amount": None}


def _member_of(user) -> Member | None:
    if not user.is_authenticated:
        return None
    return Member.objects.filter(user=user).first()


@require_GET
def event_list(request: HttpRequest) -> HttpResponse:
    events = Event.objects.upcoming().select_related("location")
    return render(request, "events/event_list.html", {"events": events})


def _booked_message(booking: Booking) -> str:
    if booking.status == Booking.Status.WAITING:
        position = list(booking.event.bookings.waiting().values_list("pk", flat=True)).index(booking.pk) + 1
        return _(
            "Vous êtes sur la liste d'attente, à la place %(position)s : si une place se libère, elle est "
            "à vous et nous vous prévenons."
        ) % {"position": position}
    if booking.charge_id:
        return _("Réservation confirmée. Les frais (%(amount)s) se paient au comptoir.") % {
            "amount": euros(booking.charge.amount)
        }
    return _("Réservation confirmée : à bientôt !")


@require_http_methods(["GET", "HEAD", "POST"])
def event_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """An event's page; a family logged in books its places here."""
    event = get_object_or_404(Event.objects.select_related("location").prefetch_related("games"), pk=pk)
    member = _member_of(request.user)
    form = BookingForm(request.POST or None)
    if request.method == "POST":
        if member is None:
            return redirect_to_login(event.get_absolute_url())
        if form.is_valid():

            def act():
                try:
                    booking = services.booking_create(
                        event=event,
                        member=member,
                        children=form.cleaned_data["children"],
                        adults=form.cleaned_data["adults"],
                        staff=request.user,
                    )
                except ValidationError as error:
                    add_refusal(form, error, FIELDS)
                    return None
                messages.success(request, _booked_message(booking))
                return redirect(event)

            answer = submit_once(request, form, act)
            if answer is not None:
                return answer
    booking = member and event.bookings.active().filter(member=member).first()
    context = {
        "event": event,
        "form": form,
        "member": member,
        "booking": booking,
        "places_left": event.places_left(),
        "waiting": event.bookings.waiting().count(),
        "bookable": event.cancelled_at is None and timezone.now() < event.starts_at,
    }
    return render(request, "events/event_detail.html", context, status=400 if form.errors else 200)


@login_required
@require_POST
def account_booking_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    """A family cancels its own booking (until the event's deadline)."""
    member = _member_of(request.user)
    booking = get_object_or_404(
        Booking.objects.select_related("event"), pk=pk, member=member, member__isnull=False
    )
    try:
        services.booking_cancel(booking=booking, staff=request.user, by_family=True)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Réservation annulée."))
    return redirect(booking.event)


@require_GET
def calendar_feed(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(events_calendar(), content_type="text/calendar; charset=utf-8")
    response["Content-Disposition"] = 'inline; filename="animations.ics"'
    return response


@staff_required
@require_GET
def desk_event_list(request: HttpRequest) -> HttpResponse:
    events = Event.objects.upcoming().select_related("location")
    past = (
        Event.objects.filter(ends_at__lt=timezone.now())
        .select_related("location")
        .order_by("-starts_at")[:20]
    )
    return render(request, "events/desk_event_list.html", {"events": events, "past": past})


def _sheet(request: HttpRequest, event: Event, form: DeskBookingForm, status: int = 200) -> HttpResponse:
    bookings = list(event.bookings.select_related("member", "charge").order_by("status", "created_at", "pk"))
    return render(
        request,
        "events/desk_event.html",
        {
            "event": event,
            "form": form,
            "confirmed": [b for b in bookings if b.status == Booking.Status.CONFIRMED],
            "waiting": [b for b in bookings if b.status == Booking.Status.WAITING],
            "cancelled": [b for b in bookings if b.status == Booking.Status.CANCELLED],
            "places_left": event.places_left(),
            "present": sum(b.people for b in bookings if b.attendance == Booking.Attendance.PRESENT),
        },
        status=status,
    )


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def desk_event(request: HttpRequest, pk: int) -> HttpResponse:
    """The booking list (on the day, the attendance sheet) and the desk's booking form."""
    event = get_object_or_404(Event.objects.select_related("location"), pk=pk)
    form = DeskBookingForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        data = form.cleaned_data

        def act():
            try:
                booking = services.booking_create(
                    event=event,
                    member=data["member"],
                    name=data["name"],
                    contact=data["contact"],
                    children=data["children"],
                    adults=data["adults"],
                    walk_in=data["walk_in"],
                    method=data["method"],
                    cheque_number=data["cheque_number"],
                    staff=request.user,
                )
            except ValidationError as error:
                add_refusal(form, error, FIELDS)
                return None
            messages.success(
                request,
                _("%(who)s : %(status)s.") % {"who": booking.who, "status": booking.get_status_display()},
            )
            return redirect("events:desk-event", pk=event.pk)

        answer = submit_once(request, form, act)
        if answer is not None:
            return answer
    return _sheet(request, event, form, status=400 if form.errors else 200)


@staff_required
@require_POST
def desk_attendance(request: HttpRequest, pk: int) -> HttpResponse:
    booking = get_object_or_404(Booking, pk=pk)
    form = AttendanceForm(request.POST)
    if not form.is_valid():
        return HttpResponse(_("Présente ou absente ?"), status=400)
    try:
        services.attendance_mark(
            booking=booking, attendance=form.cleaned_data["attendance"], staff=request.user
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    return redirect(f"{_desk_url(booking.event_id)}#booking-{booking.pk}")


def _desk_url(event_id: int) -> str:
    return reverse("events:desk-event", kwargs={"pk": event_id})


@staff_required
@require_POST
def desk_booking_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    booking = get_object_or_404(Booking.objects.select_related("event"), pk=pk)
    try:
        promoted = services.booking_cancel(booking=booking, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Réservation de %(who)s annulée.") % {"who": booking.who})
        for moved in promoted:
            messages.info(
                request, _("%(who)s passe de la liste d'attente aux inscrits.") % {"who": moved.who}
            )
    return redirect(_desk_url(booking.event_id))


@staff_required
@require_POST
def desk_event_cancel(request: HttpRequest, pk: int) -> HttpResponse:
    event = get_object_or_404(Event, pk=pk)
    try:
        services.event_cancel(event=event, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
    else:
        messages.success(request, _("Animation annulée : les familles inscrites seront prévenues."))
    return redirect(_desk_url(event.pk))
