import re

from django.contrib import admin
from django.urls import reverse
from django.utils.html import format_html
from django.utils.translation import gettext_lazy as _

from ludotheque.access import LibrarianAccessMixin, ReadOnlyHistoryMixin

from .declared.forms import (
    DeclaredLineForm,
    DeclaredLineFormSet,
    DeclaredSetupAdminForm,
    DeclaredSheetForm,
    DeclaredTieBreakerForm,
    DeclaredTieBreakerFormSet,
)
from .declared.setups import declared_setup_save
from .declared.sheets import declared_sheet_page
from .models import DeclaredLine, DeclaredSetup, DeclaredSheet, DeclaredTieBreaker, Revision, RulePage


class RevisionInline(ReadOnlyHistoryMixin, admin.TabularInline):
    """The page's history, read-only: revisions are written through the page editor, never deleted."""

    model = Revision
    fields = ["number", "author_name", "created_at", "summary"]
    readonly_fields = fields
    ordering = ["-number"]
    extra = 0
    show_change_link = True


class BadInputIs400Mixin:
    """A refused post answers 400, like every form of the site (the admin itself says 200)."""

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        response = super().changeform_view(request, object_id, form_url, extra_context)
        context = getattr(response, "context_data", None) or {}
        if request.method == "POST" and response.status_code == 200 and context.get("errors"):
            response.status_code = 400
        return response


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


# --- declared score sheets (rules/declared/) --------------------------------------------------------


class DeclaredLineInline(LibrarianAccessMixin, admin.TabularInline):
    model = DeclaredLine
    form = DeclaredLineForm
    formset = DeclaredLineFormSet
    fields = ["position", "label", "key", "points", "sign", "max_units", "knocks_out"]
    prepopulated_fields = {"key": ["label"]}
    extra = 3


class DeclaredTieBreakerInline(LibrarianAccessMixin, admin.TabularInline):
    model = DeclaredTieBreaker
    form = DeclaredTieBreakerForm
    formset = DeclaredTieBreakerFormSet
    fields = ["position", "line_key", "winning"]
    extra = 2


@admin.register(DeclaredSheet)
class DeclaredSheetAdmin(BadInputIs400Mixin, LibrarianAccessMixin, admin.ModelAdmin):
    form = DeclaredSheetForm
    inlines = [DeclaredLineInline, DeclaredTieBreakerInline]
    list_display = ["page", "winning", "line_count", "updated_at", "page_link"]
    list_select_related = ["page"]
    search_fields = ["page__title", "page__slug"]
    readonly_fields = ["page_link"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("lines")

    def get_fields(self, request, obj=None):
        return ["page_link", "winning", "play"] if obj is not None else ["game", "winning", "play"]

    def get_changeform_initial_data(self, request):
        # « Déclarer une feuille de score » on a notice's rules page links here with ?game=<id>.
        initial = super().get_changeform_initial_data(request)
        game = str(request.GET.get("game", ""))
        if re.fullmatch(r"[0-9]{1,18}", game):
            initial["game"] = int(game)
            # The sheet starts from the page's default one: whoever wins there wins here.
            page = RulePage.objects.filter(game_id=int(game)).only("sheet_winning").first()
            if page is not None:
                initial["winning"] = page.sheet_winning
        return initial

    @admin.display(description=_("lignes"))
    def line_count(self, sheet: DeclaredSheet) -> int:
        return len(sheet.lines.all())

    @admin.display(description=_("page de règles"))
    def page_link(self, sheet: DeclaredSheet) -> str:
        if sheet.pk is None:
            return "—"
        return format_html('<a href="{}">{}</a>', sheet.page.get_absolute_url(), sheet.page.title)

    def save_model(self, request, obj: DeclaredSheet, form, change: bool) -> None:
        if not change:
            # Inside the admin's transaction: the page (and its first revision) and the sheet come together.
            obj.page = declared_sheet_page(game=form.cleaned_data["game"], author=request.user)
        super().save_model(request, obj, form, change)


@admin.register(DeclaredSetup)
class DeclaredSetupAdmin(BadInputIs400Mixin, LibrarianAccessMixin, admin.ModelAdmin):
    """The declaration as JSON; the staff page (« Déclarer la mise en place ») is the friendlier way."""

    form = DeclaredSetupAdminForm
    list_display = ["page", "updated_at", "staff_link"]
    list_select_related = ["page"]
    search_fields = ["page__title", "page__slug"]

    def get_fields(self, request, obj=None):
        return ["definition", "sources"] if obj is not None else ["game", "definition", "sources"]

    @admin.display(description=_("page de déclaration"))
    def staff_link(self, setup: DeclaredSetup) -> str:
        url = reverse("rules:setup-declare", args=[setup.page.slug])
        return format_html('<a href="{}">{}</a>', url, _("Déclarer la mise en place"))

    def save_model(self, request, obj: DeclaredSetup, form, change: bool) -> None:
        # One write path (the page created if need be, the declaration checked again inside it).
        game = form.notice()
        saved = declared_setup_save(
            game=game, definition=obj.definition, sources=obj.sources, author=request.user
        )
        obj.pk, obj.page = saved.pk, saved.page
