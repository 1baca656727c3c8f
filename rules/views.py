"""The rules pages: list, page with its embedded calculator, sheet and check, print aids (editing: pages/views.py)."""

from __future__ import annotations

from django.core.paginator import Paginator
from django.db.models import Prefetch
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse, QueryDict
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_GET, require_http_methods

from catalogue.models import Game
from ludotheque.api import RulesThrottle

from .boards import board_links, check_form
from .coverage import coverage
from .declared.sheets import declared_page
from .default_sheet import DefaultRules
from .drawings import PIECE_SET, qr_svg, quarto_sprite
from .engine import GameRules
from .forms import SetupForm, SheetChoiceForm
from .games import all_games, get_game
from .models import RulePage
from .pages.generate import coded_pages_by_title, rule_page_for
from .pages.markup import SectionKind
from .score_sheet import PAD_SLOTS, ScoreSheetForm
from .serializers import ScoreResultSerializer, score_data
from .services import game_rules, page_rules, render_text, translate

INDEX_PER_PAGE = 50
CODED_SLUGS = [rules.slug for rules in all_games()]

# Where each executable part sits on the page: after the first section of one of these kinds.
TOOL_PLACES = {
    "setup": (SectionKind.SETUP, SectionKind.MATERIAL),
    "score": (SectionKind.SCORING, SectionKind.END),
    "check": (SectionKind.END, SectionKind.PLAY, SectionKind.SCORING),
}
MISSING_FEATURE = {
    "setup": gettext_lazy("Ce jeu n'a pas de calculateur de mise en place."),
    "score": gettext_lazy("Ce jeu n'a pas de feuille de score."),
    "check": gettext_lazy("Ce jeu n'a pas de contrôle d'arbitrage."),
}
FEATURE_LABELS = {
    "setup": gettext_lazy("Calculateur de mise en place"),
    "score": gettext_lazy("Feuille de score"),
    "check": gettext_lazy("Arbitrage"),
}


def players_text(game: GameRules) -> str:
    low, high = game.players.minimum, game.players.maximum
    if high is None:
        return _("%(min)s joueurs ou plus") % {"min": low}
    if high == low:
        return _("%(min)s joueurs") % {"min": low}
    return _("%(min)s à %(max)s joueurs") % {"min": low, "max": high}


def _get_rules_or_404(slug: str, feature: str) -> GameRules:
    """The game's rules, if it has this executable part (`setup`, `score`, `check`)."""
    rules = game_rules(slug)
    if rules is None:
        raise Http404(_("Aucun jeu ne porte cet identifiant."))
    if feature not in rules.features:
        raise Http404(MISSING_FEATURE[feature])
    return rules


def _with_notice() -> Prefetch:
    """A page's catalogue notice with its copies' availability, as the rules pages show it."""
    return Prefetch("game", queryset=Game.objects.with_availability().only("pk", "slug", "title"))


def _game_context(rules: GameRules, slug: str) -> dict:
    """What every page about a game shows in its heading (a page's title: a declared sheet's own)."""
    page = RulePage.objects.filter(slug=slug).only("slug", "title").first() if get_game(slug) else None
    return {
        "rules": rules,
        "slug": slug,
        "title": page.title if page else rules.title,
        "players_text": players_text(rules),
    }


# --- list and page -------------------------------------------------------------------------------------


def _entry(slug: str, title: str, rules: GameRules | None, page: RulePage | None) -> dict:
    """A title as the rules index lists it: players, variants, tools, notice, « à compléter »."""
    notice = page.game if page else None
    features = rules.features if rules else []
    if rules is None and notice is not None:
        rules = DefaultRules.from_page(page)
        # A declared setup's calculator is listed without reading its declaration.
        features = [*(["setup"] if hasattr(page, "declared_setup") else []), "score"]
    return {
        "slug": slug,
        "title": title,
        "players": players_text(rules) if rules else "",
        "variants": [translate(variant.label) for variant in rules.variants] if rules else [],
        "features": [(feature, FEATURE_LABELS[feature]) for feature in features],
        "notice": notice,
        "to_complete": page is not None and page.generated,
    }


@require_GET
def page_list(request: HttpRequest) -> HttpResponse:
    """Every title's page, a page of the index at a time, with how many titles have what (counted in SQL)."""
    notices = Game.objects.with_availability().only("pk", "slug", "title", "players_min", "players_max")
    pages = (
        RulePage.objects.select_related("declared_setup")
        .defer("declared_setup__definition")
        .prefetch_related(Prefetch("game", queryset=notices))
        .order_by("title", "pk")
    )
    listing = Paginator(pages, INDEX_PER_PAGE).get_page(request.GET.get("page"))
    entries = [_entry(page.slug, page.title, get_game(page.slug), page) for page in listing]
    if listing.number == 1:
        # A coded game whose page was never loaded (load_rule_pages) is listed all the same.
        loaded = set(RulePage.objects.filter(slug__in=CODED_SLUGS).values_list("slug", flat=True))
        entries += [
            _entry(rules.slug, rules.title, rules, None) for rules in all_games() if rules.slug not in loaded
        ]
        entries.sort(key=lambda entry: entry["title"].casefold())
    context = {"entries": entries, "listing": listing, "figures": coverage()}
    return render(request, "rules/page_list.html", context)


