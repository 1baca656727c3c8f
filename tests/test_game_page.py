"""The game page /jeux/<slug>/: the whole notice, its pieces, copies, documents and rules links."""

import datetime
import re
from html import unescape

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection
from django.utils import timezone

from catalogue.models import Copy, Document, Language
from loans.models import Hold
from rules.models import RulePage
from tests.conftest import text_of
from tests.search_helpers import family, family_catalogue, lend, librarian


@pytest.fixture
def catalogue(db):
    return family_catalogue()


def copy_row(response, barcode: str) -> str:
    """The text of the copies list's line for this barcode."""
    rows = re.findall(r'<li class="copy">(.*?)</li>', response.content.decode(), flags=re.S)
    [row] = [row for row in rows if re.search(rf"\b{barcode}\b", row)]
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", row)).split())


def test_the_page_shows_every_field_of_the_notice(client, catalogue):
    quarto = catalogue.quarto
    quarto.languages.add(Language.objects.create(code="fre", name="Français"))
    quarto.rules_summary = "Le premier qui aligne quatre pièces semblables a gagné."
    quarto.contents = "16 pièces en bois, 1 plateau."
    quarto.pedagogical_analysis = "Logique et observation."
    quarto.online_url = "https://www.gigamic.com/jeu/quarto"
    quarto.save()
    page = text_of(client.get("/jeux/quarto/"))
    for expected in (
        "Quarto",
        "Type de document objet à 3 dimensions, artefacts, ...",
        "Auteurs Blaise Müller , Auteur",
        "Éditeurs Wimereux : Gigamic SARL",
        "Langues Français (fre)",
        "Catégorie A 406 jeu de stratégie (jeu de règles)",
        "Mots-clés Jeux à deux",
        "Nombre de joueurs 2 joueurs",
        "Âge dès 8 ans",
        "Durée moyenne 15 min",
        "Principe du jeu Aligner quatre pièces ayant un caractère commun.",
        "Règles du jeu Le premier qui aligne quatre pièces semblables a gagné.",
        "Contenu 16 pièces en bois, 1 plateau.",  # no structured list of pieces: the text itself
        "Analyse pédagogique Logique et observation.",
        "En ligne https://www.gigamic.com/jeu/quarto",
    ):
        assert expected in page, expected


def test_names_and_tags_link_to_the_search(client, catalogue):
    html = client.get("/jeux/7-wonders/").content.decode()
    assert '<a href="/jeux/?auteur=Antoine%20Bauza">Antoine Bauza</a>' in html
    assert '<a href="/jeux/?auteur=Bruno%20Cathala">Bruno Cathala</a>' in html
    assert '<a href="/jeux/?tag=cartes">Cartes</a>' in html
    assert '<a href="/jeux/?categorie=A%20406">' in html


def test_the_pieces_are_listed_in_order(client, catalogue):
    catalogue.biblios.components.create(position=1, quantity=5, label="dés")
    catalogue.biblios.components.create(position=0, quantity=87, label="cartes")
    page = text_of(client.get("/jeux/biblios/"))
    assert "Contenu de la boîte 87 × cartes 5 × dés" in page


def test_each_copy_shows_cote_section_location_barcode_and_availability(client, catalogue):
    response = client.get("/jeux/les-colons-de-catane/")
    # The copy's section is kept as recorded, even when it differs from the notice's category.
    assert copy_row(response, "90461") == (
        "Disponible Maison des Enfants, cote LES n° 90461 · section A 410 jeu de langue"
    )


def test_a_copy_on_loan_shows_when_it_is_due_back(client, catalogue):
    copy = Copy.objects.get(barcode="70001")
    lend(copy, due_on=datetime.date(2031, 3, 14))
    response = client.get("/jeux/le-chateau-des-dragons/")
    assert copy_row(response, "70001").startswith("En prêt, retour prévu le 14/03/2031 ")
    english = client.get("/jeux/le-chateau-des-dragons/", HTTP_ACCEPT_LANGUAGE="en")
    # English keeps the site's European dates.
    assert copy_row(english, "70001").startswith("On loan, due back on 14/03/2031 ")


def test_a_returned_copy_is_available_again(client, catalogue):
    loan = Copy.objects.get(barcode="91233").loans.get()
    loan.returned_at = timezone.now()
    loan.returned_by = librarian()
    loan.return_check = loan.ReturnCheck.COMPLETE
    loan.save()
    assert copy_row(client.get("/jeux/7-wonders/"), "91233").startswith("Disponible ")


def test_a_copy_out_of_circulation_shows_its_status(client, catalogue):
    assert copy_row(client.get("/jeux/biblios/"), "90901").startswith("En réparation ")


def test_a_copy_set_aside_for_a_hold_is_not_available(client, catalogue):
    copy = Copy.objects.get(barcode="90468")
    Hold.objects.create(
        game=catalogue.quarto,
        member=family(),
        position=1,
        status=Hold.Status.READY,
        created_by=librarian(),
        copy=copy,
        ready_at=timezone.now(),
        ready_until=timezone.localdate() + datetime.timedelta(days=7),
    )
    response = client.get("/jeux/quarto/")
    assert copy_row(response, "90468").startswith("Mis de côté pour une réservation ")
    assert copy_row(response, "90408").startswith("Disponible ")


def test_documents_link_to_their_file_when_it_was_uploaded(client, catalogue, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    Document.objects.create(
        game=catalogue.biblios,
        file_name="biblios-regles.pdf",
        file=SimpleUploadedFile("biblios-regles.pdf", b"%PDF-1.4"),
        position=0,
    )
    Document.objects.create(game=catalogue.biblios, file_name="biblios-variante.pdf", position=1)
    html = client.get("/jeux/biblios/").content.decode()
    assert '<a href="/media/documents/biblios/biblios-regles.pdf">biblios-regles.pdf</a>' in html
    assert "<li>biblios-variante.pdf <span" in html  # not uploaded: no link that would lead nowhere


def test_links_to_the_rules_page_setup_and_score_sheet_when_the_game_has_one(client, catalogue):
    # Every title links its rules page, made when first opened if no import made it yet.
    html = client.get("/jeux/quarto/").content.decode()
    assert 'href="/regles/quarto/"' in html and "/regles/quarto/mise-en-place/" not in html
    RulePage.objects.create(slug="quarto", title="Quarto", game=catalogue.quarto)
    html = client.get("/jeux/quarto/").content.decode()
    assert 'href="/regles/quarto/"' in html
    assert 'href="/regles/quarto/mise-en-place/"' in html
    # Quarto has no score sheet (the first to line up four wins): its referee instead.
    assert "/regles/quarto/feuille-de-score/" not in html
    assert 'href="/regles/quarto/arbitrage/"' in html


def test_a_game_without_copies_says_so(client, catalogue):
    catalogue.biblios.copies.all().delete()
    assert "La ludothèque n'a pas encore d'exemplaire de ce jeu." in text_of(client.get("/jeux/biblios/"))


def test_an_unknown_game_is_a_404_and_the_page_only_answers_get(client, catalogue):
    assert client.get("/jeux/jeu-inconnu/").status_code == 404
    assert client.post("/jeux/quarto/").status_code == 405


def test_the_page_takes_a_fixed_number_of_queries(client, catalogue, django_assert_num_queries):
    # The notice (on PostgreSQL with its authors, publishers, languages, tags, pieces and documents;
    # elsewhere one query for each), its copies; its rules page; the sites holding its copies that have
    # opening hours (with some: their hours and closures, two more).
    with django_assert_num_queries(4 if connection.vendor == "postgresql" else 10):
        client.get("/jeux/le-chateau-des-dragons/")
