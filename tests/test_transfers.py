"""Copies between sites: a hold collected at another site, returns elsewhere, crates, and their history
(loans/transfers.py, the desk's pages `/comptoir/transferts/…`, the API)."""

from decimal import Decimal

import pytest
from django.core.exceptions import ValidationError
from django.db import IntegrityError, connection, transaction
from django.urls import reverse

from bench.yearsim.invariants import PLACES, TRANSIT_MISMATCH_SQL
from catalogue.models import Copy, Game, ItemKind, Location
from ledger.models import Entry, Kind
from loans import services
from loans import transfers as transfer_services
from loans.models import Hold, Loan, Shipment, Transfer
from tests.conftest import text_of
from tests.loan_helpers import make_game, make_member

pytestmark = pytest.mark.django_db


@pytest.fixture
def main_site():
    return Location.objects.create(name="Maison des Enfants")


@pytest.fixture
def annex():
    return Location.objects.create(name="Annexe des Tilleuls")


@pytest.fixture
def quarto(main_site):
    game = make_game("Quarto")
    Copy.objects.create(game=game, cote="QUA", location=main_site, barcode="90468")
    return game


def _copy(barcode: str = "90468") -> Copy:
    return Copy.objects.get(barcode=barcode)


def _send_and_receive(copy: Copy, from_site: Location, to_site: Location, staff) -> transfer_services.Arrival:
    transfer_services.transfer_send(copies=[copy], from_site=from_site, to_site=to_site, staff=staff)
    return transfer_services.transfer_receive(copy=copy, site=to_site, staff=staff)


def test_a_hold_to_collect_at_another_site_puts_the_copy_in_transit_there(
    staff_user, quarto, main_site, annex
):
    hold = services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)

    assert hold.status == Hold.Status.TRANSIT and hold.copy == _copy()
    assert _copy().status == Copy.Status.IN_TRANSIT
    line = Transfer.objects.get()
    assert (line.from_site, line.to_site, line.reason, line.hold) == (main_site, annex, "hold", hold)
    assert line.state == "à envoyer" and list(Transfer.objects.to_send()) == [line]
    # In transit: neither lendable nor « disponible » in the search, which says so.
    assert not Copy.objects.available().exists()
    assert not Game.objects.with_shelf_status().get().shelf_site
    assert Game.objects.with_shelf_status().get().in_transit


def test_a_copy_at_the_pickup_site_is_preferred_to_one_that_would_travel(
    staff_user, quarto, main_site, annex
):
    Copy.objects.create(game=quarto, cote="QUA", location=annex, barcode="90469")
    hold = services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    assert hold.status == Hold.Status.READY and hold.copy.barcode == "90469"
    assert not Transfer.objects.exists()


def test_the_hold_is_ready_only_when_its_copy_arrives_at_the_pickup_site(
    staff_user, quarto, main_site, annex
):
    hold = services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    shipment = transfer_services.transfer_send(
        copies=[_copy()], from_site=main_site, to_site=annex, staff=staff_user
    )
    hold.refresh_from_db()
    assert hold.status == Hold.Status.TRANSIT
    assert Transfer.objects.get().state == "en transit"
    assert (shipment.sent_by, shipment.from_site, shipment.to_site) == (staff_user, main_site, annex)

    arrival = transfer_services.transfer_receive(copy=_copy(), site=annex, staff=staff_user)

    hold.refresh_from_db()
    assert arrival.hold == hold and hold.status == Hold.Status.READY and hold.ready_until is not None
    line = Transfer.objects.get()
    assert line.received_by == staff_user and line.received_at is not None and line.state == "reçu"
    # Back in its status, still belonging to its own site; kept at the desk for the family.
    copy = _copy()
    assert (copy.status, copy.location) == (Copy.Status.ON_SHELF, main_site)
    assert list(Copy.objects.set_aside()) == [copy]


