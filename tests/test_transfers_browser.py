"""A hold collected at another site through a transfer, in a real browser: the family reserves from the
game's page choosing the annex, the main site's desk sends the copy, the annex's desk scans it in, the
family is told by e-mail (a real SMTP server), and the annex's desk lends it."""

import pytest
from playwright.sync_api import expect

from catalogue.models import Copy, Location
from loans.models import Hold, Loan, Transfer
from tests.axe import serious_violations, session_cookie
from tests.loan_helpers import make_family_user, make_game, make_member
from tests.test_notice_smtp import smtp_server  # noqa: F401 — the real SMTP server fixture


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_hold_collected_at_another_site_through_a_transfer(
    browser,
    page,
    live_server,
    staff_user,
    smtp_server,  # noqa: F811
):
    main = Location.objects.create(name="Maison des Enfants")
    Location.objects.create(name="Annexe des Tilleuls")
    quarto = make_game("Quarto")
    copy = Copy.objects.create(game=quarto, cote="QUA", location=main, barcode="90468")
    user = make_family_user()
    alex = make_member("M0001", "Alex Tartempion", user=user, email="tartempion@example.org")

    # The family, at home: the game is on the shelf at the main site; it chooses to collect it at the annex.
    page.context.add_cookies([session_cookie(user, live_server.url)])
    page.goto(f"{live_server.url}{quarto.get_absolute_url()}")
    page.get_by_label("À retirer à").select_option(label="Annexe des Tilleuls")
    with page.expect_navigation():
        page.get_by_role("button", name="Réserver").click()
    expect(page.locator("ul.messages")).to_contain_text("un exemplaire part pour Annexe des Tilleuls")
    expect(page.locator("li.hold")).to_contain_text(
        "un exemplaire est en route : à retirer à Annexe des Tilleuls"
    )
    assert Hold.objects.get().status == Hold.Status.TRANSIT

    # The main site's desk: « à envoyer à Annexe des Tilleuls », marked sent.
    desk = browser.new_context(locale="fr-BE").new_page()
    desk.context.add_cookies([session_cookie(staff_user, live_server.url)])
    desk.goto(f"{live_server.url}/comptoir/transferts/?site={main.pk}")
    group = desk.get_by_role("group", name="À envoyer à Annexe des Tilleuls")
    expect(group).to_contain_text("« Quarto » (90468)")
    expect(group).to_contain_text("Alex Tartempion")
    with desk.expect_navigation():
        group.get_by_role("button", name="Marquer envoyés (en transit)").click()
    expect(desk.get_by_text("1 exemplaire envoyé à Annexe des Tilleuls.")).to_be_visible()
    assert smtp_server.messages == []  # not told before the copy arrives

    # The game page says where the copy is.
    page.goto(f"{live_server.url}{quarto.get_absolute_url()}")
    expect(page.locator("li.copy")).to_contain_text("En transit")

    # The annex's desk: the copy is on its way; scanned in, it is set aside and the family is told.
    desk.get_by_label("Ce comptoir est à").select_option(label="Annexe des Tilleuls")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Changer de site").click()
    expect(desk.get_by_role("region", name="Exemplaires en transit").first).to_contain_text("90468")
    desk.get_by_label("Code-barres de l'exemplaire arrivé").fill("90468")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Réceptionner").click()
    expect(
        desk.get_by_text("Arrivé : mettez « Quarto » (90468) de côté pour Alex Tartempion")
    ).to_be_visible()
    line = Transfer.objects.get()
    assert (line.shipment.sent_by, line.received_by) == (staff_user, staff_user)

    assert [to for _sender, to in smtp_server.envelopes] == [["tartempion@example.org"]]
    told = smtp_server.messages[0]
    assert told["Subject"] == "Ludothèque : Votre réservation est prête"
    assert (
        "« Quarto » (code-barres 90468) : à retirer à Annexe des Tilleuls"
        in told.get_body(preferencelist=("plain",)).get_content()
    )
    page.goto(f"{live_server.url}/compte/")
    expect(page.locator("li.hold")).to_contain_text("prête : à retirer à Annexe des Tilleuls")

    # The annex's desk lends it to the family.
    desk.goto(f"{live_server.url}/comptoir/familles/{alex.pk}/")
    desk.fill("#id_barcode", "90468")
    with desk.expect_navigation():
        desk.get_by_role("button", name="Prêter").click()
    loan = Loan.objects.get()
    assert (loan.copy, loan.member, loan.is_open) == (copy, alex, True)
    assert Hold.objects.get().status == Hold.Status.FULFILLED
    desk.context.close()

    urls = ["/comptoir/transferts/", "/comptoir/transferts/envoi-groupe/", "/comptoir/transferts/historique/"]
    assert serious_violations(browser, urls, base_url=live_server.url, user=staff_user) == {}
