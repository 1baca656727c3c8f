"""The annual report for funders (/comptoir/rapport-annuel/): each figure against a year counted by hand,
the same figures as the statistics pages, its CSV, its bad input and its bounded queries."""

import csv
import datetime
import io

import pytest
from django.core.management import call_command
from django.db import connection
from django.forms import modelform_factory
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from catalogue.forms import CopyForm
from catalogue.models import Copy, Location
from kits import demo as demo_kits
from loans import demo as demo_loans
from loans.models import Loan
from members import demo as demo_families
from members.models import Member
from onsite.models import Visit
from privacy.services import months_before
from report import registry
from report.figures import AGE_GROUPS
from tests.conftest import text_of
from tests.loan_helpers import make_copy, make_game, make_member
from tests.report_helpers import YEAR, a_year, at

pytestmark = pytest.mark.django_db


@pytest.fixture
def desk(client, staff_user):
    client.force_login(staff_user)
    return client


@pytest.fixture
def sites(staff_user):
    return a_year(staff_user)


def tables(year: int = YEAR, site=None) -> dict[str, registry.Table]:
    return {table.slug: table for section in registry.sections(year, site) for table in section.tables}


def rows(table: registry.Table) -> dict[str, list]:
    return {row[0]: row[1:] for row in table.rows}


def nonzero(table: registry.Table) -> dict[str, list]:
    return {label: numbers for label, numbers in rows(table).items() if any(numbers)}


def test_families_served_are_counted_once_each_and_their_people_by_age_group(sites):
    figures = tables()
    families = rows(figures["familles"])
    assert families["Ont emprunté un jeu"] == [1]
    assert families["Sont venues jouer sur place"] == [2]
    assert families["Familles servies (chacune une fois)"] == [2]
    assert rows(figures["ages"]) == {
        "0 à 3 ans": [1],
        "4 à 6 ans": [1],
        "7 à 11 ans": [0],
        "12 à 17 ans": [1],
        "adultes (18 ans et plus)": [2],
    }


def test_an_anonymised_loan_counts_among_loans_and_is_said_not_to_count_among_families(sites):
    served = next(section for section in registry.sections(YEAR, None) if section.slug == "familles")
    assert served.notes == [
        "1 prêt de l'année est anonymisé : il compte parmi les prêts, pas sa famille, qui n'est plus connue."
    ]
    assert tables()["prets-mois"].total_row == [3]


def test_loans_by_month_site_and_esar_group(sites):
    figures = tables()
    assert nonzero(figures["prets-mois"]) == {"mars 2025": [2], "juillet 2025": [1]}
    assert len(figures["prets-mois"].rows) == 12
    assert rows(figures["prets-sites"]) == {"Annexe du Parc": [1], "Maison des Enfants": [2]}
    assert nonzero(figures["prets-esar"]) == {"A200 Jeux symboliques": [1], "A400 Jeux de règles": [2]}


def test_on_site_play_by_month_site_and_esar_group(sites):
    figures = tables()
    assert nonzero(figures["sur-place-frequentation"]) == {
        "mars 2025": [1, 2, 5, 3],
        "avril 2025": [1, 1, 1, 2],
    }
    assert nonzero(figures["sur-place-jeux"]) == {"mars 2025": [1, 2], "avril 2025": [0, 1]}
    assert rows(figures["sur-place-sites"]) == {
        "Annexe du Parc": [1, 1, 1, 2, 0, 1],
        "Maison des Enfants": [1, 2, 5, 3, 1, 2],
    }
    assert nonzero(figures["sur-place-esar"]) == {
        "A200 Jeux symboliques": [0, 1],
        "A400 Jeux de règles": [0, 2],
        "autre classement ou sans catégorie": [1, 0],
    }


def test_new_and_active_members(sites):
    figures = tables()
    assert nonzero(figures["adherents-mois"]) == {"janvier 2025": [1]}
    assert rows(figures["adherents"]) == {
        "Nouvelles familles inscrites": [1],
        "Familles adhérentes un jour de l'année (actives)": [3],
        "Adhésions enregistrées dans l'année": [1],
    }


def test_the_collection_at_the_end_of_the_year_its_acquisitions_and_withdrawals(sites):
    collection = tables()["collection"]
    assert nonzero(collection) == {
        "A200 Jeux symboliques": [1, 1, 1, 1],
        "A400 Jeux de règles": [1, 2, 1, 0],
        "autre classement ou sans catégorie": [1, 1, 0, 0],
    }
    assert collection.total_row == [3, 4, 2, 1]


