"""A score sheet declared without code for any catalogue title: admin, page, API, print aids."""

import json
import re

import pytest
from django.db import IntegrityError, connection, transaction
from django.db.models import ProtectedError
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import translation
from django.utils.translation import gettext
from hypothesis import given
from hypothesis import strategies as st

from catalogue.models import Game
from rules.declared.sheets import (
    DeclaredLineRule,
    DeclaredRules,
    DeclaredTieBreakRule,
    LineDeclaration,
    declared_sheet_create,
)
from rules.engine import PlayerRange
from rules.models import DeclaredLine, DeclaredSheet, DeclaredTieBreaker, Revision, RulePage, Sign, Winning
from rules.services import all_game_rules, game_rules
from tests.conftest import pdf_page_count, text_of

SLUG = "les-aventuriers-du-rail"
# Les Aventuriers du Rail as a librarian declares it: (label, key, points, sign, max units).
TICKET_TO_RIDE = [
    ("Routes de 1 wagon", "routes_1", 1, "+", ""),
    ("Routes de 2 wagons", "routes_2", 2, "+", ""),
    ("Routes de 3 wagons", "routes_3", 4, "+", ""),
    ("Routes de 4 wagons", "routes_4", 7, "+", ""),
    ("Routes de 5 wagons", "routes_5", 10, "+", ""),
    ("Routes de 6 wagons", "routes_6", 15, "+", ""),
    ("Points des cartes Destination réussies", "destinations_reussies", 1, "+", ""),
    ("Points des cartes Destination ratées", "destinations_ratees", 1, "-", ""),
    ("Plus long chemin continu", "plus_long_chemin", 10, "+", "1"),
    ("Cartes Destination réussies", "cartes_reussies", 0, "+", ""),
]
TIE_BREAKS = [("cartes_reussies", "highest"), ("plus_long_chemin", "highest")]

# A game worked by hand. Alice: 15 + 2×7 + 3×4 + 21 − 8 + 10 = 64; Bruno: 2×10 + 7 + 4×2 + 2×1 + 27 = 64;
# Claire: 2×4 + 5 − 12 = 1. Alice and Bruno both completed 3 cards; only Alice has the longest path.
ALICE = {"routes_6": 1, "routes_4": 2, "routes_3": 3, "destinations_reussies": 21, "destinations_ratees": 8}
ALICE |= {"plus_long_chemin": 1, "cartes_reussies": 3}
BRUNO = {"routes_5": 2, "routes_4": 1, "routes_2": 4, "routes_1": 2, "destinations_reussies": 27}
BRUNO |= {"cartes_reussies": 3}
CLAIRE = {"routes_3": 2, "destinations_reussies": 5, "destinations_ratees": 12, "cartes_reussies": 1}
EXPLANATION = (
    "Alice et Bruno sont à égalité avec 64 points. "
    "Départage par « Plus long chemin continu » (le plus) : Alice l'emporte (1 contre 0)."
)


def admin_data(game=None, lines=TICKET_TO_RIDE, tie_breaks=TIE_BREAKS, winning="highest", **changes) -> dict:
    """The admin's add form as a librarian fills it: the sheet, its lines and its tie-breakers inline."""
    data = {
        "winning": winning,
        "lines-TOTAL_FORMS": str(len(lines)),
        "lines-INITIAL_FORMS": "0",
        "lines-MIN_NUM_FORMS": "0",
        "lines-MAX_NUM_FORMS": "1000",
        "tie_breakers-TOTAL_FORMS": str(len(tie_breaks)),
        "tie_breakers-INITIAL_FORMS": "0",
        "tie_breakers-MIN_NUM_FORMS": "0",
        "tie_breakers-MAX_NUM_FORMS": "1000",
        "_save": "Enregistrer",
    }
    if game is not None:
        data["game"] = str(game.pk)
    for index, (label, key, points, sign, max_units) in enumerate(lines):
        data |= {
            f"lines-{index}-position": str(index + 1),
            f"lines-{index}-label": label,
            f"lines-{index}-key": key,
            f"lines-{index}-points": str(points),
            f"lines-{index}-sign": sign,
            f"lines-{index}-max_units": max_units,
        }
    for index, (key, tie_winning) in enumerate(tie_breaks):
        data |= {
            f"tie_breakers-{index}-position": str(index + 1),
            f"tie_breakers-{index}-line_key": key,
            f"tie_breakers-{index}-winning": tie_winning,
        }
    return data | changes


