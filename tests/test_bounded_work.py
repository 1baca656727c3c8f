"""No input ties up a worker: rules markup, revision diffs, score sheets and PMB pages cost what a real
one does, and the size of what they accept is capped with a clear message.

Each time budget compares a tricky input with a plain one of the same size, timed in the same test
(tests/timing.py): the tricky ones took minutes before the fixes, hundreds of times the plain ones.
"""

import json

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse

from catalogue.pmb import parse_page, split_tags
from rules.engine import ScoredPlayer, rank
from rules.engine.game import PlayerRange
from rules.models import LOADER_AUTHOR, REVISION_MAX_LENGTH, Revision, RulePage
from rules.pages.bounds import MAX_CELL_SEPARATORS, MAX_LINES, MAX_SECTIONS
from rules.pages.diff import DIFF_MAX_ROWS, TooDifferent, diff_rows, matching_blocks
from rules.pages.markup import split_sections, to_html
from rules.pages.services import revision_create
from rules.pages.wiki_import import contributions_parse
from tests.conftest import text_of
from tests.timing import assert_about_as_fast, assert_linear

# --- rules markup -----------------------------------------------------------------------------------


def test_table_cells_with_many_attribute_like_words_render_as_fast_as_plain_ones():
    # The red team's line, `| a=` + `bc=`×24 + `" | x`, took 34 s; with 14 repetitions, 1 s per cell.
    tricky_cell = "| a=" + "bc=" * 14 + '" | x'
    plain_cell = '| a="b" | ' + "x" * (len(tricky_cell) - 10)
    tricky = "{|\n" + (tricky_cell + "\n|-\n") * 50 + "|}"
    plain = "{|\n" + (plain_cell + "\n|-\n") * 50 + "|}"
    assert_about_as_fast(to_html, tricky, plain)


def test_cell_attributes_keep_colspan_rowspan_and_scope_only():
    html = to_html('{|\n! scope="col" style="color:red" | A\n|-\n| colspan="2" onclick=x | B\n|}')
    assert '<th scope="col">A</th>' in html
    assert '<td colspan="2">B</td>' in html
    assert "onclick" not in html and "color" not in html


def test_an_external_link_followed_by_a_long_run_of_blanks_renders_as_fast_as_plain_text():
    tricky = "[https://example.org" + " " * 20_000 + "x"
    plain = "https://example.org" + " x" * 10_000
    assert_about_as_fast(to_html, tricky, plain)
    assert to_html("[https://example.org   un lien]") == (
        '<p><a href="https://example.org" rel="nofollow noopener" class="external">un lien</a></p>'
    )


def test_a_page_of_many_sections_with_the_same_title_is_cut_as_fast_as_one_of_distinct_titles():
    same = "== Variante ==\nx\n" * 8000
    distinct = "".join(f"== V{number:07d} ==\nx\n" for number in range(8000))
    assert_about_as_fast(split_sections, same, distinct, ratio=4)
    anchors = [section.anchor for section in split_sections(same)]
    assert anchors[:3] == ["variante", "variante-2", "variante-3"] and len(set(anchors)) == 8000


@pytest.mark.parametrize(
    "unit",
    [
        "| a=bc=" * 3 + "\n",  # attribute-like words
        "[https://a.b" + " " * 7,  # an unclosed link and blanks
        "=a" + "=" * 7 + " ",  # heading signs
        "<li>" + "</li " * 3,  # list items
        "[[a|" + "|" * 5,  # internal links
        "''a'''" * 3,  # quotes
    ],
)
def test_rendering_grows_linearly_with_the_text(unit):
    assert_linear(to_html, lambda count: unit * count, 500)


# --- revisions: size and stored rendering -------------------------------------------------------------


@pytest.fixture
def page(db) -> RulePage:
    page = RulePage.objects.create(slug="biblios", title="Biblios")
    Revision.objects.create(
        page=page, number=1, author_name=LOADER_AUTHOR, content="== But du jeu ==\nLire.\n"
    )
    return page


def test_a_text_longer_than_a_revision_holds_is_refused_on_the_form_and_kept(client, page, staff_user):
    client.force_login(staff_user)
    long_text = "== But du jeu ==\n" + "a" * REVISION_MAX_LENGTH
    response = client.post(
        reverse("rules:page-edit", args=[page.slug]),
        {"content": long_text, "summary": "Tout", "base_number": 1},
    )
    assert response.status_code == 400
    assert (
        f"Une version tient en 100000 caractères au plus ; ce texte en compte {len(long_text)}."
        in text_of(response)
    )
    assert response.context["form"]["content"].value() == long_text
    assert page.revisions.count() == 1


