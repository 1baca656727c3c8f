"""Boards on the rules pages: Catan's island drawn from a seed, Railroad Ink's board read square by square.

The engine does the work (rules/games/catane_board.py, rules/games/railroad_ink_board.py); these are
their Django forms and views. Railroad Ink's board is its referee check: `check_form()` gives the
check view and the rules page this form instead of the generic one (a 7 × 7 board of selects).
"""

from __future__ import annotations

import secrets
from functools import lru_cache
from urllib.parse import urlencode

from django import forms
from django.forms.utils import flatatt
from django.http import Http404, HttpRequest, HttpResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.functional import cached_property
from django.utils.html import escape, format_html
from django.utils.safestring import mark_safe
from django.utils.translation import get_language, gettext, gettext_lazy
from django.views.decorators.http import require_GET

from .engine import InvalidInput
from .forms import CheckForm, chosen_variants, variants_field
from .games import catane_board as catan
from .games import railroad_ink_board as ink
from .services import error_messages, game_rules, translate

# --- Catan's island -----------------------------------------------------------------------------------------

CATAN_SLUG = "catane"
# The address speaks French (`?disposition=debutant&jetons=spirale&graine=1234`), the engine English.
LAYOUT_WORDS = {"equilibree": "random", "debutant": "beginner"}
NUMBER_WORDS = {"spirale": "spiral", "hasard": "random"}


class CatanBoardForm(forms.Form):
    """Which island: the beginners' one, or a random balanced one from a seed (drawn when none is given)."""

    use_required_attribute = False

    disposition = forms.ChoiceField(
        label=gettext_lazy("Disposition"),
        choices=[
            ("equilibree", gettext_lazy("Aléatoire équilibrée")),
            ("debutant", gettext_lazy("Mise en place pour débutants (règle)")),
        ],
        required=False,
        initial="equilibree",
    )
    jetons = forms.ChoiceField(
        label=gettext_lazy("Jetons numérotés"),
        choices=[
            ("spirale", gettext_lazy("En spirale, de A à R")),
            ("hasard", gettext_lazy("Au hasard, sans 6 ni 8 voisins")),
        ],
        required=False,
        initial="spirale",
    )
    graine = forms.IntegerField(
        label=gettext_lazy("Graine"),
        min_value=0,
        max_value=catan.SEED_MAX,
        required=False,
        help_text=gettext_lazy("Le même nombre redonne le même plateau."),
        error_messages={"invalid": gettext_lazy("Saisissez un nombre entier.")},
    )

    @property
    def layout(self) -> str:
        return LAYOUT_WORDS[self.cleaned_data.get("disposition") or "equilibree"]

    @property
    def numbers(self) -> str:
        return NUMBER_WORDS[self.cleaned_data.get("jetons") or "spirale"]

    @cached_property
    def board(self) -> catan.Board:
        return catan.board(self.layout, self.cleaned_data.get("graine"), self.numbers)

    @property
    def query(self) -> str:
        """The address of this very island."""
        query = {"disposition": self.cleaned_data.get("disposition") or "equilibree"}
        if self.layout == "random":
            query |= {"jetons": self.cleaned_data.get("jetons") or "spirale", "graine": self.board.seed}
        return urlencode(query)


def new_seed() -> int:
    return secrets.randbelow(catan.SEED_MAX + 1)


def catan_drawing(board: catan.Board) -> dict:
    """What templates/rules/includes/catan_board.svg draws (also for a print aid that shows the island)."""
    drawing = catan.drawing(board)
    for hex_ in drawing["hexes"]:
        hex_["name"], hex_["resource"] = translate(hex_["name"]), translate(hex_["resource"])
    for harbour in drawing["harbours"]:
        harbour["resource"] = translate(harbour["resource"])
    return drawing


def _catan_board(request: HttpRequest, template: str) -> HttpResponse:
    rules = game_rules(CATAN_SLUG)
    if rules is None:
        raise Http404
    form = CatanBoardForm(request.GET or None)
    context = {"slug": CATAN_SLUG, "title": rules.title, "form": form}
    if request.GET and not form.is_valid():
        return render(request, template, context, status=400)
    if not request.GET:
        form = CatanBoardForm({"disposition": "equilibree"})
        form.is_valid()
    if form.layout == "random" and form.cleaned_data.get("graine") is None:
        # A random island always has its seed in the address: the page can be shared, printed, found again.
        query = request.GET.copy()
        query["graine"] = str(new_seed())
        return redirect(f"{request.path}?{query.urlencode()}")
    board = form.board
    context |= {
        "board": board,
        "drawing": catan_drawing(board),
        "query": form.query,
        "harbour_count": len(board.harbours),
    }
    return render(request, template, context)


@require_GET
def catan_board(request: HttpRequest) -> HttpResponse:
    return _catan_board(request, "rules/catan_board.html")


@require_GET
def catan_board_print(request: HttpRequest) -> HttpResponse:
    return _catan_board(request, "rules/print/catan_board.html")


# --- Railroad Ink's board ----------------------------------------------------------------------------------

RAILROAD_SLUG = "railroad-ink"


