"""Judging at Regular REL (JAR), the fourth document: detected from its content, parsed into headed
sections and common issues with their fixes, cross-linked with the MTR and the IPG it names, and the
same model from each shape it comes in (the magicjudges HTML; Markdown, plain text and a PDF made
here from the HTML's own words).
"""
from __future__ import annotations

import re
import shutil
import textwrap
from dataclasses import replace
from functools import cache

import pytest

from pipeline import load_corpus, load_document
from pipeline.model import BULLET, PARAGRAPH, TABLE_ROW, DocumentInfo
from pipeline.parse import parse
from pipeline.read import read_bytes, read_source
from pipeline.read.detect import detect

from conftest import CORPUS
from pdf_tools import make_pdf

JAR = CORPUS / "jar-2019-01-21-magicjudges.html"
SECTIONS = ["Common Issues", "General Unwanted Behaviors", "Serious Problems", "Resources"]
ISSUES = [
    'A player forgets a triggered ability (one that uses the words "when," "whenever," or "at the beginning", '
    "usually at the start of the ability's text)",
    "A player sees a card in a library that they shouldn't have seen",
    "A player accidentally draws or has more cards than they were supposed to",
    "A player makes an in-game error not mentioned above",
    "A player has illegal, insufficient, or another player's cards in their deck",
]


def parsed(data: bytes, name: str):
    source = read_bytes(data, name)
    found = detect(source)
    return found, parse(source, DocumentInfo(id="jar", kind=found.kind or "jar", title=found.title,
                                             edition=found.edition, source=name))


@cache
def html_document():
    return parsed(JAR.read_bytes(), JAR.name)[1]


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def model(document) -> list:
    """What every shape must agree on: sections and issues with their texts."""
    return [(s.kind, s.level, fold(s.title), [(b.kind, fold(b.text)) for b in s.blocks]) for s in document.sections]


# --- shapes made from the HTML's own words ------------------------------------------------------

def as_markdown(document) -> str:
    out = ["# Judging at Regular Rules Enforcement Level", "", "Effective January 21, 2019", ""]
    for block in document.front_matter[3:]:
        out += [block.text, ""]
    for section in document.sections:
        out += ([f"## {section.title}", ""] if section.kind == "section" else [f"**{section.title}**"])
        out += [f"- {b.text}" if b.kind == BULLET else b.text for b in section.blocks] + [""]
    out += [block.text for block in document.credits]
    return "\n".join(out) + "\n"


def as_text(document) -> str:
    """One paragraph a line, as a text export of the page gives it."""
    out = ["Judging at Regular Rules Enforcement Level", "Effective January 21, 2019", ""]
    for block in document.front_matter[3:]:
        out += [block.text, ""]
    for section in document.sections:
        out += [section.title] + [f"• {b.text}" if b.kind == BULLET else b.text for b in section.blocks] + [""]
    out += [block.text for block in document.credits]
    return "\n".join(out) + "\n"


def as_pdf(document) -> bytes:
    """An A4-ish PDF: a large bold title, bold 14 pt headings, bold 11 pt issues, wrapped 11 pt body text."""
    pages: list[list] = [[]]
    y = 760

    def put(text: str, font: str = "F1", size: int = 11, gap: int = 0, keep: int = 1):
        """One line; `keep` lines from here stay on one page (text wrapped by characters, not by width,
        ends its lines anywhere: a paragraph cut by a page would look ended)."""
        nonlocal y
        y -= gap
        if y - (keep - 1) * (size + 3) < 80:
            pages.append([])
            y = 760
        pages[-1].append((72, y, font, size, text))
        y -= size + 3

    put("Judging at Regular Rules Enforcement Level", "F2", 18)
    put("Effective January 21, 2019", gap=6)
    for block in document.front_matter[3:]:
        lines = textwrap.wrap(block.text, 95)
        for number, line in enumerate(lines):
            put(line, gap=8 if number == 0 else 0, keep=len(lines) - number)
    for section in document.sections:
        if section.kind == "section":
            put(section.title, "F2", 14, gap=14)
        else:                                         # a long error wraps onto a second bold line
            for number, line in enumerate(textwrap.wrap(section.title, 90)):
                put(line, "F2", 11, gap=8 if number == 0 else 0)
        for block in section.blocks:
            lines = textwrap.wrap(block.text, 90)
            for number, line in enumerate(lines):
                text = ("• " if number == 0 else "  ") + line if block.kind == BULLET else line
                put(text, gap=8 if number == 0 and block.kind != BULLET else 0, keep=len(lines) - number)
    for block in document.credits:
        put(block.text, gap=8)
    for number, page in enumerate(pages, start=1):     # a footer on every page
        page.append((290, 40, "F1", 9, f"Page {number}"))
    return make_pdf(pages)


