"""Accessibility checks with axe-core (npm, pinned in package-lock.json), injected into pages by Playwright.

`serious_violations(browser, urls, user=None)` opens each URL in Debian's Chromium on a phone-sized
screen, as `user` when given (logged in through a session cookie, whatever the login page looks like),
runs axe and returns the serious and critical violations by URL: `{url: ["rule: target…"]}`. A page
that only shows what matters after a click (a flash message after a scan) is driven in `axe_tab()`,
then checked with `page_violations(page)`.
"""

from contextlib import contextmanager
from pathlib import Path

from django.conf import settings
from django.test import Client

AXE = Path(__file__).resolve().parent.parent / "node_modules" / "axe-core" / "axe.min.js"
PHONE = {"width": 390, "height": 844}
SERIOUS = {"serious", "critical"}


def session_cookie(user, base_url: str) -> dict:
    client = Client()
    client.force_login(user)
    value = client.cookies[settings.SESSION_COOKIE_NAME].value
    return {"name": settings.SESSION_COOKIE_NAME, "value": value, "url": base_url}


@contextmanager
def axe_tab(browser, *, base_url: str, user=None, viewport=PHONE):
    """A tab where axe can be injected, logged in as `user` when given: drive it, then `page_violations()`."""
    if not AXE.exists():
        raise AssertionError(f"{AXE} is missing: run `npm ci` (scripts/test.sh does).")
    # axe is injected as an inline script, which the site's Content-Security-Policy rightly refuses:
    # this context alone bypasses it (the pages' own scripts still run as served).
    context = browser.new_context(locale="fr-BE", viewport=viewport, bypass_csp=True)
    try:
        if user is not None:
            context.add_cookies([session_cookie(user, base_url)])
        yield context.new_page()
    finally:
        context.close()


def page_violations(page) -> list[str]:
    """Run axe on the page as it is now; its serious and critical violations (empty: none)."""
    page.add_script_tag(path=str(AXE))
    result = page.evaluate(
        "axe.run(document, {resultTypes: ['violations'], runOnly: ['wcag2a', 'wcag2aa', 'best-practice']})"
    )
    return [
        f"{violation['id']} ({violation['impact']}): "
        + ", ".join(" ".join(node["target"]) for node in violation["nodes"][:5])
        for violation in result["violations"]
        if violation["impact"] in SERIOUS
    ]


def serious_violations(browser, urls: list[str], *, base_url: str, user=None, viewport=PHONE) -> dict:
    """Run axe on each page; the serious and critical violations found, by URL (empty: none)."""
    found = {}
    with axe_tab(browser, base_url=base_url, user=user, viewport=viewport) as page:
        for url in urls:
            response = page.goto(base_url + url)
            assert response is not None and response.ok, f"{url} answered {response and response.status}"
            if problems := page_violations(page):
                found[url] = problems
    return found
