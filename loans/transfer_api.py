"""The API of copies between sites (staff): the transfer lines, a shipment sent, a copy received.

`/api/transfers/` lists the lines (filters `open`, `state`, `from_site`, `to_site`, `copy`);
`POST /api/transfers/receive/` scans one in at a site; `/api/shipments/` lists the sends and
`POST /api/shipments/` sends copies by barcode (all or nothing). Nothing is edited or deleted (405).
"""

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, serializers, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response

from catalogue.models import Copy, Location
from ludotheque import answers

from . import transfers as services
from .models import Shipment, Transfer


class TransferSerializer(serializers.ModelSerializer):
    barcode = serializers.CharField(source="copy.barcode", read_only=True)
    game_title = serializers.CharField(source="copy.game.title", read_only=True)
    sent_at = serializers.DateTimeField(source="shipment.sent_at", read_only=True, default=None)
    state = serializers.SerializerMethodField(help_text="to_send | in_transit | received")

    class Meta:
        model = Transfer
        fields = [
            "id",
            "copy",
            "barcode",
            "game_title",
            "reason",
            "hold",
            "from_site",
            "to_site",
            "requested_at",
            "shipment",
            "sent_at",
            "received_at",
            "received_by",
            "state",
        ]
        read_only_fields = fields

    def get_state(self, line: Transfer) -> str:
        if line.received_at is not None:
            return "received"
        return "in_transit" if line.shipment_id else "to_send"


class ShipmentSerializer(serializers.ModelSerializer):
    barcodes = serializers.ListField(
        child=serializers.CharField(max_length=40),
        write_only=True,
        min_length=1,
        max_length=services.MAX_SHIPMENT_COPIES,
    )
    transfers = serializers.PrimaryKeyRelatedField(many=True, read_only=True)

    class Meta:
        model = Shipment
        fields = ["id", "from_site", "to_site", "barcodes", "note", "sent_at", "sent_by", "transfers"]
        read_only_fields = ["sent_at", "sent_by", "transfers"]

    def validate_barcodes(self, barcodes: list[str]) -> list[Copy]:
        copies = {copy.barcode: copy for copy in Copy.objects.filter(barcode__in=barcodes)}
        unknown = [barcode for barcode in barcodes if barcode not in copies]
        if unknown:
            raise serializers.ValidationError(f"Codes-barres inconnus : {', '.join(unknown)}.")
        return [copies[barcode] for barcode in dict.fromkeys(barcodes)]


class ReceiveSerializer(serializers.Serializer):
    barcode = serializers.CharField(max_length=40)
    site = serializers.PrimaryKeyRelatedField(queryset=Location.objects.all())


class TransferFilter(django_filters.FilterSet):
    open = django_filters.BooleanFilter(field_name="received_at", lookup_expr="isnull", label="open")
    state = django_filters.ChoiceFilter(
        method="filter_state",
        choices=[("to_send", "to_send"), ("in_transit", "in_transit"), ("received", "received")],
    )

    class Meta:
        model = Transfer
        fields = ["from_site", "to_site", "copy", "reason"]

    def filter_state(self, queryset, name, value):
        if value == "to_send":
            return queryset.to_send()
        if value == "in_transit":
            return queryset.on_the_way()
        return queryset.filter(received_at__isnull=False)


class TransferViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Copies' moves between sites, the latest first. Never edited nor deleted."""

    queryset = Transfer.objects.select_related("copy__game", "shipment").order_by("-requested_at", "-pk")
    serializer_class = TransferSerializer
    permission_classes = [IsAdminUser]
    filterset_class = TransferFilter

    @extend_schema(request=ReceiveSerializer, responses={200: TransferSerializer})
    @action(detail=False, methods=["post"])
    def receive(self, request: Request) -> Response:
        """Scan in a copy arriving at `site`: its hold is ready there, or it goes back on a shelf."""
        serializer = ReceiveSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        copy = Copy.objects.filter(barcode=serializer.validated_data["barcode"]).first()
        if copy is None:
            return Response({"barcode": ["Aucun exemplaire ne porte ce code-barres."]}, status=400)
        try:
            arrival = services.transfer_receive(
                copy=copy, site=serializer.validated_data["site"], staff=request.user
            )
        except DjangoValidationError as error:
            return answers.refusal_response(error, {"barcode": "barcode"}, conflicts=set())
        body = TransferSerializer(arrival.transfer).data
        body["hold_ready"] = arrival.hold.pk if arrival.hold and arrival.hold.status == "ready" else None
        body["onward"] = arrival.onward.pk if arrival.onward else None
        return Response(body)


class ShipmentViewSet(
    mixins.ListModelMixin, mixins.RetrieveModelMixin, mixins.CreateModelMixin, viewsets.GenericViewSet
):
    """Sends from a site to another (a crate): created with the copies' barcodes, never changed."""

    queryset = Shipment.objects.prefetch_related("transfers").order_by("-sent_at", "-pk")
    serializer_class = ShipmentSerializer
    permission_classes = [IsAdminUser]

    def create(self, request: Request) -> Response:
        serializer = ShipmentSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            shipment = services.transfer_send(
                copies=data["barcodes"],
                from_site=data["from_site"],
                to_site=data["to_site"],
                staff=request.user,
                note=data.get("note", ""),
            )
        except DjangoValidationError as error:
            return answers.refusal_response(
                error, {"barcodes": "barcodes", "to_site": "to_site"}, conflicts=set()
            )
        return Response(ShipmentSerializer(shipment).data, status=status.HTTP_201_CREATED)
