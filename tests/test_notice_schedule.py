"""The notices' schedule on a fixed clock: who is told what, on which day, by which channel, once.

Defaults of a membership type (the issue's, as PMB's three levels): due soon 3 days before, overdue
7, 21 and 42 days late (the last a formal letter), hold ready at the first run after the set-aside,
hold expiring 2 days before its deadline, membership ending in 30 days.
"""

import io

import pytest
from django.core import mail
from django.core.management import CommandError, call_command
from django.db import IntegrityError
from django.utils import timezone

from loans.models import Hold
from members.models import Member
from notices.management.commands import run_daily
from notices.models import Notice, NoticeItem
from notices.services import notices_send
from tests.loan_helpers import make_member, make_membership_type
from tests.notice_helpers import TODAY, days, game_copy, lend, open_wednesdays_and_saturdays, set_aside

pytestmark = pytest.mark.django_db

Kind = NoticeItem.Kind
# The command runs for today or a day gone by: its own tests use a day long past.
PAST = TODAY.replace(year=2026)


@pytest.fixture
def family():
    return make_member("M0001", "Alex Tartempion", email="tartempion@example.org")


def told(member: Member) -> list[tuple[str, int, str]]:
    """What the family was told, as (kind, level, channel), in order."""
    return list(
        NoticeItem.objects.filter(member=member)
        .order_by("notice__created_at", "pk")
        .values_list("kind", "level", "notice__channel")
    )


def test_a_loan_is_reminded_three_days_before_its_due_date_once(family, staff_user):
    lend(
        game_copy("7 Wonders", "91233"), family, staff_user, lent_on=TODAY - days(18), due_on=TODAY + days(3)
    )

    notices_send(today=TODAY - days(1))
    assert told(family) == []
    notices_send(today=TODAY)
    assert told(family) == [(Kind.DUE_SOON, 0, "email")]
    notices_send(today=TODAY + days(1))
    notices_send(today=TODAY + days(3))
    assert len(told(family)) == 1
    assert mail.outbox[0].to == ["tartempion@example.org"]
    assert mail.outbox[0].subject == "Ludothèque : Jeux à rendre bientôt"
    assert "« 7 Wonders » (code-barres 91233) : à rendre le samedi 13/03/2027" in mail.outbox[0].body


def test_a_loan_lent_inside_the_reminder_window_is_not_reminded_of_a_date_just_given(family, staff_user):
    lend(game_copy("7 Wonders", "91233"), family, staff_user, lent_on=TODAY - days(1), due_on=TODAY + days(2))
    notices_send(today=TODAY)
    assert told(family) == []


def test_a_late_loan_gets_the_three_reminders_at_7_21_and_42_days_the_last_as_a_letter(family, staff_user):
    due = TODAY - days(30)
    lend(game_copy("7 Wonders", "91233"), family, staff_user, lent_on=due - days(21), due_on=due)

    for late in [1, 6]:
        notices_send(today=due + days(late))
    assert told(family) == []
    for late in [7, 8, 20]:
        notices_send(today=due + days(late))
    assert told(family) == [(Kind.OVERDUE, 1, "email")]
    for late in [21, 22, 41]:
        notices_send(today=due + days(late))
    assert told(family)[1:] == [(Kind.OVERDUE, 2, "email")]
    for late in [42, 43, 100]:
        notices_send(today=due + days(late))
    # The formal letter goes by post although the family has an e-mail address.
    assert told(family)[2:] == [(Kind.OVERDUE, 3, "letter")]
    assert [message.subject for message in mail.outbox] == ["Ludothèque : Jeux en retard"] * 2
    letter = Notice.objects.get(channel=Notice.Channel.LETTER)
    assert (
        letter.status == Notice.Status.TO_PRINT
        and letter.subject == "Ludothèque : Mise en demeure : jeux à rendre"
    )
    assert "Nous vous mettons en demeure" in letter.body_html and "42 jours de retard" in letter.body_html


def test_after_missed_runs_only_the_highest_level_reached_is_sent(family, staff_user):
    due = TODAY - days(25)
    lend(game_copy("7 Wonders", "91233"), family, staff_user, lent_on=due - days(21), due_on=due)
    notices_send(today=TODAY)
    assert told(family) == [(Kind.OVERDUE, 2, "email")]


