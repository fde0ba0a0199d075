"""Text exactly the documents': each paragraph and example said once, every infraction of every edition with its
penalty, a change of layout (spacing, a word joined at a line end) never counted as a change of wording, and a
history index that says how many rules changed under each chapter, and which. All from the real documents
(tests/fixtures) and the site built from the frozen sources."""
from __future__ import annotations

import html
import json
import re
from collections import Counter

import pytest

from pipeline import api
from pipeline.addresses import Addresses
from pipeline.corpus import load_document
from pipeline.diff import compare
from pipeline.diff.history import EditionSummary
from pipeline.diff.layout import layout_key, layout_only
from pipeline.site import reader_rows
from pipeline.site.editions import older_editions
from pipeline.site.history_pages import diff_html
from pipeline.site.render import penalty_class

from browser import FLAGS, PHONE, require_browser, served
from conftest import CORPUS

OLDER_IPGS = ["ipg-2014-09-26.pdf", "ipg-2016-09-30-bluewizard.html", "ipg-2018-01-19.pdf",
              "ipg-2020-01-24-magicjudges.html", "ipg-2021-02-05.pdf"]
HIGHLIGHT = re.compile(r"<(del|ins)>(.*?)</\1>", re.S)


def article(path) -> str:
    """The text a reader sees in a built page's article: tags out, entities read."""
    page = path.read_text(encoding="utf-8")
    found = re.search(r"<article.*?</article>", page, re.S)
    body = re.sub(r"<script.*?</script>", "", found.group(0) if found else page, flags=re.S)
    return html.unescape(re.sub(r"<[^>]+>", " ", body))


def paragraphs(path) -> list[str]:
    page = path.read_text(encoding="utf-8")
    return [html.unescape(re.sub(r"<[^>]+>", "", text)).strip() for text in re.findall(r"<p[ >].*?</p>", page, re.S)]


# --- each paragraph once ---------------------------------------------------------------------------------

def test_an_infraction_page_says_each_upgrade_and_downgrade_once(built_site, frozen_corpus):
    ipg = frozen_corpus.document("ipg")
    checked = []
    for section in ipg.sections:
        infraction = section.infraction
        if infraction is None or not (infraction.upgrades or infraction.downgrades):
            continue
        text = " ".join(article(built_site / "ipg" / section.number / "index.html").split())
        for part in (*infraction.upgrades, *infraction.downgrades):
            for paragraph in part.split("\n\n"):
                assert text.count(" ".join(paragraph.split())) == 1, (section.number, paragraph[:60])
        checked.append(section.number)
    assert {"2.1", "2.3", "3.1", "3.5", "4.2"} <= set(checked)
    hidden_card_error = article(built_site / "ipg" / "2.3" / "index.html")
    assert hidden_card_error.count("If a face-down card cast using a morph or disguise ability") == 1


def test_no_paragraph_of_a_current_ipg_page_is_there_twice(built_site):
    pages = sorted((built_site / "ipg").glob("*/index.html"))
    assert len(pages) > 30
    for page in pages:
        repeated = [text for text, count in Counter(p for p in paragraphs(page) if len(p) > 40).items() if count > 1]
        assert not repeated, (page, repeated[:2])


# --- older editions: each infraction with its penalty, each example once -----------------------------------

@pytest.mark.parametrize("name", OLDER_IPGS)
def test_an_older_ipg_gives_every_infraction_its_penalty_and_says_each_example_once(name):
    document, _ = load_document(CORPUS / name)
    infractions = {section.number: section for section in document.sections if section.infraction}
    assert len(infractions) >= 22
    plan = older_editions("ipg", [(document.info, EditionSummary.of(document))], Addresses(), None)
    edition = json.loads(plan.files[f"data/editions/ipg/{document.info.id}.json"])
    shards = {group: json.loads(plan.files[f"data/editions/ipg/{file}"]) for group, file in edition["shards"].items()}
    shown = {}
    for number, _level, _kind, _key, wording, group in reader_rows.rows(edition):
        title, text, examples, *penalty = shards[group][wording]
        said = [paragraph for paragraph in text.split("\n\n") if len(paragraph) > 30] + examples
        assert not [p for p, count in Counter(said).items() if count > 1], (name, number)
        if number in infractions:
            shown[number] = tuple(penalty)       # the penalty, and its box's class
    assert shown == {number: (section.infraction.penalty, penalty_class(section.infraction.penalty))
                     for number, section in infractions.items()}
    assert all(penalty for penalty, _ in shown.values())
    # the lettered examples the body holds are not listed again
    hidden_card_error = infractions["2.3"]
    assert hidden_card_error.examples and all(example in hidden_card_error.text for example in hidden_card_error.examples)


