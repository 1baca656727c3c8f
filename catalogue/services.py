"""Catalogue writes that touch several tables: importing the library's PMB notices.

Which game a notice is: the game that owns one of the notice's barcodes; failing that, the game
with the same title (ignoring case) and the same first author (or no author on both sides). A
notice that matches nothing creates a game whose slug is its slugified title.

What a re-import changes: the fields and lists the notice carries (title, type, numbers, texts,
link, category, authors, publishers, languages, tags) are set to the notice's values; a field the
notice leaves empty keeps what the librarians entered. Copies are matched by barcode: new ones are
added, cote, section and location follow the notice, but the status is only set when the copy is
created (the desk owns it afterwards) and no copy is ever removed. Pieces are only filled while the
game has none (the return checklist belongs to the librarians once it exists) and documents are
only added, by file name.
"""

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from django.core.exceptions import ValidationError
from django.db import DatabaseError, transaction
from django.utils.text import slugify
from django.utils.translation import gettext as _

from . import registry
from .models import (
    Author,
    Authorship,
    BarcodeSequence,
    Category,
    Component,
    Copy,
    Document,
    Game,
    ItemKind,
    Language,
    Location,
    Publisher,
    PublisherCredit,
    Tag,
)
from .pmb import PmbCategory, PmbCopy, PmbError, PmbNotice, parse_page

CREATED, UPDATED, UNCHANGED = "created", "updated", "unchanged"

# PMB's function labels (lower case, without accents) → our roles.
PMB_ROLES = {
    "auteur": Authorship.Role.AUTHOR,
    "illustrateur": Authorship.Role.ILLUSTRATOR,
    "developpeur": Authorship.Role.DEVELOPER,
    "traducteur": Authorship.Role.TRANSLATOR,
}

# PMB's Disponibilité → the status a new copy starts with. A copy PMB shows on loan is lendable
# here (no loan is invented); its notes keep what PMB said.
PMB_STATUSES = {
    "Disponible": Copy.Status.ON_SHELF,
    "En prêt": Copy.Status.ON_SHELF,
    "Exclu du prêt": Copy.Status.NOT_FOR_LOAN,
    "En réparation": Copy.Status.IN_REPAIR,
    "Incomplet": Copy.Status.INCOMPLETE,
    "Perdu": Copy.Status.LOST,
    "Retiré": Copy.Status.WITHDRAWN,
    "Pilonné": Copy.Status.WITHDRAWN,
    "En commande": Copy.Status.NOT_FOR_LOAN,
    "En traitement": Copy.Status.NOT_FOR_LOAN,
}


@dataclass
class NoticeImport:
    """What importing one notice did (or, in a dry run, would do)."""

    notice: PmbNotice
    action: str
    game: Game
    changes: list[str] = field(default_factory=list)


@dataclass
class PmbImportReport:
    """The outcome of importing files, in file order: one entry per notice (imported or in error)."""

    entries: list[NoticeImport | PmbError] = field(default_factory=list)
    files_without_notice: list[str] = field(default_factory=list)

    @property
    def results(self) -> list[NoticeImport]:
        return [entry for entry in self.entries if isinstance(entry, NoticeImport)]

    @property
    def errors(self) -> list[PmbError]:
        return [entry for entry in self.entries if isinstance(entry, PmbError)]

    def count(self, action: str) -> int:
        return sum(result.action == action for result in self.results)


def games_import_from_pmb_files(*, paths: Iterable[str | Path], dry_run: bool = False) -> PmbImportReport:
    """Import every notice of these PMB pages, each in its own transaction; errors don't stop the others."""
    report = PmbImportReport()
    for path in map(Path, paths):
        try:
            # utf-8-sig: a byte order mark at the start (Windows editors write one) is not text.
            text = path.read_text(encoding="utf-8-sig")
        except (OSError, UnicodeDecodeError) as error:
            report.entries.append(
                PmbError(_("fichier illisible (%(error)s).") % {"error": error}, source=path.name)
            )
            continue
        page = parse_page(
            text,
            source=path.name,
            known_tags=Tag.objects.values_list("name", flat=True),
            known_locations=Location.objects.values_list("name", flat=True),
        )
        if not page.has_notices:
            report.files_without_notice.append(path.name)
        for item in sorted([*page.notices, *page.errors], key=lambda item: item.index):
            report.entries.append(
                item if isinstance(item, PmbError) else _import_reporting_errors(item, dry_run)
            )
    if not dry_run:
        # Each title gets its rules page (registered by the rules app), or a still generated one its notice's news.
        registry.catalogued([result.game.pk for result in report.results])
    return report