def _tools(rules: GameRules | None, slug: str) -> dict:
    """The executable parts a page embeds, each unbound with the default table."""
    if rules is None:
        return {}
    tools: dict = {}
    if "setup" in rules.features:
        setup = SetupForm(rules)
        setup.is_valid()
        tools["setup"] = setup
    if "score" in rules.features:
        choice = SheetChoiceForm(rules)
        tools["score"] = {
            "choice": choice,
            "form": ScoreSheetForm(rules, players=choice.count, variants=choice.variant_set)
            if choice.ready
            else None,
        }
    if "check" in rules.features:
        tools["check"] = check_form(rules)
    return tools


def _place_tools(sections: list, tools: dict) -> tuple[list[dict], list[str]]:
    """Pair each section with the tools that go after it; the tools with no place go last."""
    placed = [{"section": section, "tools": []} for section in sections]
    leftover = []
    for name in ("setup", "score", "check"):
        if name not in tools:
            continue
        target = next(
            (entry for kind in TOOL_PLACES[name] for entry in placed if entry["section"].kind == kind),
            None,
        )
        if target is None:
            leftover.append(name)
        else:
            target["tools"].append(name)
    return placed, leftover


@require_GET
def page_detail(request: HttpRequest, slug: str) -> HttpResponse:
    coded = get_game(slug)
    if coded is None:
        page = declared_page(slug)  # one query: the page, its notice and its declarations
        rules = page_rules(page)
    else:
        page, rules = RulePage.objects.prefetch_related(_with_notice()).filter(slug=slug).first(), coded
    if page is None and rules is None:
        # A catalogued title whose page was not made yet (written behind the catalogue's back): made now.
        game = Game.objects.filter(slug=slug).first()
        if game is None:
            raise Http404(_("Aucune page de règles ne porte cet identifiant."))
        made = rule_page_for(game)
        if made is not None:
            return redirect(made)
        # A title with coded rules whose page load_rule_pages has not made yet: the coded game's own.
        return redirect("rules:page-detail", slug=coded_pages_by_title()[game.title.casefold()])
    revision = page.current_revision if page else None
    tools = _tools(rules, slug)
    sections, leftover = _place_tools(revision.section_list if revision else [], tools)
    context = {
        "page": page,
        "rules": rules,
        "slug": slug,
        "title": page.title if page else rules.title,
        "players_text": players_text(rules) if rules else "",
        "revision": revision,
        "notice": page.game if page else None,
        "sections": sections,
        "leftover_tools": leftover,
        "tools": tools,
        "rulings": [render_text(ruling) for ruling in rules.rulings] if rules else [],
        "board_links": board_links(slug),
        # `?apercu`: staff see the page as a family does (no edit links, no edit summary).
        "preview": "apercu" in request.GET and request.user.is_staff,
        "staff_view": request.user.is_staff and "apercu" not in request.GET,
    }
    return render(request, "rules/page_detail.html", context)


# --- print aids: the live pages' QR codes, the drawn board -------------------------------------------


def _quarto_board(request: HttpRequest) -> dict:
    return {"pieces": PIECE_SET, "piece_sprite": quarto_sprite()}


# A print aid draws the game's board or pieces where it has some: the template and what it needs.
# Catan's generated layout (the board referee) goes in this table too.
PRINT_BOARDS = {"quarto": ("rules/print/boards/quarto.html", _quarto_board)}


def _print_links(request: HttpRequest, rules: GameRules, slug: str) -> list[dict]:
    """The live rules page and score sheet as QR codes (segno, SVG): the table scans them from paper."""
    links = [(gettext_lazy("Les règles"), reverse("rules:page-detail", args=[slug]))]
    if "score" in rules.features:
        links.append((gettext_lazy("La feuille de score"), reverse("rules:score-sheet", args=[slug])))
    found = []
    for label, path in links:
        url = request.build_absolute_uri(path)
        found.append({"label": label, "url": url, "qr": qr_svg(url)})
    return found


def _print_context(request: HttpRequest, rules: GameRules, slug: str) -> dict:
    context = {**_game_context(rules, slug), "print_links": _print_links(request, rules, slug)}
    if slug in PRINT_BOARDS:
        template, board = PRINT_BOARDS[slug]
        context.update(board_template=template, **board(request))
    return context


# --- setup calculator --------------------------------------------------------------------------------


def _setup(request: HttpRequest, slug: str, template: str, printed: bool = False) -> HttpResponse:
    rules = _get_rules_or_404(slug, "setup")
    form = SetupForm(rules, request.GET)
    status = 200 if form.is_valid() or not form.asked else 400
    context = {
        **(_print_context(request, rules, slug) if printed else _game_context(rules, slug)),
        "form": form,
    }
    return render(request, template, context, status=status)