def sheet_form(players: list[tuple[str, dict]]) -> dict:
    """The page's score sheet as typed in, one column per player (blank inputs left out)."""
    data = {"players": str(len(players))}
    for index, (name, fields) in enumerate(players):
        data[f"players.{index}.name"] = name
        data |= {f"players.{index}.{key}": str(value) for key, value in fields.items()}
    return data


@pytest.fixture
def notice(db) -> Game:
    return Game.objects.create(title="Les Aventuriers du Rail", slug=SLUG, players_min=2, players_max=5)


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def sheet(librarian, notice) -> DeclaredSheet:
    """The sheet created the way a librarian does it: the admin's add form, lines and tie-breakers inline."""
    response = librarian.post(reverse("admin:rules_declaredsheet_add"), admin_data(notice))
    assert response.status_code == 302, text_of(response)
    return DeclaredSheet.objects.get(page__game=notice)


def six_qui_prend() -> DeclaredSheet:
    game = Game.objects.create(title="6 qui prend !", slug="6-qui-prend", players_min=2, players_max=10)
    return declared_sheet_create(
        game=game,
        winning=Winning.LOWEST,
        lines=[
            LineDeclaration("tete_1", "Cartes à 1 tête", 1),
            LineDeclaration("tetes_2", "Cartes à 2 têtes", 2),
            LineDeclaration("tetes_3", "Cartes à 3 têtes", 3),
            LineDeclaration("tetes_5", "Cartes à 5 têtes", 5),
            LineDeclaration("tetes_7", "Cartes à 7 têtes", 7),
        ],
    )


# --- declaring a sheet in the admin --------------------------------------------------------------------


def test_a_librarian_declares_a_sheet_with_its_lines_and_tie_breakers_in_the_admin(sheet, staff_user):
    assert sheet.winning == Winning.HIGHEST
    lines = list(sheet.lines.values_list("position", "label", "key", "points", "sign", "max_units"))
    assert lines[0] == (1, "Routes de 1 wagon", "routes_1", 1, Sign.PLUS, None)
    assert lines[7] == (8, "Points des cartes Destination ratées", "destinations_ratees", 1, Sign.MINUS, None)
    assert lines[8][-1] == 1
    assert list(sheet.tie_breakers.values_list("position", "line__key", "winning")) == [
        (1, "cartes_reussies", Winning.HIGHEST),
        (2, "plus_long_chemin", Winning.HIGHEST),
    ]
    # The sheet's page: the notice's slug, linked to it, a first revision by the librarian.
    page = sheet.page
    assert (page.slug, page.title, page.game.title) == (
        SLUG,
        "Les Aventuriers du Rail",
        "Les Aventuriers du Rail",
    )
    first = page.revisions.get()
    assert (first.number, first.author, first.summary) == (
        1,
        staff_user,
        "Page créée avec la feuille de score déclarée.",
    )


def test_the_sheet_has_the_engines_shape_through_the_one_lookup(sheet):
    rules = game_rules(SLUG)
    assert rules.features == ["score"]
    assert (rules.players.minimum, rules.players.maximum) == (2, 5)
    assert [line.slug for line in rules.lines(frozenset())] == [row[1] for row in TICKET_TO_RIDE]
    assert str(rules.tie_break_rule()) == (
        "Le plus grand total gagne. En cas d'égalité, départage par « Cartes Destination réussies » (le plus), "
        "puis « Plus long chemin continu » (le plus) ; si l'égalité persiste, la victoire est partagée."
    )
    assert SLUG in [game.slug for game in all_game_rules()]


