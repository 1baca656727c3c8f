"""Stocktake (inventaire): scan every box, see at once what is wrong, close, mark the missing lost.

The four outcomes of the issue: missing (expected on the shelf, not scanned, loans excluded),
misplaced (scanned here, recorded on another site), unexpected (unknown barcode, or a status saying
the copy is not on a shelf), and a copy still recorded on loan.
"""

import datetime

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy, Location
from inventory import services
from inventory.models import Scan, Stocktake, StocktakeChange
from loans.models import Hold
from tests.conftest import text_of
from tests.search_helpers import family, lend, make_copy, make_game, site
from tests.test_loan_concurrency import run_at_once


@pytest.fixture
def shelves(db):
    """Maison des Enfants: Catane, Quarto ×2, Biblios (lost), Dixit (on loan); the Ludobus: K2."""
    catane, quarto = make_game("Les colons de Catane"), make_game("Quarto")
    copies = {
        "catane": make_copy(catane, "90461"),
        "quarto": make_copy(quarto, "90468"),
        "quarto-2": make_copy(quarto, "90408"),
        "biblios": make_copy(make_game("Biblios"), "90901", status=Copy.Status.LOST),
        "dixit": make_copy(make_game("Dixit"), "91001"),
        "k2": make_copy(make_game("K2"), "91500", where="Ludobus"),
        "repair": make_copy(make_game("Luxor"), "91600", status=Copy.Status.IN_REPAIR),
    }
    lend(copies["dixit"])
    return copies


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    return client


def start(client, where: Location | None) -> Stocktake:
    response = client.post(reverse("inventory:stocktake-list"), {"localisation": where.pk if where else ""})
    assert response.status_code == 302
    return Stocktake.objects.get(pk=response.url.rstrip("/").rsplit("/", 1)[1])


def scan(client, stocktake: Stocktake, barcode: str) -> str:
    """Scan as a scanner does (the code, then Enter), and read the message shown after the redirect."""
    response = client.post(stocktake.get_absolute_url(), {"barcode": barcode}, follow=True)
    assert response.status_code == 200
    return " ".join(str(message) for message in response.context["messages"])


def test_each_scan_says_at_once_what_the_box_in_hand_is(librarian, shelves):
    stocktake = start(librarian, site("Maison des Enfants"))
    assert scan(librarian, stocktake, "90461") == "« Les colons de Catane » (90461) : en place."
    assert scan(librarian, stocktake, "91500") == "« K2 » (91500) appartient au site Ludobus."
    assert (
        scan(librarian, stocktake, "99999")
        == "99999 : code-barres inconnu du catalogue, mettez la boîte de côté."
    )
    assert scan(librarian, stocktake, "91001") == (
        "« Dixit » (91001) est encore enregistré en prêt : passez-le au retour."
    )
    assert scan(librarian, stocktake, "90901") == "« Biblios » (90901) a le statut « Perdu »."
    assert scan(librarian, stocktake, "90461") == "« Les colons de Catane » (90461) : en place. (déjà scanné)"


def test_the_page_shows_progress_and_a_repeated_scan_counts_once(librarian, shelves):
    stocktake = start(librarian, site("Maison des Enfants"))
    for barcode in ("90461", "90461", "90468", "91500"):
        scan(librarian, stocktake, barcode)
    text = text_of(librarian.get(stocktake.get_absolute_url()))
    # Expected here: Catane, Quarto ×2 (Biblios is lost, Dixit on loan, Luxor in repair, K2 elsewhere).
    assert "2 exemplaires scannés sur 3 attendus (4 lectures en tout)." in text
    assert Scan.objects.filter(stocktake=stocktake).count() == 4


def test_the_progress_says_one_in_the_singular(librarian, shelves):
    stocktake = start(librarian, site("Ludobus"))
    assert "0 exemplaire scanné sur 1 attendu (0 lecture en tout)." in text_of(
        librarian.get(stocktake.get_absolute_url())
    )
    scan(librarian, stocktake, "91500")
    assert "1 exemplaire scanné sur 1 attendu (1 lecture en tout)." in text_of(
        librarian.get(stocktake.get_absolute_url())
    )


