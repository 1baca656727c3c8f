"""A family on its phone (390 × 844): reserve, cancel, renew; the invitation and the password reset
through the e-mail outbox, end to end in Debian's Chromium."""

import re

import pytest
from django.core import mail

from loans import services
from loans.models import Hold, Loan
from tests.ledger_helpers import session_cookie
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member

PHONE = {"width": 390, "height": 844}


def no_sideways_scroll(page) -> bool:
    return page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")


def path_of(link: str) -> str:
    return re.sub(r"^https?://[^/]+", "", link)


def link_in(message) -> str:
    return re.search(r"https?://\S+", message.body).group(0)


def log_in(page, url: str, login: str, password: str) -> None:
    page.goto(url + "/connexion/")
    page.fill("#id_username", login)
    page.fill("#id_password", password)
    with page.expect_navigation():
        page.click("main button[type=submit]")


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_family_reserves_cancels_and_renews_on_its_phone(page, live_server, staff_user):
    alex = make_member("M0001", "Alex Tartempion")
    alex.user = make_family_user()
    alex.save()
    sam = make_member("M0002", "Sam Bidule")
    catane = make_game("Les colons de Catane")
    services.loan_create(copy=make_copy(catane, "C1"), member=sam, staff=staff_user)
    biblios = make_game("Biblios")
    loan = services.loan_create(copy=make_copy(biblios, "B1"), member=alex, staff=staff_user)

    page.set_viewport_size(PHONE)
    log_in(page, live_server.url, "M0001", alex.user.raw_password)  # by card number

    # Reserve from the game's page: the button is on the first screen.
    page.goto(live_server.url + catane.get_absolute_url())
    button = page.get_by_role("button", name="Réserver")
    assert button.is_visible() and button.bounding_box()["y"] + 40 < PHONE["height"]
    with page.expect_navigation():
        button.click()
    assert page.url == live_server.url + "/compte/"
    assert (
        "« Les colons de Catane » réservé : vous êtes à la place 1 dans la file."
        in page.locator(".messages").inner_text()
    )
    assert "place 1 dans la file" in page.locator("li.hold").inner_text()
    assert no_sideways_scroll(page)

    # Renew the game at home.
    with page.expect_navigation():
        page.get_by_role("button", name="Prolonger « Biblios »").click()
    assert "« Biblios » prolongé : à rendre le" in page.locator(".messages").inner_text()
    assert Loan.objects.get(pk=loan.pk).renewals == 1
    assert page.get_by_role("button", name="Prolonger « Biblios »").count() == 0

    # Cancel the hold.
    with page.expect_navigation():
        page.get_by_role("button", name="Annuler la réservation de « Les colons de Catane »").click()
    assert "Réservation de « Les colons de Catane » annulée." in page.locator(".messages").inner_text()
    assert Hold.objects.get(member=alex).status == Hold.Status.CANCELLED
    assert no_sideways_scroll(page)


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_an_invited_family_chooses_its_password_then_resets_it(
    browser, page, live_server, staff_user, settings
):
    settings.SITE_URL = live_server.url
    alex = make_member("M0001", "Alex Tartempion", email="alex@example.org")

    # The desk invites the family from its page.
    desk = browser.new_context(locale="fr-BE")
    desk.add_cookies([session_cookie(staff_user, live_server.url)])
    clerk = desk.new_page()
    clerk.goto(live_server.url + alex.get_absolute_url())
    with clerk.expect_navigation():
        clerk.get_by_role("button", name="Inviter par e-mail").click()
    assert "Invitation envoyée à alex@example.org" in clerk.locator(".messages").inner_text()
    desk.close()
    [invitation] = mail.outbox

    # The family opens the link on its phone, chooses a password, logs in with its e-mail.
    page.set_viewport_size(PHONE)
    page.goto(live_server.url + path_of(link_in(invitation)))
    page.fill("#id_new_password1", "un-jeu-de-societe-2026")
    page.fill("#id_new_password2", "un-jeu-de-societe-2026")
    with page.expect_navigation():
        page.get_by_role("button", name="Enregistrer le mot de passe").click()
    assert page.locator("h1").inner_text() == "Mot de passe enregistré"
    log_in(page, live_server.url, "alex@example.org", "un-jeu-de-societe-2026")
    page.goto(live_server.url + "/compte/")
    assert "Alex Tartempion" in page.locator("h1").inner_text()
    assert no_sideways_scroll(page)
    with page.expect_navigation():
        page.get_by_role("button", name="Se déconnecter").click()

    # Forgotten: the login page leads to the reset, whose e-mail brings a new password.
    page.goto(live_server.url + "/connexion/")
    with page.expect_navigation():
        page.get_by_role("link", name="Mot de passe oublié ?").click()
    page.fill("#id_email", "alex@example.org")
    with page.expect_navigation():
        page.get_by_role("button", name="Recevoir le lien").click()
    assert page.locator("h1").inner_text() == "Lien envoyé"
    reset = mail.outbox[-1]
    assert len(mail.outbox) == 2 and reset.to == ["alex@example.org"]
    page.goto(live_server.url + path_of(link_in(reset)))
    page.fill("#id_new_password1", "encore-un-jeu-2027")
    page.fill("#id_new_password2", "encore-un-jeu-2027")
    with page.expect_navigation():
        page.get_by_role("button", name="Enregistrer le mot de passe").click()
    log_in(page, live_server.url, "M0001", "encore-un-jeu-2027")
    page.goto(live_server.url + "/compte/")
    assert page.url == live_server.url + "/compte/"
