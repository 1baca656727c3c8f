"""On-site play (jeu sur place, issue 14): sessions, attendance, copies at a table, plays, statistics.

A French ludothèque counts the families who come to play on site for its funders; a copy taken to a
table is not a loan (no quota) but cannot be lent meanwhile, and comes back with its pieces checked.
"""

import csv
import datetime
import io

import pytest
from django.contrib.auth import get_user_model
from django.core.exceptions import ValidationError
from django.core.management import call_command
from django.db import IntegrityError, transaction
from django.urls import reverse
from django.utils import timezone

from catalogue.models import Copy, Game, Location
from loans import services as loans
from loans.models import Hold, Loan, MissingPiece
from onsite import services, stats
from onsite.models import Play, Session, TableUse, Visit
from opening.models import OpeningHours
from rules.models import RulePage
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member, make_membership_type


def code_of(error: ValidationError) -> str:
    if hasattr(error, "error_dict"):
        return next(iter(error.error_dict.values()))[0].code
    return error.error_list[0].code


@pytest.fixture
def site(db) -> Location:
    return Location.objects.get_or_create(name="Maison des Enfants")[0]


@pytest.fixture
def session(site, staff_user) -> Session:
    return services.session_open(location=site, staff=staff_user)


@pytest.fixture
def catane(db) -> Game:
    return make_game(
        "Les colons de Catane", pieces=[(19, "hexagones Terrains"), (95, "cartes Matières Premières")]
    )


@pytest.fixture
def copy(catane) -> Copy:
    return make_copy(catane, "90461")


# --- sessions ------------------------------------------------------------------------------------------


def test_one_open_session_per_site_is_kept_by_the_database(session, site, staff_user):
    with pytest.raises(IntegrityError, match="onsite_session_one_open_per_site"), transaction.atomic():
        Session.objects.create(location=site, opened_by=staff_user)


def test_opening_a_second_session_on_a_site_is_refused_with_its_reason(session, site, staff_user):
    with pytest.raises(ValidationError) as refused:
        services.session_open(location=site, staff=staff_user)
    assert code_of(refused.value) == "session_already_open"
    other = Location.objects.create(name="Annexe du Parc")
    assert services.session_open(location=other, staff=staff_user).is_open


def test_a_session_takes_its_planned_hours_from_the_opening_calendar(site, staff_user):
    weekday = timezone.localdate().weekday()
    OpeningHours.objects.create(
        location=site, weekday=weekday, opens_at=datetime.time(10), closes_at=datetime.time(12)
    )
    OpeningHours.objects.create(
        location=site, weekday=weekday, opens_at=datetime.time(14), closes_at=datetime.time(17)
    )
    session = services.session_open(location=site, staff=staff_user)
    assert (session.planned_from, session.planned_until) == (datetime.time(10), datetime.time(17))


# --- attendance ----------------------------------------------------------------------------------------


def test_attendance_counts_must_not_be_negative_nor_empty(session, staff_user):
    with pytest.raises(IntegrityError, match="onsite_visit_counts_not_negative"), transaction.atomic():
        Visit.objects.create(session=session, children=-1, adults=2, recorded_by=staff_user)
    with pytest.raises(IntegrityError, match="onsite_visit_someone_came"), transaction.atomic():
        Visit.objects.create(session=session, children=0, adults=0, recorded_by=staff_user)
    with pytest.raises(ValidationError) as refused:
        services.visit_record(session=session, staff=staff_user, children=-2, adults=1)
    assert code_of(refused.value) == "negative_count"


def test_a_member_family_is_counted_once_per_session_others_as_often_as_they_come(session, staff_user):
    family = make_member("M0001", "Alex Tartempion")
    services.visit_record(session=session, staff=staff_user, member=family, children=2, adults=1)
    with pytest.raises(ValidationError) as refused:
        services.visit_record(session=session, staff=staff_user, member=family, children=1, adults=1)
    assert code_of(refused.value) == "already_counted"
    services.visit_record(session=session, staff=staff_user, children=3, adults=2)
    services.visit_record(session=session, staff=staff_user, children=1, adults=1)
    assert session.attendance() == {"families": 3, "children": 6, "adults": 4}


