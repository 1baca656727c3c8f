"""Labels and box stickers reached from the desk: a copy scanned at the desk, Inventaire, Import / export,
and the copies a CSV import has just created."""

import re
from html import unescape

import pytest
from django.urls import reverse

from catalogue.models import Copy
from tests.conftest import text_of
from tests.search_helpers import make_copy, make_game
from tests.test_catalogue_spreadsheet import SHEET, confirm, upload

pytestmark = pytest.mark.django_db


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    return client


def link(response, text: str) -> str:
    """The address of the link that reads `text` on the page."""
    html = response.content.decode()
    found = re.search(rf'<a[^>]*href="([^"]+)"[^>]*>\s*{re.escape(text)}\s*</a>', html)
    assert found, f"no link « {text} »"
    return unescape(found.group(1))


def test_a_copy_scanned_at_the_desk_links_to_its_label_and_box_sticker(librarian):
    copy = make_copy(make_game("Quarto"), "90468")
    desk = librarian.get(reverse("loans:desk"), {"code": "90468"})
    label = librarian.get(link(desk, "Imprimer son étiquette"))
    assert label.status_code == 200 and [c.pk for c in label.context["copies"]] == [copy.pk]
    sticker = librarian.get(link(desk, "sa fiche de boîte"))
    assert sticker.status_code == 200 and [c.pk for c in sticker.context["copies"]] == [copy.pk]
    assert "Quarto" in text_of(sticker)


@pytest.mark.parametrize("page", ["inventory:stocktake-list", "catalogue:import-upload"])
def test_inventaire_and_import_export_link_to_the_labels_of_the_copies_added_today(librarian, page):
    copy = make_copy(make_game("Quarto"), "90468")
    response = librarian.get(reverse(page))
    labels = librarian.get(link(response, "Étiquettes des exemplaires ajoutés aujourd'hui"))
    assert [c.pk for c in labels.context["copies"]] == [copy.pk]
    stickers = librarian.get(link(response, "leurs fiches de boîte"))
    assert [c.pk for c in stickers.context["copies"]] == [copy.pk]
    assert librarian.get(link(response, "autres exemplaires (depuis une date, un site)")).status_code == 200


def test_after_a_csv_import_the_labels_of_the_copies_it_created_are_one_click_away(librarian):
    already_there = make_copy(make_game("Quarto"), "90468")
    result = confirm(librarian, upload(librarian, SHEET))
    assert "2 exemplaires créés par cet import" in text_of(result)
    created = sorted(Copy.objects.exclude(pk=already_there.pk).values_list("pk", flat=True))
    labels = librarian.get(link(result, "Imprimer les étiquettes"))
    assert sorted(c.pk for c in labels.context["copies"]) == created
    stickers = librarian.get(link(result, "Imprimer les fiches de boîte"))
    assert sorted(c.pk for c in stickers.context["copies"]) == created
    # The import's page, opened again later, still offers them.
    again = librarian.get(reverse("catalogue:import-detail", args=[result.context["import"].pk]))
    assert link(again, "Imprimer les étiquettes") == link(result, "Imprimer les étiquettes")


def test_a_preview_offers_no_labels_yet(librarian):
    preview = librarian.get(upload(librarian, SHEET).url)
    assert "créés par cet import" not in text_of(preview)
