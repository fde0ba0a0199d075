"""The built site on a plain static host, with nothing of rulekb running: Python's http.server serves the
build's output as it is (README: "Publishing the site"). Every page reached from the home page, and every page,
stylesheet, script and file each one links to, answers; the search box answers a misspelt question from the
search files; after a first visit the reference opens with the host gone.
"""
from __future__ import annotations

import hashlib
import http.client
from collections import deque
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

import pytest

from browser import CHROMIUM, FLAGS, PHONE, console_errors, open_search, require_browser, type_question
from site_tools import _Collector
from site_tools import serve as serve_static

SAVED = "() => document.documentElement.getAttribute('data-rk-offline') === 'saved'"


@pytest.fixture(scope="module")
def host(built_site):
    url, stop = serve_static(built_site)
    yield url
    stop()


def fetch(address: tuple[str, int], path: str) -> tuple[int, str, bytes]:
    """(status, content type, body) of a GET on the static host."""
    connection = http.client.HTTPConnection(*address, timeout=30)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        return response.status, response.getheader("Content-Type", ""), response.read()
    finally:
        connection.close()


@pytest.mark.slow          # every page of the site over HTTP (test_site checks every link from the files)
def test_every_page_reached_from_home_and_everything_it_links_to_answers_on_a_static_host(host):
    parts = urlsplit(host)
    address = (parts.hostname, parts.port)
    parsed: dict[str, _Collector] = {}            # a page's bytes (by hash) -> its links: linked copies parsed once
    seen, queue, broken, pages = {"/"}, deque(["/"]), [], 0
    while queue:
        path = queue.popleft()
        status, kind, body = fetch(address, path)
        if status != 200:
            broken.append(f"{path}: {status}")
            continue
        if not kind.startswith("text/html"):
            continue
        pages += 1
        key = hashlib.sha256(body).hexdigest()
        if key not in parsed:
            parsed[key] = _Collector()
            parsed[key].feed(body.decode("utf-8"))
        for link in parsed[key].links + parsed[key].resources:
            target = urlsplit(urljoin(path, link))
            if target.scheme not in ("", "http") or (target.netloc and target.netloc != parts.netloc) \
                    or link.startswith(("mailto:", "javascript:", "data:")):
                continue
            if target.path not in seen:
                seen.add(target.path)
                queue.append(target.path)
    assert not broken, broken[:20]
    assert pages > 300 and len(seen) > pages          # every current page, older editions, and their files
    assert {"/cr/702/", "/ipg/2.1/", "/penalties/", "/search-tips/"} <= {unquote(path) for path in seen}


@pytest.fixture(scope="module")
def browser():
    sync_api = require_browser()
    with sync_api.sync_playwright() as playwright:
        chromium = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield chromium
        chromium.close()


def test_the_search_answers_a_misspelt_question_on_a_static_host(browser, host, tmp_path):
    page = browser.new_page(viewport=PHONE)
    search_files = []                          # (status, path) of what the search fetched: its worker and files
    page.on("response", lambda response: search_files.append((response.status, urlsplit(response.url).path))
            if "/search/" in response.url and response.url.endswith((".json", ".js")) else None)
    errors = console_errors(page)
    try:
        box = open_search(page, host)
        ids = type_question(page, box, "trampel")
        assert ids[:1] == ["cr:702.19"], ids
        assert page.locator(".rk-search__suggestion").inner_text() == "trample"
        shots = Path("/tmp/shots/issue20")
        if shots.is_dir():                       # for a person to look at, when asked for
            page.screenshot(path=str(shots / "static-host-search.png"))
        page.locator(".rk-search__results a.rk-result").first.click()
        page.wait_for_url("**/cr/702/**")
        assert "Trample" in page.locator('[id="702.19"]').inner_text()
        assert search_files and all(status == 200 for status, _ in search_files), search_files
        assert {"/search/manifest.json", "/search/worker.js"} <= {path for _, path in search_files}
        assert not [error for error in errors if "Failed to load resource" not in error], errors
    finally:
        page.close()


def test_after_a_first_visit_the_reference_opens_with_the_static_host_gone(browser, built_site):
    url, stop = serve_static(built_site)
    context = browser.new_context(viewport=PHONE, service_workers="allow")
    page = context.new_page()
    try:
        page.goto(url)
        page.wait_for_function(SAVED, timeout=60000)
        stop()                                   # the host is gone (stopping twice does nothing)
        page.goto(url + "ipg/2.1/")
        assert page.locator("h1").first.inner_text().startswith("2.1")
        answer = page.evaluate("() => window.rulekbSearch('misssed triger')")
        assert answer["answer"]["results"][0]["id"] == "ipg:2.1", answer
    finally:
        context.close()
        stop()
