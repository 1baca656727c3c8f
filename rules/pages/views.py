"""A rules page's text: editing (staff), history, one revision, the comparison of two."""

from __future__ import annotations

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods

from ludotheque.access import staff_required
from rules.games import get_game
from rules.models import DeclaredSetup, DeclaredSheet, RulePage

from .diff import TooDifferent, diff_rows
from .forms import RevisionForm
from .markup import split_sections, to_html
from .services import revision_create

# The editor's syntax help: each example shown with what it renders.
SYNTAX_EXAMPLES = (
    "== Mise en place ==\n=== À deux joueurs ===",
    "'''gras''' et ''italique''",
    "* une puce\n** une sous-puce",
    "# première étape\n# deuxième étape",
    '{| class="wikitable"\n! Joueurs !! Cartes\n|-\n| 2 || 21\n|-\n| 3 || 12\n|}',
    "[https://www.example.org un lien]",
)


def _get_page_or_404(slug: str) -> RulePage:
    return get_object_or_404(RulePage, slug=slug)


def _declared_sheet_link(page: RulePage) -> dict | None:
    """From the editor to the page's declared score sheet in the admin, or to declaring one."""
    sheet = DeclaredSheet.objects.filter(page=page).only("pk").first()
    if sheet is not None:
        return {
            "url": reverse("admin:rules_declaredsheet_change", args=[sheet.pk]),
            "label": _("Modifier la feuille de score déclarée (lignes, départages)"),
        }
    if page.game_id is not None and get_game(page.slug) is None:
        return {
            "url": reverse("admin:rules_declaredsheet_add") + f"?game={page.game_id}",
            "label": _("Déclarer une feuille de score pour ce jeu"),
            "help": _(
                "Des lignes « unités × points », le total qui gagne et les départages, sans programmation."
            ),
        }
    return None


def _declared_setup_link(page: RulePage) -> dict | None:
    """From the editor to the staff page that declares (or corrects) the title's setup, without code."""
    if page.game_id is None or get_game(page.slug) is not None:
        return None
    declared = DeclaredSetup.objects.filter(page=page).exists()
    return {
        "url": reverse("rules:setup-declare", args=[page.slug]),
        "label": _("Modifier la mise en place déclarée")
        if declared
        else _("Déclarer la mise en place de ce jeu"),
        "help": ""
        if declared
        else _(
            "Pour chaque nombre de joueurs : ce qu'on distribue, pose ou retire ; le calculateur en est tiré."
        ),
    }


@staff_required
@require_http_methods(["GET", "POST"])
def page_edit(request: HttpRequest, slug: str) -> HttpResponse:
    page = _get_page_or_404(slug)
    current = page.current_revision
    preview = None
    if request.method == "POST":
        form = RevisionForm(request.POST)
        if form.is_valid():
            if "preview" in request.POST:
                preview = split_sections(form.cleaned_data["content"])
            else:
                try:
                    revision = revision_create(
                        page=page,
                        content=form.cleaned_data["content"],
                        summary=form.cleaned_data["summary"],
                        author=request.user,
                        base_number=form.cleaned_data["base_number"],
                    )
                except ValidationError as error:
                    form.add_error(None, error)
                else:
                    messages.success(
                        request, _("Version %(number)s enregistrée.") % {"number": revision.number}
                    )
                    return redirect(page)
    else:
        form = RevisionForm(
            initial={
                "content": current.content if current else "",
                "base_number": current.number if current else 0,
            }
        )
    conflict = any(error.code == "edit_conflict" for error in form.errors.as_data().get("__all__", []))
    status = 400 if request.method == "POST" and form.errors else 200
    context = {
        "page": page,
        "current": current,
        "form": form,
        "preview": preview,
        "conflict": conflict,
        "syntax": [(source, to_html(source)) for source in SYNTAX_EXAMPLES],
        "declared_sheet": _declared_sheet_link(page),
        "declared_setup": _declared_setup_link(page),
    }
    return render(request, "rules/page_edit.html", context, status=status)


@require_GET
def history(request: HttpRequest, slug: str) -> HttpResponse:
    page = _get_page_or_404(slug)
    revisions = list(page.revisions.for_history())
    return render(request, "rules/history.html", {"page": page, "revisions": revisions})


@require_GET
def revision_detail(request: HttpRequest, slug: str, number: int) -> HttpResponse:
    page = _get_page_or_404(slug)
    revision = get_object_or_404(page.revisions.select_related("author"), number=number)
    context = {
        "page": page,
        "revision": revision,
        "current": page.current_revision,
        "sections": revision.section_list,
    }
    return render(request, "rules/revision.html", context)


@require_GET
def revision_diff(request: HttpRequest, slug: str) -> HttpResponse:
    """Compare two revisions: `?de=2&a=5` (the current one and its predecessor by default)."""
    page = _get_page_or_404(slug)
    current = page.current_revision
    if current is None:
        raise Http404(_("Cette page n'a pas encore de version."))
    try:
        new_number = int(request.GET.get("a", current.number))
        old_number = int(request.GET.get("de", new_number - 1))
    except ValueError:
        return render(
            request,
            "rules/diff.html",
            {"page": page, "error": _("Indiquez deux numéros de version.")},
            status=400,
        )
    found = {
        revision.number: revision for revision in page.revisions.filter(number__in=[old_number, new_number])
    }
    if new_number not in found or old_number not in found:
        raise Http404(_("Cette version n'existe pas."))
    old, new = found[old_number], found[new_number]
    context = {"page": page, "old": old, "new": new}
    try:
        context["rows"] = diff_rows(old.content, new.content)
    except TooDifferent:
        context["too_different"] = True
    return render(request, "rules/diff.html", context)
