"""The catalogues: English for every string, and French plural rules for our plural strings."""

from django.utils import translation
from django.utils.translation import trans_real


def plural_msgids(language: str) -> set[str]:
    catalog = trans_real.translation(language)._catalog
    return {key[0] for key in catalog.keys() if isinstance(key, tuple)}


def test_every_plural_string_translated_to_english_has_its_french_forms():
    english = plural_msgids("en")
    assert english, "the English catalogue has no plural entry: is it compiled?"
    missing = english - plural_msgids("fr")
    assert not missing, (
        f"fill these plural entries in locale/fr (README, Working on the code): {sorted(missing)}"
    )


def test_french_uses_the_singular_for_zero_and_one_and_english_the_plural_for_zero():
    with translation.override("fr"):
        assert translation.ngettext("%(total)s point", "%(total)s points", 0) % {"total": 0} == "0 point"
        assert translation.ngettext("%(total)s point", "%(total)s points", 2) % {"total": 2} == "2 points"
    with translation.override("en"):
        assert translation.ngettext("%(total)s point", "%(total)s points", 0) % {"total": 0} == "0 points"
