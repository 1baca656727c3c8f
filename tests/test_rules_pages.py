"""The rules pages: list, game page with its embedded tools, setup calculator, score sheet, referee check."""

import re
from html import unescape

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext

from catalogue.models import Copy, Game, Location
from rules.games import all_games
from rules.models import LOADER_AUTHOR, Revision, RulePage
from tests.conftest import text_of

pytestmark = pytest.mark.django_db

BIBLIOS_TEXT = """== But du jeu ==
Avoir la plus belle '''bibliothèque'''.
== Mise en place ==
Posez le plateau.
== Décompte ==
Chaque catégorie va au plus grand total.
== Précisions ==
* Les lettres départagent.
"""


def make_page(slug="biblios", title="Biblios", content=BIBLIOS_TEXT, game=None) -> RulePage:
    page = RulePage.objects.create(slug=slug, title=title, game=game)
    Revision.objects.create(
        page=page, number=1, author_name=LOADER_AUTHOR, summary="Rédaction initiale", content=content
    )
    return page


@pytest.fixture
def notice(db) -> Game:
    """Biblios in the catalogue: two copies, one on the shelf and one in repair."""
    game = Game.objects.create(title="Biblios", slug="biblios", players_min=2, players_max=4)
    site = Location.objects.create(name="Maison des Enfants")
    Copy.objects.create(game=game, cote="STE", barcode="90901", location=site)
    Copy.objects.create(game=game, cote="STE", barcode="90902", location=site, status=Copy.Status.IN_REPAIR)
    return game


# --- the list ----------------------------------------------------------------------------------------


def test_the_list_shows_every_game_with_its_players_and_tools(client):
    response = client.get(reverse("rules:page-list"))
    assert response.status_code == 200
    text = text_of(response)
    for game in all_games():
        assert reverse("rules:page-detail", args=[game.slug]) in response.content.decode()
    assert "Biblios 2 à 4 joueurs" in text
    assert "Martian Dice 2 joueurs ou plus" in text
    assert 'href="/regles/quarto/arbitrage/"' in response.content.decode()
    assert 'href="/regles/biblios/feuille-de-score/"' in response.content.decode()


def test_the_list_links_the_notice_with_its_availability(client, notice):
    make_page(game=notice)
    text = text_of(client.get(reverse("rules:page-list")))
    assert "Notice du catalogue : 2 exemplaires, 1 disponible" in text


def test_the_list_query_count_does_not_grow_with_the_pages(client, notice):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get(reverse("rules:page-list")).status_code == 200
        return len(captured)

    make_page(game=notice)
    few = queries()
    site = Location.objects.get()
    for index, game in enumerate(all_games()):
        if game.slug == "biblios":
            continue
        copy_game = Game.objects.create(title=game.title, slug=f"jeu-{index}")
        Copy.objects.create(game=copy_game, cote="X", barcode=f"B{index}", location=site)
        make_page(slug=game.slug, title=game.title, game=copy_game)
    assert queries() == few


def test_the_list_is_in_english_on_request(client):
    response = client.get(reverse("rules:page-list"), headers={"Accept-Language": "en"})
    text = text_of(response)
    assert "Game rules" in text
    assert "2 to 4 players" in text


# --- the game page -------------------------------------------------------------------------------------


def test_the_page_shows_its_sections_from_the_current_revision(client):
    page = make_page()
    Revision.objects.create(
        page=page,
        number=2,
        author_name="Bourjn",
        summary="Précision",
        content=BIBLIOS_TEXT + "== Variantes ==\nAucune.",
    )
    response = client.get(reverse("rules:page-detail", args=["biblios"]))
    assert response.status_code == 200
    html = response.content.decode()
    assert '<section class="rules-section kind-goal" id="but-du-jeu">' in html
    assert "<p>Avoir la plus belle <b>bibliothèque</b>.</p>" in html
    assert '<section class="rules-section kind-variants" id="variantes">' in html
    text = text_of(response)
    assert "Version 2, par Bourjn" in text
    # The edit summary is the history's: families never see it on the page, staff do.
    assert "« Précision »" not in text
    assert reverse("rules:history", args=["biblios"]) in html


