"""Django settings for Ludothèque, configured by environment variables.

Every value comes from the environment through the small helpers below, which raise
ImproperlyConfigured on a value they cannot read. With nothing set, the site runs in DEBUG on a
SQLite file under var/ so a newcomer's first run needs no database server.
"""

import os
import re
from datetime import timedelta
from pathlib import Path
from urllib.parse import parse_qsl, unquote, urlsplit
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

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


TASK_BACKENDS = {
    # Runs each task at once, in the process that enqueued it: development, tests, the demo.
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
    # Stores tasks in the database for `manage.py db_worker` to run (django-tasks-db): production.
    "database": "django_tasks_db.DatabaseBackend",
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


DEBUG = env_bool("DEBUG", True)

SECRET_KEY = os.environ.get("SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("SECRET_KEY must be set when DEBUG is off.")
    SECRET_KEY = "django-insecure-development-key-only-for-a-first-run-on-a-laptop"

ALLOWED_HOSTS = env_list("ALLOWED_HOSTS", ["127.0.0.1", "localhost", "[::1]"] if DEBUG else [])
CSRF_TRUSTED_ORIGINS = env_list("CSRF_TRUSTED_ORIGINS", [])
for origin in CSRF_TRUSTED_ORIGINS:
    if "://" not in origin:
        raise ImproperlyConfigured(f"CSRF_TRUSTED_ORIGINS entries need a scheme (https://…), not {origin!r}.")

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "whitenoise.runserver_nostatic",
    "django.contrib.staticfiles",
    "django.contrib.postgres",
    "django.forms",
    "rest_framework",
    "rest_framework.authtoken",
    "axes",
    "django_filters",
    "drf_spectacular",
    "drf_spectacular_sidecar",
    "django_tasks_db",
    "sorl.thumbnail",
    "catalogue",
    "opening",
    "rules",
    "members",
    "loans",
    "ledger",
    "events",
    "notices",
    "inventory",
    "repairs",
    "onsite",
    "privacy",
    "once",
    "ludobus",
    "kits",
    "report",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "whitenoise.middleware.WhiteNoiseMiddleware",
    # Below whitenoise (static files come compressed): pages and API gzipped, with BREACH mitigation.
    "django.middleware.gzip.GZipMiddleware",
    # Below GZipMiddleware: the ETag is the content's, not its random gzip's, so an unchanged GET is a 304.
    "django.middleware.http.ConditionalGetMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    # NUL bytes, over-long values: a 400 in the visitor's language (so below Locale and Auth).
    "ludotheque.badinput.BadInputMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "django.middleware.csp.ContentSecurityPolicyMiddleware",
    # A statement cut off by DATABASE_STATEMENT_TIMEOUT: a 503 that says so, not the 500 page.
    "ludotheque.timeouts.StatementTimeoutMiddleware",
    # Last, as django-axes requires: it answers a locked-out login with the lockout page.
    "axes.middleware.AxesMiddleware",
]

ROOT_URLCONF = "ludotheque.urls"
WSGI_APPLICATION = "ludotheque.wsgi.application"
TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            # `elide`: « Compte d'Alex », not « Compte de Alex » (ludotheque/french.py).
            "builtins": ["ludotheque.french"],
            "context_processors": [
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
                "django.template.context_processors.csp",
            ],
        },
    },
]
FORM_RENDERER = "ludotheque.forms.FormRenderer"  # widgets via TEMPLATES, labels per ludotheque/forms.py

DATABASES = {
    "default": database_from_url(
        os.environ.get("DATABASE_URL"),
        statement_timeout=os.environ.get("DATABASE_STATEMENT_TIMEOUT", ""),
    )
}
# The busiest reads prepared once per session (ludotheque/prepared.py); off behind a transaction-mode pooler.
PREPARED_READS = env_bool("PREPARED_READS", True)
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]
# django-axes checks each login attempt first, for the site's login page and the admin's alike.
AUTHENTICATION_BACKENDS = [
    "axes.backends.AxesStandaloneBackend",
    # A username, or a family's e-mail address or card number (members/accounts.py).
    "members.accounts.FamilyLoginBackend",
]
LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "home"
LOGOUT_REDIRECT_URL = "home"

# French first; English through LocaleMiddleware (cookie or Accept-Language).
LANGUAGE_CODE = "fr"
LANGUAGES = [("fr", "Français"), ("en", "English")]
LOCALE_PATHS = [BASE_DIR / "locale"]
USE_I18N = True
# The site's own date formats per language (ludotheque/formats/): English keeps the European 25/11/2026.
FORMAT_MODULE_PATH = ["ludotheque.formats"]
TIME_ZONE = env_time_zone("TIME_ZONE", "Europe/Brussels")
USE_TZ = True

