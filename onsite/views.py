"""The on-site desk (staff): open a session, count families, copies to a table and back, close; statistics."""

import datetime

from django.contrib import messages
from django.core.exceptions import ValidationError
from django.http import HttpRequest, HttpResponse, HttpResponseBadRequest, StreamingHttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils import timezone
from django.utils.http import url_has_allowed_host_and_scheme
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from catalogue.models import Location
from ludotheque.access import staff_required
from ludotheque.answers import add_refusal
from ludotheque.spreadsheets import csv_lines
from once.forms import submit_once
from opening.schedule import site_calendars

from . import services, stats
from .forms import PlayForm, SessionOpenForm, StatsForm, TableForm, TableReturnForm, VisitForm
from .models import Session, TableUse


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_list(request: HttpRequest) -> HttpResponse:
    """Open sessions, today's hours of each site from the opening calendar, and the form to open one."""
    form = SessionOpenForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            session = services.session_open(location=form.cleaned_data["location"], staff=request.user)
        except ValidationError as error:
            add_refusal(form, error, {"location": "location"})
        else:
            messages.success(request, _("Séance ouverte à %(site)s.") % {"site": session.location.name})
            return redirect(session)
    today = timezone.localdate()
    locations = list(Location.objects.order_by("name"))
    calendars = site_calendars(locations, from_day=today)
    open_sessions = {
        session.location_id: session for session in Session.objects.open().select_related("location")
    }
    sites = []
    for location in locations:
        calendar = calendars[location.pk]
        hours = (
            calendar.hours.get(today.weekday(), []) if calendar.has_hours and calendar.is_open(today) else []
        )
        sites.append({"location": location, "hours": hours, "session": open_sessions.get(location.pk)})
    recent = Session.objects.closed().select_related("location")[:20]
    return render(
        request,
        "onsite/session_list.html",
        {"form": form, "sites": sites, "recent": recent, "today": today},
        status=400 if form.errors else 200,
    )


def _session_page(
    request: HttpRequest,
    session: Session,
    *,
    visit_form: VisitForm | None = None,
    table_form: TableForm | None = None,
    status: int = 200,
) -> HttpResponse:
    context = {
        "session": session,
        "attendance": session.attendance(),
        "visits": session.visits.select_related("member"),
        "at_table": session.table_uses.at_table().select_related("copy__game").order_by("taken_at"),
        "back": session.table_uses.filter(returned_at__isnull=False)
        .select_related("copy__game")
        .order_by("-returned_at"),
        "plays": session.plays.select_related("game").order_by("-recorded_at"),
        "visit_form": visit_form or VisitForm(),
        "table_form": table_form or TableForm(),
    }
    # A scanner types into the focused box: the box used last keeps the focus.
    if table_form is not None or request.GET.get("suite") == "table":
        context["table_form"].fields["barcode"].widget.attrs["autofocus"] = True
    elif not hasattr(context["visit_form"], "member"):
        context["visit_form"].fields["card"].widget.attrs["autofocus"] = True
    return render(request, "onsite/session_detail.html", context, status=status)


@staff_required
@require_GET
def session_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _session_page(request, get_object_or_404(Session.objects.select_related("location"), pk=pk))


