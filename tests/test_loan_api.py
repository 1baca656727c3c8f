"""The desk's API: members, loans (lend by barcode, return, renew) and holds, for staff."""

import datetime

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone
from rest_framework.authtoken.models import Token

from catalogue.models import Copy
from loans import services
from loans.models import Hold, Loan, MissingPiece
from members.models import MembershipType
from tests.loan_helpers import make_copy, make_desk_world, make_game, make_member, make_membership_type

pytestmark = pytest.mark.django_db


@pytest.fixture
def world(staff_user):
    return make_desk_world(staff_user)


@pytest.fixture
def api(client, staff_user):
    client.force_login(staff_user)
    return client


def post(client, url: str, data: dict | None = None):
    return client.post(url, data or {}, content_type="application/json")


def test_lending_by_barcode_creates_the_loan(api, world):
    copy = make_copy(world["biblios"], "90902")
    response = post(api, "/api/loans/", {"barcode": "90902", "member": world["bidule"].pk})
    assert response.status_code == 201
    body = response.json()
    assert body["barcode"] == "90902" and body["game"] == "Biblios" and body["member"] == world["bidule"].pk
    assert body["due_on"] == (timezone.localdate() + datetime.timedelta(days=21)).isoformat()
    assert Loan.objects.open().get(copy=copy).member == world["bidule"]


def test_lending_through_the_api_costs_thirteen_queries_whatever_the_family_has_at_home(
    client, world, staff_user, django_assert_num_queries
):
    # The desk's scanner client: token auth, one checkout after another.
    token = Token.objects.create(user=staff_user).key
    family = make_member("M0010", membership_type=make_membership_type(loan_quota=5))
    barcodes = [make_copy(world["biblios"], f"9100{i}").barcode for i in range(4)]
    for loans_at_home, barcode in enumerate(barcodes):
        # The token and its user; the family and the copy named in the request; then, in the
        # transaction (a savepoint inside the test's own), the family's row locked, the game's and the
        # copy's rows locked in one statement, the open loans of the copy and of the family counted in
        # one, whether the copy is away at a table (on-site play), the holds to honour or respect
        # locked, the site's opening hours for the due date (a site with hours adds its closures: 14),
        # the insert, the copy's coming date bookings (a loan running into one is shortened).
        with django_assert_num_queries(13):
            response = client.post(
                "/api/loans/",
                {"barcode": barcode, "member": family.pk},
                content_type="application/json",
                HTTP_AUTHORIZATION=f"Token {token}",
            )
        assert response.status_code == 201
        assert family.loans.open().count() == loans_at_home + 1


def test_returning_through_the_api_with_the_pieces_check_costs_a_fixed_number_of_queries(
    client, world, staff_user, django_assert_num_queries
):
    # The desk's scanner client takes back two copies: one complete, one with a piece missing.
    token = Token.objects.create(user=staff_user).key
    family = make_member("M0011", membership_type=make_membership_type(loan_quota=5))
    game = make_game("Dixit", pieces=[(84, "cartes")])
    component = game.components.get()
    complete, incomplete = (
        services.loan_create(copy=make_copy(game, barcode), member=family, staff=staff_user)
        for barcode in ("92001", "92002")
    )

    def back(loan: Loan, check: dict):
        return client.post(
            f"/api/loans/{loan.pk}/return/",
            check,
            content_type="application/json",
            HTTP_AUTHORIZATION=f"Token {token}",
        )

    # The token and its user; the loan named in the URL (it exists); then, in the transaction (a
    # savepoint inside the test's own), the loan's row locked with its family and membership type, the
    # game's and the copy's rows locked in one statement, the game's pieces, the copy's missing pieces
    # locked, the loan closed, whether another app keeps the copy off the shelves (a kit's, a repair's),
    # the first waiting hold locked (none: nobody waits). The answer reuses the locked rows: no read
    # after the transaction.
    with django_assert_num_queries(11):
        response = back(complete, {})
    assert response.status_code == 200 and response.json()["return_check"] == Loan.ReturnCheck.COMPLETE
    # With a piece missing: also the piece named in the request, its record, the copy marked incomplete,
    # its missing pieces and whether the rules engine knows the game (the table sizes it still allows,
    # loans/playable.py), and the first family waiting (told to the clerk) instead of a hold served.
    with django_assert_num_queries(15):
        response = back(incomplete, {"missing": [{"component": component.pk, "quantity": 1}]})
    assert response.status_code == 200
    assert response.json()["copy_status"] == Copy.Status.INCOMPLETE
    assert not family.loans.open().exists()
    assert MissingPiece.objects.still_missing().get(copy__barcode="92002").loan == incomplete


