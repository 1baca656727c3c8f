"""The rules API (docs/RULES_API.md): shapes, values, errors in French and English, and never a 500."""

import json

import jsonschema
import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.utils import translation
from django.utils.translation import gettext
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rules.engine import Boolean, Choice, Group, Integer, ListOf
from rules.games import all_games, get_game
from rules.models import LOADER_AUTHOR, Revision, RulePage
from rules.services import render_text

SLUGS = [game.slug for game in all_games()]
SCORED = [game.slug for game in all_games() if "score" in game.features]
CHECKED = [game.slug for game in all_games() if "check" in game.features]

pytestmark = pytest.mark.django_db

# Biblios, the rules' worked example (seed 000): Monks tied at 9, Rodolphe's « B » beats Cédric's
# « C »; 8 points each, and Rodolphe has more gold.
RODOLPHE_WINS = {
    "players": [
        {
            "name": "Cédric",
            "categories": {
                "moines": {"total": 9, "best_letter": "C"},
                "manuscrits": {"total": 2, "best_letter": "F"},
                "pigments": {"total": 7, "best_letter": "A"},
                "grimoires": {"total": 4, "best_letter": "D"},
                "livres_sacres": {"total": 3, "best_letter": "B"},
            },
            "gold": 2,
        },
        {
            "name": "Rodolphe",
            "categories": {
                "moines": {"total": 9, "best_letter": "B"},
                "manuscrits": {"total": 5, "best_letter": "A"},
                "grimoires": {"total": 2, "best_letter": "E"},
            },
            "gold": 5,
        },
    ],
    "dice": {"moines": 5, "manuscrits": 3, "pigments": 2, "grimoires": 2, "livres_sacres": 4},
}


def post(client, url, body, **headers):
    return client.post(url, json.dumps(body), content_type="application/json", headers=headers)


def test_list_gives_every_game_with_players_variants_and_features(client):
    response = client.get("/api/rules/")
    assert response.status_code == 200
    games = {game["slug"]: game for game in response.json()}
    assert set(games) == set(SLUGS)
    assert games["biblios"] == {
        "slug": "biblios",
        "title": "Biblios",
        "players": {"min": 2, "max": 4},
        "variants": [],
        "features": ["setup", "score"],
    }
    assert games["quarto"]["features"] == ["setup", "check"]
    assert games["quarto"]["variants"] == [
        {"slug": "squares", "label": "Joueurs avertis : les carrés comptent"}
    ]
    assert games["martian-dice"]["players"] == {"min": 2, "max": None}


def test_list_query_count_does_not_grow_with_the_pages(client):
    def queries():
        with CaptureQueriesContext(connection) as captured:
            assert client.get("/api/rules/").status_code == 200
        return len(captured)

    RulePage.objects.create(slug="biblios", title="Biblios")
    few = queries()
    for slug in SLUGS:
        page, _ = RulePage.objects.get_or_create(slug=slug, defaults={"title": slug})
        Revision.objects.create(page=page, number=1, author_name=LOADER_AUTHOR, content="== But du jeu ==\nx")
    assert queries() == few


def test_detail_gives_sections_schemas_and_revision(client):
    page = RulePage.objects.create(slug="biblios", title="Biblios")
    Revision.objects.create(
        page=page,
        number=1,
        author_name="Ludothèque",
        summary="Rédaction initiale",
        content="== But du jeu ==\nGagner '''le plus''' de points.\n== Décompte ==\n* les dés",
    )
    Revision.objects.create(
        page=page, number=2, author_name="Bourjn", summary="Précision", content="== But du jeu ==\nGagner."
    )
    response = client.get("/api/rules/biblios/")
    assert response.status_code == 200
    data = response.json()
    assert data["revision"]["number"] == 2
    assert data["revision"]["author"] == "Bourjn"
    assert data["revision"]["summary"] == "Précision"
    assert data["sections"] == [{"kind": "goal", "title": "But du jeu", "body_html": "<p>Gagner.</p>"}]
    assert data["players"] == {"min": 2, "max": 4}
    # The schemas are JSON Schema documents that accept what the engine accepts.
    jsonschema.Draft202012Validator.check_schema(data["score_schema"])
    jsonschema.validate(RODOLPHE_WINS, data["score_schema"])
    jsonschema.validate({"players": 3}, data["setup_schema"])


