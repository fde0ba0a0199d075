"""Addresses people type or share: `/cr/702.19b`, `/ipg/2.1`, `/mtr/3.3` (with or without the slash) land on
the rule on any static host; `/search/?q=GRV` opens the search with that question answered; the search
writes its question into the address, Back closes it, and it keeps the last question; a page not found
searches for the words of its address. Rule numbers as typed on a phone ("702,19", "702 19 b",
"cr702.19b") are read as numbers by the Python search and by the browser's worker alike.

The site is served twice: by rulekb's own server and by Python's http.server (a plain static host that
knows nothing of rulekb).
"""
from __future__ import annotations

import http.client
import json
import os
import subprocess
from urllib.parse import urlsplit

import pytest

from pipeline.search.engine import search
from pipeline.search.index import KnowledgeBase
from pipeline.search.question import as_number
from pipeline.site.publish import index_folder, published
from pipeline.site.shortcuts import NUMBERS, SHORTCUT

from browser import CHROMIUM, FLAGS, PHONE, console_errors, served
from conftest import ROOT, node_or_skip
from site_tools import serve as serve_static

# address typed -> (page it lands on, anchor)
TYPED = {
    "/cr/702.19b": ("/cr/702/", "702.19b"),
    "/cr/702.19b/": ("/cr/702/", "702.19b"),
    "/ipg/2.1": ("/ipg/2.1/", ""),
    "/ipg/2.1/": ("/ipg/2.1/", ""),
    "/mtr/3.3": ("/mtr/3/", "3.3"),
    "/mtr/3.3/": ("/mtr/3/", "3.3"),
    "/cr/100.1a": ("/cr/100/", "100.1a"),
}
# as typed on a phone -> the section it means
NUMBER_FORMS = {
    "702,19": "cr:702.19", "702.19 b": "cr:702.19b", "702 19 b": "cr:702.19b", "702 19b": "cr:702.19b",
    "cr702.19b": "cr:702.19b", "CR 702.19B": "cr:702.19b", "ipg2.1": "ipg:2.1", "mtr 3,3": "mtr:3.3",
    "rule 704 . 5 k": "cr:704.5k",
}


@pytest.fixture(scope="module")
def kb(built_site):
    knowledge_base = KnowledgeBase(index_folder(built_site, published(built_site)["generation"]))
    yield knowledge_base
    knowledge_base.close()


@pytest.fixture(scope="module", params=["rulekb serve", "http.server"])
def host(request, built_site):
    """The site's base URL, on rulekb's server or on a plain static host."""
    url, stop = (served if request.param == "rulekb serve" else serve_static)(built_site)
    yield url
    stop()


# -- what the build writes ------------------------------------------------------------------------

def test_every_current_number_without_a_page_has_an_address_of_its_own(built_site):
    numbers = json.loads((built_site / "assets" / "numbers.json").read_text(encoding="utf-8"))
    typed = json.loads((built_site / NUMBERS).read_text(encoding="utf-8"))
    shortcut = (built_site / SHORTCUT).stat()
    listed = {(page.split("/")[0], item.split("#")[0]) for page, items in typed.items() for item in items.split()}
    missing = []
    for key, link in numbers.items():
        if key.endswith(("appendix a", "appendix b", "appendix c", "appendix d", "appendix e", "appendix f")):
            continue
        folder, number = link.split("/")[0], key.split(" ", 1)[1]
        page = built_site / folder / number / "index.html"
        if not page.is_file():
            missing.append(f"{key}: no {page.relative_to(built_site)}")
        elif page.stat().st_ino == shortcut.st_ino and (folder, number) not in listed:
            missing.append(f"{key}: forwarded, but not in {NUMBERS}")
    assert not missing, missing[:10]
    # one file on disk for 3,000 addresses: each document's first number has a folder, the others link to it
    folders = {built_site / link.split("/")[0] / key.split(" ", 1)[1] for key, link in numbers.items()}
    linked = [folder for folder in folders if folder.is_symlink()]
    assert len(numbers) > 3000 and len(linked) > 3000
    assert all(not os.path.isabs(os.readlink(folder)) for folder in linked)        # the site can move
    held = {folder.resolve() for folder in linked}
    assert len(held) == len({folder.parent for folder in linked})                  # one a document
    assert all((folder / "index.html").stat().st_ino == shortcut.st_ino for folder in held)
    assert shortcut.st_size < 2000
    assert "702.19b" in typed["cr/702/"].split() and "3.3" in typed["mtr/3/"].split()
    assert not (built_site / "ipg" / "2.1" / "index.html").samefile(built_site / SHORTCUT)     # a page of its own


