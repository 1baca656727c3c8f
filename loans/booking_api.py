"""Date bookings in the API (staff only, session or token): list, book (a copy by barcode or a title),
cancel, hand out on its day. Writes go through loans/bookings.py like the desk's; a refusal answers 400
with the message under the field it is about, the dates that clash included."""

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response

from catalogue.models import Copy, Game
from ludotheque import answers

from . import services
from .forms import copy_for_barcode
from .models import DateBooking
from .serializers import DepositSerializer, LoanSerializer


class DateBookingSerializer(serializers.ModelSerializer):
    game = serializers.IntegerField(source="copy.game_id", read_only=True)
    game_title = serializers.CharField(source="copy.game.title", read_only=True)
    barcode = serializers.CharField(source="copy.barcode", read_only=True)
    # None once the history is anonymised (privacy app).
    member_name = serializers.CharField(source="member.name", read_only=True, default=None)
    # A plain string in the schema: an enum named "status" would collide with the other statuses.
    status = serializers.CharField(
        read_only=True, help_text="booked | lent (handed out, see loan) | cancelled"
    )

    class Meta:
        model = DateBooking
        fields = [
            "id",
            "game",
            "game_title",
            "barcode",
            "member",
            "member_name",
            "starts_on",
            "ends_on",
            "status",
            "by_title",
            "note",
            "loan",
            "created_at",
            "cancelled_at",
        ]
        read_only_fields = ["member", "by_title", "loan", "created_at", "cancelled_at"]


class DateBookingCreateSerializer(serializers.ModelSerializer):
    """Book a copy (`barcode`) or a title (`game`: a free copy is picked) for a family."""

    game = serializers.PrimaryKeyRelatedField(
        queryset=Game.objects.only("pk", "title", "date_bookable"), required=False, allow_null=True
    )
    barcode = serializers.CharField(max_length=40, required=False, allow_blank=True)

    class Meta:
        model = DateBooking
        fields = ["member", "game", "barcode", "starts_on", "ends_on", "note"]
        extra_kwargs = {"member": {"required": True, "allow_null": False}}

    def validate(self, data: dict) -> dict:
        if bool(data.get("game")) == bool(data.get("barcode", "").strip()):
            raise serializers.ValidationError({"game": ["Donnez un jeu (game) ou un code-barres (barcode)."]})
        return data


class DateBookingFilter(django_filters.FilterSet):
    since = django_filters.DateFilter(field_name="ends_on", lookup_expr="gte", label="since")
    until = django_filters.DateFilter(field_name="starts_on", lookup_expr="lte", label="until")
    barcode = django_filters.CharFilter(field_name="copy__barcode")

    class Meta:
        model = DateBooking
        fields = ["status", "member", "copy"]


class DateBookingViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Date bookings of giant games and party kits, by first day. Cancelled, never deleted."""

    queryset = DateBooking.objects.for_desk().order_by("starts_on", "pk")
    serializer_class = DateBookingSerializer
    permission_classes = [IsAdminUser]
    filterset_class = DateBookingFilter

    @extend_schema(request=DateBookingCreateSerializer, responses={201: DateBookingSerializer})
    def create(self, request: Request) -> Response:
        serializer = DateBookingCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        copy = None
        if data.get("barcode", "").strip():
            try:
                copy = copy_for_barcode(data["barcode"], Copy.objects.only("pk"))
            except DjangoValidationError as error:
                return answers.refusal_response(
                    DjangoValidationError({"barcode": error}), {"barcode": "barcode"}, set()
                )
        try:
            booking = services.booking_create(
                member=data["member"],
                copy=copy,
                game=None if copy else data["game"],
                starts_on=data["starts_on"],
                ends_on=data["ends_on"],
                note=data.get("note", ""),
                user=request.user,
            )
        except DjangoValidationError as error:
            fields = {
                "copy": "barcode",
                "game": "game",
                "member": "member",
                "starts_on": "starts_on",
                "ends_on": "ends_on",
            }
            return answers.refusal_response(error, fields, set())
        return Response(DateBookingSerializer(booking).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: DateBookingSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str) -> Response:
        booking = self.get_object()
        try:
            booking = services.booking_cancel(booking=booking)
        except DjangoValidationError as error:
            return answers.refusal_response(error, {}, {"not_booked"})
        return Response(DateBookingSerializer(booking).data)

    @extend_schema(request=DepositSerializer, responses={201: LoanSerializer})
    @action(detail=True, methods=["post"], url_path="hand-out", url_name="hand-out")
    def hand_out(self, request: Request, pk: str) -> Response:
        """Lend the booked copy to the booking's family on one of its days, due back on its last day;
        a copy whose kind asks a deposit goes with how the family pays it."""
        booking = self.get_object()
        deposit = DepositSerializer(data=request.data)
        deposit.is_valid(raise_exception=True)
        try:
            loan = services.booking_hand_out(booking=booking, staff=request.user, **deposit.validated_data)
        except DjangoValidationError as error:
            return answers.refusal_response(
                error,
                {"copy": "barcode", "member": "member", **DepositSerializer.REFUSALS},
                {"already_on_loan"},
            )
        return Response(LoanSerializer(loan).data, status=status.HTTP_201_CREATED)
