"""L'or des Dragons (Bruno Faidutti, Blue Games), 3–6 players — rules from seed 001 (PMB notice,
« Préparation », « Décompte des points », « Règle avancée » and the FAQ).

« a) les pièces d'argent valent 1 point chacune. b) les pièces d'or valent 3 points chacune. c) les
objets magiques (jetons rouges) valent 1 point chacun. d) Le diamant noir rapporte 7 points. e) Dans
chacune des cinq autres couleurs […] le joueur ayant le plus de jetons marque 15 points (à 3 joueurs),
12 points (à 4 ou 5 joueurs), ou 10 points (à 6 joueurs). S'il y a plusieurs ex aequo sur une couleur,
ils marquent tous la totalité des points. »

Règle avancée : « d) le diamant noir rapporte 15 points. Le diamant noir est maudit, et le joueur
l'ayant ne peut marquer de points aux paragraphes e) et f). Si ce joueur est seul à avoir le plus grand
nombre de jetons d'une couleur, personne ne marquera de points pour cette couleur […]. e) […] 12 points
(à 3 joueurs), 10 points (à 4 ou 5 joueurs), ou 8 points (à 6 joueurs). S'il y a deux premiers ex
aequo sur une couleur, ils marquent chacun la moitié des points (6, 5 ou 4). S'il y a trois premiers
ex aequo ou plus, ils ne marquent rien. f) Si un joueur a au moins un pion de chacun des cinq types de
pierres précieuses, il marque 5 points. »

FAQ : « Mon idée était 5 points pour un joueur ayant au moins une pierre de chaque couleur […].
Néanmoins, le jeu semble finalement un peu mieux équilibré avec 5 points par set. Donc, à vous de
choisir, mais mettez-vous d'accord avant de commencer la partie. »
"""

from rules.engine import (
    Component,
    GameRules,
    Integer,
    Line,
    Piece,
    Pieces,
    PlayerRange,
    Setup,
    SetupResult,
    Table,
    Tie,
    Variant,
    Way,
    _,
    add_error,
    complete_sets,
    majority,
    refuse_over_supply,
    text,
)

ADVANCED = "advanced"
SET_PER_COLLECTION = "set_per_collection"

# Tokens worth a fixed number of points each (paragraphs a–c, the same in both rules).
VALUED = (("silver", 1), ("gold", 3), ("red", 1))
# « d) Le diamant noir rapporte 7 points » ; règle avancée : « le diamant noir rapporte 15 points ».
BLACK_POINTS = 7
ADVANCED_BLACK_POINTS = 15
# « les pierres précieuses vertes, bleues, violettes et jaunes ainsi que les diamants blancs »
GEMS = ("green", "blue", "purple", "yellow", "white")
# Majority points by number of players (e): base « 15 / 12 / 10 », règle avancée « 12 / 10 / 8 ».
MAJORITY = Table({3: 15, 4: 12, 5: 12, 6: 10})
ADVANCED_MAJORITY = Table({3: 12, 4: 10, 5: 10, 6: 8})
# « f) […] il marque 5 points » ; the FAQ's option: 5 points per complete set.
SET_BONUS = 5

TOKEN_LABELS = {
    "silver": _("Pièces d'argent"),
    "gold": _("Pièces d'or"),
    "red": _("Objets magiques (jetons rouges)"),
    "black": _("Diamant noir"),
    "green": _("Pierres vertes"),
    "blue": _("Pierres bleues"),
    "purple": _("Pierres violettes"),
    "yellow": _("Pierres jaunes"),
    "white": _("Diamants blancs"),
}
TOKENS = tuple(TOKEN_LABELS)
# « 126 jetons trésors en bois […] 35 jetons argentés »; the split of the others is in game-facts.
IN_THE_BAG = {
    "silver": 35,
    "gold": 20,
    "red": 16,
    "black": 1,
    "green": 12,
    "blue": 12,
    "purple": 12,
    "yellow": 12,
    "white": 6,
}

# « 18 cartes dragons et 1 carte foire, 17 cartes objets magiques, […] 6 écrans, 24 cartes aventuriers
# (6 × 4 cartes) […], 1 sablier »
DRAGON_CARDS = 18
DRAGONS_FACE_UP = 4  # « On retourne les quatre premières cartes Dragons »
MAGIC_ITEM_CARDS = 17
# « un jeu de cartes aventurier d'une même couleur (deux guerriers, un voleur, un magicien) »
ADVENTURERS_PER_PLAYER = 4


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 18 cartes Dragon et 1 carte Foire ; 17 cartes Objet magique (règle avancée seulement) ; 1 sac ;
# 6 écrans ; 24 cartes Aventurier (6 couleurs × 4 cartes) ; 126 jetons trésor ; 1 sablier ». The
# tokens are drawn from the bag and counted for majorities: every one is needed. The bag itself is
# any opaque bag (library ruling: not needed).
def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {
        "screens": players,
        "adventurer_cards": ADVENTURERS_PER_PLAYER * players,
        "dragon_cards": DRAGON_CARDS,
        "fair_card": 1,
        "hourglass": 1,
        **{f"tokens_{token}": IN_THE_BAG[token] for token in TOKENS},
        "magic_item_cards": MAGIC_ITEM_CARDS if way == ADVANCED else 0,
    }


