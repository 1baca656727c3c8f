"""Property tests: on adversarial text that hypothesis builds, rendering markup, reading a PMB page and
comparing two revisions cost time in proportion to the input, never more.

Each example builds a short unit from the characters each parser treats specially and repeats it:
super-linear work shows as soon as a unit repeats. A linear parser takes at most `factor` times
longer on `factor` times the input (tests/timing.py allows 3× that, for a loaded machine); a
super-linear one takes `factor`² times longer or worse. The seed is fixed (derandomize).
"""

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from catalogue.pmb import parse_page
from rules.diff import TooDifferent, diff_rows
from rules.markup import split_sections
from tests.timing import assert_linear, seconds

BUDGETED = settings(max_examples=25, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))

MARKUP_PIECES = [
    "=",
    "==",
    "'",
    "''",
    "'''",
    "[",
    "]",
    "[[",
    "]]",
    "|",
    "||",
    "!",
    "!!",
    "{|",
    "|}",
    "|-",
    "|+",
    "*",
    "#",
    ":",
    ";",
    "<",
    ">",
    "<li>",
    "</li >",
    "<ol>",
    "</ol>",
    "<br>",
    "&",
    "&nbsp;",
    "&#12;",
    '"',
    "a=",
    "b",
    " ",
    "  ",
    "\t",
    "\n",
    "\n\n",
    "https://",
    "http://a.b",
    "mailto:x",
    "__NOTOC__",
    "colspan=",
    "2",
    "scope=",
    "----",
    "\ue000",
    "é",
]
PMB_PIECES = [
    "Titre :",
    "Titre : ",
    "Exemplaires (1)",
    "Cote Section Localisation Code-barres Disponibilité",
    "Disponible",
    "En prêt",
    "Sorti jusqu'au 01/02/2026",
    "A 410",
    "A410",
    "TEU",
    "90461",
    "Maison",
    "Langues :",
    "Français (fre)",
    "(",
    ")",
    ";",
    ",",
    "Catégories :",
    "Tags :",
    "Jeux à deux",
    "Contenu :",
    "1 pion",
    " et ",
    ".",
    "•",
    "|",
    ": |",
    " ",
    "  ",
    "\t",
    "\n",
    "[",
    "]",
    " / ",
    "Documents numériques",
    "regles.pdf",
    "Nombre minimum de joueurs :",
    "3",
    "²",
    "En ligne :",
    "http://x",
    "a",
]


def units(pieces: list[str]):
    return st.lists(st.sampled_from(pieces), min_size=1, max_size=12).map("".join)


@BUDGETED
@given(unit=units(MARKUP_PIECES))
def test_rendering_any_markup_takes_time_in_proportion_to_its_length(unit):
    assert_linear(split_sections, lambda count: unit * count, max(1, 4000 // len(unit)))


@BUDGETED
@given(unit=units(PMB_PIECES))
def test_reading_any_pmb_page_takes_time_in_proportion_to_its_length(unit):
    assert_linear(parse_page, lambda count: "Titre : Jeu\n" + unit * count, max(1, 4000 // len(unit)))


@pytest.fixture(scope="module")
def worst_diff_seconds() -> float:
    """The most a comparison may cost: one that exhausts the diff's step budget."""

    def exhaust(_):
        with pytest.raises(TooDifferent):
            diff_rows("x\ny\nx\n" * 700, "y\nx\ny\n" * 700)

    return seconds(exhaust, None)


@BUDGETED
@given(old_unit=units(MARKUP_PIECES), new_unit=units(MARKUP_PIECES), repeats=st.integers(1, 400))
def test_comparing_any_two_revisions_costs_no_more_than_the_step_budget(
    old_unit, new_unit, repeats, worst_diff_seconds
):
    old, new = old_unit * repeats, (old_unit + new_unit) * repeats

    def compare(pair):
        try:
            diff_rows(*pair)
        except TooDifferent:
            pass

    # A linear part (reading and numbering the lines), then at most the budget's steps.
    linear = seconds(lambda text: text.splitlines(), old + new)
    assert seconds(compare, (old, new)) <= 3 * worst_diff_seconds + 50 * linear + 0.05