def test_the_admin_lists_the_sheets_and_opens_one_with_its_lines(librarian, sheet):
    listing = librarian.get(reverse("admin:rules_declaredsheet_changelist"))
    assert listing.status_code == 200
    assert "Les Aventuriers du Rail" in text_of(listing)
    change = librarian.get(reverse("admin:rules_declaredsheet_change", args=[sheet.pk]))
    assert change.status_code == 200
    html = change.content.decode()
    assert 'value="Routes de 6 wagons"' in html
    # An existing sheet's tie-breakers choose among its lines.
    assert (
        '<option value="plus_long_chemin" selected>Plus long chemin continu (plus_long_chemin)</option>'
        in html
    )


def test_a_blank_key_is_taken_from_the_label(librarian, notice):
    lines = [("Routes de 6 wagons", "", 15, "+", ""), ("Gares restantes", "", 4, "+", "3")]
    response = librarian.post(reverse("admin:rules_declaredsheet_add"), admin_data(notice, lines, []))
    assert response.status_code == 302
    assert list(DeclaredLine.objects.values_list("key", flat=True)) == [
        "routes_de_6_wagons",
        "gares_restantes",
    ]


def test_the_admin_refuses_bad_input_with_a_message_on_each_field(librarian, notice):
    lines = [*TICKET_TO_RIDE[:2], ("Bonus", "name", 5, "+", ""), ("Malus", "Mauvais Nom", 2000, "-", "0")]
    data = admin_data(
        notice, lines, [("routes_9", "highest"), ("routes_1", "lowest"), ("routes_1", "highest")]
    )
    response = librarian.post(reverse("admin:rules_declaredsheet_add"), data)
    assert response.status_code == 400
    text = text_of(response)
    assert "« name » est réservé au nom du joueur : choisissez un autre identifiant." in text
    assert "Commencez par une lettre, puis lettres minuscules sans accent, chiffres, « - » ou « _ »." in text
    assert "Assurez-vous que cette valeur est inférieure ou égale à 1000." in text
    assert "Assurez-vous que cette valeur est supérieure ou égale à 1." in text
    assert "Aucune ligne de cette feuille n'a l'identifiant « routes_9 »." in text
    assert "Cette ligne départage déjà les égalités de cette feuille." in text
    assert not DeclaredSheet.objects.exists() and not RulePage.objects.exists()


def test_the_admin_refuses_a_sheet_without_lines(librarian, notice):
    response = librarian.post(reverse("admin:rules_declaredsheet_add"), admin_data(notice, [], []))
    assert response.status_code == 400
    assert "Une feuille de score a au moins une ligne." in text_of(response)
    assert not DeclaredSheet.objects.exists()


def test_the_admin_answers_in_english(librarian, notice):
    data = admin_data(notice, TICKET_TO_RIDE[:1], [("routes_9", "highest")])
    response = librarian.post(
        reverse("admin:rules_declaredsheet_add"), data, headers={"Accept-Language": "en"}
    )
    assert response.status_code == 400
    assert "No line of this sheet has the identifier “routes_9”." in text_of(response)


def test_a_tie_breaker_cannot_outlive_its_line_in_the_same_form(librarian, sheet):
    url = reverse("admin:rules_declaredsheet_change", args=[sheet.pk])
    data = change_data(librarian, url)
    # Delete the longest path line but keep its tie-breaker: refused, nothing lost.
    line = sheet.lines.get(key="plus_long_chemin")
    index = next(i for i in range(len(TICKET_TO_RIDE)) if data[f"lines-{i}-id"] == str(line.pk))
    data[f"lines-{index}-DELETE"] = "on"
    response = librarian.post(url, data)
    assert response.status_code == 400
    assert "Aucune ligne de cette feuille n'a l'identifiant « plus_long_chemin »." in text_of(response)
    assert sheet.lines.count() == 10 and sheet.tie_breakers.count() == 2
    # Deleting the tie-breaker too is fine.
    tie = next(i for i in range(2) if data[f"tie_breakers-{i}-line_key"] == "plus_long_chemin")
    data[f"tie_breakers-{tie}-DELETE"] = "on"
    assert librarian.post(url, data).status_code == 302
    assert list(sheet.tie_breakers.values_list("line__key", flat=True)) == ["cartes_reussies"]
    assert not sheet.lines.filter(key="plus_long_chemin").exists()


