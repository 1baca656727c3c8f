"""K2 (Adam Kałuża, Rebel 2010; French edition distributed by Iello), 1–5 players.

Rules from seed 003 (BGA help page « Gamehelpk2 », 2020-11-27):

« Les 2 grimpeurs de chaque joueur vont gagner des points en fonction de l'altitude maximale qu'ils
auront atteinte, et à condition de survivre. » « Après la montée on déplace son marqueur de points sur
le drapeau correspondant (on ne fait pas la somme des points). Quand on redescend on laisse le
marqueur à son niveau atteint. » « Lors de la phase de contrôle un grimpeur meurt […] s'il a un niveau
d'acclimatation inférieur à 1. Les points de victoire de ce grimpeur sont perdus, il ne compte que pour
1 seul point. La perte des 2 grimpeurs entraîne l'élimination du joueur. » « Chaque joueur choisit 3
cartes parmi les 6 » ; « Total : 18 cartes » ; « Piocher 3 cartes pour en avoir de nouveau 6 en main ».

The seed does not say how long the expedition lasts nor what the box holds; from the publisher's
rules (BGA English help, bdml.free.fr and muchachitaludica.com component lists): 18 days, six weather
tiles per season of three days each, per colour 4 climber pawns (2 on the mountain, 2 on the score
track), 2 tents, 2 acclimatisation markers, a player board and 18 cards; 20 risk tokens. The summit
is worth 10 points.
"""

from rules.engine import (
    Boolean,
    Choice,
    Component,
    GameRules,
    Group,
    Integer,
    Label,
    Line,
    ListOf,
    Piece,
    Pieces,
    PlayerRange,
    Ranking,
    Sentences,
    Setup,
    SetupResult,
    Way,
    _,
    ngettext,
    rank,
    text,
)

CLIMBERS = 2
# « il ne compte que pour 1 seul point »
DEAD_CLIMBER_POINTS = 1
SUMMIT_POINTS = 10
# « Total: 18 cartes »; « Chaque joueur choisit 3 cartes parmi les 6 »
CARDS_PER_PLAYER = 18
HAND_SIZE = 6
CARDS_PER_DAY = 3
# Publisher's rules: an 18-day expedition, each weather tile forecasting three days.
DAYS = 18
DAYS_PER_WEATHER_TILE = 3
WEATHER_TILES = DAYS // DAYS_PER_WEATHER_TILE
PAWNS_PER_PLAYER = 2 * CLIMBERS  # each climber and its score marker
TENTS_PER_PLAYER = 2  # « Chaque grimpeur dispose d'une et une seule tente »
RISK_TOKENS = 20

SEASONS = (("summer", _("Été")), ("winter", _("Hiver")))
SEASON_TILES = {"summer": _("d'été"), "winter": _("d'hiver")}  # « les tuiles météo d'été », « d'hiver »


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 1 plateau double face ; 12 tuiles météo (6 d'été, 6 d'hiver) […] et 1 marqueur météo ; 1 marqueur
# de premier joueur ; par couleur (5 couleurs) : 4 pions grimpeur […], 2 tentes, 2 marqueurs
# d'acclimatation, 1 plateau individuel et 18 cartes ; 20 jetons de risque ; 5 cartes de sauvetage
# (variante familiale) ». A season uses its 6 weather tiles; the risk tokens are drawn, all needed.
def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {
        "board": 1,
        f"weather_{way}": WEATHER_TILES,
        "weather_marker": 1,
        "pawns": PAWNS_PER_PLAYER * players,
        "tents": TENTS_PER_PLAYER * players,
        "acclimatisation_markers": CLIMBERS * players,
        "player_boards": players,
        "cards": CARDS_PER_PLAYER * players,
        "risk_tokens": RISK_TOKENS,
    }


COMPONENTS = Pieces(
    pieces=(
        Piece("board", _("Plateau double face"), 1),
        Piece("weather_summer", _("Tuiles météo d'été"), WEATHER_TILES),
        Piece("weather_winter", _("Tuiles météo d'hiver"), WEATHER_TILES),
        Piece(
            "weather_tiles",
            _("Tuiles météo (été et hiver)"),
            2 * WEATHER_TILES,
            covers=("weather_summer", "weather_winter"),
        ),
        Piece("weather_marker", _("Marqueur météo"), 1),
        Piece("first_player_marker", _("Marqueur de premier joueur"), 1),
        Piece("pawns", _("Pions grimpeur (4 par couleur)"), 5 * PAWNS_PER_PLAYER, per_colour=True),
        Piece("tents", _("Tentes"), 5 * TENTS_PER_PLAYER, per_colour=True),
        Piece("acclimatisation_markers", _("Marqueurs d'acclimatation"), 5 * CLIMBERS, per_colour=True),
        Piece("player_boards", _("Plateaux individuels"), 5, per_colour=True),
        Piece("cards", _("Cartes (18 par couleur)"), 5 * CARDS_PER_PLAYER, per_colour=True),
        Piece("risk_tokens", _("Jetons de risque"), RISK_TOKENS),
        Piece("rescue_cards", _("Cartes de sauvetage"), 5),
    ),
    ways=(
        Way("summer", _("saison d'été"), query={"season": "summer"}),
        Way("winter", _("saison d'hiver"), query={"season": "winter"}),
    ),
    needs=pieces_needed,
    colours=5,
)


