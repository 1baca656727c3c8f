"""Les colons de Catane (Klaus Teuber, Kosmos), 3–4 players — rules from seed 002 (PMB notice,
« Préparation », « Construction variable », « Phase initiale », « Points de victoire », « Fin du jeu »).

« Colonie 1 point. Ville 2 points. Carte Route la plus longue 2 points. Carte Chevalier le plus
puissant 2 points. Cartes Point de victoire 1 point. […] Celui qui atteint pendant son tour 10 points
de victoire gagne la partie. »
« Chaque joueur dispose au maximum de 15 routes, 5 colonies et 4 villes. »
« S'il n'y a que 3 joueurs, les pions rouges sont écartés. »
"""

from rules.engine import (
    Boolean,
    Component,
    GameRules,
    Integer,
    Label,
    Line,
    NameList,
    Piece,
    Pieces,
    PlayerRange,
    Sentences,
    Setup,
    SetupResult,
    Way,
    _,
    add_error,
    rank,
    refuse_over_supply,
    text,
)

# « Chaque joueur choisit une couleur et reçoit 5 colonies, 4 villes et 15 routes »
SETTLEMENTS_PER_PLAYER = 5
CITIES_PER_PLAYER = 4
ROADS_PER_PLAYER = 15
# « S'il n'y a que 3 joueurs, les pions rouges sont écartés. »
COLOURS_REMOVED = {3: ["rouge"], 4: []}
COLOUR_PIECES = {"rouge": _("les pions rouges")}

# « Points de victoire : Colonie 1 point. Ville 2 points. Cartes Route la plus longue 2 points.
# Cartes Chevalier le plus puissant 2 points. Cartes Point de victoire 1 point. »
SETTLEMENT_POINTS = 1
CITY_POINTS = 2
LONGEST_ROAD_POINTS = 2
LARGEST_ARMY_POINTS = 2
VP_CARD_POINTS = 1
WINNING_POINTS = 10  # « Celui qui atteint pendant son tour 10 points de victoire gagne la partie. »

# « Placez 5 hexagones terrestres en ligne verticale. Ajoutez à droite et à gauche deux lignes verticales
# de 4 hexagones. Complétez enfin par deux lignes de 3 hexagones. »
LAND_COLUMNS = (3, 4, 5, 4, 3)
LAND_HEXES = sum(LAND_COLUMNS)
# The 19 land hexes by terrain and what each produces (game-facts; the seed names the terrains).
TERRAINS = (
    (_("Forêts (bois)"), 4),
    (_("Pâturages (laine)"), 4),
    (_("Champs (blé)"), 4),
    (_("Collines (argile)"), 3),
    (_("Montagnes (minerai)"), 3),
    (_("Désert"), 1),
)
# « 37 hexagones » = 19 land + 18 sea; harbours go round the island « en laissant une place libre entre
# chacun », so 9 of the 18 sea hexes carry a harbour, « un port spécialisé pour chaque type de matières
# premières » (5 at 2:1) and 4 simple ones (3:1).
SEA_HEXES = 18
HARBOURS = 9
SPECIALISED_HARBOURS = 5
NUMBER_TOKENS = 18  # « 18 jetons numérotés », lettered A to R on the back
RESOURCE_CARDS = 95
DEVELOPMENT_CARDS = 25
VP_CARDS_IN_GAME = 5  # game-facts: 14 knights, 6 progress (« chacune existe en deux exemplaires »), 5 points


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 37 hexagones […] ; 95 cartes Matières premières ; 25 cartes Développement ; 4 fiches Coûts de
# construction ; 2 cartes spéciales ; […] pour chacune des 4 couleurs, 4 villes, 5 colonies et 15
# routes ; 18 jetons numérotés ; 1 pion Brigand ; 2 dés ». Three players leave one colour in the box
# (library ruling: the incomplete one). The island, the bank and the development deck are whole in
# every game; a building-costs card is an aid (not needed).
def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {
        "land_hexes": LAND_HEXES,
        "harbour_hexes": HARBOURS,
        "sea_hexes": SEA_HEXES - HARBOURS,
        "number_tokens": NUMBER_TOKENS,
        "robber": 1,
        "dice": 2,
        "resource_cards": RESOURCE_CARDS,
        "development_cards": DEVELOPMENT_CARDS,
        "special_cards": 2,
        "settlements": SETTLEMENTS_PER_PLAYER * players,
        "cities": CITIES_PER_PLAYER * players,
        "roads": ROADS_PER_PLAYER * players,
    }


