"""The annual report in Chromium: charts beside their tables, accessible, and printed on A4 in black and white."""

import unicodedata
from io import BytesIO

import pytest

from tests.axe import PHONE, serious_violations, session_cookie
from tests.conftest import pdf_page_count
from tests.report_helpers import YEAR, a_year

DESKTOP = {"width": 1280, "height": 800}
A4_POINTS = (595, 842)


@pytest.fixture
def year(transactional_db, staff_user):
    return a_year(staff_user)


def pdf_pages(pdf: bytes):
    from pypdf import PdfReader

    return PdfReader(BytesIO(pdf)).pages


@pytest.mark.browser
def test_the_report_shows_charts_beside_tables_and_prints_on_a4(page, browser, live_server, staff_user, year):
    page.set_viewport_size(DESKTOP)
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    response = page.goto(f"{live_server.url}/comptoir/rapport-annuel/?annee={YEAR}")
    assert response.ok
    assert page.locator("h1").inner_text() == f"Rapport annuel {YEAR} — tous les sites"
    # Each chart is an image named by its title, drawn beside (not under) its table on a wide screen.
    charts = page.locator("svg.report-chart")
    assert charts.count() == page.locator("table.report-table").count() >= 8
    loans_chart = page.get_by_role("img", name="Prêts par site", exact=True)
    loans_table = page.get_by_role("table", name="Prêts par site", exact=True)
    assert loans_chart.is_visible() and loans_table.is_visible()
    chart_box, table_box = loans_chart.bounding_box(), loans_table.bounding_box()
    assert (
        chart_box["x"] >= table_box["x"] + table_box["width"]
        and chart_box["y"] < table_box["y"] + table_box["height"]
    )
    assert "Maison des Enfants" in loans_chart.inner_html() and ">2<" in loans_chart.inner_html()
    url = f"/comptoir/rapport-annuel/?annee={YEAR}"
    assert (
        serious_violations(browser, [url], base_url=live_server.url, user=staff_user, viewport=DESKTOP) == {}
    )

    # The site chosen in the form.
    page.locator("#id_site").select_option(label="Annexe du Parc")
    with page.expect_navigation():
        page.get_by_role("button", name="Afficher").click()
    assert page.locator("h1").inner_text() == f"Rapport annuel {YEAR} — Annexe du Parc"
    page.goto(f"{live_server.url}/comptoir/rapport-annuel/?annee={YEAR}")

    page.emulate_media(media="print")
    # Printed, nothing but the report: no navigation, no form, no link to export; no chart wider than the page.
    assert not page.locator("nav.desk-nav").is_visible() and not page.locator("form.report-form").is_visible()
    widths = page.evaluate(
        "[...document.querySelectorAll('svg.report-chart')].map(svg => svg.getBoundingClientRect().width)"
    )
    assert widths and max(widths) <= 182 * 96 / 25.4 + 1  # A4 less the margins, in CSS pixels
    pdf = page.pdf(format="A4", prefer_css_page_size=True)
    pages = pdf_pages(pdf)
    # Five sections (loans, on-site play, events, members, the collection) on a handful of pages, not a page a table.
    assert 2 <= pdf_page_count(pdf) <= 10
    assert all(
        tuple(round(float(side)) for side in sheet.mediabox.upper_right) == A4_POINTS for sheet in pages
    )
    text = " ".join(unicodedata.normalize("NFKC", sheet.extract_text() or "") for sheet in pages)
    for heading in ("Familles et personnes servies", "Prêts par groupe ESAR", "Jeu sur place", "Collection"):
        assert heading in text
    assert "Exporter" not in text and "Scanner une carte" not in text
    # Every figure's table and chart on the same sheet: none is cut by a page break.
    starts = page.evaluate(
        """() => [...document.querySelectorAll('.report-figure')].map(figure => {
            const style = getComputedStyle(figure); return style.breakInside || style.pageBreakInside; })"""
    )
    assert set(starts) == {"avoid"}


@pytest.mark.browser
def test_the_report_reads_on_a_phone(page, browser, live_server, staff_user, year):
    page.set_viewport_size(PHONE)
    page.context.add_cookies([session_cookie(staff_user, live_server.url)])
    url = f"/comptoir/rapport-annuel/?annee={YEAR}"
    assert page.goto(live_server.url + url).ok
    # Nothing makes the page itself scroll sideways: a wide table scrolls in its own box.
    assert page.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # Each chart comes under its table, as wide as the screen allows.
    loans_chart = page.get_by_role("img", name="Prêts par site", exact=True)
    loans_table = page.get_by_role("table", name="Prêts par site", exact=True)
    chart_box, table_box = loans_chart.bounding_box(), loans_table.bounding_box()
    assert chart_box["y"] >= table_box["y"] + table_box["height"] - 1
    assert chart_box["width"] <= PHONE["width"]
    assert serious_violations(browser, [url], base_url=live_server.url, user=staff_user, viewport=PHONE) == {}
