"""The reference on a judge's phone with no signal: after a first visit, every current document opens
offline, styled; a page never saved says so in the site's own frame. (A stalled network, Data Saver and a
new build: test_offline_first.)

Offline is real here: the server is stopped, not emulated (a service worker's own requests ignore the
browser's offline emulation). The built site (read only) is served on a server of its own at phone size, 390×844,
with service workers allowed; the tests of what a saved phone opens share one phone and its first visit.
"""
from __future__ import annotations

import re

import pytest

from pipeline.bench.common import offline_set

from browser import PHONE, chromium_browser, console_errors, require_browser, served

pytestmark = pytest.mark.browser          # Chromium: outside the fast lane (make fast)

sync_api = require_browser()

SAVED = "() => document.documentElement.getAttribute('data-rk-offline') === 'saved'"
CACHE_NAMES = "() => caches.keys()"
CACHED_PATHS = """async () => {
  const names = await caches.keys();
  const paths = [];
  for (const name of names) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
  return paths;
}"""
browser = pytest.fixture(scope="module")(chromium_browser)


@pytest.fixture(scope="module")
def visited(browser, built_site):
    """(url, phone, what it says of its copy): a phone whose first visit saved the reference, its server then
    stopped (no signal from there on), shared by the tests of what it opens: a first visit is most of their time."""
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, service_workers="allow",
                                  has_touch=True, is_mobile=True)
    page = context.new_page()
    page.errors = console_errors(page)
    url, stop = served(built_site)
    try:
        mark = first_visit(page, url)
    finally:
        stop()
    yield url, page, mark
    context.close()


@pytest.fixture
def saved_phone(visited):
    """The visited phone, with the errors of this test alone; its network emulation off again after the test."""
    url, page, mark = visited
    page.errors.clear()
    yield url, page, mark
    page.context.set_offline(False)


def build_of(site) -> str:
    return re.search(r'const BUILD = "([^"]+)"', (site / "sw.js").read_text(encoding="utf-8")).group(1)


def first_visit(page, url: str) -> str:
    """Open the home page and wait for the service worker to save the reference; what the page says of it."""
    page.goto(url)
    page.wait_for_function(SAVED, timeout=60000)
    return page.locator(".rk-offline-mark").inner_text().strip()


def is_styled(page) -> bool:
    return page.evaluate("""() => {
      const header = document.querySelector('.md-header');
      const sheetsLoaded = [...document.styleSheets].some((sheet) => /main\\.[0-9a-f]+\\.min\\.css/.test(sheet.href || ''))
        && [...document.styleSheets].some((sheet) => /rulekb\\.css/.test(sheet.href || ''));
      return sheetsLoaded && !!header && getComputedStyle(header).position === 'sticky'
        && getComputedStyle(header).backgroundColor !== 'rgba(0, 0, 0, 0)';
    }""")


def test_the_first_visit_saves_every_current_document_and_it_opens_offline(saved_phone, built_site, frozen_corpus):
    url, phone, mark = saved_phone                 # no signal from here on
    assert re.fullmatch(r"Saved offline \(\d+\.\d\sMB, build of November 25, 2026\)", mark), mark
    megabytes = float(re.search(r"(\d+\.\d+)\sMB", mark).group(1))
    assert 0.5 < megabytes < 3.0                   # the whole current reference, compressed
    expected, _ = offline_set(built_site)          # the benchmark's figure is what a phone saves
    assert abs(megabytes - expected / 1e6) < 0.1, (megabytes, expected)
    assert phone.evaluate(CACHE_NAMES) == [f"rulekb-{build_of(built_site)}"]

    infractions = [section.number for section in frozen_corpus.document("ipg").sections if section.infraction]
    assert len(infractions) > 20
    for number in infractions:
        phone.goto(f"{url}ipg/{number}/")
        assert phone.locator("h1").first.inner_text().startswith(number), number
        assert phone.locator(".rk-penalty-path .rk-penalty-value").is_visible(), number
        assert is_styled(phone), number
    phone.goto(url + "cr/702/#702.19b")
    rule = phone.locator('[id="702.19b"]')
    assert "trample" in rule.inner_text().lower()
    assert phone.evaluate("() => { const r = document.getElementById('702.19b').getBoundingClientRect();"
                          " return r.top >= 0 && r.top < innerHeight; }")
    assert is_styled(phone)
    phone.goto(url + "penalties/")
    assert phone.locator("table.rk-penalties").first.is_visible() and is_styled(phone)

    # the search answers from the saved files too
    answer = phone.evaluate("() => window.rulekbSearch('trample')")
    assert answer["answer"]["results"][0]["id"] == "cr:702.19"
    assert phone.errors == [] or all("Failed to load resource" in error for error in phone.errors), phone.errors