def change_data(client, url) -> dict:
    """The change form's current values, as the browser would post them back."""
    response = client.get(url)
    data = {"_save": "Enregistrer"}
    context = response.context
    data |= {name: value for name, value in _form_values(context["adminform"].form).items()}
    for inline in context["inline_admin_formsets"]:
        formset = inline.formset
        management = formset.management_form
        data |= {management.add_prefix(name): value for name, value in management.initial.items()}
        for form in formset.forms:
            data |= {form.add_prefix(name): value for name, value in _form_values(form).items()}
    return data


def _form_values(form) -> dict:
    values = {}
    for name in form.fields:
        value = form[name].value()
        if value is False:
            continue  # an unticked box is not sent
        values[name] = "" if value is None else str(value)
    return values


def test_editing_a_line_changes_the_scores_at_once(librarian, sheet):
    url = reverse("admin:rules_declaredsheet_change", args=[sheet.pk])
    data = change_data(librarian, url)
    line = sheet.lines.get(key="routes_6")
    index = next(i for i in range(len(TICKET_TO_RIDE)) if data[f"lines-{i}-id"] == str(line.pk))
    data[f"lines-{index}-points"] = "18"  # a house rule
    assert librarian.post(url, data).status_code == 302
    response = api_score({"players": [{"name": "Alice", "routes_6": 2}, {"name": "Bruno"}]})
    assert response["players"][0]["breakdown"]["routes_6"] == 36


def test_a_notice_with_coded_rules_or_a_sheet_already_is_refused(librarian, sheet, db):
    quarto = Game.objects.create(title="Quarto", slug="quarto", players_min=2, players_max=2)
    RulePage.objects.create(slug="quarto", title="Quarto", game=quarto)
    for game, message in (
        (quarto, "« Quarto » a déjà une feuille de score programmée, sur sa page de règles."),
        (sheet.page.game, "« Les Aventuriers du Rail » a déjà une feuille de score déclarée : modifiez-la."),
    ):
        response = librarian.post(reverse("admin:rules_declaredsheet_add"), admin_data(game))
        assert response.status_code == 400
        assert message in text_of(response)
    assert DeclaredSheet.objects.count() == 1


def test_a_notice_whose_slug_a_coded_game_uses_gets_its_own_page(librarian):
    travel = Game.objects.create(title="Quarto de voyage", slug="quarto", players_min=2, players_max=2)
    response = librarian.post(
        reverse("admin:rules_declaredsheet_add"), admin_data(travel, TICKET_TO_RIDE[:2], [])
    )
    assert response.status_code == 302
    sheet = DeclaredSheet.objects.get()
    assert sheet.page.slug == "quarto-2"
    assert game_rules("quarto").title == "Quarto"  # the coded game is still behind its slug
    assert game_rules("quarto-2").title == "Quarto de voyage"


def test_a_notice_without_player_counts_gets_two_players_or_more(db):
    game = Game.objects.create(title="Jeu maison", slug="jeu-maison")
    sheet = declared_sheet_create(game=game, lines=[LineDeclaration("points", "Points")])
    rules = game_rules(sheet.page.slug)
    assert (rules.players.minimum, rules.players.maximum) == (2, None)
    assert sheet.page.revisions.get().author_name == "Ludothèque"


# --- who may declare -------------------------------------------------------------------------------------------


