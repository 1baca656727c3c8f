"""Django settings for Ludothèque, configured by environment variables.

Every value comes from the environment through the helpers of ludotheque/environment.py, which raise
ImproperlyConfigured on a value they cannot read. With nothing set, the site runs in DEBUG on a
SQLite file under var/ so a newcomer's first run needs no database server.
"""

import os
from datetime import timedelta
from pathlib import Path

from django.core.exceptions import ImproperlyConfigured
from django.utils.csp import CSP

from ludotheque.environment import (
    database_from_url,
    env_bool,
    env_choice,
    env_int,
    env_list,
    env_log_level,
    env_rate,
    env_time_zone,
    env_url,
    mailer_from_url,
)

BASE_DIR = Path(__file__).resolve().parent.parent

TASK_BACKENDS = {
    # Runs each task at once, in the process that enqueued it: development, tests, the demo.
    "immediate": "django.tasks.backends.immediate.ImmediateBackend",
    # Stores tasks in the database for `manage.py db_worker` to run (django-tasks-db): production.
    "database": "django_tasks_db.DatabaseBackend",
}


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
    ("close_date_bookings", "loans.bookings.bookings_close_uncollected"),
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
