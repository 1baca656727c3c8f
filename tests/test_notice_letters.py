"""The desk's letters: families told by post, printed one A4 page each, then marked printed; and the
notices' history on the family's page and the loan's page."""

import io

import pytest
from django.urls import reverse
from pypdf import PdfReader

from members.models import Member
from notices.models import Notice
from notices.services import notices_send
from tests.conftest import text_of
from tests.loan_helpers import make_member
from tests.notice_helpers import TODAY, days, game_copy, lend

pytestmark = pytest.mark.django_db


def family_by_post(card: str, name: str, address: str) -> Member:
    member = make_member(card, name, email="")
    Member.objects.filter(pk=member.pk).update(address=address)
    return member


@pytest.fixture
def letters(staff_user):
    """Two families without e-mail with a late game each, and one by e-mail: two letters to print."""
    machin = family_by_post("M0003", "Charlie Machin", "3 place des Dés\n1000 Bruxelles")
    chose = family_by_post("M0004", "Dominique Chose", "4 chemin du Pion\n1000 Bruxelles")
    tartempion = make_member("M0001", "Alex Tartempion")
    for index, member in enumerate([machin, chose, tartempion]):
        lend(
            game_copy("7 Wonders", f"9123{index}"),
            member,
            staff_user,
            lent_on=TODAY - days(29),
            due_on=TODAY - days(8),
        )
    notices_send(today=TODAY)
    return Notice.objects.to_print().order_by("member__name")


def test_the_desk_lists_the_letters_to_print_with_their_addresses(client, staff_user, letters):
    client.force_login(staff_user)
    page = text_of(client.get(reverse("notices:letter-list")))
    assert "Imprimer les 2 lettres" in page
    assert "Charlie Machin" in page and "3 place des Dés" in page and "Dominique Chose" in page
    assert "Alex Tartempion" not in page
    assert "Lettres (2)" in text_of(client.get(reverse("loans:desk")))


def test_the_print_page_has_one_letter_per_family_with_its_address_block(client, staff_user, letters):
    client.force_login(staff_user)
    response = client.get(reverse("notices:letters-print"))
    html = response.content.decode()
    assert html.count('class="letter"') == 2
    assert '<p class="letter-address">Charlie Machin\n3 place des Dés\n1000 Bruxelles</p>' in html
    assert "« 7 Wonders » (code-barres 91230) : à rendre le mardi 02/03/2027, 8 jours de retard" in html


def test_marking_the_printed_letters_takes_them_off_the_list(client, staff_user, letters):
    client.force_login(staff_user)
    ids = [letter.pk for letter in letters]
    response = client.post(reverse("notices:letters-mark-printed"), {"letters": ids})
    assert response.status_code == 302
    assert not Notice.objects.to_print().exists()
    printed = Notice.objects.filter(pk__in=ids)
    assert all(
        letter.status == Notice.Status.PRINTED and letter.printed_by == staff_user for letter in printed
    )
    page = text_of(client.get(reverse("notices:letter-list")))
    assert "2 lettres marquées comme imprimées." in page and "Aucune lettre à imprimer." in page
    assert "réimprimer" in page
    # A letter printed can be printed again, one at a time.
    again = client.get(reverse("notices:letters-print"), {"avis": ids[0]}).content.decode()
    assert again.count('class="letter"') == 1 and "Marquer" not in again


def test_marking_a_letter_already_printed_or_unknown_says_so_and_changes_nothing(client, staff_user, letters):
    client.force_login(staff_user)
    client.post(reverse("notices:letters-mark-printed"), {"letters": [letters[0].pk]})
    response = client.post(
        reverse("notices:letters-mark-printed"), {"letters": [letters[0].pk, 999999]}, follow=True
    )
    assert "Cette lettre n'est plus à imprimer" in text_of(response)
    assert Notice.objects.to_print().count() == 1
    assert client.get(reverse("notices:letters-mark-printed")).status_code == 405
    assert client.get(reverse("notices:letters-print"), {"avis": "abc"}).status_code == 400


def test_the_letters_are_for_librarians_only(client, outsider, letters):
    for url in [reverse("notices:letter-list"), reverse("notices:letters-print")]:
        assert client.get(url).status_code == 302
    client.force_login(outsider)
    assert client.get(reverse("notices:letter-list")).status_code == 403
    assert (
        client.post(reverse("notices:letters-mark-printed"), {"letters": [letters[0].pk]}).status_code == 403
    )
    assert Notice.objects.to_print().count() == 2


def test_a_family_s_page_and_a_loan_s_page_show_the_notices_sent(client, staff_user, letters):
    member = Member.objects.get(card_barcode="M0001")
    loan = member.loans.get()
    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:member-detail", args=[member.pk])))
    assert (
        "Avis envoyés" in page
        and "Ludothèque : Jeux en retard" in page
        and "retard 1 — 7 Wonders (91232)" in page
    )
    assert "envoyé" in page
    page = text_of(client.get(reverse("loans:loan-return", args=[loan.pk])))
    assert "Avis envoyés pour ce prêt" in page and "Ludothèque : Jeux en retard" in page


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_letters_print_as_one_a4_page_per_family(page, live_server, staff_user, print_to_pdf):
    for index in range(3):
        member = family_by_post(
            f"M000{index}", f"Famille {index}", f"{index} rue de l'Exemple\n1000 Bruxelles"
        )
        for game in range(4):  # a family with several late games still gets one page
            lend(
                game_copy(f"Jeu {game}", f"9{index}{game}00"),
                member,
                staff_user,
                lent_on=TODAY - days(70),
                due_on=TODAY - days(45 + game),
            )
    notices_send(today=TODAY)
    assert Notice.objects.to_print().count() == 3

    page.goto(live_server.url + reverse("notices:letters-print"))
    page.fill("#id_username", staff_user.username)
    page.fill("#id_password", staff_user.raw_password)
    with page.expect_navigation():
        page.keyboard.press("Enter")
    pdf = print_to_pdf(live_server.url + reverse("notices:letters-print"))

    reader = PdfReader(io.BytesIO(pdf))
    assert len(reader.pages) == 3
    for index, pdf_page in enumerate(reader.pages):
        text = pdf_page.extract_text()
        assert (
            f"Famille {index}" in text and f"{index} rue de l'Exemple" in text and "Mise en demeure" in text
        )
        assert "Imprimer" not in text and "Marquer" not in text  # the screen's buttons stay off paper
        width, height = float(pdf_page.mediabox.width), float(pdf_page.mediabox.height)
        assert (round(width), round(height)) == (595, 842)  # A4 in points
