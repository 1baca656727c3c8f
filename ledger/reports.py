"""The treasurer's reports (staff only): revenue by kind and month, takings by method, memberships by
type, deposits held, families owing money; each table and the year's journal as a CSV file."""

import datetime

from django.db.models import Count
from django.db.models.functions import ExtractMonth
from django.http import Http404, HttpRequest, HttpResponse, StreamingHttpResponse
from django.shortcuts import render
from django.utils import formats, timezone
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from ludotheque.access import staff_required
from ludotheque.spreadsheets import csv_lines
from members.models import Member, MembershipType

from .models import ZERO, Entry, Kind, Membership, Method, money_sum, owed_effect, owing, till_effect

MONTHS = range(1, 13)


def _year(request: HttpRequest) -> int:
    raw = request.GET.get("annee", "")
    return (
        int(raw)
        if raw.isascii() and raw.isdigit() and 2000 <= int(raw) <= 2100
        else timezone.localdate().year
    )


def revenue_by_month(year: int) -> list[dict]:
    """Charges of `year` by kind and month, reversals netted and waived charges left out."""
    rows = (
        Entry.objects.charges()
        .filter(recorded_at__year=year)
        .annotate(month=ExtractMonth("recorded_at"))
        .order_by()
        .values("kind", "month")
        .annotate(total=money_sum(owed_effect()))
    )
    return _by_month(rows, "kind", [(kind.value, kind.label) for kind in Kind if kind in Kind.charges()])


def takings_by_month(year: int) -> list[dict]:
    """Payments less refunds of `year` by method and month (deposits apart: they are not takings)."""
    rows = (
        Entry.objects.filter(kind__in=[Kind.PAYMENT, Kind.REFUND], recorded_at__year=year)
        .annotate(month=ExtractMonth("recorded_at"))
        .order_by()
        .values("method", "month")
        .annotate(total=money_sum(till_effect()))
    )
    return _by_month(rows, "method", Method.choices)


def _by_month(rows, key: str, labels: list[tuple[str, str]]) -> list[dict]:
    cells = {(row[key], row["month"]): row["total"] for row in rows}
    table = []
    for value, label in labels:
        months = [cells.get((value, month), ZERO) for month in MONTHS]
        table.append({"value": value, "label": label, "months": months, "total": sum(months, ZERO)})
    months = [sum((row["months"][index] for row in table), ZERO) for index in range(12)]
    table.append({"value": "", "label": _("Total"), "months": months, "total": sum(months, ZERO)})
    return table


def memberships_by_type(year: int) -> list[dict]:
    """Per membership type: the memberships renewed in `year`, their amount, and the families valid today."""
    today = timezone.localdate()
    renewed = {
        row["membership_type"]: row
        for row in Membership.objects.filter(start__year=year)
        .order_by()
        .values("membership_type")
        .annotate(count=Count("pk"), amount=money_sum("price"))
    }
    valid_today = dict(
        Member.objects.filter(membership_start__lte=today, membership_expiry__gte=today)
        .order_by()
        .values("membership_type")
        .annotate(count=Count("pk"))
        .values_list("membership_type", "count")
    )
    return [
        {
            "name": membership_type.name,
            "renewed": renewed.get(membership_type.pk, {}).get("count", 0),
            "amount": renewed.get(membership_type.pk, {}).get("amount", ZERO),
            "valid_today": valid_today.get(membership_type.pk, 0),
        }
        for membership_type in MembershipType.objects.order_by("name")
    ]


@staff_required
@require_GET
def reports(request: HttpRequest) -> HttpResponse:
    year = _year(request)
    export = request.GET.get("export", "")
    if export in EXPORTS:
        return EXPORTS[export](year)
    if export:
        raise Http404(_("Export inconnu."))
    deposits = Entry.objects.deposits_held().select_related("member").order_by("recorded_at", "pk")
    context = {
        "year": year,
        "years": range(timezone.localdate().year, 1999, -1)[:10],
        "months": [formats.date_format(datetime.date(year, month, 1), "M") for month in MONTHS],
        "revenue": revenue_by_month(year),
        "takings": takings_by_month(year),
        "memberships": memberships_by_type(year),
        "deposits": deposits,
        "deposit_total": deposits.aggregate(total=money_sum("amount"))["total"] or ZERO,
        "owing": owing(Member.objects.all()).order_by("-balance", "name")[:100],
    }
    return render(request, "ledger/reports.html", context)