STATIC_URL = "/static/"
STATIC_ROOT = BASE_DIR / "staticfiles"
STATICFILES_DIRS = [BASE_DIR / "static"]
MEDIA_URL = "/media/"
MEDIA_ROOT = Path(os.environ.get("MEDIA_ROOT", BASE_DIR / "var" / "media"))
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {
        "BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"
        if DEBUG
        else "whitenoise.storage.CompressedManifestStaticFilesStorage"
    },
}

# Box pictures' thumbnails (sorl-thumbnail): made on first display under MEDIA_ROOT/cache/, WebP.
THUMBNAIL_FORMAT = "WEBP"
THUMBNAIL_QUALITY = 70
THUMBNAIL_UPSCALE = False

# Production hardening: on whenever DEBUG is off, each overridable from the environment.
SECURE_SSL_REDIRECT = env_bool("SECURE_SSL_REDIRECT", not DEBUG)
SESSION_COOKIE_SECURE = env_bool("SESSION_COOKIE_SECURE", not DEBUG)
CSRF_COOKIE_SECURE = env_bool("CSRF_COOKIE_SECURE", not DEBUG)
SECURE_HSTS_SECONDS = env_int("SECURE_HSTS_SECONDS", 0 if DEBUG else 31536000)
SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("SECURE_HSTS_INCLUDE_SUBDOMAINS", not DEBUG)
SECURE_HSTS_PRELOAD = env_bool("SECURE_HSTS_PRELOAD", not DEBUG)
# Reverse proxies in front, each appending to X-Forwarded-For, read for the client (api.client_ip).
PROXY_COUNT = env_int("PROXY_COUNT", 0)
if env_bool("SECURE_PROXY_SSL_HEADER", False):
    # Behind a reverse proxy that terminates TLS and sets X-Forwarded-Proto.
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")

# Logins: three counts of failures, kept in the database, each locking what it counts (LoginFailures).
AXES_HANDLER = "ludotheque.login.LoginFailures"
AXES_FAILURE_LIMIT = env_int("LOGIN_FAILURE_LIMIT", 10)
LOGIN_WIDE_FACTOR = env_int("LOGIN_WIDE_FACTOR", 5)
AXES_COOLOFF_TIME = timedelta(minutes=env_int("LOGIN_COOLOFF_MINUTES", 15))
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "username", "ip_address"]  # LoginFailures' order
AXES_RESET_ON_SUCCESS = True
# A family at its limit adds no more to its address's count however long it keeps typing.
AXES_RESET_COOL_OFF_ON_FAILURE_DURING_LOCKOUT = False
AXES_LOCKOUT_CALLABLE = "ludotheque.login.locked_out"
AXES_CLIENT_IP_CALLABLE = "ludotheque.api.client_ip"
# A family may type its e-mail or card number: failures count against the one account either way.
AXES_USERNAME_CALLABLE = "members.accounts.axes_username"
AXES_DISABLE_ACCESS_LOG = True  # no log of successful logins: nothing the library needs to keep
AXES_VERBOSE = False

# The API's throttles (ludotheque/api.py) per client address or account, counted in each worker's cache.
API_THROTTLE_RATES = {
    "anon": env_rate("API_THROTTLE_ANON", "600/minute"),
    "user": env_rate("API_THROTTLE_USER", "1200/minute"),
    "rules": env_rate("API_THROTTLE_RULES", "300/minute"),
}
# Password reset requests (members/passwords.py), per client address and per login typed.
PASSWORD_RESET_RATES = {
    "address": env_rate("PASSWORD_RESET_PER_ADDRESS", "20/hour"),
    "login": env_rate("PASSWORD_RESET_PER_LOGIN", "3/hour"),
}

