"""A hand-counted year (2025) for the annual report's tests: two sites, three families, loans, on-site play, copies."""

import datetime

from django.utils import timezone

from catalogue.models import Category, Copy, Game, Location
from ledger.models import Membership
from loans.models import Loan
from members.models import HouseholdMember
from onsite.models import Play, Session, TableUse, Visit
from tests.loan_helpers import make_game, make_member

YEAR = 2025


def at(month: int, day: int, year: int = YEAR) -> datetime.datetime:
    return datetime.datetime(year, month, day, 14, tzinfo=timezone.get_current_timezone())


def _copy(game: Game, barcode: str, site: Location, acquired, withdrawn=None) -> Copy:
    status = Copy.Status.WITHDRAWN if withdrawn else Copy.Status.ON_SHELF
    return Copy.objects.create(
        game=game,
        cote="X",
        location=site,
        barcode=barcode,
        status=status,
        acquired_on=acquired,
        withdrawn_on=withdrawn,
    )


def _family(card: str, name: str, created: datetime.datetime, start, expiry, children: list[tuple[str, int]]):
    family = make_member(card, name, start=start, expiry=expiry)
    type(family).objects.filter(pk=family.pk).update(created_at=created)
    for first_name, birth_year in children:
        HouseholdMember.objects.create(member=family, first_name=first_name, birth_year=birth_year)
    return family


def _session(site: Location, when: datetime.datetime, staff) -> Session:
    return Session.objects.create(
        location=site, opened_by=staff, opened_at=when, closed_at=when, closed_by=staff
    )


def a_year(staff) -> dict:
    """The year 2025, counted by hand in the comments (and in tests/test_annual_report.py)."""
    main = Location.objects.create(name="Maison des Enfants")
    annex = Location.objects.create(name="Annexe du Parc")
    rules = Category.objects.create(code="A 406", label="jeu de stratégie")
    pretend = Category.objects.create(code="A 201", label="dînette")
    catane, dinette, puzzle = make_game("Catane"), make_game("Dînette"), make_game("Puzzle")
    Game.objects.filter(pk=catane.pk).update(category=rules)
    Game.objects.filter(pk=dinette.pk).update(category=pretend)
    c1 = _copy(catane, "C1", main, datetime.date(2024, 5, 1))
    c2 = _copy(catane, "C2", annex, datetime.date(2025, 2, 10))  # an acquisition
    c3 = _copy(dinette, "C3", main, datetime.date(2025, 6, 1), datetime.date(2025, 11, 3))  # in and out
    c4 = _copy(puzzle, "C4", annex, None)  # no date: catalogued in 2024
    Copy.objects.filter(pk=c4.pk).update(created_at=at(9, 1, 2024))
    _copy(catane, "C5", main, datetime.date(2026, 1, 5))  # next year
    _copy(dinette, "C6", main, datetime.date(2020, 1, 1), datetime.date(2026, 2, 1))  # left the year after
    # A: new in 2025, borrowed at both sites, came to play at the main site. Alex (1985), Lou 6, Noa 3.
    alex = _family(
        "A",
        "Alex Martin",
        at(1, 15),
        datetime.date(2025, 1, 15),
        datetime.date(2026, 1, 14),
        [("Lou", 2019), ("Noa", 2022)],
    )
    # B: came to play at the annex only; membership ended in May. Sam (1985), Mia 15.
    sam = _family(
        "B",
        "Sam Durand",
        at(6, 1, 2024),
        datetime.date(2024, 6, 1),
        datetime.date(2025, 5, 31),
        [("Mia", 2010)],
    )
    # C: borrowed in 2024 only; a membership recorded at the desk in 2025 (its current dates are older).
    lea = _family(
        "C",
        "Léa Petit",
        at(1, 1, 2023),
        datetime.date(2023, 1, 1),
        datetime.date(2023, 12, 31),
        [("Léa", 2015)],
    )
    Membership.objects.create(
        member=lea,
        membership_type=lea.membership_type,
        start=datetime.date(2025, 2, 1),
        end=datetime.date(2026, 1, 31),
        price=0,
        created_by=staff,
    )
    # D: joins in 2026: nothing in 2025.
    _family("D", "Dominique Roy", at(2, 1, 2026), datetime.date(2026, 2, 1), datetime.date(2027, 1, 31), [])

    def lend(copy, family, when, back=None):
        return Loan.objects.create(
            copy=copy,
            member=family,
            lent_at=when,
            lent_by=staff,
            due_on=when.date(),
            returned_at=back,
            returned_by=staff if back else None,
            return_check=Loan.ReturnCheck.COMPLETE if back else "",
        )

    lend(c1, alex, at(3, 10), at(3, 30))  # March, main, A400
    lend(c2, alex, at(3, 20), at(4, 10))  # March, annex, A400
    lend(c3, None, at(7, 5), at(7, 25))  # July, main, A200: anonymised
    lend(c1, lea, at(11, 2, 2024), at(11, 20, 2024))  # 2024
    march = _session(main, at(3, 8), staff)
    april = _session(annex, at(4, 12), staff)
    _session(main, at(3, 8, 2024), staff)
    for session, family, children, adults in [(march, alex, 2, 1), (march, None, 3, 2), (april, sam, 1, 2)]:
        Visit.objects.create(
            session=session, member=family, children=children, adults=adults, recorded_by=staff
        )
    TableUse.objects.create(
        session=march,
        copy=c4,
        taken_by=staff,
        taken_at=march.opened_at,
        returned_at=march.opened_at,
        return_check=TableUse.ReturnCheck.COMPLETE,
    )
    for session, game in [(march, catane), (march, catane), (april, dinette)]:
        Play.objects.create(session=session, game=game, players=2, recorded_by=staff)
    return {"main": main, "annex": annex}
