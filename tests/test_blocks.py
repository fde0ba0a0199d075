"""Blocks built from body lines, shared by the parsers (pipeline.parse.blocks)."""
from __future__ import annotations

from pipeline.model import BULLET, NUMBERED, PARAGRAPH, Block
from pipeline.parse.blocks import Draft, drawn_item, list_item, references_of
from pipeline.read.stream import ListItem, Paragraph


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


def test_a_list_element_keeps_the_marker_its_reader_drew():
    assert list_item(ListItem("3. Shuffle the deck", 4, None, marker="3.", body="Shuffle the deck")) == \
        (NUMBERED, "3.", "Shuffle the deck")
    assert list_item(ListItem("• Rated", 4, None, marker="•", body="Rated")) == (BULLET, "•", "Rated")
    assert list_item(ListItem("Rated", 4, None), paragraph_may_end=False) == (BULLET, "•", "Rated")
    assert list_item(ListItem("- Rated", 4, None), paragraph_may_end=False) == (BULLET, "-", "Rated")


def test_a_numbered_item_starts_where_the_paragraph_above_may_end_or_a_list_goes_on():
    line = Paragraph("2) Each player draws seven cards.", 5, None)
    assert list_item(line) == (NUMBERED, "2)", "Each player draws seven cards.")
    assert list_item(line, paragraph_may_end=False) is None                  # "... in" / "2) ..." wraps a sentence
    assert list_item(line, False, Draft(NUMBERED, ["Shuffle"], 4, marker="1)")) == \
        (NUMBERED, "2)", "Each player draws seven cards.")
    assert list_item(Paragraph("(b) a sideboard", 5, None)) == (NUMBERED, "(b)", "a sideboard")


def test_after_a_bullet_a_wrapped_line_at_a_capital_is_no_item_but_a_lettered_list_goes_on():
    bullet = Draft(BULLET, ["The player directly across (Player"], 9, marker="•")
    assert list_item(Paragraph("B) observes this.", 10, None), False, bullet) is None
    example = Draft(NUMBERED, ["A player lists ‘Ajani’ in a format with both Ajani Goldmane and Ajani Vengeant"],
                    9, marker="E.")
    assert list_item(Paragraph("F. A player looking at her sideboard.", 10, None), False, example) == \
        (NUMBERED, "F.", "A player looking at her sideboard.")
