"""The kits' API (staff only, session or token): the kits and where each is, a kit's completeness,
lending it, taking it back with every copy complete (a copy with pieces missing goes back first
through `/api/loans/<id>/return/`). A refusal answers 400 with its message, 409 when the kit is out."""

from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Prefetch
from drf_spectacular.utils import extend_schema
from rest_framework import status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response

from ludotheque import answers

from . import services
from .models import Kit, KitItem, KitLoan
from .serializers import (
    KitCompletenessSerializer,
    KitLendSerializer,
    KitLoanSerializer,
    KitReturnSerializer,
    KitSerializer,
)

CONFLICT_CODES = {"kit_on_loan", "kit_not_on_loan", "already_on_loan"}


class KitViewSet(viewsets.ReadOnlyModelViewSet):
    """Kits (« malles »): their copies, their loose material, the borrower who has them."""

    queryset = (
        Kit.objects.select_related("site")
        .prefetch_related(
            Prefetch("items", queryset=KitItem.objects.select_related("copy__game")),
            Prefetch(
                "loans",
                queryset=KitLoan.objects.open().select_related("member").prefetch_related("lines"),
                to_attr="open_loans",
            ),
        )
        .order_by("name")
    )
    serializer_class = KitSerializer
    permission_classes = [IsAdminUser]

    @extend_schema(responses={200: KitCompletenessSerializer})
    @action(detail=True, methods=["get"])
    def completeness(self, request: Request, pk: str) -> Response:
        """Each copy of the kit and where it stands: what the desk says before lending it."""
        report = services.kit_completeness(self.get_object())
        body = {
            "complete": report.complete,
            "material_missing": report.material_missing,
            "lines": report.lines,
        }
        return Response(KitCompletenessSerializer(body).data)

    @extend_schema(request=KitLendSerializer, responses={201: KitLoanSerializer})
    @action(detail=True, methods=["post"])
    def lend(self, request: Request, pk: str) -> Response:
        """Lend every copy of the kit to the member, all due back the same day."""
        kit = self.get_object()
        serializer = KitLendSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            kit_loan = services.kit_lend(kit=kit, staff=request.user, **serializer.validated_data)
        except DjangoValidationError as error:
            return answers.refusal_response(
                error,
                {"member": "member", "without_missing": "without_missing", **KitLendSerializer.REFUSALS},
                conflicts=CONFLICT_CODES,
            )
        return Response(KitLoanSerializer(kit_loan).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=KitReturnSerializer, responses={200: KitLoanSerializer})
    @action(detail=True, methods=["post"], url_path="return", url_name="return")
    def return_kit(self, request: Request, pk: str) -> Response:
        """Take the kit back, every copy still out with it complete, and note the loose material missing."""
        kit = self.get_object()
        serializer = KitReturnSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        kit_loan = kit.open_loans[0] if kit.open_loans else None
        if kit_loan is None:
            return Response(
                {"detail": str(services.not_on_loan_message(kit)), "code": "kit_not_on_loan"},
                status=status.HTTP_409_CONFLICT,
            )
        try:
            services.kit_return(
                kit_loan=kit_loan,
                staff=request.user,
                material_missing=serializer.validated_data["material_missing"],
            )
        except DjangoValidationError as error:
            return answers.refusal_response(error, {}, conflicts=CONFLICT_CODES)
        kit_loan.refresh_from_db()
        return Response(KitLoanSerializer(kit_loan).data)
