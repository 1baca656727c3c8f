"""Railroad Ink (Hjalmar Hach, Lorenzo Silva; Horrible Games 2018), 1–6 players per box.

Rules from seed 003 (BGA help page « Gamehelprailroadink », 2021-05-05), the base game and the four
expansions of the Édition Grand Bleu (Rivière, Lac) and Édition Rouge Ardent (Météores, Lave):

« Le jeu se termine à la fin du 7ème tour (6ème tour avec les variantes). »
« Chaque joueur peut utiliser 6 Routes spéciales […] une seule Route spéciale par tour […] jusqu'à 3
Routes spéciales pour toute la partie. »
« Pour chaque réseau, comptez le nombre de Sorties connectées à celui-ci » (table « Valeur d'un
Réseau » : 0, 0, 4, 8, … 40 points, 45 pour 12 sorties).
« Faites la somme des points des Réseaux, Autoroute la plus longue, Chemin de fer le plus long, Cases
centrales et Variantes (le cas échéant), soustrayez les points des Erreurs […]. Le joueur ayant le
total le plus élevé gagne. En cas d'égalité, le joueur qui a fait le moins d'erreurs gagne. »
« Dans le jeu de base, il n'y a pas de points dans cette catégorie » (Points des Variantes).

The board (7 × 7 squares, 3 × 3 central squares, 12 exits) is from the publisher's rules.
"""

from rules.engine import (
    Component,
    Criterion,
    Errors,
    GameRules,
    Integer,
    InvalidInput,
    Line,
    ListOf,
    Piece,
    Pieces,
    PlayerRange,
    Setup,
    SetupResult,
    Table,
    Variant,
    Way,
    _,
    add_error,
    text,
)
from rules.games.railroad_ink_board import read_board, routes_field, validate_connections, validate_routes

# The board: 7 × 7 squares, the 9 central ones, 12 exits (3 on each side).
BOARD_SQUARES = 7 * 7
CENTER_SQUARES = 3 * 3
EXITS = 12

# « Le jeu se termine à la fin du 7ème tour (6ème tour avec les variantes). »
ROUNDS = 7
ROUNDS_WITH_VARIANT = 6
# « 3 dés ont les faces suivantes : Chemin de fer courbé […] » and « 1 dé a les faces suivantes : Pont […] Gare »
ROUTE_DICE_PLAIN = 3
ROUTE_DICE_SPECIAL = 1
ROUTE_DICE = ROUTE_DICE_PLAIN + ROUTE_DICE_SPECIAL
# « Chaque joueur peut utiliser 6 Routes spéciales » / « jusqu'à 3 Routes spéciales pour toute la partie »
SPECIAL_ROUTES = 6
MAX_SPECIAL_ROUTES = 3
SPECIAL_ROUTES_PER_ROUND = 1

# Table « Valeur d'un Réseau » (points by the number of exits a network connects).
NETWORK_POINTS = Table((0, 0, 4, 8, 12, 16, 20, 24, 28, 32, 36, 40, 45))

# Each expansion adds two dice: « 2 dés Rivière », « 2 dés Lac », one distance and one direction die
# for the Météores, « 2 dés de Lave ».
VARIANT_DICE = {
    "river": (_("Dés Rivière"), 2),
    "lake": (_("Dés Lac"), 2),
    "meteor": (_("Dés Météore (distance et direction)"), 2),
    "lava": (_("Dés de Lave"), 2),
}


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 6 plateaux effaçables et 6 feutres ; 4 dés Route ; 4 dés d'extension (2 par extension) ». Each
# player draws on their own board; every round rolls the 4 route dice, an expansion adds its 2 dice.
def pieces_needed(players: int, way: str) -> dict[str, int]:
    needs = {
        "boards": players,
        "markers": players,
        "route_dice": ROUTE_DICE_PLAIN,
        "special_die": ROUTE_DICE_SPECIAL,
    }
    if way:
        needs[f"dice_{way}"] = VARIANT_DICE[way][1]
    return needs


