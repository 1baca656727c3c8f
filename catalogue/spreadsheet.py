"""The catalogue as a spreadsheet: one row per copy (or per game without copies), read and written.

The columns are documented in docs/guide-bibliothecaire.md (« Importer et exporter le catalogue »). A game's columns
are read from its first row; its other rows add copies (their game columns may be left empty, but
may not say something else). Rows belong to the same game when they have the same `identifiant`,
or else the same title and first author. Lists inside a cell are separated by « ; » (authors as
PMB writes them: `Antoine Bauza, Auteur ; Bruno Cathala, Illustrateur`), the pieces one per line
(`16 × pièces`). Reading touches no database table: `catalogue.services.games_import` writes.

The standard `csv` module reads and writes: the columns are our own, the file is streamed row by
row (10,000 rows), and the import's rules live in the services; a tabular library would add a
dependency for the same two loops.
"""

import csv
import datetime
import io
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field

from django.utils import translation
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy

from ludotheque.spreadsheets import plain_cell

from .models import Copy
from .pieces import Piece
from .pmb import PmbAuthor, PmbCategory, PmbCopy, PmbLanguage, PmbNotice, PmbPublisher

# (column, what it holds), in file order. The header must name `titre`; other columns are optional.
COLUMNS = [
    ("identifiant", "slug"),
    ("titre", "title"),
    ("type_document", "document_type"),
    ("auteurs", "authors"),
    ("editeurs", "publishers"),
    ("langues", "languages"),
    ("categorie", "category"),
    ("categorie_libelle", "category label"),
    ("categorie_famille", "category family"),
    ("mots_cles", "tags"),
    ("joueurs_min", "players_min"),
    ("joueurs_max", "players_max"),
    ("age_min", "age_min"),
    ("age_max", "age_max"),
    ("duree", "duration_minutes"),
    ("principe", "summary"),
    ("regles", "rules_summary"),
    ("contenu", "contents"),
    ("analyse_pedagogique", "pedagogical_analysis"),
    ("en_ligne", "online_url"),
    ("pieces", "components"),
    ("documents", "documents"),
    ("code_barres", "barcode"),
    ("cote", "cote"),
    ("section", "section code"),
    ("section_libelle", "section label"),
    ("localisation", "location"),
    ("statut", "status"),
    ("type_objet", "kind"),
    ("date_acquisition", "acquired_on"),
    ("notes", "notes"),
]
HEADER = [name for name, _meaning in COLUMNS]
GAME_COLUMNS = HEADER[: HEADER.index("code_barres")]
COPY_COLUMNS = HEADER[HEADER.index("code_barres") :]
NUMBER_COLUMNS = {"joueurs_min": 99, "joueurs_max": 999, "age_min": 120, "age_max": 120, "duree": 32767}
# Field sizes of the models, checked here so that a long cell is a row error, not a database error.
MAX_LENGTHS = {
    "identifiant": 220,
    "titre": 200,
    "type_document": 120,
    "categorie": 20,
    "categorie_libelle": 120,
    "categorie_famille": 120,
    "en_ligne": 500,
    "code_barres": 40,
    "cote": 40,
    "section": 20,
    "section_libelle": 120,
    "localisation": 120,
    "type_objet": 60,
}
MAX_ROWS = 10_000
MAX_BYTES = 20 * 1024 * 1024
CELL_TOO_LONG = gettext_lazy(
    "ligne %(line)s : une cellule dépasse 128 Ko, ou un guillemet n'y est jamais fermé ; "
    "le fichier ne peut pas être lu."
)
SEPARATOR = ";"
_PIECE_RE = re.compile(r"([0-9]{1,6}) ?[×xX] ?(\S.*)")


@dataclass(frozen=True)
class SheetCopy(PmbCopy):
    """A copy as a row gives it: PMB's columns plus what a spreadsheet also carries."""

    status: str = Copy.Status.ON_SHELF
    acquired_on: datetime.date | None = None
    notes: str = ""
    # The copy's kind of item by name (catalogue.ItemKind, made if new); empty: the default, or unchanged.
    kind: str = ""