def test_detail_of_a_game_whose_page_is_not_loaded_has_no_sections(client):
    data = client.get("/api/rules/quarto/").json()
    assert data["sections"] == []
    assert data["revision"] is None
    assert data["setup_schema"]["required"] == ["players"]


@pytest.mark.parametrize("url", ["/api/rules/echecs/", "/api/rules/echecs/setup/?players=2"])
def test_unknown_slug_is_404(client, url):
    assert client.get(url).status_code == 404


def test_unknown_slug_is_404_on_post(client):
    assert post(client, "/api/rules/echecs/score/", {"players": []}).status_code == 404


def test_setup_gives_components_steps_and_values(client):
    response = client.get("/api/rules/biblios/setup/?players=2")
    assert response.status_code == 200
    data = response.json()
    assert data["slug"] == "biblios"
    assert data["players"] == 2
    assert data["variants"] == []
    assert data["values"] == {
        "removed_gold": 6,
        "removed_random": 21,
        "deck": 60,
        "cards_per_turn": 3,
        "public_cards": 1,
    }
    assert {"name": "Cartes dans la pioche", "count": 60} in data["components"]
    assert data["steps"][1] == {
        "text": "Retirez sans les regarder 6 cartes Or (2 de chaque valeur), puis 21 cartes au hasard."
    }


def test_setup_with_variants_and_an_option(client):
    data = client.get(
        "/api/rules/la-chasse-aux-monstres/setup/?players=3&variants=fast,expert&length=short"
    ).json()
    assert data["variants"] == ["expert", "fast"]
    assert data["values"]["monster_cards"] == 10
    assert data["values"]["toy_tiles"] == 12
    assert data["values"]["progression_tiles"] == 2


@pytest.mark.parametrize(
    ("query", "path"),
    [
        ("players=5", "players"),
        ("players=deux", "players"),
        ("", "players"),
        ("players=3&variants=turbo", "variants"),
    ],
)
def test_setup_bad_input_is_400_with_the_field_named(client, query, path):
    response = client.get(f"/api/rules/biblios/setup/?{query}")
    assert response.status_code == 400
    assert list(response.json()) == [path]


def test_setup_errors_are_french_by_default_and_english_on_request(client):
    french = client.get("/api/rules/biblios/setup/?players=5").json()
    english = client.get("/api/rules/biblios/setup/?players=5", headers={"Accept-Language": "en"}).json()
    assert french == {"players": ["Ce jeu se joue de 2 à 4 joueurs."]}
    with translation.override("en"):
        assert english == {"players": [render_text(get_game("biblios").players.refusal())]}


def test_a_malformed_body_is_explained_in_the_requests_language(client):
    response = client.post(
        "/api/rules/biblios/score/",
        "{oops",
        content_type="application/json",
        headers={"Accept-Language": "en"},
    )
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["The request body must be a valid JSON object."]}


def test_score_of_the_biblios_example(client):
    response = post(client, "/api/rules/biblios/score/", RODOLPHE_WINS)
    assert response.status_code == 200
    data = response.json()
    assert data["winners"] == ["Rodolphe"]
    assert data["decided_by"] == "gold"
    cedric, rodolphe = data["players"]
    assert (cedric["total"], cedric["rank"], rodolphe["total"], rodolphe["rank"]) == (8, 2, 8, 1)
    assert rodolphe["breakdown"] == {
        "moines": 5,
        "manuscrits": 3,
        "pigments": 0,
        "grimoires": 0,
        "livres_sacres": 0,
    }
    assert rodolphe["eliminated"] is False
    assert data["explanation"] == (
        "Cédric et Rodolphe sont à égalité avec 8 points. Départage par l'or restant : Rodolphe l'emporte (5 contre 2)."
    )


