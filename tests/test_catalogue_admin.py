"""The librarians' catalogue admin: lists, search, filters, and cataloguing a game with its copies."""

from pathlib import Path

import pytest
from django.db.models.fields.files import FieldFile
from django.urls import reverse

from catalogue.models import Category, Copy, Game, Location, Tag
from catalogue.services import games_import_from_pmb_files

SEEDS = Path(__file__).resolve().parent.parent / "fixtures" / "seeds"
ADMIN_LISTS = ["game", "copy", "location", "category", "tag", "language", "author", "publisher"]


@pytest.fixture
def catalogue(db):
    """The library's seed notices: 7 games, 8 copies at the Maison des Enfants."""
    report = games_import_from_pmb_files(paths=sorted(SEEDS.glob("*.txt")))
    assert not report.errors


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    return client


def listed_titles(response) -> list[str]:
    return sorted(str(obj) for obj in response.context["cl"].result_list)


def game_list(client, **params):
    return client.get(reverse("admin:catalogue_game_changelist"), params)


# --- Who may come in ---------------------------------------------------------------------------


@pytest.mark.parametrize("model", ADMIN_LISTS)
def test_a_librarian_sees_every_catalogue_list(librarian, catalogue, model):
    response = librarian.get(reverse(f"admin:catalogue_{model}_changelist"))
    assert response.status_code == 200


@pytest.mark.parametrize("model", ADMIN_LISTS)
def test_a_librarian_can_open_every_add_form(librarian, catalogue, model):
    assert librarian.get(reverse(f"admin:catalogue_{model}_add")).status_code == 200


def test_a_librarian_opens_a_game_with_its_copies_pieces_and_credits(librarian, catalogue):
    quarto = Game.objects.get(slug="quarto")
    response = librarian.get(reverse("admin:catalogue_game_change", args=[quarto.pk]))
    assert response.status_code == 200
    content = response.content.decode()
    for text in ("90468", "90408", "plateau de 16 cases", "Blaise Müller", "quarto.pdf"):
        assert text in content


def test_the_catalogue_is_on_the_admin_home_page_for_a_librarian(librarian):
    response = librarian.get(reverse("admin:index"))
    assert response.status_code == 200
    assert reverse("admin:catalogue_game_changelist") in response.content.decode()


@pytest.mark.parametrize("url_name", ["admin:catalogue_game_changelist", "admin:catalogue_copy_add"])
def test_an_outsider_is_sent_to_the_login_page(client, outsider, url_name):
    client.force_login(outsider)
    response = client.get(reverse(url_name))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_an_anonymous_visitor_is_sent_to_the_login_page(client, db):
    response = client.get(reverse("admin:catalogue_game_changelist"))
    assert response.status_code == 302
    assert response["Location"].startswith(reverse("admin:login"))


def test_an_outsider_cannot_create_a_game(client, outsider):
    client.force_login(outsider)
    response = client.post(reverse("admin:catalogue_game_add"), {"title": "Intrus", "slug": "intrus"})
    assert response.status_code == 302
    assert not Game.objects.exists()


# --- Search and filters of the game list -------------------------------------------------------


@pytest.mark.parametrize(
    ("query", "titles"),
    [
        ("quarto", ["Quarto"]),
        ("Bauza", ["7 Wonders", "La chasse aux monstres"]),
        ("Gigamic", ["Quarto"]),
        ("90461", ["Les colons de Catane"]),
        ("BRE", ["Morgenland"]),
    ],
)
def test_games_are_found_by_title_author_publisher_barcode_and_cote(librarian, catalogue, query, titles):
    assert listed_titles(game_list(librarian, q=query)) == titles


def test_the_game_list_filters_by_category_and_tag(librarian, catalogue):
    chance = Category.objects.get(code="A 407")
    assert listed_titles(game_list(librarian, category__id__exact=chance.pk)) == [
        "Biblios",
        "La chasse aux monstres",
        "Morgenland",
    ]
    placement = Tag.objects.get(name="Placement")
    assert listed_titles(game_list(librarian, tags__id__exact=placement.pk)) == [
        "Les colons de Catane",
        "Morgenland",
        "Quarto",
    ]


def test_the_game_list_filters_by_players_and_age(librarian, catalogue):
    assert listed_titles(game_list(librarian, joueurs=7)) == ["7 Wonders"]
    assert listed_titles(game_list(librarian, joueurs=1)) == ["La chasse aux monstres"]
    assert listed_titles(game_list(librarian, age=6)) == ["La chasse aux monstres"]
    assert "Quarto" in listed_titles(game_list(librarian, age=8))
    assert "Biblios" not in listed_titles(game_list(librarian, age=8))


