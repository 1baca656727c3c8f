"""Demo data of the families: the two kinds of membership, four fictional families and their
households, the desk's account and one family's site login.

Safe to run again: what exists is left as it is. The two accounts are for a demo only; their
password is printed by the loans' demo and documented in the README.
"""

import datetime
from decimal import Decimal

from django.contrib.auth import get_user_model
from django.utils import timezone

from .models import HouseholdMember, Member, MembershipType

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
# membership_age: days since the membership started.
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
    },
]


def demo_user(username: str, *, staff: bool):
    user, created = get_user_model().objects.get_or_create(
        username=username, defaults={"is_staff": staff, "email": f"{username}@example.org"}
    )
    if created:
        # Staff is all the desk and the admin ask for (ludotheque/access.py: every staff member is a librarian).
        user.set_password(DEMO_PASSWORD)
        user.save(update_fields=["password"])
    return user


def load(*, stdout) -> None:
    """Create the demo accounts, kinds of membership and families once."""
    demo_user(STAFF_USERNAME, staff=True)
    family_user = demo_user(FAMILY_USERNAME, staff=False)
    types = {}
    for values in MEMBERSHIP_TYPES:
        types[values["name"]], _ = MembershipType.objects.get_or_create(name=values["name"], defaults=values)
    today = timezone.localdate()
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
    stdout.write(f"  {Member.objects.count()} member families.")
