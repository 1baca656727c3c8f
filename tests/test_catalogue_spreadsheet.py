"""Import and export of the catalogue as a spreadsheet: preview, per-row errors, idempotence, round trip."""

import csv
import datetime
import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.core.management import CommandError, call_command
from django.urls import reverse

from catalogue.models import (
    Author,
    Category,
    Copy,
    Game,
    Language,
    Location,
    Publisher,
    SpreadsheetImport,
    Tag,
)
from catalogue.services import games_import_from_pmb_files
from tests.conftest import text_of

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"
UPLOAD = reverse("catalogue:import-upload")

HEADER = "titre;auteurs;editeurs;categorie;categorie_libelle;mots_cles;joueurs_min;joueurs_max;age_min;duree;pieces;code_barres;cote;localisation;statut"
SHEET = f"""{HEADER}
Quarto;Blaise Müller, Auteur;Wimereux : Gigamic SARL;A 406;jeu de stratégie;"Jeux à deux ; Réflexion";2;2;8;15;"1 × plateau de 16 cases
16 × pièces";90468;BLA;Maison des Enfants;on_shelf
Quarto;Blaise Müller, Auteur;;;;;;;;;;90408;BLA;Maison des Enfants;En réparation
Dixit;Jean-Louis Roubira;Libellud;A 409;jeu d'ambiance;;3;6;8;30;;91001;ROU;Ludobus;
Jeu sans exemplaire;;;;;;1;4;;;;;;;
"""


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    return client


def upload(client, text: str, name: str = "catalogue.csv", encoding: str = "utf-8"):
    return client.post(UPLOAD, {"fichier": SimpleUploadedFile(name, text.encode(encoding), "text/csv")})


def confirm(client, response):
    return client.post(reverse("catalogue:import-confirm", args=[SpreadsheetImport.objects.latest("pk").pk]))


def export_csv(client) -> str:
    return b"".join(client.get(reverse("catalogue:export-csv")).streaming_content).decode()


def export_json(client) -> dict:
    return json.loads(b"".join(client.get(reverse("catalogue:export-json")).streaming_content))


def test_the_preview_says_what_would_be_created_and_writes_nothing(librarian):
    response = upload(librarian, SHEET)
    assert response.status_code == 302
    preview = librarian.get(response.url)
    text = text_of(preview)
    assert "Aperçu : rien n'est encore enregistré." in text
    assert "Créés : 3, mis à jour : 0, inchangés : 0, erreurs : 0." in text
    assert "Importer 3 jeux" in text
    assert not Game.objects.exists() and not Copy.objects.exists() and not Tag.objects.exists()


def test_confirming_imports_the_games_with_their_copies_and_lists(librarian):
    confirm(librarian, upload(librarian, SHEET))
    quarto = Game.objects.get(title="Quarto")
    assert quarto.slug == "quarto"
    assert [str(credit) for credit in quarto.authorships.all()] == ["Blaise Müller, Auteur"]
    assert [str(credit) for credit in quarto.publisher_credits.all()] == ["Wimereux : Gigamic SARL"]
    assert sorted(tag.name for tag in quarto.tags.all()) == ["Jeux à deux", "Réflexion"]
    assert [str(piece) for piece in quarto.components.all()] == ["1 × plateau de 16 cases", "16 × pièces"]
    assert quarto.category.code == "A 406" and quarto.players_max == 2 and quarto.duration_minutes == 15
    assert dict(quarto.copies.values_list("barcode", "status")) == {"90468": "on_shelf", "90408": "in_repair"}
    assert Copy.objects.get(barcode="91001").location.name == "Ludobus"
    assert not Game.objects.get(title="Jeu sans exemplaire").copies.exists()
    assert SpreadsheetImport.objects.get().imported_at is not None


