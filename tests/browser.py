"""What the browser tests share: Debian's chromium through Playwright, at phone size; the site served as a
real host serves it (rulekb serve: the build's brotli or gzip forms, security headers).

In CI (RULEKB_REQUIRE_BROWSER=1) a missing browser fails the browser tests instead of skipping them;
on a developer's machine without /usr/bin/chromium they are skipped, and say so.
"""
from __future__ import annotations

import os
import threading
from pathlib import Path

import pytest

CHROMIUM = Path("/usr/bin/chromium")
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
         "--disable-background-networking", "--disable-component-update", "--disable-sync"]
PHONE = {"width": 390, "height": 844}


def require_browser():
    """Skip (or, in CI, fail) the calling test module when there is no browser."""
    if not CHROMIUM.exists():
        if os.environ.get("RULEKB_REQUIRE_BROWSER"):
            pytest.fail("browser tests need Debian's chromium at /usr/bin/chromium (apt-get install chromium)",
                        pytrace=False)
        pytest.skip("no /usr/bin/chromium on this machine: browser tests skipped (apt-get install chromium)",
                    allow_module_level=True)
    return pytest.importorskip("playwright.sync_api")


def served(site: Path):
    """The site served by rulekb's own server in a thread; (base url, stop). Stopping also closes the
    connections a browser keeps open, so that nothing more reaches the server: the phone lost its signal."""
    from pipeline.serve import Site, make_server
    server = make_server(Site(site), port=0)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop():
        server.shutdown()
        server.server_close()
    return f"http://127.0.0.1:{server.server_address[1]}/", stop


def chromium_browser():
    """One Chromium for a test module (the body of its `browser` fixture): launched once, closed after."""
    sync_api = require_browser()
    with sync_api.sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield browser
        browser.close()


def phone_page(browser):
    """A page at phone size, touch, service workers blocked, collecting console errors (the body of a
    module's `page` fixture): one context per test, closed after."""
    context = browser.new_context(viewport=PHONE, is_mobile=True, has_touch=True, service_workers="block")
    page = context.new_page()
    page.errors = console_errors(page)
    yield page
    context.close()


def console_errors(page) -> list:
    errors = []
    page.on("console", lambda message: errors.append(message.text) if message.type == "error" else None)
    page.on("pageerror", lambda error: errors.append(str(error)))
    return errors


def open_search(page, url: str):
    page.goto(url)
    page.locator(".rk-search-open").click()
    box = page.locator(".rk-search__input")
    box.wait_for(state="visible")
    return box


def type_question(page, box, query: str, delay: int = 35) -> list[str]:
    """Type a question as a person does; the ids of the results shown for it, once they are."""
    box.fill("")
    box.press_sequentially(query, delay=delay)
    return shown_results(page, query)


def ask_question(page, box, query: str) -> list[str]:
    """A question put into the search box all but its last letter at once (as a paste is), that letter typed;
    the ids of the results shown for it, once they are. For question sets: what a person sees while typing is
    type_question's."""
    box.fill(query[:-1])
    box.press_sequentially(query[-1:])
    return shown_results(page, query)


def shown_results(page, query: str) -> list[str]:
    """The ids of the results shown, once they are those of `query`."""
    page.wait_for_function("q => document.querySelector('.rk-search__results').getAttribute('data-query') === q",
                           arg=" ".join(query.split()), timeout=20000)
    return [link.get_attribute("data-id") for link in page.locator(".rk-search__results a.rk-result").all()]
