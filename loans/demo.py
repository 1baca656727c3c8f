"""Demo data of the loan desk: fictional families, current and late loans, holds, an incomplete copy.

Runs after the catalogue's demo (load_demo loads apps in INSTALLED_APPS order) and uses its copies by
barcode. Safe to run again: a family that already has loans is left as it is. The two accounts it
creates are for a demo only; their password is printed and documented in the README.
"""

import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.utils import timezone

from catalogue.models import Copy

from . import services
from .models import HouseholdMember, Loan, Member, MembershipType, MissingPiece

DEMO_PASSWORD = "ludotheque"
STAFF_USERNAME = "benevole"
FAMILY_USERNAME = "famille"

MEMBERSHIP_TYPES = [
    {
        "name": "Famille (1 an)",
        "duration_days": 365,
        "price": Decimal("25.00"),
        "loan_quota": 4,
        "loan_period_days": 21,
        "renewals_allowed": 1,
    },
    {
        "name": "Découverte (3 mois)",
        "duration_days": 90,
        "price": Decimal("8.00"),
        "loan_quota": 2,
        "loan_period_days": 14,
        "renewals_allowed": 0,
        # A short trial membership: no new game while one is late (the yearly one only warns).
        "late_loans": MembershipType.LateLoans.REFUSE,
    },
]

# Placeholder names (Tartempion, Bidule, Machin, Chose): clearly nobody real.
# loans: (barcode, lent how many days ago); membership_age: days since the membership started.
FAMILIES = [
    {
        "card_barcode": "M0001",
        "name": "Alex Tartempion",
        "email": "tartempion@example.org",
        "phone": "0470 00 00 01",
        "address": "1 rue de l'Exemple, 1000 Bruxelles",
        "type": "Famille (1 an)",
        "membership_age": 200,
        "household": [("Alex", 1985), ("Lou", 2015), ("Noa", 2018)],
        "loans": [("90461", 5), ("91233", 32)],  # the second one a week late: a first reminder
        "holds": ["90901"],  # on the shelf: set aside at once, the family is told
        "user": FAMILY_USERNAME,
    },
    {
        "card_barcode": "M0002",
        "name": "Sam Bidule",
        "email": "bidule@example.org",
        "phone": "0470 00 00 02",
        "address": "2 avenue du Jeu, 1000 Bruxelles",
        "type": "Découverte (3 mois)",
        "membership_age": 70,  # a 3-month membership ending in three weeks: reminded
        "household": [("Sam", 1990), ("Mia", 2016)],
        "loans": [("90476", 14)],  # due today or at one of the next openings: reminded
        "holds": ["91233"],
    },
    {
        "card_barcode": "M0003",
        "name": "Charlie Machin",
        "email": "",  # no e-mail: its notices are letters printed at the desk
        "phone": "0470 00 00 03",
        "address": "3 place des Dés, 1000 Bruxelles",
        "type": "Famille (1 an)",
        "membership_age": 100,
        "household": [("Charlie", 1982), ("Léa", 2012), ("Tom", 2014), ("Zoé", 2019)],
        "loans": [("90468", 45)],  # three weeks late: a second reminder, by letter
        "incomplete_return": "91684",
    },
    {
        "card_barcode": "M0004",
        "name": "Dominique Chose",
        "email": "chose@example.org",
        "phone": "0470 00 00 04",
        "address": "4 chemin du Pion, 1000 Bruxelles",
        "type": "Famille (1 an)",
        "membership_age": 430,  # expired two months ago: the desk refuses to lend
        "household": [("Dominique", 1978)],
        "loans": [],
    },
]


def _demo_user(username: str, *, staff: bool):
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"is_staff": staff, "email": f"{username}@example.org"}
    )
    if created:
        # Staff is all the desk and the admin ask for (ludotheque/access.py: every staff member is a librarian).
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


def _backdate(loan: Loan, *, days_ago: int) -> None:
    lent_at = timezone.now() - datetime.timedelta(days=days_ago)
    period = loan.member.membership_type.loan_period_days
    Loan.objects.filter(pk=loan.pk).update(
        lent_at=lent_at,
        due_on=services.due_date(copy=loan.copy, start=timezone.localdate(lent_at), days=period),
    )


def load(*, stdout) -> None:
    """Create the demo families and their loans once; print the demo accounts."""
    staff = _demo_user(STAFF_USERNAME, staff=True)
    family_user = _demo_user(FAMILY_USERNAME, staff=False)
    types = {}
    for values in MEMBERSHIP_TYPES:
        types[values["name"]], _ = MembershipType.objects.get_or_create(name=values["name"], defaults=values)
    today = timezone.localdate()
    copies = {copy.barcode: copy for copy in Copy.objects.select_related("game")}

    for family in FAMILIES:
        membership_type = types[family["type"]]
        start = today - datetime.timedelta(days=family["membership_age"])
        member, created = Member.objects.get_or_create(
            card_barcode=family["card_barcode"],
            defaults={
                "name": family["name"],
                "email": family["email"],
                "phone": family["phone"],
                "address": family["address"],
                "membership_type": membership_type,
                "membership_start": start,
                "membership_expiry": start + datetime.timedelta(days=membership_type.duration_days),
                "user": family_user if family.get("user") else None,
            },
        )
        if created:
            HouseholdMember.objects.bulk_create(
                HouseholdMember(member=member, first_name=first_name, birth_year=year)
                for first_name, year in family["household"]
            )
        if member.loans.exists() or member.holds.exists():
            continue
        try:
            if family.get("incomplete_return") in copies:
                _lend_and_return_incomplete(copies[family["incomplete_return"]], member=member, staff=staff)
            for barcode, days_ago in family["loans"]:
                if barcode in copies:
                    loan = services.loan_create(copy=copies[barcode], member=member, staff=staff)
                    _backdate(loan, days_ago=days_ago)
            for barcode in family.get("holds", []):
                if barcode in copies:
                    services.hold_create(game=copies[barcode].game, member=member, staff=staff)
        except ValidationError as refusal:
            stdout.write(f"  {member.name}: demo loans skipped ({' '.join(refusal.messages)})")

    services.popularity_count(today=today)  # the daily run's count, for the sort by popularity
    stdout.write(
        f"  {Member.objects.count()} member families, {Loan.objects.open().count()} open loans "
        f"({Loan.objects.overdue().count()} late)."
    )
    stdout.write(
        f"  Desk demo account (demo only): {STAFF_USERNAME} / {DEMO_PASSWORD} — "
        f"family account for /compte/: {FAMILY_USERNAME} / {DEMO_PASSWORD}."
    )


def _lend_and_return_incomplete(copy: Copy, *, member: Member, staff) -> None:
    """An earlier loan that came back with a piece missing: the copy is now incomplete."""
    component = copy.game.components.filter(quantity__gte=2).first() or copy.game.components.first()
    if component is None:
        return
    loan = services.loan_create(copy=copy, member=member, staff=staff)
    _backdate(loan, days_ago=40)
    services.loan_return(loan=loan, staff=staff, missing=[(component, 1)])
    returned_at = timezone.now() - datetime.timedelta(days=18)
    Loan.objects.filter(pk=loan.pk).update(returned_at=returned_at)
    MissingPiece.objects.filter(loan=loan).update(recorded_at=returned_at)
