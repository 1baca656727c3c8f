"""Box pictures: uploaded in the admin, shown as small WebP thumbnails with their size and lazy loading;
a game without one shows its initials on its category's colour, never a broken image."""

import gzip
import io
import re

import pytest
from django.core.exceptions import ValidationError
from django.core.files.base import ContentFile
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from catalogue.demo import box_picture
from catalogue.models import Game
from catalogue.templatetags.games import initials
from tests.conftest import text_of
from tests.search_helpers import category, family_catalogue, make_copy, make_game

pytestmark = pytest.mark.django_db

IMG = re.compile(
    r'<img class="box-picture" src="([^"]+)" width="(\d+)" height="(\d+)" alt="[^"]*" loading="lazy"'
)


@pytest.fixture(autouse=True)
def media(settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    return tmp_path


def with_picture(game: Game) -> Game:
    game.image.save(f"{game.slug}.jpg", box_picture(game.title), save=True)
    return game


def test_a_result_shows_a_small_webp_thumbnail_with_its_size_and_lazy_loading(client, media):
    catalogue = family_catalogue()
    with_picture(catalogue.quarto)
    html = client.get("/jeux/", {"q": "quarto"}).content.decode()
    [(src, width, height)] = IMG.findall(html)
    assert (width, height) == ("80", "80") and src.startswith("/media/cache/") and src.endswith(".webp")
    thumbnail = Image.open(media / src.removeprefix("/media/"))
    assert thumbnail.format == "WEBP" and thumbnail.size == (80, 80)


def test_the_game_page_shows_the_box_whole_with_a_text_alternative(client, media):
    catalogue = family_catalogue()
    with_picture(catalogue.quarto)
    html = client.get("/jeux/quarto/").content.decode()
    assert re.search(
        r'<img class="box-picture" src="/media/cache/[^"]+\.webp" width="160" height="160" alt="La boîte de Quarto"',
        html,
    )
    with_picture(make_game("Alhambra", players_min=2, players_max=6, age_min=8))
    assert 'alt="La boîte d\'Alhambra"' in client.get("/jeux/alhambra/").content.decode().replace(
        "&#x27;", "'"
    )


def test_a_game_without_a_picture_shows_its_initials_on_its_category_colour(client):
    strategy = category("A 406", "jeu de stratégie")
    make_game("Les colons de Catane", players_min=3, players_max=4, category=strategy)
    make_game("Quarto", players_min=2, players_max=2, category=strategy)
    make_game(
        "La chasse aux monstres", players_min=1, players_max=5, category=category("A 407", "jeu de hasard")
    )
    html = client.get("/jeux/").content.decode()
    assert "<img" not in html  # nothing to break
    placeholders = re.findall(
        r'<svg class="box-picture box-placeholder".*?fill="([^"]+)".*?>(\w+)</text></svg>', html
    )
    colours = dict((letters, colour) for colour, letters in placeholders)
    assert set(colours) == {"CC", "Q", "CM"}
    assert colours["CC"] == colours["Q"] != colours["CM"]  # the category's colour


def test_initials_skip_articles_and_small_words():
    assert initials("Les colons de Catane") == "CC"
    assert initials("L'or des Dragons") == "OD"
    assert initials("7 Wonders") == "7W"
    assert initials("6 qui prend !") == "6Q"


def test_a_librarian_uploads_a_box_picture_in_the_admin(client, staff_user, media):
    client.force_login(staff_user)
    game = make_game("Quarto", players_min=2, players_max=2)
    url = reverse("admin:catalogue_game_change", args=[game.pk])
    form = client.get(url).content.decode()
    assert 'name="image"' in form and 'enctype="multipart/form-data"' in form
    data = {
        "title": "Quarto",
        "slug": "quarto",
        "document_type": game.document_type,
        "players_min": 2,
        "players_max": 2,
        "image": SimpleUploadedFile("quarto.jpg", box_picture("Quarto").read(), content_type="image/jpeg"),
    }
    for prefix in ("copies", "authorships", "publisher_credits", "components", "documents"):
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    response = client.post(url, data)
    assert response.status_code == 302, response.content.decode()[:2000]
    game.refresh_from_db()
    assert game.image.name == "jeux/quarto/quarto.jpg"
    # Its thumbnails were made on saving, not by the first family to search.
    assert len(list((media / "cache").rglob("*.webp"))) == 2
    assert IMG.search(client.get("/jeux/", {"q": "quarto"}).content.decode())
    assert len(list((media / "cache").rglob("*.webp"))) == 2


def test_a_file_that_is_not_a_picture_is_refused_with_a_message(client, staff_user):
    game = make_game("Quarto", players_min=2, players_max=2)
    game.image = SimpleUploadedFile("quarto.jpg", b"%PDF-1.4 not a picture")
    with pytest.raises(Exception) as refused:
        game.full_clean()
    assert "image" in str(refused.value)


def test_the_results_page_with_20_thumbnails_weighs_at_most_60_kb_gzipped(client, media):
    strategy = category("A 406", "jeu de stratégie")
    for number in range(20):
        game = make_game(
            f"Jeu de famille {number:02d}", players_min=2, players_max=4, age_min=6, category=strategy
        )
        make_copy(game, f"B{number:05d}")
        with_picture(game)
    response = client.get("/jeux/", {"ages": "6, 9", "tri": "titre"})
    html = response.content
    pictures = IMG.findall(html.decode())
    assert len(pictures) == 20
    weight = len(gzip.compress(html)) + sum(
        (media / src.removeprefix("/media/")).stat().st_size for src, *_ in pictures
    )
    print(f"results page with 20 thumbnails: {len(gzip.compress(html))} B of gzipped HTML, {weight} B in all")
    assert weight <= 60 * 1024, f"{weight} bytes"


# --- pictures bounded and stripped (catalogue/pictures.py) ---------------------------------------------


def png(width: int, height: int) -> bytes:
    """A PNG of this many pixels, all black: a few hundred kilobytes for tens of megapixels."""
    out = io.BytesIO()
    Image.new("1", (width, height)).save(out, format="PNG")
    return out.getvalue()


def admin_upload(client, game: Game, name: str, content: bytes):
    data = {
        "title": game.title,
        "slug": game.slug,
        "document_type": game.document_type,
        "players_min": 2,
        "players_max": 2,
        "image": SimpleUploadedFile(name, content),
    }
    for prefix in ("copies", "authorships", "publisher_credits", "components", "documents"):
        data.update({f"{prefix}-TOTAL_FORMS": 0, f"{prefix}-INITIAL_FORMS": 0})
    return client.post(reverse("admin:catalogue_game_change", args=[game.pk]), data)


def test_a_picture_of_144_megapixels_is_refused_at_upload_with_a_message(client, staff_user, media):
    client.force_login(staff_user)
    game = make_game("Quarto", players_min=2, players_max=2)
    bomb = png(12_000, 12_000)
    assert len(bomb) < 500_000
    response = admin_upload(client, game, "quarto.png", bomb)
    assert response.status_code == 200
    assert "Cette photo compte 144 mégapixels : au plus 25, par exemple 6000 × 4000." in text_of(response)
    game.refresh_from_db()
    assert not game.image and not list(media.rglob("*.png"))


def test_a_picture_just_over_the_limit_is_refused_by_the_model_too():
    game = make_game("Quarto", players_min=2, players_max=2)
    game.image = SimpleUploadedFile("quarto.png", png(5_001, 5_000))
    with pytest.raises(ValidationError) as refused:
        game.full_clean()
    assert refused.value.message_dict["image"] == [
        "Cette photo compte 25 mégapixels : au plus 25, par exemple 6000 × 4000. Réduisez-la avant de l'envoyer."
    ]


def test_a_picture_stored_over_the_limit_is_never_decoded_by_a_page(client, media):
    """A picture that came in before the limit (or around the admin): the page shows the placeholder,
    and no thumbnail is made from it, on this view or the next."""
    game = make_game("Quarto", players_min=2, players_max=2)
    game.image.save("quarto.png", ContentFile(png(8_000, 8_000)), save=True)
    for _view in range(2):
        response = client.get("/jeux/quarto/")
        assert response.status_code == 200
        assert 'class="box-picture box-placeholder"' in response.content.decode()
    assert not (media / "cache").exists() or not list((media / "cache").rglob("*.webp"))


def photo_with_exif(kind: str = "JPEG") -> bytes:
    """A phone's photo, lying on its side: 3000 × 2000 pixels, EXIF saying where, when and how to turn it."""
    image = Image.new("RGB", (3000, 2000), "white")
    image.paste((200, 30, 30), (0, 0, 1500, 2000))  # red on the left half, as stored
    exif = Image.Exif()
    exif[0x0112] = 6  # Orientation: turn 90° clockwise to show
    exif[0x010F] = "PhoneMaker"  # Make
    exif[0x9003] = "2026:11:30 17:42:00"  # DateTimeOriginal
    exif[0x8825] = {1: "N", 2: (50.0, 50.0, 0.0)}  # GPSInfo: where the family lives
    out = io.BytesIO()
    image.save(out, format=kind, exif=exif)
    return out.getvalue()


@pytest.mark.parametrize(
    ("name", "kind"), [("quarto.jpg", "JPEG"), ("quarto.webp", "WEBP"), ("quarto.png", "PNG")]
)
def test_the_kept_picture_has_no_exif_is_upright_and_at_most_1200_pixels(
    client, staff_user, media, name, kind
):
    client.force_login(staff_user)
    game = make_game("Quarto", players_min=2, players_max=2)
    original = photo_with_exif(kind)
    assert Image.open(io.BytesIO(original)).getexif()
    response = admin_upload(client, game, name, original)
    assert response.status_code == 302, text_of(response)[:2000]
    game.refresh_from_db()
    kept = Image.open(game.image.path)
    assert kept.format == kind
    assert not kept.getexif() and "exif" not in kept.info
    assert b"PhoneMaker" not in (media / game.image.name).read_bytes()
    # Turned upright as the EXIF said (2000 wide, 3000 high), then shrunk to 800 × 1200.
    assert kept.size == (800, 1200)
    assert kept.convert("RGB").getpixel((400, 100))[1] < 100  # the red half is now on top
    assert kept.convert("RGB").getpixel((400, 1100)) == (255, 255, 255)
