"""MediaWiki's inline markup → HTML: links, bold and italic, line breaks, everything else escaped.

Linear in the text, like the block renderer (markup.py): every regular expression here is anchored or
starts at a fixed character, and none has nested or overlapping quantifiers.
"""

from __future__ import annotations

import re

MAGIC_WORD = re.compile(r"__(NOTOC|TOC|FORCETOC|NOEDITSECTION|NEWSECTIONLINK)__")
ENTITY = re.compile(r"&(#[0-9]{1,7}|#x[0-9a-fA-F]{1,6}|[A-Za-z][A-Za-z0-9]{1,31});")
# Links are cut out of the text before escaping and put back as placeholders made of private-use
# characters, which are removed from the input first so a page cannot forge one.
PLACEHOLDER = "\ue000{}\ue001"
PLACEHOLDER_RE = re.compile("\ue000([0-9]+)\ue001")
PRIVATE_USE = re.compile("[\ue000\ue001]")
INTERNAL_LINK = re.compile(r"\[\[([^\[\]|\n]+)(?:\|([^\[\]\n]*))?\]\]")
# The label starts after one blank (the rest is stripped): `[ \t]+` followed by a label that may
# itself hold blanks made the engine try every split of a long run of spaces (quadratic).
EXTERNAL_LINK = re.compile(r"\[((?:https?://|mailto:)[^\s\[\]<>\"]+)(?:[ \t]([^\[\]\n]*))?\]")
BREAK = re.compile(r"&lt;br\s*/?&gt;", re.IGNORECASE)
APOSTROPHES = re.compile(r"''+")


def escape(raw: str) -> str:
    """Escape <, >, " and & (keeping HTML entities such as &nbsp;); apostrophes stay for the quotes."""
    parts = []
    position = 0
    for match in ENTITY.finditer(raw):
        parts.append(_escape_plain(raw[position : match.start()]))
        parts.append(match.group(0))
        position = match.end()
    parts.append(_escape_plain(raw[position:]))
    return "".join(parts)


def _escape_plain(raw: str) -> str:
    return raw.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;").replace('"', "&quot;")


def inline(raw: str) -> str:
    """One line of wiki text as HTML: links, bold and italic, line breaks; everything else escaped."""
    raw = PRIVATE_USE.sub("", raw)
    links: list[str] = []

    def keep(html: str) -> str:
        links.append(html)
        return PLACEHOLDER.format(len(links) - 1)

    def internal(match: re.Match) -> str:
        target, label = match.group(1).strip(), match.group(2)
        shown = label.strip() if label and label.strip() else target.replace("_", " ")
        return keep(f'<span class="wiki-link">{quotes(escape(shown))}</span>')

    def external(match: re.Match) -> str:
        url, label = match.group(1), (match.group(2) or "").strip()
        shown = quotes(escape(label)) if label else escape(url)
        return keep(f'<a href="{escape(url)}" rel="nofollow noopener" class="external">{shown}</a>')

    text = INTERNAL_LINK.sub(internal, raw)
    text = EXTERNAL_LINK.sub(external, text)
    html = quotes(escape(text))
    html = BREAK.sub("<br>", html)
    return PLACEHOLDER_RE.sub(lambda match: links[int(match.group(1))], html)


def quotes(html: str) -> str:
    """MediaWiki's apostrophes: '' italic, ''' bold, ''''' both; tags always close properly."""
    tokens = APOSTROPHES.split(html)
    runs = [len(run) for run in APOSTROPHES.findall(html)]
    if not runs:
        return html
    # A run of 4 is an apostrophe then bold; more than 5 is apostrophes then bold italic.
    for index, length in enumerate(runs):
        if length == 4:
            tokens[index] += "'"
            runs[index] = 3
        elif length > 5:
            tokens[index] += "'" * (length - 5)
            runs[index] = 5
    italics = sum(1 for length in runs if length in (2, 5))
    bolds = sum(1 for length in runs if length in (3, 5))
    if italics % 2 and bolds % 2:
        # One ''' is really an apostrophe then '': MediaWiki picks the one after a one-letter word
        # (l'''…), else after a longer word, else after a space.
        chosen = _apostrophe_bold(tokens, runs)
        if chosen is not None:
            tokens[chosen] += "'"
            runs[chosen] = 2
    out: list[str] = [tokens[0]]
    open_tags: list[str] = []

    def toggle(tag: str) -> None:
        if tag in open_tags:
            # Close down to the tag, then reopen what was inside it, so the HTML stays nested.
            inner = open_tags[open_tags.index(tag) + 1 :]
            for other in reversed(open_tags[open_tags.index(tag) :]):
                out.append(f"</{other}>")
            del open_tags[open_tags.index(tag) :]
            for other in inner:
                out.append(f"<{other}>")
                open_tags.append(other)
        else:
            out.append(f"<{tag}>")
            open_tags.append(tag)

    for index, length in enumerate(runs):
        if length == 2:
            toggle("i")
        elif length == 3:
            toggle("b")
        else:  # 5: close the inner one first when both are open
            if "b" in open_tags and "i" in open_tags and open_tags[-1] == "i":
                toggle("i")
                toggle("b")
            else:
                toggle("b")
                toggle("i")
        out.append(tokens[index + 1])
    for tag in reversed(open_tags):
        out.append(f"</{tag}>")
    return "".join(out)


def _apostrophe_bold(tokens: list[str], runs: list[int]) -> int | None:
    single_letter = multi_letter = space = None
    for index, length in enumerate(runs):
        if length != 3:
            continue
        before = tokens[index]
        last = before[-1:] if before else ""
        second = before[-2:-1] if len(before) > 1 else ""
        if last == " ":
            space = index if space is None else space
        elif second == " " or not second:
            single_letter = index if single_letter is None else single_letter
        else:
            multi_letter = index if multi_letter is None else multi_letter
    for candidate in (single_letter, multi_letter, space):
        if candidate is not None:
            return candidate
    return None


def plain_text(raw: str) -> str:
    """A heading's text without markup, for section titles and anchors."""
    text = INTERNAL_LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), raw)
    text = EXTERNAL_LINK.sub(lambda m: (m.group(2) or m.group(1)).strip(), text)
    text = APOSTROPHES.sub(lambda m: "'" if len(m.group(0)) == 4 else "", text)
    return " ".join(text.split())
