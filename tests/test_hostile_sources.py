"""Sources are data, never code: a site built from sources whose headings, titles, manifest fields and body
text carry script in every form runs none of it, on any page (Chromium, every page, the 404 page, the
site's search, the older edition's reader), and the JSON and the API hand it back as inert text.

The site is served by a plain static server (no Content-Security-Policy): what is checked is the escaping
itself, not the server's CSP, which would hide a missing escape.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

from conftest import FIXTURES
from site_tools import serve as serve_static

FLOOR = FIXTURES / "seeds" / "000_d5f726d99ad04a53.txt"
CR_EXCERPT = FIXTURES / "seeds" / "002_75bbd6f8d1790816.txt"
IPG_HTML = FIXTURES / "seeds" / "001_35b49a7900bc8bc7.txt"

# Every payload calls pwn(n): a page where any of them runs records n in window.__pwned.
IMG = "<img src=x onerror=pwn(1)>"
TITLE_BREAK = "</title><script>pwn(2)</script>"
ATTRIBUTE_BREAK = '"><script>pwn(3)</script>'
SVG = "<svg onload=pwn(4)>"
SCRIPT_END = "</script><script>pwn(5)</script>"
TEMPLATE = "{{ pwn(6) }}{% raw %}"
JS_URL = "javascript:pwn(7)"
PAYLOADS = (IMG, TITLE_BREAK, ATTRIBUTE_BREAK, SVG, SCRIPT_END, TEMPLATE)
RAW_MARKUP = re.compile(r"<(?:img|script|svg)\b[^>]*(?:pwn|>pwn)|<script>pwn", re.I)
PWN_HOOK = "window.pwn = n => { (window.__pwned = window.__pwned || []).push(n); };"


def hostile_sources(folder: Path) -> Path:
    """Real documents with script put into their headings, body text, HTML and manifest."""
    folder.mkdir(parents=True)
    floor = FLOOR.read_text(encoding="utf-8")
    floor = floor.replace("101. Format and Ratings Categories", f"101. Format and Ratings Categories {IMG}")
    floor = floor.replace("111. Match Structure", f"111. Match Structure {TITLE_BREAK}")
    floor = floor.replace("Three is the default number", f"{SCRIPT_END} {TEMPLATE} Three is the default number")
    (folder / "magic-online-floor-rules-2002.txt").write_text(floor, encoding="utf-8")
    newer = floor.replace("Three is the default number", f"{SVG} {ATTRIBUTE_BREAK} Three is the usual number")
    newer = newer.replace(f"111. Match Structure {TITLE_BREAK}", f"111. Match Structure {ATTRIBUTE_BREAK}")
    (folder / "magic-online-floor-rules-2003.txt").write_text(newer, encoding="utf-8")

    cr = CR_EXCERPT.read_text(encoding="utf-8")
    cr = cr.replace("8. Multiplayer Rules", f"8. Multiplayer Rules {IMG}", 1)
    cr = cr.replace("801. Limited Range of Influence Option", f"801. Limited Range of Influence Option {SVG}")
    cr = cr.replace("800.2. These rules", f"800.2. {SCRIPT_END} {ATTRIBUTE_BREAK} These rules")
    (folder / "cr-2011-02-04-multiplayer-excerpt.txt").write_text(cr, encoding="utf-8")

    ipg = IPG_HTML.read_text(encoding="utf-8")
    escaped = IMG.replace("<", "&lt;").replace(">", "&gt;")
    ipg = ipg.replace("<h4>2.1 Game Play Error - Missed Trigger</h4>",
                      f"<h4>2.1 Game Play Error - Missed Trigger {escaped}</h4><script>pwn(8)</script>"
                      f'<a href="{JS_URL}">a link</a> <img src=x onerror=pwn(9)>')
    (folder / "ipg-2016-09-30-bluewizard-excerpt.html").write_text(ipg, encoding="utf-8")

    (folder / "manifest.toml").write_text(f"""
["magic-online-floor-rules-2002.txt"]
kind = "floor"
edition = "2002"
title = {json.dumps("Floor Rules " + TITLE_BREAK)}
note = {json.dumps("A note " + IMG + " " + SCRIPT_END)}

["magic-online-floor-rules-2003.txt"]
kind = "floor"
id = "floor"
edition = "2003"
title = {json.dumps("Floor Rules " + ATTRIBUTE_BREAK)}
note = {json.dumps("Newer " + SVG)}

["cr-2011-02-04-multiplayer-excerpt.txt"]
kind = "cr"
edition = "2011-02-04"
excerpt = true
title = {json.dumps("Comprehensive Rules " + ATTRIBUTE_BREAK + TEMPLATE)}