def test_a_copy_already_on_loan_answers_409_with_the_reason(api, world):
    response = post(api, "/api/loans/", {"barcode": "90461", "member": world["bidule"].pk})
    assert response.status_code == 409
    assert response.json()["code"] == "already_on_loan"
    assert "déjà en prêt chez Alex Tartempion" in response.json()["detail"]
    assert Loan.objects.open().filter(copy__barcode="90461").count() == 1


def test_other_refusals_answer_400_under_the_field_they_are_about(api, world):
    # An incomplete copy: the barcode is the problem.
    response = post(api, "/api/loans/", {"barcode": "90901", "member": world["bidule"].pk})
    assert response.status_code == 400
    assert "Incomplet" in response.json()["barcode"][0]
    # A family at its quota: the member is the problem.
    member = make_member("M0008", membership_type=make_membership_type(loan_quota=1))
    make_copy(world["biblios"], "1")
    make_copy(world["biblios"], "2")
    assert post(api, "/api/loans/", {"barcode": "1", "member": member.pk}).status_code == 201
    response = post(api, "/api/loans/", {"barcode": "2", "member": member.pk})
    assert response.status_code == 400
    assert "c'est le maximum" in response.json()["member"][0]


def test_bad_input_answers_400_per_field(api, world):
    response = post(api, "/api/loans/", {"barcode": "", "member": 999999})
    assert response.status_code == 400
    assert set(response.json()) == {"barcode", "member"}
    response = post(api, "/api/loans/", {"barcode": "inconnu", "member": world["bidule"].pk})
    assert response.status_code == 400
    assert response.json() == {"barcode": ["Aucun exemplaire ne porte le code-barres « inconnu »."]}


def test_the_api_speaks_english_when_asked(api, world):
    response = api.post(
        "/api/loans/",
        {"barcode": "inconnu", "member": world["bidule"].pk},
        content_type="application/json",
        HTTP_ACCEPT_LANGUAGE="en",
    )
    assert response.json() == {"barcode": ["No copy carries the barcode “inconnu”."]}


def test_returning_with_a_missing_piece(api, world):
    loan = world["current"]
    component = world["catane"].components.first()
    response = post(
        api, f"/api/loans/{loan.pk}/return/", {"missing": [{"component": component.pk, "quantity": 2}]}
    )
    assert response.status_code == 200
    body = response.json()
    assert body["returned_at"] is not None
    assert body["return_check"] == Loan.ReturnCheck.INCOMPLETE
    assert body["copy_status"] == Copy.Status.INCOMPLETE
    assert body["set_aside_for"] is None
    assert (
        MissingPiece.objects.still_missing().filter(copy=loan.copy, component=component, quantity=2).exists()
    )


def test_a_return_says_which_hold_the_copy_is_set_aside_for(api, world, staff_user):
    from loans import services

    hold = services.hold_create(game=world["catane"], member=world["bidule"], staff=staff_user)
    body = post(api, f"/api/loans/{world['current'].pk}/return/").json()
    assert body["set_aside_for"]["id"] == hold.pk
    assert body["set_aside_for"]["status"] == Hold.Status.READY
    assert body["set_aside_for"]["barcode"] == "90461"


def test_a_second_return_answers_400(api, world):
    response = post(api, f"/api/loans/{world['broken'].pk}/return/")
    assert response.status_code == 400
    assert "déjà clôturé" in response.json()["non_field_errors"][0]


def test_a_return_with_too_many_missing_pieces_answers_400(api, world):
    component = world["catane"].components.first()
    response = post(
        api,
        f"/api/loans/{world['current'].pk}/return/",
        {"missing": [{"component": component.pk, "quantity": 99}]},
    )
    assert response.status_code == 400
    assert "plus de 37" in response.json()["missing"][0]
    response = post(
        api, f"/api/loans/{world['current'].pk}/return/", {"missing": [{"component": component.pk}]}
    )
    assert response.status_code == 400 and "missing" in response.json()


def test_renewing_through_the_api(api, world, staff_user):
    from loans import services

    response = post(api, f"/api/loans/{world['current'].pk}/renew/")
    assert response.status_code == 200 and response.json()["renewals"] == 1
    response = post(api, f"/api/loans/{world['current'].pk}/renew/")
    assert response.status_code == 400
    assert "maximum" in response.json()["non_field_errors"][0]
    services.hold_create(game=world["quarto"], member=make_member("M0009"), staff=staff_user)
    response = post(api, f"/api/loans/{world['late'].pk}/renew/")
    assert response.status_code == 400
    assert "réservé par une autre famille" in response.json()["non_field_errors"][0]


