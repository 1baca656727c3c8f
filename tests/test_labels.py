"""Label sheets and box stickers: Code 128 barcodes printed through the browser, read back by a scanner.

The PDFs come from headless Chromium's print; the barcodes are decoded from the printed page by
Debian's zbarimg (zbar-tools), after pdftoppm (poppler-utils) turned it into an image at 300 dpi.
"""

import datetime
import subprocess

import pytest
from django.urls import reverse
from django.utils import timezone

from catalogue.labels import PRESETS, code128, label_sheets
from catalogue.models import Copy
from tests.conftest import pdf_page_count, text_of
from tests.search_helpers import make_copy, make_game

LABELS = reverse("catalogue:label-sheet")
STICKERS = reverse("catalogue:box-stickers")


def decoded_barcodes(pdf: bytes, tmp_path, page: int = 1) -> list[str]:
    """What a scanner reads on one printed page: every Code 128 barcode found, sorted."""
    (tmp_path / "sheet.pdf").write_bytes(pdf)
    subprocess.run(
        [
            "pdftoppm",
            "-r",
            "300",
            "-gray",
            "-png",
            "-f",
            str(page),
            "-l",
            str(page),
            "-singlefile",
            tmp_path / "sheet.pdf",
            tmp_path / "page",
        ],
        check=True,
    )
    found = subprocess.run(
        ["zbarimg", "--quiet", "--raw", "-Sdisable", "-Scode128.enable", tmp_path / "page.png"],
        capture_output=True,
        text=True,
    )
    return sorted(found.stdout.split())


def copies(count: int, *, title: str = "Les colons de Catane") -> list[Copy]:
    game = make_game(title)
    return [make_copy(game, f"9{number:04d}", cote="TEU") for number in range(count)]


def ids(copies: list[Copy]) -> str:
    return ",".join(str(copy.pk) for copy in copies)


