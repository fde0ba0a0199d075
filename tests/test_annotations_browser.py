"""The annotations as a judge reads them on a phone, in Chromium: folded under their rule, opened with a tap,
the "changed since" notice leading to the rule's word-level history, references that go where they say, an
orphaned note on its older edition's page, the list of every note, and nothing of them on paper."""
from __future__ import annotations

import pytest
from test_annotations import built_with_every_note, hostile_project

from browser import PHONE, chromium_browser, phone_page, served


@pytest.fixture(scope="module")
def site(tmp_path_factory):
    """The notes' module's site (its example notes, and the search-ordering and hostile notes beside them)."""
    built = built_with_every_note(tmp_path_factory)
    assert built.returncode == 0, built.stderr[-2000:]
    base, stop = served(hostile_project(tmp_path_factory) / "project" / "site")
    yield base
    stop()


browser = pytest.fixture(scope="module")(chromium_browser)


page = pytest.fixture(phone_page)


def test_a_note_opens_under_its_rule_and_leads_to_what_changed(page, site):
    page.goto(site + "cr/702/#702.124a")
    rule = page.locator('[id="702.124a"]')
    block = rule.locator(".rk-annotation")
    assert block.count() == 1
    summary = block.locator("summary")
    assert "Annotation" in summary.inner_text() and "S. Sample" in summary.inner_text()
    assert "changed since" in summary.inner_text()
    body = block.locator(".rk-annotation-body")
    assert not body.is_visible()                     # folded: the rules stay dense on a phone
    summary.tap()
    body.wait_for(state="visible")
    assert "different partner abilities" in body.inner_text()
    notice = block.locator(".rk-annotation-changed")
    assert "Written for the 2025-11-14 text; this rule has changed since" in notice.inner_text()
    box = summary.bounding_box()
    assert box["height"] >= 44 and box["x"] >= 0 and box["x"] + box["width"] <= PHONE["width"]
    notice.locator("a").tap()
    page.wait_for_url("**/history/cr/702/**")
    assert page.locator('[id="702.124a"]').count() == 1
    assert page.errors == []


def test_a_renumbered_rule_s_note_is_at_its_new_number_and_its_references_go_where_they_say(page, site):
    page.goto(site + "cr/702/#702.124k")
    block = page.locator('[id="702.124k"] .rk-annotation')
    block.locator("summary").tap()
    assert "where this rule was 702.124m" in block.inner_text()
    assert "A Background is an enchantment" in block.inner_text()
    page.goto(site + "ipg/2.1/")
    note = page.locator(".rk-annotation").first
    note.locator("summary").tap()
    note.locator("a.rk-ref", has_text="2.5").tap()
    page.wait_for_url("**/ipg/2.5/**")
    assert "Game Rule Violation" in page.locator("h1").inner_text()
    assert page.errors == []


def test_an_orphaned_note_is_on_its_older_edition_s_page(page, site):
    page.goto(site + "cr-2025-11-14/")
    heading = page.locator("#annotations")
    heading.wait_for(state="attached")
    assert "removed since" in heading.inner_text()
    note = page.locator(".rk-annotation-list .rk-annotation").first
    note.locator("summary").tap()
    assert "Friends forever pairs only with friends forever" in note.inner_text()
    assert "removed after the 2025-11-14 edition" in note.inner_text()
    assert page.errors == []


def test_the_list_of_annotations_and_a_printed_page_without_them(page, site):
    page.goto(site + "annotations/")
    listed = page.locator(".rk-annotation")
    # the five example notes, the two search-ordering notes, and the two hostile ones published as text
    assert listed.count() == 9
    assert all(listed.nth(i).locator(".rk-annotation-body").is_visible() for i in range(listed.count()))
    page.goto(site + "cr/702/")
    assert page.locator(".rk-annotation").first.is_visible()
    page.emulate_media(media="print")
    assert not any(block.is_visible() for block in page.locator(".rk-annotation").all())
    assert page.locator('[id="702.124a"]').is_visible()
    assert page.errors == []
