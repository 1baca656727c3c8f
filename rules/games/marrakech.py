"""Marrakech (Dominique Ehrhard, Gigamic), 2–4 players — rules from seed 003 (BGA help page
« Gamehelpmarrakech », 22 November 2020: « Préparation », « Fin du jeu », « À deux joueurs »).

« Chaque joueur reçoit 30 dirhams (5 pièces de 1 et 5 pièces de 5). À 3 joueurs, chacun reçoit 15 tapis
d'une même couleur […]. À 4 joueurs chacun reçoit 12 tapis de même couleur. » — « À deux joueurs :
Chaque joueur reçoit 30 Dirhams et 24 tapis de 2 couleurs différentes ». — « Chaque moitié de tapis
exposé (visible) et chaque dirham compte pour un point. Le joueur qui a le plus grand nombre de points
gagne la partie. En cas d'égalité, c'est le joueur qui a le plus de dirhams qui l'emporte. » — « Si un
joueur n'a pas assez d'argent pour payer sa dîme, il est éliminé : il paye ce qu'il peut, […] ses tapis
déjà posés sur le marché restent en place, devenant neutres pour les autres joueurs. »
"""

from rules.engine import (
    Boolean,
    Component,
    Criterion,
    GameRules,
    Integer,
    Line,
    Piece,
    Pieces,
    PlayerRange,
    Setup,
    SetupResult,
    Table,
    Way,
    _,
    add_error,
    refuse_over_supply,
    text,
)

# « La cour du marché aux tapis (plateau de jeu), 60 tapis textile (4 séries de 15), 20 pièces de 1,
# 20 pièces de 5, Assam le pion marchand et 1 dé en bois. »
COLOURS_IN_BOX = 4
CARPETS_PER_COLOUR_IN_BOX = 15
MARKET_SIDE = 7  # the market is a square of 7 × 7 squares
MARKET_SQUARES = MARKET_SIDE * MARKET_SIDE
SQUARES_PER_CARPET = 2  # a carpet covers two squares (« deux moitiés de tapis »)
DIE_FACES = (1, 2, 2, 3, 3, 4)  # « Face du dé : 1, 2, 2, 3, 3, 4 »
# « Chaque joueur reçoit 30 dirhams (5 pièces de 1 et 5 pièces de 5) »
ONES_PER_PLAYER = 5
FIVES_PER_PLAYER = 5
DIRHAMS_PER_PLAYER = ONES_PER_PLAYER * 1 + FIVES_PER_PLAYER * 5
# (carpets per player, colours per player) by number of players.
CARPETS = Table({2: (24, 2), 3: (15, 1), 4: (12, 1)})


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « la cour du marché aux tapis ; 60 tapis textile (4 séries de 15, une par couleur) ; 20 pièces de 1
# dirham et 20 pièces de 5 dirhams ; Assam ; 1 dé ». « Chaque joueur reçoit 30 dirhams (5 pièces de 1
# et 5 pièces de 5) »; carpets per colour in play: 12 at 2 players (2 colours each), 15 at 3, 12 at 4.
# Each colour is its own piece: a colour short of carpets stays in the box.
COLOUR_KEYS = ("carpets_1", "carpets_2", "carpets_3", "carpets_4")


def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {
        "board": 1,
        "assam": 1,
        "die": 1,
        "coins_1": ONES_PER_PLAYER * players,
        "coins_5": FIVES_PER_PLAYER * players,
    }