def test_a_copy_is_received_only_where_it_goes_and_once_sent(staff_user, quarto, main_site, annex):
    services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    with pytest.raises(ValidationError) as not_sent:
        transfer_services.transfer_receive(copy=_copy(), site=annex, staff=staff_user)
    assert not_sent.value.error_dict["barcode"][0].code == "not_sent"
    transfer_services.transfer_send(copies=[_copy()], from_site=main_site, to_site=annex, staff=staff_user)
    with pytest.raises(ValidationError) as wrong:
        transfer_services.transfer_receive(copy=_copy(), site=main_site, staff=staff_user)
    assert wrong.value.error_dict["barcode"][0].code == "wrong_site"
    assert "attendu à Annexe des Tilleuls" in wrong.value.error_dict["barcode"][0].messages[0]
    transfer_services.transfer_receive(copy=_copy(), site=annex, staff=staff_user)
    with pytest.raises(ValidationError) as again:
        transfer_services.transfer_receive(copy=_copy(), site=annex, staff=staff_user)
    assert again.value.error_dict["barcode"][0].code == "not_in_transit"


def test_a_copy_in_transit_cannot_be_lent(staff_user, quarto, annex):
    services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    with pytest.raises(ValidationError):
        services.loan_create(copy=_copy(), member=make_member("M2", "Sam Bidule"), staff=staff_user)
    assert not Loan.objects.exists()


def test_the_family_borrows_its_hold_at_the_pickup_site(staff_user, quarto, main_site, annex):
    member = make_member("M1")
    hold = services.hold_create(game=quarto, member=member, staff=staff_user, pickup_site=annex)
    _send_and_receive(_copy(), main_site, annex, staff_user)
    loan = services.loan_create(copy=_copy(), member=member, staff=staff_user)
    hold.refresh_from_db()
    assert hold.status == Hold.Status.FULFILLED and loan.is_open


def test_the_fee_and_deposit_go_to_the_books_and_till_of_the_site_where_the_family_is(
    staff_user, quarto, main_site, annex
):
    """A giant game collected at the annex for a hold: the cash changes hands at the annex's desk, so
    its till, not the main site's (ledger/till.py counts each site's drawer), holds the deposit and
    hands it back when the game is returned there; the loan's fee is the annex's too."""
    copy = _copy()
    copy.kind = ItemKind.objects.create(name="Grand jeu", deposit=Decimal("20.00"), loan_fee=Decimal("1.00"))
    copy.save()
    member = make_member("M1")
    services.hold_create(game=quarto, member=member, staff=staff_user, pickup_site=annex)
    _send_and_receive(_copy(), main_site, annex, staff_user)

    loan = services.loan_create(copy=_copy(), member=member, staff=staff_user, deposit_method="cash")
    services.loan_return(loan=loan, staff=staff_user, site=annex.pk)

    assert [(entry.kind, entry.site) for entry in Entry.objects.filter(loan=loan).order_by("pk")] == [
        (Kind.LOAN_FEE, annex),
        (Kind.DEPOSIT_RECEIVED, annex),
        (Kind.DEPOSIT_RETURNED, annex),
    ]


def test_a_copy_returned_at_another_site_goes_home_when_its_site_says_so(
    staff_user, quarto, main_site, annex
):
    loan = services.loan_create(copy=_copy(), member=make_member("M1"), staff=staff_user)
    result = services.loan_return(loan=loan, staff=staff_user, site=annex.pk)

    assert result.transfer is not None
    assert (result.transfer.from_site, result.transfer.to_site, result.transfer.reason) == (
        annex,
        main_site,
        "home",
    )
    assert _copy().status == Copy.Status.IN_TRANSIT
    arrival = _send_and_receive(_copy(), annex, main_site, staff_user)
    assert arrival.hold is None and arrival.onward is None
    assert (_copy().status, _copy().location) == (Copy.Status.ON_SHELF, main_site)


def test_a_copy_returned_at_another_site_stays_there_when_its_site_keeps_them(
    staff_user, quarto, main_site, annex
):
    Location.objects.filter(pk=main_site.pk).update(returns_home=False)
    loan = services.loan_create(copy=_copy(), member=make_member("M1"), staff=staff_user)
    result = services.loan_return(loan=loan, staff=staff_user, site=annex.pk)

    assert result.transfer is None
    copy = _copy()
    assert (copy.status, copy.location) == (Copy.Status.ON_SHELF, annex)
    kept = Transfer.objects.get()
    assert (kept.reason, kept.from_site, kept.to_site, kept.received_by) == (
        "kept",
        main_site,
        annex,
        staff_user,
    )