COMPONENTS = Pieces(
    pieces=(
        Piece("screens", _("Écrans"), 6),
        Piece("adventurer_cards", _("Cartes Aventurier"), 6 * ADVENTURERS_PER_PLAYER, per_colour=True),
        Piece("dragon_cards", _("Cartes Dragon"), DRAGON_CARDS),
        Piece("fair_card", _("Carte Foire"), 1),
        Piece("bag", _("Sac en tissu"), 1),
        Piece("hourglass", _("Sablier"), 1),
        *(Piece(f"tokens_{token}", TOKEN_LABELS[token], IN_THE_BAG[token]) for token in TOKENS),
        Piece(
            "treasure_tokens",
            _("Jetons trésor (toutes sortes)"),
            sum(IN_THE_BAG.values()),
            covers=tuple(f"tokens_{token}" for token in TOKENS),
        ),
        Piece("magic_item_cards", _("Cartes Objet magique"), MAGIC_ITEM_CARDS),
    ),
    ways=(
        Way("", _("règle de base")),
        Way(ADVANCED, _("règle avancée"), query={"variants": ADVANCED}),
    ),
    needs=pieces_needed,
    colours=6,
)


class LOrDesDragons(GameRules):
    slug = "l-or-des-dragons"
    title = "L'or des Dragons"
    players = PlayerRange(3, 6)
    variants = (
        Variant(
            ADVANCED,
            _("Règle avancée"),
            _(
                "Cartes Objet magique ; diamant noir maudit à 15 points ; majorités à 12, 10 ou 8 points, "
                "partagées à deux, perdues à trois ; 5 points pour une collection des cinq pierres."
            ),
        ),
        Variant(
            SET_PER_COLLECTION,
            _("5 points par collection"),
            _(
                "Option de la FAQ pour la règle avancée : 5 points pour chaque collection complète des cinq pierres."
            ),
        ),
    )
    rulings = (
        text(
            _(
                "Règle avancée, porteur du diamant noir à égalité avec un seul autre joueur pour une couleur : "
                "l'autre joueur marque la moitié des points (6, 5 ou 4) et la part du porteur est perdue. "
                "La malédiction retire ses points au porteur, pas ses jetons : ils comptent toujours pour "
                "désigner les premiers ex aequo (la règle le montre quand le porteur seul en tête annule la "
                "couleur). À trois premiers ex aequo ou plus, porteur compris, personne ne marque."
            )
        ),
        text(
            _(
                "La collection se compose des cinq pierres des majorités : verte, bleue, violette, jaune et "
                "diamant blanc. Le diamant noir n'en fait pas partie."
            )
        ),
        text(
            _(
                "L'option « 5 points par collection » de la FAQ modifie le bonus de collection, qui n'existe "
                "que dans la règle avancée : elle se choisit avec la règle avancée."
            )
        ),
        text(_("Une couleur que personne ne possède ne rapporte de points à personne.")),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        advanced = ADVANCED in setup.variants
        majority_points = (ADVANCED_MAJORITY if advanced else MAJORITY)[n]
        magic_items_dealt = n if advanced else 0
        dragons_left = DRAGON_CARDS - DRAGONS_FACE_UP
        components = [
            Component(text(_("Écrans")), n),
            Component(
                text(_("Cartes Aventurier (deux guerriers, un voleur, un magicien par joueur)")),
                ADVENTURERS_PER_PLAYER * n,
            ),
            Component(text(_("Cartes Dragon")), DRAGON_CARDS),
            Component(text(_("Carte Foire")), 1),
            Component(text(_("Sac en tissu")), 1),
            Component(text(_("Sablier")), 1),
            *(Component(text(TOKEN_LABELS[token]), IN_THE_BAG[token]) for token in TOKENS),
        ]
        if advanced:
            components.append(Component(text(_("Cartes Objet magique")), MAGIC_ITEM_CARDS))
        steps = [
            text(
                _(
                    "Chaque joueur prend les %(cards)s cartes Aventurier d'une même couleur (deux guerriers, "
                    "un voleur, un magicien), les pose en rangée faces visibles devant lui, et prend un écran "
                    "derrière lequel il cachera son butin."
                ),
                cards=ADVENTURERS_PER_PLAYER,
            ),
            text(
                _(
                    "Mélangez les %(dragons)s cartes Dragon en une pioche face cachée au centre de la table, "
                    "puis retournez les %(face_up)s premières côte à côte : ce sont les dragons vulnérables."
                ),
                dragons=DRAGON_CARDS,
                face_up=DRAGONS_FACE_UP,
            ),
            text(
                _(
                    "Mettez les %(tokens)s jetons trésor dans le sac. Sur chaque dragon vulnérable, placez au "
                    "hasard autant de jetons que le nombre inscrit en bas à gauche de sa carte."
                ),
                tokens=sum(IN_THE_BAG.values()),
            ),
            text(
                _(
                    "Glissez la carte Foire au milieu des %(left)s cartes Dragon restantes : %(half)s cartes "
                    "au-dessus, %(half)s en dessous."
                ),
                left=dragons_left,
                half=dragons_left // 2,
            ),
        ]
        if advanced:
            steps.append(
                text(
                    _(
                        "Règle avancée : mélangez les %(cards)s cartes Objet magique et distribuez-en une face "
                        "cachée à chaque joueur (%(dealt)s en tout) ; chacun la regarde et la pose face cachée "
                        "à côté de ses cartes Aventurier. Les %(left)s autres forment une pioche face cachée à "
                        "côté de celle des dragons."
                    ),
                    cards=MAGIC_ITEM_CARDS,
                    dealt=magic_items_dealt,
                    left=MAGIC_ITEM_CARDS - magic_items_dealt,
                )
            )
        steps.append(
            text(_("Tirez au sort le premier joueur ; on joue dans le sens des aiguilles d'une montre."))
        )
        steps.append(
            text(
                _(
                    "À %(players)s joueurs, la majorité d'une couleur rapporte %(points)s points en fin de "
                    "partie."
                ),
                players=n,
                points=majority_points,
            )
        )
        return SetupResult(
            components=components,
            steps=steps,
            values={
                "majority_points": majority_points,
                "magic_items_dealt": magic_items_dealt,
                "adventurers_per_player": ADVENTURERS_PER_PLAYER,
                "dragons_face_up": DRAGONS_FACE_UP,
            },
        )

    def validate_variants(self, variants, errors):
        if SET_PER_COLLECTION in variants and ADVANCED not in variants:
            add_error(
                errors,
                "variants",
                text(
                    _(
                        "L'option « 5 points par collection » modifie le bonus de la règle avancée : "
                        "choisissez aussi la règle avancée."
                    )
                ),
            )

    def player_fields(self, variants):
        return tuple(
            Integer(token, TOKEN_LABELS[token], minimum=0, maximum=IN_THE_BAG[token], default=0)
            for token in TOKENS
        )

    def lines(self, variants):
        return (
            *(Line(token, TOKEN_LABELS[token]) for token in TOKENS),
            Line("set", _("Bonus de collection")),
        )

    def validate_sheet(self, sheet, errors):
        for token in TOKENS:
            if token == "black":
                message = _("Il n'y a qu'un diamant noir dans le jeu : un seul joueur peut l'avoir.")
            else:
                message = _(
                    "Le jeu ne contient que %(supply)s jetons de ce type ; les joueurs en déclarent %(total)s."
                )
            refuse_over_supply(sheet, errors, token, IN_THE_BAG[token], message)

    def breakdowns(self, sheet):
        n = len(sheet.players)
        advanced = ADVANCED in sheet.variants
        rows = {
            player["name"]: {
                **{token: player[token] * points for token, points in VALUED},
                "black": player["black"] * (ADVANCED_BLACK_POINTS if advanced else BLACK_POINTS),
            }
            for player in sheet.players
        }
        # « le joueur l'ayant ne peut marquer de points aux paragraphes e) et f) »: his tokens still
        # count to find who has the most, only his own points are lost (see the rulings).
        cursed = {player["name"] for player in sheet.players if advanced and player["black"]}
        points = (ADVANCED_MAJORITY if advanced else MAJORITY)[n]
        tie = Tie.HALF_IF_TWO if advanced else Tie.ALL_SCORE
        for gem in GEMS:
            won = majority({player["name"]: player[gem] for player in sheet.players}, points, tie=tie)
            for name, row in rows.items():
                row[gem] = 0 if name in cursed else won.get(name, 0)
        for player in sheet.players:
            name = player["name"]
            if not advanced or name in cursed:
                sets = 0
            elif SET_PER_COLLECTION in sheet.variants:
                sets = complete_sets(player, GEMS)
            else:
                sets = 1 if all(player[gem] >= 1 for gem in GEMS) else 0
            rows[name]["set"] = SET_BONUS * sets
        return [rows[player["name"]] for player in sheet.players]


RULES = LOrDesDragons()
