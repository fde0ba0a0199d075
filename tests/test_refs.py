"""References as written: every form the documents use, expanded to single numbers."""
from __future__ import annotations

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.parse.refs import expand_range, find_reference_spans, find_references


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
