"""The annual report for funders: a year's figures for one site or all, as charts and tables, printed and exported."""

from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils.text import slugify
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ludotheque.access import staff_required
from ludotheque.spreadsheets import csv_lines

from . import registry
from .charts import bar_chart
from .forms import ReportForm


def _figures(request: HttpRequest):
    """The form, and the sections of the year and site it asks for (None when it is invalid)."""
    form = ReportForm(request.GET)
    if not form.is_valid():
        return form, None
    site = form.cleaned_data["site"]
    return form, registry.sections(form.cleaned_data["annee"], site.pk if site else None)


def _invalid(request: HttpRequest, form: ReportForm) -> HttpResponse:
    return render(request, "report/annual.html", {"form": form}, status=400)


@staff_required
@require_GET
def annual(request: HttpRequest) -> HttpResponse:
    form, sections = _figures(request)
    if sections is None:
        return _invalid(request, form)
    for section in sections:
        section.figures = [
            {"table": table, "chart": bar_chart(table), "id": f"chart-{table.slug}"}
            for table in section.tables
        ]
    context = {
        "form": form,
        "year": form.cleaned_data["annee"],
        "site": form.cleaned_data["site"],
        "sections": sections,
        "query": request.GET.urlencode(),
    }
    return render(request, "report/annual.html", context)


def _csv(request: HttpRequest, form: ReportForm, name: str, header: list[str], rows) -> StreamingHttpResponse:
    site = form.cleaned_data["site"]
    filename = "-".join(
        filter(None, ["rapport", str(form.cleaned_data["annee"]), slugify(site.name) if site else "", name])
    )
    response = StreamingHttpResponse(csv_lines(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}.csv"'
    return response


@staff_required
@require_GET
def export_table(request: HttpRequest, slug: str) -> HttpResponse:
    """One table as CSV: its rows as shown, then its total."""
    form, sections = _figures(request)
    if sections is None:
        return _invalid(request, form)
    for table in (table for section in sections for table in section.tables):
        if table.slug == slug:
            rows = [*table.rows, [_("Total"), *table.total_row]] if table.total else table.rows
            return _csv(request, form, slug, table.columns, rows)
    raise Http404(_("Ce tableau n'existe pas."))


@staff_required
@require_GET
def export_all(request: HttpRequest) -> HttpResponse:
    """Every figure of the report as CSV, one per line (section, table, row, column, value): a pivot table's source."""
    form, sections = _figures(request)
    if sections is None:
        return _invalid(request, form)
    rows = (
        [section.title, table.title, row[0], column, value]
        for section in sections
        for table in section.tables
        for row in table.rows
        for column, value in zip(table.numbers, row[1:], strict=True)
    )
    return _csv(request, form, "", [_("Section"), _("Tableau"), _("Ligne"), _("Colonne"), _("Valeur")], rows)
