"""A title's setup declared without code: the staff page, its refusals, the calculator, API, loader and admin.

The title is Kingdomino (Bruno Cathala, Blue Orange 2016), 2–4 players: 48 dominoes, 24 removed at
2 players and 12 at 3; at 2 players each takes 2 kings, at 3–4 one; each a castle and a starting
tile. Its « Grand duel » variant (2 players, 7 × 7 kingdoms) plays with every domino.
"""

import json
import re
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError
from django.urls import reverse

from catalogue.models import Component, Game
from rules.declared.files import declared_file_load
from rules.declared.setups import declared_setup_save
from rules.models import DeclaredSetup, DeclaredSheet, RulePage
from rules.pieces import playability, summary
from rules.services import game_rules
from tests.conftest import text_of

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).resolve().parent.parent
KINGDOMINO_FILE = ROOT / "fixtures" / "declared" / "kingdomino.json"

COMPONENTS = [
    ("dominoes", "Dominos", "48"),
    ("kings", "Rois", "4"),
    ("castles", "Châteaux", "4"),
    ("starting_tiles", "Tuiles de départ", "4"),
]
# Rows as a librarian types them: (text, component, action, count, set, label, players, variants, unless).
STEPS = [
    (
        "Retirez {n} dominos au hasard.",
        "dominoes",
        "remove",
        "2: 24, 3: 12, 4: 0",
        "",
        "",
        "",
        "",
        "grand-duel",
    ),
    ("Mélangez les dominos en une pioche face cachée.", "", "", "", "", "", "", "", ""),
    ("", "starting_tiles", "each", "1", "", "", "", "", ""),
    ("", "castles", "each", "1", "", "", "", "", ""),
    ("Chaque joueur prend {n} rois de sa couleur.", "kings", "each", "2: 2, 3-4: 1", "", "", "", "", ""),
    ("", "", "", "7 × 7", "kingdom", "Taille du royaume", "", "grand-duel", ""),
    ("", "", "", "le plus jeune", "first_player", "Premier joueur", "", "", ""),
]
VARIANTS = [("grand-duel", "Grand duel", "À deux joueurs, des royaumes de 7 × 7 avec tous les dominos.")]
STEP_FIELDS = ["text", "component", "action", "count", "set", "label", "players", "variants", "unless"]


def rows(prefix: str, fields: list[str], values: list[tuple]) -> dict:
    data = {
        f"{prefix}-TOTAL_FORMS": str(len(values)),
        f"{prefix}-INITIAL_FORMS": "0",
        f"{prefix}-MIN_NUM_FORMS": "0",
        f"{prefix}-MAX_NUM_FORMS": "1000",
    }
    for index, row in enumerate(values):
        data |= {f"{prefix}-{index}-{name}": value for name, value in zip(fields, row, strict=True)}
    return data


def declaration(components=COMPONENTS, steps=STEPS, variants=VARIANTS, **extra) -> dict:
    return {
        **rows("components", ["key", "name", "in_box"], components),
        **rows("steps", STEP_FIELDS, steps),
        **rows("variants", ["key", "label", "description"], variants),
        "sources": "Kingdomino, règle Blue Orange 2016",
        **extra,
    }


@pytest.fixture
def kingdomino(db) -> Game:
    game = Game.objects.create(title="Kingdomino", slug="kingdomino", players_min=2, players_max=4)
    Component.objects.create(game=game, position=1, quantity=48, label="dominos")
    Component.objects.create(game=game, position=2, quantity=4, label="rois en bois")
    return game


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    return client


def declare_url(slug: str = "kingdomino") -> str:
    return reverse("rules:setup-declare", args=[slug])


@pytest.fixture
def declared(librarian, kingdomino):
    dominoes = kingdomino.components.get(label="dominos")
    response = librarian.post(declare_url(), declaration() | {"components-0-pieces": [str(dominoes.pk)]})
    assert response.status_code == 302, text_of(response)
    return DeclaredSetup.objects.get(page__game=kingdomino)


