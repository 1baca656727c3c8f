"""The desk's statistics (/comptoir/statistiques/): « jamais prêtés » lists only titles that have a copy
and were never lent; titles without any copy are counted apart."""

import pytest
from django.urls import reverse

from loans import services
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def catalogue(staff_user):
    """Five titles: one lent (and back), one out now, two never lent, one without any copy."""
    family = make_member("M0001")
    lent = make_copy(make_game("Quarto"), "90468")
    loan = services.loan_create(copy=lent, member=family, staff=staff_user)
    services.loan_return(loan=loan, staff=staff_user)
    services.loan_create(
        copy=make_copy(make_game("Les colons de Catane"), "90461"), member=family, staff=staff_user
    )
    luxor = make_game("Luxor")
    make_copy(luxor, "55555")
    make_copy(luxor, "55556")
    make_copy(make_game("Biblios"), "90901", status="withdrawn")
    make_game("Alhambra")  # in the catalogue, no copy


def section(page: str, start: str, end: str | None = None) -> str:
    text = page.split(start, 1)[1]
    return text.split(end, 1)[0] if end else text


def test_never_lent_lists_only_titles_with_a_copy_never_lent(desk, catalogue):
    page = text_of(desk.get(reverse("loans:stats")))
    never = section(page, "Jeux jamais prêtés", "Titres sans exemplaire")
    assert "Luxor (2 exemplaires)" in never and "Biblios (1 exemplaire)" in never
    assert "Quarto" not in never and "Les colons de Catane" not in never and "Alhambra" not in never


def test_titles_without_copies_are_counted_apart(desk, catalogue):
    page = text_of(desk.get(reverse("loans:stats")))
    assert (
        "5 titres au catalogue : 2 avec un exemplaire mais jamais prêtés, 1 sans aucun exemplaire, compté à part."
        in page
    )
    assert "Alhambra" in section(page, "Titres sans exemplaire")


def test_when_every_title_with_a_copy_was_lent_the_page_says_so_and_still_counts_the_others(desk, staff_user):
    family = make_member("M0001")
    services.loan_create(copy=make_copy(make_game("Quarto"), "90468"), member=family, staff=staff_user)
    make_game("Alhambra")
    page = text_of(desk.get(reverse("loans:stats")))
    assert "Chaque jeu qui a un exemplaire a déjà été prêté au moins une fois." in page
    assert "1 sans aucun exemplaire, compté à part" in page and "Alhambra" in page


def test_an_empty_catalogue_has_nothing_never_lent(desk):
    page = text_of(desk.get(reverse("loans:stats")))
    assert "0 titre au catalogue" in page and "Titres sans exemplaire" not in page
