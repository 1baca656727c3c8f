"""Reading the settings from the environment: each helper returns a variable's value, or its default
when unset, and raises ImproperlyConfigured on a value it cannot read (ludotheque/settings.py uses
them; `environ=` lets a test pass its own)."""

import os
import re
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured

BASE_DIR = Path(__file__).resolve().parent.parent

TRUE_WORDS = {"1", "true", "yes", "on"}
FALSE_WORDS = {"0", "false", "no", "off", ""}


def env_bool(name: str, default: bool, environ=os.environ) -> bool:
    """Read a yes/no environment variable."""
    raw = environ.get(name)
    if raw is None:
        return default
    word = raw.strip().lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise ImproperlyConfigured(f"{name} must be true or false (1/0, yes/no, on/off), not {raw!r}.")


def env_int(name: str, default: int, environ=os.environ) -> int:
    """Read a non-negative integer environment variable."""
    raw = environ.get(name)
    if raw is None or raw.strip() == "":
        return default
    try:
        value = int(raw)
    except ValueError:
        raise ImproperlyConfigured(f"{name} must be a whole number, not {raw!r}.") from None
    if value < 0:
        raise ImproperlyConfigured(f"{name} must not be negative, not {raw!r}.")
    return value


def env_list(name: str, default: list[str], environ=os.environ) -> list[str]:
    """Read a comma-separated environment variable."""
    raw = environ.get(name)
    if raw is None:
        return default
    return [item.strip() for item in raw.split(",") if item.strip()]


# Every PostgreSQL session: no parallel workers or JIT for short queries, no synchronized scans (a
# search's facets read the same games on every reload); a DATABASE_URL's own `?options=` win.
POSTGRES_SESSION_OPTIONS = "-c max_parallel_workers_per_gather=0 -c jit=off -c synchronize_seqscans=off"


def database_from_url(url: str | None, base_dir: Path = BASE_DIR, statement_timeout: str = "") -> dict:
    """Turn DATABASE_URL into a DATABASES entry; no URL means a SQLite file under var/.

    `statement_timeout` ("5s", "800ms", "0" for none) bounds each PostgreSQL statement; the web
    processes set it (ludotheque/wsgi.py), the commands and the worker do not.
    """
    if statement_timeout and not re.fullmatch(r"[0-9]+(ms|s|min)?", statement_timeout):
        raise ImproperlyConfigured(
            f"DATABASE_STATEMENT_TIMEOUT must read like 5s, 800ms or 0 (none), not {statement_timeout!r}."
        )
    if not url:
        var_dir = base_dir / "var"
        var_dir.mkdir(exist_ok=True)
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": var_dir / "ludotheque.sqlite3"}
    parts = urlsplit(url)
    if parts.scheme == "sqlite":
        # sqlite:///relative/path or sqlite:////absolute/path, as dj-database-url reads them.
        path = parts.path[1:] if parts.path.startswith("/") else parts.path
        if not path:
            raise ImproperlyConfigured(
                "DATABASE_URL sqlite:// needs a file path, e.g. sqlite:///var/db.sqlite3."
            )
        return {"ENGINE": "django.db.backends.sqlite3", "NAME": base_dir / path}
    if parts.scheme in {"postgres", "postgresql", "pgsql"}:
        name = unquote(parts.path.lstrip("/"))
        if not name:
            raise ImproperlyConfigured(
                "DATABASE_URL must name a database, e.g. postgres://user@host:5432/ludotheque."
            )
        try:
            port = parts.port
        except ValueError:
            raise ImproperlyConfigured(f"DATABASE_URL has an invalid port: {url!r}.") from None
        options = dict(parse_qsl(parts.query))
        session = POSTGRES_SESSION_OPTIONS
        if statement_timeout:
            session += f" -c statement_timeout={statement_timeout}"
        options["options"] = f"{session} {options.get('options', '')}".strip()
        return {
            "ENGINE": "django.db.backends.postgresql",
            "NAME": name,
            "USER": unquote(parts.username or ""),
            "PASSWORD": unquote(parts.password or ""),
            "HOST": parts.hostname or "",
            "PORT": str(port or ""),
            "CONN_MAX_AGE": 60,
            "CONN_HEALTH_CHECKS": True,
            "OPTIONS": options,
        }
    raise ImproperlyConfigured(
        f"DATABASE_URL must start with postgres:// or sqlite://, not {parts.scheme or url!r}."
    )


