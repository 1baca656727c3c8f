"""Every catalogued title has a rules page, made from its notice: the seeds' rules text in sections,
the facts and pieces, « à compléter » until published, never written over a librarian's text."""

from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.urls import reverse

from catalogue import registry
from catalogue.models import Author, Authorship, Component, Game, Publisher, PublisherCredit
from catalogue.pmb import parse_page
from catalogue.services import games_import_from_pmb_files
from rules.models import Revision, RulePage
from rules.pages.notice_text import (
    END,
    FAQ,
    GOAL,
    MATERIAL,
    PLAY,
    SCORING,
    SETUP,
    VARIANTS,
    headings,
    notice_sections,
)
from rules.pages.services import revision_create
from tests.conftest import text_of

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"


def seed_notice(name: str, title: str):
    page = parse_page((SEEDS / name).read_text(encoding="utf-8"), source=name)
    return next(notice for notice in page.notices if notice.title == title)


def sections_of(name: str, title: str):
    return notice_sections(seed_notice(name, title).contents)


# --- the notice's headings, as each seed notice writes them ------------------------------------------


def test_biblios_headings_on_their_own_lines():
    sections = sections_of("000_86c4d384f997375b.txt", "Biblios")
    assert headings(sections) == [
        (GOAL, "Résumé du jeu"),
        (MATERIAL, "Contenu"),
        (GOAL, "But du jeu"),
        (SETUP, "Installation"),
        (PLAY, "Comment jouer ?"),
        (END, "Gagner la partie"),
    ]
    # The headings of no known kind stay where they are, as sub-headings of their section.
    play = sections[4]
    assert ("sub", "Règles Générales pour les Enchères") in play.blocks
    assert ("sub", "Egalité dans une catégorie") in sections[5].blocks


def test_l_or_des_dragons_headings_run_together_with_the_text():
    sections = sections_of("001_e41460badcef2835.txt", "L'or des Dragons")
    assert headings(sections) == [
        (MATERIAL, "Contenu"),
        (SETUP, "Préparation"),
        (PLAY, "Le déroulement de la partie"),
        (END, "Fin de la partie"),
        (SCORING, "Décompte des points"),
        (FAQ, "Questions fréquement posées"),
    ]
    material = sections[0].blocks[0][1]
    assert material.startswith("18 cartes dragons") and material.endswith("35 jetons argentés.")
    # « Variante … : » or « Règle avancée: » inside a paragraph are its text, not headings.
    assert "Règle avancée: a) les pièces d'argent" in sections[4].blocks[0][1]


def test_catane_headings_with_a_glossary():
    sections = sections_of("002_1011991b7370a061.txt", "Les colons de Catane")
    assert headings(sections) == [
        (MATERIAL, "Contenu"),
        (SETUP, "Mise en place de l'Île"),
        (SETUP, "Préparation"),
        (PLAY, "Déroulement général de la partie"),
        (PLAY, "Déroulement détaillé de la partie"),
        (END, "Fin de la partie"),
        (FAQ, "Ce lexique contient des explications et des exemples détaillés des règles du jeu"),
    ]
    # « • 37 hexagones "Terrains"• 95 cartes… » on one line: one item each.
    assert sections[0].blocks[:2] == [
        ("item", '37 hexagones "Terrains"'),
        ("item", '95 cartes "Matières Premières"'),
    ]
    # The glossary's entries « Déroulement du jeu », « Fin du jeu » are its own sub-headings.
    assert ("sub", "Fin du jeu") in sections[-1].blocks


def test_morgenland_numbered_and_misspelt_headings():
    sections = sections_of("002_1011991b7370a061.txt", "Morgenland")
    assert headings(sections) == [
        (MATERIAL, "Conttenu"),
        (SETUP, "Préparation du jeu"),
        (SETUP, "Mise en place du matériel"),
        (END, "Fin de jeu et gagnant"),
    ]


