"""The checkout pack printed by a real browser (issue 14, "Done when").

A family of four borrows three games today: La chasse aux monstres from an incomplete copy (6 of its
20 monster cards missing, still playable as a short game — seed 004), Biblios (coded rules) and a game
without rules. The clerk clicks « Imprimer le kit »; Debian's Chromium prints it to PDF, read back with
poppler-utils (`pdfinfo`, `pdftotext`): one print job, the loan slip then at most 2 A4 pages per game,
the household's player count on each game with rules, the missing pieces listed.
"""

import re
import subprocess

import pytest

from loans import services
from rules.models import RulePage
from tests.loan_helpers import make_copy, make_game, make_member
from tests.pack_helpers import add_household, make_chasse, make_incomplete_copy


def pdf_pages(path) -> list[str]:
    """The text of each page of a PDF, as poppler's pdftotext reads it (form feeds between pages)."""
    info = subprocess.run(["pdfinfo", str(path)], capture_output=True, text=True, check=True).stdout
    count = int(re.search(r"^Pages:\s+(\d+)$", info, re.MULTILINE).group(1))
    assert re.search(r"^Page size:.*\(A4\)$", info, re.MULTILINE), info
    text = subprocess.run(
        ["pdftotext", "-layout", str(path), "-"], capture_output=True, text=True, check=True
    ).stdout
    pages = text.split("\f")
    pages = pages[:count]
    assert len(pages) == count
    return [" ".join(page.split()) for page in pages]


def pages_of(pages: list[str], title: str) -> list[str]:
    """The pages of one game: from its heading to the next game's."""
    starts = [index for index, page in enumerate(pages) if "— kit de prêt" in page]
    first = next(index for index in starts if f"{title} — kit de prêt" in pages[index])
    after = next((index for index in starts if index > first), len(pages))
    return pages[first:after]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_checkout_pack_prints_each_game_on_at_most_two_a4_pages(page, live_server, staff_user, tmp_path):
    chasse = make_chasse()
    earlier = make_member("M0009", "Famille Précédente")
    incomplete = make_incomplete_copy(
        chasse, "91684", missing=[("cartes monstres", 6)], member=earlier, staff=staff_user
    )
    biblios = make_game("Biblios", pieces=[(1, "plateau de valeurs"), (5, "dés à six faces"), (87, "cartes")])
    RulePage.objects.create(slug="biblios", title="Biblios", game=biblios)
    dixit = make_game("Dixit", pieces=[(84, "cartes illustrées"), (6, "lapins de bois")])
    dixit.summary = "Un jeu d'imagination : chacun à son tour raconte une de ses cartes."
    dixit.save()
    family = make_member("M0003", "Charlie Machin")
    add_household(family, "Léa", "Tom", "Zoé")
    services.loan_create(copy=incomplete, member=family, staff=staff_user, lend_incomplete=True)
    services.loan_create(copy=make_copy(biblios, "90901"), member=family, staff=staff_user)
    services.loan_create(copy=make_copy(dixit, "92001"), member=family, staff=staff_user)

    page.goto(f"{live_server.url}/comptoir/familles/{family.pk}/")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    with page.expect_navigation():
        page.click("text=Imprimer le kit")
    assert page.locator("h1").nth(1).inner_text() == "La chasse aux monstres — kit de prêt"
    page.emulate_media(media="print")
    path = tmp_path / "kit.pdf"
    page.pdf(path=str(path), format="A4", prefer_css_page_size=True)

    pages = pdf_pages(path)
    assert len(pages) <= 1 + 2 * 3
    chasse_pages = pages_of(pages, "La chasse aux monstres")
    biblios_pages = pages_of(pages, "Biblios")
    dixit_pages = pages_of(pages, "Dixit")
    assert len(chasse_pages) <= 2 and len(biblios_pages) <= 2 and len(dixit_pages) <= 2
    # The loan slip first, then the games' pages.
    assert "Fiche de prêt — Charlie Machin" in pages[0]
    assert 1 + len(chasse_pages) + len(biblios_pages) + len(dixit_pages) == len(pages)

    chasse_text = " ".join(chasse_pages)
    assert "4 joueurs (parties courtes)" in chasse_text  # the household of four
    assert "jouable : parties courtes" in chasse_text
    assert "formez une pile de 10 cartes" in chasse_text  # the short game's setup
    # The checklist: the piece with its known missing count (the label may wrap in its cell).
    assert "cartes monstres (avec un enfant" in chasse_text and "6 manquantes" in chasse_text

    biblios_text = " ".join(biblios_pages)
    assert "4 joueurs" in biblios_text and "Retirez sans les regarder 7 cartes au hasard" in biblios_text
    assert "Feuille de score" in biblios_text and "Rang" in biblios_text

    dixit_text = " ".join(dixit_pages)
    assert "84 × cartes illustrées" in dixit_text and "Un jeu d'imagination" in dixit_text


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_every_coded_game_fits_two_pages_at_a_table_of_seven(page, live_server, staff_user, tmp_path):
    """A family of seven borrows the 14 coded games, each with its whole box as its piece list."""
    from catalogue.models import Component
    from rules.engine import render
    from rules.games import all_games, components_of
    from tests.loan_helpers import make_membership_type

    family = make_member("M0007", "Famille Nombreuse", membership_type=make_membership_type(loan_quota=20))
    add_household(family, "Ana", "Ben", "Cléo", "Dan", "Eva", "Fil")
    titles = []
    for index, rules in enumerate(all_games()):
        game = make_game(rules.title)
        Component.objects.bulk_create(
            Component(
                game=game,
                position=position,
                quantity=piece.in_box,
                label=render(piece.name),
                rules_key=piece.key,
            )
            for position, piece in enumerate(components_of(rules).pieces)
        )
        RulePage.objects.create(slug=rules.slug, title=rules.title, game=game)
        services.loan_create(copy=make_copy(game, f"9{index:04d}"), member=family, staff=staff_user)
        titles.append(rules.title)

    page.goto(f"{live_server.url}/comptoir/familles/{family.pk}/kit/")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    page.emulate_media(media="print")
    path = tmp_path / "kit.pdf"
    page.pdf(path=str(path), format="A4", prefer_css_page_size=True)

    pages = pdf_pages(path)
    counts = {title: len(pages_of(pages, title)) for title in titles}
    assert len(pages) <= 1 + 2 * len(titles), counts
    for title in titles:
        own = pages_of(pages, title)
        assert 1 <= len(own) <= 2, (title, len(own))
        players = min(7, next(game for game in all_games() if game.title == title).players.highest)
        assert f"{players} joueurs" in own[0], title