def test_the_search_page_is_written_with_a_form_for_no_javascript(built_site):
    page = (built_site / "search" / "index.html").read_text(encoding="utf-8")
    assert 'class="rk-search-page"' in page and 'name="q"' in page


@pytest.mark.parametrize("address", ["/cr/702.19b", "/mtr/3.3", "/search"])
def test_an_address_without_its_slash_is_sent_to_its_folder(host, address):
    """What a host does with a folder named without its slash (the contract any server must keep)."""
    parts = urlsplit(host)
    connection = http.client.HTTPConnection(parts.hostname, parts.port, timeout=30)
    connection.request("GET", address)
    response = connection.getresponse()
    response.read()
    assert response.status in (301, 302, 307, 308), response.status
    assert urlsplit(response.getheader("Location")).path == address + "/"
    connection.request("GET", address + "/")
    response = connection.getresponse()
    body = response.read().decode("utf-8")
    connection.close()
    assert response.status == 200 and response.getheader("Content-Type").startswith("text/html")
    assert "<script" in body


# -- number forms: the Python search --------------------------------------------------------------

@pytest.mark.parametrize("typed, wanted", NUMBER_FORMS.items())
def test_a_number_as_typed_on_a_phone_finds_its_rule_first(kb, typed, wanted):
    results = search(kb, typed, limit=5).results
    assert results and results[0].id == wanted, [result.id for result in results]


@pytest.mark.parametrize("typed", ["702, 704", "702 b", "2 hg", "702 19 b c"])
def test_what_only_looks_like_a_number_is_read_as_words(typed):
    assert as_number(typed) is None


# -- number forms: the browser's worker (under Node) ----------------------------------------------

@pytest.mark.node
def test_the_worker_reads_the_same_number_forms(built_site):
    node = node_or_skip("the worker tests")
    questions = "".join(json.dumps({"id": i + 1, "query": query, "limit": 5}) + "\n"
                        for i, query in enumerate(NUMBER_FORMS))
    done = subprocess.run([node, str(ROOT / "tests" / "worker_harness.js"),
                           str(ROOT / "pipeline" / "site" / "assets" / "search-worker.js"), str(built_site / "search")],
                          input=questions, capture_output=True, text=True, timeout=120, check=True)
    answers = {message["id"]: message["answer"] for message in map(json.loads, done.stdout.splitlines())}
    found = {query: [result["id"] for result in answers[i + 1]["results"]] for i, query in enumerate(NUMBER_FORMS)}
    wrong = {query: ids for query, ids in found.items() if not ids or ids[0] != NUMBER_FORMS[query]}
    assert not wrong, wrong


# -- in the browser -------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def browser():
    if not CHROMIUM.exists():
        if os.environ.get("RULEKB_REQUIRE_BROWSER"):
            pytest.fail("browser tests need Debian's chromium at /usr/bin/chromium", pytrace=False)
        pytest.skip("no /usr/bin/chromium on this machine: browser tests skipped")
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as playwright:
        launched = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
        yield launched
        launched.close()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=PHONE, service_workers="block", has_touch=True, is_mobile=True)
    opened = context.new_page()
    opened.errors = console_errors(opened)
    yield opened
    context.close()


def landed(page) -> tuple[str, str]:
    return urlsplit(page.url).path, urlsplit(page.url).fragment


@pytest.mark.parametrize("address", TYPED)
def test_a_typed_address_lands_on_its_rule(page, host, address):
    wanted_page, anchor = TYPED[address]
    page.goto(host.rstrip("/") + address)
    page.wait_for_url(lambda url: urlsplit(url).path == wanted_page, timeout=20000)
    assert landed(page) == (wanted_page, anchor)
    if anchor:
        rule = page.locator(f'[id="{anchor}"]')
        rule.wait_for()
        box = rule.bounding_box()
        assert box and 0 <= box["y"] < PHONE["height"], box        # in view: the page scrolled to it
    assert not page.errors, page.errors


def test_the_search_page_answers_the_question_in_its_address(page, host):
    page.goto(host + "search/?q=GRV")
    first = page.locator(".rk-search__results a.rk-result").first
    first.wait_for(timeout=20000)
    assert first.get_attribute("data-id") == "ipg:2.5"
    assert page.locator(".rk-search__input").input_value() == "GRV"
    assert page.evaluate("document.getElementById('rk-search').open")
    assert not page.errors, page.errors


def results_for(page, query: str) -> list[str]:
    page.wait_for_function("q => document.querySelector('.rk-search__results').getAttribute('data-query') === q",
                           arg=query, timeout=20000)
    return [link.get_attribute("data-id") for link in page.locator(".rk-search__results a.rk-result").all()]