@staff_required
@require_POST
def visit_create(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(Session.objects.select_related("location"), pk=pk)
    form = VisitForm(request.POST)
    if form.is_valid() and form.counts_to_check():
        return _session_page(request, session, visit_form=form.prefilled())

    def act() -> HttpResponse | None:
        try:
            visit = services.visit_record(
                session=session,
                staff=request.user,
                member=form.cleaned_data["member"],
                children=form.cleaned_data["children"],
                adults=form.cleaned_data["adults"],
            )
        except ValidationError as error:
            add_refusal(form, error, {"member": "card", "session": None})
            return None
        who = visit.member.name if visit.member else _("Famille non adhérente")
        messages.success(
            request,
            _("%(who)s — enfants : %(children)s, adultes : %(adults)s.")
            % {"who": who, "children": visit.children, "adults": visit.adults},
        )
        return redirect(session)

    if form.is_valid() and (answer := submit_once(request, form, act)):
        return answer
    return _session_page(request, session, visit_form=form, status=400)


@staff_required
@require_POST
def table_create(request: HttpRequest, pk: int) -> HttpResponse:
    session = get_object_or_404(Session.objects.select_related("location"), pk=pk)
    form = TableForm(request.POST)
    if form.is_valid():
        # The same box takes a game back: a copy already at one of this session's tables comes back.
        back = session.table_uses.at_table().filter(copy=form.cleaned_data["barcode"]).first()
        if back is not None:
            return redirect("onsite:table-return", pk=back.pk)
        try:
            use = services.table_take(session=session, copy=form.cleaned_data["barcode"], staff=request.user)
        except ValidationError as error:
            add_refusal(form, error, {"copy": "barcode", "session": None})
        else:
            messages.success(
                request,
                _("« %(game)s » (%(barcode)s) sur table.")
                % {"game": use.copy.game.title, "barcode": use.copy.barcode},
            )
            return redirect(session.get_absolute_url() + "?suite=table")
    return _session_page(request, session, table_form=form, status=400)


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def table_return(request: HttpRequest, pk: int) -> HttpResponse:
    """A copy back from its table: its pieces checked as at a loan's return."""
    use = get_object_or_404(TableUse.objects.select_related("copy__game", "session__location"), pk=pk)
    if not use.is_out:
        messages.info(request, _("Ce jeu est déjà rentré de sa table."))
        return redirect(use.session)
    form = TableReturnForm(request.POST or None, table_use=use)
    if request.method == "POST" and form.is_valid():
        try:
            result = services.table_return(
                table_use=use,
                staff=request.user,
                missing=form.missing(),
                recovered=form.recovered(),
                playable_anyway=form.cleaned_data["playable_anyway"],
            )
        except ValidationError as error:
            add_refusal(form, error, {"missing": None, "recovered": None})
        else:
            copy = use.copy
            messages.success(
                request,
                _("« %(game)s » (%(barcode)s) rentré.") % {"game": copy.game.title, "barcode": copy.barcode},
            )
            for piece in result.missing:
                messages.warning(
                    request,
                    _("Il manque %(count)s × %(piece)s.")
                    % {"count": piece.quantity, "piece": piece.component.label},
                )
            if result.hold is not None:
                messages.warning(
                    request,
                    _("Mettez ce jeu de côté pour %(family)s, qui l'a réservé.")
                    % {"family": result.hold.member.name},
                )
            following = request.POST.get("next", "")
            if following == "close":
                return redirect("onsite:session-close", pk=use.session_id)
            return redirect(use.session.get_absolute_url() + "?suite=table")
    return render(
        request,
        "onsite/table_return.html",
        {"use": use, "form": form, "next": request.GET.get("next", request.POST.get("next", ""))},
        status=400 if form.errors else 200,
    )


@staff_required
@require_http_methods(["GET", "HEAD", "POST"])
def session_close(request: HttpRequest, pk: int) -> HttpResponse:
    """The close screen: the copies still at a table first (each to bring back), then closing."""
    session = get_object_or_404(Session.objects.select_related("location"), pk=pk)
    status = 200
    if request.method == "POST":
        try:
            services.session_close(session=session, staff=request.user)
        except ValidationError as error:
            messages.error(request, " ".join(error.messages))
            status = 400
        else:
            attendance = session.attendance()
            messages.success(
                request,
                _("Séance fermée — familles : %(families)s, enfants : %(children)s, adultes : %(adults)s.")
                % attendance,
            )
            return redirect("onsite:session-list")
    at_table = session.table_uses.at_table().select_related("copy__game").order_by("taken_at")
    return render(
        request,
        "onsite/session_close.html",
        {"session": session, "at_table": at_table, "attendance": session.attendance()},
        status=status,
    )


@staff_required
@require_POST
def play_create(request: HttpRequest) -> HttpResponse:
    """« Compter cette partie »: a play of the game in the open session, from its score sheet or pad."""
    form = PlayForm(request.POST)
    if not form.is_valid():
        return HttpResponseBadRequest(
            "\n".join(f"{name}: {' '.join(errors)}" for name, errors in form.errors.items()),
            content_type="text/plain; charset=utf-8",
        )
    data = form.cleaned_data
    refusal = []

    def act() -> HttpResponse | None:
        try:
            services.play_record(
                session=data["session"],
                game=data["game"],
                staff=request.user,
                players=data["players"],
                source=data["source"],
            )
        except ValidationError as error:
            refusal.extend(error.messages)
            return None
        messages.success(
            request,
            _("Partie de « %(game)s » comptée dans la séance de %(site)s.")
            % {"game": data["game"].title, "site": data["session"].location.name},
        )
        following = data["next"]
        if following and url_has_allowed_host_and_scheme(
            following, {request.get_host()}, request.is_secure()
        ):
            return redirect(following)
        return redirect(data["session"])

    return submit_once(request, form, act) or HttpResponseBadRequest(
        " ".join(refusal), content_type="text/plain; charset=utf-8"
    )


def _year(request: HttpRequest) -> int | None:
    form = StatsForm(request.GET)
    if not form.is_valid():
        return None
    return form.cleaned_data["annee"] or timezone.localdate().year


@staff_required
@require_GET
def stats_page(request: HttpRequest) -> HttpResponse:
    year = _year(request)
    if year is None:
        return HttpResponseBadRequest(_("Année invalide (par exemple ?annee=2026)."))
    rows = stats.attendance(year)
    comparison = stats.onsite_vs_loans(year)
    context = {
        "year": year,
        "attendance": [row | {"date": datetime.date(year, row["month"], 1)} for row in rows],
        "totals": stats.attendance_totals(rows),
        "games": stats.plays_per_game(year),
        "comparison": [row | {"date": datetime.date(year, row["month"], 1)} for row in comparison],
        "comparison_totals": {
            key: sum(row[key] for row in comparison) for key in ("loans", "tables", "plays", "people")
        },
        "years": [year - 1, year + 1],
        "events": [
            row | {"date": datetime.date(year, row["month"], 1)} for row in stats.event_attendance(year)
        ],
    }
    return render(request, "onsite/stats.html", context)


EXPORTS = {
    "frequentation": (
        lambda year: (
            [f"{year}-{row['month']:02d}", row["site"], row["sessions"], row["families"], row["members"],
             row["non_members"], row["children"], row["adults"], row["children"] + row["adults"]]
            for row in stats.attendance(year)
        ),
        lambda: [_("mois"), _("site"), _("séances"), _("familles"), _("familles adhérentes"),
                 _("familles non adhérentes"), _("enfants"), _("adultes"), _("personnes")],
    ),
    "parties": (
        lambda year: ([row["game"], row["plays"], row["tables"]] for row in stats.plays_per_game(year)),
        lambda: [_("jeu"), _("parties comptées"), _("sorties sur table")],
    ),
    "comparaison": (
        lambda year: (
            [f"{year}-{row['month']:02d}", row["loans"], row["tables"], row["plays"], row["people"]]
            for row in stats.onsite_vs_loans(year)
        ),
        lambda: [_("mois"), _("prêts à domicile"), _("sorties sur table"), _("parties comptées"),
                 _("personnes venues jouer")],
    ),
    "animations": (
        lambda year: (
            [f"{year}-{row['month']:02d}", row["site"], row["events"], row["families"], row["members"],
             row["walk_ins"], row["children"], row["adults"], row["children"] + row["adults"], row["absent"]]
            for row in stats.event_attendance(year)
        ),
        lambda: [_("mois"), _("site"), _("animations"), _("familles présentes"), _("familles adhérentes"),
                 _("venues sans réservation"), _("enfants"), _("adultes"), _("personnes"),
                 _("réservations absentes")],
    ),
}  # fmt: skip


@staff_required
@require_GET
def stats_export(request: HttpRequest, table: str) -> HttpResponse:
    """One table of the year as CSV, as a French spreadsheet opens it (UTF-8 with a BOM, « ; »)."""
    year = _year(request)
    if year is None or table not in EXPORTS:
        return HttpResponseBadRequest(_("Année invalide (par exemple ?annee=2026)."))
    rows, header = EXPORTS[table]
    response = StreamingHttpResponse(csv_lines(header(), rows(year)), content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="sur-place-{table}-{year}.csv"'
    return response
