"""The run: the state the simulation keeps beside the site (its book, its loans), and the year's days."""

import datetime
import html
import io
import random
import re
import sys
import threading
import time
import uuid
from collections import defaultdict
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from decimal import Decimal

from . import clock, faults, invariants, people
from .build import PASSWORD, WORDS, World, models
from .http import Breach, Client, Recorder
from .profile import AT_HOME, CHECKS, DAILY_RUN, OPENINGS, YEAR_END, Profile

ERROR_LIST = re.compile(r'<ul class="errorlist[^"]*"[^>]*>(.*?)</ul>', re.S)


@dataclass
class Params:
    days: int = 365
    clerks: int = 3
    loans_per_opening: float = 60.0  # at 400 families; scaled with `activity`
    activity: int | None = None  # the visits of a ludothèque of this many families (None: the families built)
    late: float = 0.10
    incomplete: float = 0.03
    lost: float = 0.002
    uncollected: float = 0.15  # holds set aside and never collected
    quota: int = 5
    home_visits: int = 8  # families at home each day
    faults: bool = True
    stocktake: bool = True


class Run:
    def __init__(
        self,
        world: World,
        params: Params,
        base: str,
        seed: int,
        mail,
        site=None,
        profile: Profile | None = None,
    ) -> None:
        self.world = world
        self.params = params
        self.base = base
        self.mail = mail
        self.site = site
        self.rng = random.Random(seed + 1)
        self.recorder = Recorder()
        self.profile = profile or Profile()
        self.profile.recorder = self.recorder
        self.lock = threading.Lock()
        self.loans: dict[int, dict] = {}  # open loans the run made: id -> copy, member
        self.kit_loans: dict[
            int, dict
        ] = {}  # kits out: kit id -> its school, due date, the loans of its copies
        self.book: dict[int, Decimal] = defaultdict(Decimal)  # what each family owes, from the answers
        self.cash: dict[int, Decimal] = defaultdict(Decimal)  # cash taken per site since its till closed
        # Deposits held in cash per site: they stay in the drawer, as its float, until handed back.
        self.held_at: dict[int, Decimal] = defaultdict(Decimal)
        self.floats: dict[int, Decimal] = defaultdict(Decimal)  # the float each till was left with
        self.counts: dict[str, int] = defaultdict(int)
        self.lent_per_month: dict[str, int] = defaultdict(int)
        self.refusals: dict[str, int] = defaultdict(int)
        self.words = WORDS
        self.lost_copies: list[int] = []
        self.shelves: dict[int, list[tuple[int, int]]] = {}  # site -> its copies (game, id), popular first
        self.reasons: dict[str, str] = {}
        self.seen_entries: set[int] = set()
        self.stocktakes: dict[int, dict] = {}
        self.deposits: dict[int, Decimal] = defaultdict(Decimal)
        self.server_environment: dict[str, str] = {}
        self.today = world.start
        self.clerks = [Client(base, self.recorder, token=token) for _username, token in world.clerks]
        for client, (username, _token) in zip(self.clerks, world.clerks, strict=True):
            client.login_as = (username, PASSWORD)
        self.families: dict[int, Client] = {}
        self.faults = faults.Faults(self)
        self.checks = invariants.Checks(self)
        self.pool = ThreadPoolExecutor(max_workers=params.clerks, thread_name_prefix="desk")

    # The run's book and counters (several clerks at once).
    def count(self, what: str, n: int = 1) -> None:
        with self.lock:
            self.counts[what] += n

    def book_add(self, member: int, amount: Decimal) -> None:
        with self.lock:
            self.book[member] += amount

    def book_owed(self, member: int) -> Decimal:
        with self.lock:
            return self.book[member]

    def first_seen(self, entry: int) -> bool:
        with self.lock:
            new = entry not in self.seen_entries
            self.seen_entries.add(entry)
            return new

    def cash_add(self, site: int, amount: Decimal) -> None:
        with self.lock:
            self.cash[site] += amount

    def cash_taken(self, site: int) -> Decimal:
        return self.cash[site]

    def till_float(self, site: int) -> Decimal:
        return self.floats[site]

    def float_to_keep(self, site: int, counted: Decimal) -> Decimal:
        """What stays in the drawer: the cash deposits this site holds, as far as the drawer has them (a
        deposit taken at one site and handed back at another leaves the first with it, the second short)."""
        return min(max(self.held_at[site], Decimal(0)), counted)

    def after_till_close(self, site: int, counted: Decimal, kept: Decimal) -> None:
        self.checks.till_closed(site, counted)
        self.cash[site] = Decimal(0)
        self.floats[site] = kept
        self.count("tills closed")

    def uuid(self) -> str:
        return str(uuid.UUID(int=self.rng.getrandbits(128), version=4))

    def expect(self, answer, status: int, kind: str) -> None:
        if answer.status_code == status:
            return
        if 400 <= answer.status_code < 500:
            self.refusal(kind, answer)
            return
        if answer.status_code >= 500 and self.recorder.fault_window:
            return
        raise Breach(f"{kind}: {answer.status_code} where {status} was expected: {answer.text[:300]}")

    def refusal(self, kind: str, answer) -> None:
        if answer is None:
            raise Breach(f"{kind}: no answer after {len(self.clerks)} tries")
        if not answer.text.strip():
            raise Breach(f"{kind}: a {answer.status_code} without its reason")
        # A page's refusal is its form's error list; an API's, its JSON.
        errors = ERROR_LIST.findall(answer.text)
        reason = " ".join(html.unescape(re.sub(r"<[^>]+>|\s+", " ", error)).strip() for error in errors)
        reason = reason or answer.text
        with self.lock:
            self.refusals[f"{kind} {answer.status_code}"] += 1
            self.reasons.setdefault(f"{kind} {answer.status_code}", reason[:160])

    def after_lend(self, body: dict, member: int, site: int) -> None:
        copy = self.world.copies[body["copy"]]
        with self.lock:
            self.loans[body["id"]] = {"id": body["id"], "copy": body["copy"], "member": member}
            self.book[member] += self.world.types[self.world.families[member]["type"]]["loan_fee"]
            if copy["deposit"]:  # received in cash at the desk that lent it, held for the family
                self.deposits[member] += copy["deposit"]
                self.cash[site] += copy["deposit"]
                self.held_at[site] += copy["deposit"]
                self.counts["deposits received"] += 1
            self.counts["loans"] += 1
            self.lent_per_month[self.today.strftime("%Y-%m")] += 1

    def after_return(self, loan: dict, body: dict, *, lost: bool) -> None:
        with self.lock:
            self.loans.pop(loan["id"], None)
            for charge in body.get("charges", []):
                if not charge["waived"]:
                    self.book[loan["member"]] += Decimal(charge["amount"])
            for deposit in body.get("deposits_returned", []):  # handed back from the copy's site's till
                self.deposits[loan["member"]] -= Decimal(deposit["amount"])
                self.cash[self.world.copies[loan["copy"]]["site"]] -= Decimal(deposit["amount"])
                self.held_at[self.world.copies[loan["copy"]]["site"]] -= Decimal(deposit["amount"])
                self.counts["deposits returned"] += 1
            self.counts["games lost" if lost else "returns"] += 1
            if lost:
                self.lost_copies.append(loan["copy"])
            if loan["due_on"] < self.today:
                self.counts["late returns"] += 1
            if body.get("return_check") == "incomplete":
                self.counts["incomplete returns"] += 1
            if body.get("set_aside_for"):
                self.counts["copies set aside for a hold at return"] += 1

    # What anyone can see at the ludothèque (read from the database, never written).
    def open_loans(self, member: int, site: int | None) -> list[dict]:
        from loans.models import Loan

        loans = Loan.objects.open().filter(member=member)
        if site is not None:
            loans = loans.filter(copy__location=site)
        return list(loans.values("id", "copy", "member", "due_on", "renewals"))

    def member_row(self, member: int) -> dict:
        return models().Member.objects.values("membership_expiry", "calendar_token").get(pk=member)

    def calendar_token(self, member: int) -> str:
        return self.member_row(member)["calendar_token"]

    def missing_pieces(self, member: int) -> list[int]:
        from loans.models import MissingPiece

        return list(
            MissingPiece.objects.filter(loan__member=member, recovered_at__isnull=True).values_list(
                "pk", flat=True
            )
        )

    def ready_for(self, member: int, site: int) -> list[str]:
        from loans.models import Hold

        ready = Hold.objects.filter(member=member, status=Hold.Status.READY, pickup_site=site)
        return list(ready.values_list("copy__barcode", flat=True))

    def bookings_to_hand_out(self, member: int, site: int, day: datetime.date) -> list[int]:
        from loans.models import DateBooking

        return list(
            DateBooking.objects.to_hand_out(day)
            .filter(member=member, copy__location=site)
            .order_by("pk")
            .values_list("pk", flat=True)
        )

    def opening_days(self, site: int, start: datetime.date, count: int) -> list[datetime.date]:
        """The site's next `count` opening days from `start` on, as its opening hours page shows them."""
        from opening.schedule import site_calendar

        calendar = site_calendar(site, from_day=start)
        days = (start + datetime.timedelta(days=offset) for offset in range(60))
        return [day for day in days if calendar.is_open(day)][:count]

    def waiting_holds(self, member: int) -> list[int]:
        from loans.models import Hold

        return list(
            Hold.objects.filter(member=member, status=Hold.Status.WAITING).values_list("pk", flat=True)
        )

    def pick_from_shelf(self, site: int, count: int, rng: random.Random) -> list[str]:
        """Copies a family takes from a site's shelf: it reaches for one (the popular titles, the first
        ones, most), takes it if it is there, else reaches again. Only the copies reached for are read,
        never the whole shelf (15,000 copies a site at ×10): the run's cost stays that of a visit."""
        from catalogue.models import Copy

        if site not in self.shelves:
            self.shelves[site] = sorted(
                (row["game"], copy)
                for copy, row in self.world.copies.items()
                if row["site"] == site and not row.get("kit")  # a kit's copies go only with it
            )
        shelf = [copy for _game, copy in self.shelves[site]]
        chosen: list[int] = []
        tried: set[int] = set()
        for _reach in range(10):
            wanted = count - len(chosen)
            reach: set[int] = set()
            while len(reach) < min(2 * wanted, len(shelf) - len(tried)):
                copy = shelf[int(len(shelf) * rng.random() ** 2)]
                if copy not in tried:
                    reach.add(copy)
            if not reach:
                break
            tried |= reach
            there = set(
                Copy.objects.filter(pk__in=reach, location=site).available().values_list("pk", flat=True)
            )
            chosen += [copy for copy in sorted(reach) if copy in there][:wanted]
            if len(chosen) >= count:
                break
        return sorted(self.world.copies[copy]["barcode"] for copy in chosen)

    def game_all_out(self, rng: random.Random) -> int | None:
        from catalogue.models import Copy
        from loans.models import Loan

        out = list(
            Loan.objects.open()
            .order_by("copy__game_id")
            .values_list("copy__game_id", flat=True)
            .distinct()[:300]
        )
        if not out:
            return None
        game = out[int(len(out) * rng.random() ** 2)]
        return None if Copy.objects.filter(game=game).available().exists() else game

    # The year.
    def play(self) -> None:
        for number in range(self.params.days):
            day = self.world.start + datetime.timedelta(days=number)
            self.today = day
            began = time.perf_counter()
            self.play_day(day)
            with self.profile.phase(CHECKS):
                self.checks.daily(day)
            # Progress, on stderr (the report is stdout): a long run shows where it is.
            print(f"{day}: {time.perf_counter() - began:.1f} s", file=sys.stderr, flush=True)
        self.today = self.world.start + datetime.timedelta(days=self.params.days)
        with self.profile.phase(YEAR_END):
            self.at(self.today, "07:00")
            self.daily_run(self.today)
            self.checks.year_end(self.today)
        self.pool.shutdown()

    def at(self, day: datetime.date, hour: str) -> None:
        from django.utils import timezone

        moment = datetime.datetime.combine(day, datetime.time.fromisoformat(hour))
        clock.set_to(timezone.make_aware(moment))

    def play_day(self, day: datetime.date) -> None:
        from opening.schedule import site_calendars

        self.at(day, "07:00")
        with self.profile.phase(DAILY_RUN):
            self.faults.morning(day)
        self.at(day, "09:00")
        with self.profile.phase(AT_HOME):
            self.families_at_home(day)
        calendars = site_calendars(self.world.sites, from_day=day)
        openings = sorted(
            (opens_at, closes_at, site)
            for site, calendar in calendars.items()
            if calendar.is_open(day)
            for opens_at, closes_at in calendar.hours[day.weekday()]
        )
        for opens_at, closes_at, site in openings:
            self.at(
                day,
                (datetime.datetime.combine(day, opens_at) + datetime.timedelta(minutes=15)).strftime("%H:%M"),
            )
            with self.profile.phase(OPENINGS):
                self.opening(day, site, closes_at)
        self.at(day, "20:00")

    def daily_run(self, day: datetime.date, *, date: datetime.date | None = None) -> str:
        from django.core.management import call_command

        out = io.StringIO()
        call_command("run_daily", *([f"--date={date.isoformat()}"] if date else []), stdout=out, stderr=out)
        self.count("daily runs")
        return out.getvalue()

    def families_at_home(self, day: datetime.date) -> None:
        rng = random.Random(f"{day}-home")
        active = [
            m
            for m, f in self.world.families.items()
            if not f.get("group")
            and not (f["lapses"] and day > self.world.start + datetime.timedelta(days=120))
        ]
        chosen = rng.sample(active, min(self.params.home_visits, len(active)))
        self.in_parallel(
            chosen,
            lambda member, index: people.at_home(
                self, self.family(member), member, day, random.Random(f"{day}-{member}")
            ),
        )

    def family(self, member: int) -> Client:
        if member not in self.families:
            family = self.world.families[member]
            client = Client(self.base, self.recorder, language=family["language"])
            client.login_as = (family["login"], PASSWORD)
            self.families[member] = client
        return self.families[member]

    def opening(self, day: datetime.date, site: int, closes_at: datetime.time) -> None:
        people.crates_in(self, self.clerks[0], site)
        visitors = self.visitors(day, site)
        self.faults.during_opening(day, site, visitors)
        self.in_parallel(
            visitors,
            lambda member, index: people.desk_visit(
                self,
                self.clerks[index % len(self.clerks)],
                member,
                site,
                day,
                random.Random(f"{day}-{site}-{member}"),
            ),
        )
        people.kits_at_desk(self, self.clerks[0], site, day, random.Random(f"{day}-{site}-kits"))
        self.faults.end_of_opening()
        people.crates_out(self, self.clerks[0], site)
        self.count("openings")
        # The till closes when the opening ends, before another site's opening later that day.
        self.at(day, closes_at.strftime("%H:%M"))
        people.till_close(self, self.clerks[0], site)

    def visitors(self, day: datetime.date, site: int) -> list[int]:
        """Who comes: families with games due or late (most of them), holds ready, and others browsing."""
        from loans.models import DateBooking, Hold, Loan

        rng = random.Random(f"{day}-{site}-visitors")
        soon = day + datetime.timedelta(days=3)
        due = set(
            Loan.objects.open().filter(copy__location=site, due_on__lte=soon).values_list("member", flat=True)
        )
        # About one family in ten keeps its games late this time.
        coming = {member for member in sorted(due) if rng.random() >= self.params.late}
        # Most families come for a game set aside for them; some never do, and their hold expires.
        ready = Hold.objects.filter(status=Hold.Status.READY, pickup_site=site).values_list(
            "member", flat=True
        )
        coming |= {member for member in sorted(set(ready)) if rng.random() >= self.params.uncollected}
        # A family comes for the giant game it booked on one of the booking's days, most of the time.
        booked = (
            DateBooking.objects.to_hand_out(day).filter(copy__location=site).values_list("member", flat=True)
        )
        coming |= {member for member in sorted(set(booked)) if rng.random() >= self.params.uncollected}
        home = [
            member
            for member, family in sorted(self.world.families.items())
            if family["home"] == site
            and not (family["lapses"] and day > self.world.start + datetime.timedelta(days=120))
        ]
        scale = (self.params.activity or len(self.world.families) - len(self.world.groups)) / 400
        wanted = int(self.params.loans_per_opening * scale / 2)
        for member in rng.sample(home, min(len(home), max(0, wanted - len(coming)))):
            coming.add(member)
        # The schools bring their kits back as kits (people.kits_at_desk), never at the desk's counter.
        return sorted(coming - set(self.world.groups))

    def in_parallel(self, items: list, act) -> None:
        """Several clerks (or families) at once: each item to the next free one, in order.

        The threads last the whole run, and so do their database sessions: a session per visitor
        would cost PostgreSQL a process started and ended each time."""
        for result in self.pool.map(lambda pair: act(pair[1], pair[0]), list(enumerate(items))):
            del result

    # What the checks and faults ask of the run.
    @property
    def time_zone(self) -> str:
        from django.conf import settings

        return settings.TIME_ZONE

    def deposits_held(self) -> Decimal:
        return sum(self.deposits.values(), Decimal("0.00"))

    def copy_id(self, barcode: str) -> int:
        return self.world.barcodes[barcode]

    def stats_from_page(self, html: str) -> dict[str, int]:
        """The loans per month the statistics page shows (« janvier 2027 » → 2027-01)."""
        import re

        shown = {}
        for name, year, count in re.findall(
            r"<tr><td>([a-zéû]+) (\d{4})</td><td class=\"numeric\">(\d+)</td>", html
        ):
            shown[f"{year}-{FRENCH_MONTHS.index(name) + 1:02d}"] = int(count)
        return shown

    def stocktake(self, day: datetime.date) -> None:
        """Each site counted by a clerk scanning every box the run knows is on its shelves, then closed."""
        from inventory.models import Stocktake

        self.at(day, "10:00")
        lost = set(self.lost_copies)
        out = {loan["copy"] for loan in self.loans.values()}
        found = {}

        def count(site: int, index: int) -> None:
            clerk = self.clerks[index % len(self.clerks)]
            started = clerk.form("inventaire", "/inventaire/", {"localisation": site})
            self.expect(started, 302, "inventaire")
            path = started.headers["Location"]
            for copy, row in sorted(self.world.copies.items()):
                if row["site"] == site and copy not in out and copy not in lost:
                    fields = {
                        "barcode": row["barcode"],
                        "csrfmiddlewaretoken": clerk.session.cookies.get("csrftoken"),
                    }
                    self.expect(
                        clerk.request("inventaire: scan", "POST", path, data=fields), 302, "inventaire: scan"
                    )
            closed = clerk.form("inventaire clos", f"{path}clore/", {}, page=path)
            self.expect(closed, 302, "inventaire clos")
            found[site] = int(path.rstrip("/").rsplit("/", 1)[1])

        self.in_parallel(self.world.sites, count)
        for site, pk in found.items():
            stocktake = Stocktake.objects.get(pk=pk)
            report = {
                "missing": stocktake.missing_copies().count(),
                "on loan": stocktake.on_loan_copies().count(),
                "unexpected": stocktake.unexpected_copies().count(),
                "misplaced": stocktake.misplaced_copies().count(),
                "unknown": len(stocktake.unknown_barcodes()),
            }
            self.stocktakes[site] = report
            if any(report.values()):
                raise Breach(f"copies: the stocktake of site {site} found {report}")


FRENCH_MONTHS = [
    "janvier",
    "février",
    "mars",
    "avril",
    "mai",
    "juin",
    "juillet",
    "août",
    "septembre",
    "octobre",
    "novembre",
    "décembre",
]
