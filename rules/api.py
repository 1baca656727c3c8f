"""The rules API (docs/RULES_API.md): games, their structured pages, setup, score and referee checks.

Open to everyone, logged in or not, from the site's own pages or any other client: nothing here
writes, so there is no authentication (and hence no CSRF check on the POSTs, which only compute).
"""

from __future__ import annotations

from django.http import Http404
from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiExample, OpenApiParameter, OpenApiResponse, extend_schema
from rest_framework import viewsets
from rest_framework.decorators import action
from rest_framework.exceptions import ParseError
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from ludotheque.api import JSONParser, RulesThrottle

from .engine import GameRules, InvalidInput
from .models import RulePage
from .serializers import (
    RulePageSerializer,
    RulesGameSerializer,
    ScoreResultSerializer,
    SetupResultSerializer,
    game_data,
    page_data,
    score_data,
    setup_data,
)
from .services import all_game_rules, error_messages, game_rules

ERRORS = OpenApiResponse(
    response=OpenApiTypes.OBJECT,
    description=(
        'Bad input: `{"dotted.path": ["message", …]}`, one entry per field at fault (`players`, `variants`, '
        "`players.1.gold`…). Messages are French by default, English with `Accept-Language: en`."
    ),
    examples=[
        OpenApiExample(
            "Out of range", value={"players": ["Ce jeu se joue de 2 à 4 joueurs."]}, response_only=True
        )
    ],
)
NOT_FOUND = OpenApiResponse(description="No game has this slug (or it has no such feature).")
BIBLIOS_SCORE = OpenApiExample(
    "Biblios: the rules' example (Rodolphe wins on gold)",
    value={
        "players": [
            {
                "name": "Cédric",
                "categories": {
                    "moines": {"total": 9, "best_letter": "C"},
                    "manuscrits": {"total": 2, "best_letter": "F"},
                    "pigments": {"total": 7, "best_letter": "A"},
                    "grimoires": {"total": 4, "best_letter": "D"},
                    "livres_sacres": {"total": 3, "best_letter": "B"},
                },
                "gold": 2,
            },
            {
                "name": "Rodolphe",
                "categories": {
                    "moines": {"total": 9, "best_letter": "B"},
                    "manuscrits": {"total": 5, "best_letter": "A"},
                    "grimoires": {"total": 2, "best_letter": "E"},
                },
                "gold": 5,
            },
        ],
        "dice": {"moines": 5, "manuscrits": 3, "pigments": 2, "grimoires": 2, "livres_sacres": 4},
    },
    request_only=True,
)


def invalid(error: InvalidInput) -> Response:
    return Response(error_messages(error), status=400)


def malformed(error: ParseError) -> Response:
    """400 for a body that is no JSON: the parser's own words when it said why (too deep…), else ours."""
    if error.get_codes() == "parse_error":
        message = _("Le corps de la requête doit être un objet JSON valide.")
    else:
        message = str(error.detail)
    return Response({"non_field_errors": [message]}, status=400)


class RulesViewSet(viewsets.ViewSet):
    """Every game the rules engine knows, by slug."""

    authentication_classes: list = []
    permission_classes = [AllowAny]
    parser_classes = [JSONParser]
    lookup_field = "slug"
    lookup_value_regex = "[-a-z0-9_]+"

    def get_throttles(self) -> list:
        """The computations count against their own rate, on top of the anonymous one."""
        throttles = super().get_throttles()
        if self.action in ("setup", "score", "check"):
            throttles.append(RulesThrottle())
        return throttles

    def _rules(self, slug: str, feature: str | None = None) -> GameRules:
        rules = game_rules(slug)
        if rules is None or (feature is not None and feature not in rules.features):
            raise Http404
        return rules

    def _body(self, request: Request):
        """The parsed body, or the ParseError that says why there is none."""
        try:
            return request.data
        except ParseError as error:
            return error

    @extend_schema(responses=RulesGameSerializer(many=True))
    def list(self, request: Request) -> Response:
        """The games: slug, title, player range, variants and what the engine computes for each."""
        return Response(RulesGameSerializer([game_data(rules) for rules in all_game_rules()], many=True).data)

    @extend_schema(responses={200: RulePageSerializer, 404: NOT_FOUND})
    def retrieve(self, request: Request, slug: str) -> Response:
        """A game's structured rules page: its sections, the JSON Schemas of setup and score, the revision."""
        rules = self._rules(slug)
        page = RulePage.objects.filter(slug=slug).first()
        return Response(RulePageSerializer(page_data(rules, page)).data)

    @extend_schema(
        parameters=[
            OpenApiParameter("players", int, required=True, description="number of players"),
            OpenApiParameter("variants", str, description="comma-separated variant slugs"),
        ],
        description=(
            "A game's setup options are further query parameters (La chasse aux monstres: `length=short`); "
            "each game's accepted query is its `setup_schema` (GET /api/rules/<slug>/)."
        ),
        responses={200: SetupResultSerializer, 400: ERRORS, 404: NOT_FOUND},
    )
    @action(detail=True, methods=["get"])
    def setup(self, request: Request, slug: str) -> Response:
        """Components, steps and values of the setup for N players and these variants."""
        rules = self._rules(slug, "setup")
        try:
            cleaned = rules.clean_setup(request.query_params)
        except InvalidInput as error:
            return invalid(error)
        return Response(SetupResultSerializer(setup_data(rules, cleaned, rules.setup(cleaned))).data)

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        examples=[BIBLIOS_SCORE],
        responses={200: ScoreResultSerializer, 400: ERRORS, 404: NOT_FOUND},
        description=(
            'Score a sheet: `{"variants": [...], "players": [{"name", …fields}], …shared fields}`; the '
            "accepted body of each game is its `score_schema` (GET /api/rules/<slug>/)."
        ),
    )
    @action(detail=True, methods=["post"])
    def score(self, request: Request, slug: str) -> Response:
        rules = self._rules(slug, "score")
        body = self._body(request)
        if isinstance(body, ParseError):
            return malformed(body)
        try:
            result = rules.run_score(body)
        except InvalidInput as error:
            return invalid(error)
        return Response(ScoreResultSerializer(score_data(result)).data)

    @extend_schema(
        request=OpenApiTypes.OBJECT,
        responses={200: OpenApiTypes.OBJECT, 400: ERRORS, 404: NOT_FOUND},
        description=(
            "Referee check on a position, for the games that have one (Quarto: "
            '`{"board": 4×4 of 0–15 or null, "variants": [...], "characters": [...]}` → '
            '`{"quarto": bool, "lines": [...]}`; Railroad Ink: `{"routes": [{"row", "column", "tile", '
            '"rotation", "mirrored", "round"}]}` → the networks, longest highway and railway, centre '
            "squares, errors and points read from the board, docs/RULES_API.md)."
        ),
    )
    @action(detail=True, methods=["post"])
    def check(self, request: Request, slug: str) -> Response:
        rules = self._rules(slug, "check")
        body = self._body(request)
        if isinstance(body, ParseError):
            return malformed(body)
        try:
            result = rules.run_check(body)
        except InvalidInput as error:
            return invalid(error)
        return Response(result)