def test_the_loan_list_filters_open_and_overdue_loans(api, world):
    assert {row["barcode"] for row in api.get("/api/loans/?open=true").json()["results"]} == {
        "90461",
        "90468",
    }
    assert [row["barcode"] for row in api.get("/api/loans/?overdue=true").json()["results"]] == ["90468"]
    assert [
        row["barcode"] for row in api.get(f"/api/loans/?member={world['bidule'].pk}").json()["results"]
    ] == ["90901"]


def test_members_list_with_their_quota_left_and_household(api, world):
    rows = {row["card_barcode"]: row for row in api.get("/api/members/").json()["results"]}
    assert rows["M0001"]["open_loan_count"] == 2 and rows["M0001"]["quota_left"] == 1
    assert rows["M0001"]["household"] == [{"first_name": "Alex", "birth_year": 1985}]
    assert rows["M0001"]["membership_valid"] is True
    assert api.get("/api/members/?card_barcode=M0002").json()["count"] == 1


def test_creating_a_member_and_refusing_a_duplicate_card(api, world):
    data = {
        "card_barcode": "M0100",
        "name": "Camille Truc",
        "email": "truc@example.org",
        "membership_type": world["tartempion"].membership_type_id,
        "membership_start": "2026-01-01",
        "membership_expiry": "2026-12-31",
    }
    response = post(api, "/api/members/", data)
    assert response.status_code == 201 and response.json()["quota_left"] == 3
    response = post(api, "/api/members/", data)
    assert response.status_code == 400 and "card_barcode" in response.json()
    response = post(api, "/api/members/", data | {"card_barcode": "M0101", "membership_expiry": "2025-01-01"})
    assert response.status_code == 400
    assert response.json()["membership_expiry"] == ["L'adhésion ne peut pas finir avant d'avoir commencé."]


def test_a_group_created_through_the_api_needs_its_contact_person(api, world):
    school = make_membership_type(name="Collectivité", kind=MembershipType.Kind.GROUP)
    data = {
        "card_barcode": "C0100",
        "name": "École du Centre — CP",
        "membership_type": school.pk,
        "membership_start": "2026-09-01",
        "membership_expiry": "2027-06-30",
    }
    response = post(api, "/api/members/", data)
    assert response.status_code == 400
    assert response.json()["contact_name"] == [
        "Une collectivité a une personne de contact : l'enseignant, l'éducateur…"
    ]
    response = post(api, "/api/members/", data | {"contact_name": "M. Lambert"})
    assert response.status_code == 201 and response.json()["contact_name"] == "M. Lambert"
    response = api.patch(
        f"/api/members/{response.json()['id']}/", {"contact_name": " "}, content_type="application/json"
    )
    assert response.status_code == 400 and "contact_name" in response.json()


def test_holds_through_the_api(api, world):
    response = post(api, "/api/holds/", {"game": world["catane"].pk, "member": world["bidule"].pk})
    assert response.status_code == 201
    hold = response.json()
    assert hold["status"] == Hold.Status.WAITING and hold["game_title"] == "Les colons de Catane"
    response = post(api, "/api/holds/", {"game": world["catane"].pk, "member": world["bidule"].pk})
    assert response.status_code == 400
    assert "déjà une réservation en cours" in response.json()["game"][0]
    response = post(api, f"/api/holds/{hold['id']}/cancel/")
    assert response.status_code == 200 and response.json()["status"] == Hold.Status.CANCELLED
    assert post(api, f"/api/holds/{hold['id']}/cancel/").status_code == 400
    assert [row["status"] for row in api.get("/api/holds/?status=ready").json()["results"]] == ["ready"]


@pytest.mark.parametrize("url", ["/api/loans/", "/api/members/", "/api/holds/"])
def test_api_lists_cost_the_same_queries_with_more_rows(api, world, staff_user, url):
    from loans import services

    def count() -> int:
        with CaptureQueriesContext(connection) as queries:
            assert api.get(url).status_code == 200
        return len(queries)

    few = count()
    for i in range(6):
        game = make_game(f"Jeu {i}")
        member = make_member(f"Z{i}")
        services.loan_create(copy=make_copy(game, f"Z{i}"), member=member, staff=staff_user)
        services.hold_create(game=game, member=make_member(f"W{i}"), staff=staff_user)
    assert count() == few <= 6
