"""The desk's kits (`/comptoir/malles/…`) and the kits' API: the list with where each kit is (a
bounded number of queries), a kit's page with its contents and what is missing, lending it to a group
by its card, its return with every copy's pieces check on one page, its label; outsiders, wrong
methods and bad input."""

from decimal import Decimal

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from catalogue.models import Copy, ItemKind
from kits import services
from kits.models import KitLoan
from ledger.models import Entry, Kind
from loans.models import Loan, MissingPiece
from repairs.models import Repair
from tests.conftest import text_of
from tests.kit_helpers import make_group, make_kit

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def test_the_list_says_where_each_kit_is_in_a_bounded_number_of_queries(desk, staff_user):
    school = make_group()
    for number in range(4):
        kit = make_kit(f"Malle {number}", f"K000{number}", games=2, prefix=f"9{number}")
        if number % 2:
            services.kit_lend(kit=kit, member=school, staff=staff_user)
    with CaptureQueriesContext(connection) as queries:
        response = desk.get("/comptoir/malles/")
    assert response.status_code == 200
    text = text_of(response)
    assert "Malle 1" in text and "Prêtée à École Jules Ferry — CE1, contact Mme Durand" in text
    assert "À la ludothèque (Maison des Enfants)" in text
    many = len(queries)
    for number in range(4, 8):
        make_kit(f"Malle {number}", f"K000{number}", games=2, prefix=f"9{number}")
    with CaptureQueriesContext(connection) as queries:
        desk.get("/comptoir/malles/")
    assert len(queries) == many


def test_scanning_a_kit_opens_its_page_or_its_return(desk, staff_user):
    kit = make_kit()
    response = desk.get("/comptoir/malles/", {"barcode": "k0001"})
    assert response.status_code == 302 and response.url == f"/comptoir/malles/{kit.pk}/"
    services.kit_lend(kit=kit, member=make_group(), staff=staff_user)
    response = desk.get("/comptoir/malles/", {"barcode": "K0001"})
    assert response.url == f"/comptoir/malles/{kit.pk}/retour/"
    response = desk.get("/comptoir/malles/", {"barcode": "K9999"})
    assert response.status_code == 400
    assert "Aucune malle ne porte le code-barres « K9999 »" in text_of(response)
    assert desk.get("/comptoir/malles/", {"barcode": "K\x00"}).status_code == 400


def test_the_kit_page_says_what_is_missing_and_lends_only_once_the_clerk_agrees(desk):
    kit = make_kit()
    Copy.objects.filter(barcode="95001").update(status=Copy.Status.WITHDRAWN)
    make_group()
    page = text_of(desk.get(f"/comptoir/malles/{kit.pk}/"))
    assert "La malle n'est pas complète : « Jeu 951 » (95001) : indisponible, Retiré des collections" in page
    assert "1 tapis" in page and "2 sacs" in page

    response = desk.post(f"/comptoir/malles/{kit.pk}/preter/", {"card": "C0001"})
    assert response.status_code == 400
    assert "Prêtez-la sans ce qui manque" in text_of(response)
    assert not Loan.objects.exists()

    response = desk.post(f"/comptoir/malles/{kit.pk}/preter/", {"card": "C0001", "without_missing": "on"})
    assert response.status_code == 302
    assert sorted(Loan.objects.open().values_list("copy__barcode", flat=True)) == ["95000", "95002"]
    page = text_of(desk.get(response.url))
    assert "Malle « Malle maternelle » prêtée à École Jules Ferry — CE1, contact Mme Durand : 2 jeux" in page


def test_lending_refuses_an_unknown_card_and_a_refusal_of_the_loans_app(desk):
    kit = make_kit(games=2)
    response = desk.post(f"/comptoir/malles/{kit.pk}/preter/", {"card": "NOPE"})
    assert response.status_code == 400
    assert "Aucune collectivité ni famille n'a la carte « NOPE »" in text_of(response)
    make_group(loan_quota=1)
    response = desk.post(f"/comptoir/malles/{kit.pk}/preter/", {"card": "C0001"})
    assert response.status_code == 400
    assert "c'est le maximum de l'adhésion" in text_of(response)
    assert not KitLoan.objects.exists()


