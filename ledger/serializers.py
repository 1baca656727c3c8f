"""The ledger's API resources: entries, and the requests that add one."""

import datetime

from django.utils import timezone
from django.utils.translation import gettext_lazy as _
from rest_framework import serializers

from catalogue.models import Copy, Location
from ludotheque.money import MoneySerializerField
from members.models import Member

from .models import Entry, Kind, Method

# A paper receipt typed later is at most this old.
BACKDATING_DAYS = 366


class EntrySerializer(serializers.ModelSerializer):
    # None for an expense of the ludothèque (kind `expense`): no family.
    member_name = serializers.CharField(source="member.name", read_only=True, allow_null=True, default=None)
    site_name = serializers.CharField(source="site.name", read_only=True)
    clerk = serializers.CharField(source="clerk.get_username", read_only=True)
    receipt = serializers.CharField(read_only=True, help_text="2026-0042, or empty")
    balance_change = serializers.DecimalField(
        source="owed_change",
        max_digits=9,
        decimal_places=2,
        read_only=True,
        help_text="What the entry changes in what the family owes (+ owes more, − owes less).",
    )
    reversed_by = serializers.SerializerMethodField()
    # Plain strings in the schema: enums named "kind" or "method" might collide with other apps' choices.
    kind = serializers.CharField(read_only=True, help_text=" | ".join(Kind.values))
    method = serializers.CharField(
        read_only=True, help_text="empty for a charge, else " + " | ".join(Method.values)
    )

    class Meta:
        model = Entry
        fields = [
            "id",
            "member",
            "member_name",
            "kind",
            "amount",
            "balance_change",
            "method",
            "cheque_number",
            "recorded_at",
            "site",
            "site_name",
            "clerk",
            "loan",
            "copy",
            "missing_piece",
            "deposit",
            "reverses",
            "reversed_by",
            "waived",
            "receipt",
            "note",
        ]
        read_only_fields = fields

    def get_reversed_by(self, entry: Entry) -> int | None:
        # Lists annotate it (Entry.objects.for_display()); a fresh entry was reversed by nothing.
        return getattr(entry, "reversed_by_id", None)


class EntryCreateSerializer(serializers.Serializer):
    """A charge (a kind among the charges), a payment, a refund or a deposit received."""

    CREATABLE = [*Kind.charges(), Kind.PAYMENT, Kind.REFUND, Kind.DEPOSIT_RECEIVED]

    member = serializers.PrimaryKeyRelatedField(queryset=Member.objects.all())
    kind = serializers.ChoiceField(choices=[(kind, Kind(kind).label) for kind in CREATABLE])
    amount = MoneySerializerField()
    site = serializers.PrimaryKeyRelatedField(queryset=Location.objects.all())
    method = serializers.ChoiceField(choices=Method.choices, required=False, allow_blank=True, default="")
    cheque_number = serializers.CharField(max_length=40, required=False, allow_blank=True, default="")
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
    loan = serializers.PrimaryKeyRelatedField(
        # The loans app's Loan, named by the entry's foreign key: the ledger imports nothing of that app.
        queryset=Entry._meta.get_field("loan").related_model.objects.all(),
        required=False,
        allow_null=True,
    )
    copy = serializers.PrimaryKeyRelatedField(queryset=Copy.objects.all(), required=False, allow_null=True)
    recorded_at = serializers.DateTimeField(
        required=False,
        allow_null=True,
        help_text="When the money changed hands, if not now (a paper receipt typed later); never in a closed "
        "till period.",
    )

    once = serializers.UUIDField(
        required=False,
        allow_null=True,
        help_text="A one-time token (a UUID the client makes): the same request sent again with it adds "
        "nothing and answers 200 with the entry first added.",
    )

    def validate_recorded_at(self, value: datetime.datetime | None) -> datetime.datetime | None:
        if value is not None and value < timezone.now() - datetime.timedelta(days=BACKDATING_DAYS):
            raise serializers.ValidationError(
                _("Une écriture se date au plus %(days)s jours en arrière.") % {"days": BACKDATING_DAYS}
            )
        return value

    def validate(self, attrs: dict) -> dict:
        charge = attrs["kind"] in Kind.charges()
        if charge and attrs["method"]:
            raise serializers.ValidationError({"method": _("Un frais n'a pas de mode de paiement.")})
        if not charge and (attrs.get("loan") or attrs.get("copy")):
            raise serializers.ValidationError({"loan": _("Seul un frais désigne un prêt ou un exemplaire.")})
        if attrs.get("recorded_at") and attrs["kind"] not in (Kind.PAYMENT, *Kind.charges()):
            raise serializers.ValidationError({"recorded_at": _("Seuls un frais ou un paiement se datent.")})
        return attrs


class ReverseSerializer(serializers.Serializer):
    site = serializers.PrimaryKeyRelatedField(queryset=Location.objects.all())
    note = serializers.CharField(max_length=200, help_text="Why the entry is cancelled.")


class DepositSettleSerializer(serializers.Serializer):
    site = serializers.PrimaryKeyRelatedField(queryset=Location.objects.all())
    note = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")
