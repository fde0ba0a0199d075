"""Every official PDF of the corpus through the parsers, in each shape it comes in.

Shapes: the PDF itself (read with pypdfium2), pdftotext's default output and its -layout output
(tests/fixtures/pdftotext.tar.xz). Each shape must give the same model: the same sections with the
same titles, the same infractions and penalties (IPG), and for the CR the same rule numbers,
glossary terms and examples as the official TXT of the same edition, with rule texts equal once
whitespace, quotes and the TXT's ASCII stand-ins ("(tm)", "-" for a dash) are folded.

Expected figures are literal tables (penalties read off each PDF's Appendix A by hand) or the
headings each PDF's own contents pages list (tests/fixtures/pdf/expected_headings.json, read
with poppler, not with the reader under test).
"""
from __future__ import annotations

import json
import re
from functools import cache

import pytest

from pipeline import load_document
from pipeline.model import WARNING, DocumentInfo
from pipeline.parse import parse
from pipeline.read import read_source
from pipeline.read.detect import detect

from conftest import CORPUS, FIXTURES
from pdf_tools import make_pdf

pytestmark = pytest.mark.slow             # every PDF of the corpus in three shapes: outside the fast lane (make fast)

EXPECTED = json.loads((FIXTURES / "pdf" / "expected_headings.json").read_text(encoding="utf-8"))
IPG_PDFS = ["ipg-2014-09-26", "ipg-2018-01-19", "ipg-2021-02-05"]
MTR_PDFS = ["mtr-2014-07-18", "mtr-2018-01-19", "mtr-2021-07-23"]
CR_EDITIONS = ["cr-2019-01-25", "cr-2023-04-14"]
SHAPES = ["pdf", "pdftotext", "pdftotext-layout"]

WL, GL, ML, DQ, NP = "Warning", "Game Loss", "Match Loss", "Disqualification", "No Penalty"
# Read off each PDF's Appendix A (penalty quick reference) by hand.
PENALTIES = {
    # 2014: "Warning*" (a footnote) for Missed Trigger; 2.3 Drawing Extra Cards, 3.4 Insufficient
    # Shuffling, 3.5 Deck/Decklist Problem; no 3.9. Section 4.7 has no penalty box in the PDF.
    "ipg-2014-09-26": {
        "2.1": "Warning*", "2.2": WL, "2.3": GL, "2.4": WL, "2.5": WL, "2.6": WL,
        "3.1": GL, "3.2": ML, "3.3": WL, "3.4": WL, "3.5": GL, "3.6": WL, "3.7": WL, "3.8": WL,
        "4.1": WL, "4.2": ML, "4.3": DQ, "4.4": DQ, "4.5": DQ, "4.6": DQ, "4.7": DQ, "4.8": DQ},
    "ipg-2018-01-19": {
        "2.1": NP, "2.2": WL, "2.3": WL, "2.4": WL, "2.5": WL, "2.6": WL,
        "3.1": GL, "3.2": ML, "3.3": WL, "3.4": GL, "3.5": WL, "3.6": WL, "3.7": WL, "3.8": WL, "3.9": WL,
        "4.1": WL, "4.2": ML, "4.3": DQ, "4.4": DQ, "4.5": DQ, "4.6": DQ, "4.7": DQ, "4.8": DQ},
    "ipg-2021-02-05": {
        "2.1": NP, "2.2": WL, "2.3": WL, "2.4": WL, "2.5": WL, "2.6": WL,
        "3.1": GL, "3.2": ML, "3.3": WL, "3.4": GL, "3.5": WL, "3.6": WL, "3.7": WL, "3.8": WL, "3.9": WL,
        "4.1": WL, "4.2": ML, "4.3": ML, "4.4": ML, "4.5": DQ, "4.6": DQ, "4.7": DQ, "4.8": DQ},
}
# (number of sections, of which infractions) each IPG PDF has: chapters 1-4 with their sections, appendices.
IPG_SECTIONS = {"ipg-2014-09-26": 33, "ipg-2018-01-19": 34, "ipg-2021-02-05": 34}
MTR_SECTIONS = {"mtr-2014-07-18": 96, "mtr-2018-01-19": 99, "mtr-2021-07-23": 102}


@cache
def document(path: str):
    """A corpus PDF (or a pdftotext output of it) read and parsed as `rulekb` would."""
    source = read_source(path)
    found = detect(source)
    name = path.rsplit("/", 1)[-1]
    info = DocumentInfo(id=found.kind, kind=found.kind, title=found.title, edition=found.edition, source=name)
    return source, parse(source, info)


def path_of(stem: str, shape: str, pdftotext_dir) -> str:
    return str(CORPUS / f"{stem}.pdf" if shape == "pdf" else pdftotext_dir / f"{stem}.{shape}.txt")


@pytest.fixture(scope="module")
def shapes(pdftotext_dir):
    """stem -> {shape: Document}."""
    def of(stem: str) -> dict:
        return {shape: document(path_of(stem, shape, pdftotext_dir))[1] for shape in SHAPES}
    return of


