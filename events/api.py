"""The events' API: events (read by anyone, written by staff) and bookings (staff, session or token).

Bookings are written through events/services.py like the desk's; a refusal answers 400 with its
message under the field it is about, or 409 when the event's state explains it (full is no refusal:
the booking goes to the waiting list, `status` says so).
"""

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import AllowAny, IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response

from ludotheque.answers import refusal_response

from . import services
from .models import Booking, Event
from .serializers import AttendanceSerializer, BookingSerializer, EventSerializer

CONFLICTS = {"event_cancelled", "started", "already_cancelled", "already_booked", "too_late", "not_confirmed"}
FIELDS = {"children": "children", "adults": "adults", "name": "name", "member": "member"}


class EventFilter(django_filters.FilterSet):
    upcoming = django_filters.BooleanFilter(method="filter_upcoming", label="upcoming")

    class Meta:
        model = Event
        fields = ["location", "members_only"]

    def filter_upcoming(self, queryset, name, value):
        return queryset.upcoming() if value else queryset


class EventViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Events. No delete: an event is cancelled (`POST …/cancel/`), its bookings being history."""

    queryset = Event.objects.with_seats_taken().prefetch_related("games").order_by("starts_at", "pk")
    serializer_class = EventSerializer
    filterset_class = EventFilter

    def get_permissions(self):
        if self.action in ("list", "retrieve"):
            return [AllowAny()]
        return [IsAdminUser()]

    @extend_schema(request=None, responses=EventSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk=None) -> Response:
        try:
            event = services.event_cancel(event=self.get_object(), staff=request.user)
        except DjangoValidationError as error:
            return refusal_response(error, FIELDS, CONFLICTS)
        return Response(EventSerializer(event).data)


class BookingFilter(django_filters.FilterSet):
    class Meta:
        model = Booking
        fields = ["event", "member", "status", "attendance"]


class BookingViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    """Bookings (staff). Created through the desk's rules; cancelled and ticked through their actions."""

    queryset = Booking.objects.select_related("charge").order_by("event", "created_at", "pk")
    serializer_class = BookingSerializer
    permission_classes = [IsAdminUser]
    filterset_class = BookingFilter

    def create(self, request: Request, *args, **kwargs) -> Response:
        serializer = self.get_serializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            booking = services.booking_create(
                event=data["event"],
                member=data.get("member"),
                name=data.get("name", ""),
                contact=data.get("contact", ""),
                children=data["children"],
                adults=data["adults"],
                walk_in=data.get("walk_in", False),
                staff=request.user,
            )
        except DjangoValidationError as error:
            return refusal_response(error, FIELDS, CONFLICTS)
        return Response(BookingSerializer(booking).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses=BookingSerializer)
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk=None) -> Response:
        booking = self.get_object()
        try:
            services.booking_cancel(booking=booking, staff=request.user)
        except DjangoValidationError as error:
            return refusal_response(error, FIELDS, CONFLICTS)
        booking.refresh_from_db()
        return Response(BookingSerializer(booking).data)

    @extend_schema(request=AttendanceSerializer, responses=BookingSerializer)
    @action(detail=True, methods=["post"])
    def attendance(self, request: Request, pk=None) -> Response:
        serializer = AttendanceSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            booking = services.attendance_mark(
                booking=self.get_object(),
                attendance=serializer.validated_data["attendance"],
                staff=request.user,
            )
        except DjangoValidationError as error:
            return refusal_response(error, FIELDS, CONFLICTS)
        return Response(BookingSerializer(booking).data)
