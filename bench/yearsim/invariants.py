"""What must hold, checked every simulated day and at the end; the run stops at the first breach.

Each check compares the site's database with what the run itself did and was told (its book, its
loans, the mail server's inbox), or with a count made from the raw history in plain SQL, never with
the code under test's own sums. The copies' places are a list (`PLACES`): a state added later
(transit between sites, repair) is one more line, and a copy must still be in exactly one place.
"""

import datetime
import re
from collections import Counter, defaultdict
from decimal import Decimal

from .build import models
from .http import Breach

# Where a copy can be, each as SQL giving the copies there (a copy in none of them is on its shelf).
PLACES = {
    "on loan": "SELECT copy_id FROM loans_loan WHERE returned_at IS NULL",
    "set aside for a hold": "SELECT copy_id FROM loans_hold WHERE status = 'ready' AND copy_id IS NOT NULL",
    "at a table": "SELECT copy_id FROM onsite_tableuse WHERE returned_at IS NULL",
    "in repair": "SELECT id FROM catalogue_copy WHERE status = 'in_repair'",
    "lost": "SELECT id FROM catalogue_copy WHERE status = 'lost'",
    "withdrawn": "SELECT id FROM catalogue_copy WHERE status = 'withdrawn'",
    # Between two sites (to send, or on its way): its open transfer line says where (loans/transfers.py).
    "in transit": "SELECT id FROM catalogue_copy WHERE status = 'in_transit'",
}

# A copy in transit has exactly one open transfer line, and a copy with an open line is in transit.
TRANSIT_MISMATCH_SQL = """
    SELECT c.id FROM catalogue_copy c
    LEFT JOIN loans_transfer t ON t.copy_id = c.id AND t.received_at IS NULL
    WHERE (c.status = 'in_transit') <> (t.id IS NOT NULL)
"""

# What a family owes, from the raw entries: charges (unless waived) and refunds up; payments and
# cashed deposits down (the ledger's rule, written again here in SQL).
OWED_SQL = """
    SELECT member_id, SUM(CASE
        WHEN kind IN ('membership', 'loan_fee', 'late_fee', 'missing_piece', 'lost_game', 'other', 'repair')
            THEN CASE WHEN waived THEN 0 ELSE amount END
        WHEN kind = 'refund' THEN amount
        WHEN kind IN ('payment', 'deposit_cashed') THEN -amount
        ELSE 0 END)
    FROM ledger_entry WHERE member_id IS NOT NULL GROUP BY member_id
"""
DEPOSITS_SQL = """
    SELECT COALESCE(SUM(CASE kind WHEN 'deposit_received' THEN amount
        WHEN 'deposit_returned' THEN -amount WHEN 'deposit_cashed' THEN -amount ELSE 0 END), 0)
    FROM ledger_entry
"""
# The longest a copy may be on its way between two sites.
TRANSFER_DAYS = 45
# The ledger's columns an entry must keep, and the run's copy of the entries seen so far.
LEDGER_COLUMNS = "id, member_id, kind, amount, waived, recorded_at, site_id"
LEDGER_COPY = "yearsim_ledger_seen"


def rows(sql: str, params=()) -> list[tuple]:
    from django.db import connection

    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return cursor.fetchall() if cursor.description else []


