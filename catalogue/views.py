"""The family search page, the game page, and the read-only catalogue API."""

from collections.abc import Callable
from urllib.parse import urlencode

from django.db import OperationalError
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import render
from django.utils import formats
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy, ngettext
from django.views.decorators.http import require_safe
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import APIException
from rest_framework.request import Request
from rest_framework.response import Response

from ludotheque.access import staff_required
from ludotheque.prepared import PreparedRead
from ludotheque.timeouts import statement_timed_out

from . import esar, registry
from .filters import GameFilter
from .forms import BoxStickerForm, LabelSheetForm
from .labels import code128, label_sheets
from .models import Category, Copy, Game
from .registry import notice_links
from .search import ordering
from .search.notice import notice_of
from .search.pages import GAMES_PER_PAGE, GamePagination, LimitedCountPaginator, result_list
from .serializers import CopyWithGameSerializer, FacetsSerializer, GameDetailSerializer, GameSerializer


def _url_with(request: HttpRequest, name: str) -> Callable[[list[str]], str]:
    """A function giving the current search with parameter `name` set to its `values` (removed when
    empty), from page 1.

    The other parameters are encoded once: copying and encoding the whole query for each of the ~50
    facet links cost more than the page's SQL. Same order as QueryDict.setlist: `name` keeps its place, or comes last.
    """
    query = request.GET
    names = [key for key in query if key != "page"]
    at = names.index(name) if name in names else len(names)
    before = urlencode([(key, value) for key in names[:at] for value in query.getlist(key)])
    after = urlencode([(key, value) for key in names[at + 1 :] for value in query.getlist(key)])

    def url(values: list[str]) -> str:
        return "?" + "&".join(
            part for part in (before, urlencode([(name, value) for value in values]), after) if part
        )

    return url


def _facet_links(request: HttpRequest, filterset: GameFilter, facets: dict) -> dict:
    """Add to each category and tag count the link that narrows the search to it, or widens it back.

    The categories come grouped by ESAR kind (`esar_groups`), each group linking to all of its codes.
    """
    chosen = filterset.form.cleaned_data.get("categorie")
    chosen_code = chosen.code if chosen is not None else None
    category_url = _url_with(request, "categorie")
    for facet in facets["categories"]:
        facet["selected"] = facet["code"] == chosen_code
        facet["url"] = category_url([] if facet["selected"] else [facet["code"]])
    facets["esar_groups"] = esar.grouped_facets(facets["categories"])
    for group in facets["esar_groups"]:
        if group["code"] is not None:
            group["selected"] = group["code"] == chosen_code
            group["url"] = category_url([] if group["selected"] else [group["code"]])
    chosen_tags = [tag.slug for tag in filterset.form.cleaned_data.get("tag") or []]
    tag_url = _url_with(request, "tag")
    for facet in facets["tags"]:
        facet["selected"] = facet["slug"] in chosen_tags
        others = [slug for slug in chosen_tags if slug != facet["slug"]]
        facet["url"] = tag_url(others if facet["selected"] else [*chosen_tags, facet["slug"]])
    return facets


# The criteria a family sets (not the sort or the page): a search with any of them lands on its results.
CRITERIA = (
    "q",
    "ages",
    "joueurs",
    "age",
    "duree_max",
    "categorie",
    "tag",
    "auteur",
    "editeur",
    "localisation",
    "disponible",
)


def _criteria_summary(data: dict) -> list[str]:
    """The search in a few words, for the one-line summary above the results."""
    parts = []
    if data.get("q"):
        parts.append(_("« %(text)s »") % {"text": data["q"]})
    if ages := data.get("ages"):
        parts.append(
            ngettext("%(counter)s joueur (%(ages)s ans)", "%(counter)s joueurs (%(ages)s ans)", len(ages))
            % {"counter": len(ages), "ages": ", ".join(str(age) for age in ages)}
        )
    if data.get("joueurs"):
        n = data["joueurs"]
        parts.append(ngettext("%(counter)s joueur", "%(counter)s joueurs", n) % {"counter": n})
    if data.get("age") is not None:
        parts.append(_("le plus jeune a %(age)s ans") % {"age": data["age"]})
    if data.get("duree_max"):
        parts.append(_("%(minutes)s min au plus") % {"minutes": data["duree_max"]})
    if category := data.get("categorie"):
        # A category (« A 406 jeu de stratégie ») or a whole ESAR group (« A400 »).
        parts.append(str(category) if isinstance(category, Category) else category.code)
    for tag in data.get("tag") or []:
        parts.append(tag.name)
    if data.get("auteur"):
        parts.append(_("par %(name)s") % {"name": data["auteur"]})
    if data.get("editeur"):
        parts.append(_("chez %(name)s") % {"name": data["editeur"]})
    if data.get("localisation"):
        parts.append(_("à %(site)s") % {"site": data["localisation"]})
    if data.get("disponible"):
        parts.append(_("disponibles maintenant"))
    return parts


