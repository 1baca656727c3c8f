"""7 Wonders (Antoine Bauza, Repos Production), 2–7 players — rules from seed 004 (PMB notice
« 7 Wonders »: « Préparation », « Fin d'un âge », « Fin de partie », « Comptage des points » and
« Variante experte pour 2 joueurs »). Card counts: docs/game-facts.md (1st edition).

« Pour compter les points, procédez dans l'ordre suivant : 1. Conflits militaires 2. Contenu du
trésor 3. Merveille 4. Bâtiments civils 5. Bâtiments scientifiques 6. Bâtiments commerciaux
7. Guildes. » « Pour chaque lot de 3 pièces […] 1 point de victoire. » Science : « le gain correspond
au nombre de symboles élevé au carré » et « pour chaque groupe de 3 symboles différents, chaque joueur
marque 7 points de victoire ». « En cas d'égalité, le joueur qui possède le plus de pièces de monnaie
dans son trésor est le vainqueur. Une égalité sur les pièces n'est pas départagée. »

À 2 joueurs : « Les joueurs utilisent les mêmes cartes que dans la configuration à 3 joueurs (cartes
3+ seulement). […] un troisième plateau est mis en jeu […] (Cité franche). […] Chaque joueur reçoit
une main de 7 cartes et les 7 cartes restantes forment une pioche […]. Les joueurs et la Cité franche
reçoivent chacun 3 pièces de la banque. »
"""

from rules.engine import (
    Component,
    Criterion,
    GameRules,
    Group,
    Integer,
    Line,
    NameList,
    Piece,
    Pieces,
    PlayerRange,
    Setup,
    SetupResult,
    Way,
    _,
    best_with_wilds,
    complete_sets,
    text,
)

AGES = (1, 2, 3)
# « les jetons Victoire de valeur +1 sont utilisés à l'issue de l'âge I, +3 […] âge II, +5 […] âge III »
VICTORY_TOKENS = {1: 1, 2: 3, 3: 5}
DEFEAT_TOKEN = -1  # « les jetons Défaite valeur -1 sont utilisés à l'issue des 3 âges »


def conflict_tokens(age: int, shields: int, left: int, right: int) -> list[int]:
    """The Conflict tokens a city takes at the end of an age against its two neighbours.

    « si un joueur dispose d'un total supérieur à celui d'une cité voisine, il prend un jeton Victoire
    correspondant à l'âge écoulé […] inférieur […] un jeton Défaite […] égal […] aucun jeton. »
    """
    tokens = []
    for neighbour in (left, right):
        if shields > neighbour:
            tokens.append(VICTORY_TOKENS[age])
        elif shields < neighbour:
            tokens.append(DEFEAT_TOKEN)
    return tokens


# The military line's bounds: every conflict of the three ages lost, or every one won.
MILITARY_MIN = sum(sum(conflict_tokens(age, 0, 1, 1)) for age in AGES)
MILITARY_MAX = sum(sum(conflict_tokens(age, 1, 0, 0)) for age in AGES)

COINS_PER_POINT = 3  # « Pour chaque lot de 3 pièces […] 1 point de victoire »

SYMBOLS = (("tablet", _("Tablettes")), ("compass", _("Compas")), ("gear", _("Engrenages")))
SYMBOL_CARDS = 4  # « il existe 4 cartes vertes pour chaque symbole »
SET_POINTS = 7  # « Pour chaque groupe de 3 symboles différents […] 7 points de victoire »
# Babylone's wonder stage and the Scientists' Guild: « un symbole scientifique supplémentaire de son choix »
MAX_WILD = 2


def science_points(symbols: dict[str, int]) -> int:
    """Σ count² + 7 per group of three different symbols."""
    kinds = [slug for slug, _label in SYMBOLS]
    return sum(symbols.get(kind, 0) ** 2 for kind in kinds) + SET_POINTS * complete_sets(symbols, kinds)


def science_with_wilds(science: dict[str, int]) -> int:
    """The science line: each wild symbol counts as the symbol that scores most."""
    counts = {slug: science[slug] for slug, _label in SYMBOLS}
    best, _counts = best_with_wilds(
        counts, [slug for slug, _label in SYMBOLS], science["wild"], science_points
    )
    return best


