"""« Préparer la tournée »: what the ludobus desk downloads (staff only, the least personal data), and
the desk as an installable web app: its manifest, its service worker, its data cleared at logout."""

import datetime
import io
from decimal import Decimal

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from catalogue.models import ItemKind, Location
from loans import services
from ludobus.models import OfflineAction
from tests.loan_helpers import make_copy, make_game, make_member


@pytest.fixture
def ludobus(db):
    return Location.objects.create(name="Ludobus")


def test_a_tour_holds_the_sites_copies_the_valid_families_and_the_rules(client, staff_user, ludobus):
    quarto = make_game("Quarto", pieces=[(1, "plateau"), (16, "pièces")])
    on_board = make_copy(quarto, "90468")
    on_board.location = ludobus
    on_board.save()
    make_copy(quarto, "90408")  # at the main site: not on board
    alex = make_member("M0001", "Alex Tartempion", email="alex@example.org", phone="0470 11 22 33")
    make_member("M0002", "Sam Bidule", expiry=timezone.localdate() - datetime.timedelta(days=1))
    loan = services.loan_create(copy=on_board, member=alex, staff=staff_user)
    client.force_login(staff_user)

    response = client.get(reverse("ludobus:tour-download", args=[ludobus.pk]))

    assert response.status_code == 200
    assert "no-store" in response["Cache-Control"]
    tour = response.json()
    assert tour["site"] == {"id": ludobus.pk, "name": "Ludobus"}
    assert [family["card"] for family in tour["families"]] == ["M0001"]  # Sam's membership ended
    family = tour["families"][0]
    assert family["open_loans"] == 1
    # The least the desk needs: no e-mail, phone, address or household.
    assert set(family) == {
        "id",
        "name",
        "card",
        "type",
        "start",
        "expiry",
        "open_loans",
        "late_loans",
        "kind_loans",
    }
    assert "alex@example.org" not in response.content.decode() and "0470" not in response.content.decode()
    [copy] = tour["copies"]
    assert copy["barcode"] == "90468" and copy["loan"]["id"] == loan.pk
    assert [(piece["label"], piece["quantity"]) for piece in copy["pieces"]] == [
        ("plateau", 1),
        ("pièces", 16),
    ]
    assert tour["types"][0]["quota"] == alex.membership_type.loan_quota
    assert tour["prepared_at"] and tour["keep_days"] == 7


def test_a_tour_knows_each_kinds_quota_and_deposit_and_what_each_family_has_of_it(
    client, staff_user, ludobus
):
    giant = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("20.00"), loan_quota=1)
    ItemKind.objects.create(name="Jeu vidéo", loan_fee=Decimal("1.00"))  # no quota, no deposit: not needed
    quarto = make_game("Quarto", pieces=[(16, "pièces")])
    giant_quarto = make_copy(quarto, "96001")
    giant_quarto.kind = giant
    giant_quarto.save()
    on_board = make_copy(quarto, "90468")
    on_board.location, on_board.kind = ludobus, giant
    on_board.save()
    alex = make_member("M0001", "Alex Tartempion")
    make_member("M0002", "Sam Bidule")
    services.loan_create(
        copy=giant_quarto, member=alex, staff=staff_user, deposit_method="cash"
    )  # lent at the main site
    client.force_login(staff_user)

    tour = client.get(reverse("ludobus:tour-download", args=[ludobus.pk])).json()

    assert tour["kinds"] == [{"id": giant.pk, "name": "Grand jeu", "quota": 1, "deposit": "20.00"}]
    assert [copy["kind"] for copy in tour["copies"]] == [giant.pk]
    assert {family["card"]: family["kind_loans"] for family in tour["families"]} == {
        "M0001": {str(giant.pk): 1},
        "M0002": {},
    }


def test_only_staff_download_a_tour(client, outsider, ludobus):
    url = reverse("ludobus:tour-download", args=[ludobus.pk])
    assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(url).status_code == 403
    assert client.get(reverse("ludobus:tour")).status_code == 403
    assert client.post(url).status_code == 403


def test_a_tour_of_an_unknown_site_is_a_404(client, staff_user, db):
    client.force_login(staff_user)
    assert client.get(reverse("ludobus:tour-download", args=[999999])).status_code == 404


def test_the_desk_installs_as_a_web_app_whose_worker_covers_the_whole_desk(client, staff_user, ludobus):
    manifest = client.get(reverse("ludobus:manifest"))
    assert manifest["Content-Type"] == "application/manifest+json"
    assert manifest.json()["start_url"] == "/comptoir/tournee/"
    assert manifest.json()["scope"] == "/comptoir/"
    worker = client.get("/comptoir/sw.js")
    assert worker["Content-Type"].startswith("text/javascript")
    assert worker["Cache-Control"] == "no-cache"
    assert 'var SHELL = "/comptoir/tournee/"' in worker.content.decode()
    client.force_login(staff_user)
    page = client.get(reverse("ludobus:tour")).content.decode()
    assert 'rel="manifest"' in page and "/comptoir/sw.js" in page
    assert "Tartempion" not in page  # the page the worker keeps holds no family


def test_logging_out_asks_the_browser_to_delete_the_tour(client, staff_user):
    client.force_login(staff_user)
    response = client.post(reverse("logout"))
    assert response["Clear-Site-Data"] == '"cache", "storage"'


@pytest.mark.django_db
def test_the_demo_has_a_ludobus_with_copies_on_board_and_a_conflict_to_settle(client, db):
    call_command("load_demo", "--force", stdout=io.StringIO())
    call_command("load_demo", "--force", stdout=io.StringIO())  # safe to run again
    ludobus = Location.objects.get(name="Ludobus")
    client.force_login(get_user_model().objects.get(username="benevole"))
    tour = client.get(reverse("ludobus:tour-download", args=[ludobus.pk])).json()
    assert [copy["barcode"] for copy in tour["copies"]] == [
        "95001",
        "95002",
        "95003",
        "95004",
        "95005",
        "95006",
        "95007",
    ]
    assert all(copy["pieces"] for copy in tour["copies"][:3])
    # The giant Quarto on board asks its kind's deposit, one per family.
    [giant] = [kind for kind in tour["kinds"] if kind["id"] == tour["copies"][-1]["kind"]]
    assert (giant["name"], giant["deposit"], giant["quota"]) == ("Grand jeu", "20.00", 1)
    conflict = OfflineAction.objects.get()
    assert (conflict.status, conflict.reason_code) == ("conflict", "membership_expired")
    page = client.get(reverse("ludobus:conflict-list")).content.decode()
    assert "Dominique Chose" in page and "a expiré" in page


def test_a_tours_download_reads_a_fixed_number_of_queries_whatever_its_size(client, staff_user, ludobus):
    client.force_login(staff_user)
    url = reverse("ludobus:tour-download", args=[ludobus.pk])

    def grow(serial: int) -> None:
        game = make_game(f"Jeu {serial}", pieces=[(2, "plateaux"), (30, "cartes")])
        copy = make_copy(game, f"9{serial:04d}")
        copy.location = ludobus
        copy.save()
        family = make_member(f"M{serial:04d}", f"Famille {serial}")
        services.loan_create(copy=copy, member=family, staff=staff_user)

    def queries() -> int:
        with CaptureQueriesContext(connection) as captured:
            assert client.get(url).status_code == 200
        return len(captured)

    grow(1)
    few = queries()
    for serial in range(2, 12):
        grow(serial)
    assert len(client.get(url).json()["copies"]) == 11
    assert queries() == few
