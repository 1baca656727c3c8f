"""Two daily runs at the same moment, on real PostgreSQL: each family is told once.

A run can overlap another (a slow run and the next day's cron, or a volunteer running it by hand);
the family's row lock and the notice items' unique constraints keep the second from writing again.
"""

import pytest
from django.core import mail
from django.db import connection

from notices.models import Notice, NoticeItem
from notices.services import notices_create_for_member, notices_plan, notices_send
from opening.schedule import site_calendars
from tests.loan_helpers import make_member, run_at_once
from tests.notice_helpers import TODAY, days, game_copy, lend

FAMILIES = 8

pytestmark = [
    pytest.mark.django_db(transaction=True),
    pytest.mark.skipif(connection.vendor != "postgresql", reason="row locks need PostgreSQL"),
]


@pytest.fixture
def late_families(staff_user):
    families = []
    for index in range(FAMILIES):
        family = make_member(f"M{index}", f"Famille {index}")
        for game in range(2):
            copy = game_copy(f"Jeu {index}-{game}", f"9{index}{game}000")
            lend(copy, family, staff_user, lent_on=TODAY - days(29), due_on=TODAY - days(8))
        families.append(family)
    return families


def test_two_runs_at_the_same_moment_tell_each_family_once(late_families):
    outcomes = run_at_once([lambda: notices_send(today=TODAY), lambda: notices_send(today=TODAY)])

    assert all(isinstance(outcome, str) for outcome in outcomes), outcomes
    assert Notice.objects.count() == FAMILIES
    assert NoticeItem.objects.count() == 2 * FAMILIES
    assert sorted(Notice.objects.values_list("member_id", flat=True)) == sorted(f.pk for f in late_families)
    assert len(mail.outbox) == FAMILIES
    assert Notice.objects.filter(status=Notice.Status.SENT).count() == FAMILIES


def test_two_runs_that_planned_before_either_wrote_still_tell_each_family_once(late_families):
    # The worst overlap: both runs read "nobody told yet" before either writes a notice.
    plan = notices_plan(today=TODAY)
    calendars = site_calendars(set(), from_day=TODAY)

    def write_all():
        written = 0
        for member_id, items in plan.items():
            written += len(
                notices_create_for_member(
                    member_id=member_id, items=items, today=TODAY, calendars=calendars, sites={}
                )
            )
        return written

    outcomes = run_at_once([write_all, write_all])

    assert all(isinstance(outcome, int) for outcome in outcomes) and sum(outcomes) == FAMILIES, outcomes
    assert Notice.objects.count() == FAMILIES
    assert NoticeItem.objects.count() == 2 * FAMILIES
