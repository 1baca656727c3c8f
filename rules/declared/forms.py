"""The admin's forms of a declared score sheet (a notice, who wins, the lines and the tie-breakers inline) and setup.

Used by `DeclaredSheetAdmin` (rules/admin.py). A tie-breaker names its line by the line's identifier,
so a sheet and its tie-breakers can be written in one go, before the lines have an id: the
tie-breakers' formset checks each one against the lines posted with it (not deleted), and saves after them.
"""

from __future__ import annotations

import re

from django import forms
from django.core.exceptions import ValidationError
from django.forms.models import BaseInlineFormSet
from django.utils.text import slugify
from django.utils.translation import gettext_lazy as _

from catalogue.models import Game
from rules.models import DeclaredLine, DeclaredSetup, DeclaredSheet, DeclaredTieBreaker

from .play import check_play, check_play_lines
from .setups import check_setup, setup_refusal
from .sheets import sheet_refusal

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
        fields = ["winning", "play"]

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

    def clean(self) -> dict:
        cleaned = super().clean()
        game = cleaned.get("game") if self.instance.pk is None else self.instance.page.game
        if "play" in cleaned and (self.instance.pk is not None or game is not None):
            try:
                # Checked with its lines by DeclaredLineFormSet, which reads it here.
                self.instance.checked_play = check_play(cleaned["play"] or {}, game)
            except ValidationError as error:
                self.add_error("play", error)
        return cleaned


class DeclaredLineForm(forms.ModelForm):
    class Meta:
        model = DeclaredLine
        fields = ["position", "label", "key", "points", "sign", "max_units", "knocks_out"]

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
        kept = [
            form.cleaned_data
            for form in self.forms
            if form.cleaned_data and not self._should_delete_form(form)
        ]
        try:
            # The sheet's form has read its posted way of winning into the instance (checked there).
            play = check_play(
                self.instance.play or {}, self.instance.page.game if self.instance.page_id else None
            )
        except ValidationError:
            play = None
        if play is None:
            if not kept:
                raise ValidationError(_("Une feuille de score a au moins une ligne."), code="no_lines")
            return
        check_play_lines(play, kept)


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


class DeclaredSetupAdminForm(forms.ModelForm):
    """The admin's declared setup: the declaration as JSON (docs/declared-rules.md), checked by the engine."""

    game = forms.ModelChoiceField(
        label=_("notice du catalogue"),
        queryset=Game.objects.order_by("title"),
        help_text=_(
            "Le jeu qui reçoit cette mise en place ; sa page de règles est créée si elle n'existe pas."
        ),
    )

    class Meta:
        model = DeclaredSetup
        fields = ["definition", "sources"]

    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)
        if self.instance.pk is not None:
            del self.fields["game"]  # a setup stays on its page

    def notice(self) -> Game | None:
        return self.cleaned_data.get("game") if self.instance.pk is None else self.instance.page.game

    def clean(self) -> dict:
        cleaned = super().clean()
        game = self.notice()
        if game is not None and self.instance.pk is None and (refused := setup_refusal(game)) is not None:
            self.add_error("game", refused)
        if "definition" in cleaned and (self.instance.pk is not None or game is not None):
            try:
                check_setup(cleaned["definition"], game)
            except ValidationError as error:
                self.add_error("definition", error)
        return cleaned