def fold(text: str) -> str:
    """Whitespace, quotes, dashes and the TXT's ASCII stand-ins folded."""
    for wide, narrow in (("’", "'"), ("‘", "'"), ("“", '"'), ("”", '"'), ("—", "-"), ("–", "-"), ("−", "-"),
                         ("™", "(tm)"), ("®", "(r)"), ("…", "...")):
        text = text.replace(wide, narrow)
    return re.sub(r"\s+", " ", text).strip()


def sections_of(doc) -> list[tuple[str, str, str]]:
    return [(s.number, fold(s.title), s.kind) for s in doc.sections]


def warnings(doc) -> list[str]:
    return [str(p) for p in doc.problems if p.severity == WARNING]


# --- IPG ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("stem", IPG_PDFS)
def test_ipg_pdf_gives_every_infraction_with_its_penalty(stem, shapes):
    pdf = shapes(stem)["pdf"]
    assert {s.number: s.infraction.penalty for s in pdf.sections if s.infraction} == PENALTIES[stem]
    assert [(p.section, p.penalty) for p in pdf.penalties] == [
        (f"ipg:{number}", penalty) for number, penalty in PENALTIES[stem].items()]
    assert len(pdf.sections) == IPG_SECTIONS[stem] and pdf.info.complete


@pytest.mark.parametrize("stem", IPG_PDFS)
def test_ipg_pdf_has_every_heading_its_contents_pages_list(stem, shapes):
    pdf = shapes(stem)["pdf"]
    found = {(s.number, fold(s.title)) for s in pdf.sections}
    assert [entry for entry in EXPECTED[f"{stem}.pdf"] if (entry[0].rstrip("."), fold(entry[1])) not in found] == []
    for section in pdf.sections:
        if section.infraction:
            category, name = fold(section.title).split(" - ", 1)
            assert (section.infraction.category, section.infraction.name) == (category, name)


@pytest.mark.parametrize("stem", IPG_PDFS)
@pytest.mark.parametrize("shape", SHAPES[1:])
def test_ipg_pdftotext_output_gives_the_same_model_as_the_pdf(stem, shape, shapes):
    docs = shapes(stem)
    pdf, other = docs["pdf"], docs[shape]
    assert sections_of(other) == sections_of(pdf)
    assert [(s.number, s.infraction.category, s.infraction.name, s.infraction.penalty)
            for s in other.sections if s.infraction] == \
        [(s.number, s.infraction.category, s.infraction.name, s.infraction.penalty)
         for s in pdf.sections if s.infraction]
    assert [(p.section, p.penalty) for p in other.penalties] == [(p.section, p.penalty) for p in pdf.penalties]
    assert other.info.complete


def test_ipg_2018_and_2021_pdfs_parse_without_a_warning(shapes):
    for stem in IPG_PDFS[1:]:
        for shape, doc in shapes(stem).items():
            assert warnings(doc) == [], (stem, shape)


def test_ipg_2014_missing_penalty_box_is_taken_from_appendix_a_and_said(shapes):
    """The 2014 PDF draws no penalty box for 4.7 Stalling: Appendix A's Disqualification fills it, with a warning."""
    for shape in ("pdf", "pdftotext-layout"):
        doc = shapes("ipg-2014-09-26")[shape]
        section = doc.section("4.7")
        assert section.infraction.penalty == DQ
        problems = [p for p in doc.problems if p.line == section.line]
        assert len(problems) == 1 and "taken from Appendix A" in problems[0].message


def test_ipg_heading_split_from_its_number_by_pdftotext_is_one_heading(pdftotext_dir):
    """pdftotext's default mode: "2.1." / "" / "Game Play Error — Missed Trigger" / "" / "No Penalty"."""
    source, doc = document(path_of("ipg-2021-02-05", "pdftotext", pdftotext_dir))
    section = doc.section("2.1")
    assert source.lines[section.line - 1].text == "2.1."
    assert section.title == "Game Play Error — Missed Trigger" and section.infraction.penalty == NP
    assert section.infraction.definition.startswith("A triggered ability triggers, but the player")
    bullets = [block.text for block in section.blocks if block.kind == "bullet"]
    assert len(bullets) == 4 and all(text.startswith("A triggered ability that") for text in bullets)


# --- MTR ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("stem", MTR_PDFS)
def test_mtr_pdf_has_every_section_its_contents_pages_list(stem, shapes):
    pdf = shapes(stem)["pdf"]
    found = {(s.number, fold(s.title)) for s in pdf.sections}
    expected = EXPECTED[f"{stem}.pdf"]
    assert len(expected) >= 80
    assert [entry for entry in expected if (entry[0], fold(entry[1])) not in found] == []
    assert len(pdf.sections) == MTR_SECTIONS[stem]
    assert pdf.info.complete and warnings(pdf) == []
    first = [s.number for s in pdf.sections[:3]]
    assert first == ["1", "1.1", "1.2"]
    appendices = [s.number for s in pdf.sections if s.kind == "appendix"]
    assert len(appendices) >= 5 and appendices == [f"Appendix {c}" for c in "ABCDEF"[:len(appendices)]]


