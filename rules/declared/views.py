"""The staff page that declares a title's setup: the rows, the notice's draft, the engine's refusals."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from catalogue.models import Component, Game
from ludotheque.access import staff_required
from rules.engine.draft import Draft, draft_setup, plain
from rules.games import get_game
from rules.models import DeclaredSetup, RulePage

from .setup_forms import SetupDeclarationForm, with_more_rows
from .setups import declared_setup_save


def _get_notice_or_404(slug: str) -> tuple[Game, RulePage | None]:
    """The notice behind a rules page's slug (or a notice's own slug, before it has a page)."""
    page = RulePage.objects.select_related("game").filter(slug=slug).first()
    game = page.game if page is not None else Game.objects.filter(slug=slug, rules_page__isnull=True).first()
    if game is None:
        raise Http404(_("Aucune notice du catalogue ne porte cet identifiant."))
    if get_game(slug) is not None:
        raise Http404(_("Ce jeu a une mise en place programmée."))
    return game, page


def notice_draft(game: Game) -> Draft:
    """The draft the notice's own text states, its components' box counts taken from its piece list."""
    draft = draft_setup("\n".join(part for part in (game.rules_summary, game.contents) if part))
    pieces = list(Component.objects.filter(game=game))
    for component in draft.components:
        head = plain(component["name"].split()[0])
        match = next((piece for piece in pieces if head in plain(piece.label).split()), None)
        if match is not None:
            component["in_box"] = match.quantity
            component["pieces"] = [str(match.pk)]  # the link proposed, saved only with the form
    return draft


@staff_required
@require_http_methods(["GET", "POST"])
def setup_declare(request: HttpRequest, slug: str) -> HttpResponse:
    game, page = _get_notice_or_404(slug)
    stored = DeclaredSetup.objects.filter(page__game=game).first()
    draft = notice_draft(game) if stored is None else Draft()
    definition = stored.definition if stored is not None else draft.definition() if draft else None
    more = request.method == "POST" and "more" in request.POST
    data = with_more_rows(request.POST) if more else request.POST if request.method == "POST" else None
    form = SetupDeclarationForm(
        game, data, definition=definition, sources=stored.sources if stored is not None else ""
    )
    if request.method == "POST" and not more and form.is_valid():
        try:
            saved = declared_setup_save(
                game=game,
                definition=form.definition,
                sources=form.sources.cleaned_data["sources"],
                links=form.links(),
                author=request.user,
            )
        except ValidationError as error:
            form.errors += error.messages
        else:
            messages.success(
                request, _("Mise en place enregistrée : elle est publiée sur la page de règles.")
            )
            return redirect(reverse("rules:setup", args=[saved.page.slug]))
    context = {
        "game": game,
        "page": page,
        "form": form,
        "stored": stored,
        "draft": draft if stored is None and request.method == "GET" else None,
    }
    status = 400 if request.method == "POST" and not more else 200
    return render(request, "rules/setup_declare.html", context, status=status)
