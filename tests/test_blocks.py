"""Blocks built from body lines, shared by the parsers (pipeline.parse.blocks)."""
from __future__ import annotations

from pipeline.model import BULLET, PARAGRAPH, Block
from pipeline.parse.blocks import Draft, drawn_item, references_of


def test_a_reference_has_the_line_its_phrase_is_written_on():
    draft = Draft(PARAGRAPH, ["Each player, in turn order, may take mulligans (see"], 362)
    draft.add("section 2.2). Rules on mulligans are in the Comprehensive Rules, rule 103.4.", 363)
    found = draft.references(block=7)
    assert [(reference.number, reference.line, reference.block) for reference in found] == \
        [("2.2", 363, 7), ("103.4", 363, 7)]
    assert draft.text[found[0].start:found[0].end] == "2.2"


def test_glued_lines_join_a_word_broken_at_its_hyphen():
    draft = Draft(PARAGRAPH, ["A turn-"], 10, glued=True)
    draft.add("based effect (see section 4.2).", 11)
    assert draft.block() == Block(PARAGRAPH, "A turn-based effect (see section 4.2).")
    [reference] = draft.references()
    assert (reference.line, draft.text[reference.start:reference.end]) == (11, "4.2")


def test_references_are_looked_for_only_after_a_change_notes_subject():
    note = "3.5: now refers to section 2.1"
    draft = Draft(PARAGRAPH, [note], 40, references_from=note.index("now"))
    [reference] = draft.references()
    assert reference.number == "2.1" and note[reference.start:reference.end] == "2.1"


def test_a_sections_references_know_their_blocks_place():
    drafts = [Draft(PARAGRAPH, ["No reference here."], 1), Draft(PARAGRAPH, ["See section 1.2."], 2)]
    assert [(reference.number, reference.block) for reference in references_of(drafts)] == [("1.2", 1)]


def test_a_bullet_always_starts_a_list_item_even_without_a_space_after_it():
    assert drawn_item("• Magic: The Gathering | Avatar: The Last Airbender™", paragraph_may_end=False) == \
        ("•", "Magic: The Gathering | Avatar: The Last Airbender™")
    assert drawn_item("•Secrets of Strixhaven") == ("•", "Secrets of Strixhaven")
    assert drawn_item("◦ Sideboarding") == ("◦", "Sideboarding")


def test_a_dash_starts_an_item_only_where_the_paragraph_above_may_end():
    assert drawn_item("- Rated") == ("-", "Rated")
    assert drawn_item("- Rated", paragraph_may_end=False) is None            # "-" breaks words at a line's end
    assert drawn_item("* Casual", paragraph_may_end=False, above=Draft(BULLET, ["Rated"], 3, marker="*")) == \
        ("*", "Casual")                                                      # the list drawn with "*" goes on
    assert drawn_item("* Casual", paragraph_may_end=False, above=Draft(BULLET, ["Rated"], 3, marker="-")) is None
    assert drawn_item("-based effect") is None and drawn_item("Rated") is None
