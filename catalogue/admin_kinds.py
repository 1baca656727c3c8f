"""The kinds of item in the admin: their names and loan rules (how they combine: loans/loan_rules.py)."""

from django.contrib import admin
from django.db import models
from django.db.models import Count
from django.utils.translation import gettext_lazy as _

from ludotheque.access import LibrarianAccessMixin
from ludotheque.money import PlainDecimalField

from .models import ItemKind


@admin.register(ItemKind)
class ItemKindAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    """The kinds of item and their loan rules, each blank for the membership's (loans/loan_rules.py)."""

    list_display = [
        "name",
        "loan_period_days",
        "loan_fee",
        "deposit",
        "loan_quota",
        "is_default",
        "copy_count",
    ]
    formfield_overrides = {models.DecimalField: {"form_class": PlainDecimalField, "localize": True}}
    fields = ["name", "is_default", "loan_period_days", "loan_fee", "deposit", "loan_quota"]
    search_fields = ["name"]

    def get_queryset(self, request):
        return super().get_queryset(request).annotate(copy_count=Count("copies"))

    @admin.display(description=_("exemplaires"), ordering="copy_count")
    def copy_count(self, kind: ItemKind) -> int:
        return kind.copy_count
