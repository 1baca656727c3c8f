"""The repairs' API (staff only, session or token): the queue and its history, a copy sent to repair,
its notes, its return to the shelves. Never edited otherwise, never deleted.

Writes go through repairs/services.py like the desk's; a refusal about the copy's or the repair's state
(already in repair, on loan, set aside, already back) answers 409 with the reason, any other 400 with the
message under its field.
"""

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response

from loans.forms import copy_for_barcode
from ludotheque import answers

from . import services
from .models import Repair
from .serializers import RepairCloseSerializer, RepairNotesSerializer, RepairOpenSerializer, RepairSerializer

FIELDS = {
    "copy": "barcode",
    "reason": "reason",
    "cost": "cost",
    "charge_family": "charge_family",
    "notes": "notes",
}


def refusal_response(error: DjangoValidationError) -> Response:
    return answers.refusal_response(error, FIELDS, conflicts=services.CONFLICT_CODES)


class RepairFilter(django_filters.FilterSet):
    open = django_filters.BooleanFilter(field_name="closed_at", lookup_expr="isnull", label="open")
    barcode = django_filters.CharFilter(field_name="copy__barcode")

    class Meta:
        model = Repair
        fields = ["copy", "charged_to"]


class RepairViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Repairs, the latest first (`open=true`: the queue)."""

    queryset = Repair.objects.for_display().order_by("-opened_at", "-pk")
    serializer_class = RepairSerializer
    permission_classes = [IsAdminUser]
    filterset_class = RepairFilter

    @extend_schema(request=RepairOpenSerializer, responses={201: RepairSerializer})
    def create(self, request: Request) -> Response:
        """Send a copy to repair, by its barcode, with the reason."""
        serializer = RepairOpenSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            copy = copy_for_barcode(serializer.validated_data["barcode"])
            repair = services.repair_open(
                copy=copy, reason=serializer.validated_data["reason"], staff=request.user
            )
        except DjangoValidationError as error:
            if not hasattr(error, "error_dict"):
                error = DjangoValidationError({"copy": error}) if error.code == "unknown_barcode" else error
            return refusal_response(error)
        return Response(RepairSerializer(self._fresh(repair)).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=RepairNotesSerializer, responses={200: RepairSerializer})
    @action(detail=True, methods=["post"])
    def notes(self, request: Request, pk: str) -> Response:
        """Write down what was done so far (an open repair)."""
        serializer = RepairNotesSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            repair = services.repair_note(repair=self.get_object(), notes=serializer.validated_data["notes"])
        except DjangoValidationError as error:
            return refusal_response(error)
        return Response(RepairSerializer(self._fresh(repair)).data)

    @extend_schema(request=RepairCloseSerializer, responses={200: RepairSerializer})
    @action(detail=True, methods=["post"])
    def close(self, request: Request, pk: str) -> Response:
        """« Réparé, remettre en rayon »: the cost to the ledger, the copy to the next hold or the shelf."""
        serializer = RepairCloseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            done = services.repair_close(
                repair=self.get_object(), staff=request.user, **serializer.validated_data
            )
        except DjangoValidationError as error:
            return refusal_response(error)
        body = RepairSerializer(self._fresh(done.repair)).data
        body["copy_status"] = done.repair.copy.status
        body["set_aside_for"] = done.hold.member_id if done.hold else None
        return Response(body)

    def _fresh(self, repair: Repair) -> Repair:
        return Repair.objects.for_display().get(pk=repair.pk)