# --- the HTML -------------------------------------------------------------------------------------

def test_the_jar_is_told_from_its_content_not_its_name():
    found = detect(read_bytes(JAR.read_bytes(), "document.html"))
    assert (found.kind, found.edition) == ("jar", "2019-01-21")
    assert found.title == "Judging at Regular REL"


def test_headed_sections_and_common_issues_with_their_fixes():
    document = html_document()
    assert [s.title for s in document.sections if s.kind == "section"] == SECTIONS
    issues = [s for s in document.sections if s.kind == "issue"]
    assert [fold(s.title) for s in issues] == ISSUES
    assert all(s.parent == "jar:common-issues" and s.level == 2 for s in issues)
    assert [len(s.blocks) for s in issues] == [1, 1, 1, 1, 1]
    assert issues[2].blocks[0].text.startswith("If the identity of the card(s) were known to all players, return them "
                                               "to their proper location. Otherwise, determine how many extra cards")
    behaviors = html_document().section("jar:general-unwanted-behaviors")
    assert [b.kind for b in behaviors.blocks] == [BULLET] * 5 + [PARAGRAPH]
    assert document.info.complete and [p for p in document.problems if p.severity != "info"] == []


def test_title_and_introduction_are_front_matter_and_the_trademark_line_credits():
    document = html_document()
    front = [block.text for block in document.front_matter]
    assert "Judging at Regular Rules Enforcement Level" in front and "Effective January 21, 2019" in front
    assert any(text.startswith("Most Magic(TM) players play for fun") for text in front)
    assert [block.text[:19] for block in document.credits] == ["All trademarks are "]


# --- every shape the same -------------------------------------------------------------------------

@pytest.mark.parametrize("shape", ["markdown", "text", "pdf"])
def test_every_shape_gives_the_same_sections_issues_and_fixes(shape):
    html = html_document()
    data = {"markdown": lambda: as_markdown(html).encode(), "text": lambda: as_text(html).encode(),
            "pdf": lambda: as_pdf(html)}[shape]()
    name = {"markdown": "jar.md", "text": "jar.txt", "pdf": "jar.pdf"}[shape]
    found, document = parsed(data, name)
    assert (found.kind, found.edition) == ("jar", "2019-01-21")
    assert model(document) == model(html)
    assert [fold(b.text) for b in document.credits] == [fold(b.text) for b in html.credits]


def as_html_table(document) -> bytes:
    """The HTML's words with the common errors and their fixes in a table: a header row, then "error | fix"."""
    from html import escape
    out = ["<html><body><h1>Judging at Regular Rules Enforcement Level</h1><p>Effective January 21, 2019</p>"]
    out += [f"<p>{escape(block.text)}</p>" for block in document.front_matter[3:]]
    sections = document.sections
    for number, section in enumerate(sections):
        if section.kind == "section":
            out.append(f"<h2>{escape(section.title)}</h2>")
            out += [f"<p>{escape(block.text)}</p>" for block in section.blocks]
            if number + 1 < len(sections) and sections[number + 1].kind == "issue":
                out.append("<table><tr><th>Issue</th><th>Fix</th></tr>")
        else:
            fix = " ".join(block.text for block in section.blocks)
            out.append(f"<tr><td>{escape(section.title)}</td><td>{escape(fix)}</td></tr>")
            if number + 1 == len(sections) or sections[number + 1].kind != "issue":
                out.append("</table>")
    out += [f"<p>{escape(block.text)}</p>" for block in document.credits] + ["</body></html>"]
    return "\n".join(out).encode()


