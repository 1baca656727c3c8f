"""The ESAR classification's facet A: the four kinds of play that group the library's category codes.

ESAR (Exercice, Symbolique, Assemblage, Règles) was devised by Denise Garon with Rolande Filion and
Manon Doucet (M. Doucet, R. Filion, D. Garon, « Classification et analyse de collections d'objets de
jeu selon le système ESAR : rapport de recherche », Documentation et bibliothèques 35 (4), 1989,
https://doi.org/10.7202/1028188ar). Its facet A sorts games by kind of play, in hundreds:
A100 jeux d'exercice, A200 jeux symboliques, A300 jeux d'assemblage (et de construction), A400 jeux
de règles; a category's code is its kind's number plus its own (`A 406` jeu de stratégie, `A 407` jeu
de hasard: both jeux de règles). Codes of other classifications belong to no group.
"""

import re
from dataclasses import dataclass, field

from django.utils.translation import gettext_lazy as _

GROUPS = {
    "A100": _("Jeux d'exercice"),
    "A200": _("Jeux symboliques"),
    "A300": _("Jeux d'assemblage"),
    "A400": _("Jeux de règles"),
}

# A facet A code once its spaces are removed: A, the kind (1–4), then two digits.
_CODE_RE = re.compile(r"A([1-4])[0-9]{2}")
# The same test in the database, on codes as librarians type them (`A 406`, `A406`, `a 406`).
GROUP_SQL_REGEX = r"^[Aa] ?{kind}[0-9]{{2}}$"


def _compact(code: str) -> str:
    return "".join(code.split()).upper()


def group_of(code: str) -> str | None:
    """The facet A group of a category code (`A 406` → `A400`), or None for another classification."""
    match = _CODE_RE.fullmatch(_compact(code))
    return f"A{match[1]}00" if match else None


def spellings(code: str) -> list[str]:
    """The ways a facet A code is written (`A406`, `A 406`), the code itself first; only the code for
    another classification. People type it without the space that labels and the catalogue have."""
    match = _CODE_RE.fullmatch(_compact(code))
    if match is None:
        return [code]
    compact = match[0]
    return list(dict.fromkeys([code, compact, f"{compact[0]} {compact[1:]}"]))


def as_group(value: str) -> str | None:
    """The group a search value names (`A400`, `A 400`, `a400`), or None if it names something else."""
    compact = _compact(value)
    return compact if compact in GROUPS else None


@dataclass
class Group:
    """A group as a search filters on it: its code, its name and the ids of its categories."""

    code: str
    category_ids: list[int] = field(default_factory=list)

    @property
    def label(self) -> str:
        return str(GROUPS[self.code])

    def __str__(self) -> str:
        return f"{self.code} {self.label}"


def grouped_facets(categories: list[dict]) -> list[dict]:
    """The groups of a search's category counts, each with its count and its categories, in code order.

    `categories` are the facets of `GameQuerySet.facets()`; the categories of no group come last,
    under a group whose code is None.
    """
    groups: dict[str | None, dict] = {}
    for facet in sorted(categories, key=lambda facet: facet["code"]):
        code = group_of(facet["code"])
        group = groups.setdefault(
            code, {"code": code, "label": GROUPS.get(code, ""), "count": 0, "categories": []}
        )
        group["count"] += facet["count"]
        group["categories"].append(facet)
    return sorted(groups.values(), key=lambda group: (group["code"] is None, group["code"] or ""))