def setup_json(client, players: int, variants: str = "") -> dict:
    response = client.get("/api/rules/kingdomino/setup/", {"players": players, "variants": variants})
    assert response.status_code == 200, response.content
    return response.json()


# --- the staff page -------------------------------------------------------------------------------------


def test_a_librarian_declares_the_setup_and_it_is_published_on_the_calculator(librarian, declared):
    assert declared.page.slug == "kingdomino"
    assert declared.page.revisions.count() == 1  # the page was created with its first revision
    response = librarian.get(reverse("rules:setup", args=["kingdomino"]), {"players": 2}, follow=True)
    page = text_of(response)
    assert "Dominos 24" in page and "Rois 4" in page and "Châteaux 2" in page
    assert "Retirez 24 dominos au hasard." in page
    assert "Chaque joueur prend 2 rois de sa couleur." in page
    assert "Premier joueur : le plus jeune." in page


@pytest.mark.parametrize(
    ("players", "variants", "dominoes", "kings", "removed", "kingdom"),
    [
        (2, "", 24, 4, 24, None),
        (3, "", 36, 3, 12, None),
        (4, "", 48, 4, 0, None),
        (2, "grand-duel", 48, 4, None, "7 × 7"),
    ],
)
def test_every_player_count_and_variant_gets_its_setup_from_the_api(
    client, declared, players, variants, dominoes, kings, removed, kingdom
):
    data = setup_json(client, players, variants)
    components = {component["name"]: component["count"] for component in data["components"]}
    assert components == {
        "Dominos": dominoes,
        "Rois": kings,
        "Châteaux": players,
        "Tuiles de départ": players,
    }
    assert data["values"].get("dominoes_removed") == removed
    assert data["values"].get("kingdom") == kingdom
    assert data["values"]["first_player"] == "le plus jeune"
    texts = [step["text"] for step in data["steps"]]
    assert ("Taille du royaume : 7 × 7." in texts) == bool(variants)
    assert any(text.startswith("Retirez") for text in texts) == bool(removed)


def test_the_api_lists_the_declared_title_with_its_variant_and_refuses_a_table_outside_its_range(
    client, declared
):
    listing = {game["slug"]: game for game in client.get("/api/rules/").json()}
    assert listing["kingdomino"]["features"] == ["setup"]
    assert listing["kingdomino"]["variants"] == [{"slug": "grand-duel", "label": "Grand duel"}]
    response = client.get("/api/rules/kingdomino/setup/", {"players": 5})
    assert response.status_code == 400
    assert response.json() == {"players": ["Ce jeu se joue de 2 à 4 joueurs."]}
    response = client.get("/api/rules/kingdomino/setup/", {"players": 2, "variants": "x"})
    assert response.status_code == 400 and "Variante inconnue : x." in response.json()["variants"][0]


def test_the_page_shows_the_declaration_again_to_correct_it(librarian, declared):
    page = librarian.get(declare_url()).content.decode()
    assert 'value="2: 24, 3: 12, 4: 0"' in page
    assert 'value="grand-duel"' in page
    response = librarian.post(
        declare_url(),
        declaration(steps=[("", "dominoes", "remove", "2: 20, 3: 10, 4: 0", "", "", "", "", "")]),
    )
    assert response.status_code == 302
    assert setup_json(librarian, 2)["values"]["dominoes_removed"] == 20