def test_the_return_page_checks_every_copy_and_the_material_at_once(desk, staff_user):
    kit = make_kit()
    kit_loan = services.kit_lend(kit=kit, member=make_group(), staff=staff_user)
    page = desk.get(f"/comptoir/malles/{kit.pk}/retour/")
    assert page.status_code == 200
    assert text_of(page).count("Combien manquent") == 3
    broken = Loan.objects.get(copy__barcode="95002")
    jetons = broken.copy.game.components.get(label="jetons")

    data = {f"loan{broken.pk}-missing_{jetons.pk}": "11", "present_0": "on", "present_1": "on"}
    response = desk.post(f"/comptoir/malles/{kit.pk}/retour/", data)
    assert response.status_code == 400  # more than the box holds
    assert Loan.objects.open().count() == 3

    data = {f"loan{broken.pk}-missing_{jetons.pk}": "2", "present_0": "on", "other_missing": "une craie"}
    response = desk.post(f"/comptoir/malles/{kit.pk}/retour/", data, follow=True)
    text = text_of(response)
    assert (
        "Malle « Malle maternelle » rendue par École Jules Ferry — CE1, contact Mme Durand : 3 jeux repris."
        in text
    )
    assert "« Jeu 952 » (95002) : il manque 2 × jetons." in text
    assert "Matériel manquant, noté sur la malle : 2 sacs, une craie." in text
    assert not Loan.objects.open().exists()
    assert MissingPiece.objects.get().loan == broken
    kit_loan.refresh_from_db()
    assert kit_loan.material_missing == "2 sacs, une craie"

    response = desk.get(f"/comptoir/malles/{kit.pk}/retour/")
    assert response.status_code == 302  # nothing left to return


def test_all_complete_returns_the_whole_kit(desk, staff_user):
    kit = make_kit()
    services.kit_lend(kit=kit, member=make_group(), staff=staff_user)
    response = desk.post(f"/comptoir/malles/{kit.pk}/retour/", {"all_complete": "1"})
    assert response.status_code == 302
    assert set(Loan.objects.values_list("return_check", flat=True)) == {"complete"}
    kit.refresh_from_db()
    assert kit.material_missing == ""


def test_copies_are_added_and_taken_out_at_the_desk(desk, staff_user):
    kit = make_kit(games=1)
    other = make_kit("Malle des grands", "K0002", games=1, prefix="96")
    response = desk.post(f"/comptoir/malles/{kit.pk}/exemplaires/", {"barcode": "96000"})
    assert response.status_code == 400
    assert "déjà dans la malle « Malle des grands »" in text_of(response)
    item = other.items.get()
    response = desk.post(f"/comptoir/malles/{other.pk}/exemplaires/{item.pk}/retirer/")
    assert response.status_code == 302
    response = desk.post(f"/comptoir/malles/{kit.pk}/exemplaires/", {"barcode": "96000"})
    assert response.status_code == 302
    assert sorted(kit.items.values_list("copy__barcode", flat=True)) == ["95000", "96000"]


def test_the_kit_label_carries_its_barcode(desk):
    kit = make_kit()
    response = desk.get(f"/comptoir/malles/{kit.pk}/etiquette/")
    assert response.status_code == 200
    html = response.content.decode()
    assert "Malle maternelle" in html and ">K0001</text>" in html and "MALLE" in html


def test_outsiders_and_wrong_methods_are_refused(client, outsider):
    kit = make_kit(games=1)
    client.force_login(outsider)
    assert client.get("/comptoir/malles/").status_code == 403
    assert client.post(f"/comptoir/malles/{kit.pk}/preter/", {"card": "C0001"}).status_code == 403
    assert client.get("/api/kits/").status_code == 403