["ipg-2016-09-30-bluewizard-excerpt.html"]
excerpt = true
title = {json.dumps("Infraction Procedure Guide " + TITLE_BREAK)}
note = {json.dumps(ATTRIBUTE_BREAK)}
""", encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def hostile_site(tmp_path_factory):
    from pipeline import api
    project = tmp_path_factory.mktemp("hostile")
    sources = hostile_sources(project / "sources")
    result, corpus = api.build(sources, project / "site")
    return result.out, corpus


def test_the_payloads_reached_the_documents(hostile_site):
    """The test means something only if the script is in what was read."""
    _, corpus = hostile_site
    titles = " ".join(section.title for document in corpus.documents for section in document.sections)
    texts = " ".join(section.text for document in corpus.documents for section in document.sections)
    assert IMG in titles and SVG in titles
    assert SCRIPT_END in texts and ATTRIBUTE_BREAK in texts
    assert any(TITLE_BREAK in info.title for info in corpus.editions)


def test_no_page_holds_the_payloads_as_markup(hostile_site):
    site, _ = hostile_site
    found = []
    for page in sorted(site.rglob("*.html")):
        text = page.read_text(encoding="utf-8")
        for match in RAW_MARKUP.finditer(text):
            found.append(f"{page.relative_to(site)}: {text[max(0, match.start() - 60):match.end() + 20]!r}")
        if "javascript:" in text:
            found.append(f"{page.relative_to(site)}: a javascript: address")
        if "{% raw %}" not in text and "pwn(6)" in text and "{{ pwn(6) }}" not in text:
            found.append(f"{page.relative_to(site)}: the template in the text was evaluated")
    assert not found, "\n".join(found[:20])


def test_json_in_pages_and_files_keeps_the_payloads_as_text(hostile_site):
    site, _ = hostile_site
    for page in site.rglob("*.html"):
        text = page.read_text(encoding="utf-8")
        for block in re.findall(r"<script[^>]*>(.*?)</script>", text, re.S):
            assert "pwn(" not in block, f"{page.relative_to(site)}: source text inside a script element"
    data = [json.loads(path.read_text(encoding="utf-8")) for path in (site / "data").glob("*.json")]
    assert data and IMG in json.dumps(data, ensure_ascii=False)      # kept as data, inert


def test_the_api_answers_the_payloads_as_escaped_snippets(hostile_site):
    from pipeline.search.engine import search
    from pipeline.search.index import KnowledgeBase
    from pipeline.site.publish import index_folder, published
    site, _ = hostile_site
    kb = KnowledgeBase(index_folder(site, published(site)["generation"]))
    try:
        for query in ("multiplayer", "format ratings", "these rules", "default number", "missed trigger"):
            for result in search(kb, query).results:
                without_marks = result.snippet.replace("<mark>", "").replace("</mark>", "")
                assert "<" not in without_marks, (query, result.snippet)
    finally:
        kb.close()


TABS = 8       # pages visited at once


@pytest.mark.browser
def test_nothing_runs_on_any_page_in_chromium(hostile_site):
    from browser import CHROMIUM, FLAGS, PHONE, require_browser
    playwright_api = require_browser()
    site, _ = hostile_site
    pages = sorted("/" + path.relative_to(site).as_posix() for path in site.rglob("*.html"))
    by_file: dict[int, str] = {}
    for page in pages:          # a page linked at many addresses (a typed rule number's) is visited once
        by_file.setdefault((site / page.lstrip("/")).stat().st_ino, page)
    pages = sorted(by_file.values())
    pages = [page[:-len("index.html")] if page.endswith("/index.html") else page for page in pages]
    pages.append("/no/such/page/")                       # the 404 page, as a host serves it
    base, stop = serve_static(site)
    ran: list[str] = []
    try:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            context = browser.new_context(viewport=PHONE, service_workers="block")
            context.add_init_script(PWN_HOOK)
            tabs = [context.new_page() for _ in range(TABS)]
            for tab in tabs:
                tab.on("pageerror", lambda error: ran.append(f"error: {error}") if "pwn" in str(error) else None)
            for batch in range(0, len(pages), TABS):     # the tabs load at once; each waits for its network to rest
                visits = list(zip(tabs, pages[batch:batch + TABS]))
                for tab, address in visits:
                    tab.goto(base.rstrip("/") + address, wait_until="commit")
                for tab, address in visits:
                    tab.wait_for_load_state("networkidle")
                    pwned = tab.evaluate("window.__pwned || []")
                    if pwned:
                        ran.append(f"{address}: {pwned}")
            ran += _search_box(tabs[0], base)
            browser.close()
    finally:
        stop()
    assert len(pages) > 20
    assert not ran, "\n".join(ran[:20])


def _search_box(page, base: str) -> list[str]:
    """The site's own search shows the hostile sections' titles and snippets as text."""
    from browser import open_search, type_question
    ran = []
    box = open_search(page, base)
    for query in ("format ratings", "match structure", "usual number"):
        shown = type_question(page, box, query, delay=5)
        if page.evaluate("window.__pwned || []"):
            ran.append(f"search {query!r}: {page.evaluate('window.__pwned')}")
        if not shown:
            ran.append(f"search {query!r}: no results shown (the test would prove nothing)")
    return ran


@pytest.mark.browser
def test_the_reader_of_the_older_edition_draws_the_payloads_as_text(hostile_site):
    from browser import CHROMIUM, FLAGS, PHONE, require_browser
    playwright_api = require_browser()
    site, corpus = hostile_site
    older = next(info for info in corpus.editions if not info.current and info.kind == "floor")
    base, stop = serve_static(site)
    try:
        with playwright_api.sync_playwright() as playwright:
            browser = playwright.chromium.launch(executable_path=str(CHROMIUM), args=FLAGS)
            context = browser.new_context(viewport=PHONE, service_workers="block")
            context.add_init_script(PWN_HOOK)
            page = context.new_page()
            page.goto(f"{base}{older.id}/")
            page.wait_for_load_state("networkidle")
            text = page.inner_text("body")
            pwned = page.evaluate("window.__pwned || []")
            browser.close()
    finally:
        stop()
    assert not pwned
    assert "Format and Ratings Categories" in text and "onerror=pwn(1)" in text    # shown, as text


# -- sources that try to break the reader -------------------------------------------------------------

SECTIONS = "".join(f"<h2>{n}. Section number {n}</h2><p>Text of section {n}, word{n}.</p>\n" for n in range(1, 101))


def _html_with(element: str) -> str:
    """A 100-section HTML document with `element` (never closed) after its tenth section."""
    cut = SECTIONS.index("<h2>11.")
    return f"<html><body><h1>Magic Tournament Rules</h1>\n{SECTIONS[:cut]}{element}\n{SECTIONS[cut:]}</body></html>"


@pytest.mark.parametrize("element", ['<embed src="x.swf">', '<object data="x">', "<iframe>", "<foo-bar>", "<textarea>",
                                     "<select>", "<svg>", "<math>", "<noscript>", "<title>", "<xmp>"])
def test_an_element_never_closed_swallows_nothing_that_follows(element):
    from pipeline.model import ERROR
    from pipeline.read.html import html_to_lines
    lines, _, _, problems = html_to_lines(_html_with(element), "mtr.html")
    headings = [line.text for line in lines if line.hint == "h2"]
    assert headings == [f"{n}. Section number {n}" for n in range(1, 101)]
    assert not [problem for problem in problems if problem.severity == ERROR]
    assert any(f"word{n}" in line.text for line in lines for n in (100,))


@pytest.mark.parametrize("element", ["<script>", "<style>", "<template>", "<!--"])
def test_text_lost_to_code_or_a_comment_never_closed_is_an_error_naming_the_file(element):
    from pipeline.model import ERROR
    from pipeline.read.html import html_to_lines
    _, _, _, problems = html_to_lines(_html_with(element), "mtr.html")
    errors = [problem for problem in problems if problem.severity == ERROR]
    assert errors and errors[0].file == "mtr.html" and "would be lost" in errors[0].message


def test_html_nested_deeper_than_any_recursion_limit_is_read_whole():
    from pipeline.read.html import html_to_lines
    depth = 20000
    document = ("<html><body>" + "<div><span>" * depth + "<p>The deepest words.</p>" + "</span></div>" * depth
                + SECTIONS + "</body></html>")
    lines, _, _, problems = html_to_lines(document, "deep.html")
    texts = [line.text for line in lines]
    assert "The deepest words." in texts and "100. Section number 100" in texts


def test_stray_code_page_bytes_are_reported_at_their_real_lines():
    from pipeline.read.decode import decode
    lines = [f"Line {n} says “{n}” in UTF-8." for n in range(1, 61)]
    stray = {5, 17, 40}
    data = b"\n".join(line.encode("utf-8") + (b" don\x92t" if n in stray else b"") for n, line in enumerate(lines, 1))
    decoded = decode(data, "cr.txt")
    assert sorted(problem.line for problem in decoded.problems) == sorted(stray)
    assert "don’t" in decoded.text and "“17”" in decoded.text


def test_forty_thousand_stray_bytes_in_two_megabytes_are_read_in_one_pass():
    from pipeline.read.decode import MAX_PROBLEMS_OF_A_KIND, decode
    line = "Rule text with “quotes” and a stray don\x92t here.\n"
    data = b"".join(line.encode("utf-8").replace(b"\xc2\x92", b"\x92") for _ in range(40000))
    assert 1_800_000 < len(data) < 2_500_000 and data.count(b"\x92") == 40000
    decoded = decode(data, "big.txt")
    lines = [problem.line for problem in decoded.problems if problem.line]
    assert lines == list(range(1, MAX_PROBLEMS_OF_A_KIND + 1))
    assert f"{40000 - MAX_PROBLEMS_OF_A_KIND} more" in decoded.problems[-1].message
    assert decoded.text.count("don’t") == 40000
