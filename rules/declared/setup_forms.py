"""The staff page's form of a declared setup: variants, components and steps as rows, checked by the engine.

The rows are Django formsets; together they make the JSON object of docs/declared-rules.md, which
the rules engine reads and checks (`parse_setup`, through `check_setup`'s range): each of its
refusals, named by path (`steps.2.count`), goes back on the row and input it names. Counts are typed
as text (« 4 », « 1 par joueur + 2 », « 2: 24, 3: 12 ») and read by the engine's one parser.
"""

from __future__ import annotations

from typing import Any

from django import forms
from django.forms import formset_factory
from django.utils.translation import gettext_lazy as _

from catalogue.models import Component, Game
from rules.engine import InvalidInput
from rules.engine.declared import parse_setup
from rules.engine.declared_setup import (
    ACTIONS,
    COMPONENTS_LIMIT,
    STEPS_LIMIT,
    VARIANTS_LIMIT,
    count_from_text,
    count_to_text,
)
from rules.services import error_messages, translate

from .setups import place_name
from .sheets import notice_players

COUNT_HELP = _("« 4 », « 1 par joueur + 2 » ou, par nombre de joueurs, « 2: 24, 3: 12, 4: 0 ».")
TEXT_INPUT = forms.TextInput(attrs={"size": 12})


class VariantRow(forms.Form):
    key = forms.CharField(label=_("identifiant"), max_length=40, widget=TEXT_INPUT)
    label = forms.CharField(label=_("intitulé"), max_length=80)
    description = forms.CharField(label=_("description"), max_length=500, required=False)

    def declared(self) -> dict:
        return {name: self.cleaned_data[name] for name in ("key", "label", "description")}


class ComponentRow(forms.Form):
    key = forms.CharField(label=_("identifiant"), max_length=40, widget=TEXT_INPUT)
    name = forms.CharField(label=_("nom"), max_length=80, help_text=_("Au pluriel : « Dominos »."))
    in_box = forms.IntegerField(label=_("dans la boîte"), widget=forms.NumberInput(attrs={"size": 5}))
    pieces = forms.MultipleChoiceField(
        label=_("pièces du catalogue"),
        required=False,
        widget=forms.CheckboxSelectMultiple,
        help_text=_(
            "Les lignes de la liste des pièces qui sont cet élément (pour « jouable malgré les pièces manquantes »)."
        ),
    )

    def __init__(self, *args, pieces: list[tuple[str, str]] = (), **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["pieces"].choices = pieces
        if not pieces:
            del self.fields["pieces"]

    def declared(self) -> dict:
        return {name: self.cleaned_data[name] for name in ("key", "name", "in_box")}


class StepRow(forms.Form):
    text = forms.CharField(
        label=_("texte"),
        max_length=500,
        required=False,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 40}),
        help_text=_("{n} y tient la place du nombre : « Retirez {n} dominos au hasard. »"),
    )
    component = forms.CharField(label=_("élément"), max_length=40, required=False, widget=TEXT_INPUT)
    action = forms.ChoiceField(
        label=_("action"),
        required=False,
        choices=[("", "—"), *((key, label) for key, label in ACTIONS.items())],
    )
    count = forms.CharField(label=_("nombre ou valeur"), max_length=200, required=False, help_text=COUNT_HELP)
    set = forms.CharField(
        label=_("valeur nommée"),
        max_length=40,
        required=False,
        widget=TEXT_INPUT,
        help_text=_("Un identifiant (« board_side », « first_player ») : l'étape donne alors une valeur."),
    )
    label = forms.CharField(label=_("intitulé de la valeur"), max_length=80, required=False)
    players = forms.CharField(
        label=_("à combien"),
        max_length=40,
        required=False,
        widget=TEXT_INPUT,
        help_text=_("« 2 », « 3-4 », « 5+ » ; vide : toujours."),
    )
    variants = forms.CharField(
        label=_("avec les variantes"), max_length=200, required=False, widget=TEXT_INPUT
    )
    unless = forms.CharField(label=_("sauf variantes"), max_length=200, required=False, widget=TEXT_INPUT)

    def clean(self) -> dict:
        cleaned = super().clean()
        raw = cleaned.get("count", "")
        if raw and count_from_text(raw, value=bool(cleaned.get("set"))) is None:
            self.add_error("count", _("Écrivez un nombre : %(help)s") % {"help": COUNT_HELP})
        return cleaned

    def declared(self) -> dict:
        data = self.cleaned_data
        step: dict[str, Any] = {"text": data["text"]} if data["text"] else {}
        if data["component"]:
            step |= {
                "component": data["component"],
                "action": data["action"],
                "count": count_from_text(data["count"]),
            }
        elif data["set"]:
            step |= {
                "set": data["set"],
                "label": data["label"],
                "to": count_from_text(data["count"], value=True),
            }
        for name in ("players", "variants", "unless"):
            items = [item.strip() for item in data[name].split(",") if item.strip()]
            if items:
                step[name] = items
        return step


