"""Dates on the phone (Chromium, 390x844): a saved page notices by itself that a new edition's date has
come; an older or upcoming edition says so in a bar that stays in view and links to the same rule in the
current edition."""
from __future__ import annotations

from datetime import UTC, datetime

import pytest
from test_effective_dates import BEFORE, ON_THE_DAY, built_on_both_days

from browser import PHONE, chromium_browser, phone_page, require_browser, served

pytestmark = pytest.mark.browser          # Chromium: outside the fast lane (make fast)

sync_api = require_browser()


@pytest.fixture(scope="module")
def sites(tmp_path_factory):
    """The same sources built the day before the new IPG takes effect, and on the day (test_effective_dates's)."""
    built = built_on_both_days(tmp_path_factory)
    served_sites = [served(built / "before"), served(built / "on-the-day")]
    yield {"before": served_sites[0][0], "on the day": served_sites[1][0]}
    for _, stop in served_sites:
        stop()


browser = pytest.fixture(scope="module")(chromium_browser)


page = pytest.fixture(phone_page)


def clock_at(page, day) -> None:
    page.clock.set_fixed_time(datetime(day.year, day.month, day.day, 9, tzinfo=UTC))


def test_before_the_date_the_notice_says_when_the_new_edition_takes_effect(page, sites):
    clock_at(page, BEFORE)
    page.goto(sites["before"] + "ipg/2.1/")
    note = page.locator(".rk-upcoming")
    assert "takes effect on December 4, 2026" in note.inner_text()
    assert note.bounding_box()["y"] < PHONE["height"]
    assert page.errors == []


def test_a_saved_page_whose_date_has_passed_says_the_new_edition_is_in_force(page, sites):
    clock_at(page, ON_THE_DAY.replace(day=5))
    page.goto(sites["before"] + "ipg/2.1/")
    note = page.locator(".rk-upcoming.rk-upcoming--now")
    note.wait_for()
    assert "A new edition is now in force" in note.inner_text()
    page.locator(".rk-upcoming a").click()
    page.wait_for_url("**/ipg-2026-12-04/")
    assert page.errors == []


def test_an_older_editions_rule_shows_a_bar_in_view_linking_to_the_same_current_rule(page, sites):
    page.goto(sites["on the day"] + "ipg-2024-09-23/#2.1")
    link = page.locator(".rk-older-bar a")
    page.wait_for_function("() => /2\\.1/.test(document.querySelector('.rk-older-bar a').textContent)")
    assert link.inner_text() == "current IPG 2.1 →"
    bar = page.locator(".rk-older-bar").bounding_box()
    assert 0 <= bar["y"] < PHONE["height"] / 4, bar
    page.mouse.wheel(0, 3000)
    page.wait_for_timeout(100)
    assert 0 <= page.locator(".rk-older-bar").bounding_box()["y"] < PHONE["height"] / 4
    link.click()
    page.wait_for_url("**/ipg/2.1/#2.1")
    assert page.errors == []


def test_the_upcoming_editions_preview_says_it_is_not_in_force(page, sites):
    page.goto(sites["before"] + "ipg-2026-12-04/#2.1")
    assert "Upcoming edition" in page.locator(".rk-older-bar").inner_text()
    assert "not in force before then" in page.locator(".rk-banner").inner_text()
    page.wait_for_function("() => /zebracorn/.test(document.querySelector('.rk-reader-text').textContent)")


def test_an_older_editions_front_stays_at_its_title_and_points_to_the_current_edition(page, sites):
    page.goto(sites["on the day"] + "ipg-2024-09-23/")
    page.wait_for_function("() => document.querySelector('.rk-reader-text').children.length > 0")  # drawn
    page.wait_for_timeout(100)
    assert page.evaluate("() => window.scrollY") == 0          # the title, its date and the notice in view
    assert page.locator("h1").first.bounding_box()["y"] < PHONE["height"] / 3
    assert page.locator(".rk-older-bar a").inner_text() == "current edition →"
    assert "read the current IPG" in page.locator(".rk-banner").inner_text()


def test_a_rule_of_an_older_edition_is_not_hidden_by_its_bar_when_zoomed(browser, sites):
    # 200 % zoom on a phone: half the CSS width, the bar wraps onto more lines
    context = browser.new_context(viewport={"width": PHONE["width"] // 2, "height": PHONE["height"] // 2},
                                  device_scale_factor=4, is_mobile=True, has_touch=True, service_workers="block")
    page = context.new_page()
    try:
        page.goto(sites["on the day"] + "ipg-2024-09-23/#2.1")
        page.wait_for_function("() => /2\\.1/.test(document.querySelector('.rk-older-bar a').textContent)")
        page.wait_for_timeout(200)
        bar = page.locator(".rk-older-bar").bounding_box()
        rule = page.locator("[id='2.1']").bounding_box()
        assert rule["y"] >= bar["y"] + bar["height"] - 1, (bar, rule)
    finally:
        context.close()
