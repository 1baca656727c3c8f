"""La chasse aux monstres (Antoine Bauza, Le Scorpion Masqué), 1–5 players — rules from seed 004
(PMB notice « La chasse aux monstres »).

« La chasse aux monstres est un jeu coopératif. […] Les joueurs gagnent ou perdent ensemble. »
« Employez 10 cartes pour une partie courte (pour les plus jeunes), 15 cartes pour une partie moyenne
et les 20 cartes pour une partie longue. » « Sans les regarder, placez 10 tuiles jouet face cachée
[…]. Assemblez le monstre de couleur bleue avec les 3 tuiles de progression des monstres. »

Variantes — Jeu plus facile : « on laisse de côté les tuiles de progression […]. Cette variante se
prête également au jeu compétitif. Quand un joueur retourne le bon jouet, il garde la carte monstre
pour lui […]. À la fin de la partie, celui qui a le plus de cartes monstre gagne ! »
Jeu plus difficile : « Toutes les options suivantes renforcent le camp des monstres. Intégrez-les
progressivement. » Monstres en meute ; Monstres rapides (« On retire la tuile de progression des
monstres du milieu et on ne joue qu'avec les deux autres ») ; Chasseurs experts (2 tuiles à fond bleu
placées avec les autres tuiles).
"""

from rules.engine import (
    Choice,
    Component,
    GameRules,
    Integer,
    Label,
    Line,
    NameList,
    Piece,
    Pieces,
    PlayerRange,
    Setup,
    SetupResult,
    Variant,
    Way,
    _,
    add_error,
    text,
)

MONSTER_CARDS_IN_BOX = 20  # « 20 cartes monstres (avec un enfant dans son lit au verso) »
# « Employez 10 cartes pour une partie courte (pour les plus jeunes), 15 cartes pour une partie
# moyenne et les 20 cartes pour une partie longue. »
LENGTHS = (
    ("short", _("Courte (pour les plus jeunes)")),
    ("medium", _("Moyenne")),
    ("long", _("Longue")),
)
MONSTER_CARDS = {"short": 10, "medium": 15, "long": MONSTER_CARDS_IN_BOX}
TOY_TILES = 10  # « 10 tuiles jouet »
EXPERT_TILES = 2  # « 2 tuiles pour chasseurs experts (fond bleu) »
PROGRESSION_TILES = 3  # « 3 tuiles de progression des monstres (avec un côté rouge et un côté bleu) »
# Monstres rapides : « On retire la tuile de progression des monstres du milieu »
FAST_PROGRESSION_TILES = PROGRESSION_TILES - 1
MEMORY_SECONDS = 15  # « les joueurs disposent de 15 secondes pour les voir »
CUPBOARD_DISTANCE_CM = 15  # « Placez la carte placard à environ 15 cm du lit »

HARDER = ("pack", "fast", "expert")  # the options of « Jeu plus difficile »


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 20 cartes monstre ; 1 carte placard ; 10 tuiles jouet ; 3 tuiles de progression des monstres ; 2
# tuiles pour chasseurs experts ». « Employez 10 cartes pour une partie courte […], 15 cartes pour une
# partie moyenne et les 20 cartes pour une partie longue. » The easier game « laisse de côté les tuiles
# de progression »; the expert hunters add the 2 blue tiles (shown here with a short game).
def pieces_needed(players: int, way: str) -> dict[str, int]:
    length = way if way in MONSTER_CARDS else "short"
    return {
        "monster_cards": MONSTER_CARDS[length],
        "cupboard_card": 1,
        "toy_tiles": TOY_TILES,
        "progression_tiles": 0 if way == "easy" else PROGRESSION_TILES,
        "expert_tiles": EXPERT_TILES if way == "expert" else 0,
    }


