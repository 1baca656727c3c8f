"""A service's refusal (a ValidationError whose dict keys are the service's arguments): how a service
raises it, how a page or an API endpoint answers it, and where a form sends the clerk back to."""

from typing import NoReturn

from django import forms
from django.core.exceptions import ValidationError
from django.http import HttpRequest
from django.utils.http import url_has_allowed_host_and_scheme
from rest_framework import status
from rest_framework.response import Response
from rest_framework.settings import api_settings


def refuse(message, *, code: str, on: str | None = None, **params) -> NoReturn:
    """Refuse with `message` (its `params` filled in), about the argument `on` when one is named."""
    error = ValidationError(message, code=code, params=params or None)
    raise ValidationError({on: error}) if on else error


def add_refusal(form: forms.Form, error: ValidationError, fields: dict[str, str | None]) -> None:
    """Show a service's refusal on the form field that matches the argument it is about."""
    if hasattr(error, "error_dict"):
        for name, errors in error.error_dict.items():
            form.add_error(fields.get(name), errors)
    else:
        form.add_error(None, error)


def refusal_response(error: ValidationError, fields: dict[str, str], conflicts: set[str]) -> Response:
    """Turn a service's refusal into 409 (a conflict with the state, e.g. a copy already on loan: its
    code is in `conflicts`) or 400 with per-field messages."""
    if hasattr(error, "error_dict"):
        items = [
            (fields.get(name, api_settings.NON_FIELD_ERRORS_KEY), item)
            for name, errors in error.error_dict.items()
            for item in errors
        ]
    else:
        items = [(api_settings.NON_FIELD_ERRORS_KEY, item) for item in error.error_list]
    for _field, item in items:
        if item.code in conflicts:
            return Response({"detail": item.messages[0], "code": item.code}, status=status.HTTP_409_CONFLICT)
    body: dict[str, list[str]] = {}
    for field, item in items:
        body.setdefault(field, []).extend(item.messages)
    return Response(body, status=status.HTTP_400_BAD_REQUEST)


def next_url(request: HttpRequest, default: str) -> str:
    """The page a form posted as its `next`, if it is on this site; else `default`."""
    url = request.POST.get("next", "")
    if url_has_allowed_host_and_scheme(url, allowed_hosts={request.get_host()}):
        return url
    return default
