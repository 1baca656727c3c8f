"""Importing a spreadsheet of games and copies: the writing side of `catalogue/spreadsheet.py`.

The rules are the PMB import's (`catalogue/services.py`): a row's game is the game owning one of
its barcodes, else the game with its `identifiant` (slug), else the game with the same title and
first author; a game already in the catalogue goes through `game_import_from_pmb` itself (fields
the file leaves empty keep their value, copies are matched by barcode and never removed, a copy's
status is only set when it is created, pieces only while the game has none, documents only added).

Games the catalogue does not have yet, usually nearly all of them in a first import, are created
together: each author, publisher, tag, category and site is read or created once, and the rows go
in with a few INSERTs per table (`bulk_create`), in the same transaction.
"""

from collections.abc import Callable

from django.core.exceptions import ValidationError
from django.db import transaction
from django.db.models import Prefetch
from django.db.models.functions import Lower
from django.utils import timezone
from django.utils.text import slugify
from django.utils.translation import gettext as _

from . import registry
from .models import (
    Author,
    Authorship,
    Category,
    Component,
    Copy,
    Document,
    Game,
    Language,
    Location,
    Publisher,
    PublisherCredit,
    SpreadsheetImport,
    Tag,
)
from .services import (
    CREATED,
    PMB_ROLES,
    UNCHANGED,
    UPDATED,
    NoticeImport,
    PmbImportReport,
    _first_author,
    _import_reporting_errors,
    _new_copy_fields,
    notice_fields,
)
from .spreadsheet import Sheet, SheetNotice, read_sheet

BATCH = 1000


@transaction.atomic
def games_import(*, notices: list[SheetNotice], dry_run: bool = False) -> PmbImportReport:
    """Create or update the games of a spreadsheet; in a dry run, say what would happen and write nothing."""
    matches = _matching_games(notices)
    report = PmbImportReport()
    new = [notice for notice in notices if notice.index not in matches]
    created = iter(_create_games(new) if not dry_run else [_planned_game(notice) for notice in new])
    if not dry_run:
        _categories(notices)  # known categories gain the label or family they lacked, as in the PMB import
    for notice in notices:
        game = matches.get(notice.index)
        if game is None:
            report.entries.append(NoticeImport(notice=notice, action=CREATED, game=next(created)))
        elif game is not AMBIGUOUS and _unchanged(game, notice):
            report.entries.append(NoticeImport(notice=notice, action=UNCHANGED, game=game))
        else:
            report.entries.append(_import_reporting_errors(notice, dry_run))
    if dry_run:
        transaction.set_rollback(True)
    else:
        registry.catalogued([result.game.pk for result in report.results])
    return report


def _chunks(items: list, size: int = BATCH):
    for start in range(0, len(items), size):
        yield items[start : start + size]


# A notice that matches several games: `game_import_from_pmb` says why, in its error.
AMBIGUOUS = object()


