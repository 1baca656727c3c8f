"""What the apps built on the catalogue tell it: the only way their knowledge reaches its pages.

The catalogue imports neither `loans` nor `rules` (docs/development.md, "Working on the code"); they depend on it,
and each registers here, from its `AppConfig.ready()`, what the catalogue shows of it:

- **Circulation** (the loans app): where the copies are. A copy's status (on the shelf, in repair…)
  is the catalogue's; whether it is out on loan, kept at the desk for a family's hold, when it is due
  back is the lending app's. Its methods return query expressions, from which
  `Copy.objects.available()`, `with_availability()` and the search's « disponible » filter are built:
  a search stays the same single query. (How often a game was lent, its popularity, the lending app
  writes on the game itself once a day: `Game.loans_last_year`.)
- **Elsewhere** (the on-site play app): copies taken out of the shelves for another reason than a
  loan, e.g. to a table during an opening session. Each registers a query expression (true for the
  copy `OuterRef("pk")` while it is away) and a label saying where it is: such a copy is not
  available, and the desk refuses to lend it (`Copy.objects.with_whereabouts()`). A copy kept for a
  reason but still at hand (in its kit's crate, the kits app) says so: a repair may take it.
- **Notice links** (the rules app): the links a game's notice shows under its title (« Règles du
  jeu »…), `(label, url)` pairs for one game, at most one query per function.
- **Piece keys** (the rules app): for a game with coded rules, the pieces its module declares, as
  `(key, label)` choices for the admin's link of each catalogue piece (`Component.rules_key`).
- **Catalogued** (the rules app): told which games an import or the admin just wrote, it gives each
  its rules page (made from the notice while no librarian has written one), so that every title has
  one from the moment it is catalogued.
- **Playability** (the loans app, which knows the missing pieces, asking the rules engine): for the
  incomplete copies among some copies, « jouable : parties courtes, 2 à 5 joueurs », by copy id;
  and, told that a game's pieces changed (the admin), it weighs its incomplete copies again
  (`Copy.playable_tables`, which `Copy.objects.available(players)` reads).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Protocol

from django.core.exceptions import ImproperlyConfigured
from django.db.models import Expression

if TYPE_CHECKING:
    from .models import Copy, Game


class Circulation(Protocol):
    """Where copies are, as the app that lends them knows it."""

    def on_loan(self) -> Expression:
        """True for the copy `OuterRef("pk")` while it is out on loan."""

    def set_aside(self) -> Expression:
        """True for the copy `OuterRef("pk")` while it waits at the desk for the family that reserved it."""

    def due_on(self) -> Expression:
        """Annotation of a copy queryset: the date the copy is due back, None when it is not out."""


_circulation: Circulation | None = None
_notice_links: list[Callable[[Game], list[tuple[str, str]]]] = []
_elsewhere: list[tuple[Callable[[], Expression], Callable[[], str], bool]] = []
_piece_keys: Callable[[Game], list[tuple[str, str]]] | None = None
_playability: Callable[[list[Copy]], dict[int, str]] | None = None
_pieces_changed: Callable[[Game], None] | None = None
_catalogued: list[Callable[[list[int]], object]] = []


def register_circulation(circulation: Circulation) -> None:
    global _circulation
    _circulation = circulation


def circulation() -> Circulation:
    """The registered circulation (the loans app's)."""
    if _circulation is None:
        raise ImproperlyConfigured("No app told the catalogue where its copies are (loans/apps.py does).")
    return _circulation


def register_notice_links(links: Callable[[Game], list[tuple[str, str]]]) -> None:
    if links not in _notice_links:
        _notice_links.append(links)


def notice_links(game: Game) -> list[tuple[str, str]]:
    """The links a notice shows under its title, from every app that registered some."""
    return [link for links in _notice_links for link in links(game)]


def register_elsewhere(
    expression: Callable[[], Expression], label: Callable[[], str], *, at_hand: bool = False
) -> None:
    """Tell the catalogue of copies away from the shelves: `expression()` is true for the copy
    `OuterRef("pk")` while it is away, `label()` says where (« sur une table, en jeu sur place »);
    `at_hand`: kept apart but still at the ludothèque (in its kit)."""
    if (expression, label, at_hand) not in _elsewhere:
        _elsewhere.append((expression, label, at_hand))


def elsewhere() -> list[Expression]:
    """Each registered whereabouts' expression, in the order `elsewhere_label()` numbers them."""
    return [expression() for expression, _, _ in _elsewhere]


def elsewhere_label(index: int) -> str:
    """The label of the `index`-th registered whereabouts, in the reader's language: read when shown,
    never put into SQL, so that a queryset built once (a notice's copies) speaks every language."""
    return str(_elsewhere[index][1]())


def elsewhere_at_hand(index: int) -> bool:
    """Whether the `index`-th registered whereabouts keeps the copy at the ludothèque all the same."""
    return _elsewhere[index][2]


def register_piece_keys(keys: Callable[[Game], list[tuple[str, str]]]) -> None:
    global _piece_keys
    _piece_keys = keys


def piece_keys(game: Game) -> list[tuple[str, str]]:
    """The rules engine's pieces of this game as `(key, label)` choices; [] without coded rules."""
    return _piece_keys(game) if _piece_keys is not None else []


def register_playability(playability: Callable[[list[Copy]], dict[int, str]]) -> None:
    global _playability
    _playability = playability


def playability(copies: list[Copy]) -> dict[int, str]:
    """What the incomplete copies among `copies` still allow (« jouable : … »), by copy id."""
    return _playability(copies) if _playability is not None and copies else {}


def register_pieces_changed(changed: Callable[[Game], None]) -> None:
    global _pieces_changed
    _pieces_changed = changed


def pieces_changed(game: Game) -> None:
    """Tell the lending app a game's pieces or their links changed (its incomplete copies are weighed again)."""
    if _pieces_changed is not None:
        _pieces_changed(game)


def register_catalogued(listener: Callable[[list[int]], object]) -> None:
    if listener not in _catalogued:
        _catalogued.append(listener)


def catalogued(game_ids: list[int]) -> None:
    """Tell the apps built on the catalogue that these games were just created or changed (an import, the admin)."""
    if game_ids:
        for listener in _catalogued:
            listener(list(game_ids))