@lru_cache(maxsize=4)
def _piece_choices(language: str) -> tuple[tuple[str, str], ...]:
    """Every route in every way it can be drawn: « Gare courbée — autoroute : haut ; chemin de fer : droite »."""
    choices = [("", "—")]
    for tile in ink.TILES.values():
        for rotation, mirrored in ink.orientations(tile):
            sides, _groups = tile.placed(rotation, mirrored)
            parts = []
            for kind in (ink.ROAD, ink.RAIL):
                opened = [translate(ink.SIDE_LABELS[side]) for side in ink.SIDES if sides.get(side) == kind]
                if opened:
                    parts.append((translate(ink.KIND_LABELS[kind]), ", ".join(opened)))
            if (
                len(parts) == 1
            ):  # one kind: its name is already the route's (« Autoroute courbée : haut, droite »)
                label = f"{translate(tile.label)} : {parts[0][1]}"
            else:
                label = (
                    f"{translate(tile.label)} — {' ; '.join(f'{kind} : {opened}' for kind, opened in parts)}"
                )
            choices.append((f"{tile.slug}:{rotation}:{int(mirrored)}", label))
    return tuple(choices)


@lru_cache(maxsize=8)
def _options_html(choices: tuple[tuple[str, str], ...]) -> str:
    return "".join(
        str(format_html('<option value="{}">{}</option>', value, label)) for value, label in choices
    )


class SharedOptionsSelect(forms.Select):
    """A select whose options are the same in all 49 squares: written once, copied with the choice marked.

    Django renders each option through a template; 49 × 61 of them took over a second a page.
    """

    def render(self, name, value, attrs=None, renderer=None) -> str:
        options = _options_html(tuple((str(v), str(label)) for v, label in self.choices))
        if value not in (None, ""):
            chosen = str(format_html('<option value="{}">', value))
            options = options.replace(chosen, chosen[:-1] + " selected>", 1)
        final = self.build_attrs(self.attrs, attrs)
        return mark_safe(f'<select name="{escape(name)}"{flatatt(final)}>{options}</select>')


def piece_sides() -> dict[str, dict]:
    """Each option's drawing for the page's preview script: the sides of each kind, whether it is a bridge."""
    found = {}
    for tile in ink.TILES.values():
        for rotation, mirrored in ink.orientations(tile):
            sides, groups = tile.placed(rotation, mirrored)
            found[f"{tile.slug}:{rotation}:{int(mirrored)}"] = {
                "road": [side for side, kind in sides.items() if kind == ink.ROAD],
                "rail": [side for side, kind in sides.items() if kind == ink.RAIL],
                "station": tile.source != ink.PLAIN_DIE
                and len(groups) == 1
                and len(set(sides.values())) == 2,
            }
    return found


def _cells():
    return [(row, column) for row in range(1, ink.SIZE + 1) for column in range(1, ink.SIZE + 1)]


