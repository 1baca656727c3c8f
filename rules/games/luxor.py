"""Luxor (Rüdiger Dorn, Queen Games 2018), 2–4 players.

Rules from seed 003 (BGA help page « Gamehelpluxor », 2021-01-17), « Score final » :

« 1. Positions finales des aventuriers : Marquez la valeur inscrite sur le mur à côté de l'aventurier
dans le scarabée (de 0 à 13). 2. Sarcophage : Marquez les points indiqués sur le ou les sarcophages où
se trouvent vos aventuriers (3 ou 5). 3. Clefs : Gagnez 1 point par clef encore en votre possession.
4. Scarabées : marquez les points indiqués derrière les scarabées en votre possession (valeurs de 1 à
4). 5. Tuiles trésor : Marquez les points indiqués sur chaque tuile […]. 6. Série de cartes trésor :
[…] Une série consiste en 1 vase, 1 bijou et 1 statue. Les jokers peuvent remplacer n'importe quel type
de trésor. » — table « Série de trésors » : 3, 7, 12, 18, 25, 33, 42, 52 points pour 1 … 8+ séries.

A set holds at most two jokers (later revision of the same BGA page and the publisher's rules). The
box (publisher's component list): 30 treasures (10 vases, 10 jewels, 10 statues), 18 jokers, 20 keys,
22 scarabs, two sarcophagi (5 points for the first adventurer into the tomb, 3 for the second),
5 adventurers per colour.
"""

from collections import Counter

from rules.engine import (
    Component,
    GameRules,
    Group,
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
    complete_sets,
    refuse_over_supply,
    text,
)

TREASURES = ("vase", "jewel", "statue")
TREASURES_PER_KIND = 10
JOKERS = 18
# « une série ne peut contenir plus de 2 jokers » (later BGA revision, publisher's rules)
JOKERS_PER_SET = 2
# Table « Série de trésors » : points for 1 … 7 complete sets, and 8 or more.
SET_POINTS = Table((0, 3, 7, 12, 18, 25, 33, 42, 52), clamp=True)

ADVENTURERS_PER_PLAYER = 5
STARTING_ADVENTURERS = 2  # on the stairs; the other three lie in front of the Anubis statues
ANUBIS_STATUES = 3
HAND_SIZE = 5  # « Piocher une carte (en la mettant au milieu des 4 cartes de la main) »
# « de 0 à 13 » per adventurer
MAX_POSITION = 13
KEYS = 20
# 22 scarabs: four worth 1, eight worth 2, six worth 3, four worth 4 (« valeurs de 1 à 4 »).
SCARAB_TILES = {1: 4, 2: 8, 3: 6, 4: 4}
SCARAB_POINTS = sum(value * count for value, count in SCARAB_TILES.items())
# « (3 ou 5) » : one sarcophagus of each value in the tomb.
SARCOPHAGI = (5, 3)
# What a player's sarcophagus points can be made of: none, one of them, or both.
SARCOPHAGI_HELD = {0: (), 3: (3,), 5: (5,), 8: (5, 3)}


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 1 plateau de jeu, 1 plateau Horus et 1 plateau de score ; 31 cartes de départ et 24 cartes Horus ;
# 30 tuiles Trésor […] et 18 tuiles Trésor joker ; 14 tuiles Temple, 6 tuiles Horus et 6 tuiles
# Osiris ; 20 clés et 22 scarabées ; 2 sarcophages ; 20 aventuriers (5 par couleur), 4 marqueurs de
# score, 4 marqueurs de joueur, 1 marqueur de premier joueur et 1 dé ». The shared supply and the card
# piles are whole in every game (library ruling, the help page does not split them by table size).
SHARED_PIECES = (
    ("boards", _("Plateaux (jeu, Horus, score)"), 3),
    ("starting_cards", _("Cartes de départ"), 31),
    ("horus_cards", _("Cartes Horus"), 24),
    ("treasure_tiles", _("Tuiles Trésor"), TREASURES_PER_KIND * len(TREASURES)),
    ("joker_tiles", _("Tuiles Trésor joker"), JOKERS),
    ("temple_tiles", _("Tuiles Temple, Horus et Osiris"), 26),
    ("keys", _("Clés"), KEYS),
    ("scarabs", _("Tuiles Scarabée"), sum(SCARAB_TILES.values())),
    ("sarcophagi", _("Sarcophages"), len(SARCOPHAGI)),
    ("die", _("Dé"), 1),
)


