"""A PostgreSQL statement cut off by `statement_timeout` (DATABASE_STATEMENT_TIMEOUT, which the web
processes set, see ludotheque/wsgi.py): answered with a 503 that says what happened, not the 500 page.

The family search says it itself, beside its form (catalogue/views.py); this middleware answers for
every other page and API.
"""

import logging

from django.db import OperationalError
from django.http import JsonResponse
from django.shortcuts import render
from django.utils.translation import gettext as _

logger = logging.getLogger(__name__)

QUERY_CANCELED = "57014"  # PostgreSQL's SQLSTATE for a statement cancelled (by its timeout)


def statement_timed_out(error: BaseException) -> bool:
    return (
        isinstance(error, OperationalError) and getattr(error.__cause__, "sqlstate", None) == QUERY_CANCELED
    )


class StatementTimeoutMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        return self.get_response(request)

    def process_exception(self, request, exception):
        if not statement_timed_out(exception):
            return None
        logger.warning("Statement timeout: %s %s", request.method, request.get_full_path())
        message = _(
            "Cette demande a pris trop de temps à la base de données et a été arrêtée. "
            "Réessayez dans un moment ; si cela se reproduit, prévenez l'équipe."
        )
        if request.path.startswith("/api/"):
            return JsonResponse({"detail": message}, status=503)
        return render(request, "503.html", {"message": message}, status=503)