def test_a_closed_session_counts_nobody_more(session, staff_user):
    services.session_close(session=session, staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        services.visit_record(session=session, staff=staff_user, children=1, adults=1)
    assert code_of(refused.value) == "session_closed"


# --- a copy at a table ---------------------------------------------------------------------------------


def test_a_copy_at_a_table_is_not_available_and_cannot_be_lent(session, copy, catane, staff_user, client):
    family = make_member("M0001", "Alex Tartempion")
    assert Copy.objects.available().filter(pk=copy.pk).exists()
    services.table_take(session=session, copy=copy, staff=staff_user)

    assert not Copy.objects.available().filter(pk=copy.pk).exists()
    shown = Copy.objects.with_availability().get(pk=copy.pk)
    assert (shown.is_available, shown.due_on, shown.elsewhere) == (
        False,
        None,
        "sur une table, en jeu sur place",
    )
    assert Game.objects.with_availability().get(pk=catane.pk).available_count == 0
    with pytest.raises(ValidationError) as refused:
        loans.loan_create(copy=copy, member=family, staff=staff_user)
    assert code_of(refused.value) == "copy_elsewhere"
    assert "sur une table" in refused.value.message_dict["copy"][0]
    assert not Loan.objects.exists()
    assert "Sur une table, en jeu sur place" in text_of(client.get(catane.get_absolute_url()))


def test_a_copy_at_a_table_is_said_so_in_the_readers_language(session, copy, catane, staff_user, client):
    services.table_take(session=session, copy=copy, staff=staff_user)
    assert "Sur une table, en jeu sur place" in text_of(client.get(catane.get_absolute_url()))
    english = text_of(client.get(catane.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en"))
    assert "At a table, played on site" in english and "Sur une table" not in english


def test_a_table_does_not_count_against_the_family_quota(session, copy, catane, staff_user):
    family = make_member("M0001", "Alex Tartempion", membership_type=make_membership_type(loan_quota=1))
    loans.loan_create(copy=make_copy(catane, "90462"), member=family, staff=staff_user)
    visit = services.visit_record(session=session, staff=staff_user, member=family, children=2, adults=1)
    use = services.table_take(session=session, copy=copy, staff=staff_user, visit=visit)
    assert use.is_out
    assert family.loans.open().count() == 1


def test_a_copy_out_on_loan_set_aside_or_of_another_site_does_not_go_to_a_table(session, catane, staff_user):
    family = make_member("M0001", "Alex Tartempion")
    lent = make_copy(catane, "90461")
    loans.loan_create(copy=lent, member=family, staff=staff_user)
    aside = make_copy(catane, "90462")
    loans.hold_create(game=catane, member=make_member("M0002", "Charlie Bidule"), staff=staff_user)
    assert Hold.objects.get().copy == aside
    elsewhere = Copy.objects.create(
        game=catane, cote="TEU", location=Location.objects.create(name="Annexe"), barcode="90463"
    )
    for copy, code in [(lent, "on_loan"), (aside, "set_aside"), (elsewhere, "other_site")]:
        with pytest.raises(ValidationError) as refused:
            services.table_take(session=session, copy=copy, staff=staff_user)
        assert code_of(refused.value) == code
    assert not TableUse.objects.exists()


def test_a_copy_is_at_one_table_at_a_time(session, copy, staff_user):
    services.table_take(session=session, copy=copy, staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        services.table_take(session=session, copy=copy, staff=staff_user)
    assert code_of(refused.value) == "already_at_table"
    with pytest.raises(IntegrityError, match="onsite_tableuse_one_open_per_copy"), transaction.atomic():
        TableUse.objects.create(session=session, copy=copy, taken_by=staff_user)


def test_back_from_the_table_complete_the_copy_can_be_lent_again(session, copy, staff_user):
    use = services.table_take(session=session, copy=copy, staff=staff_user)
    result = services.table_return(table_use=use, staff=staff_user)
    assert result.table_use.return_check == TableUse.ReturnCheck.COMPLETE
    assert Copy.objects.available().filter(pk=copy.pk).exists()
    loan = loans.loan_create(copy=copy, member=make_member("M0001"), staff=staff_user)
    assert loan.is_open


def test_missing_pieces_at_a_table_make_the_copy_incomplete_without_charging_anyone(
    session, copy, catane, staff_user, client
):
    terrains, cards = catane.components.all()
    use = services.table_take(session=session, copy=copy, staff=staff_user)
    result = services.table_return(table_use=use, staff=staff_user, missing=[(terrains, 0), (cards, 2)])
    copy.refresh_from_db()
    assert copy.status == Copy.Status.INCOMPLETE
    piece = MissingPiece.objects.get()
    assert (piece.component, piece.quantity, piece.loan) == (cards, 2, None)
    assert list(result.table_use.missing_pieces.all()) == [piece]
    assert result.table_use.return_check == TableUse.ReturnCheck.INCOMPLETE
    with pytest.raises(ValidationError) as refused:
        services.table_return(table_use=use, staff=staff_user)
    assert code_of(refused.value) == "not_at_table"

    client.force_login(staff_user)
    page = text_of(client.get(reverse("loans:incomplete-list")))
    assert "2 × cartes Matières Premières" in page
    assert "au retour d'une table (jeu sur place)" in page


def test_more_missing_than_the_box_holds_is_refused(session, copy, catane, staff_user):
    terrains, _cards = catane.components.all()
    use = services.table_take(session=session, copy=copy, staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        services.table_return(table_use=use, staff=staff_user, missing=[(terrains, 20)])
    assert code_of(refused.value) == "too_many_missing"
    assert TableUse.objects.get().is_out


def test_a_copy_back_from_the_table_goes_to_the_family_waiting_for_it(session, copy, catane, staff_user):
    use = services.table_take(session=session, copy=copy, staff=staff_user)
    hold = loans.hold_create(game=catane, member=make_member("M0002", "Charlie Bidule"), staff=staff_user)
    assert hold.status == Hold.Status.WAITING  # the only copy is at a table
    result = services.table_return(table_use=use, staff=staff_user)
    assert result.hold == hold
    hold.refresh_from_db()
    assert (hold.status, hold.copy) == (Hold.Status.READY, copy)


def test_a_session_does_not_close_while_a_copy_is_at_a_table(session, copy, staff_user):
    use = services.table_take(session=session, copy=copy, staff=staff_user)
    with pytest.raises(ValidationError) as refused:
        services.session_close(session=session, staff=staff_user)
    assert code_of(refused.value) == "copies_at_table"
    assert "90461" in refused.value.messages[0]
    services.table_return(table_use=use, staff=staff_user)
    closed = services.session_close(session=session, staff=staff_user)
    assert closed.closed_at is not None and closed.closed_by == staff_user
    with pytest.raises(ValidationError):
        services.table_take(session=session, copy=copy, staff=staff_user)


# --- desk pages ----------------------------------------------------------------------------------------


def test_the_on_site_pages_are_for_staff_only(client, outsider, session):
    urls = [
        reverse("onsite:session-list"),
        reverse("onsite:session-detail", args=[session.pk]),
        reverse("onsite:session-close", args=[session.pk]),
        reverse("onsite:stats"),
        reverse("onsite:stats-export", args=["frequentation"]),
    ]
    for url in urls:
        assert client.get(url).status_code == 302
    client.force_login(outsider)
    for url in urls:
        assert client.get(url).status_code == 403
    assert client.post(reverse("onsite:play-create")).status_code == 403


def test_the_desk_opens_a_session_counts_families_and_refuses_bad_input(client, staff_user, site):
    client.force_login(staff_user)
    assert "Jeu sur place" in text_of(client.get(reverse("loans:desk")))
    response = client.post(reverse("onsite:session-list"), {"location": site.pk})
    session = Session.objects.get()
    assert response.status_code == 302 and response["Location"] == session.get_absolute_url()
    assert client.post(reverse("onsite:session-list"), {"location": site.pk}).status_code == 400
    assert client.post(reverse("onsite:session-list"), {"location": "x"}).status_code == 400

    make_member("M0001", "Alex Tartempion")
    visit_url = reverse("onsite:visit-create", args=[session.pk])
    assert client.post(visit_url, {"card": "m0001", "children": 2, "adults": 1}).status_code == 302
    refused = client.post(visit_url, {"card": "M9999", "children": 2, "adults": 1})
    assert refused.status_code == 400
    assert "Aucune famille ne porte la carte « M9999 »." in text_of(refused)
    assert client.post(visit_url, {"card": "", "children": 1, "adults": 1}).status_code == 400
    assert client.post(visit_url, {"non_member": "on", "children": -1, "adults": 1}).status_code == 400
    assert client.post(visit_url, {"non_member": "on", "children": 0, "adults": 0}).status_code == 400
    assert client.post(visit_url, {"non_member": "on", "children": 3, "adults": 1}).status_code == 302
    assert client.get(visit_url).status_code == 405
    assert session.attendance() == {"families": 2, "children": 5, "adults": 2}

    english = text_of(client.get(session.get_absolute_url(), HTTP_ACCEPT_LANGUAGE="en"))
    assert "On-site play — Maison des Enfants" in english and "2 families — 5 children, 2 adults" in english

    table_url = reverse("onsite:table-create", args=[session.pk])
    make_copy(make_game("Quarto", pieces=[(16, "pièces")]), "90468")
    assert client.post(table_url, {"barcode": "90468"}).status_code == 302
    use = TableUse.objects.get()
    # Scanned again in the same box, the game comes back: its pieces check opens.
    response = client.post(table_url, {"barcode": "90468"})
    assert response["Location"] == reverse("onsite:table-return", args=[use.pk])
    assert "Retour de table : « Quarto » (90468)" in text_of(client.get(response["Location"]))
    (line,) = use.copy.game.components.all()
    bad = client.post(response["Location"], {f"missing_{line.pk}": 17})
    assert bad.status_code == 400 and TableUse.objects.get().is_out
    assert client.post(response["Location"], {f"missing_{line.pk}": 0}).status_code == 302
    assert TableUse.objects.get().return_check == TableUse.ReturnCheck.COMPLETE
    refused = client.post(table_url, {"barcode": "00000"})
    assert refused.status_code == 400
    assert "Aucun exemplaire ne porte le code-barres « 00000 »." in text_of(refused)


def test_playing_counted_from_the_score_sheet_of_a_rules_page(client, staff_user, session):
    quarto = make_game("Martian Dice")
    RulePage.objects.create(slug="martian-dice", title="Martian Dice", game=quarto)
    sheet = reverse("rules:score-sheet", args=["martian-dice"]) + "?players=2"
    assert "Compter cette partie" not in text_of(client.get(sheet))  # not for visitors

    client.force_login(staff_user)
    assert "Compter cette partie (jeu sur place)" in text_of(client.get(sheet))
    computed = client.post(reverse("rules:score-sheet", args=["martian-dice"]), {"players": 2})
    assert "Compter cette partie (jeu sur place)" in text_of(computed)
    # Counted after a computed sheet, the clerk comes back to the same table (its player count).
    assert f'name="next" value="{sheet}"' in computed.content.decode()
    pad = reverse("rules:score-pad", args=["martian-dice"]) + "?players=2"
    assert "Compter cette partie (jeu sur place)" in text_of(client.get(pad))
    data = {"session": session.pk, "game": quarto.pk, "players": 2, "source": "score_sheet", "next": sheet}
    response = client.post(reverse("onsite:play-create"), data)
    assert response.status_code == 302 and response["Location"] == sheet
    play = Play.objects.get()
    assert (play.session, play.game, play.players, play.recorded_by) == (session, quarto, 2, staff_user)

    assert client.post(reverse("onsite:play-create"), data | {"players": 0}).status_code == 400
    assert (
        client.post(reverse("onsite:play-create"), data | {"next": "https://ailleurs.example/"})["Location"]
        == session.get_absolute_url()
    )
    services.session_close(session=session, staff=staff_user)
    assert client.post(reverse("onsite:play-create"), data).status_code == 400
    assert Play.objects.count() == 2
    assert "Compter cette partie" not in text_of(client.get(sheet))  # no session open


# --- statistics ----------------------------------------------------------------------------------------


def _past_session(site, staff_user, when: datetime.datetime) -> Session:
    return Session.objects.create(
        location=site, opened_by=staff_user, opened_at=when, closed_at=when, closed_by=staff_user
    )


@pytest.fixture
def a_year(site, staff_user, catane, copy):
    """March: two sessions at the main site, one at the annex; April: one; loans in March and April."""
    tz = timezone.get_current_timezone()
    annex = Location.objects.create(name="Annexe du Parc")
    march_1 = _past_session(site, staff_user, datetime.datetime(2026, 3, 4, 14, tzinfo=tz))
    march_2 = _past_session(site, staff_user, datetime.datetime(2026, 3, 7, 10, tzinfo=tz))
    march_annex = _past_session(annex, staff_user, datetime.datetime(2026, 3, 11, 14, tzinfo=tz))
    april = _past_session(site, staff_user, datetime.datetime(2026, 4, 1, 14, tzinfo=tz))
    family = make_member("M0001", "Alex Tartempion")
    for session, member, children, adults in [
        (march_1, family, 2, 1),
        (march_1, None, 3, 2),
        (march_2, None, 1, 1),
        (march_annex, None, 4, 0),
        (april, family, 2, 2),
    ]:
        Visit.objects.create(
            session=session, member=member, children=children, adults=adults, recorded_by=staff_user
        )
    quarto = make_game("Quarto")
    for session, game in [(march_1, catane), (march_1, catane), (march_2, quarto), (april, catane)]:
        Play.objects.create(session=session, game=game, players=3, recorded_by=staff_user)
    for session in (march_1, april):
        TableUse.objects.create(
            session=session,
            copy=copy,
            taken_by=staff_user,
            taken_at=session.opened_at,
            returned_at=session.opened_at,
        )
    for day, barcode in [(5, "90471"), (20, "90472"), (35, "90473")]:
        Loan.objects.create(
            copy=make_copy(catane, barcode),
            member=family,
            lent_at=datetime.datetime(2026, 3, 1, 10, tzinfo=tz) + datetime.timedelta(days=day),
            lent_by=staff_user,
            due_on=datetime.date(2026, 5, 1),
        )
    # Another year is left out.
    _past_session(site, staff_user, datetime.datetime(2025, 3, 4, 14, tzinfo=tz))


def test_attendance_per_month_and_site(a_year):
    rows = stats.attendance(2026)
    assert [(row["month"], row["site"]) for row in rows] == [
        (3, "Annexe du Parc"),
        (3, "Maison des Enfants"),
        (4, "Maison des Enfants"),
    ]
    annex, main_march, main_april = rows
    assert main_march | {} == {
        "month": 3,
        "site": "Maison des Enfants",
        "sessions": 2,
        "families": 3,
        "members": 1,
        "non_members": 2,
        "children": 6,
        "adults": 4,
    }
    assert (annex["sessions"], annex["families"], annex["children"], annex["adults"]) == (1, 1, 4, 0)
    assert (main_april["families"], main_april["members"], main_april["children"]) == (1, 1, 2)
    assert stats.attendance_totals(rows) == {
        "sessions": 4,
        "families": 5,
        "members": 2,
        "non_members": 3,
        "children": 12,
        "adults": 6,
    }


def test_plays_per_game_and_on_site_versus_loans(a_year):
    assert stats.plays_per_game(2026) == [
        {"game": "Les colons de Catane", "plays": 3, "tables": 2},
        {"game": "Quarto", "plays": 1, "tables": 0},
    ]
    months = stats.onsite_vs_loans(2026)
    assert len(months) == 12
    assert months[2] == {"month": 3, "loans": 2, "tables": 1, "plays": 3, "people": 14}
    assert months[3] == {"month": 4, "loans": 1, "tables": 1, "plays": 1, "people": 4}
    assert months[0] == {"month": 1, "loans": 0, "tables": 0, "plays": 0, "people": 0}


def test_the_statistics_page_and_its_csv_for_the_funders(a_year, client, staff_user):
    client.force_login(staff_user)
    page = text_of(client.get(reverse("onsite:stats") + "?annee=2026"))
    assert "Fréquentation par mois et par site" in page
    assert "mars 2026 Maison des Enfants 2 3 1 6 4" in page
    assert "Les colons de Catane 3 2" in page
    assert "Total 3 2 4 18" in page  # the year: loans, table outings, plays, people
    assert "Jeu sur place" in text_of(client.get(reverse("loans:stats")))

    response = client.get(reverse("onsite:stats-export", args=["frequentation"]) + "?annee=2026")
    assert response["Content-Type"] == "text/csv; charset=utf-8"
    assert 'filename="sur-place-frequentation-2026.csv"' in response["Content-Disposition"]
    text = b"".join(response.streaming_content).decode("utf-8")
    assert text.startswith("\ufeff")
    rows = list(csv.reader(io.StringIO(text.lstrip("\ufeff")), delimiter=";"))
    assert rows[0] == [
        "mois",
        "site",
        "séances",
        "familles",
        "familles adhérentes",
        "familles non adhérentes",
        "enfants",
        "adultes",
        "personnes",
    ]
    assert rows[1:] == [
        ["2026-03", "Annexe du Parc", "1", "1", "0", "1", "4", "0", "4"],
        ["2026-03", "Maison des Enfants", "2", "3", "1", "2", "6", "4", "10"],
        ["2026-04", "Maison des Enfants", "1", "1", "1", "0", "2", "2", "4"],
    ]
    games = b"".join(
        client.get(reverse("onsite:stats-export", args=["parties"]) + "?annee=2026").streaming_content
    )
    assert games.decode().splitlines()[1:] == ["Les colons de Catane;3;2", "Quarto;1;0"]
    comparison = b"".join(
        client.get(reverse("onsite:stats-export", args=["comparaison"]) + "?annee=2026").streaming_content
    )
    assert comparison.decode().splitlines()[3] == "2026-03;2;1;3;14"

    assert client.get(reverse("onsite:stats") + "?annee=douze").status_code == 400
    assert client.get(reverse("onsite:stats-export", args=["autre"]) + "?annee=2026").status_code == 400


# --- demo ----------------------------------------------------------------------------------------------


def test_the_demo_has_past_sessions_with_families_tables_and_plays(db, client):
    call_command("load_demo", "--force", stdout=io.StringIO())
    sessions = list(Session.objects.all())
    # The demo site opens on Wednesdays and Saturdays: four opening days in two weeks (fewer if a
    # closure such as the Christmas holidays falls in them).
    assert 1 <= len(sessions) <= 4
    assert not Session.objects.open().exists() and not TableUse.objects.at_table().exists()
    assert Visit.objects.filter(member__isnull=False).exists() and Visit.objects.filter(member=None).exists()
    assert Play.objects.exists()
    assert Copy.objects.get(barcode="90461").pk  # the demo's copies are untouched by the tables
    counts = (Session.objects.count(), Visit.objects.count(), Play.objects.count())
    call_command("load_demo", "--force", stdout=io.StringIO())
    assert (Session.objects.count(), Visit.objects.count(), Play.objects.count()) == counts

    client.force_login(get_user_model().objects.get(username="benevole"))
    year = timezone.localtime(sessions[0].opened_at).year
    page = text_of(client.get(reverse("onsite:stats") + f"?annee={year}"))
    assert "Maison des Enfants" in page