def test_the_database_refuses_a_revision_longer_than_the_limit(page):
    with pytest.raises(IntegrityError, match="rules_revision_content_max_length"), transaction.atomic():
        Revision.objects.create(
            page=page, number=2, author_name=LOADER_AUTHOR, content="a" * (REVISION_MAX_LENGTH + 1)
        )


def test_a_revision_is_rendered_once_when_saved_and_shown_as_stored(client, page):
    revision = page.revisions.get()
    assert revision.sections == [
        {"kind": "goal", "title": "But du jeu", "body_html": "<p>Lire.</p>", "anchor": "but-du-jeu"}
    ]
    # The pages read what was stored (a renderer change re-renders in a migration, not per view).
    stored = [
        {"kind": "goal", "title": "But du jeu", "body_html": "<p>Rendu enregistré.</p>", "anchor": "but"}
    ]
    Revision.objects.filter(pk=revision.pk).update(sections=stored)
    assert "Rendu enregistré." in text_of(client.get(reverse("rules:page-detail", args=[page.slug])))
    assert "Rendu enregistré." in text_of(client.get(revision.get_absolute_url()))
    assert client.get("/api/rules/biblios/").json()["sections"][0]["body_html"] == "<p>Rendu enregistré.</p>"


# --- revision diffs ----------------------------------------------------------------------------------


def test_two_versions_of_repeated_lines_are_compared_quickly():
    # difflib took over 30 s on these two 4 KB texts (75,000 times a one-line change): the shortest
    # edit script, 1,000 deletions and 1,000 insertions, costs a few hundred times that one now.
    old, new = ["x"] * 2000, ["x", "y"] * 1000
    assert_about_as_fast(lambda pair: matching_blocks(*pair), (old, new), (old, ["z", *old[1:]]), ratio=1000)
    # The 1,000 lines "x" of the new version matched, the 1,000 lines "y" inserted.
    assert sum(block.size for block in matching_blocks(old, new)) == 1000


def test_versions_too_different_to_compare_get_the_message(client, page):
    tangled_old = "x\ny\nx\n" * 700
    tangled_new = "y\nx\ny\n" * 700
    with pytest.raises(TooDifferent):
        diff_rows(tangled_old, tangled_new)
    Revision.objects.create(page=page, number=2, author_name=LOADER_AUTHOR, content=tangled_old)
    Revision.objects.create(page=page, number=3, author_name=LOADER_AUTHOR, content=tangled_new)
    response = client.get(reverse("rules:diff", args=[page.slug]), {"de": 2, "a": 3})
    assert response.status_code == 200
    assert "Révisions trop différentes pour être comparées ligne à ligne." in text_of(response)
    assert "Lisez la version 2 puis la version 3" in text_of(response)


def test_a_rewritten_page_is_compared_as_every_line_replaced():
    old = "\n".join(f"ancienne ligne {number}" for number in range(DIFF_MAX_ROWS))
    new = "\n".join(f"nouvelle ligne {number}" for number in range(DIFF_MAX_ROWS))
    rows = diff_rows(old, new)
    assert len(rows) == DIFF_MAX_ROWS and all(row.kind == "replace" for row in rows)


def test_two_versions_changed_in_more_lines_than_the_table_shows_get_the_message(client, page):
    """8,000 lines, every other one changed: a table of thousands of rows took its page seconds to draw."""
    old = "\n".join(f"ligne {number}" for number in range(8_000))
    new = "\n".join(f"ligne {number}" if number % 2 else "x" for number in range(8_000))
    with pytest.raises(TooDifferent):
        diff_rows(old, new)
    with pytest.raises(TooDifferent):
        diff_rows("a\n" * (DIFF_MAX_ROWS + 1), "b\n" * (DIFF_MAX_ROWS + 1))
    # Saved before the limits on a revision's lines (the database holds them as they are).
    Revision.objects.create(page=page, number=2, author_name=LOADER_AUTHOR, content=old, sections=[])
    Revision.objects.create(page=page, number=3, author_name=LOADER_AUTHOR, content=new, sections=[])
    response = client.get(reverse("rules:diff", args=[page.slug]), {"de": 2, "a": 3})
    assert response.status_code == 200
    assert "Révisions trop différentes pour être comparées ligne à ligne." in text_of(response)
    assert '<tr class="diff-' not in response.content.decode()


# --- revisions: lines and sections --------------------------------------------------------------------


def save(client, page, content: str):
    return client.post(
        reverse("rules:page-edit", args=[page.slug]),
        {"content": content, "summary": "Tout", "base_number": 1},
    )