class K2(GameRules):
    slug = "k2"
    title = "K2"
    players = PlayerRange(1, 5)
    setup_options = (
        Choice(
            "season",
            _("Saison"),
            choices=SEASONS,
            default="summer",
            help=_("L'été pour une première partie ; en hiver, la météo gêne aussi les déplacements."),
        ),
    )
    rulings = (
        text(
            _(
                "Un grimpeur mort compte 1 point, quelle que soit l'altitude qu'il avait atteinte ; "
                "un grimpeur vivant compte le drapeau le plus haut qu'il a atteint (10 au sommet)."
            )
        ),
        text(
            _(
                "Un joueur dont les deux grimpeurs sont morts est éliminé : ses 2 points sont affichés, "
                "mais il est classé après tous les autres et ne peut pas gagner."
            )
        ),
        text(
            _(
                "La page d'aide ne prévoit aucun départage : les joueurs à égalité se partagent la victoire. "
                "En solo, la feuille donne le total de l'expédition."
            )
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        season = setup.options["season"]
        weather = text(
            _(
                "Mélangez les %(tiles)s tuiles météo %(season)s et empilez-les face cachée près du plateau : "
                "chacune annonce %(days)s jours, soit %(total)s jours d'expédition."
            ),
            tiles=WEATHER_TILES,
            season=Label(SEASON_TILES[season]),
            days=DAYS_PER_WEATHER_TILE,
            total=DAYS,
        )
        if season == "winter":
            weather = Sentences(
                [weather, text(_("En hiver, la météo peut aussi ralentir les déplacements."))]
            )
        return SetupResult(
            components=[
                Component(
                    text(_("Pions grimpeur (2 sur la montagne, 2 sur la piste de score par joueur)")),
                    PAWNS_PER_PLAYER * n,
                ),
                Component(text(_("Tentes")), TENTS_PER_PLAYER * n),
                Component(text(_("Marqueurs d'acclimatation")), CLIMBERS * n),
                Component(text(_("Plateaux individuels")), n),
                Component(text(_("Cartes (18 par joueur)")), CARDS_PER_PLAYER * n),
                Component(text(_("Tuiles météo de la saison")), WEATHER_TILES),
                Component(text(_("Jetons de risque")), RISK_TOKENS),
            ],
            steps=[
                text(
                    _(
                        "Choisissez la face du plateau : la face facile est conseillée pour une première partie."
                    )
                ),
                weather,
                text(
                    _(
                        "Chacun des %(players)s joueurs prend dans sa couleur %(pawns)s pions grimpeur, "
                        "%(tents)s tentes, %(markers)s marqueurs d'acclimatation, un plateau individuel et "
                        "ses %(cards)s cartes."
                    ),
                    players=n,
                    pawns=PAWNS_PER_PLAYER,
                    tents=TENTS_PER_PLAYER,
                    markers=CLIMBERS,
                    cards=CARDS_PER_PLAYER,
                ),
                text(
                    _(
                        "Posez %(climbers)s grimpeurs au camp de base et les %(climbers)s autres sur la première "
                        "case de la piste de score."
                    ),
                    climbers=CLIMBERS,
                ),
                text(
                    _("Mélangez les %(risk)s jetons de risque face cachée près du plateau."), risk=RISK_TOKENS
                ),
                text(
                    _(
                        "Chaque joueur mélange ses cartes et en pioche %(hand)s ; chaque jour, il en joue "
                        "%(per_day)s puis complète sa main à %(hand)s."
                    ),
                    hand=HAND_SIZE,
                    per_day=CARDS_PER_DAY,
                ),
            ],
            values={
                "days": DAYS,
                "cards_per_player": CARDS_PER_PLAYER,
                "hand_size": HAND_SIZE,
                "cards_per_day": CARDS_PER_DAY,
            },
        )

    def player_fields(self, variants):
        climber = Group(
            "climber",
            _("Grimpeur"),
            fields=(
                Integer(
                    "points",
                    _("Drapeau le plus haut atteint"),
                    maximum=SUMMIT_POINTS,
                    default=0,
                ),
                Boolean("alive", _("Vivant")),
            ),
        )
        return (
            ListOf(
                "climbers",
                _("Grimpeurs"),
                item=climber,
                min_items=CLIMBERS,
                max_items=CLIMBERS,
                help=_(
                    "Les deux grimpeurs du joueur : points du drapeau le plus haut atteint, vivant ou non."
                ),
            ),
        )

    def lines(self, variants):
        return (
            Line("climber_1", _("Premier grimpeur")),
            Line("climber_2", _("Second grimpeur")),
        )

    @staticmethod
    def climber_points(climber) -> int:
        return climber["points"] if climber["alive"] else DEAD_CLIMBER_POINTS

    def breakdown(self, player, sheet):
        first, second = player["climbers"]
        return {"climber_1": self.climber_points(first), "climber_2": self.climber_points(second)}

    def eliminated(self, player, sheet):
        # « La perte des 2 grimpeurs entraîne l'élimination du joueur »
        return not any(climber["alive"] for climber in player["climbers"])

    def ranking(self, scored, sheet):
        ranking = rank(
            scored,
            no_winner=text(_("Tous les grimpeurs sont morts : personne ne remporte la partie.")),
        )
        if len(scored) == 1 and ranking.winners:
            solo = scored[0]
            return Ranking(
                ranking.ranks,
                ranking.winners,
                None,
                text(
                    ngettext(
                        "%(name)s termine l'expédition avec %(total)s point.",
                        "%(name)s termine l'expédition avec %(total)s points.",
                        solo.total,
                    ),
                    name=solo.name,
                    total=solo.total,
                ),
            )
        return ranking


RULES = K2()