HAND_SIZE = 7  # « toutes les cartes conservées doivent être distribuées […] (7 cartes par joueur) »
STARTING_COINS = 3  # « Chaque joueur débute la partie avec 3 pièces de valeur 1 »
GUILDS_IN_BOX = 10  # « écartez les 10 Guildes (cartes violettes) »
EXTRA_GUILDS = 2  # « le nombre de Guildes à conserver est égal au nombre de joueurs +2 »
TWO_PLAYER_DECK = 3  # « les mêmes cartes que dans la configuration à 3 joueurs (cartes 3+ seulement) »
TWO_PLAYER_CARDS = 2  # « la carte Frontière et la carte Cité franche »


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 7 plateaux Merveille […] 49 cartes âge I, 49 cartes âge II, 50 cartes âge III (dont 10 Guildes) ;
# 46 jetons Conflit ; 24 pièces de monnaie de valeur 3 et 46 pièces de valeur 1 ; 1 carnet de scores
# […] ; 2 cartes « 2 joueurs » ». The age cards are marked 3+ to 7+ (7 per age for each mark above 3,
# 21 for 3+; age III: one of each mark's 7 is a Guild's place): a table of N uses the cards marked up to
# N+, all of them. « Chaque joueur débute la partie avec 3 pièces de valeur 1 »; the bank has no limit.
# Conflict tokens: at most a victory and a defeat token per pair of neighbours and per age.
AGE_CARDS_BY_MARK = {3: 21 * 2 + 16, 4: 20, 5: 20, 6: 20, 7: 20}


def pieces_needed(players: int, way: str) -> dict[str, int]:
    deck = TWO_PLAYER_DECK if players == 2 else players
    needs = {f"age_cards_{mark}": count for mark, count in AGE_CARDS_BY_MARK.items() if mark <= deck}
    needs |= {
        "wonder_boards": deck,
        "guilds": deck + EXTRA_GUILDS,
        "coins_1": STARTING_COINS * deck,
        "conflict_tokens": 2 * deck * len(AGES),
        "two_player_cards": TWO_PLAYER_CARDS if players == 2 else 0,
    }
    return needs


COMPONENTS = Pieces(
    pieces=(
        Piece("wonder_boards", _("Plateaux Merveille"), 7),
        *(
            Piece(
                f"age_cards_{mark}",
                text(_("Cartes Âge marquées %(mark)s+ (les trois âges, sans les Guildes)"), mark=mark),
                count,
            )
            for mark, count in AGE_CARDS_BY_MARK.items()
        ),
        Piece("guilds", _("Guildes (cartes violettes)"), GUILDS_IN_BOX),
        # The box's lines by age (« 49 cartes âge I »): a missing card of an age, its mark not noted.
        Piece(
            "age_1_cards",
            _("Cartes Âge I"),
            49,
            covers=tuple(f"age_cards_{mark}" for mark in AGE_CARDS_BY_MARK),
        ),
        Piece(
            "age_2_cards",
            _("Cartes Âge II"),
            49,
            covers=tuple(f"age_cards_{mark}" for mark in AGE_CARDS_BY_MARK),
        ),
        Piece(
            "age_3_cards",
            _("Cartes Âge III (dont les Guildes)"),
            50,
            covers=(*(f"age_cards_{mark}" for mark in AGE_CARDS_BY_MARK), "guilds"),
        ),
        Piece("wonder_cards", _("Cartes Merveille (pour tirer les plateaux)"), 7),
        Piece("coins_1", _("Pièces de valeur 1"), 46),
        Piece("coins_3", _("Pièces de valeur 3"), 24),
        Piece("conflict_tokens", _("Jetons Conflit"), 46),
        Piece("two_player_cards", _("Cartes Frontière et Cité franche"), TWO_PLAYER_CARDS),
    ),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
)