def test_a_text_of_more_lines_than_a_revision_holds_is_refused_on_the_form(client, page, staff_user):
    client.force_login(staff_user)
    response = save(client, page, "\n:" * 50_000)  # 100 KB of lines, seconds to render before the limit
    assert response.status_code == 400
    assert (
        f"Une version compte {MAX_LINES} lignes au plus ; ce texte en compte 50000. Regroupez des lignes"
        in text_of(response)
    )
    assert page.revisions.count() == 1
    assert save(client, page, "== But du jeu ==\n" + "Lire.\n" * (MAX_LINES - 2)).status_code == 302


def test_a_text_of_more_sections_than_a_revision_holds_is_refused_on_the_form(client, page, staff_user):
    client.force_login(staff_user)
    response = save(client, page, "== a ==\n" * 2000)
    assert response.status_code == 400
    assert (
        f"Une version compte {MAX_SECTIONS} sections au plus (titres « == … == ») ; ce texte en compte 2000."
        in text_of(response)
    )
    assert page.revisions.count() == 1
    with pytest.raises(ValidationError, match="sections au plus"):
        revision_create(page=page, content="== a ==\n" * 2000, summary="", author=staff_user, base_number=1)


def test_a_table_of_more_cells_on_a_line_than_a_revision_holds_is_refused_on_the_form(
    client, page, staff_user
):
    client.force_login(staff_user)
    response = save(client, page, "{|\n|" + "a||" * 33_000 + "\n|}")  # 100 KB, 33,000 cells on one line
    assert response.status_code == 400
    assert (
        f"Une version compte {MAX_CELL_SEPARATORS} cellules de tableau sur une même ligne (« || », « !! ») au plus ; "
        "ce texte en compte 33000." in text_of(response)
    )
    assert page.revisions.count() == 1


def test_a_revision_saved_before_the_limits_shows_at_most_its_last_sections_folded(client, page):
    """12,500 sections of one line: the page took 4 to 11 s to draw, for anyone, every time."""
    sections = [
        {
            "kind": "other",
            "title": f"Titre {number}",
            "body_html": f"<p>Corps {number}</p>",
            "anchor": f"t{number}",
        }
        for number in range(12_500)
    ]
    Revision.objects.create(page=page, number=2, author_name=LOADER_AUTHOR, content="x", sections=sections)
    html = client.get(reverse("rules:page-detail", args=[page.slug])).content.decode()
    assert html.count('<section class="rules-section') <= MAX_SECTIONS + 1  # and the page's tools
    assert html.count('<li><a href="#t') == MAX_SECTIONS
    # Nothing is lost: the last ones are sub-headings of the hundredth.
    assert "<p>Corps 12499</p>" in html and '<h3 id="t12499">Titre 12499</h3>' in html
    assert len(client.get("/api/rules/biblios/").json()["sections"]) == MAX_SECTIONS


# --- score sheets -----------------------------------------------------------------------------------


def martians(count: int) -> dict:
    return {"players": [{"name": f"Martien {number}", "turns": []} for number in range(count)]}


def score(client, slug: str, body: dict):
    return client.post(f"/api/rules/{slug}/score/", json.dumps(body), content_type="application/json")


@pytest.mark.django_db
def test_martian_dice_is_scored_for_twenty_players_and_refused_for_twenty_one(client):
    assert score(client, "martian-dice", martians(20)).status_code == 200
    response = score(client, "martian-dice", martians(21))
    assert response.status_code == 400
    assert response.json() == {"players": ["Le moteur de règles compte au plus 20 joueurs par partie."]}


@pytest.mark.django_db
def test_two_thousand_players_are_refused_at_once(client):
    response = score(client, "martian-dice", martians(2000))
    assert response.status_code == 400
    assert response.json() == {"players": ["Le moteur de règles compte au plus 20 joueurs par partie."]}


def test_a_game_without_a_maximum_takes_at_most_twenty_players():
    assert 20 in PlayerRange(2, None) and 21 not in PlayerRange(2, None)
    assert 20 in PlayerRange(2, 99) and 21 not in PlayerRange(2, 99)
    assert 6 in PlayerRange(3, 6) and 7 not in PlayerRange(3, 6)


def test_the_score_schema_says_twenty_players_at_most():
    from rules.games import get_game

    assert get_game("martian-dice").score_schema()["properties"]["players"]["maxItems"] == 20


