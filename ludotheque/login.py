"""The page a locked-out login gets (django-axes counts the failures, settings.AXES_*)."""

from django.conf import settings
from django.http import HttpRequest, HttpResponse
from django.shortcuts import render


def locked_out(request: HttpRequest, original_response=None, credentials=None) -> HttpResponse:
    """429 with the reason and how long to wait, for the site's login page and the admin's."""
    context = {
        "limit": settings.AXES_FAILURE_LIMIT,
        "minutes": max(1, round(settings.AXES_COOLOFF_TIME.total_seconds() / 60)),
    }
    return render(request, "registration/locked_out.html", context, status=429)
