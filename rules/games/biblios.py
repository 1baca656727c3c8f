"""Biblios (Steve Finn, Iella), 2–4 players — rules from seed 000 (PMB notice, « Installation »,
« Gagner la partie »).

« Le joueur qui a le plus grand nombre de points dans une catégorie la remporte. […] En cas
d'égalité, le joueur ayant la carte avec la lettre la plus proche de A remporte la catégorie. […]
S'il y a égalité […], c'est le joueur qui a le plus d'Or qui remporte la partie. Si cela ne suffit
pas à les départager, c'est celui qui a remporté la catégorie Moines qui est le vainqueur. »
"""

from rules.engine import (
    Component,
    Criterion,
    GameRules,
    Group,
    Integer,
    Letter,
    Line,
    Piece,
    Pieces,
    PlayerRange,
    Setup,
    SetupResult,
    Table,
    Tie,
    Way,
    _,
    add_error,
    leaders,
    majority,
    text,
)

CATEGORIES = (
    ("moines", _("Moines")),
    ("manuscrits", _("Manuscrits")),
    ("pigments", _("Pigments")),
    ("grimoires", _("Grimoires interdits")),
    ("livres_sacres", _("Livres sacrés")),
)

CARDS_IN_BOX = 87
DIE_START = 3
# « Pour 2 joueurs : Retirez 6 cartes or (2 de chaque valeur) puis 21 cartes au hasard. Pour 3 joueurs :
# Retirez 3 cartes Or (1 de chaque valeur) puis 12 cartes au hasard. Pour 4 joueurs : Retirez 7 cartes
# au hasard. »  (gold cards removed, random cards removed) by number of players.
REMOVED = Table({2: (6, 21), 3: (3, 12), 4: (0, 7)})
GOLD_VALUES = 3  # gold cards come in values 1, 2 and 3


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 1 plateau de valeurs ; 5 dés à six faces ; 87 cartes ». Setup removes cards unseen: at 2 players
# 6 Or then 21 at random, at 3 players 3 Or then 12, at 4 players 7 at random (REMOVED). Library
# ruling: a card missing from the box counts as one of those removed at random, so a table of N needs
# the 87 cards less its random removal.
def pieces_needed(players: int, way: str) -> dict[str, int]:
    _gold, removed_random = REMOVED[players]
    return {"value_board": 1, "dice": len(CATEGORIES), "cards": CARDS_IN_BOX - removed_random}


COMPONENTS = Pieces(
    pieces=(
        Piece("value_board", _("Plateau de valeurs"), 1),
        Piece("dice", _("Dés de catégorie"), len(CATEGORIES)),
        Piece("cards", _("Cartes"), CARDS_IN_BOX),
    ),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
)


