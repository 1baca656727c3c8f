"""On-site counting starts from the family's household: a card scanned brings its children and adults
back to the desk, to be corrected, and the family is counted when the desk confirms."""

import pytest
from django.urls import reverse
from django.utils import timezone

from members.models import HouseholdMember
from onsite import services
from onsite.models import Visit
from tests.conftest import text_of
from tests.loan_helpers import make_member
from tests.search_helpers import site

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def session(staff_user):
    return services.session_open(location=site("Maison des Enfants"), staff=staff_user)


def household(member, *ages: int) -> None:
    """The family's household: its card holder (born in 1985, by make_member()) and people of these ages."""
    year = timezone.localdate().year
    for number, age in enumerate(ages):
        HouseholdMember.objects.create(member=member, first_name=f"P{number}", birth_year=year - age)


def field_value(response, name: str) -> str:
    return response.context["visit_form"][name].value()


def test_a_scanned_card_brings_the_household_counts_to_check_and_counts_nothing_yet(desk, session):
    family = make_member("M0001", "Alex Tartempion")
    household(family, 11, 8)
    url = reverse("onsite:visit-create", args=[session.pk])
    # A scanner types the card and Enter: the counts are the form's own, untouched.
    response = desk.post(url, {"card": "m0001", "children": 0, "adults": 1})
    assert response.status_code == 200
    assert not Visit.objects.exists()
    assert (field_value(response, "children"), field_value(response, "adults")) == (2, 1)
    assert "Alex Tartempion : les nombres viennent de son foyer." in text_of(response)
    assert field_value(response, "card") == "M0001"

    # One child stayed home: corrected, then counted.
    counted = desk.post(
        url, {"card": "M0001", "confirmed_card": "M0001", "children": 1, "adults": 1}, follow=True
    )
    assert "Alex Tartempion — enfants : 1, adultes : 1." in text_of(counted)
    assert session.attendance() == {"families": 1, "children": 1, "adults": 1}


def test_counts_typed_before_the_scan_count_at_once(desk, session):
    family = make_member("M0001", "Alex Tartempion")
    household(family, 11, 8)
    url = reverse("onsite:visit-create", args=[session.pk])
    assert desk.post(url, {"card": "M0001", "children": 1, "adults": 2}).status_code == 302
    assert session.attendance() == {"families": 1, "children": 1, "adults": 2}


def test_a_household_of_children_only_or_unknown_prefills_one_adult(desk, session):
    url = reverse("onsite:visit-create", args=[session.pk])
    children_only, unknown = make_member("M0002", "Sam Bidule"), make_member("M0003", "Charlie Machin")
    HouseholdMember.objects.filter(member__in=[children_only, unknown]).delete()
    household(children_only, 9, 6)
    twins = desk.post(url, {"card": "M0002", "children": 0, "adults": 1})
    assert (field_value(twins, "children"), field_value(twins, "adults")) == (2, 1)
    unknown = desk.post(url, {"card": "M0003", "children": 0, "adults": 1})
    assert (field_value(unknown, "children"), field_value(unknown, "adults")) == (0, 1)
    assert not Visit.objects.exists()


def test_another_card_typed_over_a_prefilled_one_is_prefilled_in_its_turn(desk, session):
    household(make_member("M0001", "Alex Tartempion"), 11, 8)
    household(make_member("M0002", "Sam Bidule"), 9)
    url = reverse("onsite:visit-create", args=[session.pk])
    response = desk.post(url, {"card": "M0002", "confirmed_card": "M0001", "children": 0, "adults": 1})
    assert response.status_code == 200 and not Visit.objects.exists()
    assert (field_value(response, "card"), field_value(response, "children")) == ("M0002", 1)


def test_a_family_counted_already_is_still_refused_when_confirmed(desk, session, staff_user):
    family = make_member("M0001", "Alex Tartempion")
    household(family, 11)
    services.visit_record(session=session, staff=staff_user, member=family, children=1, adults=1)
    url = reverse("onsite:visit-create", args=[session.pk])
    refused = desk.post(url, {"card": "M0001", "confirmed_card": "M0001", "children": 1, "adults": 1})
    assert refused.status_code == 400
    assert "Alex Tartempion est déjà comptée dans cette séance." in text_of(refused)
    assert Visit.objects.count() == 1
