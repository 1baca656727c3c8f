"""Alhambra (Dirk Henn, Queen Games), 2–6 players — rules from seed 003 (BGA help page
« Gamehelpalhambra », revisions of 24 and 25 November 2020, « Comptage », « Mise en place »).

« Pour chaque type de bâtiment, un classement des joueurs est réalisé en fonction du nombre de tuiles
présentes dans leur Alhambra. Au premier comptage, seule la personne ayant le plus de bâtiments marque
les points correspondants. Au deuxième comptage, seules les deux premières personnes marquent des
points. Au troisième comptage, seules les trois premières. En cas d'égalité, les points des places
correspondantes sont partagées en arrondissant à la valeur inférieure. Puis chacun marque un bonus égal
à leur mur d'enceinte le plus grand […]. Chaque portion de mur rapportant 1 point. […] La personne
ayant le plus de points à l'issue du 3e comptage gagne la partie. En cas d'égalité, la victoire est
partagée. »

The seed gives no points table: the one below is the publisher's (printed on the reserve boards of
the Queen Games edition), as fixed by docs/RULES_API.md.
"""

from rules.engine import (
    Component,
    GameRules,
    Group,
    Integer,
    Label,
    Line,
    NameList,
    Piece,
    Pieces,
    PlayerRange,
    Setup,
    SetupResult,
    Way,
    _,
    add_error,
    leaders,
    ngettext,
    places,
    points,
    rank,
    refuse_over_supply,
    text,
)

# « Répartition des tuiles de construction » : (key, French name, colour, tiles in the box).
BUILDINGS = (
    ("pavilion", _("Pavillon"), _("bleu"), 7),
    ("seraglio", _("Sérail"), _("rouge"), 7),
    ("arcades", _("Arcades"), _("marron"), 9),
    ("chambers", _("Appartements princiers"), _("blanc"), 9),
    ("garden", _("Jardin"), _("vert"), 11),
    ("tower", _("Tour"), _("violet"), 11),
)
TILES_IN_BOX = {key: count for key, _name, _colour, count in BUILDINGS}

# Points by place for each scoring round, pavilion … tower: round 1 pays the first only, round 2 the
# first two, round 3 the first three (« seules les deux premières personnes marquent des points »).
POINTS_BY_ROUND = {
    1: {"pavilion": (1,), "seraglio": (2,), "arcades": (3,), "chambers": (4,), "garden": (5,), "tower": (6,)},
    2: {
        "pavilion": (8, 1),
        "seraglio": (9, 2),
        "arcades": (10, 3),
        "chambers": (11, 4),
        "garden": (12, 5),
        "tower": (13, 6),
    },
    3: {
        "pavilion": (16, 8, 1),
        "seraglio": (17, 9, 2),
        "arcades": (18, 10, 3),
        "chambers": (19, 11, 4),
        "garden": (20, 12, 5),
        "tower": (21, 13, 6),
    },
}
FINAL_ROUND = 3
ROUND_NAMES = {1: _("premier décompte"), 2: _("deuxième décompte"), 3: _("troisième décompte")}
POINTS_PER_WALL_SEGMENT = 1  # « Chaque portion de mur rapportant 1 point »
WALL_SEGMENTS_PER_TILE = 3  # a building tile carries up to three wall segments; the fountain none

# « Chaque personne reçoit des cartes d'argent jusqu'à un total de 20 ou plus. »
STARTING_MONEY = 20
# Components of the Queen Games edition (2003; French edition by Queen Games / Überplay): 108 money
# cards in four currencies valued 1 to 9, three of each; two scoring cards; one starting tile
# (fountain), one reserve board and two counters per colour; a building market of four squares.
MONEY_CARDS = 108
CURRENCIES = 4
SCORING_CARDS = 2
MARKET_SQUARES = 4  # one building tile per currency on the market
MONEY_DISPLAY = 4  # money cards laid face up beside the market
# « la première aux alentours des 2/5 de la pioche, la deuxième aux alentours des 4/5 » : the money
# deck is cut into five piles; the scoring cards go into the second and the fourth.
MONEY_PILES = 5
SCORING_CARD_PILES = (2, 4)
PHANTOM_PLAYER_COUNT = 2  # the publisher's two-player game adds Dirk, a third, imaginary builder


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 6 tuiles de départ (la fontaine), une par couleur de joueur ; 54 tuiles bâtiment de 6 types ; 108
# cartes Argent […] ; 2 cartes Décompte ; 1 chantier ; 1 piste de score et 12 marqueurs (2 par
# couleur) ; 6 plateaux de réserve ; 1 sac ». The bag's tiles and the money deck are drawn: every one
# is needed. The bag itself is any opaque bag (library ruling: it is not listed).
def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {
        "starting_tiles": players,
        "reserve_boards": players,
        "markers": 2 * players,
        **{f"tiles_{key}": count for key, count in TILES_IN_BOX.items()},
        "money_cards": MONEY_CARDS,
        "scoring_cards": SCORING_CARDS,
        "market": 1,
        "score_track": 1,
    }


