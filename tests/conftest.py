"""Shared people and tools for the test suite: a staff member, an outsider, a real browser."""

import os
import re
from html import unescape
from io import BytesIO

import pytest
from django.conf import settings
from django.contrib.auth import get_user_model
from django.db.backends.signals import connection_created

CHROMIUM = "/usr/bin/chromium"
# Flags for a root, offline sandbox: no sandbox, no background calls to Google's hosts.
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
PASSWORD = "motdepasse-de-test-42"
# `.ci/run` sets this: there a browser test that cannot run is a failure, not a skip.
BROWSERS_REQUIRED = os.environ.get("LUDO_BROWSERS_REQUIRED") == "1"


def pytest_configure(config):
    """Hash the tests' passwords with the fastest hasher: what they test is who may log in, not PBKDF2."""
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]


# The files whose tests take the longest, longest first. `scripts/test.sh` hands out the tests in
# this order (`--dist worksteal`): one worker starts the month while the others share the rest, and no
# worker is left alone with a long test at the end. A slower file added later only needs its line here.
LONGEST_FIRST = [
    "test_year_simulation.py",
    "test_first_run.py",
    "test_api_schema_fuzz.py",
    "test_french_wording.py",
    "test_family_search_browser.py",
    "test_desk_accessibility_browser.py",
    "test_statement_timeout.py",
    "test_search_browser.py",
    "test_loan_demo.py",
    "test_money_in_cents.py",
]


def start_the_longest_first(items) -> None:
    rank = {name: position for position, name in enumerate(LONGEST_FIRST)}
    items.sort(key=lambda item: rank.get(item.path.name, len(rank)))  # stable: the rest keep their order


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    """Where browsers are required, a browser test that was skipped (for any reason) fails instead."""
    report = yield
    if BROWSERS_REQUIRED and report.skipped and item.get_closest_marker("browser"):
        report.outcome = "failed"
        report.longrepr = f"a browser test was skipped where browsers are required: {report.longrepr}"
    return report


def pytest_collection_modifyitems(config, items):
    """The longest tests first; skip the tests marked `postgresql` on another database, saying why."""
    start_the_longest_first(items)
    engine = settings.DATABASES["default"]["ENGINE"]
    if engine.endswith("postgresql"):
        return
    skip = pytest.mark.skip(reason=f"needs PostgreSQL; this run uses {engine.rsplit('.', 1)[-1]}")
    for item in items:
        if item.get_closest_marker("postgresql"):
            item.add_marker(skip)


def _allow_the_flush(sender, connection, **kwargs) -> None:
    """The test runner empties every table between transactional tests; the ledger's refuse TRUNCATE
    to any session that does not say it is the runner's (ludotheque/history.py)."""
    if connection.vendor == "postgresql":
        from ludotheque.history import ALLOW_TRUNCATE

        with connection.cursor() as cursor:
            cursor.execute(ALLOW_TRUNCATE)


connection_created.connect(_allow_the_flush)


@pytest.fixture(autouse=True)
def fresh_throttles():
    """Each test starts with no API call counted: the throttles' counters live in the cache."""
    from django.core.cache import cache

    cache.clear()


@pytest.fixture(autouse=True)
def default_language():
    """Each test starts in French: a request in English leaves its language active in the thread."""
    from django.utils import translation

    translation.activate(settings.LANGUAGE_CODE)
    yield
    translation.activate(settings.LANGUAGE_CODE)


@pytest.fixture
def staff_user(db):
    """A librarian: staff, may use the desk and the admin."""
    user = get_user_model().objects.create_user(
        "bibliothecaire", email="biblio@example.org", password=PASSWORD, is_staff=True
    )
    user.raw_password = PASSWORD
    return user


@pytest.fixture
def outsider(db):
    """A logged-in user who is neither staff nor a member family."""
    user = get_user_model().objects.create_user("passant", email="passant@example.org", password=PASSWORD)
    user.raw_password = PASSWORD
    return user


@pytest.fixture(scope="session")
def browser():
    """Debian's Chromium driven by Playwright; never a downloaded browser.

    Without it the browser tests are skipped with the reason on a developer's machine, and fail in CI.
    """
    if not os.path.exists(CHROMIUM):
        pytest.skip(f"{CHROMIUM} is missing: install Debian's chromium package (apt-get install chromium).")
    # Playwright's sync API runs an event loop in this thread; the ORM calls the tests make between
    # browser steps are still plain synchronous calls.
    os.environ.setdefault("DJANGO_ALLOW_ASYNC_UNSAFE", "true")
    from playwright.sync_api import sync_playwright

    with sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS, headless=True)
        yield chromium
        chromium.close()


@pytest.fixture
def page(browser):
    """A fresh browser tab in French, closed after the test.

    Anything the Content-Security-Policy blocked (an inline script or style, a foreign asset) fails
    the test: every browser test also proves its pages work under the policy.
    """
    context = browser.new_context(locale="fr-BE")
    tab = context.new_page()
    blocked: list[str] = []
    tab.on(
        "console",
        lambda message: blocked.append(message.text) if "Content Security Policy" in message.text else None,
    )
    yield tab
    context.close()
    assert not blocked, f"blocked by the Content-Security-Policy: {blocked}"


def text_of(response) -> str:
    """What a reader sees: the page's text without scripts, styles or tags, entities decoded, spaces collapsed."""
    html = re.sub(r"<(script|style)\b.*?</\1>", " ", response.content.decode(), flags=re.DOTALL)
    return " ".join(unescape(re.sub(r"<[^>]+>", " ", html)).split())


def pdf_page_count(pdf: bytes) -> int:
    """Count the pages of a PDF document."""
    from pypdf import PdfReader

    return len(PdfReader(BytesIO(pdf)).pages)


@pytest.fixture
def print_to_pdf(page):
    """Open a URL in Chromium and print it to an A4 PDF, as a browser's print dialog would."""

    def render(url: str) -> bytes:
        response = page.goto(url)
        assert response is not None and response.ok, f"{url} answered {response and response.status}"
        page.emulate_media(media="print")
        return page.pdf(format="A4", prefer_css_page_size=True)

    return render
