"""A kit lent to a school class and taken back, in a real browser, as the desk does it with a scanner.

Scan the kit: its page says a copy is out with a family; lending is refused until the clerk ticks
« Prêter la malle sans ce qui manque »; the list shows the kit at the school. Scan it again: its
return opens with every game's pieces on one page; a game comes back with pieces missing and the
loose material with a bag missing.
"""

from io import StringIO

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command

from catalogue.models import Copy
from kits.models import Kit, KitItem
from loans import services as loans
from loans.models import Loan, MissingPiece
from tests.axe import PHONE, serious_violations
from tests.desk_browser import focused_id, scan
from tests.kit_helpers import make_group, make_kit
from tests.loan_helpers import make_member


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_volunteer_lends_a_kit_to_a_school_and_takes_it_back(page, live_server, staff_user):
    kit = make_kit()
    away = Copy.objects.get(barcode="95001")
    KitItem.objects.filter(copy=away).delete()
    loans.loan_create(copy=away, member=make_member("M0001", "Alex Tartempion"), staff=staff_user)
    KitItem.objects.create(kit=kit, copy=away)
    school = make_group()

    page.goto(live_server.url + "/comptoir/malles/")
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert focused_id(page) == "id_barcode"

    # Scan the kit: its page, with what stays home.
    scan(page, "K0001")
    assert page.locator("h1").inner_text() == "Malle maternelle"
    problems = page.locator(".kit-problems").inner_text()
    assert "« Jeu 951 » (95001) : en prêt, chez Alex Tartempion" in problems
    assert focused_id(page) == "id_card"

    # The school's card: refused while the clerk has not said what to do with the missing game.
    scan(page, "C0001")
    assert "Prêtez-la sans ce qui manque" in page.locator(".errorlist").first.inner_text()
    assert not Loan.objects.filter(member=school).exists()
    page.check("#id_without_missing")
    page.fill("#id_card", "C0001")
    with page.expect_navigation():
        page.click("button:has-text('Prêter la malle')")
    message = page.locator(".messages").inner_text()
    assert (
        "Malle « Malle maternelle » prêtée à École Jules Ferry — CE1, contact Mme Durand : 2 jeux" in message
    )
    assert sorted(Loan.objects.open().filter(member=school).values_list("copy__barcode", flat=True)) == [
        "95000",
        "95002",
    ]

    # The list says where the kit is.
    with page.expect_navigation():
        page.click("nav.desk-nav >> text=Malles")
    assert "Prêtée à École Jules Ferry — CE1, contact Mme Durand" in page.locator("table.kits").inner_text()

    # Scan it back: one page with each game's pieces and the loose material.
    scan(page, "K0001")
    assert "Retour de la malle « Malle maternelle » (K0001)" in page.locator("h1").inner_text()
    assert page.locator("fieldset.kit-copy-check").count() == 2
    loan = Loan.objects.open().get(copy__barcode="95002")
    jetons = loan.copy.game.components.get(label="jetons")
    page.fill(f"#id_loan{loan.pk}-missing_{jetons.pk}", "2")
    page.uncheck("#id_present_1")  # « 2 sacs »
    with page.expect_navigation():
        page.click("text=Confirmer le retour de la malle")
    messages = page.locator(".messages").inner_text()
    assert (
        "Malle « Malle maternelle » rendue par École Jules Ferry — CE1, contact Mme Durand : 2 jeux repris."
        in messages
    )
    assert "« Jeu 952 » (95002) : il manque 2 × jetons." in messages
    assert "Matériel manquant, noté sur la malle : 2 sacs." in messages

    assert not Loan.objects.open().filter(member=school).exists()
    assert MissingPiece.objects.get().loan == loan
    assert Copy.objects.get(barcode="95002").status == Copy.Status.INCOMPLETE
    assert "À la ludothèque" in page.locator("table.kits").inner_text()


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, {"width": 1280, "height": 800}], ids=["phone", "desktop"])
def test_the_kit_pages_of_the_demo_have_no_serious_fault(browser, live_server, settings, tmp_path, viewport):
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", "--force", stdout=StringIO())
    out, home = Kit.objects.get(barcode="MAL001"), Kit.objects.get(barcode="MAL002")
    urls = [
        "/comptoir/malles/",
        home.get_absolute_url(),
        out.get_absolute_url(),
        f"/comptoir/malles/{out.pk}/retour/",
        f"/comptoir/malles/{home.pk}/etiquette/",
    ]
    staff = get_user_model().objects.get(username="benevole")
    assert serious_violations(browser, urls, base_url=live_server.url, user=staff, viewport=viewport) == {}
