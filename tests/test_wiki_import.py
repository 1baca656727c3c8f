"""Importing the BGA wiki's history (seed 003) as the first revisions of the rules pages."""

import html
import re
from datetime import UTC, datetime
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from django.db import IntegrityError
from django.urls import reverse

from rules.models import LOADER_AUTHOR, Revision, RulePage
from rules.pages.markup import section_kind, split_sections
from rules.pages.services import WIKI_DIR, revision_create, rule_pages_load, wiki_file_read
from rules.pages.wiki_import import contributions_read, page_histories, rules_slug_for, wiki_history_import

SEED = Path(__file__).resolve().parent.parent / "fixtures" / "seeds" / "003_92865e5214de13d9.txt"
GAME_PAGES = {
    "Gamehelpthebuilders": "the-builders",
    "Gamehelprailroadink": "railroad-ink",
    "Gamehelpluxor": "luxor",
    "Gamehelpk2": "k2",
    "Gamehelpalhambra": "alhambra",
    "Gamehelpmarrakech": "marrakech",
    "Gamehelpmartiandice": "martian-dice",
}


def utc(text: str) -> datetime:
    return datetime.strptime(text, "%Y-%m-%dT%H:%M:%SZ").replace(tzinfo=UTC)


def table_rows(page_html: str, caption: str) -> list[list[str]]:
    """The cells of the table with this caption, row by row, as a reader sees them."""
    match = re.search(
        r"<table[^>]*>\s*<caption>" + re.escape(caption) + r"</caption>(.*?)</table>", page_html, re.S
    )
    assert match, f"no table captioned {caption!r}"
    return [
        [
            html.unescape(re.sub(r"<[^>]+>", "", cell)).strip()
            for cell in re.findall(r"<t[dh][^>]*>(.*?)</t[dh]>", row, re.S)
        ]
        for row in re.findall(r"<tr>(.*?)</tr>", match.group(1), re.S)
    ]


@pytest.fixture
def imported(db):
    report = wiki_history_import(path=SEED)
    assert report.imported == {
        "the-builders": 1,
        "railroad-ink": 1,
        "luxor": 1,
        "k2": 1,
        "alhambra": 2,
        "marrakech": 1,
        "martian-dice": 1,
    }
    return report


# --- reading the contributions list ----------------------------------------------------------------


def test_it_reads_every_contribution_of_the_seed_newest_first_with_time_contributor_and_summary():
    contributions = contributions_read(SEED)
    assert [(c.title, c.saved_at, c.contributor, c.summary) for c in contributions] == [
        ("Gamehelpthebuilders", utc("2025-10-16T22:24:40Z"), "Bourjn", "Ajout du coût d'achat d'une action"),
        ("Gamehelprailroadink", utc("2021-05-05T20:45:38Z"), "Bourjn", ""),
        ("Aide", utc("2021-01-17T18:06:10Z"), "Bourjn", "Ajout de jeux"),
        ("Gamehelpluxor", utc("2021-01-17T17:08:01Z"), "Bourjn", ""),
        ("Gamehelpk2", utc("2020-11-27T23:04:17Z"), "Bourjn", ""),
        ("Gamehelpalhambra", utc("2020-11-25T11:20:43Z"), "Bourjn", ""),
        (
            "Gamehelpalhambra",
            utc("2020-11-24T22:04:35Z"),
            "Bourjn",
            "Page créée avec « __NOTOC__ == Principe == Vous devez construire le plus bel Alhambra. "
            "Des points sont attribués à chacun lors de 3 phases de décompte, en fonction du nombre de tuiles… »",
        ),
        ("Gamehelpmarrakech", utc("2020-11-22T15:04:52Z"), "Bourjn", ""),
        (
            "Gamehelpmartiandice",
            utc("2020-11-14T18:43:28Z"),
            "Bourjn",
            "Page créée avec « = Martian Dice = But du jeu : Enlever le plus de terriens (humains, vaches et "
            "poules). == Comment jouer ? == À son tour : * Lancez les dés, tous les tanks sont mis d… »",
        ),
    ]


def test_each_contribution_keeps_exactly_its_own_page_text():
    by_title = {c.title: c for c in contributions_read(SEED)}
    builders = by_title["Gamehelpthebuilders"].content
    assert builders.startswith("== But du Jeu ==\nConstruire des bâtiments")
    assert builders.endswith("== Astuces ==\n[[Tips_thebuilders]]")
    assert "Gamehelprailroadink" not in builders
    assert by_title["Aide"].content == ""  # the index page was saved without its text
    assert by_title["Gamehelpmartiandice"].content.endswith("* Poule (jaune) ×1")
    assert "Board Game Arena - Contributions" not in "".join(c.content for c in by_title.values())


