"""Demo declared score sheets: two well-known titles with no coded module, scored by declared lines.

The seed notices and the BGA games all have a coded module, so the demo catalogue (catalogue/demo.py)
adds two more notices, and this module gives each a sheet written from the published rules:

- Les Aventuriers du Rail: a route of 1, 2, 3, 4, 5 or 6 wagons scores 1, 2, 4, 7, 10 or 15;
  a completed Destination card adds its value, a failed one takes it away; the longest continuous path
  scores 10 (every tied player). Tie: the most Destination cards completed, then the longest path card.
- 6 qui prend !: the fewest bull heads wins; a card ending in 5 has 2 heads, in 0
  three, a double number (11, 22…) five, the 55 seven, every other card one. No tie-breaker: shared.

Five titles shipped as files in fixtures/declared/ (Kingdomino, Dobble, Azul, Splendor, Pandemic) are
loaded too, notice and all, so the demo catalogue shows titles whose rules page is only declared data.

« 6 qui prend ! » also has its setup declared (docs/declared-rules.md), from the Gigamic rule book:
104 cards numbered 1 to 104; each player is dealt 10, four more start the four rows face up. The
« variante tactique » plays with the cards 1 to 10 × players + 4 only (34 at 3 players), every
number known: the others stay in the box.
"""

from __future__ import annotations

from django.core.management.base import OutputWrapper

from catalogue.models import Game
from rules.models import DeclaredSetup, DeclaredSheet, Sign, Winning

from .files import DECLARED_DIR, declared_file_load
from .setups import declared_setup_save
from .sheets import LineDeclaration, declared_sheet_create

DEMO_SHEETS = [
    {
        "title": "Les Aventuriers du Rail",
        "winning": Winning.HIGHEST,
        "lines": [
            LineDeclaration("routes_1", "Routes de 1 wagon", 1),
            LineDeclaration("routes_2", "Routes de 2 wagons", 2),
            LineDeclaration("routes_3", "Routes de 3 wagons", 4),
            LineDeclaration("routes_4", "Routes de 4 wagons", 7),
            LineDeclaration("routes_5", "Routes de 5 wagons", 10),
            LineDeclaration("routes_6", "Routes de 6 wagons", 15),
            LineDeclaration("destinations_reussies", "Points des cartes Destination réussies", 1),
            LineDeclaration("destinations_ratees", "Points des cartes Destination ratées", 1, Sign.MINUS),
            LineDeclaration("plus_long_chemin", "Plus long chemin continu", 10, max_units=1),
            # Counted only to break a tie: « le plus de cartes Destination réussies ».
            LineDeclaration("cartes_reussies", "Cartes Destination réussies", 0),
        ],
        "tie_breaks": [("cartes_reussies", Winning.HIGHEST), ("plus_long_chemin", Winning.HIGHEST)],
    },
    {
        "title": "6 qui prend !",
        "winning": Winning.LOWEST,
        "lines": [
            LineDeclaration("tete_1", "Cartes à 1 tête", 1),
            LineDeclaration("tetes_2", "Cartes à 2 têtes (finissant par 5)", 2),
            LineDeclaration("tetes_3", "Cartes à 3 têtes (finissant par 0)", 3),
            LineDeclaration("tetes_5", "Cartes à 5 têtes (11, 22, 33…)", 5),
            LineDeclaration("tetes_7", "Cartes à 7 têtes (le 55)", 7),
        ],
        "tie_breaks": [],
    },
]


# 2 to 10 players: the tactical variant leaves 100 − 10 × players cards in the box.
TACTICAL_REMOVED = {str(players): 100 - 10 * players for players in range(2, 11)}
DEMO_SETUPS = {
    "6 qui prend !": {
        "variants": [
            {
                "key": "tactique",
                "label": "Variante tactique",
                "description": "Seules les cartes 1 à 10 × joueurs + 4 sont jouées : chacun sait lesquelles.",
            }
        ],
        "components": [{"key": "cards", "name": "Cartes", "in_box": 104}],
        "steps": [
            {
                "component": "cards",
                "action": "remove",
                "count": TACTICAL_REMOVED,
                "variants": ["tactique"],
                "text": "Gardez les cartes 1 à 10 × joueurs + 4 : les {n} plus fortes restent dans la boîte.",
            },
            {"text": "Mélangez les cartes."},
            {
                "component": "cards",
                "action": "each",
                "count": 10,
                "text": "Distribuez {n} cartes à chaque joueur.",
            },
            {
                "component": "cards",
                "action": "table",
                "count": 4,
                "text": "Posez {n} cartes face visible au centre : chacune commence une rangée.",
            },
            {
                "text": "Le reste des cartes ne sert pas pendant la manche ; chacun note ses têtes de bœuf à la fin."
            },
        ],
    }
}
SETUP_SOURCES = "6 qui prend !, règle du jeu Gigamic (matériel, préparation, variante tactique)."


# A few of the titles shipped in fixtures/declared/, read by the same loader as `load_declared_rules`:
# a tile game, a quick party game, two family favourites and a cooperative game (its variants pick the
# difficulty; no declared sheet, so it keeps the sheet by rounds). Their notices are created bare.
DEMO_FILES = ["kingdomino", "dobble", "azul", "splendor", "pandemic"]


def load(*, stdout: OutputWrapper) -> None:
    """Give the demo notices their declared sheets and setups; safe to run again (what exists is kept)."""
    for demo in DEMO_SHEETS:
        game = Game.objects.get(title=demo["title"])
        if DeclaredSheet.objects.filter(page__game=game).exists():
            stdout.write(f"{game.title}: declared score sheet already there")
            continue
        sheet = declared_sheet_create(
            game=game, lines=demo["lines"], tie_breaks=demo["tie_breaks"], winning=demo["winning"]
        )
        stdout.write(f"{game.title}: declared score sheet created on /regles/{sheet.page.slug}/")
    for title, definition in DEMO_SETUPS.items():
        game = Game.objects.get(title=title)
        if DeclaredSetup.objects.filter(page__game=game).exists():
            stdout.write(f"{game.title}: declared setup already there")
            continue
        setup = declared_setup_save(game=game, definition=definition, sources=SETUP_SOURCES)
        stdout.write(f"{game.title}: declared setup created on /regles/{setup.page.slug}/mise-en-place/")
    for name in DEMO_FILES:
        slug, written = declared_file_load(DECLARED_DIR / f"{name}.json")
        stdout.write(f"/regles/{slug}/: {'declared from' if written else 'already declared in'} {name}.json")
