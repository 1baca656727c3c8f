"""How a declared score sheet is won when it is not each player for themselves (`score.play`).

docs/declared-rules.md describes the object; `parse_play()` reads and checks it, as strictly as a
setup, with per-path French reasons:

- `together`: the whole table plays as one (Hanabi, Pandemic). The sheet's lines are written once,
  for the table. With `win_at`, the table wins when its total reaches it and no knock-out line is
  ticked (Pandemic: four cures, no eighth outbreak), and loses otherwise; without it the table shares
  its score (Hanabi's fireworks).
- `teams`: each column of the sheet is a team (Codenames, Time's Up!); `teams` says how many teams
  play. A knock-out line ticked puts a team out of the running (Codenames' assassin), as it does a
  player on a sheet played each for themselves.
- `sides`: each player is dealt a role, and each role belongs to a side (Bang!). The sheet says each
  player's role and whether they are out; the first side, in the declared order, whose condition holds
  wins, with every player of its roles, out or not: `{"out": [roles]}` every player of these roles is
  out, `{"alone": true}` its players are the only ones left in.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from .declared import Reader
from .declared_setup import NAME_LIMIT, QUANTITY_LIMIT, Count
from .fields import InvalidInput, join_path
from .game import PlayerRange
from .ranking import Ranking, ScoredPlayer, points
from .text import Label, NameList, Text, _, text

MODES = ("players", "together", "teams", "sides")
MODE_KEYS = {
    "players": {"mode"},
    "together": {"mode", "win_at"},
    "teams": {"mode", "teams"},
    "sides": {"mode", "roles", "sides"},
}
TEAMS_LIMIT = 10
ROLES_LIMIT = 12
SIDES_LIMIT = 6


@dataclass(frozen=True)
class Role:
    key: str
    label: str
    count: Count  # how many players have it, at N players


@dataclass(frozen=True)
class Side:
    key: str
    label: str
    roles: tuple[str, ...]
    out: tuple[str, ...] = ()  # wins when every player of these roles is out
    alone: bool = False  # wins when its players are the only ones left in


@dataclass(frozen=True)
class Play:
    """How a declared sheet is won; `players` (each for themselves) unless declared otherwise."""

    mode: str = "players"
    win_at: int | None = None
    teams: PlayerRange | None = None
    roles: tuple[Role, ...] = ()
    sides: tuple[Side, ...] = ()

    def role_counts(self, players: int) -> dict[str, int]:
        return {role.key: role.count.at(players) for role in self.roles}

    def winning_side(self, dealt: Sequence[tuple[str, bool]]) -> Side | None:
        """The side that has won, given each player's (role, out); None while the game goes on."""
        left_in = {role for role, out in dealt if not out}
        for side in self.sides:
            if side.alone:
                if left_in and left_in <= set(side.roles):
                    return side
            elif all(out for role, out in dealt if role in side.out):
                return side
        return None


def parse_play(raw: Any, players: PlayerRange) -> Play:
    """Read and check a sheet's `play` object for a title played by `players`; raise InvalidInput."""
    if raw in (None, {}):
        return Play()
    reader = Reader(players)
    data = reader.mapping(raw, "play")
    mode = data.get("mode", "players")
    if mode not in MODES:
        reader.error("play.mode", _("Choisissez : players, together, teams ou sides."))
        raise InvalidInput(reader.errors)
    for key in sorted(set(data) - MODE_KEYS[mode], key=str):
        reader.error(join_path("play", str(key)[:40]), _("Cette clé ne sert pas à ce mode de jeu."))
    play = Play(mode=mode)
    if mode == "together" and data.get("win_at") is not None:
        win_at = reader.quantity(data["win_at"], "play.win_at")
        play = Play(mode=mode, win_at=win_at)
    elif mode == "teams":
        play = Play(mode=mode, teams=_teams(reader, data.get("teams"), players))
    elif mode == "sides":
        roles = _roles(reader, data.get("roles"))
        play = Play(mode=mode, roles=roles, sides=_sides(reader, data.get("sides"), roles))
        if not reader.errors:
            _check_deal(reader, play)
    if reader.errors:
        raise InvalidInput(reader.errors)
    return play