COMPONENTS = Pieces(
    pieces=(
        Piece("land_hexes", _("Hexagones de terrain"), LAND_HEXES),
        Piece("harbour_hexes", _("Hexagones maritimes avec port"), HARBOURS),
        Piece("sea_hexes", _("Hexagones maritimes sans port"), SEA_HEXES - HARBOURS),
        Piece(
            "hexes",
            _("Hexagones (terrains et mer)"),
            LAND_HEXES + SEA_HEXES,
            covers=("land_hexes", "harbour_hexes", "sea_hexes"),
        ),
        Piece("number_tokens", _("Jetons numérotés"), NUMBER_TOKENS),
        Piece("robber", _("Brigand"), 1),
        Piece("dice", _("Dés"), 2),
        Piece("resource_cards", _("Cartes Matières premières"), RESOURCE_CARDS),
        Piece("development_cards", _("Cartes Développement"), DEVELOPMENT_CARDS),
        Piece("special_cards", _("Cartes spéciales"), 2),
        Piece("cost_cards", _("Fiches Coûts de construction"), 4),
        Piece("settlements", _("Colonies"), 4 * SETTLEMENTS_PER_PLAYER, per_colour=True),
        Piece("cities", _("Villes"), 4 * CITIES_PER_PLAYER, per_colour=True),
        Piece("roads", _("Routes"), 4 * ROADS_PER_PLAYER, per_colour=True),
    ),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
    colours=4,
)