@dataclass
class SheetNotice(PmbNotice):
    """A game as its rows give it; `line` is its first row's line number in the file."""

    slug: str = ""


@dataclass
class SheetError:
    """Why a row (or the file, line 0) cannot be imported."""

    line: int
    column: str
    message: str

    def __str__(self) -> str:
        where = _("ligne %(line)s") % {"line": self.line} if self.line else _("fichier")
        return f"{where}, {self.column} : {self.message}" if self.column else f"{where} : {self.message}"


@dataclass
class Sheet:
    notices: list[SheetNotice] = field(default_factory=list)
    errors: list[SheetError] = field(default_factory=list)
    rows: int = 0


# --- Reading -----------------------------------------------------------------------------------


def decode(data: bytes) -> str:
    """The file's text: UTF-8 (with or without the BOM spreadsheets add); raises UnicodeDecodeError."""
    return data.decode("utf-8-sig")


def table(
    text: str, columns: list[str], required: str, errors: list[SheetError]
) -> Iterator[tuple[int, dict]]:
    """The rows of a CSV text as (first line, {column: value without surrounding spaces}), empty rows
    skipped. The first line names the columns (`required` among them, none unknown); `;` or `,`
    separate the cells. What is wrong with the file or a row's shape goes to `errors`."""
    first_line = text.split("\n", 1)[0]
    delimiter = ";" if first_line.count(";") > first_line.count(",") else ","
    reader = csv.DictReader(io.StringIO(text, newline=""), delimiter=delimiter)
    try:
        header = [name.strip().lower() for name in reader.fieldnames or []]
    except csv.Error:
        errors.append(SheetError(0, "", CELL_TOO_LONG % {"line": 1}))
        return
    if required not in header:
        errors.append(
            SheetError(
                0,
                "",
                _("la première ligne doit nommer les colonnes, dont « %(column)s ».") % {"column": required},
            )
        )
        return
    unknown = [name for name in header if name and name not in columns]
    if unknown:
        errors.append(
            SheetError(0, "", _("colonnes inconnues : %(columns)s.") % {"columns": ", ".join(unknown)})
        )
        return
    reader.fieldnames = header
    end = 1  # the header's last line
    rows = enumerate(reader, start=1)
    while True:
        try:
            number, row = next(rows)
        except StopIteration:
            return
        except csv.Error:
            # The reader cannot go on past a cell over its limit (csv.field_size_limit(), 128 KB):
            # the whole file is refused, as for a bad header, rather than the rows after it lost.
            errors.append(SheetError(0, "", CELL_TOO_LONG % {"line": end + 1}))
            return
        line, end = end + 1, reader.line_num  # a row's first line: its cells may hold line breaks
        if number > MAX_ROWS:
            errors.append(
                SheetError(line, "", _("plus de %(max)s lignes : coupez le fichier.") % {"max": MAX_ROWS})
            )
            return
        if None in row:
            errors.append(SheetError(line, "", _("plus de cellules que de colonnes.")))
            continue
        # A cell the site's export made inert (an apostrophe before `=`…) reads back as it was.
        values = {name: plain_cell((value or "").strip()) for name, value in row.items()}
        nul = [name for name, value in values.items() if "\x00" in value]
        if nul:
            # PostgreSQL refuses a NUL in text; no spreadsheet writes one in a cell.
            errors += [SheetError(line, name, _("un caractère nul (\\x00) : retirez-le.")) for name in nul]
            continue
        if any(values.values()):
            yield line, values


