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

Two players: the seed is silent; the publisher's rule adds Dirk, an imaginary third builder (named
after the author). He has no Alhambra and no wall: his building tiles lie in front of him, and he
takes part in the majorities of every scoring round, so he scores, but he is not a player and can
never win. Which tiles and when, from the Queen Games two-player rule as players report it (BGG
thread « Dirk must die », boardgamegeek.com/thread/391131; session reports gamingground.blogspot.com
2009-09-06 « players purchase tiles on behalf of Dirk », gamesnightnews.blogspot.com 2012-08 « Dirk's
final set of tiles is a third rounded down »): 6 tiles from the bag at the start, 6 more after the
first scoring, a third of the tiles left in the bag (rounded down) after the second; a player may
also buy a tile and give it to Dirk. The counts of 6 are [unverified] against the printed rule book:
the page says so in its ruling.
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
    Ranking,
    Sentences,
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
DIRK = "Dirk"
DIRK_KEY = ("dirk",)  # his key in the majorities: never a player's name (names are strings)
DIRK_START_TILES = 6  # from the bag, at the start [unverified: players' reports of the Queen rule]
DIRK_FIRST_SCORING_TILES = 6  # from the bag, after the first scoring [unverified]
DIRK_SECOND_SCORING_SHARE = 3  # after the second scoring: a third of the bag, rounded down


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
                "bâtisseur imaginaire, Dirk : il reçoit 6 tuiles du sac au début, 6 après le premier décompte "
                "et le tiers (arrondi vers le bas) des tuiles restées dans le sac après le deuxième ; un joueur "
                "peut aussi acheter une tuile pour la lui donner. Ces nombres viennent des comptes rendus de "
                "joueurs de la règle Queen Games, pas d'un livret vérifié. Dirk n'a ni Alhambra ni mur : ses "
                "tuiles comptent aux majorités et il marque des points, mais il ne gagne jamais. Inscrivez ses "
                "tuiles dans la rubrique « Dirk » de la feuille : il prend ses places, sans être un joueur."
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
                        "bâtisseur imaginaire : tirez %(start)s tuiles du sac et posez-les devant lui. Il en "
                        "recevra %(first)s autres après le premier décompte, puis le tiers (arrondi vers le bas) "
                        "des tuiles restées dans le sac après le deuxième. Ses tuiles comptent aux majorités ; il "
                        "marque des points mais ne gagne jamais."
                    ),
                    start=DIRK_START_TILES,
                    first=DIRK_FIRST_SCORING_TILES,
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
                "phantom_start_tiles": DIRK_START_TILES if n == PHANTOM_PLAYER_COUNT else 0,
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
            Group(
                "dirk",
                _("Dirk, le bâtisseur imaginaire (à 2 joueurs)"),
                default=None,
                fields=(
                    *(
                        Integer(key, name, minimum=0, maximum=count, default=0)
                        for key, name, _colour, count in BUILDINGS
                    ),
                    Integer(
                        "previous",
                        _("Points de Dirk avant ce décompte"),
                        minimum=0,
                        default=0,
                    ),
                ),
                help=_(
                    "À deux joueurs seulement : les tuiles de Dirk, par type. Il marque mais ne gagne jamais."
                ),
            ),
        )

    def sheet_shared_fields(self, variants, players):
        fields = self.shared_fields(variants)
        return fields if players == PHANTOM_PLAYER_COUNT else tuple(f for f in fields if f.name != "dirk")

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

    @staticmethod
    def dirk(sheet) -> dict | None:
        """Dirk's tiles and points at a two-player table, when the sheet declares them; else None."""
        if len(sheet.players) != PHANTOM_PLAYER_COUNT:
            return None
        return sheet.shared.get("dirk")

    def validate_sheet(self, sheet, errors):
        if len(sheet.players) != PHANTOM_PLAYER_COUNT and sheet.shared.get("dirk"):
            if any(sheet.shared["dirk"].values()):
                add_error(errors, "dirk", text(_("Dirk ne joue qu'à deux joueurs.")))
        dirk = self.dirk(sheet)
        if dirk is not None:
            for key, name, _colour, count in BUILDINGS:
                total = dirk[key] + sum(player["buildings"][key] for player in sheet.players)
                if total > count:
                    add_error(
                        errors,
                        f"dirk.{key}",
                        text(
                            _(
                                "La boîte ne contient que %(supply)s tuiles %(building)s : les joueurs et Dirk "
                                "en déclarent %(total)s."
                            ),
                            supply=count,
                            total=total,
                            building=Label(name),
                        ),
                    )
            if sheet.shared["round"] == 1 and dirk["previous"]:
                add_error(
                    errors,
                    "dirk.previous",
                    text(_("Avant le premier décompte, personne n'a encore marqué de points.")),
                )
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

    def majorities(self, sheet) -> dict:
        """Points per building type and builder (the players' names, and DIRK_KEY at two players)."""
        table = POINTS_BY_ROUND[sheet.shared["round"]]
        dirk = self.dirk(sheet)
        won = {}
        for key, _name, _colour, _count in BUILDINGS:
            counts: dict = {p["name"]: p["buildings"][key] for p in sheet.players}
            if dirk is not None:
                counts[DIRK_KEY] = dirk[key]
            won[key] = places(counts, table[key])
        return won

    def dirk_points(self, sheet) -> tuple[int, int] | None:
        """(points this round, total) of Dirk, or None without him."""
        dirk = self.dirk(sheet)
        if dirk is None:
            return None
        won = self.majorities(sheet)
        this_round = sum(won[key].get(DIRK_KEY, 0) for key, *_rest in BUILDINGS)
        return this_round, this_round + dirk["previous"]

    def breakdowns(self, sheet):
        won = self.majorities(sheet)
        return [
            {
                **{key: won[key].get(player["name"], 0) for key, _name, _colour, _count in BUILDINGS},
                "wall": POINTS_PER_WALL_SEGMENT * player["wall"],
                "previous": player["previous"],
            }
            for player in sheet.players
        ]

    def ranking(self, scored, sheet):
        ranking = self._players_ranking(scored, sheet)
        dirk = self.dirk_points(sheet)
        if dirk is None:
            return ranking
        # Dirk scores but is no player: he is never ranked, never a winner, even when ahead.
        this_round, total = dirk
        about_dirk = text(
            _(
                "Dirk, le bâtisseur imaginaire, marque %(round_points)s à ce décompte (%(total)s au total) ; "
                "il ne peut pas gagner."
            ),
            round_points=points(this_round),
            total=points(total),
        )
        return Ranking(
            ranking.ranks, ranking.winners, ranking.decided_by, Sentences([ranking.explanation, about_dirk])
        )

    def _players_ranking(self, scored, sheet):
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