def _relaxed(request: HttpRequest, label: str, drop: tuple[str, ...], **extra: str) -> dict | None:
    """The search without the parameters `drop` (and with `extra`): its link and how many games it finds,
    counted up to EXACT_COUNT_LIMIT as every search is (`more_than`: the formatted limit, past it).
    Counted whole, « sans le texte recherché » would count the whole catalogue."""
    query = request.GET.copy()
    query.pop("page", None)
    for name in drop:
        query.pop(name, None)
    for name, value in extra.items():
        query[name] = value
    filterset = GameFilter(query, queryset=Game.objects.all())
    if not filterset.is_valid():
        return None
    count = filterset.qs.order_by().values("pk")[: ordering.EXACT_COUNT_LIMIT + 1].count()
    if not count:
        return None
    more_than = None
    if count > ordering.EXACT_COUNT_LIMIT:
        more_than = formats.number_format(ordering.EXACT_COUNT_LIMIT, force_grouping=True)
    return {"label": label, "count": count, "more_than": more_than, "url": f"?{query.urlencode()}"}


def _relax_suggestions(request: HttpRequest, data: dict) -> list[dict]:
    """What to give up when a search finds nothing: each criterion left out in turn, counted (at most ~8 counts)."""
    options = []
    if ages := data.get("ages"):
        players = len(ages)
        options.append(
            (
                ngettext("pour %(counter)s joueur", "pour %(counter)s joueurs", players)
                % {"counter": players},
                ("ages",),
                {"joueurs": str(players)},
            )
        )
        options.append((_("sans les âges"), ("ages",), {}))
    labels = {
        "duree_max": _("sans la durée"),
        "q": _("sans le texte recherché"),
        "disponible": _("même s'il n'est pas en rayon"),
        "categorie": _("toutes catégories"),
        "tag": _("sans les mots-clés"),
        "joueurs": _("quel que soit le nombre de joueurs"),
        "age": _("sans l'âge du plus jeune"),
        "auteur": _("tous auteurs"),
        "editeur": _("tous éditeurs"),
        "localisation": _("sur tous les sites"),
    }
    for name, label in labels.items():
        if data.get(name) not in (None, "", [], False):
            options.append((label, (name,), {}))
    suggestions = [_relaxed(request, label, drop, **extra) for label, drop, extra in options]
    return [suggestion for suggestion in suggestions if suggestion]


TOO_BROAD = gettext_lazy(
    "Cette recherche demande trop de travail : elle a été arrêtée. Précisez-la (un mot de plus, des "
    "âges, une durée) ou enlevez « Disponible maintenant », puis relancez-la."
)


class SearchTooBroad(APIException):
    """A search cut off by the web processes' statement timeout (ludotheque/wsgi.py)."""

    status_code = 503
    default_detail = TOO_BROAD
    default_code = "search_too_broad"


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    filterset = GameFilter(request.GET, queryset=result_list().all())
    searched = any(request.GET.get(name) for name in CRITERIA)
    context = {"form": filterset.form, "searched": searched}
    if not filterset.is_valid():
        return render(request, "catalogue/game_list.html", context, status=400)
    try:
        return _results(request, filterset, context)
    except OperationalError as error:
        if not statement_timed_out(error):
            raise
        # The form again, open, with what to change.
        context.update(searched=False, too_broad=TOO_BROAD)
        return render(request, "catalogue/game_list.html", context, status=503)


def _results(request: HttpRequest, filterset: GameFilter, context: dict) -> HttpResponse:
    games = filterset.qs
    facets = _facet_links(request, filterset, games.facets())
    paginator = LimitedCountPaginator(games, GAMES_PER_PAGE)
    # Counted with the facets, in the same scan: exactly, or up to more than EXACT_COUNT_LIMIT.
    if facets["count_exact"]:
        paginator.count = facets["count"]
    else:
        paginator.more_than = facets["count"]
    page = paginator.get_page(request.GET.get("page"))
    context.update(
        page=page,
        # « Plus de 1 000 jeux » (a non-breaking space in French), when the count stopped.
        more_than=formats.number_format(paginator.shown_count, force_grouping=True),
        category_groups=facets["esar_groups"],
        tag_facets=facets["tags"],
        facets_exact=facets["count_exact"],
        criteria=_criteria_summary(filterset.form.cleaned_data),
        suggestions=_relax_suggestions(request, filterset.form.cleaned_data) if not facets["count"] else [],
    )
    return render(request, "catalogue/game_list.html", context)


