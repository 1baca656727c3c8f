"""A catalogue notice's rules text cut into the usual sections of a rules page: plain Python, no Django.

PMB notices often carry the whole rule book in « Contenu » or « Règles du jeu », typed by volunteers:
headings on their own line (« Installation », « Comment jouer ? »), numbered (« 2)Préparation du
jeu: », « (page 6) Fin de jeu et gagnant: »), followed by their text on the same line (« Fin de la
partie:La partie se termine… »), in capitals (« FIN DE LA PARTIE: »), misspelt (« Conttenu »,
« Précissions », « Variente »), or run together with the text before them (« …1 sablier.35 jetons
argentés. Préparation: 1) chaque joueur… », « …retenu)VARIANTE POUR JOUEUR AVERTIS »).

`notice_sections()` finds the headings of the usual kinds among them and keeps every word of the
notice, in order: a heading of no known kind becomes a sub-heading of the section it is in, the text
before the first heading goes under « Règles ». Nothing is added but the section breaks. After a
heading of variants or of a glossary, the headings of other kinds are that part's own sub-headings
(« Mise en place » of the two-player variant).

Linear in the text: lines are cut by hand, each colon looks back a bounded number of characters, and
the one regular expression has no nested quantifier.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field

# The kinds of rules/pages/markup.py's SectionKind (the same strings; this module imports no Django).
GOAL, MATERIAL, SETUP, PLAY, END, SCORING, VARIANTS, FAQ, OTHER = (
    "goal",
    "material",
    "setup",
    "play",
    "end",
    "scoring",
    "variants",
    "faq",
    "other",
)

# Headings as notices write them, normalised (lower case, no accent, no article in front), by kind.
# A heading is of a kind when it is one of these or starts with one of them followed by a word.
HEADINGS: tuple[tuple[str, tuple[str, ...]], ...] = (
    (GOAL, ("but du jeu", "but", "principe", "idee du jeu", "objectif", "resume du jeu", "apercu")),
    (
        MATERIAL,
        (
            "materiel",
            "contenu",
            "composants",
            "elements de jeu",
            "elements du jeu",
            "presentation et preparation",
        ),
    ),
    (SETUP, ("mise en place", "preparation", "installation")),
    (PLAY, ("deroulement", "tour de jeu", "comment jouer", "jeu de base")),
    (END, ("fin de partie", "fin de la partie", "fin du jeu", "fin de jeu", "gagner", "gain de la partie")),
    (SCORING, ("decompte", "score", "comptage", "comment marquer", "calcul des points")),
    (VARIANTS, ("variantes", "variante")),
    (FAQ, ("precisions", "faq", "questions", "lexique", "glossaire", "ce lexique")),
)
# After one of these, headings of the other kinds belong to it (a variant's own set-up, a glossary's entries).
ENCLOSING = ("variante", "variantes", "lexique", "glossaire", "ce lexique")
ARTICLES = ("le", "la", "les", "l")
GENERIC_ENDINGS = ("du jeu", "de jeu", "de la partie", "d une partie", "des points", "de base")
HEADING_WORDS = 8  # a heading is short; « Le but du jeu est de créer un alignement… » is a sentence
LONG_HEADING_WORDS = 14  # …unless the line ends with a colon (« Ce lexique contient … des règles du jeu: »)
SUBHEADING_CHARS = 70
INLINE_LOOKBACK = 60  # how far a colon looks back for a heading run into the text before it
TYPO_MIN_LENGTH = 6  # a heading's first word this long may have one typo (« Conttenu », « Variente »)
LIST_MARKERS = ("-", "•", "*", "·", "–")
PAGE = re.compile(r"\(page [0-9]{1,3}\) ?")  # where the rule book's page began: « (page 6) Fin de jeu »
NUMBERING = re.compile(
    r"(?:[0-9]{1,2}\.[a-z] |[0-9]{1,2} ?(?:bis)?[).] ?|[a-z]\) ?)"
)  # a step: « 2)Préparation », « b) Colonie »

_FIRST_WORDS = sorted({phrase.split()[0] for _kind, phrases in HEADINGS for phrase in phrases})


@dataclass
class NoticeSection:
    """A section of the notice's text: its kind, its heading as the notice wrote it, its blocks in order."""

    kind: str
    title: str
    # ("para", text), ("item", text) for a list item, ("sub", text) for a sub-heading
    blocks: list[tuple[str, str]] = field(default_factory=list)


