"""Importing and exporting the catalogue as a spreadsheet (staff): upload, preview, confirm; download."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from .access import staff_required
from .forms import SpreadsheetForm
from .importing import catalogue_import_confirm, games_import, summary
from .models import CatalogueImport
from .spreadsheet import (
    HEADER,
    catalogue_json,
    catalogue_rows,
    csv_lines,
    exported_games,
    json_lines,
    read_sheet,
)

# How many games the preview lists one by one (all of them are counted).
PREVIEW_GAMES = 200
RECENT_IMPORTS = 10


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_upload(request: HttpRequest) -> HttpResponse:
    """Send a CSV file: it is read and kept, nothing is imported until the preview is confirmed."""
    form = SpreadsheetForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = CatalogueImport.objects.create(
            file_name=form.cleaned_data["fichier"].name[:255],
            content=form.cleaned_data["text"],
            uploaded_by=request.user,
        )
        return redirect(upload)
    context = {
        "form": form,
        "imports": CatalogueImport.objects.select_related("uploaded_by")[:RECENT_IMPORTS],
        "columns": HEADER,
    }
    return render(request, "catalogue/import_upload.html", context, status=400 if form.errors else 200)


def _render_import(request, catalogue_import, sheet, report, *, status: int = 200) -> HttpResponse:
    context = {
        "import": catalogue_import,
        "sheet": sheet,
        "report": report,
        "summary": summary(report, sheet),
        "games": report.results[:PREVIEW_GAMES],
        "more_games": max(0, len(report.results) - PREVIEW_GAMES),
    }
    return render(request, "catalogue/import_detail.html", context, status=status)


@staff_required
@require_safe
def import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The preview: what importing the file would create or update, and each row's errors."""
    catalogue_import = get_object_or_404(CatalogueImport, pk=pk)
    sheet = read_sheet(catalogue_import.content, source=catalogue_import.file_name)
    report = games_import(notices=sheet.notices, dry_run=True)
    return _render_import(request, catalogue_import, sheet, report)


@staff_required
@require_POST
def import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    catalogue_import = get_object_or_404(CatalogueImport, pk=pk)
    try:
        sheet, report = catalogue_import_confirm(catalogue_import=catalogue_import, staff=request.user)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect(catalogue_import)
    catalogue_import.refresh_from_db()
    messages.success(request, _("Import terminé. %(summary)s") % {"summary": catalogue_import.summary})
    return _render_import(request, catalogue_import, sheet, report)


@staff_required
@require_safe
def export(request: HttpRequest, format: str) -> StreamingHttpResponse:
    """Every game with its copies, as CSV (one row per copy: the import's columns) or JSON."""
    stamp = timezone.localdate().isoformat()
    if format == "json":
        response = StreamingHttpResponse(
            json_lines(catalogue_json(exported_games()), "jeux"),
            content_type="application/json; charset=utf-8",
        )
    else:
        response = StreamingHttpResponse(
            csv_lines(catalogue_rows(exported_games()), HEADER), content_type="text/csv; charset=utf-8"
        )
    response["Content-Disposition"] = f'attachment; filename="catalogue-{stamp}.{format}"'
    return response