@require_safe
def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = notice_of(slug, page=True)
    # The rules pages and their tools, as the rules app registered them (catalogue/registry.py).
    # What an incomplete copy still allows (« jouable : … »), as the lending app registered it.
    copies = list(game.copies.all())
    playable = registry.playability(copies)
    for copy in copies:
        copy.playable = playable.get(copy.pk, "")
    context = {"game": game, "links": notice_links(game), "copies": copies}
    return render(request, "catalogue/game_detail.html", context)


# Labels and box stickers (staff): printed through the browser, see the print section of the stylesheet.


@staff_required
@require_safe
def label_sheet(request: HttpRequest) -> HttpResponse:
    """A4 sheets of labels (barcode, cote, title, site) for the copies chosen in the admin or added since a date."""
    form = LabelSheetForm(request.GET or None)
    if not form.is_valid():
        return render(
            request, "catalogue/label_sheet.html", {"form": form}, status=400 if form.is_bound else 200
        )
    layout = form.cleaned_data["layout"]
    copies = form.copies()
    context = {
        "form": form,
        "copies": copies,
        "layout": layout,
        "sheets": label_sheets(copies, layout, offset=form.cleaned_data["decalage"]),
    }
    return render(request, "catalogue/label_sheet.html", context)


@staff_required
@require_safe
def box_stickers(request: HttpRequest) -> HttpResponse:
    """Stickers for the inside of the box lid: title, barcode, and the pieces to check at return."""
    form = BoxStickerForm(request.GET or None)
    if not form.is_valid():
        return render(
            request, "catalogue/box_stickers.html", {"form": form}, status=400 if form.is_bound else 200
        )
    copies = form.copies()
    games = Game.objects.filter(pk__in={copy.game_id for copy in copies}).prefetch_related("components")
    components = {game.pk: list(game.components.all()) for game in games}
    stickers = [
        {"copy": copy, "barcode": code128(copy.barcode), "pieces": components[copy.game_id]}
        for copy in copies
    ]
    per_sheet = 4 if form.cleaned_data["format"] == "a6" else 2
    sheets = [stickers[start : start + per_sheet] for start in range(0, len(stickers), per_sheet)]
    context = {"form": form, "copies": copies, "sheets": sheets, "format": form.cleaned_data["format"]}
    return render(request, "catalogue/box_stickers.html", context)


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """The games of the catalogue, searched with the same filters as the page `/jeux/`."""

    lookup_field = "slug"
    filterset_class = GameFilter
    pagination_class = GamePagination

    def get_queryset(self):
        if self.action == "retrieve":
            return Game.objects.all()  # not read: get_object() finds the notice (notice_of)
        return result_list(api=True).all()

    def get_object(self):
        game = notice_of(self.kwargs["slug"])
        self.check_object_permissions(self.request, game)
        # The notice lists every copy with `is_available`: counted here, the two counts are two
        # correlated subqueries less for the game's query to compile and run.
        copies = game.copies.all()
        game.copies_count = len(copies)
        game.available_count = sum(copy.is_available for copy in copies)
        return game

    def get_serializer_class(self):
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer

    def filter_queryset(self, queryset):
        # A notice is found by its slug alone: the search's filters (and their form) are for lists.
        return queryset if self.action == "retrieve" else super().filter_queryset(queryset)

    def handle_exception(self, exc):
        if self.action != "retrieve" and statement_timed_out(exc):
            exc = SearchTooBroad()
        return super().handle_exception(exc)

    @extend_schema(responses=FacetsSerializer, filters=True)
    @action(detail=False, pagination_class=None)
    def facets(self, request: Request) -> Response:
        """How many games of this search fall in each category and carry each tag."""
        games = self.filter_queryset(Game.objects.all())
        return Response(FacetsSerializer(games.facets()).data)


class CopyViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A copy found by its barcode: where it is shelved and whether it can be borrowed now."""

    queryset = Copy.objects.with_availability().select_related("game", "section", "location", "kind")
    serializer_class = CopyWithGameSerializer
    lookup_field = "barcode"
    # No NUL byte: PostgreSQL text cannot hold one (the query would fail), and no barcode has one.
    lookup_value_regex = "[^/\\x00]+"
    filter_backends = []
    # Prepared once per connection (ludotheque/prepared.py): compiling it cost more than its SQL.
    by_barcode = PreparedRead(
        "copy by barcode", lambda barcode: CopyViewSet.queryset.filter(barcode=barcode), "prepared barcode"
    )

    def get_object(self):
        copies = list(self.by_barcode.queryset(self.kwargs["barcode"]))
        if not copies:
            raise Http404(_("Aucun exemplaire ne porte ce code-barres."))
        self.check_object_permissions(self.request, copies[0])
        return copies[0]