def test_errors_and_fixes_in_a_table_are_issues_with_their_fix():
    html = html_document()
    found, document = parsed(as_html_table(html), "jar.html")
    issues = [s for s in document.sections if s.kind == "issue"]
    assert found.kind == "jar" and [fold(s.title) for s in issues] == ISSUES
    assert [[(b.kind, fold(b.text)) for b in s.blocks] for s in issues] == [
        [(PARAGRAPH, fold(" ".join(b.text for b in s.blocks)))] for s in html.sections if s.kind == "issue"]
    common = document.section("jar:common-issues")
    assert [b.kind for b in common.blocks][-1] == TABLE_ROW and fold(common.blocks[-1].text) == "Issue Fix"
    assert document.info.complete


def test_a_problem_in_a_pdf_jar_names_its_file_line_and_page(tmp_path):
    """A heading that comes twice is reported; in a PDF the problem says on which page."""
    html = html_document()
    data = as_pdf(replace(html, sections=html.sections + (html.sections[-1],)))
    (tmp_path / "jar.pdf").write_bytes(data)
    document, problems = load_document(tmp_path / "jar.pdf", use_cache=False)
    duplicate = [p for p in problems if "again" in p.message]
    assert len(duplicate) == 1 and duplicate[0].file == "jar.pdf" and duplicate[0].line
    assert duplicate[0].page == read_source(tmp_path / "jar.pdf").page_of(duplicate[0].line) >= 2
    assert "(page " in str(duplicate[0])


# --- cross-links ----------------------------------------------------------------------------------

@pytest.fixture(scope="module")
def corpus(tmp_path_factory):
    folder = tmp_path_factory.mktemp("jar-sources")
    for name in (JAR.name, "ipg-2024-09-23.txt", "mtr-2026-02-27.txt"):
        shutil.copyfile(CORPUS / name, folder / name)
    return load_corpus(folder, use_cache=False)


def test_the_jar_links_the_mtr_and_ipg_sections_it_names(corpus):
    jar = corpus.document("jar")
    links = {(ref.text, ref.target) for section in jar.sections for ref in section.refs}
    assert ("Tardiness", "ipg:3.1") in links                     # a bulleted item names the IPG infraction
    assert ("Game Loss", "ipg:1.1") in links                     # a penalty, a subheading of Definition of Penalties
    assert ("Disqualification", "ipg:1.1") in links
    assert ("hidden information", "mtr:3.13") in links           # an MTR section's title, in any case
    assert ("Serious Problem", "jar:serious-problems") in links  # one of its own sections
    # the MTR's own name is no mention of its chapter 3 "Tournament Rules"
    assert not any(target == "mtr:3" for _, target in links)
    for section in jar.sections:
        for ref in section.refs:
            assert section.blocks[ref.block].text[ref.start:ref.end] == ref.text


def test_the_sections_named_know_the_jar_cites_them(corpus):
    assert "jar:general-unwanted-behaviors" in corpus.backlinks["ipg:3.1"]
    assert "jar:common-issues/a-player-makes-an-in-game-error-not-mentioned-above" in corpus.backlinks["mtr:3.13"]
    assert not [p for p in corpus.all_problems() if p.file == JAR.name and p.severity != "info"]


def test_a_one_word_title_written_in_lower_case_is_prose(corpus, tmp_path):
    """"registration" in a sentence is no mention of MTR 1.5 Registration; "Tardiness" as a title is."""
    html = JAR.read_text(encoding="utf-8").replace("Tardiness (a player", "tardiness (a player")
    (tmp_path / JAR.name).write_text(html, encoding="utf-8")
    for name in ("ipg-2024-09-23.txt", "mtr-2026-02-27.txt"):
        shutil.copyfile(CORPUS / name, tmp_path / name)
    jar = load_corpus(tmp_path, use_cache=False).document("jar")
    assert not any(ref.target == "ipg:3.1" for section in jar.sections for ref in section.refs)


def test_without_an_ipg_or_mtr_the_jar_stands_alone(tmp_path):
    shutil.copyfile(JAR, tmp_path / JAR.name)
    corpus = load_corpus(tmp_path, use_cache=False)
    jar = corpus.document("jar")
    assert {ref.target for section in jar.sections for ref in section.refs} == {"jar:serious-problems"}
    assert not [p for p in corpus.all_problems() if p.severity != "info"]


def test_the_jar_source_reads_as_html():
    assert read_source(JAR).format == "html"