def test_an_outsider_cannot_declare_or_edit_a_sheet(client, outsider, sheet):
    client.force_login(outsider)
    other = Game.objects.create(title="Autre jeu", slug="autre-jeu")
    add = client.post(reverse("admin:rules_declaredsheet_add"), admin_data(other))
    assert add.status_code == 302 and "/admin/login/" in add.url
    change_url = reverse("admin:rules_declaredsheet_change", args=[sheet.pk])
    data = admin_data(lines=TICKET_TO_RIDE[:1], tie_breaks=[], winning="lowest")
    assert "/admin/login/" in client.post(change_url, data).url
    assert client.get(reverse("rules:page-edit", args=[SLUG])).status_code == 403
    sheet.refresh_from_db()
    assert (sheet.winning, sheet.lines.count(), DeclaredSheet.objects.count()) == (Winning.HIGHEST, 10, 1)


def test_an_anonymous_visitor_is_sent_to_the_login_page(client, notice):
    response = client.post(reverse("admin:rules_declaredsheet_add"), admin_data(notice))
    assert response.status_code == 302 and "/admin/login/" in response.url
    assert not DeclaredSheet.objects.exists()


def test_the_page_editor_links_to_the_sheet_and_offers_one_where_there_is_none(librarian, sheet):
    editor = librarian.get(reverse("rules:page-edit", args=[SLUG]))
    change_url = reverse("admin:rules_declaredsheet_change", args=[sheet.pk])
    assert f'href="{change_url}"' in editor.content.decode()
    assert "Modifier la feuille de score déclarée (lignes, départages)" in text_of(editor)
    other = Game.objects.create(title="Jungle Speed", slug="jungle-speed")
    page = RulePage.objects.create(slug="jungle-speed", title="Jungle Speed", game=other)
    Revision.objects.create(
        page=page, number=1, author_name="Ludothèque", content="== But du jeu ==\nAttraper.\n"
    )
    editor = librarian.get(reverse("rules:page-edit", args=["jungle-speed"]))
    add_url = reverse("admin:rules_declaredsheet_add") + f"?game={other.pk}"
    assert f'href="{add_url}"' in editor.content.decode()
    form = librarian.get(add_url).context["adminform"].form
    assert form.initial["game"] == other.pk


def test_a_sheets_page_is_history_and_cannot_be_deleted_under_it(sheet):
    with pytest.raises(ProtectedError), transaction.atomic():
        sheet.page.delete()


@pytest.mark.postgresql
def test_the_database_keeps_a_tie_breaker_on_its_own_sheets_lines(sheet):
    other = six_qui_prend()
    foreign = other.lines.first()
    with pytest.raises(IntegrityError), transaction.atomic():
        DeclaredTieBreaker.objects.create(sheet=sheet, position=3, line=foreign)
        connection.check_constraints()  # the composite key is deferred: check it now


# --- the rules page --------------------------------------------------------------------------------------------


def test_the_rules_page_shows_the_score_form_and_no_setup(client, sheet):
    response = client.get(reverse("rules:page-detail", args=[SLUG]))
    assert response.status_code == 200
    html = response.content.decode()
    for key in ("routes_1", "routes_6", "destinations_ratees", "plus_long_chemin", "cartes_reussies"):
        assert f'name="players.0.{key}"' in html
    assert 'max="1"' in html  # the longest path is had or not
    assert "Chaque unité retire 1 point." in text_of(response)
    assert reverse("rules:setup", args=[SLUG]) not in html
    assert "2 à 5 joueurs" in text_of(response)


def test_scoring_through_the_page_without_javascript(client, sheet):
    response = client.post(
        reverse("rules:score-sheet", args=[SLUG]),
        sheet_form([("Alice", ALICE), ("Bruno", BRUNO), ("Claire", CLAIRE)]),
    )
    assert response.status_code == 200
    text = text_of(response)
    assert EXPLANATION in text
    html = response.content.decode()
    assert re.search(r'data-total="0">64</td>', html) and re.search(r'data-total="2">1</td>', html)
    assert re.search(r'data-rank="0">1</td>', html) and re.search(r'data-rank="1">2</td>', html)
    assert "Points des cartes Destination ratées (× −1)" in text


