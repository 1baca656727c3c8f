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
        f"fill these plural entries in locale/fr (docs/development.md, Working on the code): {sorted(missing)}"
    )


def test_french_uses_the_singular_for_zero_and_one_and_english_the_plural_for_zero():
    with translation.override("fr"):
        assert translation.ngettext("%(total)s point", "%(total)s points", 0) % {"total": 0} == "0 point"
        assert translation.ngettext("%(total)s point", "%(total)s points", 2) % {"total": 2} == "2 points"
    with translation.override("en"):
        assert translation.ngettext("%(total)s point", "%(total)s points", 0) % {"total": 0} == "0 points"


def test_every_string_of_the_english_catalogue_is_translated_and_none_is_a_guess():
    """A fuzzy entry (makemessages' guess from a similar string) is left out of the compiled catalogue:
    the English page would show the French, or worse, a guess that says something else."""
    from pathlib import Path

    po = (Path(__file__).resolve().parent.parent / "locale/en/LC_MESSAGES/django.po").read_text()
    entries = po.split("\n\n")[1:]  # the first is the catalogue's header
    fuzzy = [entry for entry in entries if "#, fuzzy" in entry]
    untranslated = [
        entry for entry in entries if entry.rstrip().endswith('msgstr ""') and "msgid_plural" not in entry
    ]
    assert not fuzzy, "fuzzy entries in locale/en:\n" + "\n\n".join(fuzzy[:5])
    assert not untranslated, "untranslated entries in locale/en:\n" + "\n\n".join(untranslated[:5])
