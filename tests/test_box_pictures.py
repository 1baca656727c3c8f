"""Box pictures: uploaded in the admin, shown as small WebP thumbnails with their size and lazy loading;
a game without one shows its initials on its category's colour, never a broken image."""

import gzip
import re

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from django.urls import reverse
from PIL import Image

from catalogue.demo import box_picture
from catalogue.models import Game
from catalogue.templatetags.games import initials
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
