"""The ledger's API (staff only, session or token): list entries, add a charge, a payment, a refund or a
deposit, reverse an entry, return or cash a deposit. Never an edit or a delete.

Writes go through ledger/services.py like the desk's. A refusal that the state of the books explains
(already reversed, deposit already settled, till period closed) answers 409 with the reason; every
other refusal answers 400 with the message under the field it is about.
"""

import django_filters
from django.core.exceptions import ValidationError as DjangoValidationError
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, status, viewsets
from rest_framework.decorators import action
from rest_framework.permissions import IsAdminUser
from rest_framework.request import Request
from rest_framework.response import Response

from ludotheque.answers import refusal_response
from once.forms import act_once

from . import services
from .models import Entry, Kind
from .serializers import DepositSettleSerializer, EntryCreateSerializer, EntrySerializer, ReverseSerializer

FIELDS = {
    name: name
    for name in ("member", "kind", "amount", "site", "method", "cheque_number", "note", "loan", "recorded_at")
}


def _refused(error: DjangoValidationError) -> Response:
    return refusal_response(error, FIELDS, services.CONFLICT_CODES)


class EntryFilter(django_filters.FilterSet):
    since = django_filters.IsoDateTimeFilter(field_name="recorded_at", lookup_expr="gte", label="since")
    until = django_filters.IsoDateTimeFilter(field_name="recorded_at", lookup_expr="lt", label="until")

    class Meta:
        model = Entry
        fields = ["member", "kind", "method", "site", "loan", "receipt_year", "receipt_number"]


def _entry_create(data: dict, staff) -> Entry:
    """Add the entry of `kind` that the API was sent, through the ledger's services."""
    kind = data["kind"]
    common = {key: data[key] for key in ("member", "amount", "site", "note")} | {"staff": staff}
    money = common | {"method": data["method"], "cheque_number": data["cheque_number"]}
    if kind in Kind.charges():
        return services.charge_create(
            kind=kind, loan=data.get("loan"), copy=data.get("copy"), at=data.get("recorded_at"), **common
        )
    if kind == Kind.PAYMENT:
        return services.payment_create(at=data.get("recorded_at"), **money)
    if kind == Kind.REFUND:
        return services.refund_create(**money)
    return services.deposit_receive(**money)


class EntryViewSet(mixins.ListModelMixin, mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """The families' ledger entries, newest first. Appended to, never edited or deleted."""

    queryset = Entry.objects.for_display().order_by("-recorded_at", "-pk")
    serializer_class = EntrySerializer
    permission_classes = [IsAdminUser]
    filterset_class = EntryFilter

    @extend_schema(request=EntryCreateSerializer, responses={201: EntrySerializer, 200: EntrySerializer})
    def create(self, request: Request) -> Response:
        """Add an entry; sent again with the same `once`, it answers 200 with the entry first added."""
        serializer = EntryCreateSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        data = serializer.validated_data
        refused: list[DjangoValidationError] = []

        def act() -> tuple[Response, str] | None:
            try:
                entry = _entry_create(data, request.user)
            except DjangoValidationError as error:
                refused.append(error)
                return None
            return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED), str(entry.pk)

        def first(pk: str) -> Response:
            return Response(EntrySerializer(Entry.objects.for_display().get(pk=pk)).data)

        if data.get("once") is None:
            done = act()
            return done[0] if done else _refused(refused[0])
        return act_once(request.user, data["once"], act, first) or _refused(refused[0])

    @extend_schema(request=ReverseSerializer, responses={201: EntrySerializer})
    @action(detail=True, methods=["post"])
    def reverse(self, request: Request, pk: str) -> Response:
        """Cancel the entry with a reversing one (same kind, opposite amount), dated now."""
        serializer = ReverseSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            entry = services.entry_reverse(
                entry=self.get_object(), staff=request.user, **serializer.validated_data
            )
        except DjangoValidationError as error:
            return _refused(error)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    def _settle(self, request: Request, settle) -> Response:
        serializer = DepositSettleSerializer(data=request.data)
        serializer.is_valid(raise_exception=True)
        try:
            entry = settle(deposit=self.get_object(), staff=request.user, **serializer.validated_data)
        except DjangoValidationError as error:
            return _refused(error)
        return Response(EntrySerializer(entry).data, status=status.HTTP_201_CREATED)

    @extend_schema(request=DepositSettleSerializer, responses={201: EntrySerializer})
    @action(detail=True, methods=["post"], url_path="return-deposit", url_name="return-deposit")
    def return_deposit(self, request: Request, pk: str) -> Response:
        """Give this deposit (a `deposit_received` entry) back to its family."""
        return self._settle(request, services.deposit_return)

    @extend_schema(request=DepositSettleSerializer, responses={201: EntrySerializer})
    @action(detail=True, methods=["post"], url_path="cash-deposit", url_name="cash-deposit")
    def cash_deposit(self, request: Request, pk: str) -> Response:
        """Keep this deposit: it pays what the family owes."""
        return self._settle(request, services.deposit_cash)