def _import_reporting_errors(notice: PmbNotice, dry_run: bool) -> NoticeImport | PmbError:
    """Import one notice; what the database refuses is this notice's error, and the others go on."""
    try:
        return game_import_from_pmb(notice=notice, dry_run=dry_run)
    except (ValidationError, DatabaseError) as error:
        messages = error.messages if isinstance(error, ValidationError) else [str(error).strip()]
        return PmbError(" ".join(messages), source=notice.source, line=notice.line, index=notice.index)


def _fitting(model, field_name: str, value: str, label: str) -> str:
    """`value` if it fits the column, else a ValidationError naming the field (not the database's words)."""
    limit = model._meta.get_field(field_name).max_length
    if len(value) > limit:
        raise ValidationError(
            _("%(label)s : « %(start)s… » dépasse %(max)s caractères."),
            code="too_long",
            params={"label": label, "start": value[:10], "max": limit},
        )
    return value


@transaction.atomic
def game_import_from_pmb(*, notice: PmbNotice, dry_run: bool = False) -> NoticeImport:
    """Create or update the game a PMB notice describes, with its credits, pieces and copies."""
    game = _game_for_notice(notice)
    created = game is None
    if created:
        slug = getattr(notice, "slug", "")
        game = Game(
            slug=slug
            if slug and not Game.objects.filter(slug=slug).exists()
            else _unique_slug(Game, notice.title)
        )
    changes: list[str] = []
    _set_fields(game, notice, changes)
    if created or changes:
        game.full_clean()
        game.save()
    _set_authors(game, notice.authors, changes)
    _set_publishers(game, notice, changes)
    _set_languages(game, notice, changes)
    _set_tags(game, notice.tags, changes)
    _add_components(game, notice, changes)
    _add_documents(game, notice.documents, changes)
    for pmb_copy in notice.copies:
        _set_copy(game, pmb_copy, changes)
    if dry_run:
        transaction.set_rollback(True)
    action = CREATED if created else UPDATED if changes else UNCHANGED
    return NoticeImport(notice=notice, action=action, game=game, changes=[] if created else changes)


def _game_for_notice(notice: PmbNotice) -> Game | None:
    barcodes = [copy.barcode for copy in notice.copies]
    owners = list(Game.objects.filter(copies__barcode__in=barcodes).distinct()) if barcodes else []
    if len(owners) > 1:
        raise ValidationError(
            _("Les codes-barres de cette notice appartiennent à plusieurs jeux : %(games)s."),
            code="barcodes_on_several_games",
            params={"games": ", ".join(game.title for game in owners)},
        )
    if owners:
        return owners[0]
    slug = getattr(notice, "slug", "")  # a spreadsheet row's `identifiant`
    if slug and (game := Game.objects.filter(slug=slug).first()):
        return game
    first_author = notice.authors[0].name.casefold() if notice.authors else None
    matches = [
        game
        for game in Game.objects.filter(title__iexact=notice.title).prefetch_related("authorships__author")
        if _first_author(game) == first_author
    ]
    if len(matches) > 1:
        raise ValidationError(
            _(
                "Plusieurs jeux s'appellent « %(title)s » avec le même premier auteur : impossible de choisir."
            ),
            code="ambiguous_game",
            params={"title": notice.title},
        )
    return matches[0] if matches else None


def _first_author(game: Game) -> str | None:
    authorships = sorted(game.authorships.all(), key=lambda authorship: authorship.position)
    return authorships[0].author.name.casefold() if authorships else None


def _unique_slug(model, text: str) -> str:
    """Slugify with apostrophes as word breaks (`L'or des Dragons` → `l-or-des-dragons`), then number."""
    base = slugify(text.replace("'", " ").replace("’", " ")) or "jeu"
    slug, number = base, 1
    while model.objects.filter(slug=slug).exists():
        number += 1
        slug = f"{base}-{number}"
    return slug


def notice_fields(notice: PmbNotice) -> dict:
    """The game's fields a notice gives: only those with a value (an empty one keeps the game's)."""
    values = {
        "title": notice.title,
        "document_type": notice.document_type,
        "players_min": notice.players_min,
        "players_max": notice.players_max,
        "age_min": notice.age_min,
        "age_max": notice.age_max,
        "duration_minutes": notice.duration_minutes,
        "summary": notice.summary,
        "rules_summary": notice.rules_summary,
        "pedagogical_analysis": notice.pedagogical_analysis,
        "contents": notice.contents,
        "online_url": notice.online_url,
    }
    return {name: value for name, value in values.items() if value not in (None, "")}


