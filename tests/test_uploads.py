"""Uploaded documents: a PDF or an image, recognised by its content and named for it; nothing else."""

import pytest
from django.core.exceptions import ValidationError
from django.core.files.uploadedfile import SimpleUploadedFile

from catalogue.models import Document
from tests.loan_helpers import make_game

pytestmark = pytest.mark.django_db

PDF = b"%PDF-1.7\n1 0 obj\n<<>>\nendobj\ntrailer\n<<>>\n%%EOF\n"
PNG = b"\x89PNG\r\n\x1a\n" + b"\x00" * 32
JPEG = b"\xff\xd8\xff\xe0" + b"\x00" * 32
WEBP = b"RIFF\x24\x00\x00\x00WEBPVP8 " + b"\x00" * 32


@pytest.fixture(autouse=True)
def media_in_tmp(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path


def document(name: str, content: bytes) -> Document:
    return Document(game=make_game("Quarto"), file_name=name, file=SimpleUploadedFile(name, content))


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("regles.pdf", PDF),
        ("boite.png", PNG),
        ("boite.jpg", JPEG),
        ("boite.JPEG", JPEG),
        ("boite.webp", WEBP),
    ],
)
def test_a_pdf_or_an_image_is_accepted(name, content):
    document(name, content).full_clean()


@pytest.mark.parametrize(
    ("name", "content"),
    [
        ("regles.pdf", b"<html><script>alert(1)</script></html>"),
        ("regles.html", b"<html></html>"),
        ("logo.svg", b'<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>'),
        ("regles.pdf", b"RIFF\x24\x00\x00\x00AVI LIST"),
        ("vide.pdf", b""),
    ],
)
def test_anything_else_is_refused_whatever_its_name(name, content):
    with pytest.raises(ValidationError) as error:
        document(name, content).full_clean()
    assert error.value.message_dict["file"] == [
        "Seuls les documents PDF et les images (PNG, JPEG, GIF, WebP) sont acceptés : ce fichier n'en est pas un."
    ]


def test_a_file_must_be_named_for_what_it_is():
    # Served by its name's content type: a PNG named .pdf would reach the browser as a PDF.
    with pytest.raises(ValidationError) as error:
        document("regles.pdf", PNG).full_clean()
    assert error.value.message_dict["file"] == ["Ce fichier est un PNG : son nom doit finir par .png."]


def test_the_admin_refuses_a_disguised_upload(client, staff_user):
    game = make_game("Quarto")
    client.force_login(staff_user)
    url = f"/admin/catalogue/game/{game.pk}/change/"
    form = client.get(url).context["adminform"].form
    data = {
        key: value
        for key, value in form.initial.items()
        if value is not None and not isinstance(value, list) and key != "image"
    }
    for prefix in ("authorships", "publisher_credits", "components", "documents", "copies"):
        data |= {f"{prefix}-TOTAL_FORMS": "0", f"{prefix}-INITIAL_FORMS": "0"}
    data |= {
        "documents-TOTAL_FORMS": "1",
        "documents-0-file_name": "regles.pdf",
        "documents-0-position": "0",
        "documents-0-file": SimpleUploadedFile("regles.pdf", b"<html><script>alert(1)</script></html>"),
    }
    response = client.post(url, data)
    assert response.status_code == 200
    assert "Seuls les documents PDF et les images" in response.content.decode()
    assert not game.documents.exists()