MAILERS = {"default": mailer_from_url(os.environ.get("EMAIL_URL"), DEBUG)}
DEFAULT_FROM_EMAIL = os.environ.get("DEFAULT_FROM_EMAIL", "Ludothèque <ludotheque@localhost>")
SERVER_EMAIL = DEFAULT_FROM_EMAIL
# Closed loans, holds and notices lose their family after this many months (run_daily: anonymise_history).
HISTORY_RETENTION_MONTHS = env_int("HISTORY_RETENTION_MONTHS", 24)
# The daily run's steps in order (run_daily): each takes `today=`, may run twice, returns a report.
DAILY_STEPS = [
    ("expire_holds", "loans.holds.holds_expire_past_pickup"),
    ("send_notices", "notices.services.notices_send"),
    ("anonymise_history", "privacy.services.history_anonymise"),
    ("count_popularity", "loans.popularity.popularity_count"),
]
# The link of an invitation or a password reset e-mail works for this long (Django's setting, in seconds).
PASSWORD_RESET_TIMEOUT = env_int("PASSWORD_RESET_DAYS", 7) * 24 * 3600
# The site's public address, for the links in e-mails and calendar feeds (no request to read it from).
SITE_URL = env_url("SITE_URL", "http://127.0.0.1:8000")
# Work outside web requests (sending the notices' e-mails): django.tasks, TASKS_BACKEND=immediate|database.
TASKS = {"default": {"BACKEND": env_choice("TASKS_BACKEND", "immediate", TASK_BACKENDS)}}

REST_FRAMEWORK = {
    "DEFAULT_PARSER_CLASSES": [
        "ludotheque.api.JSONParser",
        "rest_framework.parsers.FormParser",
        "rest_framework.parsers.MultiPartParser",
    ],
    "DEFAULT_AUTHENTICATION_CLASSES": [
        "rest_framework.authentication.SessionAuthentication",
        "rest_framework.authentication.TokenAuthentication",
    ],
    "DEFAULT_PERMISSION_CLASSES": ["rest_framework.permissions.IsAuthenticatedOrReadOnly"],
    "DEFAULT_THROTTLE_CLASSES": ["ludotheque.api.AnonThrottle", "ludotheque.api.UserThrottle"],
    "NUM_PROXIES": PROXY_COUNT,
    "DEFAULT_FILTER_BACKENDS": ["django_filters.rest_framework.DjangoFilterBackend"],
    "DEFAULT_PAGINATION_CLASS": "rest_framework.pagination.PageNumberPagination",
    "PAGE_SIZE": 20,
    "DEFAULT_SCHEMA_CLASS": "drf_spectacular.openapi.AutoSchema",
}
SPECTACULAR_SETTINGS = {
    "TITLE": "Ludothèque API",
    "DESCRIPTION": "Catalogue, prêts et moteur de règles de la ludothèque.",
    "VERSION": "1.0.0",
    "SERVE_INCLUDE_SCHEMA": False,
    # Swagger UI assets come from drf-spectacular-sidecar, served by whitenoise: no CDN.
    "SWAGGER_UI_DIST": "SIDECAR",
    "SWAGGER_UI_FAVICON_HREF": "SIDECAR",
    "REDOC_DIST": "SIDECAR",
    "ENUM_NAME_OVERRIDES": {
        "BookingStatusEnum": "events.models.Booking.Status",
        "CopyStatusEnum": "catalogue.models.Copy.Status",
    },
}

# Every unhandled exception (a 500) is logged to stderr and mailed to ADMINS when set (comma-separated).
ADMINS = env_list("ADMINS", [])
LOG_LEVEL = env_log_level("LOG_LEVEL", "WARNING")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {"plain": {"format": "{asctime} {levelname} {name}: {message}", "style": "{"}},
    "filters": {"require_debug_false": {"()": "django.utils.log.RequireDebugFalse"}},
    "handlers": {
        "stderr": {"class": "logging.StreamHandler", "formatter": "plain"},
        "mail_admins": {
            "class": "django.utils.log.AdminEmailHandler",
            "level": "ERROR",
            "filters": ["require_debug_false"],
        },
    },
    "root": {"handlers": ["stderr"], "level": LOG_LEVEL},
    "loggers": {
        # Django's request errors (500s with their traceback, 4xx as warnings) and security events;
        # mail_admins sends the errors, and nothing while ADMINS is empty.
        "django": {"handlers": ["stderr", "mail_admins"], "level": LOG_LEVEL, "propagate": False},
        "django.server": {"handlers": ["stderr"], "level": "INFO", "propagate": False},
    },
}

# Content-Security-Policy: this site only, no inline script or style, no plugin, no framing (docs/operations.md).
SECURE_CSP = {
    "default-src": [CSP.SELF],
    "script-src": [CSP.SELF],
    "style-src": [CSP.SELF],
    "img-src": [CSP.SELF, "data:"],
    "object-src": [CSP.NONE],
    "base-uri": [CSP.NONE],
    "form-action": [CSP.SELF],
    "frame-ancestors": [CSP.NONE],
}

# Benchmarks only: each response says how long it spent in SQL (ludotheque/timing.py).
if env_bool("SERVER_TIMING", False):
    MIDDLEWARE.insert(0, "ludotheque.timing.ServerTimingMiddleware")
