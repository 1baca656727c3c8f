"""The counter on a busy Saturday, in a real browser (issue 14): a return in one action, a card scanned
in the lend box switching families, a late game named at lending, and every desk page on a phone."""

import datetime

import pytest
from django.utils import timezone

from loans import services
from loans.models import Loan
from tests.desk_browser import focused_id, scan
from tests.loan_helpers import make_copy, make_desk_world, make_game, make_member

PHONE = {"width": 390, "height": 844}


def log_in(page, live_server, user, path: str = "/comptoir/") -> None:
    page.goto(live_server.url + path)
    page.fill("#id_username", user.username)
    page.fill("#id_password", user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_game_comes_back_complete_in_one_action(page, live_server, staff_user):
    game = make_game("7 Wonders", pieces=[(count, f"pièce {count}") for count in range(1, 14)])
    family = make_member("M0001", "Alex Tartempion")
    loan = services.loan_create(copy=make_copy(game, "77001"), member=family, staff=staff_user)

    log_in(page, live_server, staff_user, "/comptoir/retour/")
    scan(page, "77001")
    assert "Retour de « 7 Wonders » (77001)" in page.locator("h1").inner_text()
    assert page.locator("input.count-input").count() == 13
    assert "Alt+C" in page.locator("#all-complete-help").inner_text()

    # One action: the keyboard shortcut of « Tout est complet ».
    with page.expect_navigation():
        page.keyboard.press("Alt+c")
    assert "« 7 Wonders » (77001) rendu par Alex Tartempion." in page.locator(".messages").inner_text()
    assert focused_id(page) == "id_barcode"  # back in the return box, ready for the next game
    loan.refresh_from_db()
    assert loan.return_check == Loan.ReturnCheck.COMPLETE


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_button_returns_complete_and_names_the_waiting_family(page, live_server, staff_user):
    world = make_desk_world(staff_user)
    services.hold_create(
        game=world["catane"], member=make_member("M0007", "Charlie Machin"), staff=staff_user
    )

    log_in(page, live_server, staff_user, "/comptoir/retour/")
    scan(page, "90461")
    assert "Charlie Machin (carte M0007)" in page.locator(".waiting-family").inner_text()
    with page.expect_navigation():
        page.click("button[name=all_complete]")
    assert (
        "mettez « Les colons de Catane » (90461) de côté pour Charlie Machin"
        in page.locator(".messages").inner_text()
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_next_familys_card_scanned_in_the_lend_box_switches_to_that_family(page, live_server, staff_user):
    make_desk_world(staff_user)
    log_in(page, live_server, staff_user)
    scan(page, "M0001")
    assert page.locator("h1").inner_text() == "Alex Tartempion"
    assert focused_id(page) == "id_barcode"

    scan(page, "M0002")  # the next family's card, into the lend box
    assert page.locator("h1").inner_text() == "Sam Bidule"
    assert "Carte M0002 : fiche de Sam Bidule." in page.locator(".messages").inner_text()
    assert focused_id(page) == "id_barcode"
    assert "aucun exemplaire" not in page.content().lower()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_lending_to_a_family_with_a_late_game_names_the_game(page, live_server, staff_user):
    world = make_desk_world(staff_user)
    Loan.objects.filter(pk=world["late"].pk).update(due_on=timezone.localdate() - datetime.timedelta(days=9))
    make_copy(world["biblios"], "90902")

    log_in(page, live_server, staff_user)
    scan(page, "M0001")
    warning = page.locator(".late-warning")
    assert warning.is_visible()
    assert "« Quarto » (90468, 9 jours de retard)" in warning.inner_text()

    scan(page, "90902")
    messages = page.locator(".messages").inner_text()
    assert "« Biblios » (90902) prêté" in messages
    assert (
        "Attention : Alex Tartempion a un jeu en retard, « Quarto » (90468, 9 jours de retard)." in messages
    )


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_desk_pages_fit_a_phone_without_sideways_scroll(page, live_server, staff_user):
    world = make_desk_world(staff_user)
    page.set_viewport_size(PHONE)
    log_in(page, live_server, staff_user)
    pages = [
        "/comptoir/",
        "/comptoir/?code=Tartempion",
        f"/comptoir/familles/{world['tartempion'].pk}/",
        f"/comptoir/familles/{world['bidule'].pk}/",
        f"/comptoir/prets/{world['late'].pk}/retour/",
        "/comptoir/retour/",
        "/comptoir/retards/",
        "/comptoir/reservations/",
        "/comptoir/incomplets/",
        "/comptoir/statistiques/",
    ]
    too_wide = {}
    for path in pages:
        page.goto(live_server.url + path)
        width = page.evaluate("document.documentElement.scrollWidth")
        if width > PHONE["width"]:
            too_wide[path] = width
    assert not too_wide, f"pages wider than a {PHONE['width']} px phone: {too_wide}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_reserving_a_title_on_the_shelf_offers_it_and_enter_lends_it(page, live_server, staff_user):
    world = make_desk_world(staff_user)
    make_copy(make_game("Luxor"), "55555")
    log_in(page, live_server, staff_user, f"/comptoir/familles/{world['bidule'].pk}/")
    page.select_option("#id_game", label="Luxor")
    with page.expect_navigation():
        page.click("form.hold-form button")
    assert "« Luxor » est en rayon (exemplaire 55555" in page.locator(".shelf-offer").inner_text()
    assert page.evaluate("document.activeElement.textContent").strip() == "Le prêter maintenant (55555)"
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "« Luxor » (55555) prêté" in page.locator(".messages").inner_text()
    assert Loan.objects.open().get(copy__barcode="55555").member == world["bidule"]