def test_quarto_headings_in_capitals_and_a_variant_glued_to_a_line():
    sections = sections_of("002_1011991b7370a061.txt", "Quarto")
    assert headings(sections) == [
        (MATERIAL, "Présentation et préparation"),
        (GOAL, "But du jeu"),
        (PLAY, "Déroulement d'une partie"),
        (END, "Gain de la partie"),
        (END, "Fin de la partie"),
        (VARIANTS, "Variante pour joueurs debutants (enfants...)"),
        (VARIANTS, "Variante pour joueur avertis"),
    ]


def test_seven_wonders_headings_and_the_two_player_variant_keeps_its_own_parts():
    sections = sections_of("004_be868b0e87ae39f2.txt", "7 Wonders")
    assert headings(sections) == [
        (MATERIAL, "Contenu"),
        (GOAL, "Aperçu et but du jeu"),
        (MATERIAL, "Eléments de jeu"),
        (SETUP, "Préparation"),
        (FAQ, "Précissions"),
        (END, "Fin de partie"),
        (SCORING, "Comptage des points"),
        (VARIANTS, "Variente <experte> pour 2 joueurs"),
    ]
    variant = sections[-1].blocks
    assert ("sub", "Mise en place") in variant and ("sub", "Fin de partie") in variant
    # « 2. Contenu du trésor », a step of the scoring, is not a section « Contenu ».
    assert ("sub", "Contenu du trésor") in sections[6].blocks


def test_la_chasse_aux_monstres_headings_with_le_jeu_de_base():
    sections = sections_of("004_be868b0e87ae39f2.txt", "La chasse aux monstres")
    assert headings(sections) == [
        (MATERIAL, "Contenu"),
        (GOAL, "But du jeu"),
        (SETUP, "Préparation du jeu"),
        (PLAY, "Le jeu de base"),
        (PLAY, "Tour de jeu"),
        (END, "Gagner"),
        (VARIANTS, "Variantes"),
    ]


def test_text_before_any_heading_stays_under_regles_and_no_word_is_lost():
    text = "Chacun joue à son tour.\nBut du jeu:\nGagner la course. [x] ''y''"
    sections = notice_sections(text)
    assert headings(sections) == [("other", ""), (GOAL, "But du jeu")]
    assert sections[0].blocks == [("para", "Chacun joue à son tour.")]


# --- every title gets its page, whichever way it is catalogued -------------------------------------------


@pytest.fixture
def dobble(db) -> Game:
    """The issue's example: created in the admin with 2–8 players, 6+, 15 minutes, and a piece list."""
    game = Game.objects.create(
        title="Dobble",
        slug="dobble",
        players_min=2,
        players_max=8,
        age_min=6,
        age_max=99,
        duration_minutes=15,
    )
    Authorship.objects.create(game=game, author=Author.objects.create(name="Denis Blanchot"))
    PublisherCredit.objects.create(game=game, publisher=Publisher.objects.create(name="Asmodee"))
    Component.objects.create(game=game, quantity=55, label="cartes", position=1)
    return game


