"""Read the list of pieces at the start of a notice's contents: the checklist ticked at return."""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class Piece:
    quantity: int
    label: str


_ITEM_START_RE = re.compile(r"^\d+\s*[^\W\d_]")
_CONTENTS_PREFIX_RE = re.compile(r"^\s*(?:Cont+enu\b\s*:?)?[\s•*·-]*", re.I)
_PIECE_RE = re.compile(r"^(?P<quantity>\d+)\s*(?P<label>\S.*)$", re.S)
_LIST_SEARCH_LINES = 6  # the list of pieces comes first, before the rules text


def pieces_from_contents(contents: str) -> list[Piece]:
    """The pieces listed at the start of the contents (`1 plateau de valeurs, 5 dés à six faces, …`).

    The list is the first line among the first few that starts with a number and a word, plus the
    lines right after it that do too; items are separated by commas, semicolons, bullets, line
    ends, `et` or a full stop before a number, and a closing parenthesis glued to a number. It
    stops at the first full stop that ends a sentence. An item without a number is one piece
    (`La règle du jeu`) if it starts with a capital, else it continues the previous item's
    description (`… claire et foncée, ronde ou carrée`). Wording is kept as the library recorded it.
    """
    lines = [_CONTENTS_PREFIX_RE.sub("", line, count=1) for line in contents.splitlines()]
    lines = [line for line in lines if line.strip()]
    first = next(
        (number for number, line in enumerate(lines[:_LIST_SEARCH_LINES]) if _ITEM_START_RE.match(line)), None
    )
    if first is None:
        return []
    listed = [lines[first]]
    for line in lines[first + 1 :]:
        if not _ITEM_START_RE.match(line):
            break
        listed.append(line)
    components: list[Piece] = []
    for item in _split_items("\n".join(listed)):
        item = item.strip(" \t.")
        match = _PIECE_RE.match(item)
        if match and int(match["quantity"]) > 0:
            components.append(Piece(quantity=int(match["quantity"]), label=" ".join(match["label"].split())))
        elif item[:1].isupper():
            components.append(Piece(quantity=1, label=" ".join(item.split())))
        elif item and components:
            previous = components[-1]
            components[-1] = Piece(previous.quantity, f"{previous.label}, {' '.join(item.split())}")
    return components


def _split_items(text: str) -> list[str]:
    items: list[str] = []
    buffer: list[str] = []
    depth = 0
    # following[i]: the first character at or after i that is not a blank ("" at the end), so that
    # "is a number next?" costs one look, not a scan of the blanks (or a copy of the rest) each time.
    following = [""] * (len(text) + 1)
    for index in range(len(text) - 1, -1, -1):
        following[index] = following[index + 1] if text[index].isspace() else text[index]

    def flush() -> None:
        if "".join(buffer).strip():
            items.append("".join(buffer))
        buffer.clear()

    position = 0
    while position < len(text):
        char = text[position]
        before_number = following[position + 1].isdecimal()
        if char == "(":
            depth += 1
        elif char == ")":
            depth = max(0, depth - 1)
            if depth == 0 and before_number:  # "(… lingots)40 pions figurines"
                buffer.append(char)
                flush()
                position += 1
                continue
        elif depth == 0:
            if char in ",;•\n":
                flush()
                position += 1
                continue
            if char == ".":
                if before_number:  # "1 sablier.35 jetons argentés"
                    flush()
                    position += 1
                    continue
                if position + 1 == len(text) or text[position + 1].isspace():  # end of sentence
                    break
            if text.startswith(" et ", position) and following[min(position + 4, len(text))].isdecimal():
                flush()
                position += 4
                continue
        buffer.append(char)
        position += 1
    flush()
    return items