class Checks:
    def __init__(self, run) -> None:
        self.run = run
        self.counts: Counter = Counter()
        self.ledger_copied = False

    def passed(self, name: str) -> None:
        self.counts[name] += 1

    def daily(self, day: datetime.date) -> None:
        self.no_server_error()
        self.money()
        self.ledger_append_only()
        self.copies()
        self.holds(day)
        self.bookings(day)
        self.kits()
        self.notices(day)
        if (day + datetime.timedelta(days=1)).day == 1:
            self.statistics(day)

    def year_end(self, day: datetime.date) -> None:
        self.daily(day)
        self.statistics(day)
        if self.run.params.stocktake:
            self.stocktake(day)

    def no_server_error(self) -> None:
        if self.run.recorder.server_errors:
            raise Breach(f"no 5xx: {self.run.recorder.server_errors[:3]}")
        self.passed("no 5xx")

    def money(self) -> None:
        owed = {member: total for member, total in rows(OWED_SQL)}
        from ledger.models import member_balance

        balances = models().Member.objects.annotate(balance=member_balance())
        site = dict(balances.values_list("pk", "balance"))
        for member in self.run.world.families:
            expected = self.run.book[member]
            if owed.get(member, Decimal(0)) != expected or site[member] != expected:
                raise Breach(
                    f"money: family {member} owes {owed.get(member)} by its entries, {site[member]} by the "
                    f"site, {expected} by what the desk was told"
                )
        held = rows(DEPOSITS_SQL)[0][0]
        if held != self.run.deposits_held():
            raise Breach(
                f"money: deposits held {held}, received − returned − cashed {self.run.deposits_held()}"
            )
        self.passed("money: each family's balance = its entries = the desk's book; deposits held")

    def ledger_append_only(self) -> None:
        """Every entry seen on an earlier day is still there, unchanged: the ledger compared, in SQL,
        with a copy of itself (a table of the run's own) taken each day, which then takes the new ones."""
        if not self.ledger_copied:
            rows(
                f"CREATE UNLOGGED TABLE {LEDGER_COPY} AS SELECT {LEDGER_COLUMNS} FROM ledger_entry WITH NO DATA"
            )
            rows(f"ALTER TABLE {LEDGER_COPY} ADD PRIMARY KEY (id)")
            self.ledger_copied = True
        changed = rows(
            f"SELECT s.id, ROW(s.*)::text, ROW(e.*)::text FROM {LEDGER_COPY} s "
            f"LEFT JOIN (SELECT {LEDGER_COLUMNS} FROM ledger_entry) e ON e.id = s.id "
            "WHERE e.id IS NULL OR ROW(e.*) IS DISTINCT FROM ROW(s.*) ORDER BY s.id LIMIT 3"
        )
        if changed:
            entry, values, now = changed[0]
            raise Breach(f"money: entry {entry} changed or lost: {values} then {now}")
        rows(
            f"INSERT INTO {LEDGER_COPY} SELECT {LEDGER_COLUMNS} FROM ledger_entry e "
            f"WHERE NOT EXISTS (SELECT 1 FROM {LEDGER_COPY} s WHERE s.id = e.id)"
        )
        self.passed("money: no entry changed or lost")

    def till_closed(self, site: int, counted: Decimal) -> None:
        """Right after a till's closure: it expected the cash the desk took, and the count matches."""
        closure = rows(
            "SELECT cash_expected, cash_counted, difference FROM ledger_tillclosure WHERE site_id = %s "
            "ORDER BY closed_at DESC, id DESC LIMIT 1",
            [site],
        )[0]
        if closure != (counted, counted, Decimal("0.00")):
            raise Breach(f"money: the till of site {site} closed at {closure}, the desk took {counted}")
        self.passed("money: each till closure = the cash taken")

    def copies(self) -> None:
        places: dict[int, list[str]] = defaultdict(list)
        for place, sql in PLACES.items():
            for (copy,) in rows(sql):
                places[copy].append(place)
        twice = {copy: where for copy, where in places.items() if len(where) > 1}
        if twice:
            raise Breach(f"copies: in more than one place: {dict(list(twice.items())[:3])}")
        adrift = [copy for (copy,) in rows(TRANSIT_MISMATCH_SQL)]
        if adrift:
            raise Breach(f"copies: in transit without their open transfer line, or the reverse: {adrift[:5]}")
        # Every copy sent arrives: each site's desk sends its crate at each opening and unpacks what came
        # (people.crates_in / crates_out); the longest closure (summer, four weeks) is the longest wait.
        stuck = rows(
            "SELECT copy_id FROM loans_transfer WHERE received_at IS NULL AND requested_at < %s",
            [self.run.today - datetime.timedelta(days=TRANSFER_DAYS)],
        )
        if stuck:
            raise Breach(f"copies: on their way between sites for over {TRANSFER_DAYS} days: {stuck[:5]}")
        open_loans = {loan for (loan,) in rows("SELECT id FROM loans_loan WHERE returned_at IS NULL")}
        if open_loans != set(self.run.loans):
            raise Breach(
                f"copies: open loans the desk did not make {sorted(open_loans - set(self.run.loans))[:5]}, "
                f"loans it made not open {sorted(set(self.run.loans) - open_loans)[:5]}"
            )
        orphans = rows(
            "SELECT count(*) FROM loans_loan l LEFT JOIN catalogue_copy c ON c.id = l.copy_id "
            "WHERE c.id IS NULL OR (l.member_id IS NULL AND l.returned_at IS NULL)"
        )[0][0]
        lost = rows("SELECT count(*) FROM catalogue_copy WHERE status = 'lost'")[0][0]
        if orphans or lost != self.run.counts["games lost"]:
            raise Breach(
                f"copies: {orphans} loans without copy or family, {lost} lost for {self.run.counts['games lost']}"
            )
        self.passed(
            "copies: each in one place (in transit: one open line, arriving), the loans the desk made, none "
            "without copy or family"
        )

    def holds(self, day: datetime.date) -> None:
        two = rows(
            "SELECT copy_id FROM loans_hold WHERE status = 'ready' GROUP BY copy_id HAVING count(*) > 1"
        )
        late = rows("SELECT id FROM loans_hold WHERE status = 'ready' AND ready_until < %s", [day])
        # Served in queue order: no hold made ready while one before it in its game's queue, asked
        # earlier, still waits.
        jumped = rows(
            "SELECT r.id, w.id FROM loans_hold r JOIN loans_hold w ON w.game_id = r.game_id "
            "AND w.position < r.position AND w.status = 'waiting' AND w.created_at < r.ready_at "
            "WHERE r.ready_at IS NOT NULL AND r.ready_at >= %s",
            [day - datetime.timedelta(days=1)],
        )
        if two or late or jumped:
            raise Breach(
                f"holds: two families on one copy {two[:3]}, not expired {late[:3]}, out of queue order {jumped[:3]}"
            )
        self.passed("holds: queue order, expired when not collected, one family a copy")

    def bookings(self, day: datetime.date) -> None:
        # A copy booked for dates is never lent to another family into them, nor due back in them
        # (a loan before a booking is shortened, a renewal into one refused: loans/booking_fit.py).
        # Once handed out, the booking's own loan holds the copy; brought back early, the copy is free.
        into = rows(
            "SELECT b.id, l.id FROM loans_datebooking b JOIN loans_loan l ON l.copy_id = b.copy_id "
            "WHERE b.status = 'booked' "
            "AND l.member_id IS DISTINCT FROM b.member_id "
            "AND ((l.lent_at AT TIME ZONE %s)::date BETWEEN b.starts_on AND b.ends_on "
            "OR (l.due_on BETWEEN b.starts_on AND b.ends_on "
            "AND (l.returned_at IS NULL OR (l.returned_at AT TIME ZONE %s)::date >= b.starts_on)))",
            [self.run.time_zone, self.run.time_zone],
        )
        # Handed out: the booking's loan is its family's, of its copy, due back on its last day.
        astray = rows(
            "SELECT b.id FROM loans_datebooking b JOIN loans_loan l ON l.id = b.loan_id WHERE "
            "l.member_id <> b.member_id OR l.copy_id <> b.copy_id OR (l.renewals = 0 AND l.due_on <> b.ends_on)"
        )
        # Past its last day and never collected: closed by the daily run (a day late when it was skipped).
        open_past = rows(
            "SELECT id FROM loans_datebooking WHERE status = 'booked' AND ends_on < %s",
            [day - datetime.timedelta(days=1)],
        )
        if into or astray or open_past:
            raise Breach(
                f"bookings: lent into another family's dates {into[:3]}, handed out astray {astray[:3]}, "
                f"past and still booked {open_past[:3]}"
            )
        self.passed("bookings: no loan into another family's dates, handed out as booked, closed once past")

    def kits(self) -> None:
        # A kit out: each of its lines' loans open, the school's, due back the kit's day.
        astray = rows(
            "SELECT kl.id FROM kits_kitloan kl JOIN kits_kitloancopy c ON c.kit_loan_id = kl.id "
            "LEFT JOIN loans_loan l ON l.id = c.loan_id WHERE kl.returned_at IS NULL AND (l.id IS NULL "
            "OR l.returned_at IS NOT NULL OR l.member_id <> kl.member_id OR l.due_on <> kl.due_on)"
        )
        # A kit's copy goes out only with its kit.
        alone = rows(
            "SELECT l.id FROM loans_loan l JOIN kits_kititem i ON i.copy_id = l.copy_id "
            "WHERE l.returned_at IS NULL AND NOT EXISTS (SELECT 1 FROM kits_kitloancopy c "
            "JOIN kits_kitloan kl ON kl.id = c.kit_loan_id WHERE c.loan_id = l.id AND kl.returned_at IS NULL)"
        )
        out = {kit for (kit,) in rows("SELECT kit_id FROM kits_kitloan WHERE returned_at IS NULL")}
        if astray or alone or out != set(self.run.kit_loans):
            raise Breach(
                f"kits: a kit out with a copy not lent with it {astray[:3]}, a kit's copy lent alone "
                f"{alone[:3]}, out {sorted(out)[:5]} where the desk lent {sorted(self.run.kit_loans)[:5]}"
            )
        self.passed("kits: each out with every copy lent to its school until its day, none lent alone")

    def notices(self, day: datetime.date) -> None:
        family = models()
        member, membership_type = family.Member._meta.db_table, family.MembershipType._meta.db_table
        twice = rows(
            "SELECT member_id, kind, level, loan_id, hold_id, count(*) FROM notices_noticeitem "
            "GROUP BY member_id, kind, level, loan_id, hold_id, about_date HAVING count(*) > 1"
        )
        wrong = rows(
            f"SELECT n.id FROM notices_notice n JOIN {member} m ON m.id = n.member_id "
            "WHERE n.language <> m.language OR (m.email = '' AND n.channel = 'email')"
        )
        sent = Counter(
            (recipient, subject)
            for recipient, subject in rows(
                "SELECT recipient, subject FROM notices_notice WHERE channel = 'email' AND status = 'sent'"
            )
        )
        inbox = Counter(self.run.mail.received())
        # A loan late past its first reminder's delay (by the site's calendar) has had its reminder.
        untold = rows(
            f"SELECT l.id FROM loans_loan l JOIN {member} m ON m.id = l.member_id "
            f"JOIN {membership_type} t ON t.id = m.membership_type_id "
            "WHERE l.returned_at IS NULL AND l.due_on + t.overdue_level1_days < %s AND NOT EXISTS ("
            "SELECT 1 FROM notices_noticeitem i WHERE i.loan_id = l.id AND i.kind = 'overdue')",
            [day - datetime.timedelta(days=1)],
        )
        if twice or wrong or sent != inbox or untold:
            failed = rows("SELECT recipient, attempts, error FROM notices_notice WHERE status = 'failed'")
            raise Breach(
                f"(failed e-mails: {failed[:3]}) "
                f"notices: told twice {twice[:3]}, wrong language or channel {wrong[:3]}, "
                f"sent but not received {list((sent - inbox).items())[:3]}, received but not sent "
                f"{list((inbox - sent).items())[:3]}, late loans never told {untold[:3]}"
            )
        self.passed(
            "notices: once per event, in the family's language, letters without e-mail, each received once"
        )

    def statistics(self, day: datetime.date) -> None:
        page = self.run.clerks[0].page("statistiques", "/comptoir/statistiques/")
        self.run.expect(page, 200, "statistiques")
        shown = self.run.stats_from_page(page.text)
        # The page shows the last twelve months: compare those, and miss none of the desk's since.
        first = min(shown, default="")
        for month in sorted(set(shown) | {m for m in self.run.lent_per_month if m >= first}):
            count = self.run.lent_per_month.get(month, 0)
            if shown.get(month) != count:
                raise Breach(f"statistics: {month} shows {shown.get(month)} loans, the desk made {count}")
        raw = dict(
            rows(
                "SELECT to_char(lent_at AT TIME ZONE %s, 'YYYY-MM'), count(*) FROM loans_loan GROUP BY 1",
                [self.run.time_zone],
            )
        )
        if raw != dict(self.run.lent_per_month):
            raise Breach(
                f"statistics: the history counts {raw}, the desk made {dict(self.run.lent_per_month)}"
            )
        self.passed("statistics: the page's loans per month = the raw history = the desk's count")

    def stocktake(self, day: datetime.date) -> None:
        self.run.stocktake(day)
        self.passed("copies: the year-end stocktake finds what the history says")


MONTH = re.compile(r"(\d{4}-\d{2})")