def read_sheet(text: str, *, source: str = "") -> Sheet:
    """Rows → games with their copies, and the rows' errors (line, column, reason)."""
    sheet = Sheet()
    statuses = _statuses()
    games: dict[tuple, tuple[SheetNotice, dict]] = {}
    barcodes: dict[str, int] = {}
    for line, values in table(text, HEADER, "titre", sheet.errors):
        sheet.rows += 1
        errors: list[SheetError] = []
        key = _game_key(values)
        if key is None:
            errors.append(SheetError(line, "titre", _("chaque ligne nomme son jeu (titre ou identifiant).")))
        elif key in games:
            notice, first = games[key]
            errors += [
                SheetError(
                    line,
                    name,
                    _("« %(value)s » diffère de la ligne %(line)s, la première de ce jeu.")
                    % {"value": values[name], "line": notice.line},
                )
                for name in GAME_COLUMNS
                if values.get(name) and first.get(name) and values[name] != first[name]
            ]
        else:
            notice = _notice(values, line=line, source=source, index=len(games) + 1, errors=errors)
        copy = (
            _copy(values, line=line, statuses=statuses, errors=errors) if values.get("code_barres") else None
        )
        if copy is not None and copy.barcode in barcodes:
            errors.append(
                SheetError(
                    line,
                    "code_barres",
                    _("le code-barres %(barcode)s figure déjà ligne %(line)s.")
                    % {"barcode": copy.barcode, "line": barcodes[copy.barcode]},
                )
            )
        if errors:
            sheet.errors += errors
            continue
        if key not in games:
            games[key] = (notice, values)
            sheet.notices.append(notice)
        if copy is not None:
            barcodes[copy.barcode] = line
            games[key][0].copies.append(copy)
    return sheet


def _game_key(values: dict) -> tuple | None:
    if values.get("identifiant"):
        return ("slug", values["identifiant"])
    if not values.get("titre"):
        return None
    authors = _split(values.get("auteurs", ""))
    first = _author(authors[0]).name.casefold() if authors else ""
    return ("title", values["titre"].casefold(), first)


def _split(text: str) -> list[str]:
    return [item.strip() for item in text.split(SEPARATOR) if item.strip()]


def _author(text: str) -> PmbAuthor:
    from .services import PMB_ROLES

    name, _comma, role = text.rpartition(",")
    if name and slugify(role).replace("-", " ") in PMB_ROLES:
        return PmbAuthor(name=name.strip(), role=role.strip())
    return PmbAuthor(name=text.strip(), role="Auteur")


def _publisher(text: str) -> PmbPublisher:
    place, _colon, name = text.rpartition(" : ")
    return PmbPublisher(name=name.strip(), place=place.strip())


def _language(text: str, errors: list, line: int) -> PmbLanguage | None:
    name, _paren, code = text.rstrip(")").rpartition("(")
    code = code.strip().lower()
    if not name.strip() or len(code) != 3 or not code.isalpha():
        errors.append(
            SheetError(line, "langues", _("« %(value)s » : attendu « Français (fre) ».") % {"value": text})
        )
        return None
    return PmbLanguage(code=code, name=name.strip())


def _pieces(text: str) -> list[Piece]:
    pieces = []
    for line in text.splitlines():
        line = " ".join(line.split())[:200]
        if not line:
            continue
        match = _PIECE_RE.fullmatch(line)
        if match and int(match[1]) > 0:
            pieces.append(Piece(quantity=int(match[1]), label=match[2]))
        else:
            pieces.append(Piece(quantity=1, label=line))
    return pieces


def _number(values: dict, name: str, errors: list, line: int) -> int | None:
    text = values.get(name, "")
    if not text:
        return None
    # ASCII digits only: str.isdigit() also accepts « ² », which int() refuses (a 500).
    if not re.fullmatch(r"[0-9]{1,9}", text) or int(text) > NUMBER_COLUMNS[name]:
        errors.append(
            SheetError(
                line,
                name,
                _("« %(value)s » n'est pas un nombre entier de 0 à %(max)s.")
                % {"value": text, "max": NUMBER_COLUMNS[name]},
            )
        )
        return None
    return int(text)


def _check_lengths(values: dict, names: Iterable[str], errors: list, line: int) -> None:
    for name in names:
        if name in MAX_LENGTHS and len(values.get(name, "")) > MAX_LENGTHS[name]:
            errors.append(
                SheetError(line, name, _("au plus %(max)s caractères.") % {"max": MAX_LENGTHS[name]})
            )