REFUSALS = [
    (
        "a count missing for an allowed player count",
        {"steps": [("", "dominoes", "remove", "2: 24, 3: 12", "", "", "", "", "")]},
        "Indiquez le nombre pour 4 joueurs.",
    ),
    ("a negative quantity", {"steps": [("", "kings", "each", "-1", "", "", "", "", "")]}, "Une quantité ne peut pas être négative."),
    (
        "a negative box",
        {"components": [("dominoes", "Dominos", "-48")], "steps": []},
        "Une quantité ne peut pas être négative.",
    ),
    (
        "a variant that names an unknown component",
        {"steps": [("", "meeples", "each", "1", "", "", "", "grand-duel", "")]},
        "Élément inconnu : meeples.",
    ),
    (
        "a step for an undeclared variant",
        {"steps": [("", "kings", "each", "1", "", "", "", "dynastie", "")]},
        "Variante inconnue : dynastie.",
    ),
    (
        "more removed than the box holds",
        {"components": [("dominoes", "Dominos", "20")], "steps": [("", "dominoes", "remove", "2: 24, 3: 12, 4: 0", "", "", "", "", "")]},
        "Dominos : à 2 joueurs, on en retire 24 mais la boîte n'en contient que 20.",
    ),
    (
        "more dealt than the box holds",
        {"steps": [("", "kings", "each", "2", "", "", "", "", "")]},
        "Rois : à 3 joueurs, il en faut 6 mais la boîte n'en contient que 4",
    ),
    (
        "more dealt than the box holds in a variant only",
        {"steps": [("", "kings", "each", "2", "", "", "3-4", "grand-duel", "")]},
        "Rois : à 3 joueurs, il en faut 6 mais la boîte n'en contient que 4",
    ),
    (
        "a player count outside the title's range",
        {"steps": [("", "kings", "each", "1", "", "", "5", "", "")]},
        "Ce jeu se joue de 2 à 4 joueurs.",
    ),
    ("a count that is no number", {"steps": [("", "kings", "each", "beaucoup", "", "", "", "", "")]}, "Écrivez un nombre"),
    ("two components with one key", {"components": COMPONENTS + [("kings", "Reines", "2")]}, "L'identifiant « kings » est déjà pris."),
]  # fmt: skip


@pytest.mark.parametrize(("case", "changes", "message"), REFUSALS, ids=[case[0] for case in REFUSALS])
def test_a_declaration_that_cannot_set_up_is_refused_with_the_reason_in_french(
    librarian, kingdomino, case, changes, message
):
    response = librarian.post(declare_url(), declaration(**changes))
    assert response.status_code == 400
    assert message in text_of(response)
    assert not DeclaredSetup.objects.exists()
    assert game_rules("kingdomino") is None  # nothing published


def test_a_refusal_sits_on_the_row_it_names(librarian, kingdomino):
    steps = [*STEPS[:2], ("", "kings", "each", "-1", "", "", "", "", "")]
    response = librarian.post(declare_url(), declaration(steps=steps))
    form = response.context["form"]
    assert form.steps.forms[2].errors == {"count": ["Une quantité ne peut pas être négative."]}
    assert not form.steps.forms[0].errors


def test_the_page_is_for_staff_only_and_takes_get_and_post(client, outsider, kingdomino):
    assert client.get(declare_url()).status_code == 302  # to the login page
    client.force_login(outsider)
    assert client.get(declare_url()).status_code in (302, 403)
    assert client.post(declare_url(), declaration()).status_code in (302, 403)
    assert not DeclaredSetup.objects.exists()


def test_the_page_404s_for_an_unknown_slug_and_a_coded_game(librarian, db):
    assert librarian.get(declare_url("nothing-here")).status_code == 404
    game = Game.objects.create(title="Quarto", slug="quarto-notice", players_min=2, players_max=2)
    RulePage.objects.create(slug="quarto", title="Quarto", game=game)
    assert librarian.get(declare_url("quarto")).status_code == 404
    assert librarian.put(declare_url("kingdomino")).status_code == 405


# --- the notice's draft ---------------------------------------------------------------------------------


