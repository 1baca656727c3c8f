"""A draft setup read from a notice's own text: counts per number of players, for a librarian to confirm.

PMB notices often carry the rule book's setup (« Pour 2 joueurs : Retirez 6 cartes or puis 21 cartes
au hasard », « Chaque joueur reçoit 5 colonies, 4 villes et 15 routes »). `draft_setup()` reads such
sentences clause by clause, in one pass over the words (no regular expression but a flat word
split: linear in the text), and proposes the steps of docs/declared-rules.md:

- a clause that starts with a player count (« Pour 2 joueurs », « A 2 joueurs », « 3 joueurs : »,
  « S'il n'y a que 3 joueurs ») applies to that count only;
- after « chaque joueur » or « chacun » and a verb of receiving (reçoit, prend, joue avec…), the
  quantities that follow go to each player; after « retirez », « on retire », « écartez », they are
  removed; after « placez », « retournez », « employez », they go on the table; a bare quantity after
  « 3 joueurs : » too;
- only the parts under a setup heading are read, when the notice has one (« Préparation », « Mise en
  place », « Installation », up to « Déroulement », « Tour de jeu »…);
- a quantity is a number in digits or in words (« un », « quatre ») and the words after it, up to a
  small word (« de », « et », « au »): « 21 cartes au hasard » is 21 « cartes ».
  « distribuez-en une à chaque joueur » counts what the clause named last (« les 7 cartes Merveille »).

It proposes nothing rather than something wrong: a quantity in parentheses, one that counts a
container (« une série de 8 pions »: the 8 pions are counted), « chacune des catégories » (not per
player), and a component given two different counts for the same table are all left out. A clause
about a player count that names no quantity (« les pions rouges sont écartés ») becomes a text step
for that count. A draft is never published: the staff page shows it in the form, to be corrected.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field

NUMBER_WORDS = {
    "un": 1,
    "une": 1,
    "deux": 2,
    "trois": 3,
    "quatre": 4,
    "cinq": 5,
    "six": 6,
    "sept": 7,
    "huit": 8,
    "neuf": 9,
    "dix": 10,
    "onze": 11,
    "douze": 12,
    "quinze": 15,
    "vingt": 20,
}
EACH_VERBS = {"recoit", "recoivent", "prend", "prennent", "joue", "jouent", "debute", "commence", "dispose", "recevez", "distribuez", "distribue", "donnez", "donne"}  # fmt: skip
REMOVE_VERBS = {"retirez", "retire", "retirer", "ecartez", "ecarte", "ecarter", "remettez", "enlevez", "enleve"}  # fmt: skip
TABLE_VERBS = {"placez", "place", "posez", "pose", "retournez", "retourne", "employez", "utilisez", "mettez"}  # fmt: skip
VERBS = EACH_VERBS | REMOVE_VERBS | TABLE_VERBS
# « un », « une » count only right after a verb or a list mark (not « en une rangée », « une pioche »).
COUNTING_BEFORE = EACH_VERBS | REMOVE_VERBS | TABLE_VERBS | {":", "-", ",", "et", "'", "avec"}  # « qu'une »
# A container named before its contents: « un jeu de cartes aventurier » is one thing.
CONTAINERS = {"jeu", "serie", "paquet", "set", "lot", "sachet"}
STOP = {
    "de", "d", "du", "des", "a", "au", "aux", "et", "puis", "ou", "qu", "que", "qui", "sur", "dans", "pour",
    "par", "face", "sans", "en", "sa", "son", "ses", "la", "le", "les", "l", "un", "une", "avec", "chacun",
    "ainsi", "comme", "il", "elle", "on", "se", "s", "y", "est", "sont", "joueur", "joueurs", "chaque", "devant",
    "faces", "cachee", "cachees", "visible", "visibles", "restantes", "restants",
}  # fmt: skip
# What a number measures that is no piece of the box (« 15 cm du lit », « 2 points de victoire »).
NOT_PIECES = {"cm", "mm", "m", "minute", "minutes", "seconde", "secondes", "point", "points", "fois", "tour", "tours", "ans", "heure", "heures", "manche", "manches"}  # fmt: skip
SKIPPED = {"premieres", "premiers", "derniers", "dernieres", "autres"}
SETUP_HEADINGS = ("preparation", "mise en place", "installation")
PLAY_HEADINGS = (
    "comment jouer", "deroulement", "le jeu de base", "tour de jeu", "le jeu peut commencer",
    "une partie se compose", "fin de la partie", "decompte",
)  # fmt: skip
BREAKS = {".", ";", "*", "•", "!", "?"}
PHRASE_WORDS = 4


@dataclass(frozen=True)
class Fact:
    """One count read in a clause: how many of what, done how, at which player count (None: any)."""

    name: str
    count: int
    action: str  # each, table, remove
    players: int | None
    sentence: str


@dataclass
class Draft:
    """The proposed declaration (docs/declared-rules.md's `setup`, `in_box` left to the librarian)."""

    components: list[dict] = field(default_factory=list)
    steps: list[dict] = field(default_factory=list)
    sentences: list[str] = field(default_factory=list)

    def definition(self) -> dict:
        return {"variants": [], "components": self.components, "steps": self.steps}

    def __bool__(self) -> bool:
        return bool(self.steps)


def plain(word: str) -> str:
    """A word without accents, in lower case (« Reçoit » → « recoit »)."""
    decomposed = unicodedata.normalize("NFD", word.casefold())
    return "".join(char for char in decomposed if not unicodedata.combining(char))


def words(clause: str) -> list[str]:
    """Words, numbers and punctuation marks, one pass (« d'une » → « d », « ' », « une »)."""
    found, current = [], []
    for char in clause:
        if char.isalnum():
            current.append(char)
            continue
        if current:
            found.append("".join(current))
            current = []
        if not char.isspace():
            found.append(char)
    if current:
        found.append("".join(current))
    return found


def clauses(text: str) -> list[tuple[str, bool]]:
    """The text cut at sentence ends, bullets, « - » between spaces and line breaks; each with whether
    it is an item of a dashed list (it may go on the clause before: « chaque joueur prend : - un écran »)."""
    found, current, dashed = [], [], False
    for index, char in enumerate(text):
        dash = (
            char == "-"
            and text[index - 1 : index] in ("", " ", ":", "\n")
            and text[index + 1 : index + 2] == " "
        )
        if char in BREAKS or char == "\n" or dash:
            found.append(("".join(current).strip(), dashed))
            current, dashed = [], dash
        else:
            current.append(char)
    found.append(("".join(current).strip(), dashed))
    return [(clause, dashed) for clause, dashed in found if clause]


def number(word: str) -> int | None:
    if word.isdigit() and word.isascii() and len(word) <= 4:
        return int(word)
    return NUMBER_WORDS.get(plain(word))


def players_condition(tokens: list[str]) -> tuple[int | None, int]:
    """The player count a clause starts with, and where its content starts (0: none)."""
    low = [plain(token) for token in tokens[:12]]
    for start in range(min(len(low), 10)):
        count = number(low[start])
        if count is None or start + 1 >= len(low) or low[start + 1] not in ("joueur", "joueurs"):
            continue
        before = low[max(0, start - 4) : start]
        if start == 0 or (before and before[-1] in ("pour", "a", "que")):
            after = start + 2
            return count, after + (1 if after < len(low) and low[after] in (":", ",") else 0)
    return None, 0


def _phrase(tokens: list[str], start: int) -> tuple[str, int]:
    """The words naming what a quantity counts, from `start`; and where they end."""
    taken: list[str] = []
    index = start
    while index < len(tokens) and len(taken) < PHRASE_WORDS:
        token = tokens[index]
        low = plain(token)
        if not token.isalpha():
            break
        if low in SKIPPED and not taken:
            index += 1
            continue
        joins = low == "de" and bool(taken) and (len(taken) >= 2 or plain(taken[0]) in CONTAINERS)
        if low in VERBS or (
            low in STOP and not (joins and index + 1 < len(tokens) and tokens[index + 1].isalpha())
        ):
            break
        taken.append(token.casefold())
        index += 1
    return " ".join(taken), index


@dataclass(frozen=True)
class Context:
    """What a clause ending in « : » passes to the dashed items after it."""

    mode: str = ""
    players: int | None = None
    each: bool = False


def read_clause(clause: str, carried: Context = Context()) -> tuple[list[Fact], int | None, Context]:
    """The facts of one clause, the player count it is about, and what it passes on to a dashed list."""
    tokens = words(clause)
    low = [plain(token) for token in tokens]
    own, index = players_condition(tokens)
    players = own if own is not None else carried.players
    each_context = (
        carried.each
        or "chacun" in low
        or any(low[i] == "chaque" and low[i + 1 : i + 2] == ["joueur"] for i in range(len(low)))
    )
    if "chacune" in low or (
        "chacun" in low and "des" in low[low.index("chacun") + 1 : low.index("chacun") + 2]
    ):
        return [], players, Context()  # « sur chacune des catégories »: a count per something else
    # « 3 joueurs : 5 guildes »: a bare count after a player count and a colon is on the table.
    mode = "table" if own is not None and low[index - 1 : index] == [":"] else carried.mode
    facts: list[Fact] = []
    depth, last_named = 0, ""  # what the clause counted last: « en » may stand for it
    while index < len(tokens):
        token, word = tokens[index], low[index]
        if token == "(":
            depth += 1
        elif token == ")":
            depth = max(0, depth - 1)
        elif depth == 0:
            if word in EACH_VERBS and each_context:
                mode = "each"
            elif word in REMOVE_VERBS:
                mode = "remove"
            elif word in TABLE_VERBS and mode != "each":
                mode = "table"
            after = number(tokens[index + 1]) if word == "en" and index + 1 < len(tokens) else None
            if after is not None and mode == "each" and last_named:
                # « Mélangez les 7 cartes Merveille et distribuez-en une à chaque joueur »
                facts.append(Fact(last_named, after, mode, players, clause))
                index += 2
                continue
            count = number(token)
            if word in ("un", "une") and index > 0 and low[index - 1] not in COUNTING_BEFORE:
                count = None
            if low[index - 2 : index] == ["d", "'"]:  # « d'une même couleur »
                count = None
            if count is not None and low[index + 1 : index + 2] != [")"]:
                name, end = _phrase(tokens, index + 1)
                container = (
                    low[end : end + 1] == ["de"]
                    and number(tokens[end + 1] if end + 1 < len(tokens) else "") is not None
                )
                last_named = name or last_named
                piece = name and plain(name.split()[0]) not in NOT_PIECES
                if mode and piece and not container and word not in ("joueur", "joueurs"):
                    facts.append(Fact(name, count, mode, players, clause))
                index = max(end, index + 1)
                continue
        index += 1
    passed = Context(mode, players, each_context) if tokens and tokens[-1] == ":" else Context()
    return facts, players, passed


def setup_parts(text: str) -> list[str]:
    """The parts of a notice under a setup heading (« Préparation », « Mise en place », « Installation »),
    each up to the next heading of play or scoring; the whole text when it has no setup heading."""
    # One character for one: the positions found in the plain text are the original text's.
    flat = "".join(plain(char)[:1] or char for char in text)
    parts = []
    start = min((found for marker in SETUP_HEADINGS if (found := flat.find(marker)) >= 0), default=-1)
    while start >= 0:
        ends = [found for marker in PLAY_HEADINGS if (found := flat.find(marker, start)) >= 0]
        end = min(ends, default=len(text))
        parts.append(text[start:end])
        starts = [found for marker in SETUP_HEADINGS if (found := flat.find(marker, end)) >= 0]
        start = min(starts, default=-1) if end < len(text) else -1
    return parts or [text]


def draft_setup(text: str) -> Draft:
    """The draft setup a notice's text states: steps per player count, components by name."""
    facts: list[Fact] = []
    notes: list[tuple[int, str]] = []
    carried = Context()
    for clause, dashed in (item for part in setup_parts(text) for item in clauses(part)):
        found, players, passed = read_clause(clause, carried if dashed else Context())
        carried = passed if passed != Context() else (carried if dashed else Context())
        facts += found
        if (
            not found
            and players is not None
            and any(plain(w) in REMOVE_VERBS | {"ecartes", "retires"} for w in words(clause))
        ):
            notes.append((players, clause))
    return _assemble(facts, notes)


def _assemble(facts: list[Fact], notes: list[tuple[int, str]]) -> Draft:
    grouped: dict[tuple[str, str], dict[int | None, set[int]]] = {}
    sentences: dict[tuple[str, str], list[str]] = {}
    for fact in facts:
        grouped.setdefault((fact.name, fact.action), {}).setdefault(fact.players, set()).add(fact.count)
        sentences.setdefault((fact.name, fact.action), []).append(fact.sentence)
    draft = Draft()
    keys: dict[str, str] = {}
    for (name, action), by_players in grouped.items():
        if any(len(counts) > 1 for counts in by_players.values()):
            continue  # two counts for one table: the text is not clear enough to propose either
        if None in by_players and len(by_players) > 1:
            continue  # a count for any table and another for some: left to the librarian
        if name not in keys:
            keys[name] = component_key(name, set(keys.values()))
            draft.components.append({"key": keys[name], "name": name[:1].upper() + name[1:]})
        values = {players: counts.pop() for players, counts in by_players.items()}
        count = (
            values[None]
            if None in values
            else {str(players): value for players, value in sorted(values.items())}
        )
        draft.steps.append({"component": keys[name], "action": action, "count": count})
        draft.sentences += [
            sentence for sentence in sentences[(name, action)] if sentence not in draft.sentences
        ]
    for players, clause in dict.fromkeys(notes):  # a notice printed twice says it twice
        draft.steps.append({"text": clause, "players": [str(players)]})
        draft.sentences.append(clause)
    return draft


def component_key(name: str, taken: set[str]) -> str:
    """« Cartes or » → `cartes_or` (a declaration's key), unique among `taken`."""
    key = "_".join(plain(word) for word in name.split() if word.isalnum())[:36] or "element"
    key = key if key[:1].isalpha() else f"e_{key}"
    found, suffix = key, 2
    while found in taken:
        found, suffix = f"{key}_{suffix}", suffix + 1
    return found