COMPONENTS = Pieces(
    pieces=(
        Piece("monster_cards", _("Cartes monstre"), MONSTER_CARDS_IN_BOX),
        Piece("cupboard_card", _("Carte placard"), 1),
        Piece("toy_tiles", _("Tuiles jouet"), TOY_TILES),
        Piece("progression_tiles", _("Tuiles de progression des monstres"), PROGRESSION_TILES),
        Piece("expert_tiles", _("Tuiles chasseurs experts (fond bleu)"), EXPERT_TILES),
    ),
    ways=(
        Way("short", _("parties courtes"), query={"length": "short"}),
        Way("medium", _("parties moyennes"), query={"length": "medium"}),
        Way("long", _("parties longues"), query={"length": "long"}),
        Way("easy", _("jeu plus facile (parties courtes)"), query={"length": "short", "variants": "easy"}),
        Way(
            "expert",
            _("chasseurs experts (parties courtes)"),
            query={"length": "short", "variants": "expert"},
        ),
    ),
    needs=pieces_needed,
)


class LaChasseAuxMonstres(GameRules):
    slug = "la-chasse-aux-monstres"
    title = "La chasse aux monstres"
    players = PlayerRange(1, 5)
    variants = (
        Variant(
            "easy",
            _("Jeu plus facile"),
            _(
                "Sans tuiles de progression : un seul monstre à la fois, on ne peut pas perdre ; se joue aussi en compétition."
            ),
        ),
        Variant(
            "pack",
            _("Monstres en meute"),
            _("Tous les monstres autour du lit doivent être chassés d'un coup."),
        ),
        Variant(
            "fast",
            _("Monstres rapides"),
            _("Les jouets sont montrés au début ; un nouveau monstre apparaît après 2 erreurs au lieu de 3."),
        ),
        Variant(
            "expert",
            _("Chasseurs experts"),
            _(
                "Deux tuiles spéciales, le bas et le monstre caché sous une couverture, s'ajoutent aux jouets."
            ),
        ),
    )
    setup_options = (Choice("length", _("Durée de la partie"), choices=LENGTHS, default="medium"),)
    rulings = (
        text(
            _(
                "Le « Jeu plus facile » ne se combine avec aucune option du « Jeu plus difficile » : elles "
                "reposent toutes sur les tuiles de progression qu'il laisse de côté ou sur plusieurs monstres "
                "autour du lit. Les trois options du jeu plus difficile se cumulent (« intégrez-les "
                "progressivement »)."
            )
        ),
        text(
            _(
                "Monstres rapides avec chasseurs experts : seuls les %(toys)s jouets sont montrés pendant les "
                "%(seconds)s secondes ; les tuiles chasseurs experts restent face cachée."
            ),
            toys=TOY_TILES,
            seconds=MEMORY_SECONDS,
        ),
        text(
            _(
                "En jeu compétitif, des joueurs à égalité de cartes monstre se partagent la victoire (la notice "
                "ne les départage pas)."
            )
        ),
    )

    def validate_variants(self, variants, errors):
        harder = [variant for variant in self.variants if variant.slug in HARDER and variant.slug in variants]
        if "easy" in variants and harder:
            add_error(
                errors,
                "variants",
                text(
                    _(
                        "Le « Jeu plus facile » laisse de côté les tuiles de progression : il ne se combine pas "
                        "avec %(harder)s."
                    ),
                    harder=NameList([Label(variant.label) for variant in harder]),
                ),
            )

    # --- setup ------------------------------------------------------------------------------------

    def setup(self, setup: Setup) -> SetupResult:
        variants = setup.variants
        monsters = MONSTER_CARDS[setup.options["length"]]
        experts = EXPERT_TILES if "expert" in variants else 0
        if "easy" in variants:
            progression = 0  # « on laisse de côté les tuiles de progression »
        elif "fast" in variants:
            progression = FAST_PROGRESSION_TILES
        else:
            progression = PROGRESSION_TILES
        components = [
            Component(text(_("Cartes monstre")), monsters),
            Component(text(_("Carte placard")), 1),
            Component(text(_("Tuiles jouet")), TOY_TILES),
        ]
        if experts:
            components.append(Component(text(_("Tuiles chasseurs experts (fond bleu)")), experts))
        components.append(Component(text(_("Tuiles de progression des monstres")), progression))

        left = MONSTER_CARDS_IN_BOX - monsters
        if left:
            pile = text(
                _(
                    "Mélangez les cartes monstre et formez une pile de %(monsters)s cartes, côté enfant dessus "
                    "(côté monstre caché) : c'est le lit. Rangez les %(left)s autres dans la boîte."
                ),
                monsters=monsters,
                left=left,
            )
        else:
            pile = text(
                _(
                    "Mélangez les %(monsters)s cartes monstre et formez une pile, côté enfant dessus (côté "
                    "monstre caché) : c'est le lit."
                ),
                monsters=monsters,
            )
        if experts:
            tiles = text(
                _(
                    "Sans les regarder, placez les %(toys)s tuiles jouet et les %(experts)s tuiles chasseurs "
                    "experts face cachée sur la table, en laissant un espace autour du lit."
                ),
                toys=TOY_TILES,
                experts=experts,
            )
        else:
            tiles = text(
                _(
                    "Sans les regarder, placez les %(toys)s tuiles jouet face cachée sur la table, en laissant "
                    "un espace autour du lit."
                ),
                toys=TOY_TILES,
            )
        steps = [pile, tiles]
        if progression:
            steps.append(
                text(
                    _(
                        "Assemblez le monstre bleu avec %(tiles)s tuiles de progression : un nouveau monstre "
                        "apparaît chaque fois qu'elles sont toutes de la même couleur, soit toutes les "
                        "%(tiles)s erreurs."
                    ),
                    tiles=progression,
                )
            )
        else:
            steps.append(
                text(
                    _(
                        "Laissez de côté les tuiles de progression : il n'y a qu'un monstre en jeu à la fois, "
                        "et un nouveau ne sort que quand le précédent est chassé."
                    )
                )
            )
        steps += [
            text(_("Placez la carte placard à environ %(cm)s cm du lit."), cm=CUPBOARD_DISTANCE_CM),
            text(_("Retournez une carte monstre et placez-la au-dessus du lit, « au nord ».")),
        ]
        if "fast" in variants:
            steps.append(
                text(
                    _(
                        "Avant le premier tour, retournez les %(toys)s jouets face visible %(seconds)s secondes, "
                        "puis remettez-les face cachée."
                    ),
                    toys=TOY_TILES,
                    seconds=MEMORY_SECONDS,
                )
            )
        steps.append(
            text(
                _(
                    "Le joueur qui a le moins peur des monstres commence ; on joue dans le sens des aiguilles d'une montre."
                )
            )
        )
        if "easy" in variants:
            steps.append(
                text(
                    _(
                        "En compétition, chaque joueur garde les cartes monstre qu'il chasse : le plus de cartes "
                        "à la fin gagne."
                    )
                )
            )
        return SetupResult(
            components=components,
            steps=steps,
            values={
                "monster_cards": monsters,
                "toy_tiles": TOY_TILES + experts,
                "progression_tiles": progression,
            },
        )

    # --- score (competitive « Jeu plus facile » only) ---------------------------------------------

    def score_refusal(self, variants):
        if "easy" in variants:
            return None
        return text(
            _(
                "La chasse aux monstres est un jeu coopératif : les joueurs gagnent ou perdent ensemble, sans "
                "score. Seul le « Jeu plus facile » se joue en compétition : choisissez cette variante."
            )
        )

    def player_fields(self, variants):
        return (
            Integer(
                "monsters", _("Cartes monstre gardées"), minimum=0, maximum=MONSTER_CARDS_IN_BOX, default=0
            ),
        )

    def lines(self, variants):
        return (Line("monsters", _("Cartes monstre")),)

    def validate_sheet(self, sheet, errors):
        total = sum(player["monsters"] for player in sheet.players)
        if total > MONSTER_CARDS_IN_BOX:
            add_error(
                errors,
                "players",
                text(
                    _(
                        "Les joueurs ont gardé %(total)s cartes monstre en tout ; la boîte n'en contient que %(box)s."
                    ),
                    total=total,
                    box=MONSTER_CARDS_IN_BOX,
                ),
            )

    def breakdown(self, player, sheet):
        return {"monsters": player["monsters"]}


RULES = LaChasseAuxMonstres()
