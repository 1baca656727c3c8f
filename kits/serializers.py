"""The kits' API: a kit with its copies and where it is; lending it and taking it back."""

from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from loans.serializers import DepositSerializer
from members.models import Member

from .models import Kit, KitItem, KitLoan


class KitItemSerializer(serializers.ModelSerializer):
    barcode = serializers.CharField(source="copy.barcode", read_only=True)
    game = serializers.CharField(source="copy.game.title", read_only=True)

    class Meta:
        model = KitItem
        fields = ["barcode", "game"]


class KitLoanSerializer(serializers.ModelSerializer):
    borrower = serializers.CharField(source="member.borrower_label", read_only=True, default=None)
    copies = serializers.SlugRelatedField(source="lines", slug_field="copy_id", many=True, read_only=True)

    class Meta:
        model = KitLoan
        fields = [
            "id",
            "kit",
            "member",
            "borrower",
            "lent_at",
            "due_on",
            "returned_at",
            "material_missing",
            "copies",
        ]


class KitSerializer(serializers.ModelSerializer):
    site = serializers.CharField(source="site.name", read_only=True)
    items = KitItemSerializer(many=True, read_only=True)
    material = serializers.ListField(source="material_lines", child=serializers.CharField(), read_only=True)
    on_loan = serializers.SerializerMethodField()

    class Meta:
        model = Kit
        fields = [
            "id",
            "name",
            "barcode",
            "site",
            "description",
            "material",
            "material_missing",
            "loan_period_days",
            "items",
            "on_loan",
        ]

    @extend_schema_field(KitLoanSerializer(allow_null=True))
    def get_on_loan(self, kit: Kit) -> dict | None:
        loans = kit.open_loans
        return KitLoanSerializer(loans[0]).data if loans else None


class KitLineSerializer(serializers.Serializer):
    barcode = serializers.CharField(source="copy.barcode")
    game = serializers.CharField(source="copy.game.title")
    state = serializers.CharField(
        help_text="ready, incomplete_playable, incomplete, on_loan, unavailable, elsewhere"
    )
    state_label = serializers.CharField()
    detail = serializers.CharField()


class KitCompletenessSerializer(serializers.Serializer):
    complete = serializers.BooleanField()
    material_missing = serializers.CharField()
    lines = KitLineSerializer(many=True)


class KitLendSerializer(DepositSerializer):
    """Lend a kit to a member; a copy whose kind asks a deposit goes with how the borrower pays it."""

    member = serializers.PrimaryKeyRelatedField(queryset=Member.objects.select_related("membership_type"))
    without_missing = serializers.BooleanField(default=False)
    lend_incomplete = serializers.BooleanField(default=False)


class KitReturnSerializer(serializers.Serializer):
    material_missing = serializers.CharField(max_length=500, required=False, default="", allow_blank=True)
