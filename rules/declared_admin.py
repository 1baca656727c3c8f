"""The admin of declared score sheets: a notice, who wins, the lines and the tie-breakers inline.

Registered by `rules/admin.py`. A tie-breaker names its line by the line's identifier, so a sheet
and its tie-breakers can be written in one go, before the lines have an id: the tie-breakers'
formset checks each one against the lines posted with it (not deleted), and saves after them.
"""

from __future__ import annotations

import re

from django import forms
from django.contrib import admin
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils.html import format_html
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from catalogue.access import LibrarianAccessMixin
from catalogue.models import Game

from .declared import declared_sheet_page, sheet_refusal
from .models import DeclaredLine, DeclaredSheet, DeclaredTieBreaker

# The lines formset's prefix (its foreign key's related name), read by the tie-breakers.
LINES_PREFIX = "lines"
MAX_POSTED_LINES = 200
DELETE_BOX = forms.CheckboxInput()  # reads a « delete » box as the formset does ("false" is unchecked)


class DeclaredSheetForm(forms.ModelForm):
    game = forms.ModelChoiceField(
        label=_("notice du catalogue"),
        queryset=Game.objects.order_by("title"),
        help_text=_("Le jeu qui reçoit cette feuille ; sa page de règles est créée si elle n'existe pas."),
    )

    class Meta:
        model = DeclaredSheet
        fields = ["winning"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            del self.fields["game"]  # a sheet stays on its page

    def clean_game(self) -> Game:
        game = self.cleaned_data["game"]
        refusal = sheet_refusal(game)
        if refusal is not None:
            raise refusal
        return game


class DeclaredLineForm(forms.ModelForm):
    class Meta:
        model = DeclaredLine
        fields = ["position", "label", "key", "points", "sign", "max_units"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["key"].required = False  # taken from the label when left blank

    def clean(self) -> dict:
        cleaned = super().clean()
        if not cleaned.get("key") and cleaned.get("label") and "key" not in self.errors:
            # Checked by the model's validators like a typed one.
            cleaned["key"] = key_from_label(cleaned["label"])
        return cleaned


def key_from_label(label: str) -> str:
    """« Routes de 6 wagons » → `routes_de_6_wagons` (an identifier starting with a letter)."""
    key = slugify(label).replace("-", "_")[:40].strip("_")
    return key if key[:1].isalpha() else f"ligne_{key}"[:40].strip("_")


class DeclaredLineFormSet(BaseInlineFormSet):
    def clean(self) -> None:
        super().clean()
        kept = [form for form in self.forms if form.cleaned_data and not self._should_delete_form(form)]
        if not kept:
            raise ValidationError(_("Une feuille de score a au moins une ligne."), code="no_lines")


def posted_line_keys(data, prefix: str = LINES_PREFIX) -> dict[str, str]:
    """The lines posted with a sheet and not deleted: {key: label} (a blank key is taken from the label)."""
    raw_total = str(data.get(f"{prefix}-TOTAL_FORMS", "0")).strip()
    total = min(int(raw_total), MAX_POSTED_LINES) if re.fullmatch(r"[0-9]{1,9}", raw_total) else 0
    keys: dict[str, str] = {}
    for index in range(total):
        if DELETE_BOX.value_from_datadict(data, None, f"{prefix}-{index}-DELETE"):
            continue
        label = str(data.get(f"{prefix}-{index}-label", "")).strip()
        key = str(data.get(f"{prefix}-{index}-key", "")).strip() or (key_from_label(label) if label else "")
        if key:
            keys[key] = label or key
    return keys


class DeclaredTieBreakerForm(forms.ModelForm):
    line_key = forms.CharField(
        label=_("ligne"),
        max_length=40,
        help_text=_(
            "L'identifiant d'une ligne de cette feuille ; on compare les unités inscrites sur cette ligne."
        ),
    )

    class Meta:
        model = DeclaredTieBreaker
        fields = ["position", "winning"]

    def __init__(self, *args, lines: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            self.initial.setdefault("line_key", self.instance.line.key)
        if lines:
            choices = [("", "---------"), *((key, f"{label} ({key})") for key, label in lines.items())]
            self.fields["line_key"].widget = forms.Select(choices=choices)
        self.order_fields(["position", "line_key", "winning"])

    def save(self, commit: bool = True) -> DeclaredTieBreaker:
        # The lines are saved first (the admin saves its inlines in order): find the line by its key.
        self.instance.line = self.instance.sheet.lines.get(key=self.cleaned_data["line_key"])
        return super().save(commit)


class DeclaredTieBreakerFormSet(BaseInlineFormSet):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.lines = self.line_choices()

    def get_form_kwargs(self, index):
        return {**super().get_form_kwargs(index), "lines": self.lines}

    def line_choices(self) -> dict[str, str]:
        """The lines a tie-breaker may name: those posted with it, else the sheet's saved lines."""
        if self.is_bound:
            return posted_line_keys(self.data)
        if self.instance.pk is None:
            return {}
        return {line.key: line.label for line in self.instance.lines.all()}

    def clean(self) -> None:
        super().clean()
        lines = self.lines
        seen: set[str] = set()
        for form in self.forms:
            if not form.cleaned_data or self._should_delete_form(form) or "line_key" not in form.cleaned_data:
                continue
            key = form.cleaned_data["line_key"]
            if key not in lines:
                form.add_error(
                    "line_key",
                    ValidationError(
                        _("Aucune ligne de cette feuille n'a l'identifiant « %(key)s »."),
                        code="unknown_line",
                        params={"key": key},
                    ),
                )
            elif key in seen:
                form.add_error(
                    "line_key",
                    ValidationError(
                        _("Cette ligne départage déjà les égalités de cette feuille."), code="twice"
                    ),
                )
            seen.add(key)


class DeclaredLineInline(LibrarianAccessMixin, admin.TabularInline):
    model = DeclaredLine
    form = DeclaredLineForm
    formset = DeclaredLineFormSet
    fields = ["position", "label", "key", "points", "sign", "max_units"]
    prepopulated_fields = {"key": ["label"]}
    extra = 3


class DeclaredTieBreakerInline(LibrarianAccessMixin, admin.TabularInline):
    model = DeclaredTieBreaker
    form = DeclaredTieBreakerForm
    formset = DeclaredTieBreakerFormSet
    fields = ["position", "line_key", "winning"]
    extra = 2


@admin.register(DeclaredSheet)
class DeclaredSheetAdmin(LibrarianAccessMixin, admin.ModelAdmin):
    form = DeclaredSheetForm
    inlines = [DeclaredLineInline, DeclaredTieBreakerInline]
    list_display = ["page", "winning", "line_count", "updated_at", "page_link"]
    list_select_related = ["page"]
    search_fields = ["page__title", "page__slug"]
    readonly_fields = ["page_link"]

    def get_queryset(self, request):
        return super().get_queryset(request).prefetch_related("lines")

    def get_fields(self, request, obj=None):
        return ["page_link", "winning"] if obj is not None else ["game", "winning"]

    def get_changeform_initial_data(self, request):
        # « Déclarer une feuille de score » on a notice's rules page links here with ?game=<id>.
        initial = super().get_changeform_initial_data(request)
        game = str(request.GET.get("game", ""))
        if re.fullmatch(r"[0-9]{1,18}", game):
            initial["game"] = int(game)
        return initial

    @admin.display(description=_("lignes"))
    def line_count(self, sheet: DeclaredSheet) -> int:
        return len(sheet.lines.all())

    @admin.display(description=_("page de règles"))
    def page_link(self, sheet: DeclaredSheet) -> str:
        if sheet.pk is None:
            return "—"
        return format_html('<a href="{}">{}</a>', sheet.page.get_absolute_url(), sheet.page.title)

    def changeform_view(self, request, object_id=None, form_url="", extra_context=None):
        response = super().changeform_view(request, object_id, form_url, extra_context)
        # Bad input answers 400, like every form of the site (the admin itself says 200).
        context = getattr(response, "context_data", None) or {}
        if request.method == "POST" and response.status_code == 200 and context.get("errors"):
            response.status_code = 400
        return response

    def save_model(self, request, obj: DeclaredSheet, form, change: bool) -> None:
        if not change:
            # Inside the admin's transaction: the page (and its first revision) and the sheet come together.
            obj.page = declared_sheet_page(game=form.cleaned_data["game"], author=request.user)
        super().save_model(request, obj, form, change)