def _matching_games(notices: list[SheetNotice]) -> dict[int, Game | object]:
    """The catalogue's game of each notice that has one (by notice index), found as `_game_for_notice`
    finds it, in a few queries for all notices, with what `_unchanged` compares."""
    owners: dict[str, int] = {}
    for chunk in _chunks([copy.barcode for notice in notices for copy in notice.copies]):
        owners |= dict(Copy.objects.filter(barcode__in=chunk).values_list("barcode", "game_id"))
    by_slug: dict[str, int] = {}
    for chunk in _chunks([notice.slug for notice in notices if notice.slug]):
        by_slug |= dict(Game.objects.filter(slug__in=chunk).values_list("slug", "pk"))
    by_title: dict[tuple, list[int]] = {}
    for chunk in _chunks(list({notice.title.casefold() for notice in notices})):
        games = (
            Game.objects.annotate(lower_title=Lower("title"))
            .filter(lower_title__in=chunk)
            .prefetch_related(Prefetch("authorships", Authorship.objects.select_related("author")))
        )
        for game in games:
            by_title.setdefault((game.title.casefold(), _first_author(game)), []).append(game.pk)
    wanted: dict[int, int | object] = {}
    for notice in notices:
        owned = {owners[copy.barcode] for copy in notice.copies if copy.barcode in owners}
        first_author = notice.authors[0].name.casefold() if notice.authors else None
        titled = by_title.get((notice.title.casefold(), first_author), [])
        if len(owned) > 1:
            wanted[notice.index] = AMBIGUOUS
        elif owned:
            wanted[notice.index] = owned.pop()
        elif notice.slug in by_slug:
            wanted[notice.index] = by_slug[notice.slug]
        elif len(titled) > 1:
            wanted[notice.index] = AMBIGUOUS
        elif titled:
            wanted[notice.index] = titled[0]
    games = {}
    for chunk in _chunks([pk for pk in wanted.values() if pk is not AMBIGUOUS]):
        games |= {
            game.pk: game
            for game in Game.objects.filter(pk__in=chunk)
            .select_related("category")
            .defer("search_vector")
            .prefetch_related(
                Prefetch("authorships", Authorship.objects.select_related("author").order_by("position")),
                Prefetch(
                    "publisher_credits",
                    PublisherCredit.objects.select_related("publisher").order_by("position"),
                ),
                "languages",
                "tags",
                "components",
                "documents",
                Prefetch("copies", Copy.objects.select_related("section", "location", "kind")),
            )
        }
    return {index: AMBIGUOUS if pk is AMBIGUOUS else games[pk] for index, pk in wanted.items()}


def _unchanged(game: Game, notice: SheetNotice) -> bool:
    """True only when importing the notice would certainly change nothing (the rules of
    `game_import_from_pmb`); any doubt leaves the notice to it."""
    fields = notice_fields(notice)
    if any(getattr(game, name) != value for name, value in fields.items()):
        return False
    if notice.category and (game.category is None or game.category.code != notice.category.code):
        return False
    if notice.authors:
        wanted = []
        for author in notice.authors:
            role = PMB_ROLES.get(slugify(author.role).replace("-", " "))
            if role is None or (author.name, role) in wanted:
                return False
            wanted.append((author.name, role))
        if wanted != [(credit.author.name, credit.role) for credit in game.authorships.all()]:
            return False
    if notice.publishers:
        wanted = list(dict.fromkeys((publisher.name, publisher.place) for publisher in notice.publishers))
        current = [(credit.publisher.name, credit.publisher.place) for credit in game.publisher_credits.all()]
        if wanted != current:
            return False
    if notice.languages and {language.code for language in notice.languages} != {
        language.code for language in game.languages.all()
    }:
        return False
    if notice.tags and {name.casefold() for name in notice.tags} != {
        tag.name.casefold() for tag in game.tags.all()
    }:
        return False
    if notice.components and not game.components.all():
        return False
    if set(notice.documents) - {document.file_name for document in game.documents.all()}:
        return False
    return not notice.copies or _copies_unchanged(game, notice)


def _copies_unchanged(game: Game, notice: SheetNotice) -> bool:
    copies = {copy.barcode: copy for copy in game.copies.all()}
    for row in notice.copies:
        copy = copies.get(row.barcode)
        if copy is None:
            return False
        if (copy.cote, copy.location.name) != (row.cote, row.location):
            return False
        if (copy.section.code if copy.section else None) != (row.section.code if row.section else None):
            return False
        if (row.acquired_on and row.acquired_on != copy.acquired_on) or (
            row.notes and row.notes != copy.notes
        ):
            return False
        if row.kind and row.kind.casefold() != copy.kind.name.casefold():
            return False
    return True