def log_in(page, live_server, user) -> None:
    page.goto(live_server.url + reverse("login"))
    page.fill("#id_username", user.username)
    page.fill("#id_password", user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_sheet_of_labels_prints_one_a4_page_per_24_labels_and_its_barcodes_scan(
    page, live_server, staff_user, print_to_pdf, tmp_path
):
    chosen = copies(30)
    log_in(page, live_server, staff_user)
    pdf = print_to_pdf(f"{live_server.url}{LABELS}?exemplaires={ids(chosen)}&modele=3x8")
    assert pdf_page_count(pdf) == 2  # 24 + 6
    assert decoded_barcodes(pdf, tmp_path) == [copy.barcode for copy in chosen[:24]]
    assert decoded_barcodes(pdf, tmp_path, page=2) == [copy.barcode for copy in chosen[24:]]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_offset_starts_on_a_partly_used_sheet(page, live_server, staff_user, print_to_pdf, tmp_path):
    chosen = copies(10)
    log_in(page, live_server, staff_user)
    # 20 labels of the 24 are already used: 4 on this sheet, 6 on the next.
    pdf = print_to_pdf(f"{live_server.url}{LABELS}?exemplaires={ids(chosen)}&modele=3x8&decalage=20")
    assert pdf_page_count(pdf) == 2
    assert decoded_barcodes(pdf, tmp_path) == [copy.barcode for copy in chosen[:4]]
    # A 2 × 7 sheet holds 14: the same ten labels after 10 used ones need two sheets too, and one fits.
    pdf = print_to_pdf(f"{live_server.url}{LABELS}?exemplaires={ids(chosen)}&modele=2x7&decalage=4")
    assert pdf_page_count(pdf) == 1
    assert decoded_barcodes(pdf, tmp_path) == [copy.barcode for copy in chosen]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_custom_grid_prints_the_labels_it_is_given(page, live_server, staff_user, print_to_pdf, tmp_path):
    chosen = copies(5, title="Quarto")
    log_in(page, live_server, staff_user)
    url = (
        f"{live_server.url}{LABELS}?exemplaires={ids(chosen)}&modele=perso&lignes=2&colonnes=2"
        "&marge_haut=10&marge_cote=10&ecart_colonnes=5&ecart_lignes=5"
    )
    pdf = print_to_pdf(url)
    assert pdf_page_count(pdf) == 2  # 4 per sheet
    assert decoded_barcodes(pdf, tmp_path) == [copy.barcode for copy in chosen[:4]]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_box_stickers_print_four_a6_per_page_with_the_pieces_to_check(
    page, live_server, staff_user, print_to_pdf, tmp_path
):
    game = make_game("Quarto")
    game.components.create(position=0, quantity=1, label="plateau de 16 cases")
    game.components.create(position=1, quantity=16, label="pièces")
    chosen = [
        make_copy(game, barcode) for barcode in ("90468", "90408", "LUD000001", "LUD000002", "LUD000003")
    ]
    log_in(page, live_server, staff_user)
    pdf = print_to_pdf(f"{live_server.url}{STICKERS}?exemplaires={ids(chosen)}")
    assert pdf_page_count(pdf) == 2
    assert decoded_barcodes(pdf, tmp_path) == sorted(copy.barcode for copy in chosen[:4])
    assert "16 × pièces" in page.content()
    pdf = print_to_pdf(f"{live_server.url}{STICKERS}?exemplaires={ids(chosen)}&format=a5")
    assert pdf_page_count(pdf) == 3


def test_the_page_shows_each_label_with_its_title_cote_site_and_barcode(client, staff_user):
    game = make_game("Les Bâtisseurs : Moyen Âge")
    copy = make_copy(game, "91233", cote="HEN", where="Ludobus")
    client.force_login(staff_user)
    response = client.get(LABELS, {"exemplaires": copy.pk})
    assert response.status_code == 200
    text = text_of(response)
    for expected in (
        "Les Bâtisseurs : Moyen Âge",
        "HEN",
        "Ludobus",
        "91233",
        "1 étiquette de 70,0 × 37,0 mm",
    ):
        assert expected in text
    # Bars drawn with attributes only: nothing a strict Content Security Policy would block.
    svg = response.content.decode().split('<svg class="label-sheet"')[1]
    assert "style=" not in svg


def test_copies_added_since_a_date_on_one_site(client, staff_user):
    game = make_game("Quarto")
    old = make_copy(game, "90468")
    Copy.objects.filter(pk=old.pk).update(created_at=timezone.now() - datetime.timedelta(days=40))
    new = make_copy(game, "90408")
    elsewhere = make_copy(game, "90409", where="Ludobus")
    client.force_login(staff_user)
    since = (timezone.localdate() - datetime.timedelta(days=7)).isoformat()
    response = client.get(LABELS, {"depuis": since})
    assert [copy.barcode for copy in response.context["copies"]] == ["90408", "90409"]
    response = client.get(LABELS, {"depuis": since, "localisation": new.location.pk})
    assert [copy.barcode for copy in response.context["copies"]] == ["90408"]
    assert elsewhere.location != new.location


def test_a_title_too_long_for_the_label_is_cut_on_two_lines(db):
    game = make_game(
        "Le Château des Sables Junior : l'extension des marées hautes et des tempêtes d'équinoxe"
    )
    copy = make_copy(game, "90001")
    label = label_sheets([copy], PRESETS["3x8"][1])[0][0]
    assert len(label.title_lines) == 2
    assert label.title_lines[1][1].endswith("…")


def test_a_barcode_code_128_cannot_carry_is_said_on_the_label_not_an_error(client, staff_user):
    copy = make_copy(make_game("Quarto"), "éé-12")
    assert code128("éé-12") is None
    client.force_login(staff_user)
    response = client.get(LABELS, {"exemplaires": copy.pk})
    assert response.status_code == 200
    assert "code-barres non imprimable en Code 128" in text_of(response)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"exemplaires": "1,x"}, "Liste d'exemplaires illisible."),
        ({"exemplaires": ",".join(str(n) for n in range(1, 502))}, "Au plus 500 exemplaires à la fois."),
        ({"depuis": "hier"}, "Saisissez une date valide."),
        (
            {"depuis": "2026-01-01", "modele": "perso", "lignes": "20", "colonnes": "6"},
            "il faut au moins 30 × 18 mm",
        ),
        ({"depuis": "2026-01-01", "lignes": "99"}, "inférieure ou égale à 20"),
        ({"modele": "3x8"}, "Choisissez des exemplaires dans l'administration, ou une date d'ajout."),
    ],
)
def test_bad_choices_answer_400_with_the_reason(client, staff_user, params, message):
    client.force_login(staff_user)
    response = client.get(LABELS, params)
    assert response.status_code == 400
    assert message in text_of(response)


def test_the_empty_form_is_offered_without_an_error(client, staff_user):
    client.force_login(staff_user)
    response = client.get(LABELS)
    assert response.status_code == 200
    assert "Choisissez des exemplaires" not in text_of(response)


@pytest.mark.parametrize("url", [LABELS, STICKERS])
def test_labels_are_for_staff_only(client, outsider, url):
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403


def test_the_pages_only_read(client, staff_user):
    client.force_login(staff_user)
    assert client.post(LABELS).status_code == 405
    assert client.post(STICKERS).status_code == 405


def test_the_admin_sends_the_selected_copies_to_the_sheet(client, staff_user):
    chosen = copies(3)
    client.force_login(staff_user)
    response = client.post(
        reverse("admin:catalogue_copy_changelist"),
        {"action": "print_labels", "_selected_action": [copy.pk for copy in chosen]},
    )
    assert response.status_code == 302
    assert response.url.startswith(LABELS + "?exemplaires=")
    assert sorted(response.url.split("=")[1].split(",")) == sorted(str(copy.pk) for copy in chosen)
    change_page = client.get(reverse("admin:catalogue_copy_change", args=[chosen[0].pk]))
    assert f"{STICKERS}?exemplaires={chosen[0].pk}" in change_page.content.decode()
