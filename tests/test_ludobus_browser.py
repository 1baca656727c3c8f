"""The ludobus desk in a real browser with the network cut (the browser's offline mode): a tour of
lends, returns and a visit recorded on the device, then the network back: every action lands once,
what no longer holds is a conflict, and the server ends as the same actions would have left it online."""

import datetime
from decimal import Decimal

import pytest
from django.utils import timezone
from playwright.sync_api import expect

from catalogue.models import Copy, ItemKind, Location
from ledger.models import Entry, Kind
from loans import services
from loans.models import Loan, MissingPiece
from ludobus.models import OfflineAction
from ludobus.replay import action_replay
from onsite.models import Visit
from tests.axe import serious_violations
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type


def tour_scan(page, code: str) -> None:
    page.fill("#tour-code", code)
    page.press("#tour-code", "Enter")


def on_board(game, barcode: str, site: Location) -> Copy:
    copy = make_copy(game, barcode)
    copy.location = site
    copy.save()
    return copy


def log_in_at(page, url: str, staff_user) -> None:
    page.goto(url)
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def prepare_tour(page, live_server, staff_user, site: str) -> None:
    log_in_at(page, live_server.url + "/comptoir/tournee/", staff_user)
    page.wait_for_selector("body[data-tour-ready='1']")
    page.select_option("#tour-site", label=site)
    page.click("#tour-prepare button")
    expect(page.locator("#tour-age")).to_contain_text(site)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_tour_with_the_network_cut_lands_once_with_its_conflicts(page, live_server, staff_user):
    ludobus = Location.objects.create(name="Ludobus")
    catane = make_game("Les colons de Catane", pieces=[(19, "hexagones Terrains"), (95, "cartes")])
    quarto = make_game("Quarto", pieces=[(16, "pièces")])
    biblios = make_game("Biblios", pieces=[(5, "dés")])
    on_board(catane, "90461", ludobus)
    on_board(quarto, "90468", ludobus)
    quarto_two = on_board(quarto, "90408", ludobus)
    biblios_copy = on_board(biblios, "90901", ludobus)
    at_main_site = make_copy(make_game("Dixit"), "80001")
    two_games = make_membership_type(loan_quota=2)
    alex = make_member("M0001", "Alex Tartempion", membership_type=two_games)
    sam = make_member("M0002", "Sam Bidule", membership_type=two_games)
    lou = make_member("M0003", "Lou Machin", membership_type=two_games)
    # Lent from the ludobus at its last stop: Sam and Lou bring them back on this tour.
    sam_loan = services.loan_create(copy=biblios_copy, member=sam, staff=staff_user)
    lou_loan = services.loan_create(copy=quarto_two, member=lou, staff=staff_user)

    # Before leaving, online: log in, open the ludobus desk, prepare the tour.
    prepare_tour(page, live_server, staff_user, "Ludobus")
    expect(page.locator("#tour-age")).to_contain_text("Familles : 3 ; jeux à bord : 4")

    # On the road: no network.
    page.context.set_offline(True)
    expect(page.locator("#tour-network")).to_contain_text("Hors ligne")

    # Meanwhile at the main site: Alex borrows a game, Lou's game comes back there, Sam's membership ends.
    services.loan_create(copy=at_main_site, member=alex, staff=staff_user)
    services.loan_return(loan=lou_loan, staff=staff_user)
    sam.membership_expiry = timezone.localdate() - datetime.timedelta(days=1)
    sam.save()

    tour_scan(page, "M0001")
    expect(page.locator("#tour-family")).to_contain_text(
        "Alex Tartempion (carte M0001). Jeux encore permis : 2."
    )
    tour_scan(page, "90461")
    expect(page.locator("#tour-message")).to_contain_text(
        "« Les colons de Catane » (90461) prêté à Alex Tartempion."
    )
    tour_scan(page, "90468")
    expect(page.locator("#tour-family")).to_contain_text("Jeux encore permis : 0.")
    tour_scan(page, "90408")  # Lou's Quarto, as the tour knew it: on loan, so its return opens
    page.click("#tour-return >> text=Tout est complet")
    tour_scan(page, "90901")  # Sam's Biblios comes back with a die missing
    page.fill("#tour-pieces input", "1")
    page.click("text=Confirmer le retour")
    expect(page.locator("#tour-message")).to_contain_text("pièces manquantes notées")
    tour_scan(page, "90461")  # Alex brings Catane back before leaving the stop
    page.click("#tour-return >> text=Tout est complet")
    tour_scan(page, "M0002")
    tour_scan(page, "90461")
    page.fill("#tour-children", "2")
    page.fill("#tour-adults", "1")
    page.click("text=Compter la visite")
    expect(page.locator("#tour-message")).to_contain_text(
        "Visite comptée : Sam Bidule (enfants : 2, adultes : 1)."
    )

    journal = page.locator("#tour-journal li")
    expect(journal).to_have_count(7)
    expect(page.locator("#tour-journal .offline-mark")).to_have_count(7)
    expect(journal.first).to_contain_text("hors ligne — à envoyer")
    assert not OfflineAction.objects.exists()  # nothing reached the server

    # Back in range: the actions go, in order, once.
    page.context.set_offline(False)
    expect(page.locator("#tour-sync")).to_contain_text("Actions envoyées : 7", timeout=20000)
    expect(page.locator("#tour-sync")).to_contain_text("Conflits à régler : 3.")
    assert page.locator("#tour-journal .offline-mark").count() == 0
    page.click("#tour-send")  # sent again by hand: nothing left to send
    page.reload()
    page.wait_for_selector("body[data-tour-ready='1']")
    assert page.locator("#tour-journal li.tour-conflict").count() == 3

    actions = list(OfflineAction.objects.order_by("sequence"))
    assert [(action.kind, action.status, action.reason_code) for action in actions] == [
        ("lend", "applied", ""),
        ("lend", "conflict", "quota_reached"),  # Alex's second game: the main site's loan counts
        ("return", "conflict", "not_on_loan"),  # Lou's game was returned at the main site
        ("return", "applied", ""),
        ("return", "applied", ""),
        ("lend", "conflict", "membership_expired"),  # Sam's membership ended meanwhile
        ("visit", "applied", ""),
    ]
    # The server's state: what the applied actions would have written at the live desk.
    loans = [
        (loan.copy.barcode, loan.member.card_barcode, loan.is_open, loan.return_check)
        for loan in Loan.objects.select_related("copy", "member").order_by("copy__barcode", "pk")
    ]
    assert loans == [
        ("80001", "M0001", True, ""),
        ("90408", "M0003", False, "complete"),
        ("90461", "M0001", False, "complete"),
        ("90901", "M0002", False, "incomplete"),
    ]
    assert (
        MissingPiece.objects.get().quantity == 1 and Loan.objects.get(pk=sam_loan.pk).missing_pieces.exists()
    )
    assert [(visit.member, visit.children, visit.adults) for visit in Visit.objects.all()] == [(sam, 2, 1)]

    # The conflicts, for staff to settle.
    with page.expect_navigation():
        page.click("a:has-text('Conflits à régler')")
    conflicts = page.locator("li.conflict")
    assert conflicts.count() == 3
    assert "c'est le maximum" in conflicts.nth(0).inner_text()
    assert "déjà clôturé" in conflicts.nth(1).inner_text()
    assert "a expiré" in conflicts.nth(2).inner_text()

    # Logging out deletes the tour from the device.
    assert "ludobus" in page.evaluate("indexedDB.databases().then(found => found.map(db => db.name))")
    page.click("text=Se déconnecter")
    page.wait_for_selector("a:has-text('Se connecter')")
    assert "ludobus" not in page.evaluate("indexedDB.databases().then(found => found.map(db => db.name))")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_offline_a_grand_jeu_asks_its_deposit_and_its_kinds_quota_as_the_live_desk_does(
    page, live_server, staff_user
):
    # The kind's rules, as the librarians' guide sets them (« Règles de prêt par type d'objet »).
    giant = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("20.00"), loan_quota=1)
    ludobus = Location.objects.create(name="Ludobus")
    quarto = make_game("Quarto", pieces=[(16, "pièces")])
    for barcode in ("95007", "95008"):
        copy = on_board(quarto, barcode, ludobus)
        copy.kind = giant
        copy.save()
    on_board(make_game("Biblios", pieces=[(5, "dés")]), "90901", ludobus)
    make_member("M0001", "Alex Tartempion", membership_type=make_membership_type(loan_quota=5))
    prepare_tour(page, live_server, staff_user, "Ludobus")
    page.context.set_offline(True)

    tour_scan(page, "M0001")
    tour_scan(page, "95007")
    expect(page.locator("#tour-deposit")).to_be_visible()
    expect(page.locator("#tour-deposit-title")).to_contain_text("une caution de 20,00")
    page.click("#tour-deposit-cancel")  # the family thinks twice: nothing recorded
    expect(page.locator("#tour-deposit")).to_be_hidden()
    expect(page.locator("#tour-journal li")).to_have_count(0)
    tour_scan(page, "95007")
    page.select_option("#tour-deposit-method", label="Chèque")
    page.click("#tour-deposit >> text=Prêter")
    expect(page.locator("#tour-message")).to_contain_text("Indiquez le numéro du chèque.")
    page.fill("#tour-deposit-cheque", "1234567")
    page.click("#tour-deposit >> text=Prêter")
    expect(page.locator("#tour-message")).to_contain_text(
        "« Quarto » (95007) prêté à Alex Tartempion, caution de 20,00"
    )
    tour_scan(page, "95008")  # a second Grand jeu: one per family
    expect(page.locator("#tour-message")).to_contain_text(
        "Alex Tartempion a déjà le maximum de jeux de type « Grand jeu » en prêt (1 par famille)."
    )
    tour_scan(page, "90901")  # an ordinary game still goes, without a deposit
    expect(page.locator("#tour-message")).to_contain_text("« Biblios » (90901) prêté à Alex Tartempion.")
    tour_scan(page, "95007")  # the giant Quarto comes back before the bus leaves
    page.click("#tour-return >> text=Tout est complet")
    expect(page.locator("#tour-message")).to_contain_text("Rendez à la famille sa caution de 20,00")
    tour_scan(page, "M0001")
    tour_scan(page, "95008")  # now it may go, with its own deposit
    page.select_option("#tour-deposit-method", label="Espèces")
    page.click("#tour-deposit >> text=Prêter")
    expect(page.locator("#tour-journal li")).to_have_count(4)

    page.context.set_offline(False)
    expect(page.locator("#tour-sync")).to_contain_text("Actions envoyées : 4", timeout=20000)
    assert not OfflineAction.objects.filter(status="conflict").exists()
    deposits = [
        (entry.kind, entry.amount, entry.method, entry.cheque_number, entry.loan.copy.barcode)
        for entry in Entry.objects.filter(kind__in=[Kind.DEPOSIT_RECEIVED, Kind.DEPOSIT_RETURNED])
        .select_related("loan__copy")
        .order_by("pk")
    ]
    assert deposits == [
        (Kind.DEPOSIT_RECEIVED, Decimal("20.00"), "cheque", "1234567", "95007"),
        (Kind.DEPOSIT_RETURNED, Decimal("20.00"), "cheque", "1234567", "95007"),
        (Kind.DEPOSIT_RECEIVED, Decimal("20.00"), "cash", "", "95008"),
    ]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_without_network_any_desk_address_opens_the_ludobus_page_kept_by_the_service_worker(
    page, live_server, staff_user
):
    Location.objects.create(name="Ludobus")
    log_in_at(page, live_server.url + "/comptoir/", staff_user)
    # The desk's pages install the worker; it keeps the ludobus page and takes the tab in hand.
    page.evaluate("navigator.serviceWorker.ready.then(() => true)")
    page.goto(live_server.url + "/comptoir/tournee/")
    page.wait_for_selector("body[data-tour-ready='1']")
    for _ in range(50):
        if page.evaluate("!!navigator.serviceWorker.controller"):
            break
        page.wait_for_timeout(100)
    assert page.evaluate("navigator.serviceWorker.controller.scriptURL").endswith("/comptoir/sw.js")

    page.context.set_offline(True)
    page.goto(live_server.url + "/comptoir/familles/1/")
    assert page.locator("h1").inner_text() == "Tournée du ludobus"
    page.wait_for_selector("body[data-tour-ready='1']")
    expect(page.locator("#tour-network")).to_contain_text("Hors ligne")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_ludobus_pages_pass_axe(browser, live_server, staff_user):
    site = Location.objects.create(name="Ludobus")
    make_member("M0001", "Alex Tartempion", expiry=timezone.localdate() - datetime.timedelta(days=1))
    on_board(make_game("Quarto", pieces=[(16, "pièces")]), "90468", site)
    # …and a lend whose deposit the desk did not ask: its retry asks how it was paid.
    make_member("M0002", "Sam Bidule")
    giant = on_board(make_game("Quarto géant"), "95007", site)
    giant.kind = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("20.00"))
    giant.save()
    for sequence, card, barcode in [(1, "M0001", "90468"), (2, "M0002", "95007")]:
        action_replay(
            staff=staff_user,
            id=f"6f1d0a52-5a7e-4c57-9a57-1d0b05b1100{sequence}",
            kind="lend",
            location=site,
            sequence=sequence,
            recorded_at=timezone.now(),
            payload={"card": card, "barcode": barcode},
        )
    urls = ["/comptoir/tournee/", "/comptoir/tournee/conflits/"]
    assert serious_violations(browser, urls, base_url=live_server.url, user=staff_user) == {}