def test_a_copy_returned_elsewhere_serves_first_a_family_waiting_there(staff_user, quarto, main_site, annex):
    loan = services.loan_create(copy=_copy(), member=make_member("M1"), staff=staff_user)
    waiting = services.hold_create(
        game=quarto, member=make_member("M2", "Sam Bidule"), staff=staff_user, pickup_site=annex
    )
    result = services.loan_return(loan=loan, staff=staff_user, site=annex.pk)
    waiting.refresh_from_db()
    assert result.hold == waiting and waiting.status == Hold.Status.READY
    assert not Transfer.objects.exists() and _copy().status == Copy.Status.ON_SHELF


def test_a_ready_hold_not_collected_at_another_site_sends_its_copy_home(staff_user, quarto, main_site, annex):
    hold = services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    _send_and_receive(_copy(), main_site, annex, staff_user)
    services.hold_cancel(hold=Hold.objects.get(pk=hold.pk))
    line = Transfer.objects.open().get()
    assert (line.reason, line.from_site, line.to_site) == ("home", annex, main_site)
    assert _copy().status == Copy.Status.IN_TRANSIT


def test_a_crate_sends_many_copies_in_one_shipment_and_they_move_on_arrival(staff_user, main_site, annex):
    games = [make_game(title) for title in ("Quarto", "Biblios", "Dobble")]
    copies = [
        Copy.objects.create(game=game, cote="X", location=main_site, barcode=f"9100{n}")
        for n, game in enumerate(games)
    ]
    shipment = transfer_services.transfer_send(
        copies=copies, from_site=main_site, to_site=annex, staff=staff_user, note="Tournée de mardi"
    )
    assert shipment.transfers.count() == 3
    assert set(Copy.objects.values_list("status", flat=True)) == {Copy.Status.IN_TRANSIT}
    for copy in copies:
        transfer_services.transfer_receive(copy=copy, site=annex, staff=staff_user)
    assert set(Copy.objects.values_list("location", flat=True)) == {annex.pk}
    assert set(Copy.objects.values_list("status", flat=True)) == {Copy.Status.ON_SHELF}


def test_a_crate_with_a_copy_that_cannot_go_is_refused_whole_naming_it(staff_user, quarto, main_site, annex):
    other = Copy.objects.create(game=make_game("Biblios"), cote="B", location=main_site, barcode="91001")
    services.loan_create(copy=_copy(), member=make_member("M1"), staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        transfer_services.transfer_send(
            copies=[other, _copy()], from_site=main_site, to_site=annex, staff=staff_user
        )
    messages = refused.value.error_dict["barcodes"]
    assert [error.messages[0] for error in messages] == ["90468 (« Quarto ») : en prêt"]
    assert not Transfer.objects.exists() and not Shipment.objects.exists()
    assert Copy.objects.get(pk=other.pk).status == Copy.Status.ON_SHELF
    with pytest.raises(ValidationError) as same:
        transfer_services.transfer_send(
            copies=[other], from_site=main_site, to_site=main_site, staff=staff_user
        )
    assert same.value.error_dict["to_site"][0].code == "same_site"


def test_a_copy_waiting_to_leave_for_a_site_goes_in_no_crate_for_another(
    staff_user, quarto, main_site, annex
):
    bus = Location.objects.create(name="Ludobus")
    services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    with pytest.raises(ValidationError) as refused:
        transfer_services.transfer_send(copies=[_copy()], from_site=main_site, to_site=bus, staff=staff_user)
    assert "à envoyer à Annexe des Tilleuls" in refused.value.error_dict["barcodes"][0].messages[0]


def test_a_site_that_does_not_lend_is_no_pickup_site(staff_user, quarto):
    store = Location.objects.create(name="Réserve", lends=False)
    with pytest.raises(ValidationError) as refused:
        services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=store)
    assert refused.value.error_dict["pickup_site"][0].code == "pickup_site_not_lending"


