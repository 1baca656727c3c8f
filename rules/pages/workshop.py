"""The librarian's page to complete a title's rules page: review the text, the score sheet, the setup,
preview as a family sees it, publish (staff only). The text is edited in the revision editor
(pages/views.py), the declared score sheet in its admin form; this page leads through them in order."""

from __future__ import annotations

from django import forms
from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.views.decorators.http import require_http_methods, require_POST

from ludotheque.access import staff_required
from rules.games import get_game
from rules.models import DeclaredSetup, DeclaredSheet, RulePage

from .markup import SectionKind
from .services import rule_page_publish
from .views import _declared_sheet_link, _get_page_or_404

# How a declared sheet is won (DeclaredSheet.play), as the checklist says it.
PLAY_LABELS = {
    "together": gettext_lazy("en coopération : toute la table gagne ou perd ensemble"),
    "teams": gettext_lazy("par équipes : une colonne par équipe"),
    "sides": gettext_lazy("par camps : chaque joueur a un rôle"),
}


class SheetWinningForm(forms.ModelForm):
    """Who wins the page's default sheet (one row per round): the highest total, or the lowest."""

    class Meta:
        model = RulePage
        fields = ["sheet_winning"]
        widgets = {"sheet_winning": forms.RadioSelect}
        labels = {"sheet_winning": gettext_lazy("Qui gagne : le total…")}


def _section_summary(revision) -> list[dict]:
    """The current text's sections as the checklist shows them: title, kind, whether a kind was found."""
    if revision is None:
        return []
    return [
        {
            "title": section["title"] or _("(sans titre)"),
            "kind": SectionKind(section["kind"]).label,
            "placed": section["kind"] != SectionKind.OTHER,
        }
        for section in revision.sections
    ]


@staff_required
@require_http_methods(["GET", "POST"])
def workshop(request: HttpRequest, slug: str) -> HttpResponse:
    page = _get_page_or_404(slug)
    coded = get_game(slug) is not None
    sheet = DeclaredSheet.objects.filter(page=page).only("play").first()
    declared = sheet is not None
    form = SheetWinningForm(request.POST if request.method == "POST" else None, instance=page)
    if request.method == "POST":
        if form.is_valid():
            form.save()
            messages.success(request, _("Feuille de score enregistrée."))
            return redirect(reverse("rules:workshop", args=[slug]) + "#feuille")
        status = 400
    else:
        status = 200
    current = page.current_revision
    context = {
        "page": page,
        "current": current,
        "sections": _section_summary(current),
        "coded": coded,
        "declared": declared,
        "play_label": PLAY_LABELS.get(sheet.play.get("mode", ""))
        if sheet and isinstance(sheet.play, dict)
        else None,
        "declared_setup": DeclaredSetup.objects.filter(page=page).exists(),
        "declared_sheet": _declared_sheet_link(page),
        "form": form,
    }
    return render(request, "rules/workshop.html", context, status=status)


@staff_required
@require_POST
def publish(request: HttpRequest, slug: str) -> HttpResponse:
    page = _get_page_or_404(slug)
    try:
        rule_page_publish(page=page, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("rules:workshop", slug=slug)
    messages.success(request, _("Page publiée : elle n'est plus « à compléter »."))
    return redirect(page)
