"""The loan desk's API resources: members, loans and holds."""

from django.utils.translation import gettext_lazy as _
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from catalogue.models import Component, Location
from ledger.models import Entry, Method
from ludotheque.api import FieldsOnceMixin
from members.models import HouseholdMember, Member

from .forms import DepositFields
from .models import Hold, Loan, MissingPiece
from .renewals import LateFee


class HouseholdMemberSerializer(serializers.ModelSerializer):
    class Meta:
        model = HouseholdMember
        fields = ["first_name", "birth_year"]


class MemberSerializer(serializers.ModelSerializer):
    household = HouseholdMemberSerializer(many=True, read_only=True)
    membership_type_name = serializers.CharField(source="membership_type.name", read_only=True)
    membership_valid = serializers.SerializerMethodField()
    open_loan_count = serializers.SerializerMethodField()
    quota_left = serializers.SerializerMethodField()
    balance = serializers.SerializerMethodField(
        help_text="What the family owes the ludothèque, in euros (negative: a credit); see /api/ledger/."
    )

    class Meta:
        model = Member
        fields = [
            "id",
            "card_barcode",
            "name",
            "email",
            "phone",
            "address",
            "contact_name",
            "contact_phone",
            "contact_email",
            "language",
            "membership_type",
            "membership_type_name",
            "membership_start",
            "membership_expiry",
            "membership_valid",
            "household",
            "open_loan_count",
            "quota_left",
            "balance",
        ]

    def get_membership_valid(self, member: Member) -> bool:
        return member.membership_is_valid()

    def get_open_loan_count(self, member: Member) -> int:
        # Lists annotate the count (api.MemberViewSet); a fresh record counts it.
        count = getattr(member, "open_loan_count", None)
        return member.loans.open().count() if count is None else count

    def get_quota_left(self, member: Member) -> int:
        return member.quota_left(self.get_open_loan_count(member))

    @extend_schema_field(serializers.DecimalField(max_digits=9, decimal_places=2))
    def get_balance(self, member: Member) -> str:
        # Lists annotate it (api.MemberViewSet); a fresh record reads its ledger.
        balance = getattr(member, "balance", None)
        if balance is None:
            balance = Entry.objects.filter(member=member).balance()
        return f"{balance:.2f}"

    def validate(self, attrs: dict) -> dict:
        # A new family's start defaults to today (the model's default), as the database will write it.
        default_start = Member._meta.get_field("membership_start").get_default()
        start = attrs.get("membership_start", getattr(self.instance, "membership_start", default_start))
        expiry = attrs.get("membership_expiry", getattr(self.instance, "membership_expiry", None))
        if start and expiry and start > expiry:
            raise serializers.ValidationError(
                {"membership_expiry": _("L'adhésion ne peut pas finir avant d'avoir commencé.")},
                code="membership_dates",
            )
        # A group borrows through its contact person, as the admin and the desk require (Member.clean).
        kind = attrs.get("membership_type", getattr(self.instance, "membership_type", None))
        contact = attrs.get("contact_name", getattr(self.instance, "contact_name", ""))
        if kind is not None and kind.is_group and not contact.strip():
            raise serializers.ValidationError(
                {
                    "contact_name": _(
                        "Une collectivité a une personne de contact : l'enseignant, l'éducateur…"
                    )
                },
                code="group_without_contact",
            )
        return attrs


class LoanSerializer(FieldsOnceMixin, serializers.ModelSerializer):
    barcode = serializers.CharField(source="copy.barcode", read_only=True)
    game = serializers.CharField(source="copy.game.title", read_only=True)
    # None once the history is anonymised (privacy app).
    member_name = serializers.CharField(source="member.name", read_only=True, default=None)
    overdue = serializers.SerializerMethodField()
    kind = serializers.CharField(source="copy.kind.name", read_only=True, help_text="the copy's kind of item")
    # A plain string in the schema: empty while the game is out, which an enum of the three checks omits.
    return_check = serializers.CharField(
        read_only=True, help_text="empty while on loan, then complete | incomplete | playable"
    )

    class Meta:
        model = Loan
        fields = [
            "id",
            "copy",
            "barcode",
            "game",
            "kind",
            "member",
            "member_name",
            "lent_at",
            "due_on",
            "renewals",
            "returned_at",
            "return_check",
            "overdue",
        ]
        read_only_fields = fields

    def get_overdue(self, loan: Loan) -> bool:
        return loan.is_overdue()


# Inline in the schema: the ledger's API names the same choices MethodEnum.
@extend_schema_field({"type": "string", "enum": Method.values})
class DepositMethodField(serializers.ChoiceField):
    """How the family pays a deposit: cash, cheque, card or transfer."""