def test_a_title_created_in_the_admin_gets_its_page_linked_from_its_notice(admin_client):
    response = admin_client.post(
        reverse("admin:catalogue_game_add"),
        {
            "title": "Dobble",
            "slug": "dobble",
            "document_type": "jeu",
            "players_min": 2,
            "players_max": 8,
            "age_min": 6,
            "duration_minutes": 15,
            **{
                f"{prefix}-{key}": "0"
                for prefix in ("copies", "authorships", "publisher_credits", "components", "documents")
                for key in ("TOTAL_FORMS", "INITIAL_FORMS")
            },
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]
    page = RulePage.objects.get(game__slug="dobble")
    assert page.generated
    assert admin_client.get(reverse("rules:page-detail", args=[page.slug])).status_code == 200
    notice = admin_client.get(reverse("catalogue:game-detail", args=["dobble"])).content.decode()
    assert f'href="{reverse("rules:page-detail", args=[page.slug])}"' in notice
    assert f'href="{reverse("rules:score-sheet", args=[page.slug])}"' in notice


def test_a_title_without_text_gets_its_facts_its_pieces_and_a_pad(client, dobble):
    registry.catalogued([dobble.pk])
    response = client.get(reverse("rules:page-detail", args=["dobble"]))
    text = text_of(response)
    assert "De 2 à 8 joueurs Dès 6 ans Environ 15 minutes Denis Blanchot (auteur) Éditeur : Asmodee" in text
    assert "Matériel 55 × cartes" in text
    assert "À compléter : cette page a été faite automatiquement à partir de la notice" in text
    assert "99" not in text
    pad = client.get(reverse("rules:score-pad", args=["dobble"]), {"players": 8})
    assert pad.status_code == 200


def test_a_title_written_behind_the_catalogue_s_back_gets_its_page_when_first_opened(client, dobble):
    assert not RulePage.objects.exists()
    response = client.get(reverse("rules:page-detail", args=["dobble"]))
    assert response.status_code == 302
    page = RulePage.objects.get(game=dobble)
    assert response.url == page.get_absolute_url()
    assert client.get(response.url).status_code == 200
    assert client.get(reverse("rules:page-detail", args=["pas-de-jeu"])).status_code == 404


def test_a_coded_title_whose_page_is_not_loaded_yet_opens_the_coded_game(client, db):
    Game.objects.create(
        title="Les colons de Catane", slug="les-colons-de-catane", players_min=3, players_max=4
    )
    response = client.get(reverse("rules:page-detail", args=["les-colons-de-catane"]))
    assert response.status_code == 302 and response.url == reverse("rules:page-detail", args=["catane"])
    assert client.get(response.url).status_code == 200
    assert not RulePage.objects.exists()


def test_a_title_corrected_in_the_admin_renames_its_generated_page(dobble):
    registry.catalogued([dobble.pk])
    Game.objects.filter(pk=dobble.pk).update(title="Dobble Kids")
    registry.catalogued([dobble.pk])
    page = RulePage.objects.get(game=dobble)
    assert page.title == "Dobble Kids" and page.revisions.count() == 1


def pmb_file(tmp_path, seed: str, renames: dict[str, str]) -> Path:
    """A seed page with its titles changed: the same notices, for titles that have no coded rules."""
    text = (SEEDS / seed).read_text(encoding="utf-8")
    for old, new in renames.items():
        text = text.replace(old, new)
    path = tmp_path / seed
    path.write_text(text, encoding="utf-8")
    return path


def test_a_pmb_notice_with_rules_text_gets_its_sections_on_the_page(client, tmp_path, db):
    path = pmb_file(tmp_path, "004_be868b0e87ae39f2.txt", {"La chasse aux monstres": "Monstres au placard"})
    games_import_from_pmb_files(paths=[path])
    page = RulePage.objects.get(game__title="Monstres au placard")
    titles = [section["title"] for section in page.current_revision.sections]
    assert titles == [
        "En bref",
        "Contenu",
        "But du jeu",
        "Préparation du jeu",
        "Le jeu de base",
        "Tour de jeu",
        "Gagner",
        "Variantes",
    ]
    kinds = [section["kind"] for section in page.current_revision.sections]
    assert kinds == ["other", MATERIAL, GOAL, SETUP, PLAY, PLAY, END, VARIANTS]
    html = client.get(page.get_absolute_url()).content.decode()
    assert "Le joueur qui a le moins peur des monstres commence." in html


def test_a_csv_import_gives_each_new_title_its_page(admin_client):
    from django.core.files.uploadedfile import SimpleUploadedFile

    csv = "titre;joueurs_min;joueurs_max;regles\nSkyjo;2;8;But du jeu: avoir le moins de points.\n"
    admin_client.post(
        reverse("catalogue:import-upload"), {"fichier": SimpleUploadedFile("c.csv", csv.encode(), "text/csv")}
    )
    from catalogue.models import SpreadsheetImport

    admin_client.post(reverse("catalogue:import-confirm", args=[SpreadsheetImport.objects.latest("pk").pk]))
    page = RulePage.objects.get(game__title="Skyjo")
    assert [section["title"] for section in page.current_revision.sections] == ["En bref", "But du jeu"]


def test_a_coded_title_keeps_its_coded_page(db):
    page = RulePage.objects.create(slug="biblios", title="Biblios")
    Revision.objects.create(page=page, number=1, author_name="Ludothèque", content="== But du jeu ==\nx\n")
    games_import_from_pmb_files(paths=[SEEDS / "000_86c4d384f997375b.txt"])
    page.refresh_from_db()
    assert page.game.title == "Biblios"
    assert RulePage.objects.count() == 1


# --- re-imports, librarians' text, the history ----------------------------------------------------------


def test_a_reimport_refreshes_a_generated_page_but_never_a_librarian_s_text(tmp_path, staff_user, db):
    path = pmb_file(tmp_path, "004_be868b0e87ae39f2.txt", {"La chasse aux monstres": "Monstres au placard"})
    games_import_from_pmb_files(paths=[path])
    page = RulePage.objects.get(game__title="Monstres au placard")
    assert page.current_revision.number == 1
    games_import_from_pmb_files(paths=[path])  # the same notice: nothing to write
    assert page.revisions.count() == 1
    changed = pmb_file(
        tmp_path,
        "004_be868b0e87ae39f2.txt",
        {"La chasse aux monstres": "Monstres au placard", "Gagner..": "Gagner la partie.."},
    )
    games_import_from_pmb_files(paths=[changed])
    assert page.revisions.count() == 2
    assert "== Gagner la partie ==" in RulePage.objects.get(pk=page.pk).current_revision.content
    revision_create(
        page=page,
        content="== But du jeu ==\nRelu.\n",
        summary="Relu dans la boîte",
        author=staff_user,
        base_number=2,
    )
    games_import_from_pmb_files(paths=[path])
    page = RulePage.objects.get(pk=page.pk)
    assert page.current_revision.content == "== But du jeu ==\nRelu.\n"
    assert page.revisions.count() == 3


def test_the_import_note_is_in_the_history_not_on_the_page(client, dobble, staff_user):
    registry.catalogued([dobble.pk])
    page = RulePage.objects.get(game=dobble)
    summary = page.current_revision.summary
    assert "générée depuis la notice" in summary
    assert summary not in text_of(client.get(page.get_absolute_url()))
    assert summary in text_of(client.get(reverse("rules:history", args=[page.slug])))


def test_publishing_marks_the_page_reviewed_for_staff_only(client, dobble, staff_user, outsider):
    registry.catalogued([dobble.pk])
    page = RulePage.objects.get(game=dobble)
    url = reverse("rules:publish", args=[page.slug])
    assert client.post(url).status_code == 302 and RulePage.objects.get(pk=page.pk).generated
    client.force_login(outsider)
    assert client.post(url).status_code == 403
    client.force_login(staff_user)
    assert client.get(url).status_code == 405
    response = client.post(url)
    assert response.status_code == 302
    page.refresh_from_db()
    assert not page.generated and page.reviewed_by == staff_user
    assert "À compléter" not in text_of(client.get(page.get_absolute_url()))
    # A reviewed page is no longer the generator's: a new import leaves it alone.
    Game.objects.filter(pk=dobble.pk).update(players_max=6)
    registry.catalogued([dobble.pk])
    assert page.revisions.count() == 1


def test_the_command_makes_the_missing_pages_in_bulk_and_twice_does_nothing(db):
    games = Game.objects.bulk_create(
        Game(title=f"Jeu {n}", slug=f"jeu-{n}", players_min=2, players_max=4) for n in range(30)
    )
    Game.objects.create(title="Jeu 0 bis", slug="jeu-0-2")
    RulePage.objects.create(slug="jeu-0", title="Une autre page")  # the slug is taken: « -2 »…
    out = StringIO()
    call_command("generate_rule_pages", stdout=out)
    assert out.getvalue().startswith("31 page(s) de règles créée(s)")
    assert RulePage.objects.get(game=games[0]).slug == "jeu-0-2"
    assert RulePage.objects.get(game__title="Jeu 0 bis").slug == "jeu-0-2-2"
    assert Revision.objects.filter(page__game__in=games).count() == 30
    out = StringIO()
    call_command("generate_rule_pages", stdout=out)
    assert out.getvalue().startswith("0 page(s) de règles créée(s)")
