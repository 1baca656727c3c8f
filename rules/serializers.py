"""The rules API's JSON shapes (docs/RULES_API.md), built from GameRules and engine results.

The engine's objects are not models: each serializer reads a plain dict made by the functions below,
and documents the shape in the OpenAPI schema. Engine Texts are rendered in the request's language.
"""

from __future__ import annotations

from typing import Any

from rest_framework import serializers

from .engine import GameRules, ScoreResult, Setup, SetupResult
from .inputs import render_text, translate
from .markup import SectionKind
from .models import RulePage


class PlayersSerializer(serializers.Serializer):
    min = serializers.IntegerField()
    max = serializers.IntegerField(allow_null=True, help_text="null: no upper limit")


class VariantSerializer(serializers.Serializer):
    slug = serializers.CharField()
    label = serializers.CharField()


class RulesGameSerializer(serializers.Serializer):
    slug = serializers.CharField()
    title = serializers.CharField()
    players = PlayersSerializer()
    variants = VariantSerializer(many=True)
    features = serializers.ListField(child=serializers.ChoiceField(choices=["setup", "score", "check"]))


class SectionSerializer(serializers.Serializer):
    kind = serializers.ChoiceField(choices=SectionKind.values)
    title = serializers.CharField(allow_blank=True)
    body_html = serializers.CharField()


class RevisionInfoSerializer(serializers.Serializer):
    number = serializers.IntegerField()
    author = serializers.CharField()
    created_at = serializers.DateTimeField()
    summary = serializers.CharField(allow_blank=True)


class RulePageSerializer(RulesGameSerializer):
    sections = SectionSerializer(many=True)
    setup_schema = serializers.JSONField(help_text="JSON Schema of the setup query")
    score_schema = serializers.JSONField(help_text="JSON Schema of the score body")
    revision = RevisionInfoSerializer(allow_null=True)


class SetupComponentSerializer(serializers.Serializer):
    name = serializers.CharField()
    count = serializers.IntegerField()


class StepSerializer(serializers.Serializer):
    text = serializers.CharField()


class SetupResultSerializer(serializers.Serializer):
    slug = serializers.CharField()
    players = serializers.IntegerField()
    variants = serializers.ListField(child=serializers.CharField())
    components = SetupComponentSerializer(many=True)
    steps = StepSerializer(many=True)
    values = serializers.JSONField(
        help_text="machine-readable numbers of this setup (docs/RULES_API.md, per game)"
    )


class PlayerResultSerializer(serializers.Serializer):
    name = serializers.CharField()
    total = serializers.IntegerField()
    breakdown = serializers.DictField(child=serializers.IntegerField())
    rank = serializers.IntegerField(help_text="1 is best; players still tied share a rank")
    eliminated = serializers.BooleanField()


class ScoreResultSerializer(serializers.Serializer):
    players = PlayerResultSerializer(many=True)
    winners = serializers.ListField(child=serializers.CharField())
    decided_by = serializers.CharField(
        allow_null=True, help_text="the tie-breaker that separated the leaders"
    )
    explanation = serializers.CharField(help_text="who won and why, in the request's language")


# --- plain dicts the serializers read -----------------------------------------------------------------


def game_data(rules: GameRules) -> dict:
    return {
        "slug": rules.slug,
        "title": rules.title,
        "players": rules.players.as_dict(),
        "variants": [{"slug": variant.slug, "label": translate(variant.label)} for variant in rules.variants],
        "features": rules.features,
    }


def page_data(rules: GameRules, page: RulePage | None) -> dict:
    revision = page.current_revision if page else None
    return {
        **game_data(rules),
        "title": page.title if page else rules.title,
        "sections": [
            {"kind": section.kind, "title": section.title, "body_html": str(section.body_html)}
            for section in (revision.section_list if revision else [])
        ],
        "setup_schema": rules.setup_schema(),
        "score_schema": rules.score_schema(),
        "revision": {
            "number": revision.number,
            "author": revision.author_name,
            "created_at": revision.created_at,
            "summary": revision.summary,
        }
        if revision
        else None,
    }


def jsonable(value: Any) -> Any:
    """Setup values as JSON: tuples become lists, engine Texts are rendered."""
    if isinstance(value, dict):
        return {str(key): jsonable(item) for key, item in value.items()}
    if isinstance(value, list | tuple | set | frozenset):
        items = sorted(value) if isinstance(value, set | frozenset) else value
        return [jsonable(item) for item in items]
    if isinstance(value, str | int | float | bool) or value is None:
        return value
    return render_text(value)


def setup_data(rules: GameRules, setup: Setup, result: SetupResult) -> dict:
    return {
        "slug": rules.slug,
        "players": setup.players,
        "variants": sorted(setup.variants),
        "components": [
            {"name": render_text(component.name), "count": component.count} for component in result.components
        ],
        "steps": [{"text": render_text(step)} for step in result.steps],
        "values": jsonable(result.values),
    }


def score_data(result: ScoreResult) -> dict:
    return {
        "players": [
            {
                "name": player.name,
                "total": player.total,
                "breakdown": player.breakdown,
                "rank": player.rank,
                "eliminated": player.eliminated,
            }
            for player in result.players
        ],
        "winners": result.winners,
        "decided_by": result.decided_by,
        "explanation": render_text(result.explanation),
    }
