"""A family's data, as it may download it (GDPR, right of access): one dict, for the JSON and the page.

Each key of `member_data()` beside "contact" and "account" is the name of one relation of Member
(`Member._meta.related_objects`): tests/test_privacy.py fails when a new model points at Member
and this export does not say what it keeps there.
"""

from decimal import Decimal

from django.contrib.auth import get_user_model
from django.db.models import Model

from members.models import Member


def _value(value):
    if isinstance(value, Decimal):
        return str(value)
    if hasattr(value, "isoformat"):
        return value.isoformat()
    return value


def _row(obj: Model, fields: list[str], **more) -> dict:
    """The named fields of a row, choice fields with their label, foreign keys as their text."""
    row = {}
    for name in fields:
        field = obj._meta.get_field(name)
        if field.choices:
            row[name] = getattr(obj, name)
            row[f"{name}_label"] = str(getattr(obj, f"get_{name}_display")())
        elif field.is_relation:
            target = getattr(obj, name)
            row[name] = str(target) if target is not None else None
        else:
            row[name] = _value(getattr(obj, name))
    return row | more


def _date_bookings(member: Member) -> list[dict]:
    fields = ["created_at", "starts_on", "ends_on", "status", "note", "cancelled_at"]
    bookings = member.date_bookings.select_related("copy__game").order_by("starts_on", "pk")
    return [_row(booking, fields, game=booking.copy.game.title) for booking in bookings]


def member_data(member: Member) -> dict:
    """Everything the site keeps about one family, by relation."""
    user = member.user
    loans = member.loans.select_related("copy__game").order_by("lent_at", "pk")
    data = {
        "contact": _row(
            member,
            [
                "card_barcode",
                "name",
                "email",
                "phone",
                "address",
                "language",
                "membership_type",
                "membership_start",
                "membership_expiry",
                "notes",
                "created_at",
            ],
            calendar_feed=bool(member.calendar_token),
        ),
        "account": (
            {
                "username": user.username,
                "email": user.email,
                "date_joined": _value(user.date_joined),
                "last_login": _value(user.last_login),
            }
            if user is not None
            else None
        ),
        "household": [_row(person, ["first_name", "birth_year"]) for person in member.household.all()],
        "loans": [
            _row(
                loan,
                ["lent_at", "due_on", "renewals", "returned_at", "return_check"],
                game=loan.copy.game.title,
            )
            for loan in loans
        ],
        "holds": [
            _row(hold, ["created_at", "status", "ready_until", "closed_at"], game=hold.game.title)
            for hold in member.holds.select_related("game").order_by("created_at", "pk")
        ],
        "date_bookings": _date_bookings(member),
        "notices": [
            _row(notice, ["created_at", "channel", "status", "recipient", "subject", "body_text", "sent_at"])
            for notice in member.notices.order_by("created_at", "pk")
        ],
        "notice_items": [
            _row(item, ["kind", "level", "about_date"], notice_subject=item.notice.subject)
            for item in member.notice_items.select_related("notice").order_by("pk")
        ],
        "ledger_entries": [
            _row(entry, ["recorded_at", "kind", "amount", "method", "waived", "note"])
            for entry in member.ledger_entries.order_by("recorded_at", "pk")
        ],
        "memberships": [
            _row(period, ["membership_type", "start", "end", "price"])
            for period in member.memberships.select_related("membership_type").order_by("start", "pk")
        ],
    }
    # Rows of apps this one does not import (on-site visits…): their own fields, read generically.
    for relation in Member._meta.related_objects:
        name = relation.get_accessor_name()
        if name not in data:
            model = relation.related_model
            fields = [
                field.name
                for field in model._meta.concrete_fields
                if not field.primary_key and field.related_model not in (Member, get_user_model())
            ]
            data[name] = [_row(row, fields) for row in getattr(member, name).order_by("pk")]
    return data
