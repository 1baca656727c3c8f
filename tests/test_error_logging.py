"""A server error is written with its traceback to stderr (gunicorn's log) and mailed to ADMINS."""

import io
import logging

import pytest
from django.core import mail
from django.test import Client

from ludotheque.environment import env_list
from tests.test_settings import PRODUCTION_ENV, run_python

pytestmark = pytest.mark.django_db


@pytest.fixture
def stderr_log():
    """What the `django` logger's stderr handler writes, during the test."""
    handler = next(h for h in logging.getLogger("django").handlers if type(h) is logging.StreamHandler)
    written = io.StringIO()
    previous = handler.setStream(written)
    yield written
    handler.setStream(previous)


@pytest.mark.urls("tests.failing_urls")
def test_a_500_is_logged_with_its_traceback_and_mailed_to_the_admins(settings, stderr_log):
    settings.ADMINS = ["responsable@example.org"]
    response = Client(raise_request_exception=False).get("/panne/")
    assert response.status_code == 500
    logged = stderr_log.getvalue()
    assert "ERROR django.request: Internal Server Error: /panne/" in logged
    assert "Traceback (most recent call last)" in logged and "ZeroDivisionError: une page en panne" in logged
    (message,) = mail.outbox
    assert message.to == ["responsable@example.org"]
    assert "Internal Server Error: /panne/" in message.subject
    assert "ZeroDivisionError" in message.body


@pytest.mark.urls("tests.failing_urls")
def test_without_admins_nothing_is_mailed(settings, stderr_log):
    settings.ADMINS = []
    Client(raise_request_exception=False).get("/panne/")
    assert mail.outbox == [] and "ZeroDivisionError" in stderr_log.getvalue()


def test_admins_come_from_the_environment():
    assert env_list("ADMINS", [], environ={"ADMINS": "a@example.org, b@example.org"}) == [
        "a@example.org",
        "b@example.org",
    ]


def test_errors_reach_the_process_stderr_in_production():
    script = (
        "import django, logging; django.setup()\n"
        "try:\n    1 / 0\n"
        "except ZeroDivisionError:\n"
        "    logging.getLogger('django.request').exception('Internal Server Error: /x/')\n"
    )
    result = run_python("-c", script, env={**PRODUCTION_ENV, "DJANGO_SETTINGS_MODULE": "ludotheque.settings"})
    assert result.returncode == 0, result.stderr
    assert "ERROR django.request: Internal Server Error: /x/" in result.stderr
    assert "ZeroDivisionError: division by zero" in result.stderr
