"""The catalogue written as a spreadsheet (CSV, one row per copy or per game without copies) or as JSON,
in the columns `catalogue/spreadsheet.py` reads back."""

import json
from collections.abc import Iterable, Iterator

from django.db.models import Prefetch

from ludotheque import spreadsheets

from .models import Authorship, Component, Copy, Document, Game, PublisherCredit
from .spreadsheet import GAME_COLUMNS, SEPARATOR


def exported_games() -> Iterator[Game]:
    """Every game with all that the export writes, in title order, read 500 at a time."""
    games = (
        Game.objects.select_related("category")
        .defer("search_vector")
        .prefetch_related(
            Prefetch("authorships", Authorship.objects.select_related("author").order_by("position")),
            Prefetch(
                "publisher_credits", PublisherCredit.objects.select_related("publisher").order_by("position")
            ),
            "languages",
            "tags",
            Prefetch("components", Component.objects.order_by("position", "pk")),
            Prefetch("documents", Document.objects.order_by("position", "file_name")),
            Prefetch(
                "copies", Copy.objects.select_related("section", "location", "kind").order_by("barcode")
            ),
        )
        .order_by("title", "pk")
    )
    return games.iterator(chunk_size=500)


def _game_values(game: Game) -> dict:
    category = game.category
    return {
        "identifiant": game.slug,
        "titre": game.title,
        "type_document": game.document_type,
        "auteurs": f" {SEPARATOR} ".join(
            f"{credit.author.name}, {credit.role.capitalize()}" for credit in game.authorships.all()
        ),
        "editeurs": f" {SEPARATOR} ".join(str(credit.publisher) for credit in game.publisher_credits.all()),
        "langues": f" {SEPARATOR} ".join(
            f"{language.name} ({language.code})" for language in game.languages.all()
        ),
        "categorie": category.code if category else "",
        "categorie_libelle": category.label if category else "",
        "categorie_famille": category.family if category else "",
        "mots_cles": f" {SEPARATOR} ".join(tag.name for tag in game.tags.all()),
        "joueurs_min": game.players_min,
        "joueurs_max": game.players_max,
        "age_min": game.age_min,
        "age_max": game.age_max,
        "duree": game.duration_minutes,
        "principe": game.summary,
        "regles": game.rules_summary,
        "contenu": game.contents,
        "analyse_pedagogique": game.pedagogical_analysis,
        "en_ligne": game.online_url,
        "pieces": "\n".join(f"{piece.quantity} × {piece.label}" for piece in game.components.all()),
        "documents": f" {SEPARATOR} ".join(document.file_name for document in game.documents.all()),
    }


def _copy_values(copy: Copy) -> dict:
    return {
        "code_barres": copy.barcode,
        "cote": copy.cote,
        "section": copy.section.code if copy.section else "",
        "section_libelle": copy.section.label if copy.section else "",
        "localisation": copy.location.name,
        "statut": copy.status,
        "type_objet": copy.kind.name,
        "date_acquisition": copy.acquired_on.isoformat() if copy.acquired_on else "",
        "notes": copy.notes,
    }


def catalogue_rows(games: Iterable[Game]) -> Iterator[dict]:
    """One row per copy, the game's columns repeated; a game without copies gets one row."""
    for game in games:
        values = _game_values(game)
        copies = list(game.copies.all())
        if not copies:
            yield values
        for copy in copies:
            yield values | _copy_values(copy)


def csv_lines(rows: Iterable[dict], header: list[str]) -> Iterator[str]:
    """The rows as CSV text, line by line, as every export writes it (ludotheque/spreadsheets.py)."""
    return spreadsheets.csv_lines(header, ([row.get(name) for name in header] for row in rows))


def json_lines(items: Iterable[dict], key: str) -> Iterator[str]:
    """`{"<key>": [item, …]}`, one item at a time."""
    yield f'{{"{key}": ['
    for number, item in enumerate(items):
        yield ("," if number else "") + "\n" + json.dumps(item, ensure_ascii=False, default=str)
    yield "\n]}\n"


def catalogue_json(games: Iterable[Game]) -> Iterator[dict]:
    """Each game with its lists as lists and its copies nested: the JSON export's items."""
    for game in games:
        values = _game_values(game)
        yield {
            **{
                name: values[name]
                for name in GAME_COLUMNS
                if name not in ("auteurs", "editeurs", "langues", "mots_cles", "pieces", "documents")
            },
            "auteurs": [
                {"nom": credit.author.name, "fonction": credit.role} for credit in game.authorships.all()
            ],
            "editeurs": [
                {"nom": credit.publisher.name, "lieu": credit.publisher.place}
                for credit in game.publisher_credits.all()
            ],
            "langues": [{"code": language.code, "nom": language.name} for language in game.languages.all()],
            "mots_cles": [tag.name for tag in game.tags.all()],
            "pieces": [{"quantite": piece.quantity, "piece": piece.label} for piece in game.components.all()],
            "documents": [document.file_name for document in game.documents.all()],
            "exemplaires": [_copy_values(copy) for copy in game.copies.all()],
        }