def test_without_a_choice_the_hold_goes_to_the_family_s_usual_site(staff_user, quarto, main_site, annex):
    member = make_member("M1")
    other = Copy.objects.create(game=make_game("Biblios"), cote="B", location=annex, barcode="91001")
    loan = services.loan_create(copy=other, member=member, staff=staff_user)
    services.loan_return(loan=loan, staff=staff_user)
    hold = services.hold_create(game=quarto, member=member, staff=staff_user)
    assert hold.pickup_site == annex and hold.status == Hold.Status.TRANSIT


@pytest.mark.postgresql
def test_the_moves_are_history_never_deleted(staff_user, quarto, main_site, annex):
    services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    transfer_services.transfer_send(copies=[_copy()], from_site=main_site, to_site=annex, staff=staff_user)
    for model in (Transfer, Shipment):
        with pytest.raises(IntegrityError), transaction.atomic():
            model.objects.all().delete()


def test_every_copy_is_in_exactly_one_place_for_the_year_simulation(staff_user, quarto, main_site, annex):
    services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    Copy.objects.create(game=quarto, cote="QUA", location=main_site, barcode="90469")
    with connection.cursor() as cursor:
        places = {}
        for place, sql in PLACES.items():
            cursor.execute(sql)
            for (copy,) in cursor.fetchall():
                places.setdefault(copy, []).append(place)
        cursor.execute(TRANSIT_MISMATCH_SQL)
        adrift = cursor.fetchall()
    assert places == {_copy().pk: ["in transit"]} and adrift == []
    # A copy marked in transit without its line breaks the invariant.
    Copy.objects.filter(barcode="90469").update(status=Copy.Status.IN_TRANSIT)
    with connection.cursor() as cursor:
        cursor.execute(TRANSIT_MISMATCH_SQL)
        assert cursor.fetchall() == [(_copy("90469").pk,)]


# The desk's pages.


@pytest.fixture
def desk(client, staff_user, main_site, annex):
    client.force_login(staff_user)
    return client


def test_the_desk_lists_what_to_send_and_sends_it(desk, staff_user, quarto, main_site, annex):
    services.hold_create(
        game=quarto, member=make_member("M1", "Sam Bidule"), staff=staff_user, pickup_site=annex
    )
    page = desk.get(reverse("loans:transfer-desk"), {"site": main_site.pk})
    text = text_of(page)
    assert page.status_code == 200
    assert "À envoyer à Annexe des Tilleuls" in text and "« Quarto » (90468)" in text and "Sam Bidule" in text

    line = Transfer.objects.get()
    answer = desk.post(reverse("loans:transfer-send"), {"transfers": [line.pk]}, follow=True)
    assert "1 exemplaire envoyé à Annexe des Tilleuls." in text_of(answer)
    assert Transfer.objects.get().shipment.sent_by == staff_user


def test_the_receiving_desk_scans_the_copy_in(desk, staff_user, quarto, main_site, annex):
    services.hold_create(
        game=quarto, member=make_member("M1", "Sam Bidule"), staff=staff_user, pickup_site=annex
    )
    transfer_services.transfer_send(copies=[_copy()], from_site=main_site, to_site=annex, staff=staff_user)
    page = desk.get(reverse("loans:transfer-desk"), {"site": annex.pk})
    assert "En route vers ce site" in text_of(page) and "90468" in text_of(page)

    answer = desk.post(reverse("loans:transfer-receive"), {"barcode": "90468"}, follow=True)
    assert "Arrivé : mettez « Quarto » (90468) de côté pour Sam Bidule" in text_of(answer)
    assert Hold.objects.get().status == Hold.Status.READY


def test_a_bad_reception_scan_answers_400_with_its_reason(desk, quarto, annex):
    desk.get(reverse("loans:transfer-desk"), {"site": annex.pk})
    unknown = desk.post(reverse("loans:transfer-receive"), {"barcode": "00000"})
    assert unknown.status_code == 400 and "Aucun exemplaire ne porte le code-barres 00000." in text_of(
        unknown
    )
    not_travelling = desk.post(reverse("loans:transfer-receive"), {"barcode": "90468"})
    assert not_travelling.status_code == 400 and "n'est pas en transit" in text_of(not_travelling)


