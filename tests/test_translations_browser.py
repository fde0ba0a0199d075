"""The translated pages on a phone: the rule in the language, the English one tap away, the search box
answering a Chinese question, the language chosen remembered."""
from __future__ import annotations

import pytest

from browser import PHONE, ask_question, chromium_browser, console_errors, open_search, served

browser = pytest.fixture(scope="module")(chromium_browser)


@pytest.fixture(scope="module")
def site_url(built_site):
    url, stop = served(built_site)
    yield url
    stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, service_workers="block",
                                  has_touch=True, is_mobile=True)
    page = context.new_page()
    page.errors = console_errors(page)
    yield page
    context.close()


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
