"""Settings come from the environment; a bad value stops the start with a clear message."""

import os
import subprocess
import sys
from pathlib import Path

import psycopg
import pytest
from django.conf import settings
from django.core.exceptions import ImproperlyConfigured
from django.db import connection

from ludotheque.environment import (
    POSTGRES_SESSION_OPTIONS,
    database_from_url,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_time_zone,
    env_url,
    mailer_from_url,
)
from ludotheque.settings import TASK_BACKENDS

ROOT = Path(__file__).resolve().parent.parent


@pytest.mark.parametrize(
    ("raw", "expected"),
    [
        ("1", True),
        ("true", True),
        ("Yes", True),
        ("on", True),
        ("0", False),
        ("false", False),
        ("NO", False),
        ("", False),
    ],
)
def test_env_bool_reads_the_usual_words(raw, expected):
    assert env_bool("DEBUG", not expected, environ={"DEBUG": raw}) is expected


def test_env_bool_uses_the_default_when_unset():
    assert env_bool("DEBUG", True, environ={}) is True
    assert env_bool("DEBUG", False, environ={}) is False


def test_env_bool_refuses_anything_else():
    with pytest.raises(ImproperlyConfigured, match="DEBUG must be true or false"):
        env_bool("DEBUG", True, environ={"DEBUG": "maybe"})


def test_env_int_reads_whole_numbers_and_refuses_the_rest():
    assert env_int("SECURE_HSTS_SECONDS", 0, environ={"SECURE_HSTS_SECONDS": "3600"}) == 3600
    assert env_int("SECURE_HSTS_SECONDS", 7, environ={}) == 7
    with pytest.raises(ImproperlyConfigured, match="whole number"):
        env_int("SECURE_HSTS_SECONDS", 0, environ={"SECURE_HSTS_SECONDS": "une heure"})
    with pytest.raises(ImproperlyConfigured, match="negative"):
        env_int("SECURE_HSTS_SECONDS", 0, environ={"SECURE_HSTS_SECONDS": "-1"})


def test_env_list_splits_on_commas_and_drops_blanks():
    environ = {"ALLOWED_HOSTS": " ludo.example.org, www.ludo.example.org ,,"}
    assert env_list("ALLOWED_HOSTS", [], environ=environ) == ["ludo.example.org", "www.ludo.example.org"]
    assert env_list("ALLOWED_HOSTS", ["localhost"], environ={}) == ["localhost"]


def test_no_database_url_means_a_sqlite_file_under_var(tmp_path):
    config = database_from_url(None, base_dir=tmp_path)
    assert config["ENGINE"] == "django.db.backends.sqlite3"
    assert config["NAME"] == tmp_path / "var" / "ludotheque.sqlite3"
    assert (tmp_path / "var").is_dir()


def test_a_postgres_url_gives_every_connection_detail():
    config = database_from_url("postgres://ludo:s%40cret@db.example.org:6543/ludotheque?sslmode=require")
    assert config["ENGINE"] == "django.db.backends.postgresql"
    assert (config["NAME"], config["USER"], config["PASSWORD"]) == ("ludotheque", "ludo", "s@cret")
    assert (config["HOST"], config["PORT"]) == ("db.example.org", "6543")
    assert config["OPTIONS"] == {"sslmode": "require", "options": POSTGRES_SESSION_OPTIONS}


def test_postgres_sessions_run_without_parallel_workers_jit_or_synchronized_scans_by_default():
    options = database_from_url("postgres://postgres@localhost/ludo")["OPTIONS"]["options"]
    assert options == "-c max_parallel_workers_per_gather=0 -c jit=off -c synchronize_seqscans=off"


def test_session_options_given_in_the_url_come_last_so_they_win():
    url = "postgres://postgres@localhost/ludo?options=-c%20jit%3Don%20-c%20work_mem%3D64MB"
    options = database_from_url(url)["OPTIONS"]["options"]
    assert options == (
        "-c max_parallel_workers_per_gather=0 -c jit=off -c synchronize_seqscans=off -c jit=on -c work_mem=64MB"
    )


