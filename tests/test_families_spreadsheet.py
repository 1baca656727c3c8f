"""The families as a spreadsheet: export (CSV, JSON) and import by card, with a preview, staff only."""

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse

from catalogue.models import SpreadsheetImport
from members.models import HouseholdMember, Member
from tests.conftest import text_of
from tests.loan_helpers import make_member, make_membership_type

UPLOAD = reverse("loans:families-import-upload")
HEADER = "carte;nom;email;telephone;type_adhesion;debut_adhesion;fin_adhesion;foyer"


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    make_membership_type(name="Famille (1 an)", duration_days=365)
    return client


def upload(client, text: str):
    return client.post(UPLOAD, {"fichier": SimpleUploadedFile("familles.csv", text.encode(), "text/csv")})


def confirm(client):
    upload = SpreadsheetImport.objects.latest("pk")
    return client.post(reverse("loans:families-import-confirm", args=[upload.pk]))


def exported(client, name: str) -> str:
    return b"".join(client.get(reverse(name)).streaming_content).decode()


def test_families_are_exported_with_their_household_as_csv_and_json(librarian):
    make_member("M0001", "Alex Tartempion")
    header, row = exported(librarian, "loans:families-export-csv").lstrip("\ufeff").splitlines()[:2]
    assert header.startswith("carte;nom;email;telephone")
    assert row.startswith("M0001;Alex Tartempion;m0001@example.org")
    families = json.loads(exported(librarian, "loans:families-export-json"))
    assert families["familles"][0]["foyer"] == [{"prenom": "Alex", "annee": 1985}]


def test_the_preview_writes_nothing_and_the_confirmation_creates_the_families(librarian):
    sheet = f"""{HEADER}
M0001;Alex Tartempion;tartempion@example.org;0470 00 00 01;Famille (1 an);2026-01-10;;"Alex 1985 ; Lou 2015"
M0002;Sam Bidule;;;famille (1 an);;;
"""
    preview = librarian.get(upload(librarian, sheet).url)
    assert "Créées : 2, mises à jour : 0, inchangées : 0, erreurs : 0." in text_of(preview)
    assert not Member.objects.exists()
    confirm(librarian)
    alex = Member.objects.get(card_barcode="M0001")
    assert (alex.name, alex.email, str(alex.membership_start), str(alex.membership_expiry)) == (
        "Alex Tartempion",
        "tartempion@example.org",
        "2026-01-10",
        "2027-01-10",
    )
    assert [(person.first_name, person.birth_year) for person in alex.household.all()] == [
        ("Alex", 1985),
        ("Lou", 2015),
    ]
    assert Member.objects.get(card_barcode="M0002").membership_type.name == "Famille (1 an)"


def test_importing_the_export_again_changes_nothing(librarian):
    make_member("M0001", "Alex Tartempion")
    before = exported(librarian, "loans:families-export-csv")
    preview = librarian.get(upload(librarian, before).url)
    assert "Créées : 0, mises à jour : 0, inchangées : 1, erreurs : 0." in text_of(preview)
    confirm(librarian)
    assert exported(librarian, "loans:families-export-csv") == before
    assert HouseholdMember.objects.count() == 1


def test_a_known_family_is_updated_and_keeps_its_household(librarian):
    make_member("M0001", "Alex Tartempion")
    upload(librarian, f"{HEADER}\nM0001;Alex Tartempion-Dupont;;;;;;Noa 2018\n")
    confirm(librarian)
    alex = Member.objects.get()
    assert alex.name == "Alex Tartempion-Dupont"
    assert alex.email == "m0001@example.org"  # an empty cell keeps it
    assert [person.first_name for person in alex.household.all()] == ["Alex"]


def test_each_bad_row_is_reported_with_its_line_column_and_reason(librarian):
    sheet = f"""{HEADER}
M0001;Alex;pas-un-email;;Famille (1 an);;;
M0002;Sam;;;Abonnement or;;;
M0003;Lou;;;Famille (1 an);2026-05-01;2026-01-01;
M0004;Noa;;;Famille (1 an);;;Noa deux-mille
M0004;Noa;;;Famille (1 an);;;
M0005;;;;;;;
"""
    text = text_of(librarian.get(upload(librarian, sheet).url))
    for expected in (
        "2 email adresse e-mail invalide.",
        "3 type_adhesion type d'adhésion inconnu : créez « Abonnement or » dans l'administration d'abord.",
        "4 fin_adhesion l'adhésion ne peut pas finir avant d'avoir commencé.",
        "5 foyer « Noa deux-mille » : attendu « Prénom 2015 ».",
        "7 nom une nouvelle famille a un nom et un type d'adhésion.",
        "Créées : 1, mises à jour : 0, inchangées : 0, erreurs : 5.",
    ):
        assert expected in text, expected
    confirm(librarian)
    assert list(Member.objects.values_list("card_barcode", flat=True)) == ["M0004"]


def test_the_family_language_goes_out_and_comes_back(librarian):
    make_member("M0001", "Alex Tartempion")
    header, row = exported(librarian, "loans:families-export-csv").lstrip("\ufeff").splitlines()[:2]
    assert dict(zip(header.split(";"), row.split(";"), strict=True))["langue"] == "fr"
    upload(librarian, "carte;langue\nM0001;en\n")
    confirm(librarian)
    assert Member.objects.get().language == "en"


def test_an_unknown_language_is_reported_on_its_row(librarian):
    make_member("M0001", "Alex Tartempion")
    make_member("M0002", "Sam Bidule")
    text = text_of(librarian.get(upload(librarian, "carte;langue\nM0001;nl\nM0002;en\n").url))
    assert "langue « nl » inconnue : fr, en." in text
    confirm(librarian)
    assert dict(Member.objects.values_list("card_barcode", "language")) == {"M0001": "fr", "M0002": "en"}


def test_a_file_without_a_card_column_is_refused(librarian):
    response = upload(librarian, "nom;email\nAlex;a@example.org\n")
    assert response.status_code == 400
    assert "la première ligne doit nommer les colonnes, dont « carte »." in text_of(response)


def test_a_second_confirmation_is_refused(librarian):
    upload(librarian, f"{HEADER}\nM0001;Alex;;;Famille (1 an);;;\n")
    confirm(librarian)
    assert "Ce fichier a déjà été importé." in text_of(
        librarian.post(
            reverse("loans:families-import-confirm", args=[SpreadsheetImport.objects.get().pk]), follow=True
        )
    )
    assert Member.objects.count() == 1


@pytest.mark.parametrize(
    "url", [UPLOAD, reverse("loans:families-export-csv"), reverse("loans:families-export-json")]
)
def test_families_files_are_for_staff_only(client, outsider, url):
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403


def test_a_games_file_is_not_a_families_file(librarian, staff_user):
    games = SpreadsheetImport.objects.create(
        file_name="jeux.csv", content="titre\nQuarto\n", uploaded_by=staff_user
    )
    assert librarian.get(reverse("loans:families-import-detail", args=[games.pk])).status_code == 404
    assert librarian.post(reverse("loans:families-import-confirm", args=[games.pk])).status_code == 404