def test_on_a_phone_the_older_reader_shows_the_penalty_box_and_the_history_pages_fit(built_site):
    sync_api = require_browser()
    base, stop = served(built_site)
    try:
        with sync_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path="/usr/bin/chromium", args=FLAGS)
            page = browser.new_page(viewport=PHONE)
            page.goto(base + "ipg-2021-02-05/#2.3")
            reader = page.locator(".rk-reader-text")
            reader.locator(".rk-penalty-value").first.wait_for()
            assert reader.locator(".rk-penalty-value").all_inner_texts() == ["Warning"]
            assert "rk-pen-warning" in reader.locator(".rk-penalty").get_attribute("class")
            text = reader.inner_text()
            assert text.count("A player draws four cards after casting Ancestral Recall.") == 1
            assert text.count("A player, going first, draws for their turn.") == 1
            # the history index with every chapter's lists open, and a "What changed" page, fit the phone
            for path in ("history/cr/", "changes/cr-2023-04-14--cr-2025-11-14/"):
                page.goto(base + path)
                page.evaluate("document.querySelectorAll('details').forEach(d => { d.open = true; })")
                assert page.evaluate("w => document.documentElement.scrollWidth <= w", PHONE["width"]), path
            browser.close()
    finally:
        stop()


# --- layout is not wording -------------------------------------------------------------------------------

def test_spacing_and_words_joined_at_a_line_end_are_layout_only():
    assert layout_only("that many previously- unknown cards", "that many previouslyunknown cards")
    assert layout_only("a number of previously-unknown cards", "a number of previouslyunknown cards")
    assert layout_only("experience- level", "experience-level")
    assert layout_only("one paragraph. The next", "one paragraph.\n\nThe next")
    assert not layout_only("a draft booster", "a booster")
    assert not layout_only("Warning", "Game Loss")
    assert not layout_only("same", "same")
    assert layout_key("A - B") != layout_key("A B")       # a dash between spaced words is a word of its own


def test_typography_is_layout_only():
    # The CR of 2019-05-03 wrote every apostrophe and quote curly; its words did not change
    assert layout_only("in a player's card pool. See section 8, \"Multiplayer Rules.\"",
                       "in a player\u2019s card pool. See section 8, \u201cMultiplayer Rules.\u201d")
    assert layout_only("Dash -- a pause", "Dash \u2014 a pause")
    assert layout_only("1\u20133 cards...", "1-3 cards\u2026")
    assert layout_only("the Oracle(tm) card reference", "the Oracle\u2122 card reference")
    assert not layout_only("a player's card", "a player\u2019s cards")
    assert not layout_only("\u201cdraw\u201d", "\u201cdiscard\u201d")


def test_the_real_ipg_changes_highlight_wording_never_layout():
    # The 2021 PDF keeps line-end hyphens ("previously- unknown", "experience- level"); the 2024 text joins
    # them ("previouslyunknown") or not ("experience-level").
    old, _ = load_document(CORPUS / "ipg-2021-02-05.pdf")
    new, _ = load_document(CORPUS / "ipg-2024-09-23.txt")
    changed = {change.new_id.split(":", 1)[1]: change for change in compare(old, new).changed}
    philosophy, hidden = changed["1"], changed["2.3"]
    assert "experience- level" in philosophy.old_text and "experience-level" in philosophy.new_text
    # (a long text shows its changed sentences, then the whole text: each highlight twice)
    assert set(HIGHLIGHT.findall(diff_html(philosophy.old_text, philosophy.new_text))) == {("del", "draft ")}
    assert hidden.old_text.count("previously- unknown") == 2 and hidden.new_text.count("previouslyunknown") == 2
    highlighted = " ".join(text for _, text in HIGHLIGHT.findall(diff_html(hidden.old_text, hidden.new_text)))
    assert "disguise" in highlighted and "previously" not in highlighted
    for change in changed.values():      # no highlight is spacing alone
        assert all(text.strip() for _, text in HIGHLIGHT.findall(diff_html(change.old_text, change.new_text)))


