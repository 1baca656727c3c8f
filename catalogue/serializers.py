"""The read-only catalogue API: games (a search result, then the full notice) and copies by barcode.

Each resource is declared here once (its fields: the OpenAPI schema); its answer is written out by
`catalogue/search/rendering.py`, which DRF's field-by-field rendering would cost ten times.
"""

from django.utils.functional import cached_property
from django.utils.translation import gettext_lazy as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import extend_schema_field
from rest_framework import serializers

from .models import Authorship, Category, Component, Copy, Document, Game, PublisherCredit
from .search import rendering


@extend_schema_field(OpenApiTypes.URI)
class GameLinkField(serializers.Field):
    """A link to a game by its slug: its API notice (absolute) or its page.

    The URL is reversed once per response, with a placeholder then replaced by each game's slug: a
    reverse() for every row took as long as the rest of a list of 20 results.
    """

    PLACEHOLDER = rendering.SLUG_PLACEHOLDER

    def __init__(self, view_name: str, *, absolute: bool = False, **kwargs):
        self.view_name, self.absolute = view_name, absolute
        super().__init__(source="slug", read_only=True, **kwargs)

    @cached_property
    def template(self) -> str:
        return self.link_template(self.view_name, self.context["request"], absolute=self.absolute)

    link_template = staticmethod(rendering.link_template)

    def to_representation(self, slug: str) -> str:
        return self.template.replace(self.PLACEHOLDER, slug)


@extend_schema_field({"type": "string", "format": "uri-reference"})
class GamePageLinkField(GameLinkField):
    """A link to a game's page, relative to the site (`/jeux/quarto/`)."""


class CategorySerializer(serializers.ModelSerializer):
    class Meta:
        model = Category
        fields = ["code", "label", "family"]


class ComponentSerializer(serializers.ModelSerializer):
    class Meta:
        model = Component
        fields = ["quantity", "label"]


class AuthorshipSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="author.name")

    class Meta:
        model = Authorship
        fields = ["name", "role"]


class PublisherCreditSerializer(serializers.ModelSerializer):
    name = serializers.CharField(source="publisher.name")
    place = serializers.CharField(source="publisher.place")

    class Meta:
        model = PublisherCredit
        fields = ["name", "place"]


class DocumentSerializer(serializers.ModelSerializer):
    file = serializers.FileField(
        read_only=True, allow_null=True, help_text=_("Le fichier, s'il a été déposé.")
    )

    class Meta:
        model = Document
        fields = ["file_name", "file"]


class CopySerializer(serializers.ModelSerializer):
    """A copy; expects the queryset annotated by `Copy.objects.with_availability()`."""

    section = CategorySerializer(read_only=True, allow_null=True)
    location = serializers.CharField(source="location.name", read_only=True)
    status_label = serializers.CharField(source="get_status_display", read_only=True)
    available = serializers.BooleanField(
        source="is_available", read_only=True, help_text=_("Peut être emprunté maintenant.")
    )
    due_on = serializers.DateField(
        read_only=True, allow_null=True, help_text=_("En prêt : la date de retour prévue.")
    )
    kind = serializers.CharField(
        source="kind.name",
        read_only=True,
        help_text=_("Type d'objet (jeu, jouet, grand jeu…) : ses règles de prêt."),
    )

    class Meta:
        model = Copy
        fields = [
            "barcode",
            "cote",
            "section",
            "location",
            "status",
            "status_label",
            "available",
            "due_on",
            "kind",
        ]


class CopyWithGameSerializer(CopySerializer):
    game = serializers.HyperlinkedRelatedField(view_name="game-detail", lookup_field="slug", read_only=True)
    game_title = serializers.CharField(source="game.title", read_only=True)

    class Meta(CopySerializer.Meta):
        fields = ["game", "game_title", *CopySerializer.Meta.fields]

    def to_representation(self, copy: Copy) -> dict:
        link = rendering.link_template("game-detail", self.context["request"], absolute=True)
        return rendering.copy_with_game(copy, link)


class GameSerializer(serializers.ModelSerializer):
    """A game as a search result; expects the queryset annotated by `with_availability()`."""

    url = GameLinkField("game-detail", absolute=True)
    page_url = GamePageLinkField("catalogue:game-detail")
    category = CategorySerializer(read_only=True, allow_null=True)
    tags = serializers.SerializerMethodField(help_text=_("Les mots-clés, par ordre alphabétique."))
    copies_count = serializers.IntegerField(read_only=True, help_text=_("Nombre d'exemplaires."))
    available_count = serializers.IntegerField(
        read_only=True, help_text=_("Exemplaires qui peuvent être empruntés maintenant.")
    )

    class Meta:
        model = Game
        fields = [
            "url",
            "page_url",
            "slug",
            "title",
            "players_min",
            "players_max",
            "age_min",
            "age_max",
            "duration_minutes",
            "category",
            "tags",
            "summary",
            "copies_count",
            "available_count",
        ]

    def get_tags(self, game: Game) -> list[str]:
        # `with_tag_names()` brings the names with each game on PostgreSQL; elsewhere they are prefetched.
        names = getattr(game, "tag_names", None)
        return names if names is not None else [tag.name for tag in game.tags.all()]

    @cached_property
    def _links(self) -> tuple[str, str]:
        """The templates of a game's two links (GameLinkField), for this request."""
        request = self.context["request"]
        return (
            GameLinkField.link_template("game-detail", request, absolute=True),
            GameLinkField.link_template("catalogue:game-detail", request, absolute=False),
        )

    def to_representation(self, game: Game) -> dict:
        return rendering.result(game, self._links, self.get_tags(game))


class GameDetailSerializer(GameSerializer):
    """The full notice, with its pieces, copies and documents."""

    authors = AuthorshipSerializer(source="authorships", many=True, read_only=True)
    publishers = PublisherCreditSerializer(source="publisher_credits", many=True, read_only=True)
    languages = serializers.SlugRelatedField(slug_field="code", many=True, read_only=True)
    components = ComponentSerializer(many=True, read_only=True)
    copies = CopySerializer(many=True, read_only=True)
    documents = DocumentSerializer(many=True, read_only=True)

    class Meta(GameSerializer.Meta):
        fields = [
            *GameSerializer.Meta.fields,
            "document_type",
            "authors",
            "publishers",
            "languages",
            "rules_summary",
            "contents",
            "pedagogical_analysis",
            "online_url",
            "components",
            "copies",
            "documents",
            "created_at",
            "updated_at",
        ]

    def to_representation(self, game: Game) -> dict:
        return {**super().to_representation(game), **rendering.notice(game, self.context.get("request"))}


class CategoryFacetSerializer(serializers.Serializer):
    code = serializers.CharField()
    label = serializers.CharField()
    count = serializers.IntegerField()


class TagFacetSerializer(serializers.Serializer):
    slug = serializers.CharField()
    name = serializers.CharField()
    count = serializers.IntegerField()


class FacetsSerializer(serializers.Serializer):
    """How many games of the current search fall in each category and carry each tag."""

    count = serializers.IntegerField(
        help_text=_("Nombre de jeux trouvés, jusqu'à 1 000 : au-delà, count_exact est faux.")
    )
    count_exact = serializers.BooleanField(
        help_text=_(
            "Vrai si count est le nombre exact de jeux. Faux : il y en a davantage, et les catégories et "
            "mots-clés sont comptés parmi les 1 000 premiers trouvés."
        )
    )
    categories = CategoryFacetSerializer(many=True)
    tags = TagFacetSerializer(many=True)
