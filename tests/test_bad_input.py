"""Bad input gets a clear 400 or 404, never a 500: the causes a red-team pass found, one test each.

The test client re-raises a view's exception, so each of these failed with a traceback before its fix.
"""

import datetime
import json
import re

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from loans.models import Loan
from rules.models import LOADER_AUTHOR, Revision, RulePage
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_desk_world, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


@pytest.fixture
def staff_api(client, staff_user):
    token = Token.objects.create(user=staff_user).key
    client.defaults["HTTP_AUTHORIZATION"] = f"Token {token}"
    return client


def post_raw(client, url: str, body: str, **extra):
    return client.post(url, body, content_type="application/json", **extra)


# --- format suffixes on custom actions ----------------------------------------------------------------


@pytest.mark.parametrize("url", ["/api/rules.json", "/api/games/facets.json", "/api/games.json"])
def test_a_format_suffix_is_not_an_address_of_the_api(client, url):
    assert client.get(url).status_code == 404


def test_a_format_suffix_on_a_loan_action_is_not_found(staff_api, staff_user):
    loan = Loan.objects.create(
        copy=make_copy(make_game("Quarto"), "90468"),
        member=make_member("M1"),
        lent_by=staff_user,
        due_on=timezone.localdate(),
    )
    assert staff_api.post(f"/api/loans/{loan.pk}/renew.json").status_code == 404
    # The documented address still works.
    assert staff_api.post(f"/api/loans/{loan.pk}/renew/").status_code == 200


def test_the_format_query_parameter_still_chooses_json(client):
    response = client.get("/api/rules/?format=json")
    assert response.status_code == 200 and response["Content-Type"] == "application/json"


# --- numbers, text and nesting in a JSON body ----------------------------------------------------------


def test_a_number_too_large_for_a_float_is_refused_on_its_field(client):
    body = {
        "players": [
            {"name": "Ada", "building_points": 10**309, "coins": 0},
            {"name": "Bob", "building_points": 1, "coins": 0},
        ]
    }
    response = post_raw(client, "/api/rules/the-builders/score/", json.dumps(body))
    assert response.status_code == 400
    assert response.json() == {"players.0.building_points": ["La valeur doit être au plus 999999."]}


def test_a_float_too_large_for_an_integer_is_refused_on_its_field(client):
    response = post_raw(
        client,
        "/api/rules/the-builders/score/",
        '{"players": [{"name": "Ada", "building_points": 1e308, "coins": 0}, {"name": "Bob", "building_points": 1, "coins": 0}]}',
    )
    assert response.status_code == 400
    assert list(response.json()) == ["players.0.building_points"]


def test_a_lone_surrogate_in_a_json_body_is_refused(client):
    response = post_raw(
        client,
        "/api/rules/the-builders/score/",
        '{"players": [{"name": "\\ud800", "building_points": 1, "coins": 0}, {"name": "Bob", "building_points": 1, "coins": 0}]}',
    )
    assert response.status_code == 400
    assert "caractère" in response.json()["non_field_errors"][0]


def test_a_lone_surrogate_in_an_unknown_key_is_refused(client):
    response = post_raw(client, "/api/rules/quarto/check/", '{"\\udfff": 1}')
    assert response.status_code == 400


def test_a_json_body_nested_100000_deep_is_refused(client):
    body = '{"players": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = post_raw(client, "/api/rules/the-builders/score/", body)
    assert response.status_code == 400
    assert response.json() == {"non_field_errors": ["Le corps de la requête est imbriqué trop profondément."]}


def test_a_json_body_nested_100000_deep_is_refused_by_the_staff_api(staff_api):
    body = '{"member": ' + "[" * 100_000 + "]" * 100_000 + "}"
    response = post_raw(staff_api, "/api/loans/", body)
    assert response.status_code == 400


def test_a_deeply_nested_unknown_variant_is_refused_with_a_short_message(client):
    body = '{"variants": [' + "[" * 900 + "]" * 900 + '], "players": []}'
    response = post_raw(client, "/api/rules/the-builders/score/", body)
    assert response.status_code == 400
    message = response.json()["variants"][0]
    assert message.startswith("Variante inconnue") and len(message) < 200


# --- pages and barcodes ----------------------------------------------------------------------------


def test_a_page_number_beyond_a_bigint_is_not_found(client):
    make_game("Quarto")
    response = client.get("/api/games/?page=99999999999999999999999")
    assert response.status_code == 404


