"""The site's pages in a real browser (Debian's chromium through Playwright) at phone size, 390×844."""
from __future__ import annotations

import re

import pytest

from browser import PHONE, chromium_browser, console_errors, require_browser, served

pytestmark = pytest.mark.browser          # Chromium: outside the fast lane (make fast)

sync_api = require_browser()


@pytest.fixture(scope="module")
def site_url(built_site):
    url, stop = served(built_site)
    yield url
    stop()


browser = pytest.fixture(scope="module")(chromium_browser)


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=PHONE, device_scale_factor=1, service_workers="block",
                                  has_touch=True, is_mobile=True)
    page = context.new_page()
    page.errors = console_errors(page)
    yield page
    context.close()


def no_horizontal_scroll(page) -> bool:
    # against the phone's width: a mobile browser widens its layout viewport (innerWidth) to a page too wide
    return page.evaluate("w => document.documentElement.scrollWidth <= w", PHONE["width"])


@pytest.mark.parametrize("path", ["", "penalties/", "cr/", "cr/704/", "cr/702/", "cr/glossary/", "ipg/2.1/",
                                  "mtr/4/", "floor/", "search-tips/", "history/cr/205/", "changes/cr-2025-11-14--cr/",
                                  "cr-2025-11-14/#704.5k"])
def test_pages_fit_a_phone_without_horizontal_scroll_or_console_errors(page, site_url, path):
    page.goto(site_url + path)
    page.wait_for_load_state("networkidle")
    assert no_horizontal_scroll(page), path
    assert page.errors == []


def test_following_a_cross_reference_lands_on_its_anchor(page, site_url):
    page.goto(site_url + "cr/704/")
    link = page.locator('a.rk-ref[href="../117/#117"]').first
    link.click()
    page.wait_for_url("**/cr/117/#117*")
    anchor = page.evaluate("decodeURIComponent(location.hash.slice(1))")
    target = page.locator(f'[id="{anchor}"]')
    assert target.count() == 1
    assert target.evaluate("e => { const r = e.getBoundingClientRect(); return r.top >= 0 && r.top < innerHeight }")


def test_an_old_address_lands_on_the_rule_in_that_edition(page, site_url):
    page.goto(site_url + "cr-2025-11-14/702/#702.124m")       # 702.124m is 702.124k in the current edition
    page.wait_for_url("**/cr-2025-11-14/#702.124m")
    rule = page.locator('[id="702.124m"]')
    rule.wait_for()
    assert "702.124m" in rule.inner_text()
    page.wait_for_function("() => { const r = document.getElementById('702.124m').getBoundingClientRect(); "
                           "return r.top >= 0 && r.top < innerHeight; }", timeout=5000)


def test_penalty_page_shows_every_infraction(page, site_url, frozen_corpus):
    page.goto(site_url + "penalties/")
    rows = page.locator("table.rk-penalties tbody tr:not(.rk-path-row)")
    infractions = [s for s in frozen_corpus.document("ipg").sections if s.infraction]
    assert rows.count() == len(infractions)
    for section in infractions:
        assert page.get_by_text(section.infraction.name, exact=False).first.is_visible()
    assert no_horizontal_scroll(page)


def test_penalty_page_is_one_tap_from_a_rule_page(page, site_url):
    page.goto(site_url + "cr/704/")
    page.get_by_role("link", name="Penalties").first.click()
    page.wait_for_url("**/penalties/")


def test_penalty_page_prints_on_one_sheet(browser, site_url):
    page = browser.new_page()
    page.goto(site_url + "penalties/")
    pdf = page.pdf(format="A4")
    page.close()
    assert len(re.findall(rb"/Type\s*/Page[^s]", pdf)) == 1
