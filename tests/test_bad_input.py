"""Bad input gets a clear 400 or 404, never a 500: the causes a red-team pass found, one test each.

The test client re-raises a view's exception, so each of these failed with a traceback before its fix.
"""

import datetime
import json

import pytest
from django.utils import timezone
from rest_framework.authtoken.models import Token

from loans.models import Loan
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type

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


def test_a_nul_byte_in_a_copy_barcode_is_not_found(client):
    assert client.get("/api/copies/%00/").status_code == 404
    assert client.get("/api/copies/90%0061/").status_code == 404


def test_a_nul_byte_in_the_desks_return_box_gets_a_message(client, staff_user):
    client.force_login(staff_user)
    response = client.get("/comptoir/retour/", {"barcode": "90\x0061"})
    assert response.status_code == 400
    assert "Aucun exemplaire ne porte le code-barres" in text_of(response)


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