def _set_fields(game: Game, notice: PmbNotice, changes: list[str]) -> None:
    for name, value in notice_fields(notice).items():
        if getattr(game, name) == value:
            continue
        setattr(game, name, value)
        changes.append(_label(name))
    if notice.category:
        category = _category(notice.category)
        if game.category_id != category.pk:
            game.category = category
            changes.append(_label("category"))


def _label(field_name: str) -> str:
    """How a change to this field of the game is reported (its verbose name)."""
    return str(Game._meta.get_field(field_name).verbose_name)


def _category(pmb_category: PmbCategory) -> Category:
    """The category with this code; a new one keeps the notice's label, a known one gains missing words."""
    _fitting(Category, "code", pmb_category.code, _("Catégorie"))
    _fitting(Category, "label", pmb_category.label, _("Catégorie"))
    _fitting(Category, "family", pmb_category.family, _("Catégorie"))
    category, created = Category.objects.get_or_create(
        code=pmb_category.code, defaults={"label": pmb_category.label, "family": pmb_category.family}
    )
    if not created and (
        (not category.label and pmb_category.label) or (not category.family and pmb_category.family)
    ):
        category.label = category.label or pmb_category.label
        category.family = category.family or pmb_category.family
        category.save(update_fields=["label", "family"])
    return category


def _set_authors(game: Game, authors, changes: list[str]) -> None:
    if not authors:
        return
    wanted = []
    for author in authors:
        role = PMB_ROLES.get(slugify(author.role).replace("-", " "))
        if role is None:
            raise ValidationError(
                _("Fonction d'auteur inconnue : « %(role)s »."),
                code="unknown_role",
                params={"role": author.role},
            )
        _fitting(Author, "name", author.name, _("Auteur"))
        if (author.name, role) not in wanted:
            wanted.append((author.name, role))
    current = [
        (authorship.author.name, authorship.role) for authorship in game.authorships.select_related("author")
    ]
    if current == wanted:
        return
    game.authorships.all().delete()
    Authorship.objects.bulk_create(
        Authorship(game=game, author=Author.objects.get_or_create(name=name)[0], role=role, position=position)
        for position, (name, role) in enumerate(wanted)
    )
    changes.append(_label("authors"))


def _set_publishers(game: Game, notice: PmbNotice, changes: list[str]) -> None:
    if not notice.publishers:
        return
    for publisher in notice.publishers:
        _fitting(Publisher, "name", publisher.name, _("Éditeur"))
        _fitting(Publisher, "place", publisher.place, _("Lieu d'édition"))
    wanted = list(dict.fromkeys((publisher.name, publisher.place) for publisher in notice.publishers))
    current = [
        (credit.publisher.name, credit.publisher.place)
        for credit in game.publisher_credits.select_related("publisher")
    ]
    if current == wanted:
        return
    game.publisher_credits.all().delete()
    PublisherCredit.objects.bulk_create(
        PublisherCredit(
            game=game, publisher=Publisher.objects.get_or_create(name=name, place=place)[0], position=position
        )
        for position, (name, place) in enumerate(wanted)
    )
    changes.append(_label("publishers"))


def _set_languages(game: Game, notice: PmbNotice, changes: list[str]) -> None:
    if notice.languages:
        wanted = [
            Language.objects.get_or_create(
                code=language.code, defaults={"name": _fitting(Language, "name", language.name, _("Langue"))}
            )[0]
            for language in notice.languages
        ]
        _set_many(game, "languages", wanted, changes)


def _set_tags(game: Game, names: list[str], changes: list[str]) -> None:
    if names:
        _set_many(game, "tags", [_tag_for_name(name) for name in names], changes)


def _set_many(game: Game, field_name: str, wanted: list, changes: list[str]) -> None:
    """Make the game's many-to-many `field_name` hold exactly `wanted`, in any order."""
    related = getattr(game, field_name)
    if {obj.pk for obj in wanted} != set(related.values_list("pk", flat=True)):
        related.set(wanted)
        changes.append(_label(field_name))


def _tag_for_name(name: str) -> Tag:
    """The tag with this name whatever its case, created with a unique slug if new."""
    _fitting(Tag, "name", name, _("Tag"))
    tag = Tag.objects.filter(name__iexact=name).first()
    return tag or Tag.objects.create(name=name, slug=_unique_slug(Tag, name))


