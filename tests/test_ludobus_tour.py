"""« Préparer la tournée »: what the ludobus desk downloads (staff only, the least personal data), and
the desk as an installable web app: its manifest, its service worker, its data cleared at logout."""

import datetime

import pytest
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Location
from loans import services
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
    assert set(family) == {"id", "name", "card", "type", "start", "expiry", "open_loans", "late_loans"}
    assert "alex@example.org" not in response.content.decode() and "0470" not in response.content.decode()
    [copy] = tour["copies"]
    assert copy["barcode"] == "90468" and copy["loan"]["id"] == loan.pk
    assert [(piece["label"], piece["quantity"]) for piece in copy["pieces"]] == [
        ("plateau", 1),
        ("pièces", 16),
    ]
    assert tour["types"][0]["quota"] == alex.membership_type.loan_quota
    assert tour["prepared_at"] and tour["keep_days"] == 7


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