def _teams(reader: Reader, raw: Any, players: PlayerRange) -> PlayerRange | None:
    teams = reader.mapping(raw, "play.teams")
    low, high = teams.get("min"), teams.get("max")
    if not isinstance(low, int) or isinstance(low, bool) or not 2 <= low <= TEAMS_LIMIT:
        reader.error("play.teams.min", _("Au moins 2 équipes, au plus %(limit)s."), limit=TEAMS_LIMIT)
        return None
    if not isinstance(high, int) or isinstance(high, bool) or not low <= high <= TEAMS_LIMIT:
        reader.error("play.teams.max", _("Entre %(min)s et %(limit)s équipes."), min=low, limit=TEAMS_LIMIT)
        return None
    if low > players.highest or high > players.highest:
        reader.error(
            "play.teams.max",
            _("Une équipe compte au moins un joueur : au plus %(max)s équipes pour ce jeu."),
            max=players.highest,
        )
        return None
    return PlayerRange(low, high)


def _roles(reader: Reader, raw: Any) -> tuple[Role, ...]:
    seen: set[str] = set()
    every = reader.counts_at(())
    found = []
    for index, item in enumerate(reader.items(raw, "play.roles", ROLES_LIMIT)):
        path = join_path("play.roles", index)
        item = reader.mapping(item, path)
        key = reader.key(item.get("key"), join_path(path, "key"), seen)
        label = reader.string(item.get("label"), join_path(path, "label"), NAME_LIMIT)
        count = reader.count(item.get("count"), join_path(path, "count"), every)
        # Kept when its count is refused, so that the sides naming it are not refused too.
        found.append(Role(key, label, count or Count(constant=0)))
    if not found and "play.roles" not in reader.errors:
        reader.error("play.roles", _("Déclarez les rôles distribués aux joueurs."))
    return tuple(found)


def _sides(reader: Reader, raw: Any, roles: tuple[Role, ...]) -> tuple[Side, ...]:
    known = {role.key for role in roles}
    seen: set[str] = set()
    taken: dict[str, str] = {}
    found = []
    for index, item in enumerate(reader.items(raw, "play.sides", SIDES_LIMIT)):
        path = join_path("play.sides", index)
        item = reader.mapping(item, path)
        key = reader.key(item.get("key"), join_path(path, "key"), seen)
        label = reader.string(item.get("label"), join_path(path, "label"), NAME_LIMIT)
        members = _role_keys(reader, item.get("roles"), join_path(path, "roles"), known)
        for role in members:
            if role in taken:
                reader.error(
                    join_path(path, "roles"),
                    _("Le rôle « %(role)s » est déjà dans le camp « %(side)s »."),
                    role=role,
                    side=taken[role],
                )
            taken[role] = key
        wins = reader.mapping(item.get("wins_when"), join_path(path, "wins_when"))
        out = _role_keys(reader, wins.get("out"), join_path(path, "wins_when.out"), known, required=False)
        alone = wins.get("alone") is True
        if bool(out) == alone:
            reader.error(
                join_path(path, "wins_when"),
                _(
                    "Un camp gagne soit quand des rôles sont éliminés (« out »), soit seul en jeu (« alone »)."
                ),
            )
        found.append(Side(key, label, members, out, alone))
    if len(found) < 2 and "play.sides" not in reader.errors:
        reader.error("play.sides", _("Déclarez au moins deux camps."))
    for role in sorted(known - set(taken)):
        reader.error("play.sides", _("Le rôle « %(role)s » n'est dans aucun camp."), role=role)
    return tuple(found)


def _role_keys(
    reader: Reader, raw: Any, path: str, known: set[str], required: bool = True
) -> tuple[str, ...]:
    keys = reader.items(raw, path, ROLES_LIMIT)
    if required and not keys and path not in reader.errors:
        reader.error(path, _("Ce champ est obligatoire."))
    for key in keys:
        if not isinstance(key, str) or key not in known:
            reader.error(
                path,
                _("Rôle inconnu : %(value)s. Rôles déclarés : %(known)s."),
                value=str(key)[:40],
                known=", ".join(sorted(known)) or "—",
            )
    return tuple(key for key in keys if isinstance(key, str) and key in known)


