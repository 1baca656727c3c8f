"""Importing and exporting the catalogue as a spreadsheet (staff): upload, preview, confirm; download."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods, require_POST, require_safe

from ludotheque.access import staff_required

from .forms import SpreadsheetForm
from .importing import games_import_text, spreadsheet_import_confirm
from .labels import MAX_LABELS
from .models import Copy, SpreadsheetImport
from .spreadsheet import HEADER, SheetError
from .spreadsheet_export import catalogue_json, catalogue_rows, csv_lines, exported_games, json_lines


def save_upload(form, *, kind: str, staff) -> SpreadsheetImport:
    """Keep a file the form has read, for its preview and its confirmation."""
    upload = form.cleaned_data["fichier"]
    return SpreadsheetImport.objects.create(
        kind=kind, file_name=upload.name[:255], content=form.cleaned_data["text"], uploaded_by=staff
    )


def recent_uploads(kind: str):
    return SpreadsheetImport.objects.filter(kind=kind).select_related("uploaded_by")[:RECENT_IMPORTS]


# How many games the preview lists one by one (all of them are counted).
PREVIEW_GAMES = 200
RECENT_IMPORTS = 10


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def import_upload(request: HttpRequest) -> HttpResponse:
    """Send a CSV file: it is read and kept, nothing is imported until the preview is confirmed."""
    form = SpreadsheetForm(request.POST or None, request.FILES or None)
    if request.method == "POST" and form.is_valid():
        upload = save_upload(form, kind=SpreadsheetImport.Kind.GAMES, staff=request.user)
        return redirect("catalogue:import-detail", pk=upload.pk)
    context = {
        "form": form,
        "imports": recent_uploads(SpreadsheetImport.Kind.GAMES),
        "columns": HEADER,
    }
    return render(request, "catalogue/import_upload.html", context, status=400 if form.errors else 200)


def _copies_created(upload: SpreadsheetImport, sheet) -> list[int]:
    """The ids of the copies this import created (its barcodes, added between upload and import): the
    boxes that need a label now."""
    barcodes = {copy.barcode for notice in sheet.notices for copy in notice.copies if copy.barcode}
    created = Copy.objects.filter(
        barcode__in=barcodes, created_at__gte=upload.uploaded_at, created_at__lte=upload.imported_at
    )
    return list(created.order_by("pk").values_list("pk", flat=True)[:MAX_LABELS])


def _render_import(request, upload, result, summary, *, status: int = 200) -> HttpResponse:
    sheet, report = result
    errors = sheet.errors + [SheetError(error.line, "", error.message) for error in report.errors]
    context = {
        "import": upload,
        "new_copies": _copies_created(upload, sheet) if upload.imported_at else [],
        "errors": errors,
        "report": report,
        "summary": summary,
        "games": report.results[:PREVIEW_GAMES],
        "more_games": max(0, len(report.results) - PREVIEW_GAMES),
    }
    return render(request, "catalogue/import_detail.html", context, status=status)


@staff_required
@require_safe
def import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    """The preview: what importing the file would create or update, and each row's errors."""
    upload = get_object_or_404(SpreadsheetImport, pk=pk, kind=SpreadsheetImport.Kind.GAMES)
    result, summary = games_import_text(upload.content, source=upload.file_name, dry_run=True)
    return _render_import(request, upload, result, summary)


@staff_required
@require_POST
def import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    upload = get_object_or_404(SpreadsheetImport, pk=pk, kind=SpreadsheetImport.Kind.GAMES)
    try:
        result = spreadsheet_import_confirm(
            upload=upload,
            staff=request.user,
            run=lambda text: games_import_text(text, source=upload.file_name),
        )
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("catalogue:import-detail", pk=upload.pk)
    upload.refresh_from_db()
    messages.success(request, _("Import terminé. %(summary)s") % {"summary": upload.summary})
    return _render_import(request, upload, result, upload.summary)


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