def test_the_page_embeds_the_calculator_after_setup_and_the_sheet_after_scoring(client):
    make_page()
    html = client.get(reverse("rules:page-detail", args=["biblios"])).content.decode()
    setup_section = html.index('id="mise-en-place"')
    calculator = html.index('id="calculateur"')
    scoring_section = html.index('id="decompte"')
    sheet = html.index('id="feuille-de-score"')
    faq_section = html.index('id="precisions"')
    assert setup_section < calculator < scoring_section < sheet < faq_section
    # The embedded calculator already shows the default table's setup.
    assert "Pour 3 joueurs" in text_of(client.get(reverse("rules:page-detail", args=["biblios"])))


def test_the_page_links_back_to_the_notice_with_its_availability(client, notice):
    make_page(game=notice)
    response = client.get(reverse("rules:page-detail", args=["biblios"]))
    assert f'href="{notice.get_absolute_url()}"' in response.content.decode()
    assert "Notice du catalogue : 2 exemplaires, 1 disponible" in text_of(response)


def test_the_catalogue_page_links_to_the_rules_page(client, notice):
    make_page(game=notice)
    html = client.get(notice.get_absolute_url()).content.decode()
    assert 'href="/regles/biblios/"' in html


def test_the_rulings_are_shown_in_their_own_box(client):
    make_page(slug="martian-dice", title="Martian Dice", content="== But du jeu ==\nEnlever des terriens.")
    response = client.get(reverse("rules:page-detail", args=["martian-dice"]))
    html = response.content.decode()
    box = " ".join(
        unescape(
            re.sub(r"<[^>]+>", " ", html[html.index('<aside class="rulings"') : html.index("</aside>")])
        ).split()
    )
    assert "Décisions de la ludothèque" in box
    game = next(game for game in all_games() if game.slug == "martian-dice")
    assert game.rulings
    for ruling in game.rulings:
        assert " ".join(str(ruling).split()) in box


def test_the_referee_check_is_embedded_where_the_game_has_one(client):
    make_page(
        slug="quarto", title="Quarto", content="== But du jeu ==\nAligner.\n== Fin de partie ==\nQuarto !"
    )
    html = client.get(reverse("rules:page-detail", args=["quarto"])).content.decode()
    assert html.index('id="fin-de-partie"') < html.index('id="arbitrage"')
    assert 'name="board.3.3"' in html


def test_a_game_without_a_loaded_page_still_has_its_tools(client):
    response = client.get(reverse("rules:page-detail", args=["catane"]))
    assert response.status_code == 200
    assert "Le texte des règles de ce jeu n'est pas encore écrit." in text_of(response)
    assert 'id="feuille-de-score"' in response.content.decode()


def test_an_unknown_page_is_404(client):
    assert client.get("/regles/echecs/").status_code == 404


def test_the_page_in_english(client):
    make_page()
    response = client.get(reverse("rules:page-detail", args=["biblios"]), headers={"Accept-Language": "en"})
    text = text_of(response)
    assert "Setup calculator" in text
    assert "Score sheet" in text
    assert "Version 1, by Ludothèque" in text


# --- setup calculator -----------------------------------------------------------------------------------


def test_the_calculator_computes_the_setup_for_the_chosen_table(client):
    response = client.get(reverse("rules:setup", args=["biblios"]), {"players": "2"})
    assert response.status_code == 200
    text = text_of(response)
    assert "Pour 2 joueurs" in text
    assert "Cartes dans la pioche 60" in text
    assert "Retirez sans les regarder 6 cartes Or (2 de chaque valeur), puis 21 cartes au hasard." in text
    assert (
        'href="/regles/biblios/mise-en-place/imprimer/?players=2&amp;variants="' in response.content.decode()
    )


def test_the_calculator_takes_variants_and_options(client):
    response = client.get(
        reverse("rules:setup", args=["la-chasse-aux-monstres"]),
        {"players": "3", "variants": ["fast", "expert"], "length": "short"},
    )
    assert response.status_code == 200
    html = response.content.decode()
    assert re.search(r'value="fast" checked', html)
    assert re.search(r'<option value="short" selected>', html)


def test_the_calculator_refuses_a_bad_table_with_the_message_on_the_field(client):
    response = client.get(reverse("rules:setup", args=["biblios"]), {"players": "9"})
    assert response.status_code == 400
    html = response.content.decode()
    assert (
        '<ul class="errorlist" id="id_players-errors"><li>Ce jeu se joue de 2 à 4 joueurs.</li></ul>' in html
    )


