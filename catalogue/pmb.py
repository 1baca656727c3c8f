"""Read the library's PMB OPAC pages into plain notices; no database access here (only gettext).

A PMB page (author page, listing page, or the pipe-separated `Label : | value |` layout) holds
notices. Each notice starts at `Titre :` and shows its fields twice: the detailed view, then an
ISBD summary line (`Biblios [objet à 3 dimensions, artefacts, ...] / Steve Finn, Auteur . - …`)
followed by the same fields again. Only the detailed view is read, so a notice is parsed once;
the exemplaires (`Exemplaires (N)`) and the digital documents follow the second view.

Tags are space-joined in the export although some have several words (`Jeux à deux`): see
`split_tags` for how they are separated.

Reading is linear in the page: the regular expressions below are anchored, start at a fixed word or
are bounded, and none has nested or overlapping quantifiers (the copies' row expression that had
them took minutes on a few hundred words); the copy rows, languages and categories are cut by hand.
"""

import re
import unicodedata
from collections.abc import Iterable

from django.utils.translation import gettext as _

from .pieces import pieces_from_contents
from .pmb_records import (
    PmbAuthor,
    PmbCategory,
    PmbCopy,
    PmbError,
    PmbLanguage,
    PmbNotice,
    PmbPage,
    PmbPublisher,
)

# What the PMB importers read from here, the records included.
__all__ = [
    "PMB_MULTIWORD_TAGS",
    "PmbAuthor",
    "PmbCategory",
    "PmbCopy",
    "PmbError",
    "PmbLanguage",
    "PmbNotice",
    "PmbPage",
    "PmbPublisher",
    "parse_notice",
    "parse_page",
    "split_tags",
]

# Multi-word tags of the library's PMB thesaurus that the capitalisation rule alone would split.
PMB_MULTIWORD_TAGS = ("Jeux à deux",)

# Disponibilité values printed by PMB for an exemplaire (a loan shows its due date).
AVAILABILITIES = (
    r"Disponible",
    r"Sorti jusqu'au \d{2}/\d{2}/\d{4}",
    r"En prêt",
    r"Exclu du prêt",
    r"En réparation",
    r"Incomplet",
    r"Perdu",
    r"Retiré",
    r"Pilonné",
    r"En commande",
    r"En traitement",
)


# --- Fields of the detailed view, in the order PMB prints them --------------------------------

_LABELS = (
    ("title", r"Titre"),
    ("document_type", r"Type de document"),
    ("authors", r"Auteurs?"),
    ("other_publishers", r"Autres? [EÉ]diteurs?"),
    ("publisher", r"[EÉ]diteurs?"),
    ("languages", r"Langues?"),
    ("categories", r"Cat[ée]gories?"),
    ("tags", r"Tags"),
    ("players_min", r"Nombre minimum de joueurs"),
    ("players_max", r"Nombre maximum de joueurs"),
    ("age_min", r"[AÂ]ge minimum"),
    ("age_max", r"[AÂ]ge maximum"),
    ("duration_minutes", r"Dur[ée]e moyenne \(minutes\)"),
    ("summary", r"Principe du jeu"),
    ("rules_summary", r"R[èe]gles du jeu"),
    ("pedagogical_analysis", r"Analyse p[ée]dagogique"),
    ("contents", r"Contenu"),
    ("online_url", r"En ligne"),
)
# "Autre Editeur" is listed before "Editeur" so the alternation reads it whole; PMB prints it after.
_ORDER = [
    "title",
    "document_type",
    "authors",
    "publisher",
    "other_publishers",
    "languages",
    "categories",
    "tags",
    "players_min",
    "players_max",
    "age_min",
    "age_max",
    "duration_minutes",
    "summary",
    "rules_summary",
    "pedagogical_analysis",
    "contents",
    "online_url",
]
_LABEL_RE = re.compile(
    r"(?<!\w)(?:" + "|".join(f"(?P<{key}>{pattern})" for key, pattern in _LABELS) + r")[ \t]*:",
)
_NOTICE_START_RE = re.compile(r"(?<!\S)Titre[ \t]*:")
_NUMBER_LABELS = {
    "players_min": "Nombre minimum de joueurs",
    "players_max": "Nombre maximum de joueurs",
    "age_min": "Age minimum",
    "age_max": "Age maximum",
    "duration_minutes": "Durée moyenne (minutes)",
}
_COPIES_RE = re.compile(r"(?<!\w)Exemplaires[ \t]*\((\d+)\)")
_DOCUMENTS_RE = re.compile(r"(?<!\w)Documents num[ée]riques")
_COPY_HEADER_RE = re.compile(r"^\s*Cote\s+Section\s+Localisation\s+Code-barres\s+Disponibilit[ée]\s*")
# A classification code at the start of a category (`A 406 jeu de stratégie (jeu de règles)`).
_CATEGORY_CODE_RE = re.compile(r"[A-Z]{1,3} ?[0-9]{1,4}(?:[.,][0-9]+)? ")
# A language's code, `(fre)`: its name is the text before it (`Français (fre) ; Anglais (eng)`).
_LANGUAGE_CODE_RE = re.compile(r"\(\s*([a-z]{3})\s*\)")
# What ends an exemplaire's row (`TEU A 410 jeu de langue Maison des Enfants 90461 Disponible`).
_AVAILABILITY_RE = re.compile(r"(?<!\S)(?:" + "|".join(AVAILABILITIES) + r")(?!\S)")
_SECTION_CODE_RE = re.compile(r"[A-Z]{1,3}[0-9]{1,4}(?:[.,][0-9]+)?")  # one word: `A410`
_SECTION_LETTERS_RE = re.compile(r"[A-Z]{1,3}")  # or two: `A` `410`
_SECTION_NUMBER_RE = re.compile(r"[0-9]{1,4}(?:[.,][0-9]+)?")
_BARCODE_RE = re.compile(r"[0-9A-Za-z-]+")
_DOCUMENT_RE = re.compile(r"^(?P<name>\S(?:.*?\S)?\.[A-Za-z0-9]{2,5})(?=[A-Z]|\s|$)")
_URL_RE = re.compile(r"https?://\S+")