def open_and_ask(page, query: str):
    page.locator(".md-header .rk-search-open").click()
    box = page.locator(".rk-search__input")
    box.fill(query)
    return results_for(page, query)


def test_the_question_is_in_the_address_and_back_closes_the_search(page, host):
    page.goto(host + "cr/702/")
    page.evaluate("window.sameDocument = true")
    open_and_ask(page, "slow play")
    assert urlsplit(page.url).path == "/search/" and "q=slow+play" in page.url    # shareable as it is
    page.go_back()
    page.wait_for_function("() => !document.getElementById('rk-search').open", timeout=10000)
    assert urlsplit(page.url).path == "/cr/702/"
    assert page.evaluate("window.sameDocument === true")          # the page stayed: only the search closed
    # closed by its button, the search's step leaves the history too: Back then leaves the page
    open_and_ask(page, "trample")
    page.locator(".rk-search__close").click()
    page.wait_for_function("() => location.pathname === '/cr/702/'", timeout=10000)
    assert not page.evaluate("document.getElementById('rk-search').open")
    assert not page.errors, page.errors


def test_reopening_the_search_keeps_the_last_question(page, host):
    page.goto(host + "penalties/")
    open_and_ask(page, "deathtouch")
    page.keyboard.press("Escape")
    page.wait_for_function("() => location.pathname === '/penalties/'", timeout=10000)
    page.goto(host + "mtr/")
    page.locator(".md-header .rk-search-open").click()
    assert page.locator(".rk-search__input").input_value() == "deathtouch"
    assert results_for(page, "deathtouch")[0] == "cr:702.2"       # answered again, not only written
    assert "q=deathtouch" in page.url


def test_a_result_elsewhere_comes_back_to_the_answers_and_one_here_jumps_to_its_rule(page, host):
    page.goto(host + "cr/702/")
    assert open_and_ask(page, "702.19b")[0] == "cr:702.19b"
    page.keyboard.press("Enter")                                  # on this page: to the rule, the search closed
    page.wait_for_function("() => location.hash === '#702.19b'", timeout=10000)
    assert urlsplit(page.url).path == "/cr/702/"
    assert not page.evaluate("document.getElementById('rk-search').open")
    assert page.evaluate("document.querySelector(':target') && document.querySelector(':target').id") == "702.19b"
    assert open_and_ask(page, "GRV")[0] == "ipg:2.5"
    page.locator(".rk-search__results a.rk-result").first.click()
    page.wait_for_url(lambda url: urlsplit(url).path == "/ipg/2.5/", timeout=20000)
    page.go_back()                                                 # to the answers, not past them
    page.wait_for_function("() => document.getElementById('rk-search').open", timeout=20000)
    assert page.locator(".rk-search__input").input_value() == "GRV"
    assert results_for(page, "GRV")[0] == "ipg:2.5"


def test_a_page_not_found_searches_for_the_words_of_its_address(page, built_site):
    """(On rulekb's server: a plain http.server does not answer with the site's 404 page; real hosts do.)"""
    host, stop = served(built_site)
    try:
        ask_the_page_not_found(page, host)
    finally:
        stop()


@pytest.mark.parametrize("address, anchor", [("cr-2025-11-14/702/", "702"), ("cr-2025-11-14/702/#702.19b", "702.19b"),
                                             ("cr-2025-11-14/702", "702"), ("cr-2025-11-14/702/index.html", "702")])
def test_an_older_editions_old_address_lands_on_its_reader_by_the_404_page(page, built_site, address, anchor):
    """An address an older edition's page had when it was current has no folder: the 404 page forwards it."""
    host, stop = served(built_site)
    try:
        page.goto(host + address)
        page.wait_for_function("() => location.pathname === '/cr-2025-11-14/'", timeout=10000)
        assert urlsplit(page.url).fragment == anchor
        assert page.locator("[data-edition]").count() >= 1          # the edition's reader, not the 404 page
        page.goto(host + "no-such-edition/702/")                    # not an edition: the 404 page stays
        assert urlsplit(page.url).path == "/no-such-edition/702/" and page.locator("#not-found").count() == 1
    finally:
        stop()


def ask_the_page_not_found(page, host: str) -> None:
    page.goto(host + "cr/702.19x")
    page.locator("#rk-main .rk-search-open").click()
    assert page.locator(".rk-search__input").input_value() == "cr 702.19x"
    results_for(page, "cr 702.19x")
    assert "There is no CR 702.19x" in page.locator(".rk-search__status").text_content()
    page.goto(host + "slow-play")
    page.locator("#rk-main .rk-search-open").click()
    assert "ipg:3.3" in results_for(page, "slow play")[:3]