def test_a_nul_byte_in_a_copy_barcode_is_a_bad_request(client):
    assert client.get("/api/copies/%00/").status_code == 400
    assert client.get("/api/copies/90%0061/").status_code == 400


def test_a_nul_byte_in_the_desks_return_box_gets_a_message_on_its_field(client, staff_user):
    client.force_login(staff_user)
    response = client.get("/comptoir/retour/", {"barcode": "90\x0061"})
    assert response.status_code == 400
    assert "barcode : Ce paramètre contient un caractère nul" in text_of(response)


def test_a_nul_byte_in_a_lend_request_gets_a_message(staff_api):
    member = make_member("M1")
    response = post_raw(staff_api, "/api/loans/", json.dumps({"barcode": "90\x0061", "member": member.pk}))
    assert response.status_code == 400
    assert "barcode" in response.json()


def test_a_superscript_digit_in_the_search_ages_gets_a_message(client):
    response = client.get("/jeux/", {"ages": "6, ²"})
    assert response.status_code == 400


def test_a_superscript_digit_in_an_admin_filter_is_ignored(client, staff_user):
    client.force_login(staff_user)
    assert client.get("/admin/catalogue/game/", {"joueurs": "²"}).status_code == 200
    assert client.get("/admin/catalogue/game/", {"age": "²"}).status_code == 200


# --- writes the database would refuse -----------------------------------------------------------------


def test_a_new_family_whose_membership_ended_before_today_needs_a_start_date(staff_api):
    membership = make_membership_type()
    past = (timezone.localdate() - datetime.timedelta(days=10)).isoformat()
    response = post_raw(
        staff_api,
        "/api/members/",
        json.dumps(
            {
                "card_barcode": "M0099",
                "name": "Famille Passée",
                "membership_type": membership.pk,
                "membership_expiry": past,
            }
        ),
    )
    assert response.status_code == 400
    assert response.json() == {"membership_expiry": ["L'adhésion ne peut pas finir avant d'avoir commencé."]}


def test_a_superscript_digit_in_a_catalogue_spreadsheet_is_a_row_error():
    from catalogue.spreadsheet import read_sheet

    sheet = read_sheet("titre;joueurs_min\nQuarto;²\n")
    assert [(error.line, error.column) for error in sheet.errors] == [(2, "joueurs_min")]


def test_a_superscript_year_in_a_families_spreadsheet_is_a_row_error():
    from loans.exchange import read_families

    make_membership_type(name="Famille (1 an)")
    sheet = read_families("carte;nom;type_adhesion;foyer\nM0001;Alex;Famille (1 an);Noa ²⁰¹⁵\n")
    assert [(error.line, error.column) for error in sheet.errors] == [(2, "foyer")]


# --- NUL bytes and over-long values, refused in one place (ludotheque/badinput.py) ---------------------


@pytest.mark.parametrize(
    "url",
    [
        "/api/games/%00/",
        "/jeux/?categorie=%00",
        "/api/games/?categorie=%00",
        "/api/games/facets/?categorie=%00",
        "/compte/calendrier/%00.ics",
        "/jeux/?q=" + "a" * 4001,
        "/regles/" + "a" * 5000 + "/",
    ],
)
def test_a_nul_byte_or_an_overlong_value_in_an_address_is_a_bad_request(client, url):
    make_game("Quarto")
    response = client.get(url)
    assert response.status_code == 400
    if url.startswith("/api/"):
        assert response["Content-Type"] == "application/json"
        assert "caractère nul" in json.dumps(
            response.json(), ensure_ascii=False
        ) or "trop long" in json.dumps(response.json(), ensure_ascii=False)
    else:
        text = text_of(response)
        assert "caractère nul" in text or "trop long" in text


def test_the_api_names_the_parameter_it_refuses(client):
    response = client.get("/api/games/", {"categorie": "\x00", "q": "quarto"})
    assert response.status_code == 400
    assert response.json() == {"categorie": ["Ce paramètre contient un caractère nul (\\x00) : retirez-le."]}