def parse_page(
    text: str,
    *,
    source: str = "",
    known_tags: Iterable[str] = (),
    known_locations: Iterable[str] = (),
) -> PmbPage:
    """Read every notice of a PMB page; a notice that cannot be read becomes an error, not a stop."""
    text = _normalise(text)
    known_tags = tuple(known_tags) + PMB_MULTIWORD_TAGS
    known_locations = tuple(known_locations)
    starts = [match.start() for match in _NOTICE_START_RE.finditer(text)]
    notices, errors = [], []
    line, counted = 1, 0
    for index, start in enumerate(starts, start=1):
        end = starts[index] if index < len(starts) else len(text)
        line += text.count("\n", counted, start)  # from the previous notice on: linear in the page
        counted = start
        try:
            notice = parse_notice(text[start:end], known_tags=known_tags, known_locations=known_locations)
        except PmbError as error:
            error.source, error.line, error.index = source, line, index
            errors.append(error)
            continue
        notice.source, notice.line, notice.index = source, line, index
        notices.append(notice)
    return PmbPage(source=source, notices=notices, errors=errors)


def _normalise(text: str) -> str:
    """Unify line ends and spaces and drop the pipe-separated layout's cell borders, line by line."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u00a0", " ")
    return "\n".join(re.sub(r":[ \t]*\|[ \t]*", ": ", _without_borders(line)) for line in text.split("\n"))


def _without_borders(line: str) -> str:
    """A line without the `|` that opens and the one that closes it, nor the blanks around them."""
    line = line.rstrip()
    if line.lstrip(" \t").startswith("|"):
        line = line.lstrip(" \t")[1:].lstrip(" \t")
    if line.endswith("|"):
        line = line[:-1].rstrip(" \t")
    return line


def parse_notice(
    chunk: str, *, known_tags: Iterable[str] = PMB_MULTIWORD_TAGS, known_locations: Iterable[str] = ()
) -> PmbNotice:
    """Read one notice, from its `Titre :` to the next notice's."""
    if "\x00" in chunk:  # no text holds one; PostgreSQL could not store it either
        raise PmbError(_("caractère nul (0x00) dans la notice : le fichier est abîmé."))
    fields = _detailed_fields(chunk)
    title = " ".join(fields.get("title", "").split())
    if not title:
        raise PmbError(_("la notice n'a pas de titre."))
    view_end = _view_end(chunk, title)
    if view_end < len(chunk):
        fields = _detailed_fields(chunk[:view_end])

    notice = PmbNotice(title=title, document_type=" ".join(fields.get("document_type", "").split()))
    notice.authors = _authors(fields.get("authors", ""))
    notice.publishers = _publishers(fields.get("publisher", "")) + _publishers(
        fields.get("other_publishers", "")
    )
    notice.languages = _languages(fields.get("languages", ""))
    notice.category = _category(fields.get("categories", ""))
    notice.tags = split_tags(" ".join(fields.get("tags", "").split()), known=known_tags)
    for key, label in _NUMBER_LABELS.items():
        setattr(notice, key, _number(fields.get(key, ""), label))
    notice.summary = fields.get("summary", "").strip()
    notice.rules_summary = fields.get("rules_summary", "").strip()
    notice.pedagogical_analysis = fields.get("pedagogical_analysis", "").strip()
    notice.contents = fields.get("contents", "").strip()
    notice.online_url = _online_url(fields.get("online_url", ""))
    notice.components = pieces_from_contents(notice.contents)
    notice.copies = _copies(chunk, known_locations=known_locations)
    notice.documents = _documents(chunk)
    return notice