class Catane(GameRules):
    slug = "catane"
    title = "Les colons de Catane"
    players = PlayerRange(3, 4)
    rulings = (
        text(
            _(
                "La partie s'arrête dès qu'un joueur atteint %(points)s points pendant son tour : la feuille "
                "n'accepte donc qu'un seul joueur à %(points)s points ou plus, et n'annonce aucun vainqueur tant "
                "que personne ne les a atteints."
            ),
            points=WINNING_POINTS,
        ),
        text(
            _(
                "Chaque carte spéciale (Route la plus longue, Chevalier le plus puissant) a au plus un "
                "détenteur ; en cas d'égalité elle reste de côté et ne rapporte rien."
            )
        ),
        text(
            _(
                "Les cartes Point de victoire comptent dans le total, qu'elles aient déjà été retournées ou "
                "non : le joueur les retourne quand elles le font gagner."
            )
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        removed = COLOURS_REMOVED[n]
        components = [
            *(Component(text(terrain), count) for terrain, count in TERRAINS),
            Component(text(_("Hexagones maritimes avec port")), HARBOURS),
            Component(text(_("Hexagones maritimes sans port")), SEA_HEXES - HARBOURS),
            Component(text(_("Jetons numérotés")), NUMBER_TOKENS),
            Component(text(_("Brigand")), 1),
            Component(text(_("Dés")), 2),
            Component(text(_("Cartes Matières premières")), RESOURCE_CARDS),
            Component(text(_("Cartes Développement")), DEVELOPMENT_CARDS),
            Component(text(_("Cartes spéciales")), 2),
            Component(text(_("Fiches Coûts de construction")), n),
            Component(text(_("Colonies")), SETTLEMENTS_PER_PLAYER * n),
            Component(text(_("Villes")), CITIES_PER_PLAYER * n),
            Component(text(_("Routes")), ROADS_PER_PLAYER * n),
        ]
        steps = [
            text(
                _(
                    "Première partie : la règle conseille de reproduire l'île de départ pour débutants du "
                    "livret, où chaque joueur a déjà 2 colonies et 2 routes. Sinon, construisez l'île au "
                    "hasard comme suit."
                )
            ),
            text(
                _(
                    "Séparez les %(land)s hexagones terrestres des %(sea)s maritimes. Mélangez les terrains face "
                    "cachée et posez-les face visible en lignes verticales de %(columns)s hexagones."
                ),
                land=LAND_HEXES,
                sea=SEA_HEXES,
                columns=", ".join(str(count) for count in LAND_COLUMNS),
            ),
            text(
                _(
                    "Disposez les %(harbours)s hexagones Port autour de l'île en laissant une place libre entre "
                    "chacun, chaque symbole Port touchant 2 croisements, puis complétez avec les %(plain)s "
                    "hexagones maritimes sans port."
                ),
                harbours=HARBOURS,
                plain=SEA_HEXES - HARBOURS,
            ),
            text(
                _(
                    "Posez les %(tokens)s jetons numérotés côté lettre, dans l'ordre alphabétique, en partant "
                    "d'un hexagone de la côte et en tournant vers le centre dans le sens inverse des aiguilles "
                    "d'une montre, sans jeton sur le désert ; puis retournez-les côté chiffre. Le brigand va "
                    "sur le désert."
                ),
                tokens=NUMBER_TOKENS,
            ),
        ]
        pieces = text(
            _(
                "Chaque joueur choisit une couleur et reçoit %(settlements)s colonies, %(cities)s "
                "villes, %(roads)s routes et une fiche Coûts de construction."
            ),
            settlements=SETTLEMENTS_PER_PLAYER,
            cities=CITIES_PER_PLAYER,
            roads=ROADS_PER_PLAYER,
        )
        if removed:
            colours = NameList([Label(COLOUR_PIECES[colour]) for colour in removed])
            set_aside = text(_("À %(players)s joueurs, écartez %(colours)s."), players=n, colours=colours)
            pieces = Sentences([set_aside, pieces])
        steps.append(pieces)
        steps += [
            text(
                _(
                    "Triez les %(resources)s cartes Matières premières par type, faces visibles ; mélangez les "
                    "%(development)s cartes Développement en une pioche face cachée ; posez les 2 cartes "
                    "spéciales et les dés à côté du plateau."
                ),
                resources=RESOURCE_CARDS,
                development=DEVELOPMENT_CARDS,
            ),
            text(
                _(
                    "Phase initiale, 1er tour : dans le sens des aiguilles d'une montre, chaque joueur pose 1 "
                    "colonie sur un croisement libre puis 1 route qui la touche, en respectant la règle de "
                    "distance (les 3 croisements voisins restent libres)."
                )
            ),
            text(
                _(
                    "2e tour, dans le sens inverse (le dernier joueur commence) : chacun pose sa 2e colonie et "
                    "sa 2e route, puis prend une carte Matière première pour chaque terrain qui touche cette "
                    "2e colonie."
                )
            ),
            text(
                _(
                    "Le dernier à avoir posé sa 2e colonie commence la partie en lançant les dés. Le premier à "
                    "%(points)s points de victoire pendant son tour gagne."
                ),
                points=WINNING_POINTS,
            ),
        ]
        return SetupResult(
            components=components,
            steps=steps,
            values={
                "settlements_per_player": SETTLEMENTS_PER_PLAYER,
                "cities_per_player": CITIES_PER_PLAYER,
                "roads_per_player": ROADS_PER_PLAYER,
                "land_hexes": LAND_HEXES,
                "number_tokens": NUMBER_TOKENS,
                "colours_removed": list(removed),
            },
        )

    def player_fields(self, variants):
        return (
            Integer("settlements", _("Colonies"), minimum=0, maximum=SETTLEMENTS_PER_PLAYER),
            Integer("cities", _("Villes"), minimum=0, maximum=CITIES_PER_PLAYER, default=0),
            Boolean("longest_road", _("Route la plus longue")),
            Boolean("largest_army", _("Chevalier le plus puissant")),
            Integer(
                "vp_cards", _("Cartes Point de victoire"), minimum=0, maximum=VP_CARDS_IN_GAME, default=0
            ),
        )

    def lines(self, variants):
        return (
            Line("settlements", _("Colonies")),
            Line("cities", _("Villes")),
            Line("longest_road", _("Route la plus longue")),
            Line("largest_army", _("Chevalier le plus puissant")),
            Line("vp_cards", _("Cartes Point de victoire")),
        )

    def breakdown(self, player, sheet):
        return {
            "settlements": SETTLEMENT_POINTS * player["settlements"],
            "cities": CITY_POINTS * player["cities"],
            "longest_road": LONGEST_ROAD_POINTS if player["longest_road"] else 0,
            "largest_army": LARGEST_ARMY_POINTS if player["largest_army"] else 0,
            "vp_cards": VP_CARD_POINTS * player["vp_cards"],
        }

    def validate_sheet(self, sheet, errors):
        for card in ("longest_road", "largest_army"):
            refuse_over_supply(
                sheet, errors, card, 1, _("Cette carte spéciale n'a qu'un détenteur à la fois.")
            )
        refuse_over_supply(
            sheet,
            errors,
            "vp_cards",
            VP_CARDS_IN_GAME,
            _(
                "Le jeu ne compte que %(supply)s cartes Point de victoire ; les joueurs en déclarent %(total)s."
            ),
        )
        if errors:
            return
        reached = [
            player
            for player in sheet.players
            if sum(self.breakdown(player, sheet).values()) >= WINNING_POINTS
        ]
        if len(reached) > 1:
            add_error(
                errors,
                "players",
                text(
                    _(
                        "Deux joueurs ne peuvent pas avoir atteint %(points)s points : la partie s'arrête dès que le "
                        "premier les atteint pendant son tour."
                    ),
                    points=WINNING_POINTS,
                ),
            )

    def tie_break_rule(self, variants=frozenset()):
        # No tie can decide a game of Catane: the first to reach 10 points on their turn wins at once.
        return text(
            _("Le premier joueur qui atteint %(points)s points de victoire pendant son tour gagne aussitôt."),
            points=WINNING_POINTS,
        )

    def ranking(self, scored, sheet):
        return rank(
            scored,
            eligible=lambda player: player.total >= WINNING_POINTS,
            no_winner=text(
                _("Personne n'a encore %(points)s points de victoire : la partie continue."),
                points=WINNING_POINTS,
            ),
        )


RULES = Catane()
