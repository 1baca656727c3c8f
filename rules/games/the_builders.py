"""The Builders: Middle Ages — Les Bâtisseurs : Moyen Âge (Frédéric Henry, Bombyx 2013), 2–4 players.

Rules from seed 003 (BGA help page « Gamehelpthebuilders », 2025-10-16):

« Obtenir le plus de points (les couronnes = Points des bâtiments + 1 points par tranche de 10 écus
restants) en fin de partie. En cas d'égalité, le vainqueur est celui avec le plus de points de victoire
obtenus par ses bâtiments. S'il y a encore égalité, celui qui a le plus de pièces l'emporte. »
« Quand un joueur a atteint ou dépassé 17 points avec ses bâtiments, le tour en cours est le dernier. »
« Le maître d'oeuvre (le joueur) dispose de 3 actions obligatoires à chaque tour. Il peut en acheter
davantage (5 écus par action supplémentaire). »

The seed says nothing of the setup; it follows the publisher's rules (English edition translated on
entretenimientodigital.net; geekcastradio.com and bibliojeu.net reviews): each player gets a random
apprentice and 10 écus (1 gold coin of 5 and 5 silver coins), five buildings and five workers are
laid face up, a random first player takes the first-player card.
"""

from rules.engine import (
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
    Way,
    _,
    text,
)

# « 3 actions obligatoires à chaque tour »
ACTIONS_PER_TURN = 3
# « Il peut en acheter davantage (5 écus par action supplémentaire) »
EXTRA_ACTION_COST = 5
# « Quand un joueur a atteint ou dépassé 17 points avec ses bâtiments, le tour en cours est le dernier. »
END_TRIGGER_POINTS = 17
# « 1 points par tranche de 10 écus restants »
COINS_PER_POINT = 10

# Publisher's setup: 10 écus each, paid as one gold coin (5) and five silver coins (1).
STARTING_COINS = 10
GOLD_COIN_VALUE = 5
GOLD_COINS_EACH = 1
SILVER_COINS_EACH = STARTING_COINS - GOLD_COINS_EACH * GOLD_COIN_VALUE
FACE_UP_BUILDINGS = 5
FACE_UP_WORKERS = 5


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « les cartes Bâtiment […] ; 42 cartes Ouvrier ; 40 pièces : 25 pièces d'argent (1 écu) et 15 pièces
# d'or (5 écus) ; 1 carte Premier joueur » (the publisher's box: 47 Bâtiment cards, docs/game-facts.md).
# Both decks are drawn: every card is needed. The coins: what the players receive at setup (« 10 écus
# chacun ») — the bank changes money with what is left (library ruling).
BUILDING_CARDS = 47  # 39 buildings and 8 machines (docs/game-facts.md)
WORKER_CARDS = 42


def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {
        "building_cards": BUILDING_CARDS,
        "worker_cards": WORKER_CARDS,
        "gold_coins": GOLD_COINS_EACH * players,
        "silver_coins": SILVER_COINS_EACH * players,
        "first_player_card": 1,
    }


COMPONENTS = Pieces(
    pieces=(
        Piece("building_cards", _("Cartes Bâtiment"), BUILDING_CARDS),
        Piece("worker_cards", _("Cartes Ouvrier"), WORKER_CARDS),
        Piece("gold_coins", _("Pièces d'or (5 écus)"), 15),
        Piece("silver_coins", _("Pièces d'argent (1 écu)"), 25),
        Piece("first_player_card", _("Carte Premier joueur"), 1),
    ),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
)


class TheBuilders(GameRules):
    slug = "the-builders"
    title = "Les Bâtisseurs : Moyen Âge"
    players = PlayerRange(2, 4)
    rulings = (
        text(
            _(
                "« Celui qui a le plus de pièces l'emporte » : le dernier départage compte la valeur des écus "
                "restants (une pièce d'or vaut 5 écus), pas le nombre de pièces."
            )
        ),
        text(
            _(
                "Les écus ne rapportent qu'un point par tranche complète de 10 : 19 écus valent 1 point, "
                "le reste ne sert qu'au départage."
            )
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        return SetupResult(
            components=[
                Component(text(_("Cartes Bâtiment face visible")), FACE_UP_BUILDINGS),
                Component(text(_("Cartes Ouvrier face visible")), FACE_UP_WORKERS),
                Component(text(_("Apprentis distribués (un par joueur)")), n),
                Component(text(_("Pièces d'or (5 écus) distribuées")), GOLD_COINS_EACH * n),
                Component(text(_("Pièces d'argent (1 écu) distribuées")), SILVER_COINS_EACH * n),
                Component(text(_("Carte Premier joueur")), 1),
            ],
            steps=[
                text(
                    _(
                        "Mélangez les cartes Bâtiment (machines comprises), posez la pioche face chantier visible "
                        "et alignez les %(buildings)s premières cartes à côté."
                    ),
                    buildings=FACE_UP_BUILDINGS,
                ),
                text(
                    _(
                        "Séparez les apprentis des cartes Ouvrier et donnez-en un au hasard à chacun des "
                        "%(players)s joueurs ; remélangez les autres dans la pioche Ouvrier."
                    ),
                    players=n,
                ),
                text(
                    _("Alignez les %(workers)s premières cartes Ouvrier sous la rangée des Bâtiments."),
                    workers=FACE_UP_WORKERS,
                ),
                text(
                    _(
                        "Les pièces forment la banque ; chaque joueur reçoit %(coins)s écus "
                        "(%(gold)s pièce d'or et %(silver)s pièces d'argent)."
                    ),
                    coins=STARTING_COINS,
                    gold=GOLD_COINS_EACH,
                    silver=SILVER_COINS_EACH,
                ),
                text(_("Tirez au sort le premier joueur : il prend la carte Premier joueur.")),
                text(
                    _(
                        "À son tour, chacun a %(actions)s actions ; chaque action supplémentaire coûte "
                        "%(cost)s écus. Dès qu'un joueur atteint %(end)s points de bâtiments, le tour en cours "
                        "est le dernier."
                    ),
                    actions=ACTIONS_PER_TURN,
                    cost=EXTRA_ACTION_COST,
                    end=END_TRIGGER_POINTS,
                ),
            ],
            values={
                "actions_per_turn": ACTIONS_PER_TURN,
                "extra_action_cost": EXTRA_ACTION_COST,
                "end_trigger_points": END_TRIGGER_POINTS,
            },
        )

    def player_fields(self, variants):
        return (
            Integer("building_points", _("Points des bâtiments (couronnes)"), default=0),
            Integer("coins", _("Écus restants"), default=0),
        )

    def lines(self, variants):
        return (
            Line("building_points", _("Points des bâtiments")),
            Line("coins", _("Écus (1 point par tranche de 10)")),
        )

    def tie_breakers(self, variants):
        return (
            Criterion(
                "building_points",
                _("les points des bâtiments"),
                key=lambda player: player.fields["building_points"],
            ),
            Criterion("coins", _("les écus restants"), key=lambda player: player.fields["coins"]),
        )

    def breakdown(self, player, sheet):
        return {
            "building_points": player["building_points"],
            "coins": player["coins"] // COINS_PER_POINT,
        }


RULES = TheBuilders()
