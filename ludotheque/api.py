"""What every API endpoint shares: a JSON parser that refuses what would crash later, the client's
address, the throttles (rates in settings.API_THROTTLE_RATES), token authentication read by SQL compiled
once, and serializer fields built once."""

from __future__ import annotations

import copy
import json

from django.conf import settings
from django.http import HttpRequest
from django.utils.translation import gettext_lazy as _
from rest_framework import parsers, throttling
from rest_framework.exceptions import ParseError

TOO_DEEP = _("Le corps de la requête est imbriqué trop profondément.")
LONE_SURROGATE = _(
    "Le corps de la requête contient un caractère invalide : une moitié de paire UTF-16 seule (\\ud800…\\udfff)."
)


class JSONParser(parsers.JSONParser):
    """DRF's JSON parser, answering 400 instead of crashing with a 500 later on.

    Python's decoder recurses: a body nested deeper than the recursion limit raises RecursionError,
    not the ValueError DRF catches. A lone surrogate (`"\\ud800"`) is valid JSON but no UTF-8: echoed
    back in a response (a player's name, an unknown key), it would fail the response's encoding.
    """

    def parse(self, stream, media_type=None, parser_context=None):
        try:
            data = super().parse(stream, media_type, parser_context)
            # Written back as UTF-8 the way the response would be: fails on a lone surrogate.
            json.dumps(data, ensure_ascii=False).encode("utf-8")
        except RecursionError:
            raise ParseError(TOO_DEEP, code="too_deep") from None
        except UnicodeEncodeError:
            raise ParseError(LONE_SURROGATE, code="lone_surrogate") from None
        return data


def client_ip(request: HttpRequest) -> str:
    """The client's address: REMOTE_ADDR, or behind PROXY_COUNT reverse proxies the one they saw.

    The same rule as DRF's throttles with NUM_PROXIES (`rest_framework.throttling.BaseThrottle`):
    each proxy appends the address it received the request from to X-Forwarded-For, so the client is
    the PROXY_COUNT-th address from the end; a client cannot forge what the proxies append.
    """
    remote = request.META.get("REMOTE_ADDR", "")
    forwarded = request.META.get("HTTP_X_FORWARDED_FOR", "")
    if not settings.PROXY_COUNT or not forwarded:
        return remote
    addresses = [address.strip() for address in forwarded.split(",")]
    return addresses[-min(settings.PROXY_COUNT, len(addresses))] or remote


class _RatesFromSettings:
    """DRF throttles read their rates once, at import; these read settings.API_THROTTLE_RATES each time."""

    def get_rate(self) -> str:
        return settings.API_THROTTLE_RATES[self.scope]


class AnonThrottle(_RatesFromSettings, throttling.AnonRateThrottle):
    """Anonymous calls, per client address."""


class UserThrottle(_RatesFromSettings, throttling.UserRateThrottle):
    """Calls with a session or a token, per account (anonymous ones per address)."""


class RulesThrottle(_RatesFromSettings, throttling.SimpleRateThrottle):
    """The rules engine's computations (setup, score, check), open to anyone: per client address."""

    scope = "rules"

    def get_cache_key(self, request, view) -> str:
        return self.cache_format % {"scope": self.scope, "ident": self.get_ident(request)}


# No docstring: drf-spectacular would give it as the description of every serializer using it.
class FieldsOnceMixin:
    # A ModelSerializer reads its model anew for every instance it serializes; for the desk's one loan
    # per scan that was half of the serialisation. The fields are built once per serializer class and process, then copied for each use, as DRF itself copies the
    # fields declared on a class.
    _built_fields: dict[type, dict] = {}

    def get_fields(self) -> dict:
        built = FieldsOnceMixin._built_fields
        if type(self) not in built:
            built[type(self)] = super().get_fields()
        return copy.deepcopy(built[type(self)])
