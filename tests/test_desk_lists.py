"""The back-office lists: overdue loans, holds to hand over, incomplete copies, and the statistics."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import dateformat, timezone

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan
from tests.loan_helpers import make_copy, make_desk_world, make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(staff_user):
    return make_desk_world(staff_user)


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def add_activity(staff_user, count: int) -> None:
    """More families with late loans, ready holds and incomplete copies."""
    for i in range(count):
        game = make_game(f"Jeu {i}", pieces=[(10, "cartes")])
        member = make_member(f"X{i}", f"Famille {i}")
        loan = services.loan_create(copy=make_copy(game, f"L{i}"), member=member, staff=staff_user)
        Loan.objects.filter(pk=loan.pk).update(due_on=timezone.localdate() - datetime.timedelta(days=i + 1))
        broken = services.loan_create(copy=make_copy(game, f"B{i}"), member=member, staff=staff_user)
        services.loan_return(loan=broken, staff=staff_user, missing=[(game.components.get(), 1)])
        make_copy(game, f"H{i}")
        services.hold_create(game=game, member=make_member(f"Y{i}"), staff=staff_user)


def queries_for(client, url: str) -> int:
    with CaptureQueriesContext(connection) as queries:
        assert client.get(url).status_code == 200
    return len(queries)


def test_the_overdue_list_gives_each_familys_contact(desk, world):
    html = desk.get(reverse("loans:overdue-list")).content.decode()
    assert "Alex Tartempion" in html and "0470 00 00 01" in html and "tartempion@example.org" in html
    assert "Quarto (90468)" in html
    assert "Les colons de Catane" not in html  # not late
    assert '<td class="numeric">4</td>' in html


def test_the_hold_list_shows_the_copies_to_hand_over(desk, world):
    html = desk.get(reverse("loans:hold-list")).content.decode()
    assert "Quarto (90408)" in html and "Sam Bidule" in html
    assert "Clore : non retirée" not in html


def test_a_hold_past_its_pickup_date_can_be_closed_from_the_list(desk, world):
    Hold.objects.filter(pk=world["ready"].pk).update(
        ready_until=timezone.localdate() - datetime.timedelta(days=1)
    )
    html = desk.get(reverse("loans:hold-list")).content.decode()
    assert "délai dépassé" in html
    response = desk.post(
        reverse("loans:hold-expire", args=[world["ready"].pk]), {"next": reverse("loans:hold-list")}
    )
    assert response["Location"] == reverse("loans:hold-list")
    world["ready"].refresh_from_db()
    assert world["ready"].status == Hold.Status.EXPIRED
    assert Copy.objects.available().filter(barcode="90408").exists()


def test_expiring_a_hold_in_time_is_refused_with_a_message(desk, world):
    response = desk.post(reverse("loans:hold-expire", args=[world["ready"].pk]), follow=True)
    assert "délai de retrait est dépassé peut expirer" in response.content.decode()
    world["ready"].refresh_from_db()
    assert world["ready"].status == Hold.Status.READY


def test_cancelling_a_hold_from_the_list(desk, world):
    response = desk.post(
        reverse("loans:hold-cancel", args=[world["ready"].pk]), {"next": "https://evil.example/"}
    )
    assert response["Location"] == reverse("loans:member-detail", args=[world["bidule"].pk])
    world["ready"].refresh_from_db()
    assert world["ready"].status == Hold.Status.CANCELLED


def test_the_incomplete_list_shows_the_missing_pieces_and_who_returned_them(desk, world):
    html = desk.get(reverse("loans:incomplete-list")).content.decode()
    assert "Biblios" in html and "90901" in html
    assert "2 × dés à six faces" in html and "Sam Bidule" in html


def test_a_piece_brought_back_puts_the_copy_back_on_the_shelf(desk, world):
    response = desk.post(
        reverse("loans:missing-piece-recover", args=[world["missing_piece"].pk]), follow=True
    )
    assert "de retour dans « Biblios » (90901)" in response.content.decode()
    assert Copy.objects.get(barcode="90901").status == Copy.Status.ON_SHELF
    assert "Tous les jeux sont complets." in desk.get(reverse("loans:incomplete-list")).content.decode()


def test_the_stats_count_loans_per_month_most_lent_and_never_lent_games(desk, world, staff_user):
    make_copy(make_game("Luxor"), "55555")
    services.loan_return(loan=world["current"], staff=staff_user)
    services.loan_create(copy=world["current"].copy, member=world["bidule"], staff=staff_user)

    html = desk.get(reverse("loans:stats")).content.decode()

    assert "4 prêts depuis" in html
    rows = html.split("<tbody>")[1].split("</tbody>")[0].split("<tr>")[1:]
    assert len(rows) == 12
    this_month = dateformat.format(timezone.localdate(), "F Y")
    assert f"<td>{this_month}</td>" in rows[-1] and '<td class="numeric">4</td>' in rows[-1]
    top = html.split("Jeux les plus prêtés")[1].split("Jeux jamais prêtés")[0]
    assert top.index("Les colons de Catane") < top.index("Biblios")
    assert "— 2 prêts" in top and "Luxor" not in top
    assert "Luxor" in html.split("Jeux jamais prêtés")[1]


def test_the_desk_summary_counts_what_needs_attention(desk, world):
    html = desk.get(reverse("loans:desk")).content.decode()
    assert '<p class="big-number late">1</p>' in html


@pytest.mark.parametrize("name", ["overdue-list", "hold-list", "incomplete-list", "stats", "desk"])
def test_list_pages_cost_the_same_queries_with_more_rows(desk, world, staff_user, name):
    url = reverse(f"loans:{name}")
    desk.get(url)
    few = queries_for(desk, url)
    add_activity(staff_user, 5)
    assert queries_for(desk, url) == few
    assert few <= 8