def api_score(body: dict, **headers) -> dict:
    response = Client().post(
        reverse("rules-score", args=[SLUG]),
        json.dumps(body),
        content_type="application/json",
        headers=headers,
    )
    assert response.status_code == 200, response.content
    return response.json()


def test_scoring_through_the_api(client, sheet):
    body = {"players": [{"name": "Alice", **ALICE}, {"name": "Bruno", **BRUNO}, {"name": "Claire", **CLAIRE}]}
    result = api_score(body)
    assert [(p["name"], p["total"], p["rank"]) for p in result["players"]] == [
        ("Alice", 64, 1),
        ("Bruno", 64, 2),
        ("Claire", 1, 3),
    ]
    assert result["winners"] == ["Alice"]
    assert result["decided_by"] == "plus_long_chemin"
    assert result["explanation"] == EXPLANATION
    assert result["players"][0]["breakdown"] == {
        "routes_1": 0,
        "routes_2": 0,
        "routes_3": 12,
        "routes_4": 14,
        "routes_5": 0,
        "routes_6": 15,
        "destinations_reussies": 21,
        "destinations_ratees": -8,
        "plus_long_chemin": 10,
        "cartes_reussies": 0,
    }
    english = api_score(body, **{"Accept-Language": "en"})
    assert "“Plus long chemin continu” (most)" in english["explanation"]
    assert english["explanation"] != EXPLANATION and english["players"] == result["players"]


def test_the_api_lists_the_sheet_and_describes_its_fields(client, sheet):
    listed = client.get(reverse("rules-list")).json()
    assert {
        "slug": SLUG,
        "title": "Les Aventuriers du Rail",
        "players": {"min": 2, "max": 5},
        "variants": [],
    } | {"features": ["score"]} in listed
    page = client.get(reverse("rules-detail", args=[SLUG])).json()
    schema = page["score_schema"]["properties"]["players"]["items"]["properties"]
    assert schema["plus_long_chemin"] == {
        "type": "integer",
        "minimum": 0,
        "maximum": 1,
        "title": "Plus long chemin continu",
        "description": "Chaque unité rapporte 10 points.",
        "default": 0,
    }
    assert page["revision"]["number"] == 1
    assert client.get(reverse("rules-setup", args=[SLUG]), {"players": 3}).status_code == 404


def test_the_api_list_costs_the_same_queries_whatever_the_number_of_sheets(client, sheet):
    with CaptureQueriesContext(connection) as one:
        client.get(reverse("rules-list"))
    six_qui_prend()
    declared_sheet_create(
        game=Game.objects.create(title="Splendor", slug="splendor"),
        lines=[LineDeclaration("prestige", "Prestige")],
    )
    with CaptureQueriesContext(connection) as three:
        listed = client.get(reverse("rules-list")).json()
    assert len(three.captured_queries) == len(one.captured_queries)
    assert {"6-qui-prend", "splendor", SLUG} <= {game["slug"] for game in listed}


def test_lowest_total_wins_and_a_tie_without_tie_breaker_is_shared(client, db):
    six_qui_prend()
    # Anne 10 + 2 + 2×3 = 18; Basile 5 + 5 + 7 = 17; Chloé 17: the fewest heads win, shared.
    body = {
        "players": [
            {"name": "Anne", "tete_1": 10, "tetes_2": 1, "tetes_3": 2},
            {"name": "Basile", "tete_1": 5, "tetes_5": 1, "tetes_7": 1},
            {"name": "Chloé", "tete_1": 17},
        ]
    }
    response = client.post(
        reverse("rules-score", args=["6-qui-prend"]), body, content_type="application/json"
    )
    result = response.json()
    assert [(p["total"], p["rank"]) for p in result["players"]] == [(18, 3), (17, 1), (17, 1)]
    assert (result["winners"], result["decided_by"]) == (["Basile", "Chloé"], None)
    assert result["explanation"] == (
        "Basile et Chloé sont à égalité avec 17 points. Basile et Chloé se partagent la victoire."
    )
    pad = client.get(reverse("rules:score-pad", args=["6-qui-prend"]), {"players": 4})
    assert "Le plus petit total gagne. Les joueurs à égalité se partagent la victoire." in text_of(pad)


