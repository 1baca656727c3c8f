from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from catalogue.access import LibrarianAccessMixin, ReadOnlyHistoryMixin

from .models import Revision, RulePage


class RevisionInline(ReadOnlyHistoryMixin, admin.TabularInline):
    """The page's history, read-only: revisions are written through the page editor, never deleted."""

    model = Revision
    fields = ["number", "author_name", "created_at", "summary"]
    readonly_fields = fields
    ordering = ["-number"]
    extra = 0
    show_change_link = True


@admin.register(RulePage)
class RulePageAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    list_display = ["title", "slug", "game", "edit_link"]
    search_fields = ["title", "slug"]
    autocomplete_fields = ["game"]
    inlines = [RevisionInline]

    @admin.display(description=_("texte"))
    def edit_link(self, page: RulePage) -> str:
        return format_html('<a href="{}">{}</a>', reverse("rules:page-edit", args=[page.slug]), _("Modifier"))

    def has_delete_permission(self, request, obj=None) -> bool:
        # A page's revisions are history: a page is never deleted, only edited.
        return False


@admin.register(Revision)
class RevisionAdmin(ReadOnlyHistoryMixin, admin.ModelAdmin):
    list_display = ["page", "number", "author_name", "created_at", "summary"]
    list_filter = ["page"]
    search_fields = ["page__title", "author_name", "summary"]
    list_select_related = ["page"]
    readonly_fields = ["page", "number", "author", "author_name", "created_at", "summary", "content"]


from . import declared_admin  # noqa: E402, F401 - registers the declared score sheets' admin
