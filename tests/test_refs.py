"""References as written: every form the documents use, expanded to single numbers."""
from __future__ import annotations

import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.parse import refs
from pipeline.parse.refs import expand_range, find_reference_spans, find_references
from pipeline.read import read_source

from conftest import CORPUS


def numbers(text, bare=True):
    return [(ref.number, ref.document) for ref in find_references(text, bare_cr_numbers=bare)]


@pytest.mark.parametrize("text, expected", [
    ("See rule 704.5k.", [("704.5k", None)]),
    ("rules 103.2 and 103.3 apply", [("103.2", None), ("103.3", None)]),
    ("rules 101.1, 101.2, and 101.3", [("101.1", None), ("101.2", None), ("101.3", None)]),
    ("see rules 603.7d–f", [("603.7d", None), ("603.7e", None), ("603.7f", None)]),
    ("as described in section 8", [("8", None)]),
    ("see section 113", [("113", None)]),
    ("The Out-of-Order Sequencing rules (MTR section 4.3) may", [("4.3", "mtr")]),
    ("Infraction Procedure Guide section 3.2", [("3.2", "ipg")]),
    ("section 4.3 of the Magic Tournament Rules", [("4.3", "mtr")]),
    ("Tardiness (3.1)", [("3.1", None)]),
    ("Universal Tournament Rules, sections 76 and 77", [("76", "utr"), ("77", "utr")]),
    ("see rule 809, “Emperor Variant”", [("809", None)]),
    ("(see 509.1a)", [("509.1a", None)]),
    ("listed in Appendix F.", [("Appendix F", None)]),
])
def test_every_written_form_is_found(text, expected):
    assert numbers(text) == expected


def test_subrule_ranges_skip_l_and_o():
    assert expand_range("702.19k", "p") == ["702.19k", "702.19m", "702.19n", "702.19p"]


def test_rule_ranges_expand_numbers():
    assert expand_range("801", "803") == ["801", "802", "803"]
    assert expand_range("100.1", "100.3") == ["100.1", "100.2", "100.3"]


def test_change_notes_and_headings_are_not_references():
    assert numbers("3.5: Clarified that decks are checked", bare=False) == []
    assert numbers("Appendix A—Changes From Previous Versions") == []


def test_bare_numbers_only_in_the_cr():
    assert numbers("(509.1a)", bare=False) == []


def test_spans_cover_the_written_numbers():
    text = "See rules 103.2 and 103.3."
    spans = [(text[start:end], ref.number) for start, end, ref in find_reference_spans(text)]
    assert spans == [("103.2", "103.2"), ("103.3", "103.3")]


@settings(max_examples=300, deadline=None)
@given(st.text(max_size=300))
def test_any_text_gives_references_whose_spans_lie_inside_it(text):
    for start, end, ref in find_reference_spans(text, bare_cr_numbers=True):
        assert 0 <= start < end <= len(text)
        assert ref.number


def test_infractions_named_by_title_are_references():
    refs = find_references("further problems are treated as a Game Play Error — Game Rule Violation.")
    assert [(ref.text, ref.number) for ref in refs] == [
        ("Game Play Error — Game Rule Violation", "game play error — game rule violation")]
    # with its number after it, the number says it
    assert numbers("see Unsporting Conduct — Cheating (4.8).") == [("4.8", None)]


# --- the fast search for the places a reference may start --------------------------------------------

def test_the_only_other_letters_case_blind_patterns_take_for_ascii_ones_are_the_four_the_search_allows_for():
    # The literals are looked for in an ASCII copy of the text, lowered: a pattern ignoring case must take
    # no other character for one of their letters. It takes İ and ı for i, ſ for s, the Kelvin sign for k,
    # which are "?" in the copy: a literal holding one of those letters is looked for with "?" there too.
    everything = "".join(map(chr, range(0x80, 0x110000)))
    assert set(re.compile("[a-z]", re.I).findall(everything)) == {"\u0130", "\u0131", "\u017f", "\u212a"}
    for trigger in refs._TRIGGERS:
        lowered = {(start.literal.decode(), start.offset, start.first) for start in trigger.starts if start.lowered}
        for literal, offset, first in lowered:
            for at, letter in enumerate(literal):
                if letter in "isk":
                    assert (literal[:at] + "?" + literal[at + 1:], offset, first) in lowered
    assert any(start.lowered and "i" in start.literal.decode() for start in refs._TRIGGERS[0].starts)


TRIGGER_PIECES = st.sampled_from([
    "rule", "rules", "Rule", "RULES", "rUlE", "ruLe", "section", "SECTION", "sEcTiOn", "ſection", "sectıon", "SECTİON",
    "İ", "§", "§§", "x§", " ", "\u00a0", "\n", "\x00", "\x1f", ",", " and ", "–", "-", "704.5k", "603.7d", "1000.1",
    "٣", "12", "8", ".", "a", "(", ")", " (3.1)", "(10.22)", "Tardiness", "Appendix C", "APPENDIX b", "appendıx D",
    "Appendix E—", "Game Play Error — Missed Trigger", "Tournament Error - X", "Unsporting Conduct—Cheating",
    "Error", "Conduct", "x", "overrules", "object", "ect", "ection",
])


def scanned_references(text: str, bare: bool) -> list[tuple]:
    """The references of `text` by the definition the fast search must meet: each trigger's pattern scans the
    whole text (where the text holds what the trigger needs), and the places are read left to right, a place
    inside the one before it or inside the phrase read before it skipped."""
    places = sorted(((match.start(), match.end(), trigger, match)
                     for trigger in refs._TRIGGERS + ((refs.BARE,) if bare else ())
                     if any(need in text for need in trigger.needs)
                     for match in trigger.pattern.finditer(text)), key=lambda place: place[0])
    found = []
    place_end = phrase_end = 0
    for start, end, trigger, match in places:
        if start < place_end:
            continue
        place_end = end
        if start < phrase_end:
            continue
        read = trigger.read(text, start, end, match, 0)
        if read is not None:
            phrase_end, items = read
            found.extend(items)
    return found


def found_references(texts: list[str], bare: bool) -> list[list[tuple]]:
    return [[(ref.start, ref.end, ref.text, ref.number, ref.document) for ref in found]
            for found in refs.find_references_in_texts(texts, [None] * len(texts), bare)]


@settings(max_examples=800, deadline=None)
@given(st.lists(st.lists(TRIGGER_PIECES, max_size=12).map("".join), max_size=6), st.booleans())
def test_references_found_at_once_are_those_each_pattern_finds_scanning_each_text(texts, bare):
    assert found_references(texts, bare) == [scanned_references(text, bare) for text in texts]


@pytest.mark.parametrize("name", ["cr-2026-01-16.txt", "ipg-2024-09-23.txt", "mtr-2026-02-27.txt",
                                  "mtr-2019-01-21-magicjudges.html"])
def test_references_found_at_once_in_a_real_document_are_those_found_scanning_each_line(name):
    texts = [line.text for line in read_source(CORPUS / name).lines]
    found = found_references(texts, True)
    assert found == [scanned_references(text, True) for text in texts]
    assert sum(map(len, found)) >= 20       # (references there are)