def test_the_notice_text_gives_a_draft_that_is_not_published_until_confirmed(librarian, kingdomino):
    kingdomino.rules_summary = "Mise en place : A 2 joueurs, chacun joue avec 2 rois et on retire 24 dominos."
    kingdomino.save()
    page = librarian.get(declare_url())
    assert page.status_code == 200
    html = page.content.decode()
    assert "Brouillon tiré du texte de la notice" in html
    assert 'value="dominos"' in html and 'value="2: 24"' in html and 'value="2: 2"' in html
    assert 'value="48"' in html  # the box count from the notice's piece list « 48 dominos »
    assert game_rules("kingdomino") is None
    assert librarian.get(reverse("rules:setup", args=["kingdomino"])).status_code == 404
    # Confirmed as drafted, the draft is refused: it says nothing of 3 and 4 players.
    draft = declaration(
        components=[("dominos", "Dominos", "48"), ("rois", "Rois", "4")],
        steps=[
            ("", "rois", "each", "2: 2", "", "", "", "", ""),
            ("", "dominos", "remove", "2: 24", "", "", "", "", ""),
        ],
        variants=[],
    )
    response = librarian.post(declare_url(), draft)
    assert response.status_code == 400 and "Indiquez le nombre pour 3, 4 joueurs." in text_of(response)
    # Completed by the librarian, it is published.
    draft |= {"steps-0-count": "2: 2, 3-4: 1", "steps-1-count": "2: 24, 3: 12, 4: 0"}
    assert librarian.post(declare_url(), draft).status_code == 302
    assert setup_json(librarian, 3)["values"]["dominos"] == 36


# --- « jouable malgré les pièces manquantes » -------------------------------------------------------


def test_a_copy_missing_dominoes_is_still_playable_at_two_and_three(declared, kingdomino):
    dominoes = kingdomino.components.get(label="dominos")
    assert dominoes.rules_key == "dominoes"  # linked by the staff page's check box
    playable = playability(kingdomino, [(dominoes, 3)])
    assert playable.counts() == (2, 3)
    # The « Grand duel » plays with all 48: not playable at all with 45.
    assert summary(playable) == "jouable : règle de base, 2 à 3 joueurs"
    assert playability(kingdomino, [(dominoes, 25)]).counts() == ()
    unlinked = kingdomino.components.get(label="rois en bois")
    assert playability(kingdomino, [(unlinked, 1)]).unknown == ("rois en bois",)


def test_the_admin_offers_the_declared_components_for_a_catalogue_piece(librarian, declared, kingdomino):
    html = librarian.get(reverse("admin:catalogue_game_change", args=[kingdomino.pk])).content.decode()
    assert 'value="dominoes"' in html and "Dominos (48)" in html


# --- the admin and the files ---------------------------------------------------------------------------


def test_the_admin_takes_the_declaration_as_json_and_refuses_a_bad_one(librarian, kingdomino):
    setup = json.loads(KINGDOMINO_FILE.read_text())["setup"]
    bad = json.loads(json.dumps(setup))
    bad["steps"][0]["count"] = {"2": 24}
    response = librarian.post(
        reverse("admin:rules_declaredsetup_add"),
        {"game": kingdomino.pk, "definition": json.dumps(bad), "sources": "règle"},
    )
    assert response.status_code == 400
    assert "Étape 1, nombre : Indiquez le nombre pour 3, 4 joueurs." in text_of(response)
    response = librarian.post(
        reverse("admin:rules_declaredsetup_add"),
        {"game": kingdomino.pk, "definition": json.dumps(setup), "sources": "règle"},
    )
    assert response.status_code == 302
    assert game_rules("kingdomino").run_setup({"players": "3"}).values["dominoes"] == 36


def test_the_documented_example_is_the_shipped_file():
    doc = (ROOT / "docs" / "declared-rules.md").read_text()
    example = re.findall(r"```json\n(.*?)```", doc, re.DOTALL)[-1]
    assert json.loads(example) == json.loads(KINGDOMINO_FILE.read_text())


