"""On a phone and at a desktop, a family's card scanned at on-site play shows its household's counts,
a volunteer corrects them with the keyboard and counts the family."""

import pytest
from django.utils import timezone

from members.models import HouseholdMember
from onsite import services
from tests.axe import PHONE, session_cookie
from tests.desk_browser import focused_id, scan
from tests.loan_helpers import make_member
from tests.search_helpers import site

DESKTOP = {"width": 1280, "height": 800}


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
@pytest.mark.parametrize("viewport", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_scanned_card_prefills_the_household_and_the_desk_corrects_it_before_counting(
    page, live_server, staff_user, viewport
):
    session = services.session_open(location=site("Maison des Enfants"), staff=staff_user)
    family = make_member("M0001", "Alex Tartempion")
    year = timezone.localdate().year
    HouseholdMember.objects.create(member=family, first_name="Lou", birth_year=year - 11)
    HouseholdMember.objects.create(member=family, first_name="Noa", birth_year=year - 8)
    page.set_viewport_size(viewport)
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    page.goto(live_server.url + session.get_absolute_url())

    assert focused_id(page) == "id_card"
    scan(page, "M0001")
    assert page.input_value("#id_children") == "2" and page.input_value("#id_adults") == "1"
    assert "les nombres viennent de son foyer" in page.locator("#arrivee").inner_text()
    assert "0 famille" in page.locator(".attendance").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= viewport["width"]

    # Noa stayed home, and a grandparent came along: corrected from the keyboard, then Enter.
    page.fill("#id_children", "1")
    page.fill("#id_adults", "2")
    with page.expect_navigation():
        page.keyboard.press("Enter")
    assert "Alex Tartempion — enfants : 1, adultes : 2." in page.locator(".messages").inner_text()
    assert "1 famille — 1 enfant, 2 adultes" in page.locator(".attendance").inner_text()
    assert session.attendance() == {"families": 1, "children": 1, "adults": 2}