def _add_components(game: Game, notice: PmbNotice, changes: list[str]) -> None:
    if not notice.components or game.components.exists():
        return
    Component.objects.bulk_create(
        Component(game=game, position=position, quantity=component.quantity, label=component.label[:200])
        for position, component in enumerate(notice.components)
    )
    changes.append(str(Component._meta.verbose_name_plural))


def _add_documents(game: Game, file_names: list[str], changes: list[str]) -> None:
    known = set(game.documents.values_list("file_name", flat=True))
    for position, file_name in enumerate(file_names):
        if file_name not in known:
            _fitting(Document, "file_name", file_name, _("Document numérique"))
            Document.objects.create(game=game, file_name=file_name, position=position)
            changes.append(_("document %(name)s") % {"name": file_name})


def _new_copy_fields(pmb_copy: PmbCopy) -> dict:
    """A new copy's status and notes: a spreadsheet's own columns, or what PMB's Disponibilité says."""
    if hasattr(pmb_copy, "status"):
        fields = {"status": pmb_copy.status, "notes": pmb_copy.notes, "acquired_on": pmb_copy.acquired_on}
        return fields | ({"kind": _item_kind(pmb_copy.kind)} if pmb_copy.kind else {})
    notes = "" if pmb_copy.availability == "Disponible" else f"PMB : {pmb_copy.availability}"
    return {"status": PMB_STATUSES.get(pmb_copy.availability, Copy.Status.ON_SHELF), "notes": notes}


def _item_kind(name: str) -> ItemKind:
    """The kind of item a spreadsheet names, whatever its case; a new name is a new kind (without rules)."""
    kind = ItemKind.objects.filter(name__iexact=name.strip()).first()
    return kind or ItemKind.objects.create(name=_fitting(ItemKind, "name", name.strip(), _("Type d'objet")))


def _set_copy(game: Game, pmb_copy: PmbCopy, changes: list[str]) -> None:
    section = _category(pmb_copy.section) if pmb_copy.section else None
    location = Location.objects.get_or_create(
        name=_fitting(Location, "name", pmb_copy.location, _("Localisation"))
    )[0]
    copy = Copy.objects.filter(barcode=pmb_copy.barcode).first()
    if copy is None:
        copy = Copy(
            game=game,
            cote=pmb_copy.cote,
            section=section,
            location=location,
            barcode=pmb_copy.barcode,
            **_new_copy_fields(pmb_copy),
        )
        copy.full_clean()
        copy.save()
        changes.append(_("exemplaire %(barcode)s ajouté") % {"barcode": pmb_copy.barcode})
        return
    wanted = {"cote": pmb_copy.cote, "section": section, "location": location}
    # A spreadsheet row also carries the acquisition date and notes: they follow it when given.
    wanted |= {
        name: getattr(pmb_copy, name) for name in ("acquired_on", "notes") if getattr(pmb_copy, name, None)
    }
    if getattr(pmb_copy, "kind", ""):
        wanted["kind"] = _item_kind(pmb_copy.kind)
    differing = [name for name, value in wanted.items() if getattr(copy, name) != value]
    if differing:
        for name in differing:
            setattr(copy, name, wanted[name])
        copy.full_clean()
        copy.save()
        changes.append(_("exemplaire %(barcode)s modifié") % {"barcode": pmb_copy.barcode})


# How many numbers past the next one are checked at once for barcodes already in use.
ALLOCATION_WINDOW = 1000


@transaction.atomic
def barcode_allocate() -> str:
    """The next free barcode of the library's sequence, taken in the caller's transaction.

    The sequence row is locked until that transaction ends, so concurrent copies get consecutive,
    distinct numbers, and a rolled-back copy gives its number back. Numbers already printed on a
    copy (an imported label) are skipped.
    """
    sequence = BarcodeSequence.objects.select_for_update().first()
    if sequence is None:
        raise ValidationError(
            _("Saisissez un code-barres : aucune séquence de numérotation n'est configurée."),
            code="no_sequence",
        )
    candidates = [
        sequence.barcode(number)
        for number in range(sequence.next_number, sequence.next_number + ALLOCATION_WINDOW)
    ]
    used = set(Copy.objects.filter(barcode__in=candidates).values_list("barcode", flat=True))
    free = next((offset for offset, barcode in enumerate(candidates) if barcode not in used), None)
    if free is None:
        raise ValidationError(
            _("Les %(count)s numéros suivants de la séquence sont déjà pris : avancez le prochain numéro."),
            code="sequence_exhausted",
            params={"count": ALLOCATION_WINDOW},
        )
    sequence.next_number += free + 1
    sequence.save(update_fields=["next_number"])
    return candidates[free]