class _Slugs:
    """Slugs as `_unique_slug` makes them, checked against the catalogue's and this import's."""

    def __init__(self, model):
        self.taken = set(model.objects.values_list("slug", flat=True))

    def take(self, wanted: str, text: str) -> str:
        if wanted and wanted not in self.taken:
            slug = wanted
        else:
            base = slugify(text.replace("'", " ").replace("’", " ")) or "jeu"
            slug, number = base, 1
            while slug in self.taken:
                number += 1
                slug = f"{base}-{number}"
        self.taken.add(slug)
        return slug


def _planned_game(notice: SheetNotice) -> Game:
    return Game(slug=notice.slug, **notice_fields(notice))


def _by_key(model, key_fields: tuple[str, ...], wanted: dict[tuple, dict]) -> dict[tuple, object]:
    """The rows of `model` with these keys, the missing ones created with their defaults."""
    found = {}
    for chunk in _chunks(list(wanted)):
        lookup = {f"{key_fields[0]}__in": [key[0] for key in chunk]}
        for obj in model.objects.filter(**lookup):
            found[tuple(getattr(obj, name) for name in key_fields)] = obj
    missing = [
        model(**dict(zip(key_fields, key, strict=True)), **defaults)
        for key, defaults in wanted.items()
        if key not in found
    ]
    for obj in model.objects.bulk_create(missing, batch_size=BATCH):
        found[tuple(getattr(obj, name) for name in key_fields)] = obj
    return found


def _categories(notices: list[SheetNotice]) -> dict[str, Category]:
    wanted = {}
    for notice in notices:
        for category in [notice.category, *(copy.section for copy in notice.copies)]:
            if category is not None:
                known = wanted.setdefault(category.code, {"label": "", "family": ""})
                known["label"] = known["label"] or category.label
                known["family"] = known["family"] or category.family
    found = _by_key(Category, ("code",), {(code,): values for code, values in wanted.items()})
    # As the PMB import does: a known category gains the label or family it lacked.
    for (code,), category in found.items():
        label, family = category.label or wanted[code]["label"], category.family or wanted[code]["family"]
        if (label, family) != (category.label, category.family):
            category.label, category.family = label, family
            category.save(update_fields=["label", "family"])
    return {code: category for (code,), category in found.items()}


def _tags(notices: list[SheetNotice]) -> dict[str, Tag]:
    tags = {tag.name.casefold(): tag for tag in Tag.objects.all()}
    slugs = _Slugs(Tag)
    missing = {}
    for notice in notices:
        for name in notice.tags:
            if name.casefold() not in tags and name.casefold() not in missing:
                missing[name.casefold()] = Tag(name=name, slug=slugs.take("", name))
    for tag in Tag.objects.bulk_create(missing.values(), batch_size=BATCH):
        tags[tag.name.casefold()] = tag
    return tags


def _references(notices: list[SheetNotice]) -> dict[str, dict]:
    """The categories, tags, sites, languages, authors and publishers these notices name, created if missing."""
    return {
        "categories": _categories(notices),
        "tags": _tags(notices),
        "locations": _by_key(
            Location, ("name",), {(copy.location,): {} for notice in notices for copy in notice.copies}
        ),
        "languages": _by_key(
            Language,
            ("code",),
            {
                (language.code,): {"name": language.name}
                for notice in notices
                for language in notice.languages
            },
        ),
        "authors": _by_key(
            Author, ("name",), {(author.name,): {} for notice in notices for author in notice.authors}
        ),
        "publishers": _by_key(
            Publisher,
            ("name", "place"),
            {(publisher.name, publisher.place): {} for notice in notices for publisher in notice.publishers},
        ),
    }


