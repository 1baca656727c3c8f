"""The whole demo, walked page by page as a visitor, a volunteer and a family: its French reads naturally.

Each page reached by a link from the home page, the desk or the account (same site, GET, no admin, no
download) is read as a person sees it, and fails on « (s) », « de » before a vowel, a « 99 » shown as
an upper bound or « Encore 0 ». The texts of the notices themselves (summaries, rules, contents, in
`.long-text`) are shown as the library catalogued them and are not read.
"""

import datetime
import re
from html import unescape
from io import StringIO
from urllib.parse import urljoin, urlsplit

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from loans import services
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_family_user, make_game, make_member
from tests.wording import wording_faults

pytestmark = pytest.mark.django_db

# Pages a walk does not read: the admin (Django's own French), the API and its docs (JSON), the
# language switch, files (CSV, JSON, calendar feeds, media) and the print sheets that need a choice.
SKIPPED = re.compile(r"^/(admin|api|i18n|media|static)/|\.(csv|json|ics|pdf|png|jpg|webp)$|^/deconnexion/")
MAX_PAGES = 400
# A few searches the walk cannot reach by a link (the form is submitted, not followed).
SEARCHES = ["/jeux/?ages=6,9,38", "/jeux/?ages=4,9,38&duree_max=15", "/jeux/?q=xylophone&duree_max=20"]


@pytest.fixture
def demo(db, settings, tmp_path):
    settings.MEDIA_ROOT = tmp_path
    call_command("load_demo", "--force", stdout=StringIO())


def site_text(response) -> str:
    """The page's text without the catalogued long texts."""
    html = re.sub(r'<div class="long-text">.*?</div>', " ", response.content.decode(), flags=re.DOTALL)
    response = type("Page", (), {"content": html.encode()})
    return text_of(response)


def links(html: str, base: str) -> list[str]:
    found = []
    for href in re.findall(r'<a\b[^>]*\bhref="([^"#]+)', html):
        url = urljoin(base, unescape(href))
        parts = urlsplit(url)
        if parts.netloc not in ("", "testserver") or parts.query or SKIPPED.search(parts.path):
            continue
        found.append(parts.path)
    return found


def walk(client: Client, start: list[str]) -> tuple[dict[str, list[str]], int]:
    """Read every page reachable from `start`: the faults found, by page, and how many pages were read."""
    faults, seen, queue, read = {}, set(start), list(start), 0
    while queue and len(seen) <= MAX_PAGES:
        path = queue.pop(0)
        response = client.get(path)
        if response.status_code != 200 or "text/html" not in response.get("Content-Type", ""):
            continue
        read += 1
        if found := wording_faults(site_text(response)):
            faults[path] = found
        for link in links(response.content.decode(), path):
            if link not in seen:
                seen.add(link)
                queue.append(link)
    return faults, read


def test_the_checks_catch_what_they_mean():
    assert wording_faults("Vainqueur(s) : Alex") and wording_faults("3 jeu(x)")
    assert wording_faults("Compte de Alex") and wording_faults("Âge 10 – 99")
    assert not wording_faults("la lettre la plus proche de A, de 8 ans")
    assert wording_faults("2 à 99 joueurs") and wording_faults("Encore 0 prêt possible")
    assert not wording_faults("Compte d'Alex, de 5 à 7 ans, 2 joueurs, 99 points, prix 12,99 €")


def test_a_visitor_reads_natural_french_on_every_public_page(demo):
    faults, read = walk(Client(), ["/", "/jeux/", "/regles/", *SEARCHES])
    assert not faults, faults
    assert read > 60  # the games' pages, the rules pages with their setup and score sheets…


def test_a_volunteer_reads_natural_french_on_every_desk_page(demo):
    client = Client()
    client.force_login(get_user_model().objects.get(username="benevole"))
    faults, read = walk(client, ["/comptoir/", "/comptoir/retards/", "/comptoir/reservations/"])
    assert not faults, faults
    assert read > 20  # the desk's lists, each family's page, the returns, the till…


def test_a_family_reads_natural_french_on_its_account(demo):
    client = Client()
    client.force_login(get_user_model().objects.get(username="famille"))
    faults, read = walk(client, ["/compte/"])
    assert not faults, faults
    assert read >= 1


def test_a_refusal_that_names_a_family_elides_de(client, staff_user):
    """The desk lends a copy set aside for Alex: « la réservation d'Alex », not « de Alex »."""
    game = make_game("Quarto")
    copy = make_copy(game, "Q1")
    services.hold_create(game=game, member=make_member("M0001", "Alex Tartempion"), staff=staff_user)
    other = make_member("M0002", "Sam Bidule")
    client.force_login(staff_user)
    response = client.post(reverse("loans:member-detail", args=[other.pk]), {"barcode": copy.barcode})
    assert response.status_code == 400
    text = text_of(response)
    assert "la réservation d'Alex Tartempion" in text and not wording_faults(text)


def test_a_checkbox_label_takes_no_colon(client):
    html = client.get(reverse("catalogue:game-list")).content.decode()
    label = re.search(r'<label for="id_disponible">([^<]*)</label>', html).group(1)
    assert label == "Disponible maintenant"


def test_the_return_box_says_what_the_return_form_asks(client, staff_user):
    """The return form asks how many of a piece are missing; nothing is ticked any more."""
    client.force_login(staff_user)
    text = text_of(client.get(reverse("loans:return-scan")))
    assert "cochez" not in text and "Tout est complet" in text


def test_english_pages_keep_european_dates(client, staff_user):
    alex = make_member("M0001", "Alex Tartempion", user=make_family_user())
    loan = services.loan_create(copy=make_copy(make_game("Quarto"), "Q1"), member=alex, staff=staff_user)
    loan.due_on = datetime.date(2026, 12, 23)
    loan.save(update_fields=["due_on"])
    client.force_login(alex.user)
    text = text_of(client.get(reverse("loans:account"), HTTP_ACCEPT_LANGUAGE="en"))
    assert "Wednesday 23/12/2026" in text and "12/23/2026" not in text
