"""Martian Dice (Scott Almes, Tasty Minstrel Games), 2 players or more — rules from seed 003 (BGA help
page « Gamehelpmartiandice », 14 November 2020).

« Si vous avez gardé au moins autant de rayons de la mort que de tanks, vous gagnez les points des dés
"terriens" (humains, vaches et poules) que vous avez mis de côté. Sinon vous ne gagnez rien ce tour-ci. »
— « 1 point par dé humain, vache et poule qui a été mis de côté. 3 points bonus si au moins 1 dé de chaque
type (humain, vache et poule) a été mis de côté. » — « Dès qu'un joueur atteint ou dépasse 25 points.
Chaque joueur après lui termine son tour pour que chacun joue le même nombre de fois. Celui ou celle qui
a le plus de points remporte la partie. »

The score sheet is written turn by turn: each turn is what the player kept when the turn ended.
"""

from rules.engine import (
    Component,
    GameRules,
    Group,
    Integer,
    Line,
    ListOf,
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
    points,
    rank,
    text,
)

DICE = 13  # 13 dés
TARGET = 25  # « Dès qu'un joueur atteint ou dépasse 25 points »
ALL_KINDS_BONUS = 3  # « 3 points bonus si au moins 1 dé de chaque type »
EARTHLINGS = (("humans", _("Humains")), ("cows", _("Vaches")), ("chickens", _("Poules")))
KEPT = (("tanks", _("Tanks")), ("death_rays", _("Rayons de la mort")), *EARTHLINGS)
# « Faces des dés » : Tank ×1, Rayon de la mort ×2, Humain ×1, Vache ×1, Poule ×1 on every die.
FACES = {"tank": 1, "death_ray": 2, "human": 1, "cow": 1, "chicken": 1}
MAX_TURNS = 100  # a sheet longer than this is a typing error, not a game to 25 points


def turn_points(turn: dict[str, int]) -> dict[str, int]:
    """Points of one turn by line: earthlings kept, and the bonus for all three kinds — or nothing."""
    if turn["death_rays"] < turn["tanks"]:
        return {"humans": 0, "cows": 0, "chickens": 0, "bonus": 0}
    all_kinds = all(turn[kind] >= 1 for kind, _label in EARTHLINGS)
    return {
        **{kind: turn[kind] for kind, _label in EARTHLINGS},
        "bonus": ALL_KINDS_BONUS if all_kinds else 0,
    }


def running_totals(turns: list[dict[str, int]]) -> list[int]:
    """The player's total at the end of each of their turns."""
    totals, total = [], 0
    for turn in turns:
        total += sum(turn_points(turn).values())
        totals.append(total)
    return totals


def reached_in(turns: list[dict[str, int]], round_: int) -> bool:
    """Whether the player's total reached the target at the end of this round's turn."""
    totals = running_totals(turns)
    return len(totals) >= round_ and totals[round_ - 1] >= TARGET


def end_round(players: list[dict]) -> int | None:
    """The round (1-based) in which someone first reached the target, or None."""
    reached = [
        next(
            (index + 1 for index, total in enumerate(running_totals(player["turns"])) if total >= TARGET),
            None,
        )
        for player in players
    ]
    rounds = [round_ for round_ in reached if round_ is not None]
    return min(rounds) if rounds else None


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 13 dés martiens »: every throw rolls the dice not yet kept, all 13 at the start of a turn.
def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {"dice": DICE}


COMPONENTS = Pieces(
    pieces=(Piece("dice", _("Dés martiens"), DICE),),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
)