def _notice(values: dict, *, line: int, source: str, index: int, errors: list) -> SheetNotice:
    _check_lengths(values, GAME_COLUMNS, errors, line)
    numbers = {name: _number(values, name, errors, line) for name in NUMBER_COLUMNS}
    for low, high, message in (
        ("joueurs_min", "joueurs_max", _("plus que le nombre maximum de joueurs.")),
        ("age_min", "age_max", _("plus que l'âge maximum.")),
    ):
        if numbers[low] is not None and numbers[high] is not None and numbers[low] > numbers[high]:
            errors.append(SheetError(line, low, message))
    if numbers["joueurs_min"] == 0:
        errors.append(SheetError(line, "joueurs_min", _("il faut au moins un joueur.")))
    if numbers["duree"] == 0:
        errors.append(SheetError(line, "duree", _("la durée moyenne doit être d'au moins une minute.")))
    if values.get("en_ligne") and not values["en_ligne"].startswith(("http://", "https://")):
        errors.append(SheetError(line, "en_ligne", _("une adresse commence par http:// ou https://.")))
    if values.get("identifiant") and slugify(values["identifiant"]) != values["identifiant"]:
        errors.append(SheetError(line, "identifiant", _("lettres minuscules, chiffres et tirets seulement.")))
    category = None
    if values.get("categorie"):
        category = PmbCategory(
            code=values["categorie"],
            label=values.get("categorie_libelle", ""),
            family=values.get("categorie_famille", ""),
        )
    languages = [_language(text, errors, line) for text in _split(values.get("langues", ""))]
    return SheetNotice(
        title=values.get("titre", ""),
        slug=values.get("identifiant", ""),
        source=source,
        line=line,
        index=index,
        document_type=values.get("type_document", ""),
        authors=[_author(text) for text in _split(values.get("auteurs", ""))],
        publishers=[_publisher(text) for text in _split(values.get("editeurs", ""))],
        languages=[language for language in languages if language],
        category=category,
        tags=list(dict.fromkeys(_split(values.get("mots_cles", "")))),
        players_min=numbers["joueurs_min"],
        players_max=numbers["joueurs_max"],
        age_min=numbers["age_min"],
        age_max=numbers["age_max"],
        duration_minutes=numbers["duree"],
        summary=values.get("principe", ""),
        rules_summary=values.get("regles", ""),
        contents=values.get("contenu", ""),
        pedagogical_analysis=values.get("analyse_pedagogique", ""),
        online_url=values.get("en_ligne", ""),
        components=_pieces(values.get("pieces", "")),
        documents=list(dict.fromkeys(_split(values.get("documents", "")))),
    )


def _statuses() -> dict[str, str]:
    """Each status by its value (`on_shelf`) and its French and English labels, lower case."""
    statuses = {}
    for language in ("fr", "en"):
        with translation.override(language):
            statuses |= {str(label).casefold(): value for value, label in Copy.Status.choices}
    return statuses | {value: value for value in Copy.Status.values}


def _copy(values: dict, *, line: int, statuses: dict, errors: list) -> SheetCopy | None:
    before = len(errors)
    _check_lengths(values, COPY_COLUMNS, errors, line)
    for name in ("localisation", "cote"):
        if not values.get(name):
            errors.append(SheetError(line, name, _("un exemplaire a une %(column)s.") % {"column": name}))
    status = statuses.get(values.get("statut", "").casefold() or Copy.Status.ON_SHELF)
    if status is None:
        errors.append(
            SheetError(
                line,
                "statut",
                _("« %(value)s » : statuts possibles %(choices)s.")
                % {"value": values["statut"], "choices": ", ".join(Copy.Status.values)},
            )
        )
    acquired_on = None
    if values.get("date_acquisition"):
        try:
            acquired_on = datetime.date.fromisoformat(values["date_acquisition"])
        except ValueError:
            errors.append(SheetError(line, "date_acquisition", _("date attendue sous la forme 2026-09-30.")))
    if len(errors) > before:
        return None
    section = None
    if values.get("section"):
        section = PmbCategory(code=values["section"], label=values.get("section_libelle", ""))
    return SheetCopy(
        cote=values["cote"],
        section=section,
        location=values["localisation"],
        barcode=values["code_barres"],
        availability="",
        status=status,
        acquired_on=acquired_on,
        notes=values.get("notes", ""),
        kind=values.get("type_objet", ""),
    )