def test_importing_the_same_file_again_changes_nothing(librarian):
    confirm(librarian, upload(librarian, SHEET))
    before = export_csv(librarian)
    preview = librarian.get(upload(librarian, SHEET).url)
    assert "Créés : 0, mis à jour : 0, inchangés : 3" in text_of(preview)
    confirm(librarian, preview)
    assert export_csv(librarian) == before
    assert Game.objects.count() == 3 and Copy.objects.count() == 3


def test_a_second_confirmation_of_one_file_is_refused(librarian):
    response = upload(librarian, SHEET)
    confirm(librarian, response)
    again = librarian.post(
        reverse("catalogue:import-confirm", args=[SpreadsheetImport.objects.get().pk]), follow=True
    )
    assert "Ce fichier a déjà été importé." in text_of(again)
    assert Game.objects.count() == 3


def test_a_known_copy_follows_the_file_but_keeps_the_status_the_desk_gave_it(librarian):
    confirm(librarian, upload(librarian, SHEET))
    Copy.objects.filter(barcode="90468").update(status=Copy.Status.INCOMPLETE)
    changed = SHEET.replace("90468;BLA;Maison des Enfants;on_shelf", "90468;QUA;Ludobus;on_shelf")
    confirm(librarian, upload(librarian, changed))
    copy = Copy.objects.get(barcode="90468")
    assert (copy.cote, copy.location.name, copy.status) == ("QUA", "Ludobus", Copy.Status.INCOMPLETE)


def test_each_bad_row_is_reported_with_its_line_column_and_reason(librarian):
    bad = f"""{HEADER}
Quarto;;;;;;2;1;;;;90468;BLA;Maison des Enfants;
Dixit;;;;;;trois;;;;;91001;ROU;Ludobus;perdu quelque part
Biblios;;;;;;;;;;;90901;STE;Maison des Enfants;
Catane;;;;;;;;;;;90461;;Maison des Enfants;
Morgenland;;;;;;3;5;;75;;90476;BRE;Maison des Enfants;
Morgenland;;;;;;4;;;;;90477;BRE;Maison des Enfants;
Luxor;;;;;;;;;;;90901;DOR;Maison des Enfants;
"""
    text = text_of(librarian.get(upload(librarian, bad).url))
    for expected in (
        "2 joueurs_min plus que le nombre maximum de joueurs.",
        "3 joueurs_min « trois » n'est pas un nombre entier de 0 à 99.",
        "3 statut « perdu quelque part » : statuts possibles on_shelf,",
        "5 cote un exemplaire a une cote.",
        "7 joueurs_min « 4 » diffère de la ligne 6, la première de ce jeu.",
        "8 code_barres le code-barres 90901 figure déjà ligne 4.",
        "Créés : 2, mis à jour : 0, inchangés : 0, erreurs : 6.",
    ):
        assert expected in text, expected
    assert not Game.objects.exists()
    # The rows without error can be imported now; the others wait for the corrected file.
    confirm(librarian, None)
    assert sorted(Game.objects.values_list("title", flat=True)) == ["Biblios", "Morgenland"]
    assert list(Copy.objects.order_by("barcode").values_list("barcode", flat=True)) == ["90476", "90901"]


@pytest.mark.parametrize(
    ("content", "encoding", "message"),
    [
        (SHEET, "latin-1", "Ce fichier n'est pas en UTF-8"),
        ("nom;code\nQuarto;1\n", "utf-8", "la première ligne doit nommer les colonnes, dont « titre »."),
        ("titre;couleur\nQuarto;bleu\n", "utf-8", "colonnes inconnues : couleur."),
        ("titre;code_barres\n", "utf-8", "Ce fichier n'a aucune ligne."),
    ],
)
def test_an_unreadable_file_is_refused_and_not_kept(librarian, content, encoding, message):
    response = upload(librarian, content, encoding=encoding)
    assert response.status_code == 400
    assert message in text_of(response)
    assert not SpreadsheetImport.objects.exists()


def test_commas_work_as_well_as_semicolons(librarian):
    confirm(
        librarian,
        upload(librarian, "titre,joueurs_min,code_barres,cote,localisation\nQuarto,2,90468,BLA,Ludobus\n"),
    )
    assert Copy.objects.get().game.title == "Quarto"