def test_the_game_list_filters_by_location_and_copy_status(librarian, catalogue):
    annex = Location.objects.create(name="Annexe de la gare")
    Copy.objects.filter(barcode="90901").update(location=annex, status=Copy.Status.IN_REPAIR)
    assert listed_titles(game_list(librarian, localisation=annex.pk)) == ["Biblios"]
    assert listed_titles(game_list(librarian, statut=Copy.Status.IN_REPAIR)) == ["Biblios"]
    available = listed_titles(game_list(librarian, statut="disponible"))
    assert "Biblios" not in available and "L'or des Dragons" not in available
    assert len(available) == 5


def test_the_game_list_shows_the_number_of_copies_without_a_query_per_game(
    librarian, catalogue, django_assert_max_num_queries
):
    with django_assert_max_num_queries(12):
        response = game_list(librarian)
    rows = {game.title: game.copy_count for game in response.context["cl"].result_list}
    assert rows["Quarto"] == 2 and rows["L'or des Dragons"] == 0


# --- The copies list ---------------------------------------------------------------------------


def test_the_copies_list_shows_availability_without_a_query_per_copy(
    librarian, catalogue, django_assert_max_num_queries
):
    # 11 with the kinds of item the list's filter offers (one query, whatever the number of copies).
    with django_assert_max_num_queries(11):
        response = librarian.get(reverse("admin:catalogue_copy_changelist"))
    assert [copy.is_available for copy in response.context["cl"].result_list] == [True] * 8


def test_a_copy_is_found_by_its_barcode(librarian, catalogue):
    response = librarian.get(reverse("admin:catalogue_copy_changelist"), {"q": "90408"})
    assert listed_titles(response) == ["Quarto — 90408"]


def test_the_copies_list_filters_by_status_location_and_availability(librarian, catalogue):
    url = reverse("admin:catalogue_copy_changelist")
    Copy.objects.filter(barcode="91025").update(status=Copy.Status.LOST)
    assert listed_titles(librarian.get(url, {"status__exact": "lost"})) == ["La chasse aux monstres — 91025"]
    site = Location.objects.get()
    assert len(listed_titles(librarian.get(url, {"location__id__exact": site.pk}))) == 8
    assert len(listed_titles(librarian.get(url, {"disponibilite": "oui"}))) == 7
    assert listed_titles(librarian.get(url, {"disponibilite": "pret"})) == []


# --- Cataloguing a new game with two copies ----------------------------------------------------


def inline_management(prefix: str, total: int) -> dict[str, str]:
    return {
        f"{prefix}-TOTAL_FORMS": str(total),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }


def new_game_post(
    site: Location, *, barcodes=("95001", "95002"), players=("2", "4"), **extra
) -> dict[str, str]:
    data = {
        "title": "Azul",
        "slug": "azul",
        "document_type": "objet à 3 dimensions, artefacts, ...",
        "players_min": players[0],
        "players_max": players[1],
        "age_min": "8",
        "age_max": "99",
        "duration_minutes": "40",
        "_save": "Enregistrer",
        **inline_management("copies", len(barcodes)),
        **inline_management("authorships", 0),
        **inline_management("publisher_credits", 0),
        **inline_management("components", 0),
        **inline_management("documents", 0),
    }
    for number, barcode in enumerate(barcodes):
        data |= {
            f"copies-{number}-cote": "KIE",
            f"copies-{number}-barcode": barcode,
            f"copies-{number}-location": str(site.pk),
            f"copies-{number}-status": Copy.Status.ON_SHELF,
        }
    return data | extra


def test_a_librarian_catalogues_a_game_with_two_copies_in_one_form(librarian, catalogue):
    site = Location.objects.get()
    strategy = Category.objects.get(code="A 406")
    response = librarian.post(
        reverse("admin:catalogue_game_add"), new_game_post(site, category=str(strategy.pk))
    )
    assert response.status_code == 302
    game = Game.objects.get(slug="azul")
    assert (game.category, game.players_min, game.players_max) == (strategy, 2, 4)
    assert sorted(game.copies.values_list("barcode", "location__name")) == [
        ("95001", "Maison des Enfants"),
        ("95002", "Maison des Enfants"),
    ]


def test_the_add_form_offers_two_copy_rows_at_the_only_site(librarian, catalogue):
    site = Location.objects.get()
    response = librarian.get(reverse("admin:catalogue_game_add"))
    copies = next(
        formset for formset in response.context["inline_admin_formsets"] if formset.opts.model is Copy
    )
    forms = copies.formset.forms
    assert len(forms) == 2
    assert [form["location"].value() for form in forms] == [site.pk, site.pk]


def test_a_duplicate_barcode_is_shown_on_the_copy_row_and_nothing_is_saved(librarian, catalogue):
    site = Location.objects.get()
    response = librarian.post(
        reverse("admin:catalogue_game_add"), new_game_post(site, barcodes=("95001", "90461"))
    )
    assert response.status_code == 200
    copies = next(
        formset for formset in response.context["inline_admin_formsets"] if formset.opts.model is Copy
    )
    assert copies.formset.forms[1].errors == {"barcode": ["Un autre exemplaire porte déjà ce code-barres."]}
    assert not Game.objects.filter(slug="azul").exists()
    assert not Copy.objects.filter(barcode="95001").exists()