def test_one_site_counts_what_happened_there(sites):
    figures = tables(site=sites["main"].pk)
    families = rows(figures["familles"])
    assert families["Ont emprunté un jeu"] == families["Sont venues jouer sur place"] == [1]
    assert families["Familles servies (chacune une fois)"] == [1]
    assert rows(figures["ages"])["adultes (18 ans et plus)"] == [1]
    assert nonzero(figures["prets-mois"]) == {"mars 2025": [1], "juillet 2025": [1]}
    assert rows(figures["sur-place-sites"]) == {"Maison des Enfants": [1, 2, 5, 3, 1, 2]}
    assert figures["collection"].total_row == [2, 2, 1, 1]
    # Memberships are the ludothèque's, whichever site.
    assert rows(figures["adherents"])["Familles adhérentes un jour de l'année (actives)"] == [3]


def test_another_year_has_its_own_figures(sites):
    figures = tables(2024)
    assert nonzero(figures["prets-mois"]) == {"novembre 2024": [1]}
    assert rows(figures["familles"])["Familles servies (chacune une fois)"] == [1]
    assert rows(figures["ages"])["7 à 11 ans"] == [1]  # Léa, 9 in 2024


def test_the_page_shows_each_table_beside_its_chart(desk, sites):
    response = desk.get(reverse("report:annual") + f"?annee={YEAR}")
    assert response.status_code == 200
    html = response.content.decode()
    page = text_of(response)
    assert f"Rapport annuel {YEAR} — tous les sites" in page
    assert "Annexe du Parc 1 1 1 2 0 1" in page and "Total 3 4 2 1" in page
    for slug, table in tables().items():
        assert f'id="table-{slug}"' in html
        if not table.rows:  # « Rien cette année », and no chart
            continue
        assert f'aria-labelledby="chart-{slug}-title" aria-describedby="chart-{slug}-desc"' in html
    # Patterns, not colours: a hatched series, and the values written on the bars.
    assert 'fill="url(#chart-sur-place-sites-hatch)"' in html


def test_the_page_for_one_site_says_so(desk, sites):
    page = text_of(desk.get(reverse("report:annual") + f"?annee={YEAR}&site={sites['annex'].pk}"))
    assert f"Rapport annuel {YEAR} — Annexe du Parc" in page
    assert "Les adhésions valent pour tous les sites." in page


def read_csv(response) -> list[list[str]]:
    text = b"".join(response.streaming_content).decode("utf-8-sig")
    return list(csv.reader(io.StringIO(text), delimiter=";"))


def test_each_table_exports_as_csv_with_its_total(desk, sites):
    response = desk.get(reverse("report:export-table", args=["prets-sites"]) + f"?annee={YEAR}")
    assert response["Content-Disposition"] == f'attachment; filename="rapport-{YEAR}-prets-sites.csv"'
    assert read_csv(response) == [
        ["Site", "Prêts"],
        ["Annexe du Parc", "1"],
        ["Maison des Enfants", "2"],
        ["Total", "3"],
    ]


def test_the_whole_report_exports_as_one_figure_a_line(desk, sites):
    lines = read_csv(desk.get(reverse("report:export") + f"?annee={YEAR}"))
    assert lines[0] == ["Section", "Tableau", "Ligne", "Colonne", "Valeur"]
    assert ["Collection", lines[-1][1], "autre classement ou sans catégorie", "Sorties", "0"] == lines[-1]
    assert ["Prêts", "Prêts par site", "Annexe du Parc", "Prêts", "1"] in lines


def test_a_site_name_that_looks_like_a_formula_is_exported_as_text(desk, sites):
    sites["annex"].name = "=HYPERLINK(1)"
    sites["annex"].save()
    lines = read_csv(desk.get(reverse("report:export-table", args=["prets-sites"]) + f"?annee={YEAR}"))
    assert lines[1] == ["'=HYPERLINK(1)", "1"]


def test_bad_input_is_a_400_with_the_fields_reason(desk, sites):
    for query in ("annee=deux", "annee=1850", "site=999999", "site=abc"):
        response = desk.get(reverse("report:annual") + "?" + query)
        assert response.status_code == 400, query
    assert "Sélectionnez un choix valide" in text_of(desk.get(reverse("report:annual") + "?site=999999"))
    assert desk.get(reverse("report:export") + "?annee=deux").status_code == 400
    assert desk.get(reverse("report:export-table", args=["nothing"]) + f"?annee={YEAR}").status_code == 404