def test_wrong_methods(desk):
    kit = make_kit(games=1)
    assert desk.get(f"/comptoir/malles/{kit.pk}/preter/").status_code == 405
    assert desk.post(f"/comptoir/malles/{kit.pk}/").status_code == 405
    assert desk.get("/comptoir/malles/999/").status_code == 404


# --- the API ---------------------------------------------------------------------------------------------


def post(client, url: str, data: dict | None = None):
    return client.post(url, data or {}, content_type="application/json")


def test_the_api_lists_kits_lends_and_takes_one_back(desk, staff_user):
    kit = make_kit()
    school = make_group()
    body = desk.get("/api/kits/").json()
    (item,) = body["results"]
    assert item["barcode"] == "K0001" and item["on_loan"] is None
    assert [copy["barcode"] for copy in item["items"]] == ["95000", "95001", "95002"]
    assert item["material"] == ["1 tapis", "2 sacs"]

    Copy.objects.filter(barcode="95000").update(status=Copy.Status.LOST)
    report = desk.get(f"/api/kits/{kit.pk}/completeness/").json()
    assert report["complete"] is False
    assert [line["state"] for line in report["lines"]] == ["unavailable", "ready", "ready"]

    response = post(desk, f"/api/kits/{kit.pk}/lend/", {"member": school.pk})
    assert response.status_code == 400 and "without_missing" in response.json()
    response = post(desk, f"/api/kits/{kit.pk}/lend/", {"member": "x"})
    assert response.status_code == 400 and "member" in response.json()
    response = post(desk, f"/api/kits/{kit.pk}/lend/", {"member": school.pk, "without_missing": True})
    assert response.status_code == 201
    assert response.json()["borrower"] == "École Jules Ferry — CE1, contact Mme Durand"
    assert len(response.json()["copies"]) == 2
    response = post(desk, f"/api/kits/{kit.pk}/lend/", {"member": school.pk, "without_missing": True})
    assert response.status_code == 409 and response.json()["code"] == "kit_on_loan"

    response = post(desk, f"/api/kits/{kit.pk}/return/", {"material_missing": "1 tapis"})
    assert response.status_code == 200 and response.json()["returned_at"]
    assert not Loan.objects.open().exists()
    response = post(desk, f"/api/kits/{kit.pk}/return/")
    assert response.status_code == 409


def test_a_kit_scanned_in_the_desks_boxes_opens_it(desk, staff_user):
    kit = make_kit()
    school = make_group()
    # On the group's page, in the lend box: the kit's page, the group's card filled in.
    response = desk.post(f"/comptoir/familles/{school.pk}/", {"barcode": "K0001"})
    assert response.status_code == 302 and response.url == f"/comptoir/malles/{kit.pk}/?carte=C0001"
    page = desk.get(response.url).content.decode()
    assert 'name="card" id="id_card"' in page and 'value="C0001"' in page
    # In the card box: the kit's page; in the return box, nothing to return yet: its page too.
    assert desk.get("/comptoir/", {"code": "K0001"}).url == f"/comptoir/malles/{kit.pk}/"
    assert desk.get("/comptoir/retour/", {"barcode": "K0001"}).url == f"/comptoir/malles/{kit.pk}/"
    services.kit_lend(kit=kit, member=school, staff=staff_user)
    # Out: the return box (and the card box) open its return.
    assert desk.get("/comptoir/retour/", {"barcode": "k0001"}).url == f"/comptoir/malles/{kit.pk}/retour/"
    assert desk.get("/comptoir/", {"code": "K0001"}).url == f"/comptoir/malles/{kit.pk}/retour/"
    # An unknown code is still unknown.
    response = desk.get("/comptoir/retour/", {"barcode": "K9999"})
    assert response.status_code == 400 and "Aucun exemplaire ne porte le code-barres" in text_of(response)