def test_ranking_grows_like_n_log_n():
    def players(count: int) -> list[ScoredPlayer]:
        return [ScoredPlayer(name=f"J{number}", breakdown={"points": number % 7}) for number in range(count)]

    assert_linear(rank, players, 500)


def test_ranking_shares_ranks_between_equal_totals():
    scored = [
        ScoredPlayer(name=name, breakdown={"points": points})
        for name, points in [("A", 5), ("B", 9), ("C", 5)]
    ]
    assert rank(scored).ranks == {"B": 1, "A": 2, "C": 2}


@pytest.mark.django_db
def test_more_than_twenty_variants_are_refused(client):
    body = {"variants": ["river"] * 21, "players": [{"name": "Ada"}]}
    response = score(client, "railroad-ink", body)
    assert response.status_code == 400
    assert response.json()["variants"] == ["Indiquez au plus 20 variantes."]


@pytest.mark.django_db
def test_a_list_without_a_declared_maximum_holds_a_hundred_items(client):
    from rules.engine import Integer, ListOf
    from rules.engine.fields import InvalidInput

    numbers = ListOf("numbers", "Nombres", item=Integer("n", "n"))
    errors: dict = {}
    assert numbers.clean(list(range(100)), "numbers", errors) == list(range(100))
    assert numbers.clean(list(range(101)), "numbers", errors) is None
    assert [str(message) for message in errors["numbers"]] == ["Il faut au plus 100 éléments."]
    assert numbers.schema()["maxItems"] == 100
    assert InvalidInput(errors).errors == errors


@pytest.mark.django_db
def test_an_answer_names_fifty_errors_at_most(client):
    body = {
        "players": [{"name": f"J{number}", **{f"champ{key}": 1 for key in range(30)}} for number in range(4)]
    }
    response = score(client, "the-builders", body)
    assert response.status_code == 400
    messages = [message for messages in response.json().values() for message in messages]
    assert len(messages) == 51
    assert response.json()["non_field_errors"] == ["… et 70 autres erreurs."]  # 4 × 30 unknown fields


# --- PMB pages and wiki contributions --------------------------------------------------------------

COPIES = "Titre : Quarto\nExemplaires (1)\nCote Section Localisation Code-barres Disponibilité "


@pytest.mark.parametrize(
    "make_page",
    [
        pytest.param(lambda count: COPIES + "TEU A 410 jeu " * count, id="copy-row-without-availability"),
        pytest.param(lambda count: COPIES + "a " * count + "Disponible", id="copy-row-of-words"),
        pytest.param(lambda count: "Titre : X\nLangues : " + "a" * count, id="language-without-code"),
        pytest.param(lambda count: "Titre : X\nPrincipe du jeu : a" + " \t" * count + "b", id="inner-blanks"),
        pytest.param(lambda count: "Titre : X\nContenu : 1 pion" + " " * count + "x", id="contents-blanks"),
        pytest.param(lambda count: "Titre : X\nContenu : 1 pion" + ", 2 dés et" * count, id="contents-items"),
        pytest.param(lambda count: "Titre : a\nType de document : " + "a[" * count, id="isbd-brackets"),
        pytest.param(lambda count: "Titre : X\nCatégories : A 406 " + "x " * count + "(", id="category"),
        pytest.param(lambda count: "Titre : X\n" * count, id="many-notices"),
    ],
)
def test_reading_a_pmb_page_grows_linearly_with_the_page(make_page):
    assert_linear(parse_page, make_page, 400)


def test_separating_tags_grows_linearly_with_their_number():
    assert_linear(split_tags, lambda count: "Jeux à deux Placement " * count, 400)
    assert split_tags("Jeux à deux Placement Economie") == ["Jeux à deux", "Placement", "Economie"]


def test_a_pmb_copy_row_is_still_read_whole():
    page = parse_page(COPIES + "TEU A 410 jeu de langue Maison des Enfants 90461 Disponible")
    (copy,) = page.notices[0].copies
    assert (
        copy.cote,
        copy.section.code,
        copy.section.label,
        copy.location,
        copy.barcode,
        copy.availability,
    ) == (
        "TEU",
        "A 410",
        "jeu de langue",
        "Maison des Enfants",
        "90461",
        "Disponible",
    )


def test_reading_wiki_contributions_grows_linearly_with_the_file():
    entry = "Gamehelpquarto\n2020-11-25T11:20:43Z\nBourjn : Ajout\ntexte\n"
    assert_linear(contributions_parse, lambda count: entry * count, 200)
    # A contributor's line of blanks without the colon: every split of the blanks was tried.
    assert_linear(contributions_parse, lambda count: entry + entry.replace(" :", " " * count), 500)
