"""The loan desk's API (staff only, session or token): members, loans, holds.

Writes go through loans/services.py like the desk's. A copy already on loan answers 409 with the
reason; every other refusal answers 400 with the message under the field it is about.
"""

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from django.db.models import Count, Q
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.generics import get_object_or_404
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response

from catalogue.models import Copy
from ledger.models import member_balance
from ludotheque import answers
from members.models import Member

from . import services
from .forms import copy_for_barcode
from .models import Hold, Loan
from .serializers import (
    ChargeSerializer,
    HoldSerializer,
    LoanCreateSerializer,
    LoanLostSerializer,
    LoanRenewSerializer,
    LoanReturnSerializer,
    LoanSerializer,
    MemberSerializer,
)

CONFLICT_CODES = {"already_on_loan"}


def refusal_response(error: DjangoValidationError, fields: dict[str, str]) -> Response:
    """A service's refusal as the API's answer: 409 for a copy already on loan, else 400."""
    return answers.refusal_response(error, fields, conflicts=CONFLICT_CODES)


class MemberFilter(django_filters.FilterSet):
    class Meta:
        model = Member
        fields = ["card_barcode", "membership_type"]


class MemberViewSet(
    mixins.ListModelMixin,
    mixins.RetrieveModelMixin,
    mixins.CreateModelMixin,
    mixins.UpdateModelMixin,
    viewsets.GenericViewSet,
):
    """Member families. No delete: a family's loans are history."""

    queryset = (
        Member.objects.select_related("membership_type")
        .prefetch_related("household")
        .annotate(
            open_loan_count=Count("loans", filter=Q(loans__returned_at__isnull=True)),
            balance=member_balance(),
        )
        .order_by("name", "pk")
    )
    serializer_class = MemberSerializer
    permission_classes = [IsAdminUser]
    filterset_class = MemberFilter


class LoanFilter(django_filters.FilterSet):
    open = django_filters.BooleanFilter(field_name="returned_at", lookup_expr="isnull", label="open")
    overdue = django_filters.BooleanFilter(method="filter_overdue", label="overdue")
    barcode = django_filters.CharFilter(field_name="copy__barcode")

    class Meta:
        model = Loan
        fields = ["member", "copy"]

    def filter_overdue(self, queryset, name, value):
        overdue = Loan.objects.overdue().values("pk")
        return queryset.filter(pk__in=overdue) if value else queryset.exclude(pk__in=overdue)


class LoanViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Loans: lend by barcode, return, renew. Never edited or deleted."""

    queryset = Loan.objects.for_desk().order_by("-lent_at", "-pk")
    serializer_class = LoanSerializer
    permission_classes = [IsAdminUser]
    filterset_class = LoanFilter

    def get_object(self) -> Loan:
        if self.action == "retrieve":
            return super().get_object()
        # A write (return, lost, renew) hands the loan to a service that reads it again, locked, with
        # what it needs: here it only has to exist (404), without the list's joins and filters.
        return get_object_or_404(Loan.objects.only("pk"), pk=self.kwargs["pk"])

    @extend_schema(request=LoanCreateSerializer, responses={201: LoanSerializer})
    def create(self, request: Request) -> Response:
        serializer = LoanCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            # loans.services.loan_create locks the copy and reads it again with its game.
            copy = copy_for_barcode(serializer.validated_data["barcode"], Copy.objects.only("pk"))
        except DjangoValidationError as error:
            return refusal_response(DjangoValidationError({"barcode": error}), {"barcode": "barcode"})
        try:
            loan = services.loan_create(
                copy=copy,
                member=serializer.validated_data["member"],
                staff=request.user,
                lend_incomplete=serializer.validated_data["lend_incomplete"],
                deposit_method=serializer.validated_data["deposit_method"],
                deposit_cheque_number=serializer.validated_data["deposit_cheque_number"],
            )
        except DjangoValidationError as error:
            return refusal_response(
                error, {"copy": "barcode", "member": "member", **LoanCreateSerializer.REFUSALS}
            )
        return Response(LoanSerializer(loan).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=LoanReturnSerializer, responses={200: LoanSerializer})
    @action(detail=True, methods=["post"], url_path="return", url_name="return")
    def return_loan(self, request: Request, pk: str) -> Response:
        loan = self.get_object()
        serializer = LoanReturnSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        try:
            result = services.loan_return(
                loan=loan,
                staff=request.user,
                missing=[(line["component"], line["quantity"]) for line in data["missing"]],
                recovered=data["recovered"],
                playable_anyway=data["playable_anyway"],
                waive_late_fee=data["waive_late_fee"],
                waive_missing_pieces=data["waive_missing_pieces"],
                site=data["site"].pk if data["site"] else None,
            )
        except DjangoValidationError as error:
            return refusal_response(error, {"missing": "missing", "recovered": "recovered"})
        body = LoanSerializer(result.loan).data
        body["copy_status"] = result.loan.copy.status
        body["set_aside_for"] = HoldSerializer(result.hold).data if result.hold else None
        body["sent_to"] = result.transfer.to_site_id if result.transfer else None
        body["charges"] = ChargeSerializer(result.charges, many=True).data
        body["deposits_returned"] = ChargeSerializer(result.deposits, many=True).data
        return Response(body)

    @extend_schema(request=LoanLostSerializer, responses={200: LoanSerializer})
    @action(detail=True, methods=["post"])
    def lost(self, request: Request, pk: str) -> Response:
        """The family lost the game: close the loan, mark the copy lost, charge its replacement value."""
        serializer = LoanLostSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            result = services.loan_declare_lost(
                loan=self.get_object(),
                staff=request.user,
                waive_charge=serializer.validated_data["waive_charge"],
            )
        except DjangoValidationError as error:
            return refusal_response(error, {})
        body = LoanSerializer(result.loan).data
        body["charges"] = ChargeSerializer(result.charges, many=True).data
        return Response(body)

    @extend_schema(request=LoanRenewSerializer, responses={200: LoanSerializer})
    @action(detail=True, methods=["post"])
    def renew(self, request: Request, pk: str) -> Response:
        """Renew the loan; a late one asks `late_fee` (charge or waive its fee so far) and a `reason`."""
        loan = self.get_object()
        serializer = LoanRenewSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            loan = services.loan_renew(loan=loan, staff=request.user, **serializer.validated_data)
        except DjangoValidationError as error:
            return refusal_response(error, {"late_fee": "late_fee", "reason": "reason"})
        return Response(LoanSerializer(loan).data)


class HoldFilter(django_filters.FilterSet):
    class Meta:
        model = Hold
        fields = ["status", "game", "member"]


class HoldViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """Holds on games, in queue order. Cancelled, never deleted."""

    queryset = Hold.objects.select_related("game", "member", "copy", "pickup_site").order_by(
        "game__title", "position"
    )
    serializer_class = HoldSerializer
    permission_classes = [IsAdminUser]
    filterset_class = HoldFilter

    def create(self, request: Request) -> Response:
        serializer = HoldSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            hold = services.hold_create(
                game=serializer.validated_data["game"],
                member=serializer.validated_data["member"],
                staff=request.user,
                pickup_site=serializer.validated_data.get("pickup_site"),
            )
        except DjangoValidationError as error:
            return refusal_response(error, {"game": "game", "member": "member", "pickup_site": "pickup_site"})
        return Response(HoldSerializer(hold).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=None, responses={200: HoldSerializer})
    @action(detail=True, methods=["post"])
    def cancel(self, request: Request, pk: str) -> Response:
        hold = self.get_object()
        try:
            services.hold_cancel(hold=hold)
        except DjangoValidationError as error:
            return refusal_response(error, {})
        hold.refresh_from_db()
        return Response(HoldSerializer(hold).data)