def test_the_calculator_refuses_variants_that_do_not_combine(client):
    response = client.get(
        reverse("rules:setup", args=["la-chasse-aux-monstres"]), {"players": "3", "variants": "easy,pack"}
    )
    assert response.status_code == 400
    assert "ne se combine pas" in text_of(response)


def test_the_calculator_of_an_unknown_game_is_404(client):
    assert client.get("/regles/echecs/mise-en-place/").status_code == 404


def test_the_calculator_in_english(client):
    response = client.get(
        reverse("rules:setup", args=["biblios"]), {"players": "2"}, headers={"Accept-Language": "en"}
    )
    assert "For 2 players" in text_of(response)


# --- score sheet --------------------------------------------------------------------------------------


def biblios_sheet(**changes) -> dict:
    """The rules' example as the form posts it: Rodolphe wins on gold."""
    data = {
        "players": "2",
        "players.0.name": "Cédric",
        "players.1.name": "Rodolphe",
        "dice.moines": "5",
        "dice.manuscrits": "3",
        "dice.pigments": "2",
        "dice.grimoires": "2",
        "dice.livres_sacres": "4",
        "players.0.categories.moines.total": "9",
        "players.0.categories.moines.best_letter": "C",
        "players.0.categories.manuscrits.total": "2",
        "players.0.categories.pigments.total": "7",
        "players.0.categories.grimoires.total": "4",
        "players.0.categories.livres_sacres.total": "3",
        "players.0.gold": "2",
        "players.1.categories.moines.total": "9",
        "players.1.categories.moines.best_letter": "B",
        "players.1.categories.manuscrits.total": "5",
        "players.1.categories.grimoires.total": "2",
        "players.1.gold": "5",
    }
    data.update(changes)
    return data


def test_the_sheet_has_a_column_per_player_and_a_row_per_field(client):
    response = client.get(reverse("rules:score-sheet", args=["biblios"]), {"players": "4"})
    assert response.status_code == 200
    html = response.content.decode()
    for index in range(4):
        assert f'name="players.{index}.categories.moines.best_letter"' in html
        assert f'name="players.{index}.gold"' in html
    assert 'name="players.4.gold"' not in html
    assert 'name="dice.moines"' in html  # the table's shared dice, once
    text = text_of(response)
    assert "Moines Total des cartes" in text
    assert "départage par l'or restant, puis la catégorie Moines" in text


def test_posting_the_sheet_computes_it_without_javascript(client):
    response = client.post(reverse("rules:score-sheet", args=["biblios"]), biblios_sheet())
    assert response.status_code == 200
    text = text_of(response)
    assert "Victoire : Rodolphe" in text
    assert (
        "Cédric et Rodolphe sont à égalité avec 8 points. Départage par l'or restant : Rodolphe l'emporte (5 contre 2)."
        in text
    )
    html = response.content.decode()
    assert '<td class="numeric" data-player="1">5</td>' in html  # Rodolphe's monks
    assert re.search(r'data-total="1">8</td>', html)
    assert re.search(r'data-rank="1">1</td>', html)
    # What was typed stays in the form.
    assert 'name="players.1.gold" id="id_players-1-gold" value="5"' in html
    # A bookmarkable print view of the filled sheet.
    assert "/regles/biblios/feuille-de-score/imprimer/?players=2" in html


def test_bad_input_puts_french_messages_on_the_inputs_and_answers_400(client):
    sheet = biblios_sheet(
        **{"players.0.gold": "-2", "players.1.categories.moines.best_letter": "C", "dice.moines": "8"}
    )
    response = client.post(reverse("rules:score-sheet", args=["biblios"]), sheet)
    assert response.status_code == 400
    html = response.content.decode()
    assert (
        '<ul class="errorlist" id="id_players-0-gold-errors"><li>La valeur doit être au moins 0.</li></ul>'
        in html
    )
    assert (
        '<ul class="errorlist" id="id_dice-moines-errors"><li>La valeur doit être au plus 6.</li></ul>'
        in html
    )
    assert 'value="-2"' in html  # nothing typed is lost


def test_bad_input_in_english(client):
    sheet = biblios_sheet(**{"players.0.gold": "beaucoup"})
    response = client.post(
        reverse("rules:score-sheet", args=["biblios"]), sheet, headers={"Accept-Language": "en"}
    )
    assert response.status_code == 400
    with translation.override("en"):
        assert gettext("Saisissez un nombre entier.") in text_of(response)
    too_many = client.get(
        reverse("rules:score-sheet", args=["martian-dice"]),
        {"players": "13"},
        headers={"Accept-Language": "en"},
    )
    assert too_many.status_code == 400
    assert "The online score sheet goes up to 12 players." in text_of(too_many)


