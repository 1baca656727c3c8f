"""Morgenland (Richard Breese, Hans im Glück), 3–5 players — rules from seed 002 (PMB notice,
« Préparation du jeu », « Objets magiques », « Le jeu complet », « Fin de jeu et gagnant »).

« Dans le jeu de base : Le jeu s'arrête dès qu'un joueur a gagné 3 objets magiques. On finit cependant
le tour. Des joueurs peuvent être déclarés gagnants ex aequo.
Dans le jeu complet : Le jeu s'arrête dès que le dernier objet magique a été acquis. Celui qui en a
gagné le plus gagne la partie. On départage des joueurs ex aequo en voyant celui qui possède le plus de
parchemins. En cas d'égalité persistante, on départage finalement sur le nombre de trésors possédés
par chacun. »
« Ce système pour départager des joueurs [le vizir de service] est valable pour toutes les situations
d'égalité, sauf pour celle de la victoire finale. »
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
    Variant,
    Way,
    _,
    add_error,
    ngettext,
    refuse_over_supply,
    text,
)

FULL = "full"

# « Une série est composée de 8 pions de valeur allant de 1 à 9. La valeur 3 n'existe pas. »
PAWN_VALUES = (1, 2, 4, 5, 6, 7, 8, 9)
PAWNS_PER_PLAYER = len(PAWN_VALUES)
GUARDIANS = 10  # « Les 10 gardiens du palais sont posés, faces cachées »
STARTING_TREASURES = 3  # « Chaque joueur choisit trois petits trésors »
# « Trois séries de 15 cartes trésors […] affichant 5, 4 ou 3 personnages. Selon le nombre de joueurs
# […] on prendra la quinzaine de cartes correspondantes »
TREASURE_CARDS_PER_SERIES = 15
ROOMS = 5  # « le palais du Sultan et ses 5 salles »
# « Il existe 6 objets magiques différents […]. Chaque objet magique existe en 5 exemplaires. »
MAGIC_OBJECT_KINDS = 6
COPIES_PER_KIND = 5
MAGIC_OBJECTS = MAGIC_OBJECT_KINDS * COPIES_PER_KIND
# Base game: « Ils sont posés en tas de 6 sur les 5 emplacements au-dessus des 5 salles du palais. »
BASE_OBJECTS_PER_PILE = 6
# Full game: « on prend pour chaque objet magique autant d'exemplaires que le nombre de joueurs […]. Chaque
# joueur reçoit immédiatement une lampe d'Aladin […]. Les autres objets magiques sont mélangés […] et mis
# en tas de 5. »
FULL_OBJECTS_PER_PILE = 5
MAGIC_CARDS = 21  # « 21 cartes sortilège »: the magic cards of the full game
WINNING_OBJECTS = 3  # base game: « le jeu est gagné dès qu'un joueur a obtenu trois objets magiques »


def magic_objects_in_play(players: int, full: bool) -> int:
    """Every copy in the base game; as many copies of each object as players in the full game."""
    return MAGIC_OBJECT_KINDS * players if full else MAGIC_OBJECTS


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 1 plateau ; 1 pion chameau ; 30 objets magiques (6 objets différents en 5 exemplaires) ; 45 cartes
# trésor (3 séries de 15, reconnaissables au verso qui montre 3, 4 ou 5 personnages) ; 1 sac de
# trésors ; 40 pions figurines (5 séries de 8) ; 10 gardiens du palais ; 21 cartes magiques ;
# paravents ». A table of N uses the treasure series of N; the full game as many copies of each
# object as players and the magic cards.
def pieces_needed(players: int, way: str) -> dict[str, int]:
    full = way == FULL
    return {
        "board": 1,
        "camel": 1,
        "magic_objects": magic_objects_in_play(players, full),
        f"treasure_cards_{players}": TREASURE_CARDS_PER_SERIES,
        "pawns": PAWNS_PER_PLAYER * players,
        "guardians": GUARDIANS,
        "treasure_bag": 1,  # « Chaque joueur choisit trois petits trésors » in it
        "magic_cards": MAGIC_CARDS if full else 0,
        "screens": players,
    }


COMPONENTS = Pieces(
    pieces=(
        Piece("board", _("Plateau"), 1),
        Piece("camel", _("Chameau"), 1),
        Piece("magic_objects", _("Objets magiques"), MAGIC_OBJECTS),
        *(
            Piece(
                f"treasure_cards_{count}",
                text(_("Cartes trésor, série à %(count)s joueurs"), count=count),
                TREASURE_CARDS_PER_SERIES,
            )
            for count in (3, 4, 5)
        ),
        Piece(
            "treasure_cards",
            _("Cartes trésor (les trois séries)"),
            3 * TREASURE_CARDS_PER_SERIES,
            covers=tuple(f"treasure_cards_{count}" for count in (3, 4, 5)),
        ),
        Piece("treasure_bag", _("Sac de trésors"), 1),
        Piece("pawns", _("Pions figurines (séries de 8)"), 5 * PAWNS_PER_PLAYER, per_colour=True),
        Piece("guardians", _("Gardiens du palais"), GUARDIANS),
        Piece("magic_cards", _("Cartes magiques"), MAGIC_CARDS),
        Piece("screens", _("Paravents"), 5),
    ),
    ways=(Way("", _("jeu de base")), Way(FULL, _("jeu complet"), query={"variants": FULL})),
    needs=pieces_needed,
    colours=5,
)


class Morgenland(GameRules):
    slug = "morgenland"
    title = "Morgenland"
    players = PlayerRange(3, 5)
    variants = (
        Variant(
            FULL,
            _("Jeu complet"),
            _(
                "Objets magiques à pouvoirs, lampe d'Aladin pour chacun, cartes magiques, cases de la tente "
                "d'Aladin et du Djinn ; égalités départagées par les parchemins puis les trésors."
            ),
        ),
    )
    rulings = (
        text(
            _(
                "Jeu de base : à la fin du tour, le joueur qui a le plus d'objets magiques gagne ; plusieurs "
                "joueurs à égalité sont tous vainqueurs. Le vizir de service ne départage jamais la victoire "
                "finale."
            )
        ),
        text(
            _(
                "Jeu complet : comptez tous les objets magiques possédés, lampe d'Aladin du départ comprise "
                "(chacun en a reçu une, cela ne change aucun classement) ; un parchemin est l'un de ces objets."
            )
        ),
        text(
            _(
                "Les trésors du départage se comptent en valeur : un grand trésor vaut trois petits. Si "
                "l'égalité persiste après les trésors, la victoire est partagée."
            )
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        n = setup.players
        full = FULL in setup.variants
        objects = magic_objects_in_play(n, full)
        if full:
            piles, per_pile, lamps = n, FULL_OBJECTS_PER_PILE, n
        else:
            piles, per_pile, lamps = ROOMS, BASE_OBJECTS_PER_PILE, 0
        components = [
            Component(text(_("Plateau")), 1),
            Component(text(_("Paravents")), n),
            Component(text(_("Pions (série de 8 par joueur)")), PAWNS_PER_PLAYER * n),
            Component(text(_("Gardiens du palais")), GUARDIANS),
            Component(text(_("Chameau")), 1),
            Component(text(_("Cartes trésor (la série du nombre de joueurs)")), TREASURE_CARDS_PER_SERIES),
            Component(text(_("Petits trésors de départ")), STARTING_TREASURES * n),
            Component(text(_("Objets magiques")), objects),
        ]
        if full:
            components.append(Component(text(_("Cartes magiques")), MAGIC_CARDS))
        steps = [
            text(
                _(
                    "Chaque joueur prend un paravent et une série de %(pawns)s pions d'une même couleur "
                    "(valeurs %(values)s : le 3 n'existe pas), et choisit %(treasures)s petits trésors dans la "
                    "réserve, à gauche du plateau près de la première grotte."
                ),
                pawns=PAWNS_PER_PLAYER,
                values=", ".join(str(value) for value in PAWN_VALUES),
                treasures=STARTING_TREASURES,
            ),
            text(
                _(
                    "Mélangez les %(guardians)s gardiens du palais, faces cachées, près de la case du portail."
                ),
                guardians=GUARDIANS,
            ),
            text(
                _(
                    "Le plus jeune joueur reçoit le chameau : il est le vizir de service, qui départage les égalités."
                )
            ),
        ]
        if full:
            steps += [
                text(
                    _(
                        "Prenez %(players)s exemplaires de chacun des %(kinds)s objets magiques et rangez les "
                        "autres dans la boîte. Chaque joueur reçoit une lampe d'Aladin derrière son paravent."
                    ),
                    players=n,
                    kinds=MAGIC_OBJECT_KINDS,
                ),
                text(
                    _(
                        "Mélangez les %(objects)s autres objets magiques, faces cachées, en %(piles)s tas de "
                        "%(per_pile)s posés au-dessus des salles du palais, de gauche à droite."
                    ),
                    objects=piles * per_pile,
                    piles=piles,
                    per_pile=per_pile,
                ),
            ]
            unused = ROOMS - n
            if unused:
                steps.append(
                    text(
                        ngettext(
                            "%(rooms)s salle du palais reste inutilisée pendant la partie.",
                            "%(rooms)s salles du palais restent inutilisées pendant la partie.",
                            unused,
                        ),
                        rooms=unused,
                    )
                )
        else:
            steps.append(
                text(
                    _(
                        "Mélangez les %(objects)s objets magiques, faces cachées, en %(piles)s tas de %(per_pile)s "
                        "posés au-dessus des %(piles)s salles du palais."
                    ),
                    objects=objects,
                    piles=piles,
                    per_pile=per_pile,
                )
            )
        steps.append(
            text(
                _(
                    "Prenez la série de %(cards)s cartes trésor dont le verso montre %(players)s personnages, "
                    "mélangez-la et posez-la en talon face cachée au-dessus de la réserve ; rangez les autres "
                    "séries."
                ),
                cards=TREASURE_CARDS_PER_SERIES,
                players=n,
            )
        )
        if full:
            steps.append(
                text(
                    _(
                        "Mélangez les %(cards)s cartes magiques en un talon face cachée. Au début de chaque round, "
                        "le vizir retourne le premier objet magique de chaque tas."
                    ),
                    cards=MAGIC_CARDS,
                )
            )
            steps.append(text(_("La partie s'arrête dès que le dernier objet magique a été acquis.")))
        else:
            steps.append(
                text(
                    _(
                        "Jeu de base : les cartes magiques et les cases de la tente d'Aladin et du Djinn ne "
                        "servent pas. La partie s'arrête à la fin du tour où un joueur obtient %(objects)s "
                        "objets magiques."
                    ),
                    objects=WINNING_OBJECTS,
                )
            )
        steps.append(
            text(
                _(
                    "Au début de chaque round, le vizir retourne la première carte trésor et garnit les échelons "
                    "des grottes comme elle l'indique."
                )
            )
        )
        values = {
            "pawns_per_player": PAWNS_PER_PLAYER,
            "guardians": GUARDIANS,
            "treasure_card_series": n,
            "piles": piles,
            "objects_per_pile": per_pile,
        }
        if full:
            values["lamps"] = lamps
            values["rooms_unused"] = ROOMS - n
        return SetupResult(components=components, steps=steps, values=values)

    def player_fields(self, variants):
        fields = (Integer("magic_objects", _("Objets magiques"), minimum=0),)
        if FULL in variants:
            fields += (
                Integer("parchments", _("Parchemins"), minimum=0),
                Integer("treasures", _("Trésors (en petits trésors)"), minimum=0),
            )
        return fields

    def lines(self, variants):
        return (Line("magic_objects", _("Objets magiques")),)

    def tie_breakers(self, variants):
        if FULL not in variants:
            return ()
        return (
            Criterion("parchments", _("les parchemins"), key=lambda player: player.fields["parchments"]),
            Criterion("treasures", _("les trésors"), key=lambda player: player.fields["treasures"]),
        )

    def breakdown(self, player, sheet):
        return {"magic_objects": player["magic_objects"]}

    def validate_sheet(self, sheet, errors):
        n = len(sheet.players)
        full = FULL in sheet.variants
        refuse_over_supply(
            sheet,
            errors,
            "magic_objects",
            magic_objects_in_play(n, full),
            _("La partie ne compte que %(supply)s objets magiques ; les joueurs en déclarent %(total)s."),
        )
        if not full:
            return
        parchments = sum(player["parchments"] for player in sheet.players)
        for index, player in enumerate(sheet.players):
            if player["parchments"] > player["magic_objects"]:
                add_error(
                    errors,
                    f"players.{index}.parchments",
                    text(
                        _("Un parchemin est un objet magique : pas plus de parchemins que d'objets magiques.")
                    ),
                )
            elif parchments > n and player["parchments"]:
                # « on prend pour chaque objet magique autant d'exemplaires que le nombre de joueurs »
                add_error(
                    errors,
                    f"players.{index}.parchments",
                    text(
                        _(
                            "La partie ne compte que %(count)s parchemins ; les joueurs en déclarent %(total)s."
                        ),
                        count=n,
                        total=parchments,
                    ),
                )


RULES = Morgenland()