def _check_deal(reader: Reader, play: Play) -> None:
    """One role per player at every player count, and no side that would win before anyone is out."""
    for players in reader.counts_at(()):
        counts = play.role_counts(players)
        dealt = sum(counts.values())
        if dealt != players:
            reader.error(
                "play.roles",
                _(
                    "À %(players)s joueurs, les rôles donnés font %(dealt)s cartes : il en faut une par joueur."
                ),
                players=players,
                dealt=dealt,
            )
            return
        for index, side in enumerate(play.sides):
            if side.out and not any(counts[role] for role in side.out):
                reader.error(
                    join_path(join_path("play.sides", index), "wins_when.out"),
                    _("À %(players)s joueurs, personne n'a ces rôles : ce camp gagnerait d'office."),
                    players=players,
                )
                return


def deal_refusal(play: Play, roles: Sequence[str]) -> Text | None:
    """Why these roles (one per player, in order) are not a deal of this game (a Text), or None."""
    wanted = play.role_counts(len(roles))
    dealt = {key: sum(1 for role in roles if role == key) for key in wanted}
    if dealt == wanted:
        return None
    labels = {role.key: role.label for role in play.roles}
    expected = ", ".join(f"{count} × {labels[key]}" for key, count in wanted.items() if count)
    return text(
        _("À %(players)s joueurs, les rôles sont : %(expected)s."), players=len(roles), expected=expected
    )


def role_choices(play: Play) -> tuple[tuple[str, str], ...]:
    return tuple((role.key, role.label) for role in play.roles)


def reachable(play: Play, lines: Sequence[Mapping[str, Any]]) -> int | None:
    """The highest total the table can write when every adding line has a maximum, else None."""
    best = 0
    for line in lines:
        if line.get("knocks_out") or line.get("sign") == "-":
            continue
        if line.get("max_units") is None:
            return None
        best += line["max_units"] * line["points"]
    return best if best <= QUANTITY_LIMIT * 1000 else None


# --- who wins, once the sheet is filled in ---------------------------------------------------------


def together_ranking(players: Sequence[ScoredPlayer], play: Play, lost_by: Sequence[str]) -> Ranking:
    """The whole table wins or loses together; its total is everyone's (Hanabi: shared, no target)."""
    total = players[0].total if players else 0
    names = [player.name for player in players]
    ranks = {name: 1 for name in names}
    if lost_by:
        reasons = NameList([Label(reason) for reason in lost_by])
        return Ranking(ranks, [], None, text(_("La table perd la partie : %(reasons)s."), reasons=reasons))
    if play.win_at is not None and total < play.win_at:
        explanation = text(
            _("La table perd la partie avec %(points)s : il en fallait %(target)s."),
            points=points(total),
            target=play.win_at,
        )
        return Ranking(ranks, [], None, explanation)
    if play.win_at is not None:
        return Ranking(
            ranks,
            names,
            None,
            text(_("Toute la table gagne la partie avec %(points)s."), points=points(total)),
        )
    return Ranking(ranks, names, None, text(_("Toute la table marque %(points)s."), points=points(total)))


def sides_ranking(players: Sequence[ScoredPlayer], play: Play) -> Ranking:
    """The side whose condition holds wins, every player of its roles; the others rank second."""
    side = play.winning_side([(player.fields["role"], player.fields["out"]) for player in players])
    if side is None:  # validate_sheet refuses such a sheet first
        return Ranking(
            {player.name: 1 for player in players}, [], None, text(_("Personne ne remporte la partie."))
        )
    winners = [player.name for player in players if player.fields["role"] in side.roles]
    labels = {role.key: role.label for role in play.roles}
    if side.alone:
        why = text(_("ses joueurs sont les derniers en jeu"))
    else:
        why = text(
            _("plus aucun joueur en jeu parmi : %(roles)s"),
            roles=NameList([Label(labels[role]) for role in side.out]),
        )
    explanation = text(
        _("Victoire du camp « %(side)s » (%(names)s) : %(why)s."),
        side=Label(side.label),
        names=NameList(winners),
        why=why,
    )
    ranks = {player.name: 1 if player.name in winners else 2 for player in players}
    return Ranking(ranks, winners, None, explanation)


def sides_refusal(play: Play, dealt: Sequence[tuple[str, bool]]) -> Text | None:
    """Why a sheet by sides cannot be scored: not this game's deal of roles, or no side has won yet."""
    refusal = deal_refusal(play, [role for role, _out in dealt])
    if refusal is None and play.winning_side(dealt) is None:
        return text(_("Aucun camp n'a encore gagné : cochez les joueurs éliminés à la fin de la partie."))
    return refusal
