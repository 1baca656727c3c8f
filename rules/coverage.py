"""How far the rules pages cover the catalogue: counted in SQL for the rules index, title by title for staff.

Every title has a page (rules/pages/generate.py); what matters is what each has beyond it: reviewed
by a librarian or still made from the notice, a setup calculator, a score sheet (coded, declared or
the default one), a coded referee. The staff view lists the titles most lent over twelve months first
(`Game.loans_last_year`, which the lending app counts every day), so the most played get done first.
"""

from __future__ import annotations

from dataclasses import dataclass

from django.core.paginator import Paginator
from django.db.models import Count, Q
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from catalogue.models import Game
from ludotheque.access import staff_required

from .games import all_games, get_game
from .models import RulePage

PER_PAGE = 50


@dataclass(frozen=True)
class Coverage:
    """How many titles have what: the rules index's and the coverage view's figures."""

    titles: int
    pages: int
    generated: int
    reviewed: int
    declared_sheets: int
    declared_setups: int
    coded: int

    @property
    def hand_written(self) -> int:
        """Pages neither still generated nor published from the generator: the coded games' and declared sheets'."""
        return self.pages - self.generated - self.reviewed


def coverage() -> Coverage:
    """The figures, in two queries whatever the size of the catalogue."""
    coded = [rules.slug for rules in all_games()]
    figures = RulePage.objects.filter(game__isnull=False).aggregate(
        n_pages=Count("pk"),
        n_generated=Count("pk", filter=Q(generated=True)),
        n_reviewed=Count("pk", filter=Q(generated=False, reviewed_at__isnull=False)),
        n_declared_sheets=Count("declared_sheet"),
        n_declared_setups=Count("declared_setup"),
        n_coded=Count("pk", filter=Q(slug__in=coded)),
    )
    return Coverage(titles=Game.objects.count(), **{name[2:]: value for name, value in figures.items()})


def page_status(page: RulePage | None) -> str:
    if page is None:
        return _("pas encore de page")
    if page.generated:
        return _("générée, à compléter")
    if page.reviewed_at is not None:
        return _("relue")
    return _("écrite à la main")


def title_row(game: Game) -> dict:
    """What one title has, for the coverage view (its page and declared sheet fetched with it)."""
    page = getattr(game, "rules_page", None)
    coded = get_game(page.slug) if page is not None else None
    features = coded.features if coded is not None else []
    declared = page is not None and hasattr(page, "declared_sheet")
    declared_setup = page is not None and hasattr(page, "declared_setup")
    if coded is not None and "score" in features:
        sheet = _("programmée")
    elif declared:
        sheet = _("déclarée")
    elif page is not None:
        sheet = _("par défaut (manches)")
    else:
        sheet = ""
    return {
        "game": game,
        "page": page,
        "status": page_status(page),
        "setup": "setup" in features or declared_setup,
        "sheet": sheet,
        "referee": "check" in features,
    }


@staff_required
@require_GET
def coverage_view(request: HttpRequest) -> HttpResponse:
    games = Game.objects.select_related("rules_page__declared_sheet", "rules_page__declared_setup").only(
        "pk",
        "slug",
        "title",
        "loans_last_year",
        "rules_page__slug",
        "rules_page__generated",
        "rules_page__reviewed_at",
        "rules_page__declared_sheet__id",
        "rules_page__declared_setup__id",
    )
    if request.GET.get("etat") == "a-completer":
        games = games.filter(Q(rules_page__isnull=True) | Q(rules_page__generated=True))
    # The popularity index (catalogue_game_popularity_idx) serves this order, a page at a time.
    listing = Paginator(games.order_by("-loans_last_year", "title", "id"), PER_PAGE).get_page(
        request.GET.get("page")
    )
    context = {
        "figures": coverage(),
        "listing": listing,
        "rows": [title_row(game) for game in listing],
        "to_complete": request.GET.get("etat") == "a-completer",
    }
    return render(request, "rules/coverage.html", context)
