"""A small, safe MediaWiki subset → HTML, and the splitting of a rules page into sections.

Everything is escaped first (inline.py: links, bold and italic); only the markup below becomes HTML, so a page's text can never inject
a tag or an attribute. Rendering is linear in the text: every regular expression here is anchored or
starts at a fixed character, and none has nested or overlapping quantifiers (a `(?:a+ *)+` on a
table cell once took minutes on 70 characters); what would need one is parsed by hand. Supported
(what our pages and the BGA wiki pages of seed 003 use):

- headings `= h =` … `====== h ======` (levels 1 and 2 both become <h2>, 3 → <h3>…),
- paragraphs separated by blank lines, `----` rules, `<br>`,
- `'''bold'''`, `''italic''`, `'''''both'''''` (MediaWiki's apostrophe rules, `qu''''une` included),
- `*`/`#` lists, nested (`**`, `#*`…), and `<ol>`/`<ul>` blocks of `<li>` lines holding other blocks,
- `{| class="wikitable" … |}` tables: `|+` caption, `|-` rows, `!` header and `|` data cells, `!!`
  and `||` on one line, cell attributes (`style="…" | text`) dropped but `colspan`/`rowspan`/`scope`,
- `[https://… label]` external links, `[[Target]]`/`[[Target|label]]` internal links (plain text),
- `__NOTOC__`-style magic words are dropped; HTML entities (`&nbsp;`) are kept.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from django.db import models
from django.utils.safestring import SafeString, mark_safe
from django.utils.translation import gettext_lazy as _

from .inline import MAGIC_WORD, inline, plain_text
from .notice_text import heading_kind


class SectionKind(models.TextChoices):
    GOAL = "goal", _("But du jeu")
    MATERIAL = "material", _("Matériel")
    SETUP = "setup", _("Mise en place")
    PLAY = "play", _("Déroulement")
    END = "end", _("Fin de partie")
    SCORING = "scoring", _("Décompte")
    VARIANTS = "variants", _("Variantes")
    FAQ = "faq", _("Précisions")
    OTHER = "other", _("Autre")


def normalise(title: str) -> str:
    """Lower case, accents and punctuation removed, spaces collapsed: « Précisions / FAQ » → « precisions faq »."""
    decomposed = unicodedata.normalize("NFKD", title)
    letters = "".join(char for char in decomposed if not unicodedata.combining(char)).casefold()
    return " ".join(re.sub(r"[^\w]+", " ", letters).split())


def section_kind(title: str) -> str:
    """The kind of a section from its title (notice_text.HEADINGS: « Décompte final », « Variante »,
    « Conttenu »); `other` when it is none of the known ones."""
    return heading_kind(title) or SectionKind.OTHER


# --- blocks --------------------------------------------------------------------------------------

HEADING_SIGNS = 6
LIST_ITEM = re.compile(r"^([*#]+)\s*(.*)$")
HTML_LIST_OPEN = re.compile(r"^<(ol|ul)\s*>$", re.IGNORECASE)
HTML_LIST_CLOSE = re.compile(r"^</(ol|ul)\s*>$", re.IGNORECASE)
HTML_LIST_ITEM_START = re.compile(r"^<li\s*>", re.IGNORECASE)
HTML_LIST_ITEM_END = re.compile(r"</li\s*>$", re.IGNORECASE)
# One `name = value` of a table cell's attributes, matched at a given position, one after the other
# (`colspan="2" style="…"`): the name, the blanks, the sign and the value never match the same characters.
CELL_ATTRIBUTE = re.compile(r"""([A-Za-z-]+)\s*=\s*("[^"]*"|'[^']*'|[^\s|"']+)\s*""")
SCOPES = {"row", "col", "rowgroup", "colgroup"}


def heading_level(line: str) -> tuple[int, str] | None:
    """(level, text) of a heading line (`== text ==`, 1 to 6 signs on each side), or None."""
    line = line.strip()
    leading = len(line) - len(line.lstrip("="))
    trailing = len(line) - len(line.rstrip("="))
    if not leading or not trailing or leading == len(line):
        return None
    # Up to six signs open and close; more belong to the text.
    opening, closing = min(leading, HEADING_SIGNS), min(trailing, HEADING_SIGNS)
    text = line[opening : len(line) - closing]
    level = min(opening, closing)
    # Unbalanced signs belong to the text, as MediaWiki reads them.
    text = "=" * (opening - level) + text + "=" * (closing - level)
    if not text.strip():
        return None
    return level, text.strip()


