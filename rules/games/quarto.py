"""Quarto (Blaise Müller, Gigamic), 2 players — rules from seed 002 (PMB notice « Quarto »).

« 16 pièces différentes ayant 4 caractères : haute ou basse, ronde ou carrée, claire ou foncée,
pleine ou creuse. […] Le gagnant est celui qui, avec une pièce donnée, crée un alignement de 4
pièces ayant au moins un caractère commun. […] Cet alignement peut être horizontal, vertical ou
diagonal. […] Il crée une ligne de 4 claires ou 4 foncées ou 4 rondes ou 4 carrées ou 4 hautes ou
4 basses ou 4 pleines ou 4 creuses. Plusieurs caractères peuvent se cumuler. »

Variante pour joueurs débutants : « on peut jouer en ne prenant que 1, 2 ou 3 caractères comme
critères d'alignement » — the check's `characters`. Variante pour joueurs avertis : « créer un
alignement ou un carré de 4 pièces ayant au moins un caractère commun. Il y a alors 9 possibilités
supplémentaires de faire QUARTO » — the variant `squares`: the 9 squares of 2 × 2 neighbouring cells.

A piece is an int 0–15, one bit per character: 1 tall, 2 round, 4 dark, 8 hollow; a clear bit is
short, square, light, solid. The check reports, for each completed line, the characters its four
pieces share, by name: a set bit shared by all four gives "tall", "round", "dark", "hollow"; a bit
that all four lack gives "short", "square", "light", "solid" (four short pieces are a Quarto too).
"""

from dataclasses import dataclass
from typing import Any