def _postgres_setting(name: str, options: str | None = None) -> str:
    """A setting as the server reports it on the site's connection, or on a new one with `options`."""
    if options is None:
        with connection.cursor() as cursor:
            cursor.execute(f"SHOW {name}")
            return cursor.fetchone()[0]
    db = settings.DATABASES["default"]
    with psycopg.connect(
        dbname=db["NAME"],
        user=db["USER"],
        password=db["PASSWORD"] or None,
        host=db["HOST"],
        port=db["PORT"] or None,
        options=options,
    ) as raw:
        return raw.execute(f"SHOW {name}").fetchone()[0]


@pytest.mark.django_db
@pytest.mark.postgresql
def test_the_server_applies_the_session_options_and_lets_the_url_override_them():
    assert _postgres_setting("max_parallel_workers_per_gather") == "0"
    assert _postgres_setting("jit") == "off"
    # The same search's first 1,001 games (its count and facets) are the same on every reload.
    assert _postgres_setting("synchronize_seqscans") == "off"
    url = "postgres://postgres@localhost/ludo?options=-c%20max_parallel_workers_per_gather%3D2"
    overridden = database_from_url(url)["OPTIONS"]["options"]
    assert _postgres_setting("max_parallel_workers_per_gather", overridden) == "2"
    assert _postgres_setting("jit", overridden) == "off"