def test_a_copy_set_aside_for_a_hold_is_not_missing_nor_marked_lost(librarian, shelves, staff_user):
    quarto = shelves["quarto"]
    Hold.objects.create(
        game=quarto.game,
        member=family(),
        position=1,
        status=Hold.Status.READY,
        copy=quarto,
        created_by=staff_user,
        ready_at=timezone.now(),
        ready_until=timezone.localdate() + datetime.timedelta(days=7),
    )
    stocktake = start(librarian, site("Maison des Enfants"))
    scan(librarian, stocktake, "90461")
    assert "1 exemplaire scanné sur 2 attendus" in text_of(librarian.get(stocktake.get_absolute_url()))
    librarian.post(reverse("inventory:stocktake-close", args=[stocktake.pk]))
    assert list(stocktake.missing_copies().values_list("barcode", flat=True)) == ["90408"]
    librarian.post(reverse("inventory:stocktake-mark-lost", args=[stocktake.pk]))
    assert Copy.objects.get(barcode="90468").status == Copy.Status.ON_SHELF


def test_closing_shows_missing_misplaced_unexpected_and_on_loan(librarian, shelves):
    stocktake = start(librarian, site("Maison des Enfants"))
    for barcode in ("90461", "91500", "99999", "91001", "90901"):
        scan(librarian, stocktake, barcode)
    librarian.post(reverse("inventory:stocktake-close", args=[stocktake.pk]))
    stocktake.refresh_from_db()
    assert not stocktake.is_open
    assert list(stocktake.missing_copies().values_list("barcode", flat=True).order_by("barcode")) == [
        "90408",
        "90468",
    ]
    assert list(stocktake.misplaced_copies().values_list("barcode", flat=True)) == ["91500"]
    assert list(stocktake.on_loan_copies().values_list("barcode", flat=True)) == ["91001"]
    assert list(stocktake.unexpected_copies().values_list("barcode", flat=True)) == ["90901"]
    assert stocktake.unknown_barcodes() == ["99999"]
    text = text_of(librarian.get(stocktake.get_absolute_url()))
    for heading in ("2 manquants", "1 rangé ailleurs", "1 enregistré en prêt", "2 inattendus"):
        assert heading in text


def test_the_missing_are_marked_lost_with_the_stocktake_once(librarian, shelves, staff_user):
    stocktake = start(librarian, site("Maison des Enfants"))
    scan(librarian, stocktake, "90461")
    librarian.post(reverse("inventory:stocktake-close", args=[stocktake.pk]))
    response = librarian.post(reverse("inventory:stocktake-mark-lost", args=[stocktake.pk]), follow=True)
    assert "2 exemplaires marqués perdus." in text_of(response)
    assert Copy.objects.get(barcode="90468").status == Copy.Status.LOST
    assert Copy.objects.get(barcode="91001").status == Copy.Status.ON_SHELF  # on loan: not looked for
    assert Copy.objects.get(barcode="91600").status == Copy.Status.IN_REPAIR
    changes = StocktakeChange.objects.filter(stocktake=stocktake)
    assert sorted(changes.values_list("copy__barcode", "before", "after", "made_by")) == [
        ("90408", "En rayon", "Perdu", staff_user.pk),
        ("90468", "En rayon", "Perdu", staff_user.pk),
    ]
    librarian.post(reverse("inventory:stocktake-mark-lost", args=[stocktake.pk]))
    assert changes.count() == 2  # nothing twice
    assert "Marqué perdu (En rayon → Perdu)" in text_of(librarian.get(stocktake.get_absolute_url()))


def test_misplaced_copies_move_to_the_site_counted(librarian, shelves):
    stocktake = start(librarian, site("Maison des Enfants"))
    scan(librarian, stocktake, "91500")
    librarian.post(reverse("inventory:stocktake-close", args=[stocktake.pk]))
    librarian.post(reverse("inventory:stocktake-move", args=[stocktake.pk]))
    assert Copy.objects.get(barcode="91500").location.name == "Maison des Enfants"
    change = StocktakeChange.objects.get(stocktake=stocktake)
    assert (change.kind, change.before, change.after) == ("moved", "Ludobus", "Maison des Enfants")


def test_a_stocktake_of_every_site_misplaces_nothing(librarian, shelves):
    stocktake = start(librarian, None)
    scan(librarian, stocktake, "91500")
    services.stocktake_close(stocktake=stocktake, staff=Stocktake.objects.get().started_by)
    assert not stocktake.misplaced_copies().exists()
    assert sorted(stocktake.missing_copies().values_list("barcode", flat=True)) == ["90408", "90461", "90468"]