def test_a_renewed_loan_is_reminded_again_of_its_new_due_date(family, staff_user):
    loan = lend(
        game_copy("7 Wonders", "91233"), family, staff_user, lent_on=TODAY - days(18), due_on=TODAY + days(3)
    )
    notices_send(today=TODAY)
    loan.due_on = TODAY + days(24)
    loan.save(update_fields=["due_on"])
    notices_send(today=TODAY + days(21))
    assert told(family) == [(Kind.DUE_SOON, 0, "email"), (Kind.DUE_SOON, 0, "email")]
    assert list(NoticeItem.objects.order_by("pk").values_list("about_date", flat=True)) == [
        TODAY + days(3),
        TODAY + days(24),
    ]


def test_a_hold_set_aside_is_announced_at_the_next_run_with_its_pickup_deadline(family, staff_user):
    open_wednesdays_and_saturdays()
    set_aside(
        game_copy("Biblios", "90901"), family, staff_user, ready_on=TODAY - days(1), until=TODAY + days(7)
    )
    notices_send(today=TODAY)
    notices_send(today=TODAY + days(1))
    assert told(family) == [(Kind.HOLD_READY, 0, "email")]
    message = mail.outbox[0]
    assert message.subject == "Ludothèque : Votre réservation est prête"
    assert "« Biblios » (code-barres 90901) : à retirer au plus tard le mercredi 17/03/2027" in message.body
    # The site's next openings come with it.
    assert (
        "Maison des Enfants" in message.body and "samedi 13 mars : 10:00–12:00, 14:00–17:00" in message.body
    )


def test_a_hold_not_collected_is_reminded_two_days_before_its_deadline(family, staff_user):
    hold = set_aside(
        game_copy("Biblios", "90901"), family, staff_user, ready_on=TODAY - days(6), until=TODAY + days(3)
    )
    NoticeItem.objects.create(
        notice=Notice.objects.create(
            member=family,
            channel="email",
            status="pending",
            language="fr",
            run_on=TODAY - days(6),
            recipient=family.email,
            subject="(earlier)",
            body_text="-",
            body_html="-",
        ),
        member=family,
        kind=Kind.HOLD_READY,
        hold=hold,
        about_date=hold.ready_until,
    )
    notices_send(today=TODAY)
    assert [kind for kind, *_ in told(family)] == [Kind.HOLD_READY]
    notices_send(today=TODAY + days(1))
    notices_send(today=TODAY + days(2))
    assert [kind for kind, *_ in told(family)] == [Kind.HOLD_READY, Kind.HOLD_EXPIRING]
    assert mail.outbox[-1].subject == "Ludothèque : Votre réservation vous attend encore"


def test_a_membership_ending_in_thirty_days_is_reminded_once(staff_user):
    member = make_member("M0002", "Sam Bidule", start=TODAY - days(300), expiry=TODAY + days(31))
    notices_send(today=TODAY)
    assert told(member) == []
    notices_send(today=TODAY + days(1))
    notices_send(today=TODAY + days(2))
    assert told(member) == [(Kind.MEMBERSHIP_EXPIRING, 0, "email")]
    assert "Votre adhésion se termine le samedi 10/04/2027" in mail.outbox[0].body


def test_the_delays_are_those_of_the_family_s_membership_type_and_an_empty_delay_switches_a_notice_off(
    staff_user,
):
    quick = make_membership_type(
        overdue_level1_days=2, overdue_level2_days=None, overdue_level3_days=None, due_soon_days=None
    )
    silent = make_membership_type(
        due_soon_days=None,
        overdue_level1_days=None,
        overdue_level2_days=None,
        overdue_level3_days=None,
        notify_hold_ready=False,
        hold_expiring_days=None,
        membership_expiring_days=None,
    )
    hurried = make_member("M1", "Famille Pressée", membership_type=quick)
    quiet = make_member("M2", "Famille Tranquille", membership_type=silent, expiry=TODAY + days(10))
    lend(game_copy("Quarto", "90468"), hurried, staff_user, lent_on=TODAY - days(30), due_on=TODAY - days(2))
    lend(game_copy("Quarto", "90408"), hurried, staff_user, lent_on=TODAY - days(10), due_on=TODAY + days(1))
    lend(game_copy("Catane", "90461"), quiet, staff_user, lent_on=TODAY - days(80), due_on=TODAY - days(60))
    lend(game_copy("Catane", "90462"), quiet, staff_user, lent_on=TODAY - days(20), due_on=TODAY + days(1))
    set_aside(
        game_copy("Biblios", "90901"), quiet, staff_user, ready_on=TODAY - days(5), until=TODAY + days(1)
    )

    notices_send(today=TODAY)
    assert told(hurried) == [(Kind.OVERDUE, 1, "email")]  # two days late; no reminder before the other's date
    notices_send(today=TODAY + days(40))
    assert told(hurried) == [(Kind.OVERDUE, 1, "email")] * 2  # the other one, late too by now
    assert told(quiet) == []