def test_a_section_changed_in_layout_alone_is_listed_apart_not_counted(built_site, sources_dir):
    data = api.compare("mtr-2021-07-23", "mtr", sources_dir)
    assert "mtr:1.7" in data["layout_only"] and "mtr:1.7" not in [change["id"] for change in data["changed"]]
    page = (built_site / "changes" / "cr-2023-04-14--cr-2025-11-14" / "index.html").read_text(encoding="utf-8")
    summary = int(re.search(r'href="#changed">(\d+) changed<', page).group(1))
    changed = page[page.index('id="changed"'):page.index('id="added"')]
    layout = changed[changed.index('id="layout-only"'):]
    assert summary == changed.count('class="rk-change"') > 200
    for number in ("205.4c", "509.1b"):            # a paragraph break the PDF put in, or took out
        assert f">{number}<" in layout and f">{number}<" not in changed[:changed.index('id="layout-only"')]
    # and the rule's page does not say it changed then
    rule = (built_site / "cr" / "205" / "index.html").read_text(encoding="utf-8")
    rule = rule[rule.index('id="205.4c"'):]
    rule = rule[:rule.index('class="rk-rule', 20)]
    assert "rk-changed" not in rule


# --- the history index -----------------------------------------------------------------------------------

def entries(page: str) -> dict[str, str]:
    """A history page's entries: the anchor of each heading -> what follows it up to the next."""
    parts = re.split(r'<h2 id="([^"]+)" class="rk-h">', page)
    return dict(zip(parts[1::2], parts[2::2]))


def test_the_history_index_says_per_chapter_how_many_rules_changed_and_which(built_site):
    history = built_site / "history" / "cr"
    chapters = entries((history / "index.html").read_text(encoding="utf-8"))
    assert len(chapters) == 9
    reworded = set()         # every rule of the history pages shown with more than one wording
    for page in history.glob("*/index.html"):
        for anchor, entry in entries(page.read_text(encoding="utf-8")).items():
            if entry.count('class="rk-edition"') > 1:
                reworded.add(anchor)
    listed = set()
    for chapter, entry in chapters.items():
        counted = re.search(r"<strong>(\d+)</strong> of its (\d+) rules changed", entry)
        assert counted, chapter
        fold = re.search(r"<summary>Changed: (\d+)</summary><p class=\"rk-chips\">(.*?)</p>", entry, re.S)
        links = re.findall(r'href="[^"#]+#([^"]+)"', fold.group(2)) if fold else []
        assert int(counted.group(1)) == len(links) == (int(fold.group(1)) if fold else 0)
        assert all(link.split(".")[0][0] == chapter for link in links)
        if links:
            assert "The same wording since" not in entry
        listed.update(links)
    assert listed == reworded and len(listed) > 250


def test_a_history_page_gives_each_wording_its_paragraphs_and_each_example_once(built_site):
    page = (built_site / "history" / "ipg" / "2.3" / "index.html").read_text(encoding="utf-8")
    first = re.search(r'<p class="rk-diff">(.*?)</p>', page, re.S).group(1)
    assert "Penalty: Warning<br><br>Definition<br><br>A player commits an error" in first
    assert first.count("A player draws four cards after casting Ancestral Recall.") == 1


def test_the_changes_index_counts_wording_and_says_layout_apart(built_site):
    index = (built_site / "changes" / "index.html").read_text(encoding="utf-8")
    entry = index[index.index("CR 2023-04-14 → 2025-11-14"):]
    entry = entry[:entry.index("</li>")]
    page = (built_site / "changes" / "cr-2023-04-14--cr-2025-11-14" / "index.html").read_text(encoding="utf-8")
    changed = re.search(r'href="#changed">(\d+) changed<', page).group(1)
    assert f"{changed} changed," in entry and "; 2 in layout only, not counted" in entry


def test_a_long_change_has_its_whole_text_apart_only_when_some_of_it_is_folded():
    """The changed sentences of a long rule, then its whole text one tap away: said once when nothing was folded
    (every unchanged stretch short), the two being the same text."""
    sentence = "Each player draws a card at the start of the turn and may look at it. "
    old_text = "".join(sentence.replace("a card", f"card {n}") for n in range(8))
    spread = old_text.replace("card 1", "card one").replace("card 3", "card three").replace("card 5", "card five")
    shown = diff_html(old_text, spread)
    assert len(old_text) > 300 and "rk-folded" not in shown and "Whole text" not in shown
    assert shown.count("<ins>") == 3 and shown.count("<p ") == 1
    folded = diff_html(old_text, old_text.replace("card 7", "card seven"))
    assert "rk-folded" in folded and "Whole text" in folded and folded.count("<ins>") == 2    # shown, then whole