def normalise(text: str) -> str:
    """Lower case, without accents or punctuation, spaces collapsed: « Préparation du jeu: » → « preparation du jeu »."""
    decomposed = unicodedata.normalize("NFKD", text)
    letters = "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()
    words = "".join(char if char.isalnum() else " " for char in letters).split()
    while words and words[0] in ARTICLES:
        words = words[1:]
    return " ".join(words)


def _one_typo(word: str, known: str) -> bool:
    """Whether `word` is `known` with at most one letter added, left out or changed."""
    if abs(len(word) - len(known)) > 1:
        return False
    if len(word) == len(known):
        return sum(a != b for a, b in zip(word, known, strict=True)) <= 1
    short, long = (word, known) if len(word) < len(known) else (known, word)
    for index in range(len(long)):
        if long[:index] + long[index + 1 :] == short:
            return True
    return False


def _corrected(words: str) -> str:
    """The heading with its first word corrected when it is one typo away from a heading's first word."""
    first, _space, rest = words.partition(" ")
    if len(first) < TYPO_MIN_LENGTH or first in _FIRST_WORDS:
        return words
    for known in _FIRST_WORDS:
        if len(known) >= TYPO_MIN_LENGTH and _one_typo(first, known):
            return f"{known} {rest}".strip()
    return words


def heading_kind(title: str, *, strict: bool = False, typos: bool = True) -> str | None:
    """The kind of section a heading announces, or None.

    `strict`: the heading is a known one alone or with a generic ending (« Le déroulement de la
    partie »), as a heading run into a paragraph or numbered inside a list must be (« 2. Contenu du
    trésor » is a scoring step); `typos`: its first word may have one typo.
    """
    words = normalise(title)
    if typos:
        words = _corrected(words)
    for kind, phrases in HEADINGS:
        for phrase in phrases:
            if words == phrase:
                return kind
            if words.startswith(phrase + " "):
                ending = words[len(phrase) + 1 :]
                if not strict or ending in GENERIC_ENDINGS:
                    return kind
    return None


def _encloses(title: str) -> bool:
    words = _corrected(normalise(title))
    return any(words == phrase or words.startswith(phrase + " ") for phrase in ENCLOSING)


def _without_page(line: str) -> str:
    match = PAGE.match(line)
    return line[match.end() :].lstrip() if match else line


def _without_numbering(line: str) -> str:
    match = NUMBERING.match(line)
    return line[match.end() :].lstrip() if match else line


def _clean_title(title: str) -> str:
    """The heading as shown: no numbering, no final colon or dots; capitals made a sentence."""
    title = _without_numbering(_without_page(title.strip())).rstrip(" :.").strip()
    if title.isupper():
        title = title[:1] + title[1:].lower()
    return title


def _word_count(text: str) -> int:
    return len(text.split())


@dataclass(frozen=True)
class _Heading:
    kind: str | None  # None: a sub-heading
    title: str
    rest: str  # the text after the heading on the same line


def _line_heading(line: str) -> _Heading | None:
    """A heading at the start of a line (a known kind, or a short line that reads as a sub-heading)."""
    if not line or line.startswith(LIST_MARKERS):
        return None
    line = _without_page(line)
    bare = _without_numbering(line)
    head, colon, rest = bare.partition(":")
    rest = rest.strip()
    words = _word_count(head)
    limit = LONG_HEADING_WORDS if colon and not rest else HEADING_WORDS
    ending = bare.rstrip()
    sentence = not colon and (
        ". " in ending or ending.endswith((".", ",", ";", "!")) and not ending.endswith("..")
    )
    if head.strip() and words <= limit and not sentence:
        # A numbered heading must be a section's (« 2)Préparation du jeu: »), not a step's
        # (« 2. Contenu du trésor »); a line that goes on after its colon has no typo (« Précision : … »).
        kind = heading_kind(head, strict=bare is not line, typos=not rest)
        if kind is not None:
            return _Heading(kind, _clean_title(head), rest)
    if _reads_as_subheading(line, bare):
        return _Heading(None, _clean_title(line), "")
    return None


