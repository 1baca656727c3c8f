"""What the checkout pack prints for one game (loans' « Imprimer le kit »): the rules app's print aids.

For a game with executable rules: the setup aid for N players (the same SetupForm as
`/regles/<slug>/mise-en-place/imprimer/`) and the blank score pad for N players (as
`…/feuille-vierge/`), N being the family's household size within the game's range — or, for an
incomplete copy, within what its remaining pieces allow, with the first way of playing they allow.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from django.http import QueryDict

from catalogue.models import Game

from .engine import GameRules, Playability, Way
from .forms import SetupForm, SheetChoiceForm
from .models import RulePage
from .services import game_rules, render_text, translate
from .views import players_text


@dataclass
class PrintAids:
    slug: str
    rules: GameRules
    players: int
    players_range: str
    minimum: int
    maximum: int
    way: Way | None = None
    setup: SetupForm | None = None
    pad: dict = field(default_factory=dict)


def table_size(rules: GameRules, wanted: int, playable: Playability | None = None) -> int:
    """`wanted` players within the game's range, or the nearest count an incomplete copy allows."""
    allowed = list(playable.counts()) if playable is not None and playable.playable else []
    if not allowed:
        allowed = list(range(rules.players.minimum, rules.players.highest + 1))
    return min(allowed, key=lambda count: (abs(count - wanted), count))


def print_aids(game: Game, wanted: int, playable: Playability | None = None) -> PrintAids | None:
    """The setup aid and blank pad of `game` for about `wanted` players; None without executable rules."""
    slug = RulePage.objects.filter(game=game).values_list("slug", flat=True).first()
    rules = game_rules(slug) if slug else None
    if rules is None:
        return None
    players = table_size(rules, wanted, playable)
    way = None
    if playable is not None and not playable.complete:
        way = next((way for way, counts in playable.allowed if players in counts), None)
    aids = PrintAids(
        slug=slug,
        rules=rules,
        players=players,
        players_range=players_text(rules),
        minimum=rules.players.minimum,
        maximum=rules.players.highest,
        way=way,
    )
    query = QueryDict(mutable=True)
    query["players"] = str(players)
    for name, value in (way.query if way else {}).items():
        query[name] = value
    if "setup" in rules.features:
        setup = SetupForm(rules, query)
        if setup.is_valid():
            aids.setup = setup
    if "score" in rules.features:
        if rules.sheet_players.teams:  # a sheet by teams: the fewest teams, each column a team
            query["players"] = str(rules.sheet_players.minimum)
        choice = SheetChoiceForm(rules, query)
        if choice.ready:
            aids.pad = {
                "choice": choice,
                "lines": [translate(line.label) for line in rules.lines(choice.variant_set)],
                "columns": range(choice.count),
                "tie_break_rule": render_text(rules.tie_break_rule(choice.variant_set)),
            }
    return aids