def test_the_loader_creates_the_notice_its_setup_and_sheet_and_runs_twice_safely(capsys):
    call_command("load_declared_rules")
    game = Game.objects.get(title="Kingdomino")
    assert (game.players_min, game.players_max) == (2, 4)
    rules = game_rules(game.rules_page.slug)
    assert rules.features == ["setup", "score"]
    assert rules.run_setup({"players": "2"}).values["dominoes"] == 24
    result = rules.run_score(
        {
            "players": [
                {"name": "Alice", "prestige": 40, "largest": 12, "crowns": 6},
                {"name": "Bruno", "prestige": 40, "largest": 15, "crowns": 5},
            ]
        }
    )
    assert result.winners == ["Bruno"]  # tied at 40, Bruno's largest property is larger
    call_command("load_declared_rules")
    assert "already declared, kept" in capsys.readouterr().out
    # Every shipped title (fixtures/declared/) has a setup; some, cooperative or team games, no sheet.
    files = list(KINGDOMINO_FILE.parent.glob("*.json"))
    assert DeclaredSetup.objects.count() == len(files)
    assert DeclaredSheet.objects.count() == sum("score" in json.loads(path.read_text()) for path in files)


def test_the_loader_refuses_a_bad_file_with_its_reasons_and_writes_nothing(tmp_path, capsys):
    data = json.loads(KINGDOMINO_FILE.read_text())
    data["setup"]["steps"][0]["count"] = -3
    (tmp_path / "kingdomino.json").write_text(json.dumps(data))
    (tmp_path / "broken.json").write_text("{not json")
    with pytest.raises(CommandError):
        call_command("load_declared_rules", directory=tmp_path)
    out = capsys.readouterr().out
    assert "kingdomino.json: Étape 1, nombre : Une quantité ne peut pas être négative." in out
    assert "broken.json: JSON illisible" in out
    assert not DeclaredSetup.objects.exists()


def test_a_file_whose_range_differs_from_the_notice_is_refused(kingdomino, tmp_path):
    data = json.loads(KINGDOMINO_FILE.read_text()) | {"players": {"min": 2, "max": 5}}
    path = tmp_path / "kingdomino.json"
    path.write_text(json.dumps(data))
    with pytest.raises(Exception, match="2–4 joueurs, le fichier 2–5"):
        declared_file_load(path)


def test_a_notice_whose_range_changed_keeps_its_page_without_a_broken_calculator(
    declared, kingdomino, client
):
    kingdomino.players_max = 6
    kingdomino.save()
    # 5 and 6 players have no count: no calculator until corrected (the score sheet every title has stays)
    assert game_rules("kingdomino").features == ["score"]
    assert client.get(reverse("rules:setup", args=["kingdomino"])).status_code == 404


def test_saving_twice_keeps_one_declaration(kingdomino):
    setup = json.loads(KINGDOMINO_FILE.read_text())["setup"]
    declared_setup_save(game=kingdomino, definition=setup)
    declared_setup_save(game=kingdomino, definition=setup)
    assert DeclaredSetup.objects.count() == 1 and RulePage.objects.count() == 1


def test_a_declaration_posted_back_unchanged_keeps_every_row(librarian, declared):
    form = librarian.get(declare_url()).context["form"]
    data = {"sources": declared.sources}
    for formset in (form.components, form.steps, form.variants):
        data |= {
            formset.management_form.add_prefix(name): value
            for name, value in formset.management_form.initial.items()
        }
        for row in formset.forms:
            for name in row.fields:
                value = row[name].value()
                if value not in (None, "", []):
                    data[row.add_prefix(name)] = value
    before = DeclaredSetup.objects.get().definition
    assert librarian.post(declare_url(), data).status_code == 302
    assert DeclaredSetup.objects.get().definition["steps"] == before["steps"]


# --- the checkout pack and the demo ----------------------------------------------------------------------


def test_the_checkout_pack_sets_up_a_declared_title_for_the_household(
    client, staff_user, declared, kingdomino
):
    from loans import services
    from tests.loan_helpers import make_copy, make_member
    from tests.pack_helpers import add_household

    family = make_member("M0042", "Camille Martin")
    add_household(family, "Léo", "Inès")  # three with Camille
    services.loan_create(copy=make_copy(kingdomino, "70001"), member=family, staff=staff_user)
    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:checkout-pack", args=[family.pk])))
    assert "Kingdomino — kit de prêt" in page
    assert "Retirez 12 dominos au hasard." in page  # three players
    assert "Chaque joueur prend 1 rois de sa couleur." in page


