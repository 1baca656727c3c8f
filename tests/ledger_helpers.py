"""Plain builders for the ledger's tests: a site, what a family owes, a charge to pay."""

from decimal import Decimal
from io import BytesIO

from django.test import Client
from pypdf import PdfReader

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


def session_cookie(user, url: str) -> dict:
    """A logged-in session for a browser context (`context.add_cookies([...])`)."""
    client = Client()
    client.force_login(user)
    return {"name": "sessionid", "value": client.cookies["sessionid"].value, "url": url}


def pdf_page_size_mm(pdf: bytes) -> tuple[int, int]:
    """The first page's width and height in millimetres (A4: 210 × 297, A5: 148 × 210)."""
    box = PdfReader(BytesIO(pdf)).pages[0].mediabox
    return round(float(box.width) * 25.4 / 72), round(float(box.height) * 25.4 / 72)


def pdf_text(pdf: bytes) -> str:
    return " ".join(" ".join(page.extract_text() for page in PdfReader(BytesIO(pdf)).pages).split())