def _detailed_fields(view: str) -> dict[str, str]:
    """Map each label of the detailed view to its text; labels must come in PMB's order."""
    found: list[tuple[str, int, int]] = []
    last = -1
    for match in _LABEL_RE.finditer(view):
        key = match.lastgroup
        position = _ORDER.index(key)
        if key == "online_url" and found and found[-1][0] == "online_url":
            found[-1] = (key, match.start(), match.end())  # the last "En ligne :" is the field
            continue
        if position <= last:
            continue  # the same words inside a free-text field ("Contenu : Contenu:")
        found.append((key, match.start(), match.end()))
        last = position
    fields = {}
    for number, (key, _start, value_start) in enumerate(found):
        value_end = found[number + 1][1] if number + 1 < len(found) else len(view)
        fields[key] = view[value_start:value_end].strip()
    return fields


def _view_end(chunk: str, title: str) -> int:
    """Where the detailed view stops: the ISBD summary line, else the exemplaires or documents."""
    ends = [len(chunk)]
    # The bracket holds the document type (`[objet à 3 dimensions, artefacts, ...]`): bounded, so a
    # title repeated before many `[` without `]` costs no more than the text.
    isbd = re.compile(re.escape(title) + r"\s*\[[^\]\n]{0,200}\]\s*/")
    title_label = _NOTICE_START_RE.match(chunk)
    search_from = title_label.end() if title_label else 0
    match = isbd.search(chunk, search_from)
    if match:
        ends.append(match.start())
    for marker in (_COPIES_RE, _DOCUMENTS_RE):
        match = marker.search(chunk)
        if match:
            ends.append(match.start())
    return min(ends)


def _authors(value: str) -> list[PmbAuthor]:
    authors = []
    for part in value.split(";"):
        part = " ".join(part.split())
        if not part:
            continue
        name, _, role = part.rpartition(",")
        if not name:  # no role printed: PMB's default function is author
            name, role = part, "Auteur"
        authors.append(PmbAuthor(name=name.strip(), role=role.strip()))
    return authors


def _publishers(value: str) -> list[PmbPublisher]:
    publishers = []
    for part in value.split(";"):
        part = " ".join(part.split())
        if not part:
            continue
        place, separator, name = part.partition(" : ")
        publishers.append(PmbPublisher(name=name, place=place) if separator else PmbPublisher(name=part))
    return publishers


def _languages(value: str) -> list[PmbLanguage]:
    value = " ".join(value.split())
    languages, cursor = [], 0
    for match in _LANGUAGE_CODE_RE.finditer(value):
        # The name: what follows the previous language, a `;` or a parenthesis.
        name = re.split(r"[();]", value[cursor : match.start()])[-1]
        languages.append(PmbLanguage(code=match.group(1), name=name.strip(" ;,")))
        cursor = match.end()
    if value and not languages:
        raise PmbError(
            _("langue illisible : « %(value)s » (attendu : « Français (fre) »).") % {"value": value}
        )
    return languages


def _category(value: str) -> PmbCategory | None:
    value = " ".join(value.split())
    if not value:
        return None
    code = _CATEGORY_CODE_RE.match(value)
    label, family = value[code.end() :] if code else "", ""
    if label.endswith(")") and "(" in label:  # the family in parentheses, at the end
        label, family = label[: label.rindex("(")], label[label.rindex("(") + 1 : -1]
    if not code or not label.strip() or any(mark in label + family for mark in "()"):
        raise PmbError(
            _("catégorie illisible : « %(value)s » (attendu : « A 406 jeu de stratégie (jeu de règles) »).")
            % {"value": value[:80]}
        )
    return PmbCategory(code=code.group().strip(), label=label.strip(), family=family.strip())


def _number(value: str, label: str) -> int | None:
    value = value.strip()
    if not value:
        return None
    if not re.fullmatch(r"[0-9]{1,9}", value):
        raise PmbError(
            _("%(label)s : « %(value)s » n'est pas un nombre.") % {"label": label, "value": value[:40]}
        )
    return int(value)


def _online_url(value: str) -> str:
    match = _URL_RE.search(value)
    if value.strip() and not match:
        raise PmbError(
            _("En ligne : « %(value)s » n'est pas une adresse web.") % {"value": value.strip()[:60]}
        )
    return match.group() if match else ""