def test_a_sqlite_url_is_read_relative_to_the_project(tmp_path):
    config = database_from_url("sqlite:///var/other.sqlite3", base_dir=tmp_path)
    assert config["NAME"] == tmp_path / "var" / "other.sqlite3"


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mysql://root@localhost/ludo", "must start with postgres:// or sqlite://"),
        ("postgres://postgres@localhost:5432/", "must name a database"),
        ("postgres://postgres@localhost:port/ludo", "invalid port"),
        ("sqlite://", "needs a file path"),
    ],
)
def test_a_bad_database_url_is_refused_clearly(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        database_from_url(url)


def test_time_zone_defaults_to_brussels_and_refuses_unknown_zones():
    assert env_time_zone("TIME_ZONE", "Europe/Brussels", environ={}) == "Europe/Brussels"
    assert (
        env_time_zone("TIME_ZONE", "Europe/Brussels", environ={"TIME_ZONE": "Europe/Paris"}) == "Europe/Paris"
    )
    with pytest.raises(ImproperlyConfigured, match="time zone"):
        env_time_zone("TIME_ZONE", "Europe/Brussels", environ={"TIME_ZONE": "Mars/Olympus"})


SMTP = "django.core.mail.backends.smtp.EmailBackend"


def test_no_email_url_prints_mail_in_debug_and_uses_the_local_server_otherwise():
    assert mailer_from_url(None, debug=True) == {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    assert mailer_from_url("", debug=False) == {
        "BACKEND": SMTP,
        "OPTIONS": {"host": "localhost", "port": 25, "timeout": 30},
    }
    assert mailer_from_url("console://", debug=False)["BACKEND"].endswith("console.EmailBackend")


def test_an_email_url_gives_the_smtp_server_its_account_and_its_encryption():
    assert mailer_from_url(
        "smtp://ludo%40example.org:p%40ss@mail.example.org:587?tls=true&timeout=10", debug=False
    ) == {
        "BACKEND": SMTP,
        "OPTIONS": {
            "host": "mail.example.org",
            "port": 587,
            "username": "ludo@example.org",
            "password": "p@ss",
            "use_ssl": False,
            "use_tls": True,
            "timeout": 10,
        },
    }
    smtps = mailer_from_url("smtps://user:secret@mail.example.org", debug=False)["OPTIONS"]
    assert (smtps["port"], smtps["use_ssl"], smtps["use_tls"]) == (465, True, False)
    assert mailer_from_url("smtp://relay", debug=False)["OPTIONS"]["port"] == 25


@pytest.mark.parametrize(
    ("url", "message"),
    [
        ("mailto:ludo@example.org", "EMAIL_URL must look like"),
        ("smtp://", "EMAIL_URL must look like"),
        ("smtp://mail.example.org:port", "invalid port"),
        ("smtps://mail.example.org?tls=true", "already encrypted"),
        ("smtp://mail.example.org?tls=maybe", "tls must be true or false"),
    ],
)
def test_a_bad_email_url_is_refused_clearly(url, message):
    with pytest.raises(ImproperlyConfigured, match=message):
        mailer_from_url(url, debug=False)


def test_the_tasks_backend_is_immediate_by_default_and_the_database_on_request():
    assert env_choice("TASKS_BACKEND", "immediate", TASK_BACKENDS, environ={}).endswith("ImmediateBackend")
    assert env_choice("TASKS_BACKEND", "immediate", TASK_BACKENDS, environ={"TASKS_BACKEND": "Database"}) == (
        "django_tasks_db.DatabaseBackend"
    )
    with pytest.raises(ImproperlyConfigured, match="TASKS_BACKEND must be one of immediate, database"):
        env_choice("TASKS_BACKEND", "immediate", TASK_BACKENDS, environ={"TASKS_BACKEND": "celery"})


def test_the_site_url_is_an_http_address_without_trailing_slash():
    assert env_url(
        "SITE_URL", "http://127.0.0.1:8000", environ={"SITE_URL": "https://ludo.example.org/"}
    ) == ("https://ludo.example.org")
    with pytest.raises(ImproperlyConfigured, match="SITE_URL must be an address"):
        env_url("SITE_URL", "http://127.0.0.1:8000", environ={"SITE_URL": "ludo.example.org"})


PRODUCTION_ENV = {
    "DEBUG": "false",
    "SECRET_KEY": "x7#kq2!vLm9@pR4zT8wYb3nC6hJ1sD5fG0aE-uI_oP+eW&rT%yU*iO(pA)sD=fG",
    "ALLOWED_HOSTS": "ludo.example.org",
    "CSRF_TRUSTED_ORIGINS": "https://ludo.example.org",
    "DATABASE_URL": "postgres://postgres@127.0.0.1:5432/postgres",
    "EMAIL_URL": "smtp://mail.example.org:587?tls=true",
    "TASKS_BACKEND": "database",
    "SITE_URL": "https://ludo.example.org",
}


def run_python(*args: str, env: dict) -> subprocess.CompletedProcess:
    """Run Python in the project with `env` on top of this environment, minus the settings it sets."""
    # The browser tests allow async-unsafe ORM calls in this process; a deployment never does.
    unwanted = {*PRODUCTION_ENV, "DJANGO_ALLOW_ASYNC_UNSAFE"}
    clean = {key: value for key, value in os.environ.items() if key not in unwanted}
    return subprocess.run(
        [sys.executable, *args],
        cwd=ROOT,
        env={**clean, **env},
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_check_deploy_is_clean_with_production_settings():
    result = run_python("manage.py", "check", "--deploy", "--fail-level", "WARNING", env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stdout + result.stderr
    assert "System check identified no issues" in result.stdout


def test_debug_off_without_a_secret_key_refuses_to_start():
    env = {**PRODUCTION_ENV, "SECRET_KEY": ""}
    result = run_python("manage.py", "check", env=env)
    assert result.returncode != 0
    assert "SECRET_KEY must be set when DEBUG is off" in result.stderr


def test_a_bad_debug_value_refuses_to_start():
    result = run_python("manage.py", "check", env={"DEBUG": "peut-être"})
    assert result.returncode != 0
    assert "ImproperlyConfigured: DEBUG must be true or false" in result.stderr


def test_a_csrf_origin_without_scheme_refuses_to_start():
    env = {**PRODUCTION_ENV, "CSRF_TRUSTED_ORIGINS": "ludo.example.org"}
    result = run_python("manage.py", "check", env=env)
    assert "CSRF_TRUSTED_ORIGINS entries need a scheme" in result.stderr


def test_the_wsgi_application_starts_with_its_urls_loaded_and_frozen_out_of_the_gc():
    script = "import gc, sys, ludotheque.wsgi; print(gc.get_freeze_count(), 'catalogue.views' in sys.modules)"
    result = run_python("-c", script, env=PRODUCTION_ENV)
    assert result.returncode == 0, result.stderr
    frozen, views_loaded = result.stdout.split()
    assert int(frozen) > 10_000 and views_loaded == "True"