def test_a_tie_of_letters_is_reported_on_both_letters(client):
    sheet = biblios_sheet(**{"players.1.categories.moines.best_letter": "C"})
    response = client.post(reverse("rules:score-sheet", args=["biblios"]), sheet)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_players-0-categories-moines-best_letter-errors"' in html
    assert 'id="id_players-1-categories-moines-best_letter-errors"' in html


def test_a_list_of_turns_grows_by_one_row_on_request(client):
    url = reverse("rules:score-sheet", args=["martian-dice"])
    html = client.get(url, {"players": "2"}).content.decode()
    assert 'name="players.0.turns.2.tanks"' in html and 'name="players.0.turns.3.tanks"' not in html
    data = {
        "players": "2",
        "players.0.name": "Ana",
        "players.1.name": "Bo",
        "players.0.turns._slots": "3",
        "players.1.turns._slots": "3",
        "more": "turns",
    }
    response = client.post(url, data)
    assert response.status_code == 200
    assert 'name="players.1.turns.3.tanks"' in response.content.decode()


def test_martian_dice_turns_are_scored_and_blank_rows_ignored(client):
    url = reverse("rules:score-sheet", args=["martian-dice"])
    data = {
        "players": "2",
        "players.0.name": "Ana",
        "players.1.name": "Bo",
        "players.0.turns._slots": "3",
        "players.1.turns._slots": "3",
        # Ana: 2 death rays against 1 tank, 2 humans, 1 cow, 1 chicken: 4 + 3 bonus.
        "players.0.turns.0.tanks": "1",
        "players.0.turns.0.death_rays": "2",
        "players.0.turns.0.humans": "2",
        "players.0.turns.0.cows": "1",
        "players.0.turns.0.chickens": "1",
        # Bo: more tanks than death rays, scores nothing.
        "players.1.turns.0.tanks": "3",
        "players.1.turns.0.death_rays": "1",
        "players.1.turns.0.humans": "4",
    }
    response = client.post(url, data)
    assert response.status_code == 200, text_of(response)
    html = response.content.decode()
    assert re.search(r'data-total="0">7</td>', html)
    assert re.search(r'data-total="1">0</td>', html)


def test_a_cooperative_game_explains_that_it_has_no_score(client):
    response = client.get(reverse("rules:score-sheet", args=["la-chasse-aux-monstres"]))
    assert response.status_code == 200
    assert "jeu coopératif" in text_of(response)
    assert 'name="players.0.monsters"' not in response.content.decode()
    competitive = client.get(
        reverse("rules:score-sheet", args=["la-chasse-aux-monstres"]), {"players": "3", "variants": "easy"}
    )
    assert 'name="players.2.monsters"' in competitive.content.decode()


def test_the_sheet_refuses_a_player_count_out_of_range(client):
    response = client.get(reverse("rules:score-sheet", args=["biblios"]), {"players": "7"})
    assert response.status_code == 400
    assert "Ce jeu se joue de 2 à 4 joueurs." in text_of(response)


def test_a_game_without_a_sheet_has_no_sheet_page(client):
    assert client.get(reverse("rules:score-sheet", args=["quarto"])).status_code == 404


def test_the_sheet_answers_only_get_and_post(client):
    assert client.put(reverse("rules:score-sheet", args=["biblios"])).status_code == 405


def test_the_sheet_page_loads_the_live_totals_script_that_posts_the_form_to_the_page(client):
    html = client.get(reverse("rules:score-sheet", args=["biblios"])).content.decode()
    assert 'data-live-score="/regles/biblios/feuille-de-score/"' in html
    assert "js/score-sheet.js" in html