def split_tags(text: str, *, known: Iterable[str] = PMB_MULTIWORD_TAGS) -> list[str]:
    """Separate space-joined tags.

    At each word, the longest known tag (existing tags and PMB_MULTIWORD_TAGS, compared without
    case) that starts there wins; otherwise a tag runs from a capitalised word through the
    lower-case words that follow it, since PMB tags start with a capital (`Jeux à deux`,
    `Economie Négociation Placement`).
    """
    words = text.split()
    folded = [_fold(word) for word in words]
    # Known tags by their first word, longest first: each word is compared with a few of them only.
    known_by_first: dict[str, list[tuple[str, ...]]] = {}
    for tag in sorted({tuple(_fold(tag).split()) for tag in known if tag.strip()}, key=len, reverse=True):
        known_by_first.setdefault(tag[0], []).append(tag)
    tags: list[str] = []
    position = 0
    while position < len(words):
        candidates = known_by_first.get(folded[position], ())
        match = next(
            (tag for tag in candidates if tuple(folded[position : position + len(tag)]) == tag), None
        )
        if match:
            length = len(match)
        else:
            length = 1
            while position + length < len(words) and not words[position + length][0].isupper():
                length += 1
        tags.append(" ".join(words[position : position + length]))
        position += length
    return tags


def _fold(word: str) -> str:
    return unicodedata.normalize("NFC", word).casefold()


# --- Exemplaires and documents -----------------------------------------------------------------


def _copies(chunk: str, *, known_locations: Iterable[str]) -> list[PmbCopy]:
    matches = list(_COPIES_RE.finditer(chunk))
    if not matches:
        return []
    announced = int(matches[-1].group(1))
    documents = _DOCUMENTS_RE.search(chunk, matches[-1].end())
    rows = chunk[matches[-1].end() : documents.start() if documents else len(chunk)]
    rows = _COPY_HEADER_RE.sub("", " ".join(rows.split()), count=1)
    copies, leftover, cursor = [], [], 0
    # Each row ends with its availability; what comes before it is cote, section, location, barcode.
    for availability in _AVAILABILITY_RE.finditer(rows):
        row = _copy_row(rows[cursor : availability.start()].split())
        if row is None:
            leftover.append(rows[cursor : availability.end()])
        else:
            cote, code, middle, barcode = row
            section_label, location = _split_section_and_location(middle, known_locations)
            copies.append(
                PmbCopy(
                    cote=cote,
                    section=PmbCategory(code=code, label=section_label),
                    location=location,
                    barcode=barcode,
                    availability=availability.group(),
                )
            )
        cursor = availability.end()
    leftover.append(rows[cursor:])
    unread = " ".join(" ".join(leftover).split())
    if unread:
        raise PmbError(_("exemplaire illisible : « %(text)s ».") % {"text": unread[:80]})
    if len(copies) != announced:
        raise PmbError(
            _("exemplaires annoncés : %(announced)d, lus : %(read)d.")
            % {"announced": announced, "read": len(copies)}
        )
    return copies


def _copy_row(words: list[str]) -> tuple[str, str, str, str] | None:
    """(cote, section code, section and location, barcode) of a row's words, or None.

    The cote is the words before the first section code (`A 410` or `A410`) that leaves at least one
    word of section and location before the barcode, the last word, which holds a digit.
    """
    barcode = words[-1] if words else ""
    if not _BARCODE_RE.fullmatch(barcode) or not any(char in "0123456789" for char in barcode):
        return None
    for start in range(1, len(words) - 2):
        if _SECTION_CODE_RE.fullmatch(words[start]):
            size = 1
        elif _SECTION_LETTERS_RE.fullmatch(words[start]) and _SECTION_NUMBER_RE.fullmatch(words[start + 1]):
            size = 2
        else:
            continue
        if start + size < len(words) - 1:
            code = " ".join(words[start : start + size])
            return " ".join(words[:start]), code, " ".join(words[start + size : -1]), barcode
    return None


def _split_section_and_location(middle: str, known_locations: Iterable[str]) -> tuple[str, str]:
    """Split `jeu de langue Maison des Enfants`: a known site name, else the first capitalised word."""
    folded = middle.casefold()
    for location in sorted(known_locations, key=len, reverse=True):
        if folded.endswith(" " + location.casefold()):
            return middle[: -len(location)].strip(), middle[-len(location) :]
    words = middle.split()
    for number, word in enumerate(words):
        if number and word[0].isupper():
            return " ".join(words[:number]), " ".join(words[number:])
    raise PmbError(_("localisation introuvable dans « %(text)s ».") % {"text": middle})


def _documents(chunk: str) -> list[str]:
    marker = _DOCUMENTS_RE.search(chunk)
    if not marker:
        return []
    names = []
    for line in chunk[marker.end() :].splitlines():
        line = line.strip()
        if not line:
            continue
        match = _DOCUMENT_RE.match(line)
        if not match:
            break
        names.append(match["name"])
    return names