def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {
        **{key: count for key, _name, count in SHARED_PIECES},
        "adventurers": ADVENTURERS_PER_PLAYER * players,
        "score_markers": players,
        "player_markers": players,
    }


COMPONENTS = Pieces(
    pieces=(
        *(Piece(key, name, count) for key, name, count in SHARED_PIECES),
        Piece("adventurers", _("Aventuriers (5 par couleur)"), 4 * ADVENTURERS_PER_PLAYER, per_colour=True),
        Piece("score_markers", _("Marqueurs de score"), 4, per_colour=True),
        Piece("player_markers", _("Marqueurs de joueur"), 4, per_colour=True),
        Piece("first_player_marker", _("Marqueur de premier joueur"), 1),
    ),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
    colours=4,
)


class Luxor(GameRules):
    slug = "luxor"
    title = "Luxor"
    players = PlayerRange(2, 4)
    rulings = (
        text(
            _(
                "Un joker remplace n'importe quel trésor, mais une série contient au plus 2 jokers : "
                "il faut au moins un vrai trésor par série (3 jokers seuls ne font pas de série)."
            )
        ),
        text(
            _(
                "Les sarcophages valent 5 points (premier aventurier entré dans la chambre funéraire) et "
                "3 points (le second) : un joueur en marque 0, 3, 5 ou 8."
            )
        ),
        text(
            _("La page d'aide ne prévoit aucun départage : les joueurs à égalité se partagent la victoire.")
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        return SetupResult(
            components=[
                Component(text(_("Aventuriers (5 par joueur)")), ADVENTURERS_PER_PLAYER * n),
                Component(text(_("Marqueurs de score")), n),
                Component(text(_("Sarcophages (5 et 3 points)")), len(SARCOPHAGI)),
                Component(text(_("Clés")), KEYS),
                Component(text(_("Tuiles Scarabée")), sum(SCARAB_TILES.values())),
                Component(text(_("Tuiles Trésor joker")), JOKERS),
                Component(text(_("Cartes en main par joueur")), HAND_SIZE),
            ],
            steps=[
                text(
                    _(
                        "Posez les %(sarcophagi)s sarcophages dans la chambre funéraire, au centre du plateau ; "
                        "le plateau Horus et le plateau de score à côté."
                    ),
                    sarcophagi=len(SARCOPHAGI),
                ),
                text(
                    _(
                        "Sur le plateau Horus : les cartes Horus en trois piles par niveau, les tuiles Scarabée "
                        "mélangées face cachée, les %(jokers)s tuiles Trésor joker et les %(keys)s clés."
                    ),
                    jokers=JOKERS,
                    keys=KEYS,
                ),
                text(
                    _(
                        "Mélangez les tuiles Osiris, Trésor et Temple et posez-les sur leurs emplacements du parcours."
                    )
                ),
                text(
                    _(
                        "Chacun des %(players)s joueurs prend %(adventurers)s aventuriers de sa couleur : "
                        "%(start)s sur l'escalier de départ, un couché devant chacune des %(anubis)s statues "
                        "d'Anubis ; son marqueur de score au début de la piste."
                    ),
                    players=n,
                    adventurers=ADVENTURERS_PER_PLAYER,
                    start=STARTING_ADVENTURERS,
                    anubis=ANUBIS_STATUES,
                ),
                text(
                    _(
                        "Mélangez les cartes de départ : chaque joueur en reçoit %(hand)s, qu'il garde dans "
                        "l'ordre ; il ne jouera que celle de gauche ou celle de droite, et glissera chaque "
                        "nouvelle carte au milieu."
                    ),
                    hand=HAND_SIZE,
                ),
            ],
            values={
                "adventurers_per_player": ADVENTURERS_PER_PLAYER,
                "starting_adventurers": STARTING_ADVENTURERS,
                "hand_size": HAND_SIZE,
            },
        )

    def player_fields(self, variants):
        return (
            Integer(
                "positions",
                _("Positions finales des aventuriers"),
                maximum=MAX_POSITION * ADVENTURERS_PER_PLAYER,
                default=0,
                help=_(
                    "La somme des valeurs inscrites sur le mur à côté de chaque aventurier (0 à 13 chacun)."
                ),
            ),
            Integer("sarcophagi", _("Sarcophages"), maximum=sum(SARCOPHAGI), default=0),
            Integer("keys", _("Clés restantes"), maximum=KEYS, default=0),
            Integer("scarabs", _("Points des scarabées"), maximum=SCARAB_POINTS, default=0),
            Integer("treasure_tiles", _("Points des tuiles trésor"), default=0),
            Group(
                "cards",
                _("Trésors pour les séries"),
                fields=(
                    Integer("vase", _("Vases"), maximum=TREASURES_PER_KIND, default=0),
                    Integer("jewel", _("Bijoux"), maximum=TREASURES_PER_KIND, default=0),
                    Integer("statue", _("Statues"), maximum=TREASURES_PER_KIND, default=0),
                    Integer("joker", _("Jokers"), maximum=JOKERS, default=0),
                ),
            ),
        )

    def lines(self, variants):
        return (
            Line("positions", _("Positions des aventuriers")),
            Line("sarcophagi", _("Sarcophages")),
            Line("keys", _("Clés")),
            Line("scarabs", _("Scarabées")),
            Line("treasure_tiles", _("Tuiles trésor")),
            Line("sets", _("Séries de trésors")),
        )

    @staticmethod
    def sets(cards: dict[str, int]) -> int:
        """The most complete sets (vase, jewel, statue) the cards make, at most two jokers in each."""
        return complete_sets(cards, TREASURES, wild=cards["joker"], wild_per_set=JOKERS_PER_SET)

    def validate_sheet(self, sheet, errors):
        held: Counter[int] = Counter()
        for player in sheet.players:
            held.update(SARCOPHAGI_HELD.get(player["sarcophagi"], ()))
        for index, player in enumerate(sheet.players):
            path = f"players.{index}.sarcophagi"
            if player["sarcophagi"] not in SARCOPHAGI_HELD:
                add_error(
                    errors,
                    path,
                    text(_("Les sarcophages valent 5 et 3 points : indiquez 0, 3, 5 ou 8.")),
                )
                continue
            for value in SARCOPHAGI_HELD[player["sarcophagi"]]:
                if held[value] > 1:
                    add_error(
                        errors,
                        path,
                        text(
                            _(
                                "Il n'y a qu'un sarcophage de %(value)s points : deux joueurs ne peuvent pas l'avoir."
                            ),
                            value=value,
                        ),
                    )
        supply = {**dict.fromkeys(TREASURES, TREASURES_PER_KIND), "joker": JOKERS}
        for kind, available in supply.items():
            refuse_over_supply(
                sheet,
                errors,
                f"cards.{kind}",
                available,
                _("Le jeu n'en contient que %(supply)s : les joueurs en ont trop à eux tous."),
            )

    def breakdown(self, player, sheet):
        return {
            "positions": player["positions"],
            "sarcophagi": player["sarcophagi"],
            "keys": player["keys"],
            "scarabs": player["scarabs"],
            "treasure_tiles": player["treasure_tiles"],
            "sets": SET_POINTS[self.sets(player["cards"])],
        }


RULES = Luxor()