@require_GET
def setup(request: HttpRequest, slug: str) -> HttpResponse:
    return _setup(request, slug, "rules/setup.html")


@require_GET
def setup_print(request: HttpRequest, slug: str) -> HttpResponse:
    return _setup(request, slug, "rules/print/setup.html", printed=True)


# --- score sheet -----------------------------------------------------------------------------------


def _wants_json(request: HttpRequest) -> bool:
    """The sheet's live script (static/js/score-sheet.js) asks for JSON; a browser's form post for HTML."""
    return request.get_preferred_type(["text/html", "application/json"]) == "application/json"


def _json_errors(form) -> JsonResponse:
    """The errors as the live script marks them: `{"players.0.gold": ["…"]}`, by input name."""
    errors = {name: list(messages) for name, messages in form.errors.items()}
    if getattr(form, "refusal", ""):
        errors["__all__"] = [form.refusal]
    return JsonResponse(errors, status=400)


@require_http_methods(["GET", "POST"])
def score_sheet(request: HttpRequest, slug: str) -> HttpResponse:
    """The sheet: chosen table (GET), computed on POST; as JSON for the live totals, as HTML otherwise."""
    rules = _get_rules_or_404(slug, "score")
    posted = request.method == "POST"
    live = posted and _wants_json(request)
    if live and not RulesThrottle().allow_request(request, None):
        # The live totals compute like the API's score, and count against the same rate per address.
        message = _("Calcul en direct indisponible : utilisez le bouton Calculer.")
        return JsonResponse({"__all__": [message]}, status=429)
    choice = SheetChoiceForm(rules, request.POST if posted else request.GET)
    context = {**_game_context(rules, slug), "choice": choice, "form": None}
    if not choice.ready:
        if live:
            return _json_errors(choice)
        status = 400 if choice.errors or posted else 200
        return render(request, "rules/score_sheet.html", context, status=status)
    more = request.POST.get("more", "") if posted else ""
    form = ScoreSheetForm(
        rules,
        players=choice.count,
        variants=choice.variant_set,
        data=request.POST if posted else None,
        more=more,
    )
    context["form"] = form
    status = 200
    if posted and not more:
        if not form.is_valid():
            status = 400
        elif live:
            return JsonResponse(ScoreResultSerializer(score_data(form.result)).data)
        else:
            context["print_query"] = _sheet_query(request.POST)
    if live:
        return _json_errors(form)
    return render(request, "rules/score_sheet.html", context, status=status)


def _sheet_query(data: QueryDict) -> str:
    """The filled sheet as a short query string (blank inputs left out), for a bookmarkable print view."""
    kept = QueryDict(mutable=True)
    for key, values in data.lists():
        if key in ("csrfmiddlewaretoken", "more"):
            continue
        values = [value for value in values if value.strip()]
        if values:
            kept.setlist(key, values)
    return kept.urlencode()


@require_GET
def score_pad(request: HttpRequest, slug: str) -> HttpResponse:
    """A blank pad to print: the screen sheet's rows (same names, one row per round where the sheet has
    them, as many as the page holds), N empty player columns, the tie-break rule."""
    rules = _get_rules_or_404(slug, "score")
    choice = SheetChoiceForm(rules, request.GET)
    context = {**_print_context(request, rules, slug), "choice": choice}
    if not choice.ready:
        return render(request, "rules/print/score_pad.html", context, status=400)
    form = ScoreSheetForm(rules, players=choice.count, variants=choice.variant_set, slots=PAD_SLOTS)
    context.update(
        form=form,
        columns=range(choice.count),
        tie_break_rule=render_text(rules.tie_break_rule(choice.variant_set)),
    )
    return render(request, "rules/print/score_pad.html", context)


@require_http_methods(["GET", "POST"])
def score_print(request: HttpRequest, slug: str) -> HttpResponse:
    """A filled sheet to print: the same posted sheet (or its bookmarkable query), scored again."""
    rules = _get_rules_or_404(slug, "score")
    data = request.POST if request.method == "POST" else request.GET
    choice = SheetChoiceForm(rules, data)
    context = {**_print_context(request, rules, slug), "choice": choice, "form": None}
    if not choice.ready:
        return render(request, "rules/print/score_filled.html", context, status=400)
    form = ScoreSheetForm(rules, players=choice.count, variants=choice.variant_set, data=data)
    context["form"] = form
    if not form.is_valid():
        return render(request, "rules/print/score_filled.html", context, status=400)
    context["print_query"] = _sheet_query(data)
    return render(request, "rules/print/score_filled.html", context)


# --- referee check -----------------------------------------------------------------------------------


@require_http_methods(["GET", "POST"])
def check(request: HttpRequest, slug: str) -> HttpResponse:
    rules = _get_rules_or_404(slug, "check")
    form = check_form(rules, request.POST if request.method == "POST" else None)
    status = 400 if form.is_bound and not form.is_valid() else 200
    # The result first: it lights the board's cells it found.
    context = {**_game_context(rules, slug), "check": form.display, "form": form}
    return render(request, "rules/check.html", context, status=status)