def test_a_nul_byte_in_a_posted_form_is_a_bad_request_in_the_visitors_language(client):
    response = client.post(
        "/connexion/", {"username": "al\x00ex", "password": "x"}, HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert "username : This parameter contains a NUL character" in text_of(response)


def test_an_overlong_value_in_a_posted_form_is_a_bad_request(client):
    response = client.post("/connexion/", {"username": "a" * 200_001, "password": "x"})
    assert response.status_code == 400
    assert "username : Ce paramètre est trop long" in text_of(response)


@pytest.mark.parametrize("url", ["/jeux/", "/api/games/"])
def test_too_many_parameters_get_a_message_in_the_shape_of_the_address_and_no_error_mail(client, url, caplog):
    response = client.get(url + "?" + "&".join(f"p{number}=1" for number in range(1001)))
    assert response.status_code == 400
    if url.startswith("/api/"):
        assert response.json() == {"detail": "Cette demande compte trop de paramètres."}
    else:
        assert "Cette demande compte trop de paramètres." in text_of(response)
    assert not [record for record in caplog.records if record.levelname == "ERROR"]


def test_the_longest_link_the_site_builds_still_reaches_its_page(client, staff_user):
    """The admin's « Imprimer les étiquettes » of 500 copies: `?exemplaires=` and 500 ids."""
    client.force_login(staff_user)
    response = client.get(
        "/catalogue/etiquettes/", {"exemplaires": ",".join(str(100_000 + n) for n in range(500))}
    )
    assert response.status_code == 200
    assert "trop long" not in text_of(response)


def test_a_long_text_within_the_forms_bound_still_reaches_its_form(client, staff_user):
    client.force_login(staff_user)
    response = client.get("/comptoir/retour/", {"barcode": "9" * 1000})
    assert response.status_code == 400
    assert "Aucun exemplaire ne porte le code-barres" in text_of(response)


# --- the spreadsheets' cells --------------------------------------------------------------------------


def test_a_nul_byte_in_a_catalogue_spreadsheet_is_a_row_error():
    from catalogue.spreadsheet import read_sheet

    sheet = read_sheet("titre;joueurs_min\nQuarto;2\nQua\x00rto;2\n")
    assert [(error.line, error.column) for error in sheet.errors] == [(3, "titre")]
    assert [notice.title for notice in sheet.notices] == ["Quarto"]


def test_a_nul_byte_in_a_families_spreadsheet_is_a_row_error():
    from loans.exchange import read_families

    make_membership_type(name="Famille (1 an)")
    sheet = read_families(
        "carte;nom;type_adhesion\nM0001;Al\x00ex;Famille (1 an)\nM0002;Sam;Famille (1 an)\n"
    )
    assert [(error.line, error.column) for error in sheet.errors] == [(2, "nom")]
    assert [row.card for row in sheet.rows] == ["M0002"]


@pytest.mark.parametrize(
    ("url", "text"),
    [
        ("/catalogue/import/", "titre;joueurs_min\nQuarto;2\n{cell};2\nDixit;3\n"),
        ("/comptoir/familles/import/", "carte;nom\nM0001;Alex\nM0002;{cell}\n"),
        ("/catalogue/import/", "titre;{cell}\nQuarto;2\n"),
    ],
)
def test_a_cell_over_128_kb_in_a_spreadsheet_refuses_the_file(client, staff_user, url, text):
    from django.core.files.uploadedfile import SimpleUploadedFile

    client.force_login(staff_user)
    content = text.format(cell="Q" * 200_000).encode()
    response = client.post(url, {"fichier": SimpleUploadedFile("fichier.csv", content, "text/csv")})
    assert response.status_code == 400
    assert "une cellule dépasse 128 Ko" in text_of(response)


# --- a loan whose family was anonymised ---------------------------------------------------------------


@pytest.fixture
def anonymised_loan(staff_user):
    from loans import services

    loan = services.loan_create(
        copy=make_copy(make_game("Quarto"), "90468"), member=make_member("M1"), staff=staff_user
    )
    services.loan_return(loan=loan, staff=staff_user)
    Loan.objects.filter(pk=loan.pk).update(member=None)
    return loan


def test_renewing_an_anonymised_loan_through_the_api_is_refused(staff_api, anonymised_loan):
    response = staff_api.post(f"/api/loans/{anonymised_loan.pk}/renew/")
    assert response.status_code == 400
    assert "clôturé" in json.dumps(response.json(), ensure_ascii=False)


def test_renewing_an_anonymised_loan_at_the_desk_is_not_found(client, staff_user, anonymised_loan):
    client.force_login(staff_user)
    assert client.post(f"/comptoir/prets/{anonymised_loan.pk}/prolonger/").status_code == 404


def test_declaring_an_anonymised_loan_lost_says_it_is_closed(client, staff_user, anonymised_loan):
    client.force_login(staff_user)
    response = client.get(f"/comptoir/prets/{anonymised_loan.pk}/perdu/", follow=True)
    assert response.status_code == 200
    assert "Ce prêt est déjà clôturé." in text_of(response)


# --- the main pages' query parameters, fuzzed -----------------------------------------------------------

# The shapes that crashed views: a NUL byte, a value longer than any address holds, digits that are not
# ASCII (Python's int() reads « ١٢ » as 12), a superscript digit (a digit to str.isdigit(), not to
# int()), a number beyond any column. tests/test_api_schema_fuzz.py sends the same to the API.
BAD_VALUES = ["1\x00", "9" * 4_001, "١٢", "²", "9" * 40]
GET_FORM = re.compile(r"<form\b(?![^>]*method=\"post\")[^>]*>(.*?)</form>", re.DOTALL | re.IGNORECASE)
FIELD_NAME = re.compile(r"<(?:input|select|textarea)\b[^>]*\bname=\"([^\"]+)\"")

# Each main page, with the parameters its view reads that no form of it shows.
ANONYMOUS_PAGES = {
    "/": [],
    "/jeux/": ["page"],
    "/jeux/{game}/": [],
    "/regles/": [],
    "/regles/quarto/": [],
    "/regles/quarto/mise-en-place/": [],
    "/regles/the-builders/feuille-de-score/": [],
    "/regles/quarto/arbitrage/": [],
    "/regles/catane/plateau/?graine=7": [],
    "/regles/quarto/historique/": [],
    "/regles/quarto/comparer/": ["de", "a"],
    "/connexion/": ["next"],
    "/vie-privee/": [],
}
STAFF_PAGES = {
    "/comptoir/": ["code"],
    "/comptoir/familles/{family}/": [],
    "/comptoir/retour/": ["barcode"],
    "/comptoir/retards/": [],
    "/comptoir/reservations/": [],
    "/comptoir/incomplets/": [],
    "/comptoir/statistiques/": [],
    "/comptoir/familles/{family}/kit/": ["pret"],
    "/comptoir/familles/{family}/caisse/": ["page"],
    "/comptoir/cautions/": [],
    "/comptoir/caisse/": ["site"],
    "/comptoir/comptabilite/": ["annee", "export"],
    "/comptoir/sur-place/": [],
    "/comptoir/sur-place/statistiques/": ["annee"],
    "/comptoir/lettres/": [],
    "/catalogue/etiquettes/": [],
    "/catalogue/etiquettes/boites/": [],
    "/inventaire/": [],
    "/admin/catalogue/game/": ["q", "joueurs", "age"],
}


def query_parameters(client, url: str, extra: list[str]) -> list[str]:
    response = client.get(url)
    assert response.status_code == 200, url
    html = response.content.decode()
    names = {name for form in GET_FORM.findall(html) for name in FIELD_NAME.findall(form)}
    return sorted(names - {"csrfmiddlewaretoken"} | set(extra))


def fuzz_pages(client, pages: dict[str, list[str]], **ids) -> int:
    sent = 0
    for page, extra in pages.items():
        url = page.format(**ids)
        names = query_parameters(client, url, extra)
        assert names or not extra, url
        for name in names:
            for value in BAD_VALUES:
                response = client.get(url, {name: value})
                assert response.status_code < 500, (url, name, value[:20])
                sent += 1
    return sent


def test_no_query_parameter_of_a_public_page_gets_a_server_error(client, staff_user):
    world = make_desk_world(staff_user)
    page = RulePage.objects.create(slug="quarto", title="Quarto")
    for number in (1, 2):
        Revision.objects.create(
            page=page, number=number, author_name=LOADER_AUTHOR, content=f"== But ==\n{number}\n"
        )
    assert fuzz_pages(client, ANONYMOUS_PAGES, game=world["quarto"].slug) > 100


def test_no_query_parameter_of_a_desk_page_gets_a_server_error(client, staff_user):
    world = make_desk_world(staff_user)
    client.force_login(staff_user)
    assert fuzz_pages(client, STAFF_PAGES, family=world["tartempion"].pk) > 100
