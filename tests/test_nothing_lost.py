"""Every passage of every source ends up in the export (contents lists and page numbers aside).

Runs on every corpus document (the official PDFs too), every seed and pdftotext's output of each
PDF (default and -layout mode), through the public export, so it checks the whole pipeline
(reader, parser, export) rather than one parser. A line is checked cell by cell: a tab or a run of
three spaces (pdftotext -layout's columns) parts cells.
"""
from __future__ import annotations

import json
import re

import pytest

import pipeline.corpus
from pipeline import document_json, load_document
from pipeline.read import read_bytes
from pipeline.read.shapes import is_contents_line, is_page_number

from conftest import CORPUS, SEEDS, pdftotext_names
from ordered_text import OrderedText

pytestmark = pytest.mark.slow             # every line of every file of the corpus: outside the fast lane (make fast)

FILES = sorted(CORPUS.iterdir()) + sorted(p for p in SEEDS.iterdir() if p.name[0].isdigit())
DASHES = re.compile(r"[‐-―−-]")
PREFIX = re.compile(r"^(?:ipg|mtr|cr)\s+(?=\d|appendix)")


def normalise(text: str) -> str:
    text = DASHES.sub("-", text.replace("\u00a0", " ")).lower()
    return re.sub(r"\s+", " ", text).strip()


def exported_text(data: dict) -> str:
    """Every string of the export, heading lines also as "number title" and "number. title"."""
    pieces: list[str] = []

    def walk(value):
        if isinstance(value, str):
            pieces.append(value)
        elif isinstance(value, dict):
            for item in value.values():
                walk(item)
        elif isinstance(value, list):
            for item in value:
                walk(item)
    walk({key: data[key] for key in ("front_matter", "sections", "glossary", "credits")})
    for section in data["sections"]:
        for separator in (" ", ". ", " - ", "."):
            pieces.append(f"{section['number']}{separator}{section['title']}")
    return normalise("\n".join(pieces))


HEADING = re.compile(r"^(appendix [a-z]|\d+(?:\.\d+)*[a-z]?)\.?\s*(?:[-:]\s*)?(.*)$")
CONTENTS_WORDS = {"contents", "table of contents", "appendices", "index table of contents terms"}
CELLS = re.compile(r"\t|\s{3,}")
ENTRY_WITHOUT_LEADER = re.compile(r"^\D.*\s\d{1,3}$")      # "Byes 49": a contents entry drawn without dots


def is_heading_of(cell: str, sections: dict[str, str]) -> bool:
    """"2.1. game play error - missed trigger no penalty" is the heading of section 2.1, as written."""
    match = HEADING.match(cell)
    if not match:
        return False
    title = sections.get(match.group(1))
    rest = match.group(2)
    return title is not None and (rest.startswith(title) or title.startswith(rest) or title in rest)


@pytest.mark.parametrize("path", FILES, ids=lambda p: p.name)
def test_every_source_line_is_in_the_export(path):
    assert_nothing_lost(path)


@pytest.mark.parametrize("name", pdftotext_names())
def test_every_line_of_pdftotext_output_is_in_the_export(name, pdftotext_dir):
    assert_nothing_lost(pdftotext_dir / name)


def assert_nothing_lost(path):
    with pytest.MonkeyPatch.context() as monkeypatch:
        read = keeping_what_is_read(monkeypatch)
        document, problems = load_document(path, use_cache=False)
    assert document is not None, problems
    assert len(read) == 1, f"{path.name} read {len(read)} times"
    haystack = OrderedText(exported_text(json.loads(json.dumps(document_json(document)))))
    sections = {normalise(s.number): normalise(s.title) for s in document.sections if s.number}
    # (chapters some parsers take from the contents list itself are not where the body starts)
    first_section = min((s.line for s in document.sections if s.line and s.level >= 2), default=0)
    missing = []
    lines = read[0].lines          # the lines of the file as the reader gave them to the parser
    for index, line in enumerate(lines):
        for cell in CELLS.split(line.text):
            text = cell.strip()
            if not text or is_page_number(text) or is_contents_line(text):
                continue
            wanted = PREFIX.sub("", normalise(text))
            if is_heading_of(wanted, sections) or wanted in haystack or wanted.rstrip(".") in haystack:
                continue
            contents_entry = ENTRY_WITHOUT_LEADER.match(text) and _among_contents(lines, index)
            if line.number < first_section and (HEADING.match(wanted) or wanted in CONTENTS_WORDS or contents_entry):
                continue    # the contents list before the first section
            missing.append(f"{line.number}: {text[:100]}")
    assert not missing, f"{len(missing)} lines of {path.name} are not in the export:\n" + "\n".join(missing[:20])


def keeping_what_is_read(monkeypatch) -> list:
    """The source texts the loader reads, kept (a PDF's text is extracted once, for the parse and the test)."""
    read = []

    def reading(data, name):
        source = read_bytes(data, name)
        read.append(source)
        return source
    monkeypatch.setattr(pipeline.corpus, "read_bytes", reading)
    return read


def _among_contents(lines, index: int) -> bool:
    near = [lines[at].text for at in (index - 1, index + 1) if 0 <= at < len(lines)]
    return any(is_contents_line(text) for text in near)
