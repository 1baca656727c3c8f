"""On a phone, a family books a giant game for dates another family already holds: the page refuses
with the dates that clash (and no other family's name), it books free dates instead and sees them on
its account; the desk's page lends today's booking in one click. The pages pass axe."""

import pytest

from loans import services
from loans.models import DateBooking, Loan
from opening.schedule import weekday_date
from tests.axe import PHONE, serious_violations, session_cookie
from tests.booking_helpers import day, make_bookable_game
from tests.loan_helpers import make_family_user, make_member


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_a_family_on_a_phone_is_refused_overlapping_dates_with_the_clash_shown(page, live_server, staff_user):
    game = make_bookable_game()
    services.booking_create(
        member=make_member("M0002", "Sam Bidule"),
        game=game,
        starts_on=day(10),
        ends_on=day(12),
        user=staff_user,
    )
    family = make_member("M0001", "Alex Tartempion", user=make_family_user())
    page.set_viewport_size(PHONE)
    page.context.add_cookies([session_cookie(family.user, live_server.url)])

    page.goto(live_server.url + game.get_absolute_url())
    page.get_by_role("link", name="Réserver pour mes dates").click()
    busy = page.locator(".busy-periods").inner_text()
    assert f"du {weekday_date(day(10))} au {weekday_date(day(12))}" in busy
    page.get_by_label("Du (jour du retrait)").fill(day(11).isoformat())
    page.get_by_label("Au (jour du retour)").fill(day(13).isoformat())
    with page.expect_navigation():
        page.get_by_role("button", name="Réserver ces dates").click()

    refusal = page.locator(".errorlist").inner_text()
    assert f"Dates en conflit : G001 : réservé du {day(10):%d/%m/%Y} au {day(12):%d/%m/%Y}" in refusal
    assert "Bidule" not in refusal
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]
    assert not DateBooking.objects.filter(member=family).exists()

    page.get_by_label("Du (jour du retrait)").fill(day(13).isoformat())
    page.get_by_label("Au (jour du retour)").fill(day(14).isoformat())
    with page.expect_navigation():
        page.get_by_role("button", name="Réserver ces dates").click()
    assert "« Puissance 4 géant » réservé du" in page.locator(".messages").inner_text()
    assert "Puissance 4 géant" in page.locator(".date-bookings").inner_text()
    assert page.evaluate("document.documentElement.scrollWidth") <= PHONE["width"]


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_the_desk_lends_todays_booking_in_one_click_and_the_pages_pass_axe(
    browser, page, live_server, staff_user
):
    game = make_bookable_game()
    family = make_member("M0001", "Alex Tartempion", user=make_family_user())
    DateBooking.objects.create(
        copy=game.copies.get(), member=family, starts_on=day(0), ends_on=day(2), created_by=staff_user
    )
    services.booking_create(member=family, game=game, starts_on=day(5), ends_on=day(6), user=staff_user)
    assert (
        serious_violations(
            browser, ["/comptoir/reservations-a-date/"], base_url=live_server.url, user=staff_user
        )
        == {}
    )
    family_pages = ["/compte/", f"/compte/reserver-a-date/{game.pk}/", game.get_absolute_url()]
    assert serious_violations(browser, family_pages, base_url=live_server.url, user=family.user) == {}

    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    page.goto(live_server.url + "/comptoir/reservations-a-date/")
    with page.expect_navigation():
        page.get_by_role("button", name="Prêter « Puissance 4 géant » à Alex Tartempion").click()
    assert "prêté à Alex Tartempion" in page.locator(".messages").inner_text()
    assert Loan.objects.get().due_on == day(2)
