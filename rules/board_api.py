"""`GET /api/rules/catane/board/`: Catan's island as data, the beginners' one or a random one from a seed.

Open to everyone like the rest of the rules API (docs/RULES_API.md); it only computes.
"""

from __future__ import annotations

import re

from django.utils.translation import gettext as _
from drf_spectacular.types import OpenApiTypes
from drf_spectacular.utils import OpenApiParameter, extend_schema
from rest_framework.decorators import api_view, authentication_classes, permission_classes, throttle_classes
from rest_framework.permissions import AllowAny
from rest_framework.request import Request
from rest_framework.response import Response

from ludotheque.api import AnonThrottle, RulesThrottle

from .api import ERRORS
from .boards import new_seed
from .games import catane_board as catan
from .services import translate


def _board_data(board: catan.Board) -> dict:
    return {
        "layout": board.layout,
        "numbers": board.numbers,
        "seed": board.seed,
        "hexes": [
            {
                "q": tile.hex[0],
                "r": tile.hex[1],
                "terrain": tile.terrain,
                "name": translate(catan.TERRAINS[tile.terrain][0]),
                "number": tile.number,
                "letter": tile.letter,
            }
            for tile in board.tiles
        ],
        "harbours": [
            {
                "q": harbour.sea[0],
                "r": harbour.sea[1],
                "land": {"q": harbour.land[0], "r": harbour.land[1]},
                "kind": harbour.kind,
                "ratio": harbour.ratio,
            }
            for harbour in board.harbours
        ],
        "robber": {"q": board.robber[0], "r": board.robber[1]},
    }


@extend_schema(
    operation_id="rules_catane_board",
    parameters=[
        OpenApiParameter(
            "layout", str, enum=list(catan.LAYOUTS), description="`random` (default) or `beginner`"
        ),
        OpenApiParameter(
            "numbers",
            str,
            enum=list(catan.NUMBER_ORDERS),
            description="tokens by the A–R `spiral` (default) or `random`",
        ),
        OpenApiParameter("seed", int, description=f"0–{catan.SEED_MAX}; drawn (and returned) when absent"),
    ],
    responses={200: OpenApiTypes.OBJECT, 400: ERRORS},
    description=(
        "Catan's island: 19 hexes in axial coordinates (`q` right along a row, `r` down the rows, the centre "
        "at 0, 0), each with its terrain and number token (and its letter A–R when laid by the spiral), the 9 "
        "harbours (the sea hex, the land hex it serves, `generic` 3:1 or a resource 2:1) and the robber. The "
        "same seed always gives the same island."
    ),
)
@api_view(["GET"])
@authentication_classes([])
@permission_classes([AllowAny])
@throttle_classes([AnonThrottle, RulesThrottle])
def catan_board(request: Request) -> Response:
    errors: dict[str, list[str]] = {}
    layout = request.query_params.get("layout", "random")
    numbers = request.query_params.get("numbers", "spiral")
    raw_seed = request.query_params.get("seed", "").strip()
    if layout not in catan.LAYOUTS:
        errors["layout"] = [
            _("Choisissez une de ces valeurs : %(choices)s.") % {"choices": ", ".join(catan.LAYOUTS)}
        ]
    if numbers not in catan.NUMBER_ORDERS:
        errors["numbers"] = [
            _("Choisissez une de ces valeurs : %(choices)s.") % {"choices": ", ".join(catan.NUMBER_ORDERS)}
        ]
    seed = None
    if raw_seed:
        if not re.fullmatch(r"[0-9]{1,10}", raw_seed) or int(raw_seed) > catan.SEED_MAX:
            errors["seed"] = [_("La graine est un nombre entier de 0 à %(max)s.") % {"max": catan.SEED_MAX}]
        else:
            seed = int(raw_seed)
    if errors:
        return Response(errors, status=400)
    if layout == "random" and seed is None:
        seed = new_seed()
    return Response(_board_data(catan.board(layout, seed, numbers)))