class DepositSerializer(serializers.Serializer):
    """A copy whose kind asks a deposit (loans/loan_rules.py) goes out only with how the family pays it."""

    deposit_method = DepositMethodField(choices=Method.choices, required=False, default="")
    deposit_cheque_number = serializers.CharField(max_length=40, required=False, default="", allow_blank=True)

    # The deposit's refusals (`loan_create`'s) on the field they are about (ludotheque/answers.py).
    REFUSALS = DepositFields.DEPOSIT_REFUSALS


class LoanCreateSerializer(DepositSerializer):
    """Lend a copy, named by its barcode as the scanner reads it, to a member family."""

    barcode = serializers.CharField(max_length=40)
    # loans.services.loan_create reads the family again, with its membership, once its row is locked.
    member = serializers.PrimaryKeyRelatedField(queryset=Member.objects.only("pk"))
    # An incomplete copy the rules engine finds playable goes out only when this is true.
    lend_incomplete = serializers.BooleanField(required=False, default=False)


class MissingCountSerializer(serializers.Serializer):
    component = serializers.PrimaryKeyRelatedField(queryset=Component.objects.all())
    quantity = serializers.IntegerField(min_value=1)


class LoanReturnSerializer(serializers.Serializer):
    """The pieces check of a return: what is missing now, what came back, and the librarian's verdict."""

    missing = MissingCountSerializer(many=True, required=False, default=list)
    recovered = serializers.PrimaryKeyRelatedField(
        queryset=MissingPiece.objects.still_missing(), many=True, required=False, default=list
    )
    playable_anyway = serializers.BooleanField(required=False, default=False)
    # The fees a return proposes (the membership type's, none by default) are charged unless waived.
    waive_late_fee = serializers.BooleanField(required=False, default=False)
    waive_missing_pieces = serializers.BooleanField(required=False, default=False)
    # The desk's site, when it is not the copy's own: the copy goes home or stays (loans/transfers.py).
    site = serializers.PrimaryKeyRelatedField(
        queryset=Location.objects.all(), required=False, allow_null=True, default=None
    )


class LoanLostSerializer(serializers.Serializer):
    """A family lost the game: the copy's replacement value, if charged, may be waived."""

    waive_charge = serializers.BooleanField(required=False, default=False)


class LoanRenewSerializer(serializers.Serializer):
    """Renew a loan; a late one's late fee so far is charged or waived first (a waiver says why)."""

    late_fee = serializers.ChoiceField(
        choices=LateFee.choices,
        required=False,
        allow_blank=True,
        default="",
        help_text="For a late loan whose membership charges late fees: charge | waive.",
    )
    reason = serializers.CharField(max_length=200, required=False, allow_blank=True, default="")


class ChargeSerializer(serializers.Serializer):
    """A fee charged (or recorded as waived) by a return or a loss; see /api/ledger/ for the entry."""

    id = serializers.IntegerField()
    kind = serializers.CharField()
    amount = serializers.DecimalField(max_digits=9, decimal_places=2)
    waived = serializers.BooleanField()
    note = serializers.CharField()


class HoldSerializer(serializers.ModelSerializer):
    game_title = serializers.CharField(source="game.title", read_only=True)
    # None once the history is anonymised (privacy app).
    member_name = serializers.CharField(source="member.name", read_only=True, default=None)
    barcode = serializers.CharField(source="copy.barcode", read_only=True, default=None)
    # A plain string in the schema: an enum named "status" would collide with the catalogue's copy
    # status (drf-spectacular warns, and `check --deploy` fails on warnings).
    status = serializers.CharField(
        read_only=True,
        help_text="waiting | transit (a copy on its way to the pick-up site) | ready (copy set aside) | "
        "fulfilled | cancelled | expired",
    )
    pickup_site_name = serializers.CharField(source="pickup_site.name", read_only=True, default=None)

    class Meta:
        model = Hold
        fields = [
            "id",
            "game",
            "game_title",
            "member",
            "member_name",
            "position",
            "status",
            "created_at",
            "barcode",
            "pickup_site",
            "pickup_site_name",
            "ready_until",
            "closed_at",
        ]
        read_only_fields = ["position", "status", "created_at", "barcode", "ready_until", "closed_at"]
        # hold_create refuses a second active hold with a clear message; no generic unique validator.
        validators = []
        # A hold is made for a family; only an anonymised one has none.
        extra_kwargs = {
            "member": {"allow_null": False, "required": True},
            # Empty: the family's usual site (loans/holds.py, usual_site).
            "pickup_site": {"required": False},
        }