def test_a_crate_is_scanned_and_sent_from_the_desk(desk, staff_user, quarto, main_site, annex):
    desk.get(reverse("loans:transfer-desk"), {"site": main_site.pk})
    form = desk.get(reverse("loans:shipment-create"))
    assert form.status_code == 200 and "Envoi groupé" in text_of(form)
    bad = desk.post(reverse("loans:shipment-create"), {"to_site": annex.pk, "barcodes": "90468\n00000"})
    assert bad.status_code == 400 and "Codes-barres inconnus : 00000." in text_of(bad)
    empty = desk.post(reverse("loans:shipment-create"), {"barcodes": ""})
    assert empty.status_code == 400 and not Shipment.objects.exists()
    answer = desk.post(
        reverse("loans:shipment-create"), {"to_site": annex.pk, "barcodes": "90468\n", "note": "Caisse 1"}
    )
    assert answer.status_code == 302
    assert Shipment.objects.get().note == "Caisse 1" and _copy().status == Copy.Status.IN_TRANSIT


def test_the_transfer_pages_are_for_staff_and_refuse_other_methods(client, outsider, desk):
    assert desk.post(reverse("loans:transfer-desk")).status_code == 405
    assert desk.get(reverse("loans:transfer-receive")).status_code == 405
    assert desk.get(reverse("loans:transfer-history")).status_code == 200
    client.logout()
    client.force_login(outsider)
    for name in ("loans:transfer-desk", "loans:shipment-create", "loans:transfer-history"):
        assert client.get(reverse(name)).status_code in (302, 403)


def test_the_game_page_says_en_transit(client, staff_user, quarto, annex):
    services.hold_create(game=quarto, member=make_member("M1"), staff=staff_user, pickup_site=annex)
    page = client.get(quarto.get_absolute_url())
    assert "En transit" in text_of(page) and "Disponible" not in text_of(page)
    results = client.get("/jeux/", {"q": "Quarto"})
    assert "En transit entre deux sites" in text_of(results)


# The API.


def test_the_api_reserves_for_a_pickup_site_sends_and_receives(desk, staff_user, quarto, main_site, annex):
    member = make_member("M1")
    hold = desk.post(
        "/api/holds/",
        {"game": quarto.pk, "member": member.pk, "pickup_site": annex.pk},
        content_type="application/json",
    )
    assert hold.status_code == 201
    assert (hold.json()["status"], hold.json()["pickup_site_name"]) == ("transit", "Annexe des Tilleuls")
    assert desk.get("/api/transfers/", {"state": "to_send"}).json()["results"][0]["barcode"] == "90468"

    shipment = desk.post(
        "/api/shipments/",
        {"from_site": main_site.pk, "to_site": annex.pk, "barcodes": ["90468"]},
        content_type="application/json",
    )
    assert shipment.status_code == 201 and len(shipment.json()["transfers"]) == 1
    received = desk.post(
        "/api/transfers/receive/", {"barcode": "90468", "site": annex.pk}, content_type="application/json"
    )
    assert received.status_code == 200
    assert received.json()["state"] == "received" and received.json()["hold_ready"] == hold.json()["id"]


def test_the_api_answers_400_per_field(desk, quarto, main_site, annex):
    store = Location.objects.create(name="Réserve", lends=False)
    refused = desk.post(
        "/api/holds/",
        {"game": quarto.pk, "member": make_member("M1").pk, "pickup_site": store.pk},
        content_type="application/json",
    )
    assert refused.status_code == 400 and "ne prête pas de jeux" in refused.json()["pickup_site"][0]
    unknown = desk.post(
        "/api/shipments/",
        {"from_site": main_site.pk, "to_site": annex.pk, "barcodes": ["00000"]},
        content_type="application/json",
    )
    assert unknown.status_code == 400 and "00000" in unknown.json()["barcodes"][0]
    not_travelling = desk.post(
        "/api/transfers/receive/", {"barcode": "90468", "site": annex.pk}, content_type="application/json"
    )
    assert not_travelling.status_code == 400 and "n'est pas en transit" in not_travelling.json()["barcode"][0]
    assert desk.delete("/api/transfers/1/").status_code == 405
