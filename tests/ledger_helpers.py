"""Plain builders for the ledger's tests: a site, what a family owes, a charge to pay."""

from decimal import Decimal

from catalogue.models import Location
from ledger import services
from ledger.models import Entry, Kind


def make_site(name: str = "Maison des Enfants") -> Location:
    site, _ = Location.objects.get_or_create(name=name)
    return site


def owed(member) -> Decimal:
    """What the family owes, as the ledger derives it."""
    return Entry.objects.filter(member=member).balance()


def charge(
    member, amount: str, staff, *, kind: str = Kind.OTHER, site=None, note: str = "Carton abîmé", **more
):
    return services.charge_create(
        member=member,
        kind=kind,
        amount=Decimal(amount),
        staff=staff,
        site=site or make_site(),
        note=note,
        **more,
    )


def pay(member, amount: str, staff, *, method: str = "cash", site=None, **more):
    return services.payment_create(
        member=member, amount=Decimal(amount), method=method, staff=staff, site=site or make_site(), **more
    )