COMPONENTS = Pieces(
    pieces=(
        Piece("boards", _("Plateaux effaçables"), 6),
        Piece("markers", _("Feutres effaçables"), 6),
        Piece("route_dice", _("Dés Route"), ROUTE_DICE_PLAIN),
        Piece("special_die", _("Dé Route spécial"), ROUTE_DICE_SPECIAL),
        *(Piece(f"dice_{slug}", name, count) for slug, (name, count) in VARIANT_DICE.items()),
    ),
    ways=(
        Way("", _("jeu de base")),
        *(Way(slug, name, query={"variants": slug}) for slug, (name, _count) in VARIANT_DICE.items()),
    ),
    needs=pieces_needed,
)


class RailroadInk(GameRules):
    slug = "railroad-ink"
    title = "Railroad Ink"
    players = PlayerRange(1, 6)
    variants = (
        Variant(
            "river",
            _("Rivières (Grand Bleu)"),
            _("1 point par case d'une de vos Rivières, +3 si ses deux bouts touchent le bord."),
        ),
        Variant("lake", _("Lacs (Grand Bleu)"), _("1 point par case de votre plus petit Lac.")),
        Variant(
            "meteor", _("Météores (Rouge Ardent)"), _("2 points par Route qui se termine vers un Cratère.")
        ),
        Variant(
            "lava",
            _("Lave (Rouge Ardent)"),
            _("5 points par Lac de Lave fermé, plus 1 point par case de votre plus grand Lac de Lave."),
        ),
    )
    rulings = (
        text(
            _(
                "La règle officielle joue une seule extension à la fois ; le calculateur accepte d'en combiner "
                "plusieurs (règle maison) : la partie dure alors toujours 6 manches et chaque extension ajoute ses dés."
            )
        ),
        text(
            _(
                "Les points des variantes s'inscrivent sur une seule ligne, calculés selon la règle de "
                "l'extension jouée ; dans le jeu de base, cette ligne vaut 0. Les erreurs propres aux "
                "extensions (bouts de Rivière, bords de Lave ouverts) s'ajoutent à la ligne Erreurs."
            )
        ),
        text(
            _("Si deux joueurs ont le même total et le même nombre d'erreurs, ils se partagent la victoire.")
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        chosen = [variant.slug for variant in self.variants if variant.slug in setup.variants]
        rounds = ROUNDS_WITH_VARIANT if chosen else ROUNDS
        components = [
            Component(text(_("Plateaux effaçables (7 × 7 cases, 12 sorties)")), n),
            Component(text(_("Feutres effaçables")), n),
            Component(text(_("Dés Route (autoroutes et chemins de fer)")), ROUTE_DICE_PLAIN),
            Component(text(_("Dé Route spécial (ponts et gares)")), ROUTE_DICE_SPECIAL),
        ]
        components += [Component(text(VARIANT_DICE[slug][0]), VARIANT_DICE[slug][1]) for slug in chosen]
        steps = [
            text(
                _("Donnez à chacun des %(players)s joueurs un plateau effaçable et un feutre."),
                players=n,
            ),
            text(
                _(
                    "À chaque manche, lancez les %(dice)s dés Route : tous les joueurs dessinent en même temps "
                    "les %(dice)s Routes obtenues, chacune connectée à une sortie ou à une Route existante."
                ),
                dice=ROUTE_DICE,
            ),
            text(
                _(
                    "Chaque plateau offre %(special)s Routes spéciales : %(per_round)s au plus par manche, "
                    "%(max)s au plus par partie, chacune une seule fois."
                ),
                special=SPECIAL_ROUTES,
                per_round=SPECIAL_ROUTES_PER_ROUND,
                max=MAX_SPECIAL_ROUTES,
            ),
        ]
        if "lava" in setup.variants:
            steps.append(
                text(_("Lave : chaque joueur dessine un Volcan (4 côtés lave) dans la case centrale."))
            )
        if "meteor" in setup.variants:
            steps.append(text(_("Météores : le premier Météore part de la case centrale du plateau.")))
        if chosen:
            steps.append(
                text(
                    _(
                        "Lancez aussi les dés d'extension à chaque manche ; la partie dure %(rounds)s manches."
                    ),
                    rounds=rounds,
                )
            )
        else:
            steps.append(text(_("La partie dure %(rounds)s manches."), rounds=rounds))
        return SetupResult(
            components=components,
            steps=steps,
            values={
                "rounds": rounds,
                "route_dice": ROUTE_DICE,
                "special_routes": SPECIAL_ROUTES,
                "max_special_routes": MAX_SPECIAL_ROUTES,
            },
        )

    def player_fields(self, variants):
        return (
            ListOf(
                "networks",
                _("Sorties reliées, réseau par réseau"),
                item=Integer("exits", _("Sorties du réseau"), maximum=EXITS),
                default=[],
                help=_(
                    "Une valeur par réseau : le nombre de sorties qu'il relie (12 au total sur le plateau)."
                ),
            ),
            Integer("longest_highway", _("Plus longue autoroute (cases)"), maximum=BOARD_SQUARES, default=0),
            Integer(
                "longest_railway", _("Plus long chemin de fer (cases)"), maximum=BOARD_SQUARES, default=0
            ),
            Integer("center_squares", _("Cases centrales occupées"), maximum=CENTER_SQUARES, default=0),
            Integer("errors", _("Erreurs"), default=0),
            Integer(
                "variant_points",
                _("Points de variante"),
                default=0,
                help=_("Selon la règle de l'extension jouée ; 0 dans le jeu de base."),
            ),
        )

    def lines(self, variants):
        lines = (
            Line("networks", _("Réseaux")),
            Line("longest_highway", _("Plus longue autoroute")),
            Line("longest_railway", _("Plus long chemin de fer")),
            Line("center_squares", _("Cases centrales")),
            Line("errors", _("Erreurs")),
        )
        if variants:
            lines += (Line("variant_points", _("Points de variante")),)
        return lines

    def tie_breakers(self, variants):
        return (
            Criterion(
                "errors",
                _("le moins d'erreurs"),
                key=lambda player: player.fields["errors"],
                highest_wins=False,
            ),
        )

    def validate_sheet(self, sheet, errors):
        for index, player in enumerate(sheet.players):
            if sum(player["networks"]) > EXITS:
                add_error(
                    errors,
                    f"players.{index}.networks",
                    text(
                        _(
                            "Le plateau n'a que %(exits)s sorties : vos réseaux ne peuvent pas en relier "
                            "plus de %(exits)s en tout."
                        ),
                        exits=EXITS,
                    ),
                )
            if not sheet.variants and player["variant_points"]:
                add_error(
                    errors,
                    f"players.{index}.variant_points",
                    text(
                        _(
                            "Dans le jeu de base, il n'y a pas de points de variante : choisissez l'extension jouée."
                        )
                    ),
                )

    def breakdown(self, player, sheet):
        breakdown = {
            "networks": sum(NETWORK_POINTS[exits] for exits in player["networks"]),
            "longest_highway": player["longest_highway"],
            "longest_railway": player["longest_railway"],
            "center_squares": player["center_squares"],
            "errors": -player["errors"],
        }
        if sheet.variants:
            breakdown["variant_points"] = player["variant_points"]
        return breakdown

    # --- the board scorer (rules/games/railroad_ink_board.py): the sheet's numbers read from the board ---

    def check_fields(self, variants):
        return (routes_field(ROUNDS_WITH_VARIANT if variants else ROUNDS),)

    def check(self, position, variants):
        errors: Errors = {}
        validate_routes(position["routes"], errors)
        if not errors:
            validate_connections(position["routes"], errors)
        if errors:
            raise InvalidInput(errors)
        return read_board(position["routes"], NETWORK_POINTS)


RULES = RailroadInk()