def test_score_bad_input_names_each_field_at_fault(client):
    body = {
        "players": [
            {"name": "Ana", "gold": -1, "categories": {"moines": {"total": "beaucoup"}}},
            {"name": "ana"},
        ],
        "dice": {"moines": 9},
    }
    response = post(client, "/api/rules/biblios/score/", body)
    assert response.status_code == 400
    errors = response.json()
    assert set(errors) == {
        "players.0.gold",
        "players.0.categories.moines.total",
        "players.1.name",
        "dice.moines",
    }
    assert errors["players.0.gold"] == ["La valeur doit être au moins 0."]
    assert errors["dice.moines"] == ["La valeur doit être au plus 6."]


def test_score_errors_in_english(client):
    body = {"players": [{"name": "Ana", "gold": -1}, {"name": "Bo"}]}
    response = post(client, "/api/rules/biblios/score/", body, **{"Accept-Language": "en"})
    assert response.status_code == 400
    with translation.override("en"):
        expected = gettext("La valeur doit être au moins %(minimum)s.") % {"minimum": 0}
    assert response.json() == {"players.0.gold": [expected]}


def test_score_of_a_cooperative_game_explains_why_not(client):
    response = post(
        client, "/api/rules/la-chasse-aux-monstres/score/", {"players": [{"name": "A", "monsters": 2}]}
    )
    assert response.status_code == 400
    assert "coopératif" in response.json()["variants"][0]


def test_score_of_a_game_without_score_sheet_is_404(client):
    assert post(client, "/api/rules/quarto/score/", {"players": []}).status_code == 404


@pytest.mark.parametrize("raw", ["{not json", "[1, 2", "NaN"])
def test_malformed_json_is_400_not_500(client, raw):
    response = client.post("/api/rules/biblios/score/", raw, content_type="application/json")
    assert response.status_code == 400
    assert list(response.json()) == ["non_field_errors"]


def test_anonymous_json_posts_need_no_csrf_token_even_with_a_staff_session(staff_user):
    client = Client(enforce_csrf_checks=True)
    assert post(client, "/api/rules/biblios/score/", RODOLPHE_WINS).status_code == 200
    client.force_login(staff_user)
    assert post(client, "/api/rules/biblios/score/", RODOLPHE_WINS).status_code == 200


def test_get_on_score_is_405(client):
    assert client.get("/api/rules/biblios/score/").status_code == 405


def test_check_finds_a_quarto_row(client):
    board = [[1, 3, 5, 15], [None] * 4, [None] * 4, [None] * 4]  # all four tall (bit 1), nothing else shared
    response = post(client, "/api/rules/quarto/check/", {"board": board})
    assert response.status_code == 200
    assert response.json() == {
        "quarto": True,
        "lines": [{"kind": "row", "cells": [[0, 0], [0, 1], [0, 2], [0, 3]], "shared": ["tall"]}],
    }


def test_check_refuses_a_piece_twice(client):
    board = [[3, 3, None, None], [None] * 4, [None] * 4, [None] * 4]
    response = post(client, "/api/rules/quarto/check/", {"board": board})
    assert response.status_code == 400
    assert list(response.json()) == ["board.0.1"]


def test_check_of_a_game_without_check_is_404(client):
    assert post(client, "/api/rules/biblios/check/", {}).status_code == 404


def test_every_endpoint_is_in_the_openapi_schema(client):
    response = client.get("/api/schema/", headers={"Accept": "application/json"})
    assert response.status_code == 200
    text = response.content.decode()
    for path in (
        "/api/rules/",
        "/api/rules/{slug}/",
        "/api/rules/{slug}/setup/",
        "/api/rules/{slug}/score/",
        "/api/rules/{slug}/check/",
    ):
        assert f"{path}:" in text or f'"{path}"' in text, path


# --- never a 500: random and nearly-valid requests against every game -----------------------------------

JUNK = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(10**6), 10**6)
    | st.floats(allow_nan=False)
    | st.text(max_size=8),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner, max_size=4),
    max_leaves=12,
)


