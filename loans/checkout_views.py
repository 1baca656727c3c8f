"""The checkout pack (« Imprimer le kit »): a loan slip, then for each game lent, on A4, what the family needs at home.

The loan slip is one page for the whole checkout: the family, each game with its copy, due date and
the pieces checked at its return. Then, for each game lent today (or the loans chosen): the setup aid
for the family's household size (the number of household members, within the game's range; the clerk
can change it), the copy's piece checklist with its known missing pieces on the same sheet, and a
blank score pad for that table — one A4 page per game, two when the pad does not fit, one print job.
Games without executable rules get the checklist and their catalogue notice.
"""

from __future__ import annotations

import re

from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ludotheque.access import staff_required
from members.models import Member
from rules.checkout import print_aids
from rules.pieces import summary

from .models import Loan
from .playable import copy_missing, copy_playability

# The notice's rules text printed for a game without executable rules: what fits on its pages.
NOTICE_MAX_CHARACTERS = 2500
# The piece lines of a game the loan slip lists (the game's own page lists them all): the slip is one page.
SLIP_PIECE_LINES = 8
MAX_PLAYERS_ASKED = 99


def _loans_for_pack(request: HttpRequest, member: Member) -> tuple[list[Loan], dict[str, list[str]]]:
    """The loans chosen (`?pret=<id>&pret=…`, the family's open loans only), or those lent today."""
    errors: dict[str, list[str]] = {}
    open_loans = member.loans.open().select_related("copy__game").order_by("lent_at", "pk")
    chosen = request.GET.getlist("pret")
    if not chosen:
        today = timezone.localdate()
        loans = [loan for loan in open_loans if timezone.localdate(loan.lent_at) == today]
        return (loans or list(open_loans)), errors
    if not all(re.fullmatch(r"[0-9]{1,12}", value) for value in chosen):
        errors["pret"] = [_("Choisissez des prêts de cette famille.")]
        return [], errors
    wanted = {int(value) for value in chosen}
    loans = [loan for loan in open_loans if loan.pk in wanted]
    if len(loans) != len(wanted):
        errors["pret"] = [_("Choisissez des prêts en cours de cette famille.")]
    return loans, errors


def _players_asked(request: HttpRequest, loan: Loan, default: int, errors: dict) -> int:
    name = f"joueurs-{loan.pk}"
    raw = request.GET.get(name, "").strip()
    if not raw:
        return default
    if not re.fullmatch(r"[0-9]{1,2}", raw) or not 1 <= int(raw) <= MAX_PLAYERS_ASKED:
        errors[name] = [_("Indiquez un nombre de joueurs (un nombre entier de 1 à 99).")]
        return default
    return int(raw)


@staff_required
@require_GET
def checkout_pack(request: HttpRequest, pk: int) -> HttpResponse:
    member = get_object_or_404(Member.objects.select_related("membership_type"), pk=pk)
    household = member.household.count()
    loans, errors = _loans_for_pack(request, member)
    games = []
    for loan in loans:
        copy = loan.copy
        missing = copy_missing(copy)
        playable = copy_playability(copy) if missing else None
        asked = _players_asked(request, loan, max(household, 1), errors)
        aids = print_aids(copy.game, asked, playable)
        missing_by_piece = {component.pk: count for component, count in missing}
        checklist = [
            {"component": component, "missing": missing_by_piece.get(component.pk, 0)}
            for component in copy.game.components.all()
        ]
        games.append(
            {
                "loan": loan,
                "game": copy.game,
                "copy": copy,
                "aids": aids,
                "field": f"joueurs-{loan.pk}",
                "players": aids.players if aids else asked,
                "checklist": checklist,
                "slip_pieces": checklist[:SLIP_PIECE_LINES],
                "slip_more": max(0, len(checklist) - SLIP_PIECE_LINES),
                "missing": missing,
                "playable": summary(playable) if playable is not None else "",
                "notice": (copy.game.rules_summary or copy.game.summary)[:NOTICE_MAX_CHARACTERS],
                "notice_cut": len(copy.game.rules_summary or copy.game.summary) > NOTICE_MAX_CHARACTERS,
            }
        )
    context = {
        "member": member,
        "household": household,
        "games": games,
        "errors": errors,
        "chosen": request.GET.getlist("pret"),
        "today": timezone.localdate(),
    }
    return render(request, "loans/checkout_pack.html", context, status=400 if errors else 200)