def test_a_wiki_page_goes_to_the_rules_page_of_its_game_and_the_index_to_none():
    slugs = set(GAME_PAGES.values()) | {"biblios", "7-wonders"}
    histories = page_histories(contributions_read(SEED))
    assert {title: rules_slug_for(title, slugs) for title in histories} == {**GAME_PAGES, "Aide": None}
    assert [revision.saved_at for revision in histories["Gamehelpalhambra"]] == [
        utc("2020-11-24T22:04:35Z"),
        utc("2020-11-25T11:20:43Z"),
    ]


# --- writing the revisions ---------------------------------------------------------------------------


def test_every_page_gets_its_wiki_revisions_with_time_summary_and_contributor(imported):
    revisions = {
        revision.page.slug: revision for revision in Revision.objects.select_related("page").filter(number=1)
    }
    assert set(revisions) == set(GAME_PAGES.values())
    builders = revisions["the-builders"]
    assert builders.created_at == utc("2025-10-16T22:24:40Z")
    assert builders.summary == "Ajout du coût d'achat d'une action"
    assert (builders.author, builders.author_name) == (None, "Bourjn")
    assert builders.imported_from == "wiki BGA (fr) : Gamehelpthebuilders"
    assert revisions["railroad-ink"].summary == ""
    assert revisions["martian-dice"].created_at == utc("2020-11-14T18:43:28Z")
    assert RulePage.objects.get(slug="the-builders").title == "Les Bâtisseurs : Moyen Âge"
    assert imported.unmatched == ["Aide"]


def test_alhambra_keeps_both_revisions_oldest_first(imported):
    first, second = Revision.objects.filter(page__slug="alhambra").order_by("number")
    assert (first.number, first.created_at) == (1, utc("2020-11-24T22:04:35Z"))
    assert first.summary.startswith("Page créée avec « __NOTOC__ == Principe == Vous devez construire")
    assert (second.number, second.created_at, second.summary) == (2, utc("2020-11-25T11:20:43Z"), "")
    assert '"reconstruire son Alhambra"' in first.content
    assert '"modifier son Alhambra"' in second.content
    assert "=== Gain des points de victoire ===" in second.content
    assert "Gain des points de victoire" not in first.content


def test_importing_twice_changes_nothing(imported):
    before = list(Revision.objects.order_by("pk").values_list("pk", "page__slug", "number", "created_at"))
    again = wiki_history_import(path=SEED)
    assert again.imported == {}
    assert sorted(again.unchanged) == sorted(GAME_PAGES.values())
    assert (
        list(Revision.objects.order_by("pk").values_list("pk", "page__slug", "number", "created_at"))
        == before
    )


def test_the_database_refuses_the_same_wiki_revision_twice(imported):
    first = Revision.objects.get(page__slug="luxor", number=1)
    with pytest.raises(IntegrityError):
        Revision.objects.create(
            page=first.page,
            number=2,
            author_name="Bourjn",
            created_at=first.created_at,
            imported_from=first.imported_from,
            content=first.content,
        )


def test_the_history_never_goes_before_revisions_written_here(db):
    rule_pages_load(history=None)  # the structured pages first: each is revision 1
    report = wiki_history_import(path=SEED)
    assert report.imported == {}
    assert sorted(report.kept) == sorted(GAME_PAGES.values())
    for slug in GAME_PAGES.values():
        assert list(Revision.objects.filter(page__slug=slug).values_list("number", "author_name")) == [
            (1, LOADER_AUTHOR)
        ]


# --- the structured page after the history ---------------------------------------------------------------


def test_the_page_file_becomes_the_revision_after_the_imported_history(db):
    report = rule_pages_load()
    assert "alhambra: 2 wiki revision(s) imported" in report.history
    alhambra = list(Revision.objects.filter(page__slug="alhambra").order_by("number"))
    assert [(r.number, r.author_name) for r in alhambra] == [(1, "Bourjn"), (2, "Bourjn"), (3, LOADER_AUTHOR)]
    assert alhambra[2].content.strip() == wiki_file_read(WIKI_DIR / "alhambra.wiki").body.strip()
    assert alhambra[2].created_at > alhambra[1].created_at
    builders = list(Revision.objects.filter(page__slug="the-builders").order_by("number"))
    assert [(r.number, r.author_name) for r in builders] == [(1, "Bourjn"), (2, LOADER_AUTHOR)]
    # Games outside the wiki start with their page file.
    assert list(Revision.objects.filter(page__slug="biblios").values_list("number", "author_name")) == [
        (1, LOADER_AUTHOR)
    ]


def test_loading_the_pages_again_changes_nothing(db):
    rule_pages_load()
    before = list(Revision.objects.order_by("pk").values_list("pk", "number", "content"))
    report = rule_pages_load()
    assert report.created == [] and report.updated == []
    assert list(Revision.objects.order_by("pk").values_list("pk", "number", "content")) == before