@pytest.mark.parametrize("stem", MTR_PDFS)
@pytest.mark.parametrize("shape", SHAPES[1:])
def test_mtr_pdftotext_output_gives_the_same_sections_as_the_pdf(stem, shape, shapes):
    docs = shapes(stem)
    assert sections_of(docs[shape]) == sections_of(docs["pdf"])
    assert docs[shape].info.complete and warnings(docs[shape]) == []


def test_mtr_contents_entry_drawn_without_dot_leaders_is_an_entry(shapes):
    """MTR 2018's contents has "Byes 49" (no leaders): it is not glued to the next entry's title."""
    for doc in shapes("mtr-2018-01-19").values():
        assert not any("Byes 49" in p.message for p in doc.problems)


# --- CR: the PDF against the TXT of the same edition ---------------------------------------------

@cache
def cr_txt(stem: str):
    path = CORPUS / f"{stem}.txt"
    return parse(read_source(path), DocumentInfo(id="cr", kind="cr", title="Comprehensive Rules", edition=None,
                                                 source=path.name))


@pytest.mark.parametrize("stem", CR_EDITIONS)
@pytest.mark.parametrize("shape", SHAPES)
def test_cr_pdf_gives_the_rule_numbers_and_glossary_terms_of_its_txt(stem, shape, shapes):
    txt, other = cr_txt(stem), shapes(stem)[shape]
    assert [(s.number, s.kind) for s in other.sections] == [(s.number, s.kind) for s in txt.sections]
    assert [fold(entry.term) for entry in other.glossary] == [fold(entry.term) for entry in txt.glossary]
    assert len(txt.sections) > 2400 and len(txt.glossary) > 500
    assert other.info.complete


@pytest.mark.parametrize("stem", CR_EDITIONS)
@pytest.mark.parametrize("shape", ["pdf", "pdftotext-layout"])
def test_cr_pdf_rule_texts_examples_and_definitions_equal_the_txt(stem, shape, shapes):
    txt, other = cr_txt(stem), shapes(stem)[shape]
    differ = [s.number for s, t in zip(other.sections, txt.sections)
              if fold(s.title) != fold(t.title) or fold(s.text) != fold(t.text)
              or [fold(e) for e in s.examples] != [fold(e) for e in t.examples]]
    assert differ == []
    assert sum(len(s.examples) for s in other.sections) == sum(len(s.examples) for s in txt.sections) > 200
    assert [fold(e.text) for e in other.glossary] == [fold(e.text) for e in txt.glossary]


@pytest.mark.parametrize("stem", CR_EDITIONS)
def test_cr_pdftotext_default_differs_from_the_txt_only_where_it_drops_line_end_hyphens(stem, shapes):
    """pdftotext's default mode joins "turn-" / "based" into "turnbased": fold hyphens away and the texts agree
    but for the few paragraphs a page break cuts before a capital letter."""
    def unhyphen(text: str) -> str:
        return re.sub(r"(?<=\w)-(?=\w)", "", fold(text))
    txt, other = cr_txt(stem), shapes(stem)["pdftotext"]
    differ = [s.number for s, t in zip(other.sections, txt.sections) if unhyphen(s.text) != unhyphen(t.text)]
    assert len(differ) <= 5, differ


def test_cr_pdf_joins_words_broken_at_their_hyphen(shapes):
    pdf = shapes("cr-2023-04-14")["pdf"]
    assert "turn-based actions (such as drawing a card" in pdf.section("117.3a").text
    assert "[-N] means" in fold(pdf.section("107.7").text)      # "[−" / "N]" across a line end


def test_a_layout_not_recognised_in_a_pdf_is_reported_with_its_page(tmp_path):
    """The older-layout IPG of test_parse_ipg, printed as a PDF: the problem names the file, line and page."""
    from test_parse_ipg import older_layout_2024
    pages, y = [[]], 760
    for line in older_layout_2024().split("\n"):
        if not line.strip():
            y -= 8
            continue
        if y < 60:
            pages.append([])
            y = 760
        pages[-1].append((40, y, "F1", 8, line[:150]))
        y -= 11
    (tmp_path / "ipg-older.pdf").write_bytes(make_pdf(pages))
    document, problems = load_document(tmp_path / "ipg-older.pdf", use_cache=False)
    assert document is not None and not document.info.complete
    swallowed = [p for p in problems if "not recognised" in p.message]
    assert len(swallowed) == 1 and swallowed[0].file == "ipg-older.pdf"
    source = read_source(tmp_path / "ipg-older.pdf")
    assert swallowed[0].page == source.page_of(swallowed[0].line) and swallowed[0].page > 5
    assert f"(page {swallowed[0].page})" in str(swallowed[0])