COMPONENTS = Pieces(
    pieces=(
        Piece("starting_tiles", _("Tuiles de départ (fontaine)"), 6, per_colour=True),
        Piece("reserve_boards", _("Plateaux de réserve"), 6),
        Piece("markers", _("Marqueurs (2 par couleur)"), 12, per_colour=True),
        *(Piece(f"tiles_{key}", name, count) for key, name, _colour, count in BUILDINGS),
        Piece(
            "building_tiles",
            _("Tuiles bâtiment (toutes sortes)"),
            sum(TILES_IN_BOX.values()),
            covers=tuple(f"tiles_{key}" for key in TILES_IN_BOX),
        ),
        Piece("money_cards", _("Cartes Argent"), MONEY_CARDS),
        Piece("scoring_cards", _("Cartes Décompte"), SCORING_CARDS),
        Piece("market", _("Chantier (4 cases)"), 1),
        Piece("score_track", _("Piste de score"), 1),
    ),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
    colours=6,
)


class Alhambra(GameRules):
    slug = "alhambra"
    title = "Alhambra"
    players = PlayerRange(2, 6)
    rulings = (
        text(
            _(
                "Places après une égalité : « les points des places correspondantes sont partagés ». Les "
                "joueurs à égalité occupent autant de places qu'ils sont ; le joueur suivant prend la place "
                "d'après. Au deuxième décompte, deux joueurs à égalité en tête se partagent la 1re et la 2e "
                "place, et le troisième ne marque rien."
            )
        ),
        text(
            _(
                "Seules les tuiles posées dans l'Alhambra comptent, pas celles de la réserve ; un joueur sans "
                "bâtiment d'un type ne prend aucune place pour ce type."
            )
        ),
        text(
            _(
                "Après le premier et le deuxième décompte, la feuille donne les points à avancer sur la piste "
                "et le classement provisoire, sans vainqueur : la partie se gagne au troisième décompte."
            )
        ),
        text(
            _(
                "La page d'aide ne donne pas le barème : celui appliqué est celui imprimé sur les plateaux de "
                "réserve de l'édition Queen Games (par exemple 1 point pour le pavillon au premier décompte, "
                "21 / 13 / 6 pour la tour au troisième)."
            )
        ),
        text(
            _(
                "À deux joueurs, la page d'aide ne dit rien de la règle de l'éditeur, qui ajoute un troisième "
                "bâtisseur imaginaire, Dirk : inscrivez Dirk sur la feuille comme un joueur, il prend des places "
                "aux décomptes."
            )
        ),
    )

    # --- setup ---------------------------------------------------------------------------------------

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        building_tiles = sum(TILES_IN_BOX.values())
        first_pile, second_pile = SCORING_CARD_PILES
        steps = [
            text(
                _(
                    "Chaque joueur prend une tuile de départ (la fontaine), un plateau de réserve et deux "
                    "marqueurs de sa couleur : l'un sur sa fontaine, l'autre sur la case 0 de la piste de score."
                )
            ),
            text(
                _(
                    "Mettez les %(tiles)s tuiles bâtiment dans le sac et posez-en %(market)s sur le chantier, "
                    "une sur chaque case de devise."
                ),
                tiles=building_tiles,
                market=MARKET_SQUARES,
            ),
            text(
                _(
                    "Mélangez les %(cards)s cartes Argent, sans les cartes Décompte. Donnez à chaque joueur des "
                    "cartes une à une, face visible, jusqu'à un total de %(money)s ou plus ; chacun les garde "
                    "ensuite secrètes."
                ),
                cards=MONEY_CARDS,
                money=STARTING_MONEY,
            ),
            text(
                _("Retournez %(display)s cartes Argent à côté du chantier : c'est la banque."),
                display=MONEY_DISPLAY,
            ),
            text(
                _(
                    "Partagez le reste en %(piles)s tas à peu près égaux ; mélangez la 1re carte Décompte dans "
                    "le %(first)se tas et la 2e dans le %(second)se, puis empilez les tas dans l'ordre, le 1er "
                    "au-dessus."
                ),
                piles=MONEY_PILES,
                first=first_pile,
                second=second_pile,
            ),
            text(
                _(
                    "Le joueur qui a reçu le moins de cartes commence ; en cas d'égalité, celui qui a reçu la "
                    "plus petite somme."
                )
            ),
        ]
        if n == PHANTOM_PLAYER_COUNT:
            steps.append(
                text(
                    _(
                        "À deux joueurs, la règle de l'éditeur (absente de la page d'aide) ajoute Dirk, un "
                        "bâtisseur imaginaire qui reçoit des tuiles et prend part aux décomptes."
                    )
                )
            )
        components = [
            Component(text(_("Tuiles de départ (fontaine)")), n),
            Component(text(_("Plateaux de réserve")), n),
            Component(text(_("Marqueurs (2 par joueur)")), 2 * n),
            *(
                Component(
                    text(_("Tuiles %(building)s (%(colour)s)"), building=Label(name), colour=Label(colour)),
                    count,
                )
                for _key, name, colour, count in BUILDINGS
            ),
            Component(text(_("Cartes Argent (4 devises, valeurs 1 à 9)")), MONEY_CARDS),
            Component(text(_("Cartes Décompte")), SCORING_CARDS),
            Component(text(_("Chantier (4 cases)")), 1),
            Component(text(_("Piste de score")), 1),
        ]
        return SetupResult(
            components=components,
            steps=steps,
            values={
                "starting_money": STARTING_MONEY,
                "building_tiles": building_tiles,
                "tiles_by_building": dict(TILES_IN_BOX),
                "market_tiles": MARKET_SQUARES,
                "money_cards": MONEY_CARDS,
                "currencies": CURRENCIES,
                "money_display": MONEY_DISPLAY,
                "scoring_cards": SCORING_CARDS,
                "money_piles": MONEY_PILES,
                "scoring_card_piles": list(SCORING_CARD_PILES),
                "starting_tiles": n,
                "phantom_player": n == PHANTOM_PLAYER_COUNT,
            },
        )

    # --- score sheet ---------------------------------------------------------------------------------

    def shared_fields(self, variants):
        return (
            Integer(
                "round",
                _("Numéro du décompte"),
                minimum=1,
                maximum=FINAL_ROUND,
                help=_("1 et 2 : quand une carte Décompte est piochée ; 3 : à la fin de la partie."),
            ),
        )

    def player_fields(self, variants):
        return (
            Group(
                "buildings",
                _("Bâtiments dans l'Alhambra"),
                fields=tuple(
                    Integer(key, name, minimum=0, maximum=count, default=0)
                    for key, name, _colour, count in BUILDINGS
                ),
                help=_("Tuiles posées dans l'Alhambra, par type ; la réserve ne compte pas."),
            ),
            Integer(
                "wall", _("Plus long mur d'enceinte"), minimum=0, help=_("Portions de mur extérieur continu.")
            ),
            Integer(
                "previous",
                _("Points avant ce décompte"),
                minimum=0,
                default=0,
                help=_("Score sur la piste avant ce décompte (0 au premier)."),
            ),
        )

    def lines(self, variants):
        return (
            *(Line(key, name) for key, name, _colour, _count in BUILDINGS),
            Line("wall", _("Mur d'enceinte")),
            Line("previous", _("Points des décomptes précédents")),
        )

    def validate_sheet(self, sheet, errors):
        for key, name, _colour, count in BUILDINGS:
            refuse_over_supply(
                sheet,
                errors,
                f"buildings.{key}",
                count,
                _(
                    "La boîte ne contient que %(supply)s tuiles %(building)s : les joueurs en déclarent %(total)s."
                ),
                building=Label(name),
            )
        for index, player in enumerate(sheet.players):
            tiles = sum(player["buildings"].values())
            if player["wall"] > WALL_SEGMENTS_PER_TILE * tiles:
                add_error(
                    errors,
                    f"players.{index}.wall",
                    text(
                        ngettext(
                            "Un mur de %(wall)s portions demande plus de tuiles : une tuile porte au plus "
                            "%(per_tile)s portions de mur et cet Alhambra compte %(tiles)s tuile bâtiment.",
                            "Un mur de %(wall)s portions demande plus de tuiles : une tuile porte au plus "
                            "%(per_tile)s portions de mur et cet Alhambra compte %(tiles)s tuiles bâtiment.",
                            tiles,
                        ),
                        wall=player["wall"],
                        per_tile=WALL_SEGMENTS_PER_TILE,
                        tiles=tiles,
                    ),
                )
            if sheet.shared["round"] == 1 and player["previous"]:
                add_error(
                    errors,
                    f"players.{index}.previous",
                    text(_("Avant le premier décompte, personne n'a encore marqué de points.")),
                )

    def breakdowns(self, sheet):
        table = POINTS_BY_ROUND[sheet.shared["round"]]
        won = {
            key: places({p["name"]: p["buildings"][key] for p in sheet.players}, table[key])
            for key, _name, _colour, _count in BUILDINGS
        }
        return [
            {
                **{key: won[key].get(player["name"], 0) for key, _name, _colour, _count in BUILDINGS},
                "wall": POINTS_PER_WALL_SEGMENT * player["wall"],
                "previous": player["previous"],
            }
            for player in sheet.players
        ]

    def ranking(self, scored, sheet):
        round_ = sheet.shared["round"]
        if round_ == FINAL_ROUND:
            return rank(scored)
        # An intermediate scoring: the standing so far, nobody has won yet.
        ahead = leaders({player.name: player.total for player in scored}, minimum=0)
        explanation = text(
            ngettext(
                "Après le %(round)s, %(names)s mène avec %(points)s ; la partie continue jusqu'au troisième "
                "décompte.",
                "Après le %(round)s, %(names)s mènent à égalité avec %(points)s ; la partie continue jusqu'au "
                "troisième décompte.",
                len(ahead),
            ),
            round=Label(ROUND_NAMES[round_]),
            names=NameList(ahead),
            points=points(max(player.total for player in scored)),
        )
        return rank(scored, eligible=lambda player: False, no_winner=explanation)


RULES = Alhambra()