def cell_attributes(head: str) -> dict[str, str] | None:
    """The harmless attributes (colspan, rowspan, scope) of a cell's `style="…" colspan=2`.

    None when `head` is not a list of attributes at all: then the `|` was part of the cell's text.
    """
    position = len(head) - len(head.lstrip())
    if position == len(head):
        return None
    kept: dict[str, str] = {}
    while position < len(head):
        match = CELL_ATTRIBUTE.match(head, position)
        if match is None:
            return None
        name, value = match.group(1).lower(), match.group(2).strip("\"'")
        if name in ("colspan", "rowspan") and re.fullmatch(r"[0-9]{1,2}", value) and 0 < int(value) <= 50:
            kept[name] = value
        elif name == "scope" and value.lower() in SCOPES:
            kept[name] = value.lower()
        position = match.end()
    return kept


class _Renderer:
    """Turns lines of wiki text into HTML blocks, keeping the state of open lists and tables."""

    def __init__(self) -> None:
        self.out: list[str] = []
        self.paragraph: list[str] = []
        self.list_stack: list[str] = []  # "ul"/"ol" of the open wiki lists
        self.html_lists: list[dict] = []  # open <ol>/<ul> blocks: {"tag", "item_open"}
        self.table: dict | None = None

    # paragraphs and lists

    def flush_paragraph(self) -> None:
        if self.paragraph:
            self.out.append("<p>" + " ".join(inline(line) for line in self.paragraph) + "</p>")
            self.paragraph = []

    def close_lists(self, depth: int = 0) -> None:
        while len(self.list_stack) > depth:
            tag = self.list_stack.pop()
            self.out.append(f"</li></{tag}>")

    def flush(self) -> None:
        self.flush_paragraph()
        self.close_lists()

    def list_item(self, markers: str, text: str) -> None:
        self.flush_paragraph()
        wanted = ["ol" if marker == "#" else "ul" for marker in markers]
        common = 0
        while common < min(len(wanted), len(self.list_stack)) and wanted[common] == self.list_stack[common]:
            common += 1
        # Every open list has its last <li> open: close the deeper lists, then either end the
        # sibling item or open the new (possibly several) levels inside the open item.
        self.close_lists(common)
        if len(self.list_stack) == len(wanted):
            self.out.append("</li>")
        while len(self.list_stack) < len(wanted):
            tag = wanted[len(self.list_stack)]
            self.out.append(f"<{tag}>")
            self.list_stack.append(tag)
            if len(self.list_stack) < len(wanted):
                self.out.append("<li>")  # an item that only holds a deeper list (** first)
        self.out.append("<li>" + inline(text))

    # <ol><li>…</li> … </ol> blocks

    def html_list_open(self, tag: str) -> None:
        self.flush()
        self.out.append(f"<{tag.lower()}>")
        self.html_lists.append({"tag": tag.lower(), "item_open": False})

    def html_list_item(self, text: str) -> None:
        self.flush()
        current = self.html_lists[-1]
        if current["item_open"]:
            self.out.append("</li>")
        self.out.append("<li>" + inline(text))
        current["item_open"] = True

    def html_list_close(self) -> None:
        self.flush()
        current = self.html_lists.pop()
        if current["item_open"]:
            self.out.append("</li>")
        self.out.append(f"</{current['tag']}>")

    # tables

    def table_open(self) -> None:
        self.flush()
        self.table = {"caption": None, "rows": [], "cell": None}

    def _end_cell(self) -> None:
        table = self.table
        if table and table["cell"] is not None:
            table["rows"][-1].append(table["cell"])
            table["cell"] = None

    def table_line(self, line: str) -> None:
        table = self.table
        assert table is not None
        stripped = line.strip()
        if stripped.startswith("|}"):
            self._end_cell()
            self._emit_table()
            self.table = None
        elif stripped.startswith("|+"):
            self._end_cell()
            table["caption"] = self._cell_content(stripped[2:])[0]
        elif stripped.startswith("|-"):
            self._end_cell()
            table["rows"].append([])
        elif stripped.startswith("!") or stripped.startswith("|"):
            self._end_cell()
            if not table["rows"]:
                table["rows"].append([])
            header = stripped.startswith("!")
            body = stripped[1:]
            separator = re.compile(r"\|\||!!") if header else re.compile(r"\|\|")
            cells = separator.split(body)
            for cell in cells[:-1]:
                table["rows"][-1].append(self._cell(cell, header))
            table["cell"] = self._cell(cells[-1], header)
        elif table["cell"] is not None:
            # A line inside a cell continues it (a long cell written over several lines).
            table["cell"]["lines"].append(line)
        elif stripped:
            # Text between rows belongs to no cell: MediaWiki shows it before the table; keep it.
            table.setdefault("loose", []).append(line)

    def _cell_content(self, raw: str) -> tuple[str, dict]:
        """Split `attributes | content`; only harmless attributes are kept."""
        if "|" in raw:
            head, rest = raw.split("|", 1)
            attributes = cell_attributes(head)
            if attributes is not None:
                return rest.strip(), attributes
        return raw.strip(), {}

    def _cell(self, raw: str, header: bool) -> dict:
        content, attributes = self._cell_content(raw)
        return {"header": header, "lines": [content], "attributes": attributes}

    def _emit_table(self) -> None:
        table = self.table
        assert table is not None
        for line in table.get("loose", []):
            self.out.append("<p>" + inline(line) + "</p>")
        parts = ['<div class="table-scroll"><table class="wikitable">']
        if table["caption"]:
            parts.append(f"<caption>{inline(table['caption'])}</caption>")
        parts.append("<tbody>")
        for row in table["rows"]:
            if not row:
                continue
            parts.append("<tr>")
            for cell in row:
                tag = "th" if cell["header"] else "td"
                attributes = "".join(f' {name}="{value}"' for name, value in cell["attributes"].items())
                parts.append(f"<{tag}{attributes}>{self._cell_html(cell['lines'])}</{tag}>")
            parts.append("</tr>")
        parts.append("</tbody></table></div>")
        self.out.append("".join(parts))

    @staticmethod
    def _cell_html(lines: list[str]) -> str:
        paragraphs = [[]]
        for line in lines:
            if line.strip():
                paragraphs[-1].append(line)
            elif paragraphs[-1]:
                paragraphs.append([])
        texts = [" ".join(inline(line) for line in paragraph) for paragraph in paragraphs if paragraph]
        if len(texts) <= 1:
            return "".join(texts)
        return "".join(f"<p>{text}</p>" for text in texts)

    # driver

    def feed(self, line: str) -> None:
        stripped = line.strip()
        if self.table is not None:
            self.table_line(line)
            return
        if not stripped:
            self.flush()
            return
        if stripped.startswith("{|"):
            self.table_open()
            return
        heading = heading_level(stripped)
        if heading:
            self.flush()
            level, text = heading
            tag = f"h{min(max(level, 2), 6)}"
            self.out.append(f"<{tag}>{inline(text)}</{tag}>")
            return
        if re.fullmatch(r"-{4,}", stripped):
            self.flush()
            self.out.append("<hr>")
            return
        if match := HTML_LIST_OPEN.match(stripped):
            self.html_list_open(match.group(1))
            return
        if self.html_lists and HTML_LIST_CLOSE.match(stripped):
            self.html_list_close()
            return
        if self.html_lists and (match := HTML_LIST_ITEM_START.match(stripped)):
            content = stripped[match.end() :]
            if end := HTML_LIST_ITEM_END.search(content):
                content = content[: end.start()]
            self.html_list_item(content)
            return
        if match := LIST_ITEM.match(stripped):
            self.list_item(match.group(1), match.group(2))
            return
        self.close_lists()
        self.paragraph.append(stripped)

    def finish(self) -> str:
        if self.table is not None:
            self._end_cell()
            self._emit_table()
            self.table = None
        self.flush()
        while self.html_lists:
            self.html_list_close()
        return "\n".join(part for part in self.out if part)


