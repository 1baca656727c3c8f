"""The family search page, the game page, and the read-only catalogue API."""

from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.views.decorators.http import require_safe
from drf_spectacular.utils import extend_schema
from rest_framework import mixins, viewsets
from rest_framework.decorators import action
from rest_framework.request import Request
from rest_framework.response import Response

from .filters import GameFilter
from .models import Copy, Game
from .serializers import CopyWithGameSerializer, FacetsSerializer, GameDetailSerializer, GameSerializer

# The API's page size too (REST_FRAMEWORK["PAGE_SIZE"]).
GAMES_PER_PAGE = 20


def _url_with(request: HttpRequest, name: str, values: list[str]) -> str:
    """The current search with parameter `name` set to `values` (removed when empty), from page 1."""
    query = request.GET.copy()
    query.pop("page", None)
    if values:
        query.setlist(name, values)
    else:
        query.pop(name, None)
    return f"?{query.urlencode()}"


def _facet_links(request: HttpRequest, filterset: GameFilter, facets: dict) -> dict:
    """Add to each category and tag count the link that narrows the search to it, or widens it back."""
    chosen_category = filterset.form.cleaned_data.get("categorie")
    for facet in facets["categories"]:
        facet["selected"] = chosen_category is not None and facet["code"] == chosen_category.code
        facet["url"] = _url_with(request, "categorie", [] if facet["selected"] else [facet["code"]])
    chosen_tags = [tag.slug for tag in filterset.form.cleaned_data.get("tag") or []]
    for facet in facets["tags"]:
        facet["selected"] = facet["slug"] in chosen_tags
        others = [slug for slug in chosen_tags if slug != facet["slug"]]
        facet["url"] = _url_with(
            request, "tag", others if facet["selected"] else [*chosen_tags, facet["slug"]]
        )
    return facets


@require_safe
def game_list(request: HttpRequest) -> HttpResponse:
    filterset = GameFilter(request.GET, queryset=Game.objects.all())
    context = {"filterset": filterset, "form": filterset.form}
    if not filterset.is_valid():
        return render(request, "catalogue/game_list.html", context, status=400)
    games = filterset.qs
    facets = _facet_links(request, filterset, games.facets())
    paginator = Paginator(games.for_result_list(), GAMES_PER_PAGE)
    paginator.count = facets["count"]  # counted with the facets, in the same scan
    page = paginator.get_page(request.GET.get("page"))
    context.update(page=page, category_facets=facets["categories"], tag_facets=facets["tags"])
    return render(request, "catalogue/game_list.html", context)


@require_safe
def game_detail(request: HttpRequest, slug: str) -> HttpResponse:
    game = get_object_or_404(Game.objects.for_notice(), slug=slug)
    return render(request, "catalogue/game_detail.html", {"game": game})


class GameViewSet(viewsets.ReadOnlyModelViewSet):
    """The games of the catalogue, searched with the same filters as the page `/jeux/`."""

    lookup_field = "slug"
    filterset_class = GameFilter

    def get_queryset(self):
        if self.action == "retrieve":
            return Game.objects.for_notice()
        return Game.objects.for_result_list().prefetch_related("tags")

    def get_serializer_class(self):
        return GameDetailSerializer if self.action == "retrieve" else GameSerializer

    @extend_schema(responses=FacetsSerializer, filters=True)
    @action(detail=False, pagination_class=None)
    def facets(self, request: Request) -> Response:
        """How many games of this search fall in each category and carry each tag."""
        games = self.filter_queryset(Game.objects.all())
        return Response(FacetsSerializer(games.facets()).data)


class CopyViewSet(mixins.RetrieveModelMixin, viewsets.GenericViewSet):
    """A copy found by its barcode: where it is shelved and whether it can be borrowed now."""

    queryset = Copy.objects.with_availability().select_related("game", "section", "location")
    serializer_class = CopyWithGameSerializer
    lookup_field = "barcode"
    lookup_value_regex = "[^/]+"
    filter_backends = []