def test_the_live_script_posts_the_form_and_gets_the_apis_result_as_json(client):
    url = reverse("rules:score-sheet", args=["biblios"])
    page = client.post(url, biblios_sheet(), headers={"Accept": "application/json"})
    assert page.status_code == 200
    body = {
        "players": [
            {
                "name": "Cédric",
                "categories": {
                    "moines": {"total": 9, "best_letter": "C"},
                    "manuscrits": {"total": 2},
                    "pigments": {"total": 7},
                    "grimoires": {"total": 4},
                    "livres_sacres": {"total": 3},
                },
                "gold": 2,
            },
            {
                "name": "Rodolphe",
                "categories": {
                    "moines": {"total": 9, "best_letter": "B"},
                    "manuscrits": {"total": 5},
                    "grimoires": {"total": 2},
                },
                "gold": 5,
            },
        ],
        "dice": {"moines": 5, "manuscrits": 3, "pigments": 2, "grimoires": 2, "livres_sacres": 4},
    }
    api = client.post(reverse("rules-score", args=["biblios"]), body, content_type="application/json")
    assert page.json() == api.json()
    assert page.json()["winners"] == ["Rodolphe"]


def test_the_live_script_gets_the_errors_by_input_name_in_the_readers_language(client):
    url = reverse("rules:score-sheet", args=["biblios"])
    sheet = biblios_sheet(**{"players.0.gold": "-2"})
    response = client.post(url, sheet, headers={"Accept": "application/json", "Accept-Language": "en"})
    assert response.status_code == 400
    with translation.override("en"):
        expected = gettext("La valeur doit être au moins %(minimum)s.") % {"minimum": 0}
    assert response.json() == {"players.0.gold": [expected]}


def test_the_live_totals_count_against_the_rules_computations_rate(client, settings):
    settings.API_THROTTLE_RATES = {**settings.API_THROTTLE_RATES, "rules": "2/minute"}
    url = reverse("rules:score-sheet", args=["biblios"])
    live = {"Accept": "application/json"}
    statuses = [client.post(url, biblios_sheet(), headers=live).status_code for _ in range(3)]
    assert statuses == [200, 200, 429]
    # The form itself still computes without the script.
    assert client.post(url, biblios_sheet()).status_code == 200


# --- referee check --------------------------------------------------------------------------------------


def quarto_board(**cells) -> dict:
    data = {f"board.{r}.{c}": "" for r in range(4) for c in range(4)}
    data.update({key.replace("_", "."): value for key, value in cells.items()})
    data["characters"] = ["height", "shape", "colour", "fill"]
    return data


def test_the_check_finds_a_line_and_lights_its_cells(client):
    board = quarto_board(board_1_0="1", board_1_1="3", board_1_2="5", board_1_3="15")
    response = client.post(reverse("rules:check", args=["quarto"]), board)
    assert response.status_code == 200
    text = text_of(response)
    assert "Quarto : oui" in text
    assert "Ligne (2, 1), (2, 2), (2, 3), (2, 4) — en commun : hautes" in text
    assert response.content.decode().count('<td class="found">') == 4


def test_the_check_with_beginners_characters_ignores_the_others(client):
    board = quarto_board(board_0_0="1", board_0_1="3", board_0_2="5", board_0_3="15")
    board["characters"] = ["shape"]
    response = client.post(reverse("rules:check", args=["quarto"]), board)
    assert "Quarto : non" in text_of(response)


def test_the_check_refuses_a_piece_twice_on_the_cell_at_fault(client):
    response = client.post(
        reverse("rules:check", args=["quarto"]), quarto_board(board_0_0="7", board_2_2="7")
    )
    assert response.status_code == 400
    html = response.content.decode()
    assert (
        'id="id_board-2-2-errors"><li>La pièce 7 est déjà sur le plateau (ligne 1, colonne 1).</li>' in html
    )


def test_the_check_refuses_no_character(client):
    board = quarto_board()
    del board["characters"]
    response = client.post(reverse("rules:check", args=["quarto"]), board)
    assert response.status_code == 400
    assert "Choisissez au moins un caractère." in text_of(response)


def test_a_game_without_a_check_has_no_check_page(client):
    assert client.get(reverse("rules:check", args=["biblios"])).status_code == 404


# --- live totals in a real browser, on a tablet ------------------------------------------------------------


