"""The translated pages on a phone: the rule in the language, the English one tap away, the search box
answering a Chinese question, the language chosen remembered."""
from __future__ import annotations

import re

import pytest

from browser import PHONE, ask_question, chromium_browser, open_search, phone_page, served

browser = pytest.fixture(scope="module")(chromium_browser)


@pytest.fixture(scope="module")
def site_url(built_site):
    url, stop = served(built_site)
    yield url
    stop()


page = pytest.fixture(phone_page)


def test_a_translated_rule_shows_its_english_on_a_tap(page, site_url):
    page.goto(site_url + "zh/cr/702/#702.19b")
    rule = page.locator('section.rk-tr-rule:has([id="702.19b"])')
    assert "具有践踏的攻击生物" in rule.locator(".rk-tr-text").inner_text()
    english = rule.locator("details.rk-en")
    assert not english.evaluate("element => element.open")
    english.locator("summary").tap()
    assert "The controller of an attacking creature with trample" in english.inner_text()
    assert page.evaluate("w => document.documentElement.scrollWidth <= w", PHONE["width"])
    assert not page.errors


def test_a_typed_address_in_the_language_lands_on_the_rule(page, site_url):
    page.goto(site_url + "zh/cr/702.19b")
    page.wait_for_url("**/zh/cr/702/#702.19b")
    assert page.locator('[id="702.19b"]').is_visible()


def test_the_search_box_answers_a_chinese_question(page, site_url):
    box = open_search(page, site_url + "zh/cr/702/")
    assert ask_question(page, box, "践踏")[:2] == ["cr:702.19", "cr:702.19a"]
    assert not page.errors


def test_the_language_chosen_is_remembered(page, site_url):
    page.goto(site_url + "cr/704/")
    page.locator('a[data-rk-language="zh"]').first.click()
    page.wait_for_url("**/zh/cr/704/")
    page.goto(site_url + "cr/702/#702.19b")
    page.wait_for_url("**/zh/cr/702/#702.19b")
    page.locator('.rk-unofficial a[data-rk-language="en"]').click()
    page.wait_for_url("**/cr/702/")
    assert "/zh/" not in page.url and page.evaluate("localStorage.getItem('rk-language')") == "en"


SAVED_OR_FAILED = "() => ['saved', 'failed'].includes(document.documentElement.getAttribute('data-rk-offline'))"
CACHED_PATHS = """async () => {
  const paths = [];
  for (const name of await caches.keys()) for (const request of await (await caches.open(name)).keys()) paths.push(new URL(request.url).pathname);
  return paths;
}"""


def test_the_phone_saves_the_language_chosen_and_only_it(browser, built_site):
    from pipeline.bench.common import offline_set
    from pipeline.site.offline_figures import language_sizes
    english_bytes, _ = offline_set(built_site)
    chinese_bytes = language_sizes(built_site)["zh"]
    assert chinese_bytes > 100_000
    url, stop = served(built_site)
    phones = {}
    try:
        for choice in ("en", "zh"):
            context = browser.new_context(viewport=PHONE, service_workers="allow", has_touch=True, is_mobile=True)
            if choice != "en":       # the reader chose the language on an earlier visit
                context.add_init_script(f"localStorage.setItem('rk-language', '{choice}')")
            phone = context.new_page()
            phone.goto(url + "cr/")      # the home page: not sent on to the language's own
            phone.wait_for_function(SAVED_OR_FAILED, timeout=180000)
            assert phone.evaluate("() => document.documentElement.getAttribute('data-rk-offline')") == "saved", choice
            phones[choice] = phone
    finally:
        stop()                                     # no signal from here on
    english, chinese = phones["en"], phones["zh"]
    # the English reader's phone saves no page of the translation, and says the English size
    assert not [path for path in english.evaluate(CACHED_PATHS) if path.startswith("/zh/")]
    mark = english.locator(".rk-offline-mark").inner_text()
    assert re.search(r"\((\d+\.\d)\sMB", mark).group(1) == f"{english_bytes / 1e6:.1f}", mark
    # the Chinese reader's: every page of the translation opens offline, and its search answers
    saved = chinese.evaluate(CACHED_PATHS)
    assert "/zh/cr/702/" in saved and "/search/translated-zh.json" in saved
    mark = chinese.locator(".rk-offline-mark").inner_text()
    assert re.search(r"\((\d+\.\d)\sMB", mark).group(1) == f"{(english_bytes + chinese_bytes) / 1e6:.1f}", mark
    chinese.goto(url + "zh/cr/702.19b")                 # a typed address in the language, offline
    chinese.wait_for_url("**/zh/cr/702/#702.19b")
    assert "具有践踏的攻击生物" in chinese.locator('section.rk-tr-rule:has([id="702.19b"])').inner_text()
    chinese.goto(url + "cr/702/")                       # the English page sends the reader to the language
    chinese.wait_for_url("**/zh/cr/702/")
    answer = chinese.evaluate("() => window.rulekbSearch('践踏')")
    assert answer["answer"]["results"][0]["id"] == "cr:702.19"
    for phone in phones.values():
        phone.context.close()
