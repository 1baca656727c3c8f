"""Loading the rules pages from fixtures/rules/<slug>.wiki: first revisions, notice links, never staff edits."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from catalogue.models import Game
from rules.games import all_games
from rules.models import LOADER_AUTHOR, Revision, RulePage
from rules.pages.markup import SectionKind, split_sections
from rules.pages.services import WIKI_DIR, revision_create, rule_pages_load

pytestmark = pytest.mark.django_db

BIBLIOS_FILE = """summary: Rédaction initiale ; « Radolphe » → « Rodolphe ».
notice: Biblios
---
== But du jeu ==
Avoir la plus belle bibliothèque.
"""


@pytest.fixture
def pages_dir(tmp_path) -> Path:
    (tmp_path / "biblios.wiki").write_text(BIBLIOS_FILE, encoding="utf-8")
    return tmp_path


def load(directory: Path):
    # history=None: the BGA wiki history (issue 7) is tested with its own import.
    return rule_pages_load(directory=directory, history=None)


def test_a_page_file_becomes_revision_1_linked_to_its_notice(pages_dir):
    notice = Game.objects.create(title="Biblios", slug="biblios-iella")
    report = load(pages_dir)
    assert "biblios" in report.created
    page = RulePage.objects.get(slug="biblios")
    assert (page.title, page.game) == ("Biblios", notice)
    revision = page.revisions.get()
    assert revision.number == 1
    assert revision.author is None
    assert revision.author_name == LOADER_AUTHOR
    assert revision.summary == "Rédaction initiale ; « Radolphe » → « Rodolphe »."
    assert revision.content == "== But du jeu ==\nAvoir la plus belle bibliothèque.\n"


def test_every_registered_game_gets_a_page_even_without_its_file(pages_dir):
    report = load(pages_dir)
    slugs = {game.slug for game in all_games()}
    assert set(RulePage.objects.values_list("slug", flat=True)) >= slugs
    assert set(report.missing_file) == slugs - {"biblios"}
    catane = RulePage.objects.get(slug="catane").current_revision
    assert "catane.wiki manque" in catane.summary
    assert [section.kind for section in split_sections(catane.content)] == [SectionKind.GOAL]


def test_loading_again_changes_nothing(pages_dir):
    load(pages_dir)
    count = Revision.objects.count()
    report = load(pages_dir)
    assert report.created == [] and report.updated == []
    assert "biblios" in report.unchanged
    assert Revision.objects.count() == count


def test_a_newer_file_follows_the_loaders_own_text(pages_dir):
    load(pages_dir)
    (pages_dir / "biblios.wiki").write_text(BIBLIOS_FILE + "== Matériel ==\n87 cartes.\n", encoding="utf-8")
    report = load(pages_dir)
    assert "biblios" in report.updated
    page = RulePage.objects.get(slug="biblios")
    assert page.current_revision.number == 2
    assert "87 cartes." in page.current_revision.content


def test_staff_edits_are_never_overwritten(pages_dir, staff_user):
    load(pages_dir)
    page = RulePage.objects.get(slug="biblios")
    revision_create(
        page=page,
        content="== But du jeu ==\nTexte de la bibliothécaire.",
        summary="Relu",
        author=staff_user,
        base_number=1,
    )
    (pages_dir / "biblios.wiki").write_text(BIBLIOS_FILE + "Nouveau.\n", encoding="utf-8")
    report = load(pages_dir)
    assert "biblios" in report.kept
    page = RulePage.objects.get(slug="biblios")
    assert page.current_revision.number == 2
    assert page.current_revision.content == "== But du jeu ==\nTexte de la bibliothécaire.\n"


def test_a_notice_imported_later_is_linked_on_the_next_run(pages_dir):
    report = load(pages_dir)
    assert "biblios" in report.missing_notice
    assert RulePage.objects.get(slug="biblios").game is None
    notice = Game.objects.create(title="Biblios", slug="biblios")
    report = load(pages_dir)
    assert "biblios" in report.linked
    assert RulePage.objects.get(slug="biblios").game == notice


def test_a_malformed_file_is_reported_and_the_others_still_load(pages_dir):
    (pages_dir / "quarto.wiki").write_text("titre Quarto\n== But du jeu ==\n", encoding="utf-8")
    report = load(pages_dir)
    assert report.errors and report.errors[0].startswith("quarto.wiki")
    assert RulePage.objects.filter(slug="biblios").exists()
    assert not RulePage.objects.filter(slug="quarto").exists()


def test_the_command_loads_the_project_pages_and_says_what_it_did():
    out = StringIO()
    call_command("load_rule_pages", stdout=out)
    for game in all_games():
        assert RulePage.objects.filter(slug=game.slug).exists()
    assert "biblios: created" in out.getvalue()
    again = StringIO()
    call_command("load_rule_pages", stdout=again)
    assert "0 page(s) created." in again.getvalue()


def test_the_command_fails_loudly_on_a_malformed_file(pages_dir, monkeypatch):
    (pages_dir / "quarto.wiki").write_text("pas d'en-tête\n", encoding="utf-8")
    monkeypatch.setattr("rules.management.commands.load_rule_pages.WIKI_DIR", pages_dir)
    with pytest.raises(CommandError):
        call_command("load_rule_pages", stdout=StringIO())


@pytest.mark.parametrize("path", sorted(WIKI_DIR.glob("*.wiki")), ids=lambda path: path.stem)
def test_every_section_of_our_page_files_is_recognised(path):
    body = path.read_text(encoding="utf-8").split("\n---\n", 1)[1]
    sections = split_sections(body)
    assert sections, path.name
    assert [section.title for section in sections if section.kind == SectionKind.OTHER] == []
    assert sections[0].kind == SectionKind.GOAL