def test_offline_every_page_linked_from_home_opens_and_the_header_says_offline(saved_phone):
    url, phone, _ = saved_phone
    phone.goto(url)
    links = phone.evaluate("""() => [...new Set([...document.querySelectorAll('a[href]')]
      .map((a) => a.href.split('#')[0]).filter((href) => href.startsWith(location.origin)))]""")
    phone.context.set_offline(True)
    assert len(links) > 15 and any("/changes/" in link for link in links), links
    for link in links:
        phone.goto(link)
        heading = phone.locator("h1").first
        assert heading.is_visible(), link
        assert heading.inner_text() != "Not saved offline yet", link
        assert is_styled(phone), link
    # "What changed" and the changes it lists: saved with the rest
    phone.goto(url + "changes/")
    changes = phone.locator(".rk-page a[href*='--']").evaluate_all("links => links.map((a) => a.href)")
    assert changes
    for change in changes:
        phone.goto(change)
        assert phone.locator("h1").first.inner_text() != "Not saved offline yet", change
    # near the top, not only in the footer: the phone is offline, the copy is saved
    phone.goto(url + "ipg/2.3/")
    status = phone.locator(".rk-offline-top")
    status.wait_for(state="visible")
    # it says "Offline" until the service worker has answered where the copy stands, never "not saved" meanwhile
    seen = phone.evaluate("""() => new Promise((done) => {
      const mark = document.querySelector('.rk-offline-top'), said = [mark.textContent];
      const watch = new MutationObserver(() => { said.push(mark.textContent);
        if (mark.textContent.endsWith('saved copy')) { watch.disconnect(); done(said); } });
      watch.observe(mark, {childList: true, characterData: true, subtree: true});
      if (said[0].endsWith('saved copy')) { watch.disconnect(); done(said); }
      setTimeout(() => { watch.disconnect(); done(said); }, 10000); })""")
    assert seen[-1] == "Offline \u00b7 saved copy" and "Offline \u00b7 not saved" not in seen, seen
    assert status.inner_text() == "Offline \u00b7 saved copy"
    assert status.bounding_box()["y"] < 60
    # over the site's name, not under it: what the phone shows at the status's words is the status
    on_top = status.evaluate("""(mark) => { const box = mark.getBoundingClientRect();
      return [0.25, 0.5, 0.75].every((x) => mark.contains(document.elementFromPoint(box.left + box.width * x,
                                                                                   box.top + box.height / 2))); }""")
    assert on_top, "the header's title paints over the offline status"
    assert phone.errors == [] or all("Failed to load resource" in error or "ERR_INTERNET_DISCONNECTED" in error
                                     for error in phone.errors), phone.errors


def test_a_page_never_saved_shows_the_offline_page_styled(saved_phone):
    url, phone, _ = saved_phone
    saved = phone.evaluate(CACHED_PATHS)
    assert "/history/cr/205/" not in saved         # histories are not part of the offline set
    phone.goto(url + "history/cr/205/")
    assert phone.locator("h1").first.inner_text() == "Not saved offline yet"
    assert "/history/cr/205/" in phone.locator(".rk-offline p").first.inner_text()
    assert is_styled(phone)
    assert phone.locator(".rk-offline .rk-search-open").is_visible()
    phone.locator(".rk-offline .rk-search-open").click()          # the search opens, offline
    box = phone.locator(".rk-search__input")
    box.wait_for(state="visible")
    box.fill("missed trigger")
    phone.wait_for_function("() => document.querySelector('.rk-search__results').getAttribute('data-query') === 'missed trigger'")
    assert phone.locator("a.rk-result").first.get_attribute("data-id") == "ipg:2.1"
    phone.locator(".rk-search__close").click()
    phone.locator('.rk-offline a[href="penalties/"]').click()     # and the penalty table is one tap away
    phone.wait_for_url("**/penalties/")
    assert phone.locator("table.rk-penalties").first.is_visible() and is_styled(phone)


def test_a_phone_saving_data_keeps_only_what_it_opens(browser, built_site):
    context = browser.new_context(viewport=PHONE, service_workers="allow", has_touch=True, is_mobile=True)
    context.add_init_script("Object.defineProperty(navigator, 'connection', {value: {saveData: true}})")
    page = context.new_page()
    url, stop = served(built_site)
    try:
        page.goto(url)
        page.wait_for_function("() => document.documentElement.getAttribute('data-rk-offline') === 'offered'",
                               timeout=30000)
        saved = page.evaluate(CACHED_PATHS)
        assert "/penalties/" in saved                 # what every visitor gets when the worker installs
        assert not any(path.startswith("/cr/7") for path in saved)
    finally:
        stop()
        context.close()