def value_for(field):
    """Values around what a declared field accepts, and some it refuses."""
    if isinstance(field, Boolean):
        return st.booleans() | st.sampled_from(["on", "non", "peut-être", None])
    if isinstance(field, Choice):
        return st.sampled_from([*field.values, None, "", "zz"])
    if isinstance(field, Integer):
        low = -3 if field.minimum is None else field.minimum - 2
        high = (field.maximum if field.maximum is not None else low + 30) + 2
        return st.integers(low, high) | st.sampled_from(["3", "x", None, 2.0, 2.5, True])
    if isinstance(field, Group):
        return (
            st.fixed_dictionaries({}, optional={member.name: value_for(member) for member in field.fields})
            | JUNK
        )
    if isinstance(field, ListOf):
        high = (field.max_items if field.max_items is not None else 4) + 1
        return st.lists(value_for(field.item), max_size=min(high, 8)) | JUNK
    # A field the engine knows only by its schema (Quarto's board): arrays of small ints and nulls.
    cells = st.none() | st.integers(-1, 17) | st.just("")
    return st.lists(st.lists(cells, min_size=3, max_size=5), min_size=3, max_size=5) | JUNK


def variants_for(game):
    return st.lists(
        st.sampled_from([*(variant.slug for variant in game.variants), "zz"]), max_size=3, unique=True
    )


def score_bodies(game):
    every = frozenset(variant.slug for variant in game.variants)
    player = st.fixed_dictionaries(
        {"name": st.sampled_from(["Ana", "Bo", "Cy", "Di", "", "ana"])},
        optional={field.name: value_for(field) for field in game.player_fields(every)},
    )
    low = max(game.players.minimum - 1, 0)
    high = (game.players.maximum or game.players.minimum + 3) + 1
    body = st.fixed_dictionaries(
        {"players": st.lists(player, min_size=low, max_size=high) | JUNK},
        optional={
            "variants": variants_for(game) | JUNK,
            **{field.name: value_for(field) for field in game.shared_fields(every)},
        },
    )
    return body | JUNK


def check_bodies(game):
    every = frozenset(variant.slug for variant in game.variants)
    return (
        st.fixed_dictionaries(
            {},
            optional={
                "variants": variants_for(game),
                **{f.name: value_for(f) for f in game.check_fields(every)},
            },
        )
        | JUNK
    )


def setup_queries(game):
    options = {
        field.name: st.text(max_size=6) | st.sampled_from(getattr(field, "values", ["1"]))
        for field in game.setup_options
    }
    return st.fixed_dictionaries(
        {},
        optional={
            "players": st.integers(-1, 12).map(str) | st.text(max_size=4),
            "variants": variants_for(game).map(",".join) | st.text(max_size=6),
            **options,
        },
    )


def assert_answered(response):
    assert response.status_code in (200, 400), response.content[:500]
    if response.status_code == 400:
        errors = response.json()
        assert errors and all(
            isinstance(path, str)
            and isinstance(messages, list)
            and all(isinstance(m, str) and m for m in messages)
            for path, messages in errors.items()
        )


FUZZ = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])


@pytest.mark.parametrize("slug", SCORED)
def test_score_answers_200_or_400_whatever_the_body(client, slug):
    game = next(game for game in all_games() if game.slug == slug)

    @FUZZ
    @given(score_bodies(game))
    def check(body):
        assert_answered(post(client, f"/api/rules/{slug}/score/", body))

    check()


@pytest.mark.parametrize("slug", CHECKED)
def test_check_answers_200_or_400_whatever_the_body(client, slug):
    game = next(game for game in all_games() if game.slug == slug)

    @FUZZ
    @given(check_bodies(game))
    def check(body):
        assert_answered(post(client, f"/api/rules/{slug}/check/", body))

    check()


@pytest.mark.parametrize("slug", SLUGS)
def test_setup_answers_200_or_400_whatever_the_query(client, slug):
    game = next(game for game in all_games() if game.slug == slug)

    @FUZZ
    @given(setup_queries(game))
    def check(query):
        assert_answered(client.get(f"/api/rules/{slug}/setup/", query))

    check()