def carpets_fit(players: int, way: str, left: dict[str, int]) -> bool:
    """The table takes the colours with the most carpets left: each must hold what a colour puts in play."""
    carpets, colours_each = CARPETS[players]
    fullest = sorted((left.get(key, 0) for key in COLOUR_KEYS), reverse=True)[: players * colours_each]
    return all(count >= carpets // colours_each for count in fullest)


COMPONENTS = Pieces(
    pieces=(
        Piece("board", _("Plateau du marché"), 1),
        Piece("assam", _("Assam, le pion marchand"), 1),
        Piece("die", _("Dé"), 1),
        *(
            Piece(
                key,
                text(_("Tapis de la couleur %(number)s (série de 15)"), number=index + 1),
                CARPETS_PER_COLOUR_IN_BOX,
            )
            for index, key in enumerate(COLOUR_KEYS)
        ),
        Piece("coins_1", _("Pièces de 1 dirham"), 20),
        Piece("coins_5", _("Pièces de 5 dirhams"), 20),
    ),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
    fits=carpets_fit,
)


class Marrakech(GameRules):
    slug = "marrakech"
    title = "Marrakech"
    players = PlayerRange(2, 4)
    rulings = (
        text(
            _(
                "Égalité de points et de dirhams : la page d'aide ne départage pas au-delà des dirhams ; les "
                "joueurs encore à égalité se partagent la victoire."
            )
        ),
        text(
            _(
                "Un joueur éliminé faute de pouvoir payer la dîme a tout donné (0 dirham) et ses tapis devenus "
                "neutres ne comptent plus pour lui (0 case) : il est classé après les autres et ne peut pas "
                "gagner."
            )
        ),
        text(
            _(
                "Les dirhams ne font que passer d'un joueur à l'autre : la feuille refuse des totaux qui "
                "dépassent les 30 dirhams distribués par joueur, ou plus de cases visibles que le marché n'en "
                "compte."
            )
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        carpets_per_player, colours_per_player = CARPETS[n]
        carpets_per_colour = carpets_per_player // colours_per_player
        carpets_back_in_box = COLOURS_IN_BOX * CARPETS_PER_COLOUR_IN_BOX - n * carpets_per_player
        if colours_per_player == 1:
            carpets_step = text(
                _("Chaque joueur choisit une couleur et pose devant lui %(carpets)s tapis de cette couleur."),
                carpets=carpets_per_player,
            )
        else:
            carpets_step = text(
                _(
                    "Chaque joueur prend %(colours)s couleurs, %(per_colour)s tapis de chacune, soit %(carpets)s "
                    "tapis : il les mélange en une pioche et les posera dans l'ordre de cette pioche."
                ),
                colours=colours_per_player,
                per_colour=carpets_per_colour,
                carpets=carpets_per_player,
            )
        steps = [
            text(_("Posez Assam au centre du marché (%(side)s × %(side)s cases)."), side=MARKET_SIDE),
            text(
                _(
                    "Chaque joueur reçoit %(dirhams)s dirhams : %(ones)s pièces de 1 et %(fives)s pièces de 5."
                ),
                dirhams=DIRHAMS_PER_PLAYER,
                ones=ONES_PER_PLAYER,
                fives=FIVES_PER_PLAYER,
            ),
            carpets_step,
        ]
        if carpets_back_in_box:
            steps.append(
                text(
                    _("Remettez dans la boîte les %(carpets)s tapis qui ne servent pas."),
                    carpets=carpets_back_in_box,
                )
            )
        steps.append(
            text(
                _(
                    "Le dernier joueur à avoir passé ses vacances au Maroc commence ; on joue dans le sens des "
                    "aiguilles d'une montre."
                )
            )
        )
        return SetupResult(
            components=[
                Component(text(_("Plateau du marché")), 1),
                Component(text(_("Assam, le pion marchand")), 1),
                Component(text(_("Dé (faces 1, 2, 2, 3, 3, 4)")), 1),
                Component(text(_("Tapis en jeu")), n * carpets_per_player),
                Component(text(_("Pièces de 1 dirham")), n * ONES_PER_PLAYER),
                Component(text(_("Pièces de 5 dirhams")), n * FIVES_PER_PLAYER),
            ],
            steps=steps,
            values={
                "dirhams_per_player": DIRHAMS_PER_PLAYER,
                "carpets_per_player": carpets_per_player,
                "colours_per_player": colours_per_player,
                "carpets_per_colour": carpets_per_colour,
                "die_faces": list(DIE_FACES),
            },
        )

    def player_fields(self, variants):
        return (
            Integer(
                "visible_squares",
                _("Cases de tapis visibles"),
                minimum=0,
                maximum=MARKET_SQUARES,
                help=_("Chaque moitié de tapis visible compte 1 point."),
            ),
            Integer("dirhams", _("Dirhams"), minimum=0, help=_("Chaque dirham compte 1 point.")),
            Boolean("eliminated", _("Éliminé (dîme impayée)")),
        )

    def lines(self, variants):
        return (Line("visible_squares", _("Cases de tapis visibles")), Line("dirhams", _("Dirhams")))

    def tie_breakers(self, variants):
        return (Criterion("dirhams", _("les dirhams"), key=lambda player: player.fields["dirhams"]),)

    def validate_sheet(self, sheet, errors):
        n = len(sheet.players)
        carpets_per_player, _colours = CARPETS[n]
        own_squares = carpets_per_player * SQUARES_PER_CARPET
        for index, player in enumerate(sheet.players):
            if player["eliminated"]:
                if player["dirhams"]:
                    add_error(
                        errors,
                        f"players.{index}.dirhams",
                        text(_("Un joueur éliminé a payé tout ce qu'il avait : il n'a plus de dirham.")),
                    )
                if player["visible_squares"]:
                    add_error(
                        errors,
                        f"players.{index}.visible_squares",
                        text(
                            _(
                                "Les tapis d'un joueur éliminé sont devenus neutres : ils ne comptent plus pour lui."
                            )
                        ),
                    )
            elif player["visible_squares"] > own_squares:
                add_error(
                    errors,
                    f"players.{index}.visible_squares",
                    text(
                        _(
                            "À %(players)s joueurs, chacun pose %(carpets)s tapis, soit %(squares)s cases au plus."
                        ),
                        players=n,
                        carpets=carpets_per_player,
                        squares=own_squares,
                    ),
                )
        refuse_over_supply(
            sheet,
            errors,
            "visible_squares",
            MARKET_SQUARES,
            _("Le marché compte %(supply)s cases : les joueurs en déclarent %(total)s visibles."),
        )
        refuse_over_supply(
            sheet,
            errors,
            "dirhams",
            DIRHAMS_PER_PLAYER * n,
            _(
                "Les joueurs ont reçu %(supply)s dirhams en tout et ne font que se les payer : les totaux "
                "déclarés en font %(total)s."
            ),
        )

    def breakdown(self, player, sheet):
        return {"visible_squares": player["visible_squares"], "dirhams": player["dirhams"]}

    def eliminated(self, player, sheet):
        return player["eliminated"]


RULES = Marrakech()