def env_rate(name: str, default: str, environ=os.environ) -> str:
    """Read a throttle rate: a number of requests per second, minute, hour or day (`300/minute`)."""
    value = environ.get(name) or default
    if not re.fullmatch(r"[0-9]+/(second|minute|hour|day)", value):
        raise ImproperlyConfigured(
            f"{name} must read like 300/minute (per second, minute, hour or day), not {value!r}."
        )
    return value


def env_log_level(name: str, default: str, environ=os.environ) -> str:
    """Read a logging level name (DEBUG, INFO, WARNING, ERROR)."""
    value = (environ.get(name) or default).upper()
    if value not in {"DEBUG", "INFO", "WARNING", "ERROR", "CRITICAL"}:
        raise ImproperlyConfigured(f"{name} must be DEBUG, INFO, WARNING or ERROR, not {value!r}.")
    return value


def env_time_zone(name: str, default: str, environ=os.environ) -> str:
    """Read an IANA time zone name."""
    value = environ.get(name) or default
    try:
        ZoneInfo(value)
    except (ZoneInfoNotFoundError, ValueError):
        raise ImproperlyConfigured(
            f"{name} must be a time zone such as Europe/Brussels, not {value!r}."
        ) from None
    return value


def mailer_from_url(url: str | None, debug: bool) -> dict:
    """Turn EMAIL_URL into Django's default mailer; unset means the console in DEBUG, localhost:25 otherwise.

    smtp://user:password@host:587?tls=true (STARTTLS), smtps://user:password@host:465 (TLS from the
    start), console:// (print the messages); `?timeout=` seconds (30 by default).
    """
    smtp = "django.core.mail.backends.smtp.EmailBackend"
    console = {"BACKEND": "django.core.mail.backends.console.EmailBackend"}
    if not url:
        return (
            console
            if debug
            else {"BACKEND": smtp, "OPTIONS": {"host": "localhost", "port": 25, "timeout": 30}}
        )
    parts = urlsplit(url)
    if parts.scheme == "console":
        return console
    if parts.scheme not in {"smtp", "smtps"} or not parts.hostname:
        raise ImproperlyConfigured(
            f"EMAIL_URL must look like smtp://user:password@host:587?tls=true, smtps://… or console://, not {url!r}."
        )
    query = dict(parse_qsl(parts.query))
    starttls = env_bool("tls", False, environ=query)
    if parts.scheme == "smtps" and starttls:
        raise ImproperlyConfigured("EMAIL_URL: smtps:// is already encrypted, drop ?tls=true.")
    try:
        port = parts.port or (465 if parts.scheme == "smtps" else 587 if starttls else 25)
    except ValueError:
        raise ImproperlyConfigured(f"EMAIL_URL has an invalid port: {url!r}.") from None
    return {
        "BACKEND": smtp,
        "OPTIONS": {
            "host": parts.hostname,
            "port": port,
            "username": unquote(parts.username or ""),
            "password": unquote(parts.password or ""),
            "use_ssl": parts.scheme == "smtps",
            "use_tls": starttls,
            "timeout": env_int("timeout", 30, environ=query),
        },
    }


def env_choice(name: str, default: str, choices: dict[str, str], environ=os.environ) -> str:
    """Read a word among `choices` and return what it stands for."""
    raw = (environ.get(name) or default).strip().lower()
    if raw not in choices:
        raise ImproperlyConfigured(f"{name} must be one of {', '.join(choices)}, not {raw!r}.")
    return choices[raw]


def env_url(name: str, default: str, environ=os.environ) -> str:
    """Read an http(s) URL without a trailing slash."""
    value = (environ.get(name) or default).strip().rstrip("/")
    parts = urlsplit(value)
    if parts.scheme not in {"http", "https"} or not parts.netloc:
        raise ImproperlyConfigured(
            f"{name} must be an address such as https://ludo.example.org, not {value!r}."
        )
    return value