class MartianDice(GameRules):
    slug = "martian-dice"
    title = "Martian Dice"
    players = PlayerRange(2, None)
    rulings = (
        text(
            _(
                "La page d'aide se contredit : « au moins autant de rayons de la mort que de tanks » dans « Comment "
                "jouer ? », mais « si l'armée terrienne a moins de tanks que vous avez de rayons de la mort » dans "
                "« Comment marquer des points ? ». La feuille applique « au moins autant » (la règle de l'éditeur) : "
                "autant de rayons que de tanks suffit pour marquer."
            )
        ),
        text(
            _(
                "Les joueurs encore à égalité en fin de partie sont déclarés vainqueurs ex æquo : le lancer "
                "supplémentaire (le plus de rayons de la mort l'emporte) se joue à la table, la feuille ne le "
                "connaît pas."
            )
        ),
        text(
            _(
                "Une feuille en cours de partie est acceptée : tant que personne n'a 25 points, ou que le tour de "
                "table où quelqu'un les a atteints n'est pas terminé, elle donne le classement provisoire sans "
                "vainqueur. L'ordre des joueurs sur la feuille est libre ; leurs nombres de tours ne peuvent "
                "différer que d'un."
            )
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        return SetupResult(
            components=[Component(text(_("Dés martiens")), DICE)],
            steps=[
                text(
                    _(
                        "Prenez les %(dice)s dés ; chacun a six faces : un tank, deux rayons de la mort, un "
                        "humain, une vache et une poule."
                    ),
                    dice=DICE,
                ),
                text(
                    _(
                        "Désignez le premier joueur ; on joue chacun son tour, dans le sens des aiguilles d'une montre."
                    )
                ),
                text(
                    _(
                        "À son tour, lancez les dés, mettez de côté tous les tanks, puis un type de dé ; relancez "
                        "le reste ou arrêtez-vous. Un tour marque si les rayons de la mort gardés égalent au moins "
                        "les tanks : 1 point par terrien, %(bonus)s points de plus avec les trois espèces."
                    ),
                    bonus=ALL_KINDS_BONUS,
                ),
                text(
                    _(
                        "Dès qu'un joueur atteint %(target)s points, les joueurs suivants finissent le tour de "
                        "table ; le plus de points gagne."
                    ),
                    target=TARGET,
                ),
            ],
            values={"dice": DICE, "target": TARGET, "all_kinds_bonus": ALL_KINDS_BONUS, "faces": dict(FACES)},
        )

    def player_fields(self, variants):
        turn = Group(
            "turn",
            _("Dés gardés ce tour"),
            fields=tuple(Integer(key, label, minimum=0, maximum=DICE, default=0) for key, label in KEPT),
        )
        return (
            ListOf(
                "turns",
                _("Dés gardés à la fin de chaque tour"),
                item=turn,
                max_items=MAX_TURNS,
                help=_(
                    "Un tour par ligne, dans l'ordre : tanks, rayons de la mort, humains, vaches, poules."
                ),
            ),
        )

    def lines(self, variants):
        return (
            *(Line(key, label) for key, label in EARTHLINGS),
            Line("bonus", _("Bonus des trois espèces")),
        )

    def validate_sheet(self, sheet, errors):
        for index, player in enumerate(sheet.players):
            for number, turn in enumerate(player["turns"]):
                kept = sum(turn.values())
                if kept > DICE:
                    add_error(
                        errors,
                        f"players.{index}.turns.{number}",
                        text(
                            _("On ne garde que %(dice)s dés en un tour : ce tour en compte %(kept)s."),
                            dice=DICE,
                            kept=kept,
                        ),
                    )
        if errors:
            return
        counts = [len(player["turns"]) for player in sheet.players]
        most = max(counts)
        for index, count in enumerate(counts):
            if count < most - 1:
                add_error(
                    errors,
                    f"players.{index}.turns",
                    text(
                        ngettext(
                            "Ce joueur a joué %(count)s tour quand un autre en a joué %(most)s : chacun joue à son "
                            "tour, l'écart ne peut pas dépasser un tour.",
                            "Ce joueur a joué %(count)s tours quand un autre en a joué %(most)s : chacun joue à son "
                            "tour, l'écart ne peut pas dépasser un tour.",
                            count,
                        ),
                        count=count,
                        most=most,
                    ),
                )
        last = end_round(sheet.players)
        if last is None:
            return
        for index, player in enumerate(sheet.players):
            if len(player["turns"]) > last:
                add_error(
                    errors,
                    f"players.{index}.turns.{last}",
                    text(
                        _(
                            "La partie s'est arrêtée à la fin du tour %(round)s, quand %(target)s points ont été "
                            "atteints : ce tour n'a pas pu être joué."
                        ),
                        round=last,
                        target=TARGET,
                    ),
                )

    def breakdown(self, player, sheet):
        lines = {"humans": 0, "cows": 0, "chickens": 0, "bonus": 0}
        for turn in player["turns"]:
            for line, value in turn_points(turn).items():
                lines[line] += value
        return lines

    def ranking(self, scored, sheet):
        last = end_round(sheet.players)
        over = last is not None and all(len(player["turns"]) == last for player in sheet.players)
        if over:
            result = rank(scored)
            if len(result.winners) > 1:
                roll_off = text(
                    _(
                        "Pour les départager à la table : un lancer de dés supplémentaire, le plus de rayons de la "
                        "mort l'emporte."
                    )
                )
                return Ranking(result.ranks, result.winners, None, Sentences([result.explanation, roll_off]))
            return result
        return rank(scored, eligible=lambda player: False, no_winner=self._game_goes_on(scored, sheet, last))

    @staticmethod
    def _game_goes_on(scored, sheet, last):
        """Why nobody has won yet: nobody has the target, or the round that reached it is not over."""
        if last is None:
            parts = [text(_("Personne n'a encore %(target)s points : la partie continue."), target=TARGET)]
            ahead = leaders({player.name: player.total for player in scored})
            if ahead:
                parts.append(
                    text(
                        _("En tête : %(names)s (%(points)s)."),
                        names=NameList(ahead),
                        points=points(max(player.total for player in scored)),
                    )
                )
            return Sentences(parts)
        reached = [p["name"] for p in sheet.players if reached_in(p["turns"], last)]
        waiting = [p["name"] for p in sheet.players if len(p["turns"]) < last]
        return Sentences(
            [
                text(
                    ngettext(
                        "%(names)s a atteint %(target)s points au tour %(round)s.",
                        "%(names)s ont atteint %(target)s points au tour %(round)s.",
                        len(reached),
                    ),
                    names=NameList(reached),
                    target=TARGET,
                    round=last,
                ),
                text(
                    ngettext(
                        "La partie continue jusqu'à la fin de ce tour de table : %(names)s doit encore jouer.",
                        "La partie continue jusqu'à la fin de ce tour de table : %(names)s doivent encore jouer.",
                        len(waiting),
                    ),
                    names=NameList(waiting),
                ),
            ]
        )


RULES = MartianDice()