def _reads_as_subheading(line: str, bare: str) -> bool:
    """A short line without a sentence's end, starting with a capital or a numbering: « Les Cartes de Catégorie »."""
    stripped = line.rstrip()
    if len(stripped) > SUBHEADING_CHARS or _word_count(stripped) > HEADING_WORDS or not bare:
        return False
    if stripped.endswith((".", ",", ";", "!")) and not stripped.endswith(".."):
        return False
    numbered = bare is not line and len(bare) < len(line)
    first = bare[0]
    return first.isupper() or numbered or first == "("


def _inline_headings(line: str) -> list[tuple[int, int]]:
    """Where known headings run into the text before them: (start, colon) pairs, in order.

    A heading here is a whole known heading (not a prefix: « Variante Bluff médiéval : » inside a
    paragraph is text) right after a sentence's end, followed by a colon.
    """
    found = []
    position = line.find(":")
    while position != -1:
        window_start = max(0, position - INLINE_LOOKBACK)
        start = max(line.rfind(". ", window_start, position), line.rfind(".", window_start, position))
        if start > 0:
            start += 1
            while start < position and not line[start].isalnum():
                start += 1
            candidate = line[start:position]
            if (
                candidate
                and candidate[0].isupper()
                and heading_kind(candidate, strict=True, typos=False) is not None
            ):
                found.append((start, position))
        position = line.find(":", position + 1)
    return found


def _capital_tail(line: str) -> int:
    """Where a heading in capitals glued to the end of a line starts (« …retenu)VARIANTE POUR… »), or -1."""
    index = len(line)
    while index > 0 and not line[index - 1].islower():
        index -= 1
    while index < len(line) and not line[index].isalpha():
        index += 1
    tail = line[index:]
    if index == 0 or _word_count(tail) < 2 or _word_count(tail) > HEADING_WORDS:
        return -1
    if line[index - 1] not in ").!?" or heading_kind(tail) is None:
        return -1
    return index


def _split_lines(text: str) -> list[str]:
    """The notice's lines, with headings run into a line cut onto lines of their own."""
    lines = []
    for raw in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        line = raw.strip()
        if not line:
            continue
        cuts = [start for start, _colon in _inline_headings(line)]
        tail = _capital_tail(line)
        if tail > 0:
            cuts.append(tail)
        previous = 0
        for cut in cuts:
            lines.append(line[previous:cut].strip())
            previous = cut
        lines.append(line[previous:].strip())
    return [line for line in lines if line]


def _blocks_of(text: str) -> list[tuple[str, str]]:
    """A line of text as blocks: bullet items (« • 37 hexagones• 95 cartes » too) or a paragraph."""
    if text.startswith(LIST_MARKERS):
        items = [item.strip() for item in text.split("•")] if "•" in text else [text[1:].strip()]
        return [("item", item.lstrip("-*·– ").strip()) for item in items if item.strip("-*·–• ")]
    return [("para", text)]


def notice_sections(text: str) -> list[NoticeSection]:
    """The notice's text as sections, every word kept in order; text before any heading is « Règles »."""
    sections: list[NoticeSection] = []
    current: NoticeSection | None = None
    enclosing = False
    for line in _split_lines(text):
        heading = _line_heading(line)
        if heading is None:
            if current is None:
                current = NoticeSection(OTHER, "")
                sections.append(current)
            current.blocks.extend(_blocks_of(line))
            continue
        if heading.kind is not None and not (enclosing and not _encloses(heading.title)):
            current = NoticeSection(heading.kind, heading.title)
            sections.append(current)
            enclosing = _encloses(heading.title)
        else:
            if current is None:
                current = NoticeSection(OTHER, "")
                sections.append(current)
            current.blocks.append(("sub", heading.title))
        if heading.rest:
            sub = _line_heading(heading.rest)
            current.blocks.extend(
                [("sub", sub.title)] if sub and sub.kind is None else _blocks_of(heading.rest)
            )
    return sections


def headings(sections: list[NoticeSection]) -> list[tuple[str, str]]:
    """(kind, title) of each section: what a test compares with the notice's own headings."""
    return [(section.kind, section.title) for section in sections]