class RailroadInkBoardForm(forms.Form):
    """The 7 × 7 board: in each square the route drawn (with its rotation) and the round it was drawn in."""

    use_required_attribute = False
    tool_template = "rules/includes/railroad_ink_board_tool.html"

    def __init__(self, game, data=None):
        super().__init__(data)
        self.game = game
        self.result: dict | None = None
        self.placed: list[tuple[int, int]] = []  # the square of each route sent to the engine
        if game.variants:
            # With an expansion the game lasts 6 rounds: the engine refuses a route of round 7.
            self.fields["variants"] = variants_field(game)
        pieces = _piece_choices(get_language() or "fr")
        rounds = [("", "—"), *((str(number), str(number)) for number in range(1, ink.MOST_ROUNDS + 1))]
        for row, column in _cells():
            where = gettext("ligne %(row)s, colonne %(column)s") % {"row": row, "column": column}
            self.fields[f"cell.{row}.{column}"] = forms.ChoiceField(
                label=gettext("Route, %(where)s") % {"where": where},
                choices=pieces,
                required=False,
                widget=SharedOptionsSelect,
            )
            self.fields[f"round.{row}.{column}"] = forms.ChoiceField(
                label=gettext("Manche, %(where)s") % {"where": where},
                choices=rounds,
                required=False,
                widget=SharedOptionsSelect,
            )

    @property
    def pieces(self) -> dict[str, dict]:
        return piece_sides()

    @property
    def rows(self) -> list[list[dict]]:
        return [
            [
                {
                    "piece": self[f"cell.{row}.{column}"],
                    "round": self[f"round.{row}.{column}"],
                    "center": row - 1 in ink.CENTER and column - 1 in ink.CENTER,
                }
                for column in range(1, ink.SIZE + 1)
            ]
            for row in range(1, ink.SIZE + 1)
        ]

    def routes(self) -> list[dict]:
        routes = []
        self.placed = []
        for row, column in _cells():
            piece = self.cleaned_data.get(f"cell.{row}.{column}")
            if not piece:
                continue
            slug, rotation, mirrored = piece.split(":")
            number = self.cleaned_data.get(f"round.{row}.{column}")
            routes.append(
                {
                    "row": row,
                    "column": column,
                    "tile": slug,
                    "rotation": int(rotation),
                    "mirrored": mirrored == "1",
                    "round": int(number) if number else None,
                }
            )
            self.placed.append((row, column))
        return routes

    def clean(self) -> dict:
        cleaned = super().clean()
        if self.errors:
            return cleaned
        try:
            variants = chosen_variants(self.data) if "variants" in self.fields else []
            self.result = self.game.run_check({"routes": self.routes(), "variants": variants})
        except InvalidInput as invalid:
            for path, messages in error_messages(invalid).items():
                parts = path.split(".")
                if (
                    len(parts) >= 3
                    and parts[0] == "routes"
                    and parts[1].isdigit()
                    and int(parts[1]) < len(self.placed)
                ):
                    row, column = self.placed[int(parts[1])]
                    name = f"round.{row}.{column}" if parts[2] == "round" else f"cell.{row}.{column}"
                    self.add_error(name, messages)
                elif parts[0] == "variants" and "variants" in self.fields:
                    self.add_error("variants", messages)
                else:
                    self.add_error(None, messages)
        return cleaned

    @property
    def board_errors(self) -> list[tuple[str, list[str]]]:
        """Each square's refusals, named by its square (the board's selects are too small to hold them)."""
        found = []
        for name, messages in self.errors.items():
            if name in ("__all__", "variants"):
                continue
            _kind, row, column = name.split(".")
            where = gettext("Ligne %(row)s, colonne %(column)s") % {"row": row, "column": column}
            found.append((where, list(messages)))
        return found

    @cached_property
    def display(self) -> dict | None:
        if self.result is None:
            return None
        result = self.result
        lines = [
            (
                gettext("Réseaux"),
                ", ".join(str(n["exits"]) for n in result["networks"]) or "—",
                result["points"]["networks"],
            ),
            (
                gettext("Plus longue autoroute"),
                result["longest_highway"]["length"],
                result["points"]["longest_highway"],
            ),
            (
                gettext("Plus long chemin de fer"),
                result["longest_railway"]["length"],
                result["points"]["longest_railway"],
            ),
            (gettext("Cases centrales"), result["center_squares"], result["points"]["center_squares"]),
            (gettext("Erreurs"), len(result["errors"]), result["points"]["errors"]),
        ]
        errors = [
            gettext("Ligne %(row)s, colonne %(column)s, côté %(side)s : %(reason)s")
            % {
                "row": error["row"],
                "column": error["column"],
                "side": translate(ink.SIDE_LABELS[{v: k for k, v in ink.SIDE_NAMES.items()}[error["side"]]]),
                "reason": gettext("route de l'autre type en face")
                if error["reason"] == "mismatch"
                else gettext("fin de route ouverte"),
            }
            for error in result["errors"]
        ]
        sheet = result["sheet"]
        # The score sheet filled with the board's numbers, for one player (its printable, bookmarkable view).
        sheet_query = urlencode(
            {
                "players": "1",
                "players.0.name": gettext("Plateau"),
                "players.0.networks": ", ".join(str(exits) for exits in sheet["networks"]),
                **{
                    f"players.0.{line}": sheet[line]
                    for line in ("longest_highway", "longest_railway", "center_squares", "errors")
                },
            }
        )
        return {
            "lines": lines,
            "total": result["points"]["total"],
            "errors": errors,
            "result": result,
            "sheet_query": sheet_query,
        }

    @property
    def drawing(self) -> dict:
        routes = self.routes() if self.is_bound and hasattr(self, "cleaned_data") else []
        return ink.drawing(routes, self.result)

    @property
    def print_query(self) -> str:
        kept = QueryDict(mutable=True)
        for name, value in (self.data or {}).items():
            if (name.startswith("cell.") or name.startswith("round.")) and str(value).strip():
                kept[name] = value
        if "variants" in self.fields and self.data:
            kept.setlist("variants", chosen_variants(self.data))
        return kept.urlencode()


def check_form(rules, data=None):
    """The referee check's form: Railroad Ink's board, else the generic one built from the declared fields."""
    if rules.slug == RAILROAD_SLUG:
        form = RailroadInkBoardForm(rules, data)
        if data is not None:
            form.is_valid()
        return form
    return CheckForm(rules, data)


@require_GET
def railroad_ink_board_print(request: HttpRequest) -> HttpResponse:
    """The board and what it scores, on one A4 page (the same squares as the page's form, in the address)."""
    rules = game_rules(RAILROAD_SLUG)
    if rules is None:
        raise Http404
    form = check_form(rules, request.GET)
    context = {"slug": RAILROAD_SLUG, "title": rules.title, "form": form, "check": form.display}
    return render(
        request, "rules/print/railroad_ink_board.html", context, status=200 if form.is_valid() else 400
    )


def board_links(slug: str) -> list[tuple[str, str]]:
    """The board pages a rules page links to."""
    if slug == CATAN_SLUG:
        return [
            (
                reverse("rules:catan-board"),
                gettext("Plateau : mise en place pour débutants ou aléatoire équilibrée"),
            )
        ]
    return []