def test_only_librarians_see_it(client, outsider, sites):
    assert client.get(reverse("report:annual")).status_code == 302
    client.force_login(outsider)
    for url in (
        reverse("report:annual"),
        reverse("report:export"),
        reverse("report:export-table", args=["ages"]),
    ):
        assert client.get(url).status_code == 403
    assert client.post(reverse("report:annual")).status_code in (403, 405)


def test_the_wrong_method_is_refused(desk):
    assert desk.post(reverse("report:annual")).status_code == 405


def test_the_page_runs_the_same_few_queries_however_long_the_history(desk, sites, staff_user):
    url = reverse("report:annual") + f"?annee={YEAR}&site={sites['main'].pk}"
    with CaptureQueriesContext(connection) as few:
        assert desk.get(url).status_code == 200
    # Ten more families, each borrowing three games, and a third site.
    Location.objects.create(name="Ludobus")
    for index in range(10):
        family = make_member(f"N{index}", f"Famille {index}")
        for number in range(3):
            copy = make_copy(make_game(f"Jeu {index}-{number}"), f"N{index}-{number}")
            Loan.objects.create(
                copy=copy,
                member=family,
                lent_at=at(number + 2, 10),
                lent_by=staff_user,
                due_on=datetime.date(YEAR, 12, 1),
            )
    with CaptureQueriesContext(connection) as more:
        assert desk.get(url).status_code == 200
    assert len(more) == len(few) <= 35
    with CaptureQueriesContext(connection) as export:
        assert b"".join(desk.get(reverse("report:export") + f"?annee={YEAR}").streaming_content)
    assert len(export) <= 35


def test_it_agrees_with_the_on_site_statistics_page(desk, sites):
    stats = desk.get(reverse("onsite:stats") + f"?annee={YEAR}").context
    figures = tables()
    for month, report_row in zip(stats["comparison"], figures["sur-place-jeux"].rows, strict=True):
        people = rows(figures["sur-place-frequentation"])[report_row[0]]
        assert [month["tables"], month["plays"], month["people"]] == [*report_row[1:], people[2] + people[3]]
    assert [month["loans"] for month in stats["comparison"]] == [row[1] for row in figures["prets-mois"].rows]
    by_site: dict[str, list[int]] = {}
    for row in stats["attendance"]:
        counts = by_site.setdefault(row["site"], [0, 0, 0, 0])
        for index, key in enumerate(("sessions", "families", "children", "adults")):
            counts[index] += row[key]
    assert by_site == {site: numbers[:4] for site, numbers in rows(figures["sur-place-sites"]).items()}
    totals = stats["totals"]
    assert figures["sur-place-frequentation"].total_row == [
        totals["sessions"],
        totals["families"],
        totals["children"],
        totals["adults"],
    ]


def test_it_agrees_with_the_loans_statistics_page_this_year(desk, staff_user):
    """The loans page counts the last twelve months: the months of this year are the report's."""
    today = timezone.localdate()
    family = make_member("M1")
    for index, month in enumerate(range(1, today.month + 1)):
        for copy_index in range(month % 3):
            copy = make_copy(make_game(f"Jeu {index}-{copy_index}"), f"B{index}-{copy_index}")
            lent_at = timezone.make_aware(datetime.datetime(today.year, month, 1, 9)) + datetime.timedelta(
                hours=copy_index
            )
            Loan.objects.create(copy=copy, member=family, lent_at=lent_at, lent_by=staff_user, due_on=today)
    stats = {
        row["month"].month: row["count"]
        for row in desk.get(reverse("loans:stats")).context["months"]
        if row["month"].year == today.year
    }
    report = desk.get(reverse("report:annual")).context["sections"]
    by_month = next(table for section in report for table in section.tables if table.slug == "prets-mois")
    assert [row[1] for row in by_month.rows[: today.month]] == [
        stats[month] for month in range(1, today.month + 1)
    ]
    assert sum(stats.values()) == by_month.total_row[0] > 0


@pytest.fixture
def demo(db):
    call_command("load_demo", "--force", stdout=io.StringIO())