VariantFormSet = formset_factory(
    VariantRow, extra=2, can_delete=True, max_num=VARIANTS_LIMIT, validate_max=True
)
ComponentFormSet = formset_factory(
    ComponentRow, extra=4, can_delete=True, max_num=COMPONENTS_LIMIT, validate_max=True
)
StepFormSet = formset_factory(StepRow, extra=8, can_delete=True, max_num=STEPS_LIMIT, validate_max=True)
MORE_ROWS = 4  # « Plus de lignes »: the rows added to each list, what was typed kept
ROW_FIELDS = {"per_player": "count", "plus": "count", "to": "count"}


class SourcesForm(forms.Form):
    sources = forms.CharField(
        label=_("sources"),
        required=False,
        max_length=2000,
        widget=forms.Textarea(attrs={"rows": 2, "cols": 60}),
        help_text=_("D'où viennent les nombres : la règle du jeu, sa page."),
    )


def with_more_rows(data) -> dict:
    """The posted rows with MORE_ROWS blank ones added to each list (nothing is saved)."""
    more = data.copy()
    for prefix, limit in (
        ("variants", VARIANTS_LIMIT),
        ("components", COMPONENTS_LIMIT),
        ("steps", STEPS_LIMIT),
    ):
        raw = str(more.get(f"{prefix}-TOTAL_FORMS", "0"))
        total = int(raw) if raw.isascii() and raw.isdigit() and len(raw) < 4 else 0
        more[f"{prefix}-TOTAL_FORMS"] = str(min(total + MORE_ROWS, limit))
    return more


class SetupDeclarationForm:
    """The three formsets and the sources, read into one declaration and checked by the engine as one."""

    def __init__(self, game: Game, data=None, definition: dict | None = None, sources: str = ""):
        self.game = game
        self.catalogue = list(Component.objects.filter(game=game).order_by("position", "pk"))
        pieces = [(str(piece.pk), f"{piece.quantity} × {piece.label}") for piece in self.catalogue]
        # Bound, the rows are what was posted: an initial row posted unchanged must not read as left blank.
        initial = _initial_rows(definition or {} if data is None else {}, self.catalogue)
        self.sources = SourcesForm(data, initial={"sources": sources})
        self.variants = VariantFormSet(data, prefix="variants", initial=initial["variants"])
        self.components = ComponentFormSet(
            data, prefix="components", initial=initial["components"], form_kwargs={"pieces": pieces}
        )
        self.steps = StepFormSet(data, prefix="steps", initial=initial["steps"])
        self.errors: list[str] = []
        self.definition: dict = {}

    def kept(self, formset) -> list:
        """The filled rows, not deleted (an untouched blank row has no cleaned data)."""
        return [form for form in formset if form.cleaned_data and not formset._should_delete_form(form)]

    def is_valid(self) -> bool:
        parts = (self.sources, self.variants, self.components, self.steps)
        if not all(part.is_valid() for part in parts):
            return False
        rows = {name: self.kept(getattr(self, name)) for name in ("variants", "components", "steps")}
        self.definition = {name: [form.declared() for form in forms_] for name, forms_ in rows.items()}
        try:
            parse_setup(self.definition, notice_players(self.game))
        except InvalidInput as invalid:
            for path, messages in error_messages(invalid).items():
                self._place(rows, path, messages)
            return False
        return True

    def _place(self, rows: dict, path: str, messages: list[str]) -> None:
        parts = path.split(".")
        if parts[0] in rows and len(parts) > 2 and parts[1].isdigit() and int(parts[1]) < len(rows[parts[0]]):
            form = rows[parts[0]][int(parts[1])]
            name = ROW_FIELDS.get(parts[-1], parts[2])
            if name in form.fields:
                form.add_error(name, messages)
                return
        where = place_name(path)
        self.errors += [f"{where} : {message}" if where else message for message in messages]

    def links(self) -> dict[int, str]:
        """Each catalogue piece of the notice → the component key it is now linked to ("" : none)."""
        found = {piece.pk: "" for piece in self.catalogue}
        for form in self.kept(self.components):
            for pk in form.cleaned_data.get("pieces", []):
                found[int(pk)] = form.cleaned_data["key"]
        return found

    def players_text(self) -> str:
        players = notice_players(self.game)
        return translate(str(players.refusal()))


def _initial_rows(definition: dict, catalogue: list[Component]) -> dict[str, list[dict]]:
    """A stored (or drafted) declaration as the formsets' initial rows."""
    components = []
    for component in definition.get("components", []):
        linked = [str(piece.pk) for piece in catalogue if piece.rules_key == component.get("key")]
        components.append({**component, "pieces": component.get("pieces") or linked})
    steps = []
    for step in definition.get("steps", []):
        row = {key: step.get(key, "") for key in ("text", "component", "action", "set", "label")}
        row["count"] = count_to_text(step.get("count", step.get("to")))
        for name in ("players", "variants", "unless"):
            value = step.get(name, [])
            row[name] = ", ".join(map(str, value)) if isinstance(value, list) else str(value)
        steps.append(row)
    return {"variants": list(definition.get("variants", [])), "components": components, "steps": steps}