class Biblios(GameRules):
    slug = "biblios"
    title = "Biblios"
    players = PlayerRange(2, 4)

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        removed_gold, removed_random = REMOVED[n]
        deck = CARDS_IN_BOX - removed_gold - removed_random
        cards_per_turn = n + 1  # « autant de cartes qu'il y a de joueurs plus 1 »
        public_cards = n - 1  # « il y a toujours 1 carte de moins allouée à la place publique »
        if removed_gold:
            removal = text(
                _(
                    "Retirez sans les regarder %(gold)s cartes Or (%(each)s de chaque valeur), "
                    "puis %(random)s cartes au hasard."
                ),
                gold=removed_gold,
                each=removed_gold // GOLD_VALUES,
                random=removed_random,
            )
        else:
            removal = text(_("Retirez sans les regarder %(random)s cartes au hasard."), random=removed_random)
        return SetupResult(
            components=[
                Component(text(_("Plateau de valeurs")), 1),
                Component(text(_("Dés de catégorie (sur la face 3)")), len(CATEGORIES)),
                Component(text(_("Cartes dans la pioche")), deck),
                Component(text(_("Cartes Or retirées")), removed_gold),
                Component(text(_("Cartes retirées au hasard")), removed_random),
            ],
            steps=[
                text(
                    _(
                        "Placez le plateau de valeurs au centre de la table et un dé sur sa face %(face)s "
                        "sur chacune des %(categories)s catégories."
                    ),
                    face=DIE_START,
                    categories=len(CATEGORIES),
                ),
                removal,
                text(
                    _("Mélangez les %(deck)s cartes restantes : elles forment la pioche, face cachée."),
                    deck=deck,
                ),
                text(_("Désignez le premier joueur, par exemple le plus âgé.")),
                text(
                    _(
                        "Phase de dons : le joueur actif pioche et alloue %(cards)s cartes une à une — une devant "
                        "lui face cachée, %(public)s sur la place publique face visible, une dans la pile "
                        "d'enchères face cachée."
                    ),
                    cards=cards_per_turn,
                    public=public_cards,
                ),
            ],
            values={
                "removed_gold": removed_gold,
                "removed_random": removed_random,
                "deck": deck,
                "cards_per_turn": cards_per_turn,
                "public_cards": public_cards,
            },
        )

    def player_fields(self, variants):
        category = (
            Integer("total", _("Total des cartes"), minimum=0),
            Letter("best_letter", _("Lettre la plus proche de A")),
        )
        return (
            Group(
                "categories",
                _("Catégories"),
                default=None,
                fields=tuple(Group(slug, label, fields=category, default=None) for slug, label in CATEGORIES),
            ),
            Integer("gold", _("Or restant"), minimum=0, default=0),
        )

    def shared_fields(self, variants):
        return (
            Group(
                "dice",
                _("Valeur des dés"),
                fields=tuple(
                    Integer(slug, label, minimum=1, maximum=6, default=DIE_START)
                    for slug, label in CATEGORIES
                ),
            ),
        )

    def lines(self, variants):
        return tuple(Line(slug, label) for slug, label in CATEGORIES)

    def tie_breakers(self, variants):
        return (
            Criterion("gold", _("l'or restant"), key=lambda player: player.fields["gold"]),
            Criterion(
                "moines",
                _("la catégorie Moines"),
                key=lambda player: player.breakdown["moines"] > 0,
                show_values=False,
            ),
        )

    @staticmethod
    def _category(player, slug):
        return (player.get("categories") or {}).get(slug) or {"total": 0, "best_letter": None}

    def _totals(self, sheet, slug):
        return {player["name"]: self._category(player, slug)["total"] for player in sheet.players}

    def validate_sheet(self, sheet, errors):
        by_name = {player["name"]: (index, player) for index, player in enumerate(sheet.players)}
        for slug, _label in CATEGORIES:
            tied = leaders(self._totals(sheet, slug))
            if len(tied) < 2:
                continue
            missing = False
            for name in tied:
                index, player = by_name[name]
                if self._category(player, slug)["best_letter"] is None:
                    missing = True
                    add_error(
                        errors,
                        f"players.{index}.categories.{slug}.best_letter",
                        text(
                            _(
                                "Égalité dans cette catégorie : indiquez la lettre de carte la plus proche de A."
                            )
                        ),
                    )
            if missing:
                continue
            # Any two tied players sharing a letter is refused, not only the two closest to A: a letter
            # names one card of the category, so no two players can both hold it.
            letters = [self._category(by_name[name][1], slug)["best_letter"] for name in tied]
            for name, letter in zip(tied, letters, strict=True):
                if letters.count(letter) > 1:
                    add_error(
                        errors,
                        f"players.{by_name[name][0]}.categories.{slug}.best_letter",
                        text(_("Deux joueurs à égalité ne peuvent pas avoir la même meilleure lettre.")),
                    )

    def _winner_points(self, sheet, slug):
        letters = {player["name"]: self._category(player, slug)["best_letter"] for player in sheet.players}
        return majority(
            self._totals(sheet, slug),
            sheet.shared["dice"][slug],
            tie=Tie.BREAK,
            tie_break=lambda name: letters[name],
        )

    def breakdowns(self, sheet):
        won = {slug: self._winner_points(sheet, slug) for slug, _label in CATEGORIES}
        return [
            {slug: won[slug].get(player["name"], 0) for slug, _label in CATEGORIES}
            for player in sheet.players
        ]


RULES = Biblios()