def test_a_closed_stocktake_takes_no_more_scans_and_corrections_wait_for_the_close(librarian, shelves):
    stocktake = start(librarian, site("Maison des Enfants"))
    with pytest.raises(ValidationError) as error:
        services.stocktake_mark_missing_lost(stocktake=stocktake, staff=stocktake.started_by)
    assert error.value.code == "open"
    librarian.post(reverse("inventory:stocktake-close", args=[stocktake.pk]))
    assert scan(librarian, stocktake, "90461") == "Cet inventaire est clos."
    assert not Scan.objects.exists()


def test_a_site_has_one_stocktake_open_at_a_time_and_it_can_be_resumed(librarian, shelves):
    stocktake = start(librarian, site("Maison des Enfants"))
    response = librarian.post(
        reverse("inventory:stocktake-list"), {"localisation": site("Maison des Enfants").pk}
    )
    assert response.status_code == 400
    assert "Un inventaire de ce site est déjà en cours : reprenez-le." in text_of(response)
    assert stocktake.get_absolute_url() in response.content.decode()
    start(librarian, site("Ludobus"))
    start(librarian, None)
    assert librarian.post(reverse("inventory:stocktake-list"), {"localisation": ""}).status_code == 400


def test_the_database_refuses_a_second_open_stocktake_of_every_site(staff_user):
    Stocktake.objects.create(location=None, started_by=staff_user)
    with pytest.raises(IntegrityError), transaction.atomic():
        Stocktake.objects.create(location=None, started_by=staff_user)
    Stocktake.objects.update(closed_at=timezone.now())
    Stocktake.objects.create(location=None, started_by=staff_user)  # once closed, a new one may start


@pytest.mark.parametrize("barcode", ["", "x" * 41])
def test_a_bad_scan_is_refused_on_its_field(librarian, shelves, barcode):
    stocktake = start(librarian, site("Maison des Enfants"))
    response = librarian.post(stocktake.get_absolute_url(), {"barcode": barcode})
    assert response.status_code == 400
    assert not Scan.objects.exists()


def test_stocktakes_are_for_staff_only(client, outsider, shelves):
    url = reverse("inventory:stocktake-list")
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert client.post(url, {"localisation": ""}).status_code == 403


def test_the_corrections_only_answer_post(librarian, shelves):
    stocktake = start(librarian, site("Maison des Enfants"))
    for name in ("stocktake-close", "stocktake-mark-lost", "stocktake-move"):
        assert librarian.get(reverse(f"inventory:{name}", args=[stocktake.pk])).status_code == 405


@pytest.mark.django_db(transaction=True)
@pytest.mark.postgresql  # row locks
def test_two_scanners_at_once_lose_no_scan(staff_user):
    game = make_game("Quarto")
    barcodes = [f"9{number:04d}" for number in range(20)]
    for barcode in barcodes:
        make_copy(game, barcode)
    stocktake = services.stocktake_start(location=site("Maison des Enfants"), staff=staff_user)
    # Two volunteers, each with a scanner, one half of the shelf each and one box both scan.
    halves = [barcodes[:10] + ["90019"], barcodes[10:]]
    calls = [
        lambda half=half: [
            services.scan_record(stocktake=stocktake, barcode=code, staff=staff_user) for code in half
        ]
        for half in halves
    ]
    outcomes = run_at_once(calls)
    assert all(isinstance(outcome, list) for outcome in outcomes), outcomes
    assert Scan.objects.filter(stocktake=stocktake).count() == 21
    assert stocktake.expected_copies().count() == 20
    assert not stocktake.missing_copies().exists()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_volunteer_scans_on_a_phone_without_sideways_scroll(page, live_server, staff_user):
    make_copy(make_game("Les colons de Catane"), "90461")
    page.set_viewport_size({"width": 390, "height": 800})
    page.goto(live_server.url + reverse("inventory:stocktake-list"))
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    with page.expect_navigation():
        page.click("text=Commencer un inventaire")
    for barcode in ("90461", "12345"):
        # Chromium gives the autofocus at a rendering step that may come after "load" on a busy machine.
        page.wait_for_function("document.activeElement && document.activeElement.id === 'id_barcode'")
        page.keyboard.type(barcode)  # the field has the focus: a scanner types, then Enter
        with page.expect_navigation():
            page.keyboard.press("Enter")
        assert page.evaluate("document.activeElement.id") == "id_barcode"
    assert "12345 : code-barres inconnu" in page.inner_text("main")
    assert "1 exemplaire scanné sur 1 attendu" in page.inner_text("main")
    assert page.evaluate("document.documentElement.scrollWidth") <= 390