@pytest.mark.browser
def test_the_sheet_totals_itself_as_you_type_on_a_tablet(live_server, transactional_db, page):
    from playwright.sync_api import expect

    page.set_viewport_size({"width": 820, "height": 1180})  # a tablet held upright
    navigations = []
    page.on("framenavigated", lambda frame: navigations.append(frame.url))
    page.goto(f"{live_server.url}{reverse('rules:score-sheet', args=['biblios'])}?players=2")
    page.fill('[name="players.0.name"]', "Cédric")
    page.fill('[name="players.1.name"]', "Rodolphe")
    page.fill('[name="dice.moines"]', "5")
    page.fill('[name="players.0.categories.moines.total"]', "9")
    page.select_option('[name="players.0.categories.moines.best_letter"]', "C")
    page.fill('[name="players.1.categories.moines.total"]', "9")
    with page.expect_response(
        lambda response: response.url.endswith("/regles/biblios/feuille-de-score/")
    ) as answer:
        page.select_option('[name="players.1.categories.moines.best_letter"]', "B")
    assert answer.value.status == 200
    sheet = page.locator("table.sheet")
    expect(sheet.locator('[data-total="0"]')).to_have_text("0")
    expect(sheet.locator('[data-total="1"]')).to_have_text("5")
    expect(sheet.locator('[data-rank="1"]')).to_have_text("1")
    expect(page.locator("[data-winners]")).to_have_text("Rodolphe")
    expect(page.locator("[data-explanation]")).to_have_text("Rodolphe gagne avec 5 points.")
    expect(page.locator('.breakdown tr[data-line="moines"] [data-player="1"]')).to_have_text("5")
    # A mistake: the totals go blank, the field is marked, the page says why.
    page.fill('[name="players.0.gold"]', "-1")
    expect(page.locator('[name="players.0.gold"]')).to_have_attribute("aria-invalid", "true")
    expect(page.locator("[data-live-status]")).to_contain_text("Feuille incomplète ou à corriger")
    expect(sheet.locator('[data-total="1"]')).to_have_text("")
    page.fill('[name="players.0.gold"]', "2")
    expect(sheet.locator('[data-total="1"]')).to_have_text("5")
    # Everything happened on the same page: no form was submitted.
    assert len(navigations) == 1


# --- the forms are generic: any declared field, any posted value ----------------------------------------


def test_a_board_field_known_only_by_its_schema_gets_labelled_selects():
    from dataclasses import dataclass

    from rules.engine import Field
    from rules.forms import CheckForm

    @dataclass(frozen=True)
    class Board(Field):
        def schema(self):
            cell = {
                "type": ["integer", "null"],
                "oneOf": [{"const": 0, "title": "vide"}, {"const": 1, "title": "pion"}],
            }
            row = {"type": "array", "items": cell, "minItems": 3, "maxItems": 3}
            return {"type": "array", "items": row, "minItems": 2, "maxItems": 2}

    class BoardGame:
        variants = ()

        def check_fields(self, variants):
            return (Board("board", "Plateau"),)

    (grid,) = CheckForm(BoardGame()).inputs
    assert [[cell.name for cell, _found in row] for row in grid.rows] == [
        ["board.0.0", "board.0.1", "board.0.2"],
        ["board.1.0", "board.1.1", "board.1.2"],
    ]
    cell = grid.rows[1][2][0]
    assert [(value, label) for value, label in cell.field.widget.choices if value] == [
        ("0", "vide"),
        ("1", "pion"),
    ]


SCORED_GAMES = [game for game in all_games() if "score" in game.features]


@pytest.mark.parametrize("game", SCORED_GAMES, ids=lambda game: game.slug)
def test_the_sheet_page_answers_200_or_400_whatever_is_posted(client, game):
    from hypothesis import HealthCheck, given, settings
    from hypothesis import strategies as st

    from rules.forms import SheetChoiceForm
    from rules.score_sheet import ScoreSheetForm

    variants = next(
        (
            frozenset([variant.slug])
            for variant in game.variants
            if game.score_refusal(frozenset()) is not None
            and game.score_refusal(frozenset([variant.slug])) is None
        ),
        frozenset(),
    )
    choice = SheetChoiceForm(game, {"players": str(game.players.minimum), "variants": list(variants)})
    choice.is_valid()
    form = ScoreSheetForm(game, players=choice.count, variants=variants)
    names = list(form.fields)  # the players' names, every input and every list's row count
    values = st.sampled_from(["", "0", "1", "3", "-1", "x", "A", "on", "12345678901234567890", "²", "--5"])
    url = reverse("rules:score-sheet", args=[game.slug])

    @settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
    @given(st.fixed_dictionaries({name: values for name in names}))
    def check(data):
        data.update({"players": str(choice.count), "variants": list(variants)})
        assert client.post(url, data).status_code in (200, 400)

    check()