def test_a_librarians_edit_after_the_history_is_never_overwritten(db, staff_user):
    rule_pages_load()
    page = RulePage.objects.get(slug="k2")
    edited = revision_create(
        page=page,
        content="== But du jeu ==\nGrimper.\n",
        summary="Texte revu",
        author=staff_user,
        base_number=2,
    )
    report = rule_pages_load()
    assert "k2" in report.kept
    assert page.revisions.order_by("-number").first() == edited
    assert page.revisions.count() == 3


# --- what readers see -----------------------------------------------------------------------------------------


def test_railroad_inks_network_table_is_a_real_table(client, imported):
    response = client.get(reverse("rules:revision", args=["railroad-ink", 1]))
    assert response.status_code == 200
    assert table_rows(response.content.decode(), "Valeur d'un Réseau") == [
        ["Nombre de Sorties", *(str(exits) for exits in range(13))],
        ["Points", "0", "0", "4", "8", "12", "16", "20", "24", "28", "32", "36", "40", "45"],
    ]


def test_luxors_sets_table_is_a_real_table(client, imported):
    response = client.get(reverse("rules:revision", args=["luxor", 1]))
    assert table_rows(response.content.decode(), "Série de trésors") == [
        ["Série complète", "1", "2", "3", "4", "5", "6", "7", "8+"],
        ["Points", "3", "7", "12", "18", "25", "33", "42", "52"],
    ]


def test_the_imported_markup_renders_headings_lists_emphasis_and_links(imported):
    builders = Revision.objects.get(page__slug="the-builders").content
    sections = split_sections(builders)
    assert [section.title for section in sections] == [
        "But du Jeu",
        "Comment arriver à ses fins",
        "Fin de la partie",
        "Liens",
        "Astuces",
    ]
    body = "".join(str(section.body_html) for section in sections)
    assert "<b>Condition de victoire</b>" in body
    assert "(<b>5 écus</b> par action supplémentaire)" in body
    assert "<i>ad hoc</i>" in body
    assert re.search(
        r"<li>- Faire travailler un ouvrier[^<]*<span[^>]*>même</span>.*?<ul>\s*<li>- le 2e ouvrier",
        body,
        re.S,
    )
    assert '<a href="https://boardgamegeek.com/boardgame/144553/builders-middle-ages"' in body
    assert "<script" not in body and "[[" not in body and "'''" not in body
    k2 = str(split_sections(Revision.objects.get(page__slug="k2").content)[-2].body_html)
    assert k2.count("<table") == 3 and '<th scope="row">Pts</th>' in k2 and "<td>2|3</td>" in k2


def test_a_variantes_heading_is_the_variants_section():
    assert section_kind("Variantes") == "variants"
    assert section_kind("VARIANTE") == "variants"
    railroad = next(c for c in contributions_read(SEED) if c.title == "Gamehelprailroadink")
    assert [section.kind for section in split_sections(railroad.content)][-1] == "variants"


def test_the_history_page_lists_the_imported_revisions(client, imported):
    response = client.get(reverse("rules:history", args=["alhambra"]))
    assert response.status_code == 200
    content = response.content.decode()
    assert content.count("<td>Bourjn</td>") == 2
    assert 'datetime="2020-11-24T23:04:35+01:00"' in content  # shown in the library's time zone
    assert "Page créée avec « __NOTOC__" in html.unescape(content)


def test_the_diff_between_the_two_alhambra_revisions_shows_what_changed(client, imported):
    response = client.get(reverse("rules:diff", args=["alhambra"]), {"de": 1, "a": 2})
    assert response.status_code == 200
    content = html.unescape(response.content.decode())
    assert re.search(r"<del>[^<]*reconstruire son Alhambra[^<]*</del>", content)
    assert re.search(r"<ins>[^<]*modifier son Alhambra[^<]*</ins>", content)
    assert re.search(r"<ins>=== Gain des points de victoire ===</ins>", content)


# --- the command ------------------------------------------------------------------------------------------------


def test_the_command_imports_the_seed_and_says_what_it_did(db):
    out = StringIO()
    call_command("import_bga_wiki", str(SEED), stdout=out)
    assert "alhambra: 2 wiki revision(s) imported" in out.getvalue()
    assert "Aide: no rules page for this wiki page, skipped" in out.getvalue()
    assert "8 revision(s) imported." in out.getvalue()
    out = StringIO()
    call_command("import_bga_wiki", str(SEED), stdout=out)
    assert "0 revision(s) imported." in out.getvalue()
    assert Revision.objects.count() == 8


def test_the_command_refuses_a_missing_file_or_one_without_contributions(db, tmp_path):
    with pytest.raises(CommandError, match="no such file"):
        call_command("import_bga_wiki", str(tmp_path / "absent.txt"))
    empty = tmp_path / "notes.txt"
    empty.write_text("Rien à importer ici.\n", encoding="utf-8")
    with pytest.raises(CommandError, match="no contribution found"):
        call_command("import_bga_wiki", str(empty))
    assert Revision.objects.count() == 0
