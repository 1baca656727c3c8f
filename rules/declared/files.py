"""Declared rules shipped as files (docs/declared-rules.md): `fixtures/declared/<slug>.json` read into the models.

A file gives a title its declared setup and score sheet; `load_declared_rules` reads every file of
the folder. A file is checked whole before anything is written, and each file is one transaction:
a refused file writes nothing and says why, in French, place by place. Safe to run again: a title
whose setup already exists keeps it (a librarian may have corrected it) unless `replace`; a declared
sheet, once there, is only ever changed by a librarian.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.core.exceptions import ValidationError
from django.db import transaction

from catalogue.models import Game
from catalogue.pmb import PmbNotice
from catalogue.services import game_import_from_pmb
from rules.models import DeclaredSetup, DeclaredSheet, Sign, Winning

from .setups import check_setup, declared_setup_save
from .sheets import LineDeclaration, declared_sheet_create

DECLARED_DIR = Path(__file__).resolve().parent.parent.parent / "fixtures" / "declared"
FILE_FORMAT = 1
FILE_MAX_BYTES = 200_000


@dataclass
class FileReport:
    loaded: list[str] = field(default_factory=list)
    kept: list[str] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)


def _refuse(message: str) -> ValidationError:
    return ValidationError(message, code="invalid_file")


def read_file(path: Path) -> dict:
    """The file's JSON object, its envelope checked (format, title, players, sources)."""
    if path.stat().st_size > FILE_MAX_BYTES:
        raise _refuse(f"le fichier dépasse {FILE_MAX_BYTES} octets")
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except (UnicodeDecodeError, ValueError) as error:
        raise _refuse(f"JSON illisible : {error}") from None
    if not isinstance(data, dict) or data.get("format") != FILE_FORMAT:
        raise _refuse(f"« format » doit valoir {FILE_FORMAT}")
    if not isinstance(data.get("title"), str) or not data["title"].strip():
        raise _refuse("« title » est obligatoire")
    players = data.get("players")
    low = players.get("min") if isinstance(players, dict) else None
    high = players.get("max") if isinstance(players, dict) else None
    if not isinstance(low, int) or low < 1 or not (high is None or (isinstance(high, int) and high >= low)):
        raise _refuse('« players » : {"min": 2, "max": 4} (max ≥ min, ou null)')
    sources = data.get("sources")
    if (
        not isinstance(sources, list)
        or not sources
        or not all(isinstance(s, str) and s.strip() for s in sources)
    ):
        raise _refuse("« sources » : au moins une source, en texte")
    return data


def notice_for(data: dict, path: Path) -> Game:
    """The file's notice (by slug, else by title); created through the catalogue's import when missing."""
    players = data["players"]
    game = Game.objects.filter(slug=data.get("slug") or "-").first()
    game = game or Game.objects.filter(title__iexact=data["title"].strip()).order_by("pk").first()
    if game is None:
        notice = PmbNotice(
            title=data["title"].strip(),
            source=path.name,
            players_min=players["min"],
            players_max=players["max"],
        )
        return game_import_from_pmb(notice=notice).game
    if (game.players_min, game.players_max) != (players["min"], players["max"]):
        raise _refuse(
            f"la notice « {game.title} » dit {game.players_min}–{game.players_max} joueurs, "
            f"le fichier {players['min']}–{players['max']}"
        )
    return game


def _sheet_lines(score: Any) -> tuple[list[LineDeclaration], list[tuple[str, str]], str]:
    if not isinstance(score, dict) or not isinstance(score.get("lines", []), list):
        raise _refuse("« score » : un objet avec « lines »")
    lines = [
        LineDeclaration(
            key=line.get("key", ""),
            label=line.get("label", ""),
            points=line.get("points", 1),
            sign=Sign.MINUS if line.get("sign") == "-" else Sign.PLUS,
            max_units=line.get("max_units"),
            knocks_out=line.get("knocks_out") is True,
        )
        for line in score.get("lines", [])
        if isinstance(line, dict)
    ]
    tie_breaks = [
        (tie.get("line", ""), tie.get("winning", Winning.HIGHEST))
        for tie in score.get("tie_breaks", [])
        if isinstance(tie, dict)
    ]
    return lines, tie_breaks, score.get("winning", Winning.HIGHEST)


@transaction.atomic
def declared_file_load(path: Path, *, replace: bool = False) -> tuple[str, bool]:
    """Load one file; (the title's page slug, whether anything was written). Raises ValidationError."""
    data = read_file(path)
    game = notice_for(data, path)
    written = False
    if "setup" in data:
        check_setup(data["setup"], game)  # before anything: a refused file writes nothing of its setup
        if replace or not DeclaredSetup.objects.filter(page__game=game).exists():
            declared_setup_save(game=game, definition=data["setup"], sources="\n".join(data["sources"]))
            written = True
    if "score" in data:
        if not DeclaredSheet.objects.filter(page__game=game).exists():
            lines, tie_breaks, winning = _sheet_lines(data["score"])
            declared_sheet_create(
                game=game, lines=lines, tie_breaks=tie_breaks, winning=winning, play=data["score"].get("play")
            )
            written = True
    return game.rules_page.slug if hasattr(game, "rules_page") else game.slug, written


def declared_files_load(*, directory: Path = DECLARED_DIR, replace: bool = False) -> FileReport:
    report = FileReport()
    for path in sorted(directory.glob("*.json")):
        try:
            slug, written = declared_file_load(path, replace=replace)
        except ValidationError as error:
            report.errors += [f"{path.name}: {message}" for message in error.messages]
            continue
        (report.loaded if written else report.kept).append(slug)
    return report