def test_a_kit_holding_a_copy_whose_kind_asks_a_deposit_asks_how_it_is_paid_then_gives_it_back(
    desk, staff_user
):
    """The kind's deposit is taken with each such copy's loan (loans/loan_rules.py), as at the desk."""
    kit = make_kit(games=2)
    giant = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("30"))
    Copy.objects.filter(barcode="95001").update(kind=giant)
    make_group()
    response = desk.post(f"/comptoir/malles/{kit.pk}/preter/", {"card": "C0001"})
    assert response.status_code == 400
    page = text_of(response)
    assert "une caution de 30,00 € est demandée" in page and "Caution versée en" in page
    assert not Loan.objects.exists()

    response = desk.post(
        f"/comptoir/malles/{kit.pk}/preter/",
        {"card": "C0001", "deposit_method": "cheque", "deposit_cheque_number": "77"},
    )
    assert response.status_code == 302
    received = Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED)
    assert (received.amount, received.copy.barcode, received.cheque_number) == (
        Decimal("30.00"),
        "95001",
        "77",
    )

    kit_loan = KitLoan.objects.get()
    services.kit_return(kit_loan=kit_loan, staff=staff_user)
    assert Entry.objects.get(kind=Kind.DEPOSIT_RETURNED).amount == Decimal("30.00")
    assert Entry.objects.filter(member=kit_loan.member).deposit_total() == 0


def test_the_kits_api_lends_with_the_deposit_s_method_or_says_it_is_missing(desk):
    kit = make_kit(games=1)
    Copy.objects.filter(barcode="95000").update(
        kind=ItemKind.objects.create(name="Grand jeu", deposit=Decimal("30"))
    )
    school = make_group()
    url = f"/api/kits/{kit.pk}/lend/"
    refused = desk.post(url, {"member": school.pk}, content_type="application/json")
    assert (
        refused.status_code == 400
        and "une caution de 30,00\xa0€ est demandée" in refused.json()["deposit_method"][0]
    )
    lent = desk.post(url, {"member": school.pk, "deposit_method": "cash"}, content_type="application/json")
    assert lent.status_code == 201
    assert Entry.objects.get(kind=Kind.DEPOSIT_RECEIVED).method == "cash"


def test_a_copy_broken_in_a_kit_is_sent_to_repair_from_the_kit_s_return(desk, staff_user):
    """As on a loan's return page: « Envoyer en réparation » under each copy, with its reason."""
    kit = make_kit()
    services.kit_lend(kit=kit, member=make_group(), staff=staff_user)
    broken = Loan.objects.get(copy__barcode="95001")
    page = text_of(desk.get(f"/comptoir/malles/{kit.pk}/retour/"))
    assert page.count("Envoyer en réparation au lieu de remettre en rayon") == 3

    url = f"/comptoir/malles/{kit.pk}/retour/"
    response = desk.post(url, {"all_complete": "1", f"loan{broken.pk}-0-send": "on"})
    assert response.status_code == 400 and "Dites ce qui est à réparer." in text_of(response)
    assert Loan.objects.open().count() == 3

    data = {
        "all_complete": "1",
        f"loan{broken.pk}-0-send": "on",
        f"loan{broken.pk}-0-reason": "plateau déchiré",
    }
    response = desk.post(url, data, follow=True)
    text = text_of(response)
    assert "« Jeu 951 » (95001) part en réparation : plateau déchiré." in text
    assert not Loan.objects.open().exists()
    repair = Repair.objects.get()
    assert (repair.copy.barcode, repair.reason, repair.loan) == ("95001", "plateau déchiré", broken)
    assert Copy.objects.get(barcode="95001").status == Copy.Status.IN_REPAIR
    # The kit now says it lacks its copy in repair, the others are back in it.
    assert "95001" in text_of(desk.get(f"/comptoir/malles/{kit.pk}/")) and "réparation" in text_of(
        desk.get(f"/comptoir/malles/{kit.pk}/")
    )