from rules.engine import (
    Choice,
    Component,
    Field,
    GameRules,
    Integer,
    ListOf,
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

SIZE = 4  # « 1 plateau de 16 cases » : 4 × 4
CELLS = SIZE * SIZE
PIECES = 16  # « 16 pièces différentes », one per combination of the four characters


@dataclass(frozen=True)
class Character:
    """One of the four characters of a piece: its bit, and the names of its two sides."""

    slug: str
    label: str
    bit: int
    present: str  # the name reported when all four pieces have the bit
    present_label: str
    absent: str  # the name reported when all four pieces lack it
    absent_label: str


CHARACTERS = (
    Character("height", _("Hauteur (haute ou basse)"), 1, "tall", _("hautes"), "short", _("basses")),
    Character("shape", _("Forme (ronde ou carrée)"), 2, "round", _("rondes"), "square", _("carrées")),
    Character("colour", _("Couleur (foncée ou claire)"), 4, "dark", _("foncées"), "light", _("claires")),
    Character("fill", _("Remplissage (creuse ou pleine)"), 8, "hollow", _("creuses"), "solid", _("pleines")),
)
assert 2 ** len(CHARACTERS) == PIECES

# French names of the `shared` vocabulary, for pages that show a check's result.
SHARED_LABELS = {
    name: label
    for character in CHARACTERS
    for name, label in (
        (character.present, character.present_label),
        (character.absent, character.absent_label),
    )
}


@dataclass(frozen=True)
class Alignment:
    """Four cells that make a Quarto when their pieces share a character."""

    kind: str  # "row", "column", "diagonal" or "square"
    cells: tuple[tuple[int, int], ...]


# « Cet alignement peut être horizontal, vertical ou diagonal. »
LINES = (
    *(Alignment("row", tuple((row, column) for column in range(SIZE))) for row in range(SIZE)),
    *(Alignment("column", tuple((row, column) for row in range(SIZE))) for column in range(SIZE)),
    Alignment("diagonal", tuple((i, i) for i in range(SIZE))),
    Alignment("diagonal", tuple((i, SIZE - 1 - i) for i in range(SIZE))),
)
# Joueurs avertis : « un carré de 4 pièces […] 9 possibilités supplémentaires » — the 2 × 2 squares.
SQUARES = tuple(
    Alignment("square", ((row, column), (row, column + 1), (row + 1, column), (row + 1, column + 1)))
    for row in range(SIZE - 1)
    for column in range(SIZE - 1)
)


def alignments(variants: frozenset[str]) -> tuple[Alignment, ...]:
    """The alignments that count: lines, and the squares for joueurs avertis."""
    return LINES + SQUARES if "squares" in variants else LINES


def shared_characters(pieces: list[int | None], characters: tuple[Character, ...]) -> list[str]:
    """The names of the characters all these pieces share; none unless all cells hold a piece."""
    if any(piece is None for piece in pieces):
        return []
    shared = []
    for character in characters:
        if all(piece & character.bit for piece in pieces):
            shared.append(character.present)
        elif not any(piece & character.bit for piece in pieces):
            shared.append(character.absent)
    return shared


CELL = Integer("cell", _("Pièce"), minimum=0, maximum=PIECES - 1)


@dataclass(frozen=True)
class Board(Field):
    """The 4 × 4 board: a piece 0–15 or null (an empty cell) in each cell, no piece twice."""

    def clean(self, raw: Any, path: str, errors: dict) -> list | None:
        if not isinstance(raw, list) or len(raw) != SIZE:
            add_error(
                errors, path, text(_("Le plateau compte %(size)s lignes de %(size)s cases."), size=SIZE)
            )
            return None
        before = sum(len(messages) for messages in errors.values())
        board: list[list[int | None]] = []
        for row, cells in enumerate(raw):
            if not isinstance(cells, list) or len(cells) != SIZE:
                add_error(
                    errors,
                    f"{path}.{row}",
                    text(_("Chaque ligne du plateau compte %(size)s cases."), size=SIZE),
                )
                continue
            board.append(
                [
                    None
                    if value is None or value == ""
                    else CELL.clean(value, f"{path}.{row}.{column}", errors)
                    for column, value in enumerate(cells)
                ]
            )
        if sum(len(messages) for messages in errors.values()) > before:
            return None
        valid = True
        seen: dict[int, tuple[int, int]] = {}
        for row, pieces in enumerate(board):
            for column, piece in enumerate(pieces):
                if piece is None:
                    continue
                if piece in seen:
                    first_row, first_column = seen[piece]
                    add_error(
                        errors,
                        f"{path}.{row}.{column}",
                        text(
                            _(
                                "La pièce %(piece)s est déjà sur le plateau (ligne %(row)s, colonne %(column)s)."
                            ),
                            piece=piece,
                            row=first_row + 1,
                            column=first_column + 1,
                        ),
                    )
                    valid = False
                else:
                    seen[piece] = (row, column)
        return board if valid else None

    def schema(self) -> dict:
        cell = CELL.schema()
        cell["type"] = ["integer", "null"]
        row = {"type": "array", "items": cell, "minItems": SIZE, "maxItems": SIZE}
        return self._describe({"type": "array", "items": row, "minItems": SIZE, "maxItems": SIZE})


@dataclass(frozen=True)
class CharacterList(ListOf):
    """The characters that count (all four by default; 1, 2 or 3 for beginners), each at most once."""

    def clean(self, raw: Any, path: str, errors: dict) -> list | None:
        if isinstance(raw, str):  # a query string or a form: "height,colour"
            raw = [item.strip() for item in raw.split(",") if item.strip()]
        if raw == []:
            add_error(errors, path, text(_("Choisissez au moins un caractère.")))
            return None
        values = super().clean(raw, path, errors)
        if values is None:
            return None
        for index, value in enumerate(values):
            if value in values[:index]:
                add_error(errors, f"{path}.{index}", text(_("Ce caractère est déjà choisi.")))
                return None
        return values


# --- Pieces: what a copy needs to be played (rules/engine/pieces.py) ---
# « 1 plateau de 16 cases ; 16 pièces différentes »: each piece is one combination of the four
# characters, the game needs them all.
def pieces_needed(players: int, way: str) -> dict[str, int]:
    return {"board": 1, "pieces": PIECES}


COMPONENTS = Pieces(
    pieces=(Piece("board", _("Plateau"), 1), Piece("pieces", _("Pièces"), PIECES)),
    ways=(Way("", _("toutes les parties")),),
    needs=pieces_needed,
)


class Quarto(GameRules):
    slug = "quarto"
    title = "Quarto"
    players = PlayerRange(2, 2)
    check_labels = SHARED_LABELS
    variants = (
        Variant(
            "squares",
            _("Joueurs avertis : les carrés comptent"),
            _("Un carré de 4 cases voisines ayant un caractère commun fait aussi « Quarto »."),
        ),
    )
    rulings = (
        text(
            _(
                "Variante pour joueurs avertis : un « carré » est un bloc de 2 × 2 cases voisines. Le plateau en "
                "compte %(squares)s, les « %(squares)s possibilités supplémentaires » de la notice ; les carrés "
                "plus grands ne comptent pas."
            ),
            squares=len(SQUARES),
        ),
        text(
            _(
                "Variante pour débutants : seuls les caractères retenus comptent ; 4 pièces alignées qui ne "
                "partagent qu'un autre caractère ne font pas « Quarto »."
            )
        ),
        text(
            _(
                "Le contrôle montre tous les alignements gagnants du plateau ; selon la règle, celui que personne "
                "n'a annoncé pendant le tour où il s'est formé ne compte plus."
            )
        ),
    )

    def setup(self, setup: Setup) -> SetupResult:
        counted = alignments(setup.variants)
        if "squares" in setup.variants:
            kinds = text(
                _("lignes, colonnes, diagonales et les %(squares)s carrés de 2 × 2 cases"),
                squares=len(SQUARES),
            )
        else:
            kinds = text(_("lignes, colonnes, diagonales"))
        goal = text(
            _(
                "Le premier qui pose une pièce complétant un alignement de 4 pièces ayant un caractère commun "
                "annonce « Quarto » et gagne : %(count)s alignements possibles (%(kinds)s)."
            ),
            count=len(counted),
            kinds=kinds,
        )
        return SetupResult(
            components=[
                Component(text(_("Plateau de %(cells)s cases"), cells=CELLS), 1),
                Component(text(_("Pièces")), PIECES),
            ],
            steps=[
                text(
                    _(
                        "Posez le plateau de %(cells)s cases entre les joueurs et les %(pieces)s pièces à côté."
                    ),
                    cells=CELLS,
                    pieces=PIECES,
                ),
                text(
                    _(
                        "Tirez au sort le premier joueur : il choisit une pièce et la donne à son adversaire, qui la "
                        "pose sur une case libre puis choisit à son tour la pièce que l'autre devra poser."
                    )
                ),
                goal,
            ],
            values={"pieces": PIECES, "squares": CELLS, "winning_lines": len(counted)},
        )

    def check_fields(self, variants):
        return (
            Board("board", _("Plateau")),
            CharacterList(
                "characters",
                _("Caractères retenus"),
                item=Choice(
                    "character", _("Caractère"), choices=tuple((c.slug, c.label) for c in CHARACTERS)
                ),
                min_items=1,
                max_items=len(CHARACTERS),
                default=[character.slug for character in CHARACTERS],
                help=_("Variante pour débutants : ne retenez que 1, 2 ou 3 caractères."),
            ),
        )

    def check(self, position, variants):
        board = position["board"]
        counted = tuple(character for character in CHARACTERS if character.slug in position["characters"])
        lines = []
        for alignment in alignments(variants):
            shared = shared_characters([board[row][column] for row, column in alignment.cells], counted)
            if shared:
                lines.append(
                    {
                        "kind": alignment.kind,
                        "cells": [[row, column] for row, column in alignment.cells],
                        "shared": shared,
                    }
                )
        return {"quarto": bool(lines), "lines": lines}


RULES = Quarto()
