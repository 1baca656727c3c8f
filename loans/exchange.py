"""The member families as a spreadsheet or JSON (staff only): what a library takes along when it moves."""

from collections.abc import Iterator

from django.db.models import Prefetch

from .models import HouseholdMember, Member

FAMILY_COLUMNS = [
    "carte",
    "nom",
    "email",
    "telephone",
    "adresse",
    "type_adhesion",
    "debut_adhesion",
    "fin_adhesion",
    "foyer",
    "notes",
    "inscrite_le",
]


def exported_families() -> Iterator[Member]:
    """Every family with its membership type and household, by name, read 500 at a time."""
    household = HouseholdMember.objects.order_by("birth_year", "first_name")
    families = Member.objects.select_related("membership_type").prefetch_related(
        Prefetch("household", household)
    )
    return families.order_by("name", "pk").iterator(chunk_size=500)


def family_values(member: Member) -> dict:
    return {
        "carte": member.card_barcode,
        "nom": member.name,
        "email": member.email,
        "telephone": member.phone,
        "adresse": member.address,
        "type_adhesion": member.membership_type.name,
        "debut_adhesion": member.membership_start.isoformat(),
        "fin_adhesion": member.membership_expiry.isoformat(),
        "foyer": " ; ".join(f"{person.first_name} {person.birth_year}" for person in member.household.all()),
        "notes": member.notes,
        "inscrite_le": member.created_at.isoformat(),
    }


def family_json(member: Member) -> dict:
    household = [
        {"prenom": person.first_name, "annee": person.birth_year} for person in member.household.all()
    ]
    return family_values(member) | {"foyer": household}
