"""The repairs' API resources: a repair, and the requests that open and close one."""

from rest_framework import serializers

from ludotheque.money import MoneySerializerField

from .models import Repair


class RepairSerializer(serializers.ModelSerializer):
    barcode = serializers.CharField(source="copy.barcode", read_only=True)
    game = serializers.CharField(source="copy.game.title", read_only=True)
    opened_by = serializers.CharField(source="opened_by.get_username", read_only=True)
    closed_by = serializers.CharField(
        source="closed_by.get_username", read_only=True, allow_null=True, default=None
    )
    family = serializers.IntegerField(
        source="loan.member_id",
        read_only=True,
        allow_null=True,
        default=None,
        help_text="The family who had the copy when the damage was found at its return, or null.",
    )
    is_open = serializers.BooleanField(read_only=True)

    class Meta:
        model = Repair
        fields = [
            "id",
            "copy",
            "barcode",
            "game",
            "reason",
            "loan",
            "family",
            "status_before",
            "opened_at",
            "opened_by",
            "notes",
            "is_open",
            "closed_at",
            "closed_by",
            "cost",
            "charged_to",
            "entry",
        ]
        read_only_fields = fields


class RepairOpenSerializer(serializers.Serializer):
    barcode = serializers.CharField(max_length=40)
    reason = serializers.CharField(max_length=200)


class RepairNotesSerializer(serializers.Serializer):
    notes = serializers.CharField(max_length=4000, allow_blank=True)


class RepairCloseSerializer(serializers.Serializer):
    notes = serializers.CharField(max_length=4000, allow_blank=True, required=False)
    cost = MoneySerializerField(required=False, allow_null=True, default=None)
    charge_family = serializers.BooleanField(
        required=False,
        allow_null=True,
        default=None,
        help_text="Charge the cost to the family who had the copy (null: as chosen when it was sent).",
    )
