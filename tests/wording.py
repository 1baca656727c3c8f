"""What French that reads naturally is not: the checks the demo walk applies to every page's text."""

import re

# « Vainqueur(s) », « rapporté(s) »: a real plural is written instead.
PLURAL_IN_BRACKETS = re.compile(r"\w\((?:s|es|x)\)")
# « de Alex », « de un » — French elides « de » before a vowel (« d'Alex »). Not before a number, an
# « h » or a lone letter (« la lettre la plus proche de A »).
DE_BEFORE_VOWEL = re.compile(r"(?<![\w'’-])[Dd]e (?=[AEIOUYÀÂÉÈÊËÎÏÔÛaeiouyàâéèêëîïôû]\w)")
# « 2 à 99 joueurs », « Âge 10 – 99 »: PMB's 99 means "and up", never shown as an upper bound.
UPPER_BOUND_99 = re.compile(r"(?:\bà|[–-])\s*99\b(?!\s*[,.]\d)")
# « Encore 0 prêt possible »
ZERO_LEFT = re.compile(r"\bEncore 0\b")

CHECKS = {
    "« (s) » instead of a real plural": PLURAL_IN_BRACKETS,
    "« de » before a vowel (elide: « d' »)": DE_BEFORE_VOWEL,
    "a « 99 » upper bound shown": UPPER_BOUND_99,
    "« Encore 0 » (say « Plus aucun »)": ZERO_LEFT,
}


def wording_faults(text: str) -> list[str]:
    """Each fault found in a page's text, with a few words around it."""
    faults = []
    for name, pattern in CHECKS.items():
        for match in pattern.finditer(text):
            start, end = max(0, match.start() - 40), match.end() + 40
            faults.append(f"{name}: …{text[start:end]}…")
    return faults