@pytest.fixture
def rich_catalogue(db):
    """The seed notices, plus what only a spreadsheet carries: statuses, dates, notes, a second site."""
    assert not games_import_from_pmb_files(paths=sorted(SEEDS.glob("*.txt"))).errors
    Copy.objects.filter(barcode="90408").update(
        status=Copy.Status.LOST, acquired_on=datetime.date(2019, 3, 2), notes="Perdu au déménagement"
    )
    Copy.objects.filter(barcode="91025").update(location=Location.objects.create(name="Ludobus"))
    Game.objects.create(title="Jeu sans exemplaire", slug="jeu-sans-exemplaire", players_min=1)


def empty_the_catalogue():
    for model in (Copy, Game, Author, Publisher, Tag, Category, Location, Language):
        model.objects.all().delete()


def test_export_then_import_into_an_empty_catalogue_gives_the_same_catalogue(librarian, rich_catalogue):
    csv_before, json_before = export_csv(librarian), export_json(librarian)
    # The header, one row per copy, one for each game without copy (L'or des Dragons, the one added).
    assert len(list(csv.reader(StringIO(csv_before), delimiter=";"))) == 1 + Copy.objects.count() + 2
    empty_the_catalogue()
    confirm(librarian, upload(librarian, csv_before))
    assert export_csv(librarian) == csv_before
    assert export_json(librarian) == json_before
    catane = json_before["jeux"][
        [game["titre"] for game in json_before["jeux"]].index("Les colons de Catane")
    ]
    assert catane["auteurs"] == [{"nom": "Klaus Teuber", "fonction": "auteur"}]
    assert catane["exemplaires"][0]["section"] == "A 410"


def test_the_command_imports_big_files_with_the_same_rules(tmp_path, db):
    path = tmp_path / "catalogue.csv"
    path.write_text(SHEET, encoding="utf-8")
    out = StringIO()
    call_command("import_catalogue", str(path), "--dry-run", stdout=out)
    assert "Simulation, rien n'a été enregistré. Créés : 3" in out.getvalue()
    assert not Game.objects.exists()
    call_command("import_catalogue", str(path), stdout=StringIO())
    assert Game.objects.count() == 3
    path.write_text(f"{HEADER}\nQuarto;;;;;;0;;;;;;;;\n", encoding="utf-8")
    with pytest.raises(CommandError):
        call_command("import_catalogue", str(path), stdout=StringIO())


@pytest.mark.parametrize(
    "url",
    [
        UPLOAD,
        reverse("catalogue:export-csv"),
        reverse("catalogue:export-json"),
        reverse("loans:families-export-csv"),
    ],
)
def test_import_and_exports_are_for_staff_only(client, outsider, url):
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403


def test_the_preview_and_the_exports_are_not_posted_to(librarian):
    assert librarian.post(reverse("catalogue:export-csv")).status_code == 405
    upload(librarian, SHEET)
    assert (
        librarian.post(
            reverse("catalogue:import-detail", args=[SpreadsheetImport.objects.get().pk])
        ).status_code
        == 405
    )
    assert (
        librarian.get(
            reverse("catalogue:import-confirm", args=[SpreadsheetImport.objects.get().pk])
        ).status_code
        == 405
    )


def test_a_game_whose_barcodes_belong_to_two_games_is_reported_and_left_alone(librarian):
    confirm(librarian, upload(librarian, SHEET))
    before = export_csv(librarian)
    mixed = f"""{HEADER}
Quarto;Blaise Müller, Auteur;;;;;;;;;;90468;BLA;Maison des Enfants;
Quarto;Blaise Müller, Auteur;;;;;;;;;;91001;BLA;Maison des Enfants;
"""
    preview = librarian.get(upload(librarian, mixed).url)
    assert "2 Les codes-barres de cette notice appartiennent à plusieurs jeux" in text_of(preview)
    confirm(librarian, preview)
    assert export_csv(librarian) == before
