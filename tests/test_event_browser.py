"""On a phone, a family books an event that is full: it goes on the waiting list, moves up when another
family cancels, sees its place on its account and cancels it there; the pages pass axe."""

import pytest

from events import services
from events.models import Booking
from tests.axe import PHONE, serious_violations, session_cookie
from tests.event_helpers import make_event
from tests.loan_helpers import make_family_user, make_member


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_family_books_on_a_phone_waits_moves_up_and_cancels(page, live_server, staff_user):
    event = make_event("Soirée jeux en famille", places=3)
    other = services.booking_create(
        event=event, member=make_member("M0002", "Sam Bidule"), children=1, adults=1, staff=staff_user
    )
    family = make_member("M0001", "Alex Tartempion", user=make_family_user())
    page.set_viewport_size(PHONE)
    page.context.add_cookies([session_cookie(family.user, live_server.url)])

    page.goto(live_server.url + "/animations/")
    page.get_by_role("link", name="Soirée jeux en famille").click()
    assert "encore 1 place" in page.locator(".places-left").inner_text()
    page.fill("#id_children", "1")
    page.fill("#id_adults", "1")
    with page.expect_navigation():
        page.get_by_role("button", name="Réserver").click()
    assert "liste d'attente, à la place 1" in page.locator(".messages").inner_text()
    assert Booking.objects.get(member=family).status == "waiting"
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]

    services.booking_cancel(booking=other, staff=staff_user, by_family=True)

    page.goto(live_server.url + "/compte/")
    bookings = page.locator(".event-bookings")
    assert "inscrits : 2 personnes" in bookings.inner_text()
    with page.expect_navigation():
        bookings.get_by_role("button", name="Annuler la réservation de « Soirée jeux en famille »").click()
    assert "Réservation annulée." in page.locator(".messages").inner_text()
    assert "encore 3 places" in page.locator(".places-left").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_events_pages_pass_axe(browser, live_server, staff_user):
    event = make_event("Soirée jeux en famille", places=3)
    family = make_member("M0001", "Alex Tartempion", user=make_family_user())
    services.booking_create(event=event, member=family, staff=staff_user)
    urls = ["/animations/", event.get_absolute_url(), "/compte/"]
    assert serious_violations(browser, urls, base_url=live_server.url, user=family.user) == {}
    desk = [f"/comptoir/animations/{event.pk}/", "/comptoir/animations/"]
    assert serious_violations(browser, desk, base_url=live_server.url, user=staff_user) == {}
