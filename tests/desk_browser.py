"""What the desk's browser tests share: a barcode scanner typing into the focused box."""


def scan(page, code: str) -> None:
    """What a USB barcode scanner does: type into the focused box, then Enter."""
    # A scanner types into whatever has the focus: wait for the page's box to have it (autofocus).
    page.wait_for_function("document.activeElement && document.activeElement.tagName === 'INPUT'")
    page.keyboard.type(code)
    with page.expect_navigation():
        page.keyboard.press("Enter")


def focused_id(page) -> str:
    """The id of what has the focus, once the page has placed it: Chromium applies `autofocus` while
    rendering, which may come just after the navigation's load event; a page that focuses nothing
    answers after a moment."""
    from playwright.sync_api import TimeoutError as PlaywrightTimeoutError

    try:
        page.wait_for_function(
            "document.activeElement && document.activeElement !== document.body", timeout=2000
        )
    except PlaywrightTimeoutError:
        pass
    return page.evaluate("document.activeElement && document.activeElement.id")
