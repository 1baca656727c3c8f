"""Demo rules pages: every game's page from fixtures/rules/, linked to its catalogue notice.

The BGA games' pages start with their wiki history (seed 003, imported by `rule_pages_load`); two
more notices get a librarian's declared score sheet (`rules/declared/demo.py`).
"""

from django.core.management.base import CommandError, OutputWrapper

from catalogue import registry
from catalogue.models import Component

from .declared import demo as declared_demo
from .engine import ACCESSORY, render
from .games import components_of, get_game
from .management.commands.load_rule_pages import write_load_report
from .models import RulePage
from .pages.generate import rule_pages_generate
from .pages.services import WIKI_DIR, rule_pages_load


def load(*, stdout: OutputWrapper) -> None:
    """Load the rules pages; safe to run again (staff edits are never overwritten)."""
    report = rule_pages_load(directory=WIKI_DIR)
    write_load_report(report, stdout=stdout)
    if report.errors:
        raise CommandError(f"{len(report.errors)} page file(s) could not be loaded.")
    declared_demo.load(stdout=stdout)
    link_pieces(stdout=stdout)
    # Every other demo title: its page made from its notice, as an import would have made it.
    stdout.write(rule_pages_generate().line())


# --- the catalogue's pieces linked to the engine's (playable with missing pieces) ------------------
# What a librarian does once per game in the admin: each line of the PMB piece list linked to the
# piece of the game's module it is; the games imported without a piece list get their box's lines.
DEMO_PIECE_KEYS = {
    "7-wonders": {
        "plateaux Merveille": "wonder_boards",
        "cartes Merveille": "wonder_cards",
        "cartes âge 1": "age_1_cards",
        "cartes âge 2": "age_2_cards",
        "cartes âge 3": "age_3_cards",
        "jetons Conflit": "conflict_tokens",
        "pièces de monnaie de valeur 3": "coins_3",
        "pièces de monnaie de valeur 1": "coins_1",
        'cartes" 2 joueurs"': "two_player_cards",
    },
    "biblios": {"plateau de valeurs": "value_board", "dés à six faces": "dice", "cartes": "cards"},
    "l-or-des-dragons": {
        "cartes dragons": "dragon_cards",
        "carte foire": "fair_card",
        "cartes objets magique": "magic_item_cards",
        "sac en tissu": "bag",
        "écrans": "screens",
        "cartes aventures": "adventurer_cards",
        "jetons trésors en bois": "treasure_tokens",
        "sablier": "hourglass",
        "jetons argentés": "tokens_silver",
    },
    "la-chasse-aux-monstres": {
        "cartes monstres": "monster_cards",
        "carte placard": "cupboard_card",
        "tuiles jouet": "toy_tiles",
        "tuiles de progression": "progression_tiles",
        "tuiles pour chasseurs": "expert_tiles",
    },
    "catane": {
        "hexagones": "hexes",
        "Matières Premières": "resource_cards",
        "Développement": "development_cards",
        "Coûts de construction": "cost_cards",
        "cartes spéciales": "special_cards",
        "villes": "cities",
        "colonies": "settlements",
        "routes": "roads",
        "jetons numérotés": "number_tokens",
        "Brigand": "robber",
        "dés": "dice",
    },
    "morgenland": {
        "plateau de jeu": "board",
        "pion chameau": "camel",
        "cartes trésor": "treasure_cards",
        "sac de trésors": "treasure_bag",
        "pions figurines": "pawns",
        "gardes du palais": "guardians",
        "cartes sortilège": "magic_cards",
    },
    "quarto": {"plateau": "board", "pièces différentes": "pieces"},
}
# Rule books, score pads, play aids: never needed to play.
ACCESSORY_WORDS = ("règle", "carnet de scores", "aide dfe jeu", "aide de jeu")


def link_pieces(*, stdout: OutputWrapper) -> None:
    """Link every coded game's catalogue pieces to its module's; give a piece list to those without."""
    linked = 0
    for page in RulePage.objects.select_related("game").exclude(game=None):
        rules = get_game(page.slug)
        pieces = components_of(rules) if rules is not None else None
        if pieces is None:
            continue
        components = list(page.game.components.all())
        if not components:
            Component.objects.bulk_create(
                Component(
                    game=page.game,
                    position=position,
                    quantity=piece.in_box,
                    label=render(piece.name),
                    rules_key=piece.key,
                )
                for position, piece in enumerate(piece for piece in pieces.pieces if not piece.covers)
            )
            linked += 1
            continue
        keys = DEMO_PIECE_KEYS.get(page.slug, {})
        for component in components:
            if component.rules_key:
                continue
            key = next(
                (key for words, key in keys.items() if words.casefold() in component.label.casefold()), ""
            )
            if not key and any(word in component.label.casefold() for word in ACCESSORY_WORDS):
                key = ACCESSORY
            if key:
                component.rules_key = key
                component.save(update_fields=["rules_key"])
        linked += 1
        registry.pieces_changed(page.game)
    stdout.write(f"  {linked} coded games' pieces linked to their rules.")