def to_html(source: str) -> SafeString:
    """Render wiki text as HTML; safe to put in a page whatever the text holds."""
    renderer = _Renderer()
    for line in MAGIC_WORD.sub("", source).replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        renderer.feed(line)
    return mark_safe(renderer.finish())  # noqa: S308 - every piece of text went through escape()


# --- sections ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Section:
    kind: str
    title: str
    body_html: SafeString
    anchor: str


def cut_sections(source: str) -> list[tuple[str, list[str]]]:
    """(title, lines) of each section, not rendered: the text before the first heading, then one per heading."""
    chunks: list[tuple[str, list[str]]] = [("", [])]
    in_table = False
    for line in source.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        stripped = line.strip()
        if stripped.startswith("{|"):
            in_table = True
        elif stripped.startswith("|}"):
            in_table = False
        heading = None if in_table else heading_level(stripped)
        if heading and heading[0] <= 2:
            chunks.append((plain_text(heading[1]), []))
        else:
            chunks[-1][1].append(line)
    return chunks


def split_sections(source: str) -> list[Section]:
    """Cut a page at its level-1 and level-2 headings; text before the first one is an untitled section."""
    sections = []
    used: dict[str, int] = {}
    for index, (title, lines) in enumerate(cut_sections(source)):
        body = to_html("\n".join(lines))
        if index == 0 and not body:
            continue
        kind = section_kind(title) if title else SectionKind.OTHER
        sections.append(Section(kind, title, body, _anchor(title or "introduction", used)))
    return sections


def _anchor(title: str, used: dict[str, int]) -> str:
    """A unique anchor: `materiel`, then `materiel-2`…; `used` keeps each base's last suffix, so that
    a page of a thousand sections of the same title takes no more than a thousand steps."""
    base = normalise(title).replace(" ", "-") or "section"
    anchor, suffix = base, used.get(base, 1)
    while anchor in used:
        suffix += 1
        anchor = f"{base}-{suffix}"
    used[base] = suffix
    used.setdefault(anchor, 1)
    return anchor