def test_the_demo_year_counted_from_its_declarations(demo):
    """The demo's families (members/demo.py; their loans, loans/demo.py): who borrowed this year (by the days ago of each declared loan,
    and Charlie's return at the desk today) or came to play, and their households' ages."""
    today = timezone.localdate()
    borrowed = {
        card
        for card, lent in demo_loans.FAMILY_LOANS.items()
        if lent.get("incomplete_return")
        or any((today - datetime.timedelta(days=days)).year == today.year for _barcode, days in lent["loans"])
    }
    # The kits demo's school (a group borrower, kits/demo.py) borrowed with its kit this year: it counts.
    school = demo_kits.SCHOOL["card_barcode"]
    if Loan.objects.filter(member__card_barcode=school, lent_at__year=today.year).exists():
        borrowed.add(school)
    came = set(
        Visit.objects.filter(session__opened_at__year=today.year, member__isnull=False).values_list(
            "member__card_barcode", flat=True
        )
    )
    # Families served by another app (an event…) count too, each once.
    others = {
        card
        for label, ids in registry.served_member_ids(today.year, None)
        if label not in ("Ont emprunté un jeu", "Sont venues jouer sur place")
        for card in Member.objects.filter(pk__in=ids).values_list("card_barcode", flat=True)
    }
    groups = [{"card_barcode": school, "household": []}] if school in borrowed else []
    served = [
        family
        for family in demo_families.FAMILIES + groups
        if family["card_barcode"] in borrowed | came | others
    ]
    ages = [today.year - year for family in served for _name, year in family["household"]]
    figures = tables(today.year)
    families = rows(figures["familles"])
    assert families["Ont emprunté un jeu"] == [len(borrowed)]
    assert families["Sont venues jouer sur place"] == [len(came)]
    assert families["Familles servies (chacune une fois)"] == [len(served)]
    assert [row[1] for row in figures["ages"].rows] == [
        sum(low <= age <= (high if high is not None else 200) for age in ages)
        for low, high, _label in AGE_GROUPS
    ]
    # All registered by load_demo today: the families and the school.
    assert figures["adherents"].rows[0][1] == len(demo_families.FAMILIES) + 1


def test_the_demo_anonymised_loan_counts_in_its_year_and_nothing_else_is_that_old(demo):
    year = months_before(timezone.localdate(), 30).year
    figures = tables(year)
    assert figures["prets-mois"].total_row == [1]
    assert rows(figures["familles"])["Familles servies (chacune une fois)"] == [0]
    served = next(section for section in registry.sections(year, None) if section.slug == "familles")
    assert served.notes[0].startswith("1 prêt de l'année est anonymisé")


def test_the_demo_agrees_with_the_statistics_pages(desk, demo):
    year = timezone.localdate().year
    onsite = desk.get(reverse("onsite:stats") + f"?annee={year}").context
    figures = tables(year)
    assert [[month["tables"], month["plays"]] for month in onsite["comparison"]] == [
        row[1:] for row in figures["sur-place-jeux"].rows
    ]
    assert [month["loans"] for month in onsite["comparison"]] == [
        row[1] for row in figures["prets-mois"].rows
    ]
    loans = desk.get(reverse("loans:stats")).context["months"]
    this_year = {row["month"].month: row["count"] for row in loans if row["month"].year == year}
    assert [this_year[month] for month in sorted(this_year)] == [
        row[1] for row in figures["prets-mois"].rows[: len(this_year)]
    ]
    assert figures["sur-place-frequentation"].total_row[0] == onsite["totals"]["sessions"] > 0


def test_a_copy_withdrawn_in_the_admin_without_a_date_left_the_collection_today(sites):
    fields = ["game", "cote", "barcode", "location", "status", "withdrawn_on"]
    form_class = modelform_factory(Copy, form=CopyForm, fields=fields)
    copy = Copy.objects.get(barcode="C1")
    data = {
        "game": copy.game_id,
        "cote": "X",
        "barcode": "C1",
        "location": copy.location_id,
        "status": "withdrawn",
    }
    form = form_class(data, instance=copy)
    assert form.is_valid(), form.errors
    this_year = timezone.localdate().year
    before = tables(this_year)["collection"].total_row[3]
    assert form.save().withdrawn_on == timezone.localdate()
    assert tables(this_year)["collection"].total_row[3] == before + 1
    # A date typed by the librarian is kept.
    copy = Copy.objects.get(barcode="C2")
    data |= {"barcode": "C2", "location": copy.location_id, "status": "lost", "withdrawn_on": "2025-10-01"}
    assert form_class(data, instance=copy).save().withdrawn_on == datetime.date(2025, 10, 1)
    assert tables()["collection"].total_row[3] == 2
