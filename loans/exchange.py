"""The member families as a spreadsheet or JSON (staff only): what a library takes along when it moves.

The columns are the export's (`FAMILY_COLUMNS`); a family is its card number. `foyer` lists the
household as `Lou 2015 ; Noa 2018` (first name and birth year); `inscrite_le` is written, not read.
"""

import datetime
import re
from collections.abc import Iterator
from dataclasses import dataclass, field

from django.core.exceptions import ValidationError
from django.core.validators import validate_email
from django.db import transaction
from django.db.models import Prefetch
from django.utils import timezone
from django.utils.translation import gettext as _

from catalogue.spreadsheet import SheetError, table
from members.models import HouseholdMember, Member, MembershipType

FAMILY_COLUMNS = [
    "carte",
    "nom",
    "email",
    "telephone",
    "adresse",
    "langue",
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
        "langue": member.language,
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


# --- Reading and importing ---------------------------------------------------------------------


@dataclass
class FamilyRow:
    line: int
    card: str
    values: dict  # the Member fields the row gives (only those with a value)
    household: list[tuple[str, int]]


@dataclass
class FamilySheet:
    rows: list[FamilyRow] = field(default_factory=list)
    errors: list[SheetError] = field(default_factory=list)


def _household(text: str, line: int, errors: list) -> list[tuple[str, int]]:
    people = []
    for person in text.split(";"):
        name, _space, year = person.strip().rpartition(" ")
        if not person.strip():
            continue
        # ASCII digits only: str.isdigit() also accepts « ² », which int() refuses (a 500).
        if not name or not re.fullmatch(r"[0-9]{4}", year) or not 1900 <= int(year) <= 2200 or len(name) > 80:
            errors.append(
                SheetError(
                    line, "foyer", _("« %(value)s » : attendu « Prénom 2015 ».") % {"value": person.strip()}
                )
            )
            continue
        people.append((name.strip(), int(year)))
    return people


def _date(values: dict, name: str, line: int, errors: list) -> datetime.date | None:
    if not values.get(name):
        return None
    try:
        return datetime.date.fromisoformat(values[name])
    except ValueError:
        errors.append(SheetError(line, name, _("date attendue sous la forme 2026-09-30.")))
        return None


def read_families(text: str) -> FamilySheet:
    """Rows → families (by card) and each row's errors; the columns are those of the export."""
    sheet = FamilySheet()
    types = {membership.name.casefold(): membership for membership in MembershipType.objects.all()}
    cards: dict[str, int] = {}
    for line, values in table(text, FAMILY_COLUMNS, "carte", sheet.errors):
        errors: list[SheetError] = []
        for name, limit in (("carte", 40), ("nom", 160), ("email", 254), ("telephone", 40)):
            if len(values.get(name, "")) > limit:
                errors.append(SheetError(line, name, _("au plus %(max)s caractères.") % {"max": limit}))
        if not values.get("carte"):
            errors.append(SheetError(line, "carte", _("chaque famille a un numéro de carte.")))
        elif values["carte"] in cards:
            errors.append(
                SheetError(
                    line,
                    "carte",
                    _("la carte %(card)s figure déjà ligne %(line)s.")
                    % {"card": values["carte"], "line": cards[values["carte"]]},
                )
            )
        if values.get("email"):
            try:
                validate_email(values["email"])
            except ValidationError:
                errors.append(SheetError(line, "email", _("adresse e-mail invalide.")))
        if values.get("langue") and values["langue"] not in Member.Language.values:
            errors.append(
                SheetError(
                    line,
                    "langue",
                    _("langue « %(value)s » inconnue : %(choices)s.")
                    % {"value": values["langue"], "choices": ", ".join(Member.Language.values)},
                )
            )
        membership = None
        if values.get("type_adhesion"):
            membership = types.get(values["type_adhesion"].casefold())
            if membership is None:
                errors.append(
                    SheetError(
                        line,
                        "type_adhesion",
                        _("type d'adhésion inconnu : créez « %(name)s » dans l'administration d'abord.")
                        % {"name": values["type_adhesion"]},
                    )
                )
        start, expiry = (
            _date(values, "debut_adhesion", line, errors),
            _date(values, "fin_adhesion", line, errors),
        )
        if start and expiry and start > expiry:
            errors.append(
                SheetError(line, "fin_adhesion", _("l'adhésion ne peut pas finir avant d'avoir commencé."))
            )
        household = _household(values.get("foyer", ""), line, errors)
        if errors:
            sheet.errors += errors
            continue
        cards[values["carte"]] = line
        given = {
            "name": values.get("nom", ""),
            "email": values.get("email", ""),
            "phone": values.get("telephone", ""),
            "address": values.get("adresse", ""),
            "language": values.get("langue", ""),
            "membership_type": membership,
            "membership_start": start,
            "membership_expiry": expiry,
            "notes": values.get("notes", ""),
        }
        row = FamilyRow(
            line, values["carte"], {k: v for k, v in given.items() if v not in (None, "")}, household
        )
        sheet.rows.append(row)
    return sheet


@dataclass
class FamilyImport:
    row: FamilyRow
    action: str
    member: Member
    changes: list[str] = field(default_factory=list)


@transaction.atomic
def families_import(
    *, rows: list[FamilyRow], dry_run: bool = False
) -> tuple[list[FamilyImport], list[SheetError]]:
    """Create or update the families of a spreadsheet, matched by card; in a dry run nothing is saved.

    As the catalogue import: an empty cell keeps what is recorded; the household is only filled
    while the family has none; a new family needs a name and a membership type (its membership
    starts today and lasts the type's duration unless the file gives the dates).
    """
    known = {
        member.card_barcode: member
        for member in Member.objects.filter(card_barcode__in=[row.card for row in rows])
    }
    with_household = set(
        HouseholdMember.objects.filter(member__in=known.values()).values_list("member_id", flat=True)
    )
    results, errors = [], []
    for row in rows:
        member = known.get(row.card)
        created = member is None
        if created:
            if "name" not in row.values or "membership_type" not in row.values:
                errors.append(
                    SheetError(row.line, "nom", _("une nouvelle famille a un nom et un type d'adhésion."))
                )
                continue
            member = Member(card_barcode=row.card)
            start = row.values.get("membership_start") or timezone.localdate()
            member.membership_start = start
            member.membership_expiry = start + datetime.timedelta(
                days=row.values["membership_type"].duration_days
            )
        changes = (
            []
            if created
            else [
                str(Member._meta.get_field(name).verbose_name)
                for name, value in row.values.items()
                if getattr(member, name) != value
            ]
        )
        for name, value in row.values.items():
            setattr(member, name, value)
        adds_household = bool(row.household) and (created or member.pk not in with_household)
        if adds_household and not created:
            changes.append(str(HouseholdMember._meta.verbose_name_plural))
        try:
            member.full_clean(validate_unique=False)
        except ValidationError as error:
            errors.append(SheetError(row.line, "", " ".join(error.messages)))
            continue
        if not dry_run and (created or changes):
            member.save()
            if adds_household:
                HouseholdMember.objects.bulk_create(
                    HouseholdMember(member=member, first_name=name, birth_year=year)
                    for name, year in row.household
                )
        action = "created" if created else "updated" if changes else "unchanged"
        results.append(
            FamilyImport(row=row, action=action, member=member, changes=[] if created else changes)
        )
    if dry_run:
        transaction.set_rollback(True)
    return results, errors


def families_summary(results: list[FamilyImport], errors: list[SheetError]) -> str:
    counts = {
        action: sum(result.action == action for result in results)
        for action in ("created", "updated", "unchanged")
    }
    return _(
        "Créées : %(created)d, mises à jour : %(updated)d, inchangées : %(unchanged)d, erreurs : %(errors)d."
    ) % (counts | {"errors": len(errors)})


def families_import_text(text: str, *, dry_run: bool = False) -> tuple[tuple, str]:
    """Read and import a families spreadsheet's text: ((sheet, results, errors), summary)."""
    sheet = read_families(text)
    results, errors = families_import(rows=sheet.rows, dry_run=dry_run)
    errors = sheet.errors + errors
    return (sheet, results, errors), families_summary(results, errors)
