"""Declared setups: a librarian's setup (`rules.models.DeclaredSetup`) saved, checked and linked to the copy's pieces.

The declaration is the JSON object of docs/declared-rules.md; the rules engine reads and checks it
(`rules.engine.declared.parse_setup`), here against the notice's player range, and its refusals
become a ValidationError whose messages name the place (« Étape 3, nombre : Indiquez le nombre pour
4 joueurs. »). Saved, it joins the page's declared sheet in one GameRules (sheets.DeclaredRules),
behind `rules.services.game_rules()`: the calculator, the A4 aid, the API and the checkout pack.
"""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction
from django.utils.translation import gettext_lazy as _

from catalogue.models import Component, Game
from rules.engine import ACCESSORY, InvalidInput
from rules.engine.declared import SetupDeclaration, parse_setup
from rules.games import get_game
from rules.models import DeclaredSetup, RulePage
from rules.pages.services import revision_create
from rules.services import error_messages, translate

from .sheets import free_page_slug, notice_players

FIRST_TEXT = "== Mise en place ==\nLe calculateur ci-dessous donne la mise en place pour le nombre de joueurs choisi.\n"
FIRST_SUMMARY = "Page créée avec la mise en place déclarée."

PLACES = {
    "variants": _("Variante %(n)s"),
    "components": _("Élément %(n)s"),
    "steps": _("Étape %(n)s"),
}
FIELDS = {
    "key": _("identifiant"),
    "label": _("intitulé"),
    "name": _("nom"),
    "in_box": _("dans la boîte"),
    "description": _("description"),
    "component": _("élément"),
    "action": _("action"),
    "count": _("nombre"),
    "per_player": _("par joueur"),
    "plus": _("en plus"),
    "set": _("valeur"),
    "to": _("valeur"),
    "text": _("texte"),
    "players": _("joueurs"),
    "variants": _("variantes"),
    "unless": _("sauf variantes"),
}


def place_name(path: str) -> str:
    """`steps.2.count` → « Étape 3, nombre » (the place a librarian reads in the form or the loader's output)."""
    parts = path.split(".")
    if parts[0] in PLACES and len(parts) > 1 and parts[1].isdigit():
        where = str(PLACES[parts[0]]) % {"n": int(parts[1]) + 1}
        if len(parts) > 2 and parts[2] in FIELDS:
            where = f"{where}, {FIELDS[parts[2]]}"
        return where
    return translate(str(FIELDS.get(parts[0], ""))) if parts[0] in FIELDS else ""


def refusal(invalid: InvalidInput) -> ValidationError:
    """The engine's refusals of a declaration as one ValidationError, each message saying where."""
    messages = []
    for path, texts in error_messages(invalid).items():
        where = place_name(path)
        messages += [
            ValidationError(f"{where} : {text}" if where else text, code="invalid_setup") for text in texts
        ]
    return ValidationError(messages)


def check_setup(definition: Any, game: Game | None) -> SetupDeclaration:
    """The declaration read for this notice's player range; raise ValidationError with the reasons."""
    try:
        return parse_setup(definition, notice_players(game))
    except InvalidInput as invalid:
        raise refusal(invalid) from None


def setup_refusal(game: Game) -> ValidationError | None:
    """Why this notice cannot get a declared setup (its page has a coded module), or None."""
    page = RulePage.objects.filter(game=game).only("slug").first()
    if page is not None and get_game(page.slug) is not None:
        return ValidationError(
            _("« %(title)s » a déjà une mise en place programmée, sur sa page de règles."),
            code="coded_rules",
            params={"title": game.title},
        )
    return None


def rules_page_for(*, game: Game, author=None) -> RulePage:
    """The notice's rules page, created with a first revision when it has none."""
    page = RulePage.objects.select_for_update().filter(game=game).first()
    if page is not None:
        return page
    page = RulePage.objects.create(slug=free_page_slug(game.slug), title=game.title, game=game)
    revision_create(page=page, content=FIRST_TEXT, summary=FIRST_SUMMARY, author=author, base_number=0)
    return page


@transaction.atomic
def declared_setup_save(
    *, game: Game, definition: Any, sources: str = "", links: dict[int, str] | None = None, author=None
) -> DeclaredSetup:
    """Give a notice its declared setup (or replace it): checked, saved, its catalogue pieces linked.

    `links` maps a catalogue piece of this notice (`Component.pk`) to a component key of the
    declaration; a piece linked to a key that is no longer declared is unlinked.
    """
    refused = setup_refusal(game)
    if refused is not None:
        raise refused
    declaration = check_setup(definition, game)
    page = rules_page_for(game=game, author=author)
    stored, _created = DeclaredSetup.objects.update_or_create(
        page=page, defaults={"definition": definition, "sources": sources}
    )
    if links is not None:
        _link_pieces(game, {component.key for component in declaration.components}, links)
    return stored


def _link_pieces(game: Game, keys: set[str], links: dict[int, str]) -> None:
    for piece in Component.objects.select_for_update().filter(game=game):
        wanted = links.get(piece.pk, "")
        if not wanted and piece.rules_key == ACCESSORY:
            continue  # « accessoire » is set in the admin, not an element of the setup: kept
        if wanted and wanted not in keys and wanted != ACCESSORY:
            raise ValidationError(
                _("Aucun élément de cette mise en place n'a l'identifiant « %(key)s »."),
                code="unknown_component",
                params={"key": wanted},
            )
        if piece.rules_key != wanted:
            piece.rules_key = wanted
            piece.save(update_fields=["rules_key"])