def _related_rows(game: Game, notice: SheetNotice, references: dict[str, dict]) -> dict:
    """The rows a new game's notice adds beside it, by model, in the order they are written."""
    categories, tags, languages = references["categories"], references["tags"], references["languages"]
    roles = list(
        dict.fromkeys(
            (author.name, PMB_ROLES.get(slugify(author.role).replace("-", " "), Authorship.Role.AUTHOR))
            for author in notice.authors
        )
    )
    publishers = dict.fromkeys((publisher.name, publisher.place) for publisher in notice.publishers)
    return {
        Authorship: [
            Authorship(game=game, author=references["authors"][(name,)], role=role, position=position)
            for position, (name, role) in enumerate(roles)
        ],
        PublisherCredit: [
            PublisherCredit(game=game, publisher=references["publishers"][key], position=position)
            for position, key in enumerate(publishers)
        ],
        Game.languages.through: [
            Game.languages.through(game=game, language=language)
            for language in {
                languages[(language.code,)].pk: languages[(language.code,)] for language in notice.languages
            }.values()
        ],
        Game.tags.through: [
            Game.tags.through(game=game, tag=tag)
            for tag in {tags[name.casefold()].pk: tags[name.casefold()] for name in notice.tags}.values()
        ],
        Component: [
            Component(game=game, position=position, quantity=piece.quantity, label=piece.label[:200])
            for position, piece in enumerate(notice.components)
        ],
        Document: [
            Document(game=game, file_name=name, position=position)
            for position, name in enumerate(notice.documents)
        ],
        Copy: [
            Copy(
                game=game,
                cote=copy.cote,
                section=categories[copy.section.code] if copy.section else None,
                location=references["locations"][(copy.location,)],
                barcode=copy.barcode,
                **_new_copy_fields(copy),
            )
            for copy in notice.copies
        ],
    }


def _create_games(notices: list[SheetNotice]) -> list[Game]:
    """Create these games with their credits, languages, tags, pieces, documents and copies."""
    if not notices:
        return []
    references = _references(notices)
    categories = references["categories"]
    slugs = _Slugs(Game)
    games = Game.objects.bulk_create(
        [
            Game(
                slug=slugs.take(notice.slug, notice.title),
                category=categories[notice.category.code] if notice.category else None,
                **notice_fields(notice),
            )
            for notice in notices
        ],
        batch_size=BATCH,
    )
    rows: dict = {}
    for game, notice in zip(games, notices, strict=True):
        for model, made in _related_rows(game, notice, references).items():
            rows.setdefault(model, []).extend(made)
    for model, made in rows.items():
        model.objects.bulk_create(made, batch_size=BATCH)
    return games


def summary(report: PmbImportReport, sheet: Sheet) -> str:
    """`Créés : 3, mis à jour : 1, inchangés : 0, erreurs : 2.`"""
    return _(
        "Créés : %(created)d, mis à jour : %(updated)d, inchangés : %(unchanged)d, erreurs : %(errors)d."
    ) % {
        "created": report.count(CREATED),
        "updated": report.count(UPDATED),
        "unchanged": report.count(UNCHANGED),
        "errors": len(sheet.errors) + len(report.errors),
    }


@transaction.atomic
def spreadsheet_import_confirm(*, upload: SpreadsheetImport, staff, run: Callable[[str], tuple[object, str]]):
    """Import an uploaded spreadsheet once: `run(text)` writes and returns its result and summary.

    A second confirmation (another tab, a double click) is refused: the upload's row is locked.
    """
    upload = SpreadsheetImport.objects.select_for_update().get(pk=upload.pk)
    if upload.imported_at is not None:
        raise ValidationError(_("Ce fichier a déjà été importé."), code="already_imported")
    result, upload.summary = run(upload.content)
    upload.imported_at = timezone.now()
    upload.imported_by = staff
    upload.save(update_fields=["imported_at", "imported_by", "summary"])
    return result


def games_import_text(text: str, *, source: str = "", dry_run: bool = False) -> tuple[tuple, str]:
    """Read and import a spreadsheet's text: ((sheet, report), summary)."""
    sheet = read_sheet(text, source=source)
    report = games_import(notices=sheet.notices, dry_run=dry_run)
    return (sheet, report), summary(report, sheet)