def _csv(filename: str, header: list[str], rows) -> StreamingHttpResponse:
    """Stream a CSV as every export writes it (ludotheque/spreadsheets.py)."""
    response = StreamingHttpResponse(csv_lines(header, rows), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _export_revenue(year: int) -> StreamingHttpResponse:
    return _by_month_csv(f"recettes-{year}.csv", _("nature"), revenue_by_month(year), year)


def _export_takings(year: int) -> StreamingHttpResponse:
    return _by_month_csv(f"encaissements-{year}.csv", _("mode de paiement"), takings_by_month(year), year)


def _by_month_csv(filename: str, what: str, table: list[dict], year: int) -> StreamingHttpResponse:
    rows = (
        [f"{year}-{month:02d}", row["label"], row["months"][month - 1]]
        for row in table
        if row["value"]
        for month in MONTHS
        if row["months"][month - 1]
    )
    return _csv(filename, [_("mois"), what, _("montant")], rows)


def _export_memberships(year: int) -> StreamingHttpResponse:
    rows = (
        [row["name"], row["renewed"], row["amount"], row["valid_today"]] for row in memberships_by_type(year)
    )
    header = [_("type d'adhésion"), _("adhésions de l'année"), _("montant"), _("familles à jour aujourd'hui")]
    return _csv(f"adhesions-{year}.csv", header, rows)


def _export_deposits(year: int) -> StreamingHttpResponse:
    deposits = Entry.objects.deposits_held().select_related("member").order_by("recorded_at", "pk")
    rows = (
        [
            timezone.localdate(entry.recorded_at).isoformat(),
            entry.member.name,
            entry.member.card_barcode,
            entry.amount,
            entry.get_method_display(),
            entry.cheque_number,
            entry.receipt,
        ]
        for entry in deposits.iterator(chunk_size=1000)
    )
    header = [_("reçue le"), _("famille"), _("carte"), _("montant"), _("mode"), _("chèque"), _("reçu")]
    return _csv("cautions-detenues.csv", header, rows)


def _export_journal(year: int) -> StreamingHttpResponse:
    """Every entry of the year, in order: the association's cash book."""
    entries = (
        Entry.objects.filter(recorded_at__year=year)
        .select_related("member", "site", "clerk")
        .order_by("recorded_at", "pk")
    )
    rows = (
        [
            timezone.localtime(entry.recorded_at).strftime("%Y-%m-%d %H:%M"),
            entry.pk,
            entry.receipt,
            entry.member.name if entry.member_id else _("la ludothèque"),
            entry.member.card_barcode if entry.member_id else "",
            entry.get_kind_display(),
            entry.amount,
            entry.owed_change,
            entry.get_method_display(),
            entry.cheque_number,
            entry.site.name,
            entry.clerk.get_username(),
            _("oui") if entry.waived else "",
            entry.reverses_id or "",
            entry.note,
        ]
        for entry in entries.iterator(chunk_size=1000)
    )
    header = [
        _("date"),
        _("écriture"),
        _("reçu"),
        _("famille"),
        _("carte"),
        _("nature"),
        _("montant"),
        _("effet sur le solde"),
        _("mode"),
        _("chèque"),
        _("site"),
        _("saisie par"),
        _("remis"),
        _("annule l'écriture"),
        _("note"),
    ]
    return _csv(f"journal-{year}.csv", header, rows)


EXPORTS = {
    "recettes": _export_revenue,
    "encaissements": _export_takings,
    "adhesions": _export_memberships,
    "cautions": _export_deposits,
    "journal": _export_journal,
}