def test_the_same_barcode_twice_in_one_form_is_refused(librarian, catalogue):
    site = Location.objects.get()
    response = librarian.post(
        reverse("admin:catalogue_game_add"), new_game_post(site, barcodes=("95001", "95001"))
    )
    assert response.status_code == 200
    copies = next(
        formset for formset in response.context["inline_admin_formsets"] if formset.opts.model is Copy
    )
    assert copies.formset.non_form_errors() == ["Deux exemplaires portent le même code-barres."]
    assert not Game.objects.filter(slug="azul").exists()


def test_more_minimum_than_maximum_players_is_refused_with_a_clear_message(librarian, catalogue):
    site = Location.objects.get()
    response = librarian.post(reverse("admin:catalogue_game_add"), new_game_post(site, players=("5", "2")))
    assert response.status_code == 200
    assert response.context["adminform"].form.non_field_errors() == [
        "Le nombre minimum de joueurs ne peut pas dépasser le nombre maximum."
    ]
    assert not Game.objects.filter(slug="azul").exists()
    assert not Copy.objects.filter(barcode="95001").exists()


def test_a_duplicate_barcode_in_the_copy_form_is_shown_on_the_barcode_field(librarian, catalogue):
    quarto = Game.objects.get(slug="quarto")
    site = Location.objects.get()
    response = librarian.post(
        reverse("admin:catalogue_copy_add"),
        {"game": quarto.pk, "barcode": "90901", "cote": "BLA", "location": site.pk, "status": "on_shelf"},
    )
    assert response.status_code == 200
    assert response.context["adminform"].form.errors == {
        "barcode": ["Un autre exemplaire porte déjà ce code-barres."]
    }
    assert quarto.copies.count() == 2


def current_form_data(response) -> dict:
    """What the browser would send back untouched: the main form and every inline row."""
    forms = [response.context["adminform"].form]
    for inline in response.context["inline_admin_formsets"]:
        forms += [inline.formset.management_form, *inline.formset.forms]
    data = {}
    for form in forms:
        for name in form.fields:
            value = form[name].value()
            if value is not None and value is not False and not isinstance(value, FieldFile):  # no files
                data[form.add_prefix(name)] = value
    return data


def test_a_librarian_changes_a_game_and_keeps_its_copies_and_pieces(librarian, catalogue):
    quarto = Game.objects.get(slug="quarto")
    url = reverse("admin:catalogue_game_change", args=[quarto.pk])
    data = current_form_data(librarian.get(url)) | {"duration_minutes": "20", "_save": "Enregistrer"}
    response = librarian.post(url, data)
    assert response.status_code == 302, response.context and response.context["errors"]
    quarto.refresh_from_db()
    assert quarto.duration_minutes == 20
    assert sorted(quarto.copies.values_list("barcode", flat=True)) == ["90408", "90468"]
    assert quarto.components.count() == 2
    assert [str(publisher) for publisher in quarto.publishers.all()] == ["Wimereux : Gigamic SARL"]


# --- In a real browser -------------------------------------------------------------------------


@pytest.mark.browser
def test_a_librarian_catalogues_a_game_with_two_copies_in_the_browser(
    page, live_server, transactional_db, staff_user
):
    Location.objects.create(name="Maison des Enfants")
    page.goto(f"{live_server.url}{reverse('admin:login')}")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.click("input[type=submit]")
    page.goto(f"{live_server.url}{reverse('admin:catalogue_game_add')}")
    page.locator("#id_title").press_sequentially("Les Aventuriers du Rail")
    assert page.input_value("#id_slug") == "les-aventuriers-du-rail"  # typed for the librarian
    page.fill("#id_players_min", "2")
    page.fill("#id_players_max", "5")
    page.fill("#id_age_min", "8")
    page.fill("#id_duration_minutes", "45")
    for number, barcode in enumerate(["96001", "96002"]):
        page.fill(f"#id_copies-{number}-cote", "MOO")
        page.fill(f"#id_copies-{number}-barcode", barcode)
    page.click("input[name=_save]")
    page.wait_for_url(f"{live_server.url}{reverse('admin:catalogue_game_changelist')}")
    game = Game.objects.get(slug="les-aventuriers-du-rail")
    assert (game.players_min, game.players_max, game.duration_minutes) == (2, 5, 45)
    assert sorted(game.copies.values_list("barcode", "location__name", "status")) == [
        ("96001", "Maison des Enfants", "on_shelf"),
        ("96002", "Maison des Enfants", "on_shelf"),
    ]
