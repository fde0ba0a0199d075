"""Every CR edition of 2003-2026 (102 files, tests/fixtures/cr-archive.tar.xz) against an independent count.

The count (tests/cr_count.py) reads each raw file with a few regular expressions of its own and
imports nothing from the project. For every edition the parser must find exactly the sections,
rules, subrules and glossary terms the count finds, read the file in the code page the count
chose, and keep each quirk of the old editions where it belongs: emptied sections ("215. This
section is now empty...") keep their number and sentence, mistyped numbers ("606. 8b") are read
as the number they mean with a warning, glued glossary terms ("Ability1. Text...") are split.
"""
from __future__ import annotations

import tarfile
from functools import lru_cache

import pytest

from pipeline.model import WARNING, DocumentInfo
from pipeline.parse import parse
from pipeline.read import read_bytes

import cr_count
from conftest import FIXTURES

ARCHIVE = FIXTURES / "cr-archive.tar.xz"
KINDS = ("section", "rule", "subrule")
# The code pages the two readers call by different names.
ENCODINGS = {"mac_roman": "mac-roman", "utf-16": "utf-16-le|utf-16-be", "utf-8": "ascii|utf-8"}


@lru_cache(maxsize=1)
def editions() -> dict[str, bytes]:
    with tarfile.open(ARCHIVE, "r:xz") as archive:
        return {member.name: archive.extractfile(member).read()
                for member in archive.getmembers() if member.isfile()}


def parsed(name: str):
    source = read_bytes(editions()[name], name)
    return source, parse(source, DocumentInfo(id="cr", kind="cr", title="Comprehensive Rules", edition=None,
                                              source=name))


def test_the_archive_holds_102_editions_from_2003_to_2026_and_is_small():
    names = sorted(editions())
    assert len(names) == 102
    assert names[0].startswith("cr-2003-") and names[-1].startswith("cr-2026-")
    assert ARCHIVE.stat().st_size < 2_000_000


@pytest.mark.slow
def test_every_edition_gives_the_numbers_and_terms_of_the_independent_count():
    wrong = []
    for name in sorted(editions()):
        counted = cr_count.count(editions()[name])
        source, document = parsed(name)
        found = {kind: {s.number for s in document.sections if s.kind == kind} for kind in KINDS}
        found["term"] = {entry.term for entry in document.glossary}
        expected = {"section": counted["sections"], "rule": counted["rules"], "subrule": counted["subrules"],
                    "term": counted["terms"]}
        for kind, numbers in expected.items():
            if numbers != found[kind]:
                wrong.append(f"{name}: {kind}s only counted {sorted(numbers - found[kind])[:5]}, "
                             f"only parsed {sorted(found[kind] - numbers)[:5]}")
        if counted["encoding"] not in ENCODINGS.get(source.encoding, source.encoding).split("|"):
            wrong.append(f"{name}: read as {source.encoding}, counted as {counted['encoding']}")
        if not document.info.complete:
            wrong.append(f"{name}: marked incomplete")
    assert not wrong, f"{len(wrong)} differences:\n" + "\n".join(wrong)


def test_emptied_sections_keep_their_number_and_sentence():
    _, document = parsed("cr-2005-02-01.txt")
    section = document.section("215")
    assert section is not None and section.kind == "section" and section.title == ""
    assert section.text.startswith("This section is now empty. See rule 205.4c")
    assert document.section("216").parent == "cr:2"
    _, document = parsed("cr-2008-10-01.txt")
    section = document.section("211")
    assert section.text == "[This section has been intentionally left blank to preserve the ordering of other rules.]"


def test_mistyped_numbers_are_read_as_the_number_they_mean_with_a_warning():
    for name, line_start, number in (("cr-2006-05-01.txt", "606. 8b", "606.8b"),
                                     ("cr-2009-07-11.txt", "702. 37a", "702.37a"),
                                     ("cr-2008-10-01.txt", "306.b", "306.3b")):
        source, document = parsed(name)
        section = document.section(number)
        assert section is not None and section.kind == "subrule", (name, number)
        assert source.lines[section.line - 1].text.startswith(line_start)
        assert any(p.severity == WARNING and p.line == section.line and "mistyped" in p.message
                   for p in document.problems), (name, number)
    _, document = parsed("cr-2009-07-11.txt")
    assert document.section("702.37b").parent == "cr:702.37"


def test_glued_glossary_terms_are_split_at_their_first_sense():
    _, document = parsed("cr-2021-06-09.txt")
    terms = {entry.term: entry for entry in document.glossary}
    assert "Ability" in terms and terms["Ability"].text.startswith("1. Text on an object")
    assert not any(term.startswith("Ability1.") for term in terms)
    glued = [p for p in document.problems if "glued to its definition" in p.message]
    assert len(glued) == 11


def test_the_2003_expansion_symbols_belong_to_their_entry():
    _, document = parsed("cr-2003-03-15.txt")
    terms = {entry.term: entry for entry in document.glossary}
    assert not any("[symbol]" in term for term in terms)
    assert "Arabian Nights(r) [symbol]" in terms["Expansion Symbol"].text


def test_terms_without_a_blank_line_before_them_are_terms():
    for name, term, above in (("cr-2020-08-07.txt", "Concede", "Companion"),
                              ("cr-2022-09-08.txt", "Affinity", "Adventurer Card"),
                              ("cr-2008-02-01.txt", "Floor Rules", "Flip Cards")):
        _, document = parsed(name)
        terms = {entry.term: entry for entry in document.glossary}
        assert term in terms, (name, term)
        assert term not in terms[above].text, (name, above)


def test_old_code_pages_are_read_as_the_count_reads_them():
    for name in ("cr-2007-02-01.txt", "cr-2007-05-01.txt"):
        source, _ = parsed(name)
        counted = cr_count.count(editions()[name])
        assert counted["encoding"] in ENCODINGS.get(source.encoding, source.encoding).split("|"), name
