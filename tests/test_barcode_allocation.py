"""New copies numbered from the library's sequence (prefix + next number): no duplicate, no gap."""

import pytest
from django.core.exceptions import ValidationError
from django.db import connection, transaction
from django.urls import reverse

from catalogue.models import BarcodeSequence, Copy
from catalogue.services import barcode_allocate
from tests.loan_helpers import make_copy, make_game
from tests.search_helpers import site
from tests.test_loan_concurrency import run_at_once

SCANNERS = 12


def sequence(prefix: str = "LUD", next_number: int = 1, digits: int = 6) -> BarcodeSequence:
    return BarcodeSequence.objects.create(pk=1, prefix=prefix, next_number=next_number, digits=digits)


def test_numbers_follow_each_other_with_the_prefix_and_zeros(db):
    sequence(next_number=41)
    assert [barcode_allocate() for _ in range(3)] == ["LUD000041", "LUD000042", "LUD000043"]
    assert BarcodeSequence.objects.get().next_number == 44


def test_a_number_already_on_a_copy_is_skipped(db):
    sequence(prefix="", next_number=90460, digits=5)
    make_copy(make_game(), "90461")
    assert [barcode_allocate(), barcode_allocate()] == ["90460", "90462"]


def test_a_copy_that_is_not_saved_gives_its_number_back(db):
    sequence()
    with pytest.raises(RuntimeError), transaction.atomic():
        barcode_allocate()
        raise RuntimeError("the copy could not be saved")
    assert barcode_allocate() == "LUD000001"


def test_without_a_sequence_the_barcode_must_be_typed(db):
    with pytest.raises(ValidationError) as error:
        barcode_allocate()
    assert error.value.code == "no_sequence"


def test_the_library_has_one_sequence(db):
    sequence()
    with pytest.raises(Exception), transaction.atomic():  # noqa: B017 — the database refuses it
        BarcodeSequence.objects.create(pk=2, prefix="X")


@pytest.mark.django_db(transaction=True)
@pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL")
def test_librarians_adding_copies_at_once_get_distinct_consecutive_numbers():
    sequence(next_number=1)
    game = make_game("Quarto")
    location = site("Maison des Enfants")

    @transaction.atomic
    def add_copy() -> Copy:
        return Copy.objects.create(game=game, cote="BLA", location=location, barcode=barcode_allocate())

    outcomes = run_at_once([add_copy] * SCANNERS)
    assert all(isinstance(outcome, Copy) for outcome in outcomes), outcomes
    barcodes = sorted(copy.barcode for copy in outcomes)
    assert barcodes == [f"LUD{number:06d}" for number in range(1, SCANNERS + 1)]
    assert BarcodeSequence.objects.get().next_number == SCANNERS + 1


@pytest.fixture
def librarian(client, staff_user):
    client.force_login(staff_user)
    return client


def copy_form(game, **values) -> dict:
    return {
        "game": game.pk,
        "barcode": "",
        "cote": "BLA",
        "location": site("Maison des Enfants").pk,
        "status": Copy.Status.ON_SHELF,
        **values,
    }


def test_a_copy_added_in_the_admin_without_barcode_takes_the_next_number(librarian):
    sequence(next_number=7)
    game = make_game("Quarto")
    page = librarian.get(reverse("admin:catalogue_copy_add"))
    assert "LUD000007" in page.content.decode()
    response = librarian.post(reverse("admin:catalogue_copy_add"), copy_form(game))
    assert response.status_code == 302
    assert Copy.objects.get().barcode == "LUD000007"
    # A barcode typed (or scanned from a pre-printed label) is kept, and the sequence does not move.
    librarian.post(reverse("admin:catalogue_copy_add"), copy_form(game, barcode="90468"))
    assert sorted(Copy.objects.values_list("barcode", flat=True)) == ["90468", "LUD000007"]
    assert BarcodeSequence.objects.get().next_number == 8


def test_copies_added_with_their_game_each_take_a_number(librarian):
    sequence()
    response = librarian.post(
        reverse("admin:catalogue_game_add"),
        {
            "title": "Quarto",
            "slug": "quarto",
            "document_type": "objet à 3 dimensions, artefacts, ...",
            "copies-TOTAL_FORMS": "2",
            "copies-INITIAL_FORMS": "0",
            **{f"copies-{n}-{name}": value for n in (0, 1) for name, value in copy_form_values().items()},
            **{
                f"{prefix}-{suffix}": "0"
                for prefix in ("authorships", "publisher_credits", "components", "documents")
                for suffix in ("TOTAL_FORMS", "INITIAL_FORMS")
            },
        },
    )
    assert response.status_code == 302, response.context["errors"] if response.context else response
    assert sorted(Copy.objects.values_list("barcode", flat=True)) == ["LUD000001", "LUD000002"]


def copy_form_values() -> dict:
    return {"cote": "BLA", "barcode": "", "location": site("Maison des Enfants").pk, "status": "on_shelf"}


def test_without_a_sequence_the_admin_asks_for_the_barcode(librarian):
    game = make_game("Quarto")
    response = librarian.post(reverse("admin:catalogue_copy_add"), copy_form(game))
    assert response.status_code == 200
    assert response.context["adminform"].form.errors["barcode"] == ["Ce champ est obligatoire."]
    assert not Copy.objects.exists()


def test_the_sequence_is_set_up_once_in_the_admin(librarian):
    response = librarian.post(
        reverse("admin:catalogue_barcodesequence_add"), {"prefix": "LUD", "next_number": "1", "digits": "6"}
    )
    assert response.status_code == 302
    assert str(BarcodeSequence.objects.get(pk=1)) == "LUD000001"
    assert librarian.get(reverse("admin:catalogue_barcodesequence_add")).status_code == 403
