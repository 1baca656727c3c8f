"""The families as a spreadsheet (staff): export as CSV or JSON; import with a preview and a confirmation."""

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST, require_safe

from catalogue.exchange_views import recent_uploads, save_upload
from catalogue.forms import SpreadsheetForm
from catalogue.importing import spreadsheet_import_confirm
from catalogue.models import SpreadsheetImport
from catalogue.spreadsheet_export import csv_lines, json_lines
from ludotheque.access import staff_required

from .exchange import (
    FAMILY_COLUMNS,
    exported_families,
    families_import_text,
    family_json,
    family_values,
    read_families,
)


@staff_required
@require_GET
def families_export(request: HttpRequest, format: str) -> StreamingHttpResponse:
    """Every family with its contact, membership and household, as CSV or JSON: personal data, staff only."""
    if format == "json":
        lines = json_lines(map(family_json, exported_families()), "familles")
        response = StreamingHttpResponse(lines, content_type="application/json; charset=utf-8")
    else:
        lines = csv_lines(map(family_values, exported_families()), FAMILY_COLUMNS)
        response = StreamingHttpResponse(lines, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = (
        f'attachment; filename="familles-{timezone.localdate().isoformat()}.{format}"'
    )
    response["Cache-Control"] = "private, no-store"
    return response


FAMILIES = SpreadsheetImport.Kind.FAMILIES


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def families_import_upload(request: HttpRequest) -> HttpResponse:
    """Send a CSV of families: it is read and kept, nothing is imported until the preview is confirmed."""
    form = SpreadsheetForm(request.POST or None, request.FILES or None, reader=read_families)
    if request.method == "POST" and form.is_valid():
        upload = save_upload(form, kind=FAMILIES, staff=request.user)
        return redirect("loans:families-import-detail", pk=upload.pk)
    context = {"form": form, "imports": recent_uploads(FAMILIES), "columns": FAMILY_COLUMNS}
    return render(request, "loans/families_import.html", context, status=400 if form.errors else 200)


def _render_families_import(request, upload, result, summary) -> HttpResponse:
    sheet, results, errors = result
    context = {"import": upload, "results": results, "errors": errors, "summary": summary}
    return render(request, "loans/families_import_detail.html", context)


@staff_required
@require_safe
def families_import_detail(request: HttpRequest, pk: int) -> HttpResponse:
    upload = get_object_or_404(SpreadsheetImport, pk=pk, kind=FAMILIES)
    result, summary = families_import_text(upload.content, dry_run=True)
    return _render_families_import(request, upload, result, summary)


@staff_required
@require_POST
def families_import_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    upload = get_object_or_404(SpreadsheetImport, pk=pk, kind=FAMILIES)
    try:
        result = spreadsheet_import_confirm(upload=upload, staff=request.user, run=families_import_text)
    except ValidationError as error:
        messages.error(request, " ".join(error.messages))
        return redirect("loans:families-import-detail", pk=upload.pk)
    upload.refresh_from_db()
    messages.success(request, _("Import terminé. %(summary)s") % {"summary": upload.summary})
    return _render_families_import(request, upload, result, upload.summary)