def test_a_lowest_wins_tie_breaker(client, db):
    game = Game.objects.create(title="Splendor", slug="splendor", players_min=2, players_max=4)
    declared_sheet_create(
        game=game,
        lines=[
            LineDeclaration("prestige", "Points de prestige"),
            LineDeclaration("cartes", "Cartes Développement", 0),
        ],
        tie_breaks=[("cartes", Winning.LOWEST)],
    )
    body = {
        "players": [
            {"name": "Ada", "prestige": 15, "cartes": 12},
            {"name": "Ben", "prestige": 15, "cartes": 10},
            {"name": "Cy", "prestige": 14, "cartes": 3},
        ]
    }
    result = client.post(
        reverse("rules-score", args=["splendor"]), body, content_type="application/json"
    ).json()
    assert (result["winners"], result["decided_by"]) == (["Ben"], "cartes")
    assert [p["rank"] for p in result["players"]] == [2, 1, 3]
    assert result["explanation"] == (
        "Ada et Ben sont à égalité avec 15 points. "
        "Départage par « Cartes Développement » (le moins) : Ben l'emporte (10 contre 12)."
    )


# --- the engine built from a sheet, on any table -----------------------------------------------------------------

ENGINE_LINES = (
    DeclaredLineRule("routes", "Routes", 3, 1, None),
    DeclaredLineRule("malus", "Malus", 2, -1, None),
    DeclaredLineRule("bonus", "Bonus", 10, 1, 1),
    DeclaredLineRule("cartes", "Cartes", 0, 1, None),
)


@given(
    st.lists(
        st.tuples(st.integers(0, 30), st.integers(0, 30), st.integers(0, 1), st.integers(0, 5)),
        min_size=2,
        max_size=6,
    ),
    st.booleans(),
    st.randoms(use_true_random=False),
)
def test_a_total_is_the_sum_of_units_times_points_and_order_changes_nobodys_result(table, highest, shuffler):
    rules = DeclaredRules(
        slug="essai",
        title="Essai",
        players=PlayerRange(2, 6),
        highest_total_wins=highest,
        lines=ENGINE_LINES,
        tie_breaks=(DeclaredTieBreakRule("cartes", "Cartes", False),),
    )
    players = [
        {"name": f"J{index}", "routes": routes, "malus": malus, "bonus": bonus, "cartes": cartes}
        for index, (routes, malus, bonus, cartes) in enumerate(table)
    ]
    result = rules.run_score({"players": players})
    for player, scored in zip(players, result.players, strict=True):
        assert scored.total == 3 * player["routes"] - 2 * player["malus"] + 10 * player["bonus"]
        assert scored.total == sum(scored.breakdown.values())
    best = (max if highest else min)(scored.total for scored in result.players)
    assert {p.name for p in result.players if p.rank == 1} == set(result.winners)
    assert all(p.total == best for p in result.players if p.name in result.winners)
    shuffled = players[:]
    shuffler.shuffle(shuffled)
    again = rules.run_score({"players": shuffled})
    assert {(p.name, p.total, p.rank) for p in again.players} == {
        (p.name, p.total, p.rank) for p in result.players
    }
    assert sorted(again.winners) == sorted(result.winners)


# --- bad input ---------------------------------------------------------------------------------------------------