# --- the generated page's text, in the pages' MediaWiki subset (rules/pages/markup.py) --------------------

RULES_TITLE = "Règles"  # the text of the notice that no heading places
NO_LIMIT = 99  # PMB's « and up » for a maximum of players or an age: never shown


@dataclass(frozen=True)
class NoticeFacts:
    """What a catalogue notice knows of its game, as the generated rules page shows it."""

    players_min: int | None = None
    players_max: int | None = None
    age_min: int | None = None
    age_max: int | None = None
    duration_minutes: int | None = None
    authors: tuple[tuple[str, str], ...] = ()  # (name, role as the notice says it: « Auteur »)
    publishers: tuple[str, ...] = ()
    pieces: tuple[tuple[int, str], ...] = ()  # the copy's piece list: (quantity, label)
    summary: str = ""  # « Principe du jeu »
    texts: tuple[str, ...] = ()  # « Règles du jeu », « Contenu »: where a notice carries the rules


def _players(low: int | None, high: int | None) -> str:
    if high is None or high >= NO_LIMIT:
        return f"À partir de {low} joueurs" if low else ""
    if low is None or low == high:
        return f"{high} joueur" + ("s" if high > 1 else "")
    return f"De {low} à {high} joueurs"


def _ages(low: int | None, high: int | None) -> str:
    if low and high and high < NO_LIMIT:
        return f"De {low} à {high} ans"
    return f"Dès {low} ans" if low else ""


def fact_lines(facts: NoticeFacts) -> list[str]:
    """The facts in a few short lines: players, ages, duration, authors, publishers."""
    lines = [
        _players(facts.players_min, facts.players_max),
        _ages(facts.age_min, facts.age_max),
        f"Environ {facts.duration_minutes} minutes" if facts.duration_minutes else "",
    ]
    lines += [f"{name} ({role.lower()})" if role else name for name, role in facts.authors]
    lines += [f"Éditeur : {name}" for name in facts.publishers]
    return [line for line in lines if line]


# A character that starts a line of markup (a list, a heading, a table) is written as an entity when
# the notice's text starts a line with it, and so are brackets and runs of apostrophes anywhere:
# the notice's words are shown as typed, never read as markup.
_LINE_STARTS = {char: f"&#{ord(char)};" for char in "*#:;=|!{-"}


def wiki_safe(text: str) -> str:
    """The notice's text as literal text of the MediaWiki subset."""
    text = (
        text.replace("[", "&#91;").replace("]", "&#93;").replace("''", "&#39;&#39;").replace("__", "_&#95;")
    )
    if text[:1] in _LINE_STARTS:
        text = _LINE_STARTS[text[0]] + text[1:]
    return text


def _section_text(title: str, blocks: list[tuple[str, str]]) -> list[str]:
    lines = [f"== {wiki_safe(title)} =="]
    for kind, text in blocks:
        if kind == "sub":
            lines += ["", f"=== {wiki_safe(text)} ===", ""]
        elif kind == "item":
            lines.append(f"* {wiki_safe(text)}")
        else:
            lines += ["", wiki_safe(text), ""]
    return lines


def generated_page(facts: NoticeFacts) -> str:
    """A rules page made of the notice alone: its facts, its rules text in sections, its pieces."""
    lines: list[str] = []
    facts_shown = fact_lines(facts)
    if facts_shown:
        lines += _section_text("En bref", [("item", line) for line in facts_shown])
    if facts.summary.strip():
        lines += _section_text("Principe du jeu", [("para", line) for line in _split_lines(facts.summary)])
    has_material = False
    for text in facts.texts:
        for section in notice_sections(text):
            has_material |= section.kind == MATERIAL
            lines += _section_text(section.title or RULES_TITLE, section.blocks)
    if facts.pieces and not has_material:
        lines += _section_text("Matériel", [("item", f"{count} × {label}") for count, label in facts.pieces])
    kept: list[str] = []
    for line in lines:  # one blank line between blocks, none at either end
        if line or (kept and kept[-1]):
            kept.append(line)
    return "\n".join(kept).strip() + "\n" if kept else ""