def test_an_incomplete_copy_of_a_declared_title_gets_the_table_its_pieces_allow(
    client, staff_user, declared, kingdomino
):
    from loans import services
    from tests.loan_helpers import make_member
    from tests.pack_helpers import add_household, make_incomplete_copy

    earlier = make_member("M0041", "Famille Précédente")
    copy = make_incomplete_copy(
        kingdomino, "70002", missing=[("dominos", 3)], member=earlier, staff=staff_user
    )
    assert "Incomplet jouable : règle de base, 2 à 3 joueurs" in text_of(
        client.get(kingdomino.get_absolute_url())
    )
    family = make_member("M0043", "Dominique Roy")
    add_household(family, "A", "B", "C")  # four: 45 dominoes are not enough, three players are
    services.loan_create(copy=copy, member=family, staff=staff_user, lend_incomplete=True)
    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:checkout-pack", args=[family.pk])))
    assert "Exemplaire incomplet — jouable" in page
    assert "Retirez 12 dominos au hasard." in page  # set up for three, the nearest table it allows


def test_the_demo_declares_the_setup_of_6_qui_prend_with_its_tactical_variant(db):
    from django.core.management.base import OutputWrapper

    from rules.declared import demo

    Game.objects.create(
        title="Les Aventuriers du Rail", slug="les-aventuriers-du-rail", players_min=2, players_max=5
    )
    Game.objects.create(title="6 qui prend !", slug="6-qui-prend", players_min=2, players_max=10)
    out = OutputWrapper(open("/dev/null", "w"))  # noqa: SIM115 - the demo's report is not the point here
    demo.load(stdout=out)
    demo.load(stdout=out)  # safe to run again
    rules = game_rules("6-qui-prend")
    assert rules.features == ["setup", "score"]
    assert rules.run_setup({"players": "10"}).values["cards"] == 104
    tactical = rules.run_setup({"players": "3", "variants": "tactique"})
    assert (tactical.values["cards"], tactical.values["cards_removed"]) == (34, 70)
    # 6 qui prend ! and the titles the demo loads from fixtures/declared/, once each.
    assert DeclaredSetup.objects.count() == 1 + len(demo.DEMO_FILES)


def test_the_rules_page_editor_links_to_declaring_the_setup(librarian, declared, kingdomino):
    page = librarian.get(reverse("rules:page-edit", args=["kingdomino"])).content.decode()
    assert f'href="{declare_url()}"' in page and "Modifier la mise en place déclarée" in page


def test_the_rules_page_and_the_index_show_the_declared_calculator(client, declared):
    page = text_of(client.get(reverse("rules:page-detail", args=["kingdomino"])))
    assert (
        "Calculer la mise en place" in page and "Retirez 12 dominos au hasard." in page
    )  # three players first
    index = client.get(reverse("rules:page-list")).content.decode()
    assert reverse("rules:page-detail", args=["kingdomino"]) in index


def test_saving_the_setup_keeps_a_piece_marked_accessory_in_the_admin(librarian, declared, kingdomino):
    rule_book = Component.objects.create(
        game=kingdomino, position=3, quantity=1, label="règle", rules_key="accessory"
    )
    assert librarian.post(declare_url(), declaration()).status_code == 302
    rule_book.refresh_from_db()
    assert rule_book.rules_key == "accessory"
    assert kingdomino.components.get(label="dominos").rules_key == ""  # unticked on the page: unlinked


def test_more_rows_keeps_what_was_typed_and_saves_nothing(librarian, kingdomino):
    response = librarian.post(declare_url(), declaration() | {"more": ""})
    assert response.status_code == 200
    form = response.context["form"]
    assert len(form.steps.forms) == len(STEPS) + 4 and len(form.components.forms) == len(COMPONENTS) + 4
    assert 'value="2: 24, 3: 12, 4: 0"' in response.content.decode()
    assert not DeclaredSetup.objects.exists()