def test_bad_input_on_the_page_answers_400_with_french_messages_on_the_inputs(client, sheet):
    bad = sheet_form(
        [("Alice", {"routes_1": "-1", "plus_long_chemin": "2"}), ("Bruno", {"routes_3": "beaucoup"})]
    )
    response = client.post(reverse("rules:score-sheet", args=[SLUG]), bad)
    assert response.status_code == 400
    html = response.content.decode()
    assert 'id="id_players-0-routes_1-errors"><li>La valeur doit être au moins 0.</li>' in html
    assert 'id="id_players-0-plus_long_chemin-errors"><li>La valeur doit être au plus 1.</li>' in html
    assert 'id="id_players-1-routes_3-errors"><li>Saisissez un nombre entier.</li>' in html
    assert 'value="beaucoup"' in html  # nothing typed is lost


def test_bad_input_through_the_api_in_french_and_english(client, sheet):
    url = reverse("rules-score", args=[SLUG])
    body = {"players": [{"name": "Alice", "routes_1": -1, "tunnels": 2}, {"name": "Bruno", "routes_3": "x"}]}
    french = client.post(url, body, content_type="application/json")
    assert french.status_code == 400
    assert french.json() == {
        "players.0.routes_1": ["La valeur doit être au moins 0."],
        "players.0.tunnels": ["Champ inconnu pour ce jeu."],
        "players.1.routes_3": ["Saisissez un nombre entier."],
    }
    english = client.post(url, body, content_type="application/json", headers={"Accept-Language": "en"})
    assert english.status_code == 400
    with translation.override("en"):
        assert english.json() == {
            "players.0.routes_1": [gettext("La valeur doit être au moins %(minimum)s.") % {"minimum": 0}],
            "players.0.tunnels": [gettext("Champ inconnu pour ce jeu.")],
            "players.1.routes_3": [gettext("Saisissez un nombre entier.")],
        }
    assert english.json() != french.json()  # the messages are in English, not left in French
    too_many = {"players": [{"name": f"J{index}"} for index in range(6)]}
    response = client.post(url, too_many, content_type="application/json")
    assert response.json() == {"players": ["Ce jeu se joue de 2 à 5 joueurs."]}


# --- print aids -----------------------------------------------------------------------------------------------------


def test_the_blank_pad_lists_the_lines_with_their_points_and_the_tie_break_rule(client, sheet):
    response = client.get(reverse("rules:score-pad", args=[SLUG]), {"players": 5})
    assert response.status_code == 200
    text = text_of(response)
    # The screen sheet's rows (issue 16): each line's name and what a unit is worth.
    for row in (
        "Routes de 6 wagons Chaque unité rapporte 15 points.",
        "Points des cartes Destination ratées Chaque unité retire 1 point.",
        "Cartes Destination réussies Ne rapporte pas de points : sert au départage.",
    ):
        assert row in text
    assert (
        "départage par « Cartes Destination réussies » (le plus), puis « Plus long chemin continu » (le plus)"
        in text
    )


@pytest.mark.browser
def test_the_blank_pad_and_the_filled_sheet_print_on_one_a4_page(live_server, transactional_db, print_to_pdf):
    game = Game.objects.create(title="Les Aventuriers du Rail", slug=SLUG, players_min=2, players_max=5)
    declared_sheet_create(
        game=game,
        lines=[
            LineDeclaration(
                key, label, points, Sign.MINUS if sign == "-" else Sign.PLUS, int(units) if units else None
            )
            for label, key, points, sign, units in TICKET_TO_RIDE
        ],
        tie_breaks=TIE_BREAKS,
    )
    pad = print_to_pdf(f"{live_server.url}{reverse('rules:score-pad', args=[SLUG])}?players=5")
    assert pdf_page_count(pad) == 1
    query = "&".join(
        f"{key}={value}"
        for key, value in sheet_form([("Alice", ALICE), ("Bruno", BRUNO), ("Claire", CLAIRE)]).items()
    )
    filled = print_to_pdf(f"{live_server.url}{reverse('rules:score-print', args=[SLUG])}?{query}")
    assert pdf_page_count(filled) == 1