def test_one_notice_per_family_lists_all_its_late_games_with_barcodes_and_due_dates(family, staff_user):
    open_wednesdays_and_saturdays()
    other = make_member("M0002", "Sam Bidule")
    for title, barcode, late in [("7 Wonders", "91233", 8), ("Quarto", "90468", 10), ("Catane", "90461", 12)]:
        lend(
            game_copy(title, barcode),
            family,
            staff_user,
            lent_on=TODAY - days(late + 21),
            due_on=TODAY - days(late),
        )
    lend(game_copy("Biblios", "90901"), other, staff_user, lent_on=TODAY - days(29), due_on=TODAY - days(8))
    lend(game_copy("Luxor", "90555"), family, staff_user, lent_on=TODAY - days(18), due_on=TODAY + days(3))

    report = notices_send(today=TODAY)

    assert report.startswith("2 e-mail(s) handed to the tasks backend, 0 letter(s) to print")
    assert Notice.objects.filter(member=family).count() == 1
    assert len(mail.outbox) == 2
    body = next(message.body for message in mail.outbox if message.to == ["tartempion@example.org"])
    for line in [
        "« 7 Wonders » (code-barres 91233) : à rendre le mardi 02/03/2027, 8 jours de retard",
        "« Quarto » (code-barres 90468) : à rendre le dimanche 28/02/2027, 10 jours de retard",
        "« Catane » (code-barres 90461) : à rendre le vendredi 26/02/2027, 12 jours de retard",
        "« Luxor » (code-barres 90555) : à rendre le samedi 13/03/2027",
        "Prochaines ouvertures :",
        "mercredi 10 mars : 14:00–18:00",
    ]:
        assert line in body
    assert "Biblios" not in body
    html = next(message for message in mail.outbox if message.to == ["tartempion@example.org"]).alternatives[
        0
    ]
    assert (
        html.mimetype == "text/html" and "<li>« 7 Wonders » (code-barres 91233) : à rendre le" in html.content
    )


def test_a_family_that_chose_english_is_written_to_in_english(staff_user):
    member = make_member("M0003", "Charlie Machin")
    Member.objects.filter(pk=member.pk).update(language=Member.Language.ENGLISH)
    lend(
        game_copy("7 Wonders", "91233"), member, staff_user, lent_on=TODAY - days(29), due_on=TODAY - days(8)
    )
    open_wednesdays_and_saturdays()
    notices_send(today=TODAY)
    message = mail.outbox[0]
    assert message.subject == "Toy library: Games overdue"
    assert "Hello Charlie Machin," in message.body
    assert "“7 Wonders” (barcode 91233): due back on Tuesday 02/03/2027, 8 days late" in message.body
    assert Notice.objects.get().language == "en"


def test_a_family_without_e_mail_gets_a_letter_to_its_postal_address(staff_user):
    member = make_member("M0003", "Charlie Machin", email="")
    Member.objects.filter(pk=member.pk).update(address="3 place des Dés\n1000 Bruxelles")
    lend(
        game_copy("7 Wonders", "91233"), member, staff_user, lent_on=TODAY - days(18), due_on=TODAY + days(3)
    )
    notices_send(today=TODAY)
    letter = Notice.objects.get()
    assert (letter.channel, letter.status) == (Notice.Channel.LETTER, Notice.Status.TO_PRINT)
    assert letter.recipient == "Charlie Machin\n3 place des Dés\n1000 Bruxelles"
    assert "« 7 Wonders »" in letter.body_html
    assert mail.outbox == []