class SevenWonders(GameRules):
    slug = "7-wonders"
    title = "7 Wonders"
    players = PlayerRange(2, 7)
    rulings = (
        text(
            _(
                "À 2 joueurs, la mise en place suit la « variante experte pour 2 joueurs » de la notice, seule "
                "façon d'y jouer : Cité franche, carte Frontière et cartes de la configuration à 3 joueurs."
            )
        ),
        text(
            _(
                "La Cité franche n'est pas un joueur : elle ne figure pas sur la feuille de score et ne peut pas "
                "gagner (« le joueur qui obtient le plus de points de victoire remporte la partie »)."
            )
        ),
        text(
            _(
                "Un symbole scientifique « au choix » (Babylone, Guilde des scientifiques) est compté comme le "
                "symbole qui rapporte le plus de points."
            )
        ),
    )

    # --- setup ------------------------------------------------------------------------------------

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        two_players = n == 2
        deck_players = TWO_PLAYER_DECK if two_players else n  # whose card marks (3+ … N+) are used
        cities = TWO_PLAYER_DECK if two_players else n  # the Cité franche is a third city
        cards_per_age = HAND_SIZE * deck_players
        guilds = deck_players + EXTRA_GUILDS
        marks = NameList([f"{count}+" for count in range(3, deck_players + 1)])
        components = [
            Component(text(_("Plateaux Merveille")), cities),
            Component(text(_("Cartes Âge I")), cards_per_age),
            Component(text(_("Cartes Âge II")), cards_per_age),
            Component(text(_("Cartes Âge III sans les Guildes")), cards_per_age - guilds),
            Component(text(_("Guildes tirées au hasard")), guilds),
            Component(text(_("Pièces de valeur 1 au départ")), STARTING_COINS * cities),
        ]
        steps = [
            text(
                _(
                    "Pour chaque âge, gardez les cartes marquées %(marks)s et remettez les autres dans la boîte."
                ),
                marks=marks,
            ),
            text(
                _(
                    "Écartez les %(box)s Guildes, gardez-en %(guilds)s au hasard et en secret, et mélangez-les "
                    "aux autres cartes de l'âge III : chaque paquet d'âge compte %(cards)s cartes."
                ),
                box=GUILDS_IN_BOX,
                guilds=guilds,
                cards=cards_per_age,
            ),
        ]
        if two_players:
            components.append(Component(text(_("Cartes Frontière et Cité franche")), TWO_PLAYER_CARDS))
            steps += [
                text(
                    _(
                        "Donnez un plateau Merveille à chaque joueur et mettez-en un troisième en jeu à côté "
                        "d'eux : la Cité franche. Placez la carte Frontière entre les deux joueurs."
                    )
                ),
                text(
                    _(
                        "Chaque joueur et la Cité franche reçoivent %(coins)s pièces de valeur 1 ; les autres "
                        "pièces forment la banque, les jetons Conflit une réserve à côté."
                    ),
                    coins=STARTING_COINS,
                ),
                text(
                    _(
                        "À chaque âge, distribuez %(hand)s cartes à chaque joueur ; les %(pile)s cartes restantes "
                        "forment la pioche de la Cité franche, face cachée à droite de la carte Frontière."
                    ),
                    hand=HAND_SIZE,
                    pile=cards_per_age - 2 * HAND_SIZE,
                ),
                text(
                    _(
                        "La carte Cité franche va au joueur à gauche de la Cité franche au début des âges I et "
                        "III (à celui de droite à l'âge II) ; qui l'a en main joue aussi pour la Cité franche, "
                        "puis elle passe à l'autre joueur."
                    )
                ),
            ]
        else:
            steps += [
                text(
                    _(
                        "Distribuez une carte Merveille à chaque joueur : elle désigne son plateau et la face "
                        "utilisée (les faces A pour les premières parties)."
                    )
                ),
                text(
                    _(
                        "Chaque joueur reçoit %(coins)s pièces de valeur 1 ; les autres pièces forment la "
                        "banque, les jetons Conflit une réserve à côté."
                    ),
                    coins=STARTING_COINS,
                ),
                text(
                    _(
                        "Au début de chaque âge, distribuez toutes les cartes du paquet : %(hand)s par joueur."
                    ),
                    hand=HAND_SIZE,
                ),
            ]
        return SetupResult(
            components=components,
            steps=steps,
            values={
                "cards_per_age": cards_per_age,
                "guilds": guilds,
                "hand_size": HAND_SIZE,
                "starting_coins": STARTING_COINS,
            },
        )

    # --- score sheet --------------------------------------------------------------------------------

    def player_fields(self, variants):
        return (
            Integer(
                "military",
                _("Jetons Conflit (total)"),
                minimum=MILITARY_MIN,
                maximum=MILITARY_MAX,
                default=0,
            ),
            Integer("coins", _("Pièces dans le trésor"), default=0),
            Integer("wonder", _("Points de la Merveille"), default=0),
            Integer("civilian", _("Points des bâtiments civils (bleus)"), default=0),
            Group(
                "science",
                _("Symboles scientifiques (cartes vertes)"),
                fields=(
                    *(
                        Integer(slug, label, minimum=0, maximum=SYMBOL_CARDS, default=0)
                        for slug, label in SYMBOLS
                    ),
                    Integer(
                        "wild",
                        _("Symboles au choix (Babylone, Guilde des scientifiques)"),
                        minimum=0,
                        maximum=MAX_WILD,
                        default=0,
                    ),
                ),
            ),
            Integer("commercial", _("Points des bâtiments commerciaux (jaunes)"), default=0),
            Integer("guilds", _("Points des Guildes (violettes)"), default=0),
        )

    def lines(self, variants):
        return (
            Line("military", _("Conflits militaires")),
            Line("treasury", _("Trésor")),
            Line("wonder", _("Merveille")),
            Line("civilian", _("Bâtiments civils")),
            Line("science", _("Bâtiments scientifiques")),
            Line("commercial", _("Bâtiments commerciaux")),
            Line("guilds", _("Guildes")),
        )

    def tie_breakers(self, variants):
        return (Criterion("coins", _("les pièces du trésor"), key=lambda player: player.fields["coins"]),)

    def breakdown(self, player, sheet):
        return {
            "military": player["military"],
            "treasury": player["coins"] // COINS_PER_POINT,
            "wonder": player["wonder"],
            "civilian": player["civilian"],
            "science": science_with_wilds(player["science"]),
            "commercial": player["commercial"],
            "guilds": player["guilds"],
        }


RULES = SevenWonders()
