"""Admin for the families and the kinds of membership: a family is never deleted (its loans and its
ledger are history); the desk invites a family to choose its password from here."""

from django.contrib import admin, messages
from django.core.exceptions import ValidationError
from django.db import models
from django.utils.translation import gettext_lazy as _
from django.utils.translation import ngettext

from ludotheque.access import LibrarianAccessMixin
from ludotheque.money import PlainDecimalField

from .accounts import member_invite
from .models import HouseholdMember, Member, MembershipType


@admin.register(MembershipType)
class MembershipTypeAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = [
        "name",
        "kind",
        "duration_days",
        "price",
        "public",
        "loan_quota",
        "loan_period_days",
        "renewals_allowed",
    ]
    # Amounts typed the French way (« 0,20 ») as well as with a dot.
    formfield_overrides = {models.DecimalField: {"form_class": PlainDecimalField, "localize": True}}
    fieldsets = [
        (None, {"fields": ["name", "kind", "duration_days", "price", "public"]}),
        (_("Prêts"), {"fields": ["loan_quota", "loan_period_days", "renewals_allowed", "late_loans"]}),
        (
            _("Frais (tous facultatifs)"),
            {
                "fields": [
                    "loan_fee",
                    ("late_fee_per_day", "late_fee_cap"),
                    "charge_missing_pieces",
                    "charge_lost_games",
                    "debt_limit",
                ]
            },
        ),
        (
            _("Avis aux familles"),
            {
                "description": _("Un délai vide désactive l'avis correspondant pour ce type d'adhésion."),
                "fields": [
                    "due_soon_days",
                    ("overdue_level1_days", "overdue_level2_days", "overdue_level3_days"),
                    "notify_hold_ready",
                    "hold_expiring_days",
                    "membership_expiring_days",
                ],
            },
        ),
    ]


class HouseholdMemberInline(LibrarianAccessMixin, admin.TabularInline):
    model = HouseholdMember
    extra = 1


@admin.register(Member)
class MemberAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = [
        "name",
        "contact_name",
        "card_barcode",
        "membership_type",
        "membership_expiry",
        "phone",
        "email",
        "language",
    ]
    list_filter = ["membership_type__kind", "membership_type", "membership_expiry", "language"]
    search_fields = ["name", "contact_name", "card_barcode", "email", "phone", "household__first_name"]
    list_select_related = ["membership_type"]
    raw_id_fields = ["user"]
    inlines = [HouseholdMemberInline]
    fieldsets = [
        (None, {"fields": ["card_barcode", "name", "email", "phone", "address", "language"]}),
        (
            _("Collectivité : personne de contact"),
            {
                "description": _("Pour une école, une crèche, une maison de repos : qui emprunte et répond."),
                "fields": ["contact_name", "contact_phone", "contact_email"],
            },
        ),
        (_("Adhésion"), {"fields": ["membership_type", "membership_start", "membership_expiry"]}),
        (_("Compte en ligne et notes"), {"fields": ["user", "notes", "erased_at"]}),
    ]
    readonly_fields = ["erased_at"]

    actions = ["invite"]

    def has_delete_permission(self, request, obj=None) -> bool:
        # A family's loans are history: its record stays.
        return False

    @admin.action(description=_("Inviter par e-mail à choisir un mot de passe"))
    def invite(self, request, queryset) -> None:
        sent = 0
        for member in queryset:
            try:
                member_invite(member=member)
            except ValidationError as error:
                self.message_user(request, " ".join(error.messages), messages.WARNING)
            else:
                sent += 1
        self.message_user(
            request,
            ngettext("%(count)s invitation envoyée.", "%(count)s invitations envoyées.", sent)
            % {"count": sent},
            messages.SUCCESS,
        )