def test_running_the_day_twice_tells_nobody_twice(family, staff_user):
    lend(game_copy("7 Wonders", "91233"), family, staff_user, lent_on=PAST - days(29), due_on=PAST - days(8))
    out = io.StringIO()
    call_command("run_daily", f"--date={PAST}", stdout=out)
    call_command("run_daily", f"--date={PAST}", stdout=out)
    assert Notice.objects.count() == 1 and NoticeItem.objects.count() == 1
    assert len(mail.outbox) == 1
    assert "send_notices: 1 e-mail(s) handed" in out.getvalue()
    assert "send_notices: 0 e-mail(s) handed" in out.getvalue()


@pytest.mark.postgresql  # the constraint's name is in PostgreSQL's message
def test_the_database_refuses_a_second_notice_of_the_same_level_for_the_same_loan_and_date(
    family, staff_user
):
    loan = lend(
        game_copy("7 Wonders", "91233"), family, staff_user, lent_on=TODAY - days(29), due_on=TODAY - days(8)
    )
    notices_send(today=TODAY)
    notice = Notice.objects.get()
    with pytest.raises(IntegrityError, match="notices_noticeitem_once_per_loan_level_due_date"):
        NoticeItem.objects.create(
            notice=notice, member=family, kind=Kind.OVERDUE, level=1, loan=loan, about_date=loan.due_on
        )


def test_telling_a_family_of_six_late_games_costs_the_queries_of_one(
    staff_user, django_assert_max_num_queries
):
    small = make_member("M1", "Petite Famille")
    big = make_member("M2", "Grande Famille")
    lend(game_copy("7 Wonders", "91233"), small, staff_user, lent_on=TODAY - days(29), due_on=TODAY - days(8))
    for index in range(6):
        lend(
            game_copy(f"Jeu {index}", f"9100{index}"),
            big,
            staff_user,
            lent_on=TODAY - days(1),
            due_on=TODAY + days(2),
        )
    # Today the small family's game is a week late; nine days later the big family's six are.
    with django_assert_max_num_queries(20) as one_game:
        notices_send(today=TODAY)
    with django_assert_max_num_queries(20) as six_games:
        notices_send(today=TODAY + days(9))
    assert told(small) == [(Kind.OVERDUE, 1, "email")] and told(big) == [(Kind.OVERDUE, 1, "email")] * 6
    assert big.notices.count() == 1
    assert len(six_games.captured_queries) == len(one_game.captured_queries)


def test_run_daily_reports_each_step_and_a_failing_step_does_not_stop_the_next(
    family, staff_user, monkeypatch
):
    lend(game_copy("7 Wonders", "91233"), family, staff_user, lent_on=PAST - days(29), due_on=PAST - days(8))

    def broken(*, today):
        raise RuntimeError("disk full")

    monkeypatch.setattr(run_daily, "STEPS", [("broken", broken), *run_daily.STEPS])
    out, err = io.StringIO(), io.StringIO()
    with pytest.raises(CommandError, match="1 step\\(s\\) failed on 2026-03-10: broken"):
        call_command("run_daily", "--date=2026-03-10", stdout=out, stderr=err)
    assert "broken: FAILED" in err.getvalue() and "RuntimeError: disk full" in err.getvalue()
    assert "expire_holds: 0 hold(s) expired" in out.getvalue()
    assert "send_notices: 1 e-mail(s)" in out.getvalue()


def test_run_daily_refuses_a_day_not_yet_come_and_the_next_familys_hold_stays_ready(family, staff_user):
    today = timezone.localdate()
    hold = set_aside(
        game_copy("7 Wonders", "91233"), family, staff_user, ready_on=today, until=today + days(2)
    )
    with pytest.raises(CommandError, match="in the future"):
        call_command("run_daily", f"--date={today + days(5)}", stdout=io.StringIO())
    hold.refresh_from_db()
    assert hold.status == Hold.Status.READY
    call_command("run_daily", f"--date={today}", stdout=io.StringIO())
    hold.refresh_from_db()
    assert hold.status == Hold.Status.READY


def test_run_daily_refuses_a_date_it_cannot_read():
    with pytest.raises(CommandError, match="--date"):
        call_command("run_daily", "--date=10/03/2027")
