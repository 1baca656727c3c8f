"""Ranking players by total and an ordered chain of tie-breakers, with the sentence that explains it."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from .text import Label, NameList, Sentences, Text, _, ngettext, text


@dataclass
class ScoredPlayer:
    """A player's cleaned inputs and points per score line; the total is always the sum of the lines."""

    name: str
    breakdown: dict[str, int]
    fields: Mapping[str, Any] = field(default_factory=dict)
    eliminated: bool = False

    @property
    def total(self) -> int:
        return sum(self.breakdown.values())


@dataclass(frozen=True)
class Criterion:
    """A tie-breaker: `label` is a French noun phrase (« l'or restant ») used in the explanation."""

    slug: str
    label: str
    key: Callable[[ScoredPlayer], int | float | bool]
    highest_wins: bool = True
    show_values: bool = True


@dataclass(frozen=True)
class Ranking:
    ranks: dict[str, int]
    winners: list[str]
    decided_by: str | None
    explanation: Text | Sentences


def points(total: int) -> Text:
    return text(ngettext("%(total)s point", "%(total)s points", total), total=total)


def rank(
    players: Sequence[ScoredPlayer],
    *,
    tie_breakers: Sequence[Criterion] = (),
    highest_total_wins: bool = True,
    eligible: Callable[[ScoredPlayer], bool] | None = None,
    no_winner: Text | None = None,
    unit: Callable[[int], Text] = points,
) -> Ranking:
    """Rank players: total first, then each tie-breaker in order; players still tied share a rank.

    Players who are not `eligible` (eliminated, or short of a winning threshold) rank after the
    others and never win. `decided_by` is the last tie-breaker that narrowed the leading group, or
    None when the totals alone decided or nothing could separate the leaders. `unit` words a total
    (« 12 points » by default; « 5 cartes monstre » where the sheet counts cards, not points).
    """

    def can_win(player: ScoredPlayer) -> bool:
        return not player.eliminated and (eligible is None or eligible(player))

    def signed(value: int | float | bool, highest_wins: bool) -> int | float:
        # No float(): a whole number too large for a float must not crash the ranking.
        return -value if highest_wins else +value

    def sort_key(player: ScoredPlayer) -> tuple:
        return (
            0 if can_win(player) else 1,
            signed(player.total, highest_total_wins),
            *(signed(criterion.key(player), criterion.highest_wins) for criterion in tie_breakers),
        )

    # Sorted once (n log n): a player's rank is 1 + the number of players strictly ahead, so players
    # with equal keys share the rank of the first of them.
    ordered = sorted(((sort_key(player), player.name) for player in players), key=lambda pair: pair[0])
    ranks: dict[str, int] = {}
    for position, (key, name) in enumerate(ordered):
        same_as_previous = position and key == ordered[position - 1][0]
        ranks[name] = ranks[ordered[position - 1][1]] if same_as_previous else position + 1
    contenders = [player for player in players if can_win(player)]
    if not contenders:
        return Ranking(ranks, [], None, no_winner or text(_("Personne ne remporte la partie.")))

    best_total = (max if highest_total_wins else min)(player.total for player in contenders)
    leading = [player for player in contenders if player.total == best_total]
    if len(leading) == 1:
        explanation = text(
            _("%(winner)s gagne avec %(points)s."), winner=leading[0].name, points=unit(best_total)
        )
        return Ranking(ranks, [leading[0].name], None, explanation)

    parts: list[Any] = [
        text(
            _("%(names)s sont à égalité avec %(points)s."),
            names=NameList([p.name for p in leading]),
            points=unit(best_total),
        )
    ]
    leading, decided_by = _break_tie(leading, tie_breakers, parts)
    if len(leading) > 1:
        parts.append(
            text(_("%(names)s se partagent la victoire."), names=NameList([p.name for p in leading]))
        )
    return Ranking(ranks, [player.name for player in leading], decided_by, Sentences(parts))


def _break_tie(
    leading: list[ScoredPlayer], tie_breakers: Sequence[Criterion], parts: list[Any]
) -> tuple[list[ScoredPlayer], str | None]:
    """Narrow the players tied on the total with each tie-breaker in turn, saying each step in `parts`."""
    decided_by = None
    for criterion in tie_breakers:
        values = {player.name: criterion.key(player) for player in leading}
        best = (max if criterion.highest_wins else min)(values.values())
        ahead = [player for player in leading if values[player.name] == best]
        if len(ahead) == len(leading):
            continue
        decided_by = criterion.slug
        behind = [value for value in values.values() if value != best]
        runner_up = (max if criterion.highest_wins else min)(behind)
        if len(ahead) == 1 and criterion.show_values:
            parts.append(
                text(
                    _("Départage par %(criterion)s : %(winner)s l'emporte (%(best)s contre %(other)s)."),
                    criterion=Label(criterion.label),
                    winner=ahead[0].name,
                    best=best,
                    other=runner_up,
                )
            )
        elif len(ahead) == 1:
            parts.append(
                text(
                    _("Départage par %(criterion)s : %(winner)s l'emporte."),
                    criterion=Label(criterion.label),
                    winner=ahead[0].name,
                )
            )
        else:
            parts.append(
                text(
                    _("Départage par %(criterion)s : %(names)s restent à égalité."),
                    criterion=Label(criterion.label),
                    names=NameList([p.name for p in ahead]),
                )
            )
        leading = ahead
        if len(leading) == 1:
            break
    return leading, decided_by


def tie_break_rule(tie_breakers: Sequence[Criterion], *, highest_total_wins: bool = True) -> Text:
    """The tie-break rule as one sentence, for score pads and rules pages."""
    if highest_total_wins:
        base = _("Le plus grand total gagne.")
    else:
        base = _("Le plus petit total gagne.")
    if not tie_breakers:
        return text(_("%(base)s Les joueurs à égalité se partagent la victoire."), base=text(base))
    chain = NameList([Label(criterion.label) for criterion in tie_breakers], then=True)
    return text(
        _(
            "%(base)s En cas d'égalité, départage par %(chain)s ; si l'égalité persiste, la victoire est partagée."
        ),
        base=text(base),
        chain=chain,
    )
