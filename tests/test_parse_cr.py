"""The Comprehensive Rules parser on the real CR files (2011-2026) and the 2011 blog excerpt."""
from __future__ import annotations

import gc
import re
from dataclasses import fields, replace
from functools import cache

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.model import ERROR, INFO, WARNING, Block, DocumentInfo, Reference, Section, section_id
from pipeline.parse import PARSERS, parse
from pipeline.parse.common import changed, fast_constructor, field_changer
from pipeline.parse.cr import heading_shape, parse_cr, term_names
from pipeline.parse.refs import find_references, find_references_in_texts
from pipeline.read import read_bytes, read_source
from pipeline.read.shapes import is_page_number

from conftest import CORPUS, SEEDS
from ordered_text import OrderedText

CR_FILES = ["cr-2011-04-01.txt", "cr-2015-09-26.txt", "cr-2024-08-02.txt", "cr-2024-11-08.txt",
            "cr-2025-11-14.txt", "cr-2026-01-16.txt"]
SEED = "002_75bbd6f8d1790816.txt"   # section 8 of the 2011 CR, copied into a blog post


def info_for(name: str) -> DocumentInfo:
    return DocumentInfo(id="cr", kind="cr", title="Comprehensive Rules", edition=None, source=name)


@cache
def parsed(name: str):
    path = SEEDS / name if name == SEED else CORPUS / name
    return parse(read_source(path), info_for(name))


def parse_text(text: str, name: str = "test-cr.txt"):
    return parse(read_bytes(text.encode("utf-8"), name), info_for(name))


def raw_lines(name: str) -> list[str]:
    """The file's lines decoded here, without the reader: UTF-8 (BOM or not), else Windows-1252."""
    data = (SEEDS / name if name == SEED else CORPUS / name).read_bytes()
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError:
        text = data.decode("cp1252")
    return re.split(r"\r\n|\r|\n", text)


def raw_parts(name: str) -> tuple[list[str], list[str], list[str]]:
    """Contents list, rules and glossary of a CR file, cut by its headings.

    The contents list runs from "Contents" to the second "1. Game Concepts"; the rules from there
    to the second "Glossary" line; the glossary from there to the second "Credits" line.
    """
    lines = raw_lines(name)
    def nth(text: str, n: int) -> int:
        return [i for i, line in enumerate(lines) if line.strip() == text][n]
    contents, rules_start = nth("Contents", 0), nth("1. Game Concepts", 1)
    glossary, credits = nth("Glossary", 1), nth("Credits", 1)
    return lines[contents:rules_start], lines[rules_start:glossary], lines[glossary + 1:credits]


def count_kinds(document) -> dict[str, int]:
    counts = {"chapter": 0, "section": 0, "rule": 0, "subrule": 0}
    for section in document.sections:
        counts[section.kind] += 1
    return counts


# --- counts ----------------------------------------------------------------------------------------

CHAPTER = re.compile(r"[1-9]\. \S")
SECTION = re.compile(r"[1-9]\d\d\. \S")
RULE = re.compile(r"[1-9]\d\d\.\d+(?![\da-z])")      # "100.1.", "606.5 ", "901.4.All"
SUBRULE = re.compile(r"[1-9]\d\d\.\d+[a-z]")          # "100.1a", "119.1d."


def glossary_blocks(lines: list[str]) -> list[list[str]]:
    blocks, block = [], []
    for line in lines:
        if line.strip():
            block.append(line)
        elif block:
            blocks.append(block)
            block = []
    return blocks + [block] if block else blocks


@pytest.mark.parametrize("name", CR_FILES)
def test_counts_match_simple_regexes_over_the_raw_file(name):
    _, rules, glossary = raw_parts(name)
    expected = {
        "chapter": sum(1 for line in rules if CHAPTER.match(line)),
        "section": sum(1 for line in rules if SECTION.match(line)),
        "rule": sum(1 for line in rules if RULE.match(line)),
        "subrule": sum(1 for line in rules if SUBRULE.match(line)),
    }
    document = parsed(name)
    assert count_kinds(document) == expected
    assert len(document.glossary) == len(glossary_blocks(glossary))


# Verified by hand with the raw_parts regexes above and with grep on the LF-converted files, e.g.
# `tr '\r' '\n' < cr-2026-01-16.txt | sed -n '/^Glossary/,$p' | grep -c '^[0-9]\{3\}\.[0-9]*[a-z]'`
# on the rules part; glossary terms are the blank-line separated blocks after the second "Glossary".
KNOWN_COUNTS = {
    "cr-2011-04-01.txt": (9, 120, 786, 1002, 449),
    "cr-2015-09-26.txt": (9, 126, 873, 1176, 506),
    "cr-2024-08-02.txt": (9, 144, 1123, 1870, 690),
    "cr-2024-11-08.txt": (9, 144, 1124, 1883, 698),
    "cr-2025-11-14.txt": (9, 146, 1155, 1954, 725),
    "cr-2026-01-16.txt": (9, 146, 1157, 1957, 725),
}


@pytest.mark.parametrize("name", CR_FILES)
def test_counts_match_the_numbers_verified_by_hand(name):
    document = parsed(name)
    counts = count_kinds(document)
    assert (counts["chapter"], counts["section"], counts["rule"], counts["subrule"],
            len(document.glossary)) == KNOWN_COUNTS[name]


@pytest.mark.parametrize("name", CR_FILES)
def test_real_files_parse_without_problems_and_complete(name):
    document = parsed(name)
    assert [str(problem) for problem in document.problems] == []
    assert document.info.complete


def test_parser_is_registered_for_cr():
    assert PARSERS["cr"] is parse_cr


# --- structure ---------------------------------------------------------------------------------------

def test_levels_kinds_and_parents_of_the_four_levels():
    document = parsed("cr-2026-01-16.txt")
    chapter, section, rule, subrule = (document.section(n) for n in ("1", "100", "100.1", "100.1a"))
    assert (chapter.kind, chapter.level, chapter.parent, chapter.title) == ("chapter", 1, None, "Game Concepts")
    assert (section.kind, section.level, section.parent, section.title) == ("section", 2, "cr:1", "General")
    assert (rule.kind, rule.level, rule.parent, rule.id) == ("rule", 3, "cr:100", "cr:100.1")
    assert (subrule.kind, subrule.level, subrule.parent) == ("subrule", 4, "cr:100.1")
    assert rule.text.startswith("These Magic rules apply to any Magic game")
    assert subrule.text == "A two-player game is a game that begins with only two players."


@pytest.mark.parametrize("name", CR_FILES)
def test_every_parent_exists_and_ids_follow_section_id(name):
    document = parsed(name)
    ids = {section.id for section in document.sections}
    assert len(ids) == len(document.sections)
    for section in document.sections:
        assert section.id == section_id("cr", section.number)
        assert section.parent is None or section.parent in ids
        assert (section.parent is None) == (section.kind == "chapter")


@pytest.mark.parametrize("name", CR_FILES)
def test_subrule_letters_go_on_after_k(name):
    # "704.5m" follows "704.5k": no l. A parser that stops at the first missing letter loses these.
    _, rules, _ = raw_parts(name)
    after_k = {re.match(r"\d{3}\.\d+[m-z]", line).group(0) for line in rules if re.match(r"\d{3}\.\d+[m-z]", line)}
    assert after_k
    numbers = {section.number for section in parsed(name).sections}
    assert after_k <= numbers


def test_704_5m_follows_704_5k_and_704_5p_follows_704_5n():
    document = parsed("cr-2026-01-16.txt")
    assert document.section("704.5m").text.startswith("If an Aura is attached to an illegal object")
    assert document.section("704.5p") is not None and document.section("704.5n") is not None
    assert document.section("704.5l") is None and document.section("704.5o") is None


@pytest.mark.parametrize("name, number, kind, text_start", [
    ("cr-2024-08-02.txt", "119.1d", "subrule", "In a two-player Brawl game"),          # "119.1d." extra dot
    ("cr-2024-08-02.txt", "606.5", "rule", "If the total cost to activate a loyalty"),  # "606.5 " missing dot
    ("cr-2024-08-02.txt", "901.4", "rule", "All plane and phenomenon cards remain"),   # "901.4.All" no space
    ("cr-2026-01-16.txt", "119.1d", "subrule", "In a two-player Brawl game"),
    ("cr-2026-01-16.txt", "606.5", "rule", "If the total cost to activate a loyalty"),
    ("cr-2011-04-01.txt", "121.1c", "subrule", "If a player has ten or more poison"),   # "121.1c." in 2011
    (SEED, "800.4a", "subrule", "When a player leaves the game, all objects"),         # "800.4a." dotted
    (SEED, "800.4c", "subrule", "If an object that would be owned by a player"),       # "800.4c If" no dot
])
def test_numbering_anomalies_parse_as_their_rule(name, number, kind, text_start):
    section = parsed(name).section(number)
    assert section is not None
    assert section.kind == kind
    assert section.text.startswith(text_start)
    assert not section.text.startswith(".")


def test_rule_that_is_only_a_heading_keeps_it_as_title():
    document = parsed("cr-2026-01-16.txt")
    assert document.section("702.2").title == "Deathtouch"
    assert document.section("702.2").blocks == ()
    assert document.section("702.186").title == "∞ (Infinity)"


# --- continuation paragraphs and examples -------------------------------------------------------------

def test_indented_continuation_paragraph_belongs_to_the_rule_above():
    document = parsed("cr-2026-01-16.txt")
    blocks = document.section("205.4c").blocks
    assert len(blocks) == 2
    assert blocks[1].text.startswith("Cards printed in sets prior to the Eighth Edition core set")
    rule_509_1b = document.section("509.1b")
    assert rule_509_1b.blocks[1].text.startswith("A restriction may be created by an evasion ability")
    assert rule_509_1b.examples[0].startswith("Example: An attacking creature with flying and shadow")


def test_unindented_continuation_lines_of_2011_belong_to_the_rule_above():
    blocks = parsed("cr-2011-04-01.txt").section("810.7b").blocks
    assert len(blocks) == 3
    assert blocks[2].text.startswith("All other cases in which the \"defending player\" is referred to")


def test_example_attaches_to_the_rule_it_follows():
    document = parsed("cr-2026-01-16.txt")
    examples = document.section("205.4b").examples
    assert len(examples) == 1 and examples[0].startswith("Example: An ability reads, “All lands are 1/1")
    assert document.section("205.4c").examples == ()


@pytest.mark.parametrize("name", ["cr-2025-11-14.txt", "cr-2026-01-16.txt"])
def test_example_after_a_blank_line_still_belongs_to_the_rule_above(name):
    document = parsed(name)
    examples = document.section("701.67b").examples
    assert len(examples) == 1
    assert examples[0].startswith("Example: Spirit Water Revival is a spell that costs {1}{U}{U}")
    assert document.section("701.68") is None or not any(
        "Spirit Water Revival" in example for example in document.section("701.68").examples)


@pytest.mark.parametrize("name", CR_FILES)
def test_every_example_paragraph_is_an_example(name):
    _, rules, _ = raw_parts(name)
    expected = sum(1 for line in rules if line.startswith("Example:"))
    document = parsed(name)
    examples = [example for section in document.sections for example in section.examples]
    assert len(examples) == expected
    assert all(example.startswith("Example:") for example in examples)
    assert not any(block.text.startswith("Example:") for section in document.sections for block in section.blocks)


# --- glossary --------------------------------------------------------------------------------------

def test_last_glossary_entry_is_kept():
    entry = parsed("cr-2026-01-16.txt").glossary[-1]
    assert entry.term == "Zone-Change Triggers"
    assert entry.text == "Trigger events that involve objects changing zones. See rule 603.6."
    assert [reference.number for reference in entry.refs] == ["603.6"]


def test_last_glossary_entry_is_kept_when_the_file_ends_without_a_line_end():
    document = parse_text("Glossary\r\nCredits\r\n\r\n1. Game Concepts\r\n\r\n100. General\r\n\r\n"
                          "100.1. A rule.\r\n\r\nGlossary\r\n\r\nAbandon\r\nTo turn a scheme face down.\r\n\r\n"
                          "Zone\r\nA place where objects can be during a game. See section 4.")
    assert [entry.term for entry in document.glossary] == ["Abandon", "Zone"]
    assert document.glossary[-1].text == "A place where objects can be during a game. See section 4."


@pytest.mark.parametrize("name", CR_FILES)
def test_obsolete_terms_are_glossary_entries(name):
    _, _, glossary = raw_parts(name)
    expected = [block[0] for block in glossary_blocks(glossary) if block[0].rstrip().endswith("(Obsolete)")]
    terms = [entry.term for entry in parsed(name).glossary if entry.term.endswith("(Obsolete)")]
    assert terms == expected and len(terms) >= 26


def test_term_line_with_several_names_gives_each_name():
    entries = {entry.term: entry for entry in parsed("cr-2026-01-16.txt").glossary}
    assert entries["Partner, “Partner—[text],” “Partner with [name]”"].names == (
        "Partner", "Partner—[text]", "Partner with [name]")
    assert entries["Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)"].names == (
        "Remove from the Game", "Removed", "Removed-from-the-Game Zone")
    assert entries["Banding, “Bands with Other”"].names == ("Banding", "Bands with Other")
    assert entries["Ability"].names == ("Ability",)
    # "Active Player" is a term of its own: this line names one thing, the APNAP order.
    assert entries["Active Player, Nonactive Player Order"].names == ("Active Player, Nonactive Player Order",)


def test_term_names_without_other_terms():
    assert term_names("Kicker, Kicked") == ("Kicker", "Kicked")
    assert term_names("Banding, \"Bands with Other\"") == ("Banding", "Bands with Other")
    assert term_names("Substance (Obsolete)") == ("Substance",)


def test_numbered_senses_in_the_glossary_are_definition_text_not_chapters():
    document = parsed("cr-2026-01-16.txt")
    ability = next(entry for entry in document.glossary if entry.term == "Ability")
    assert ability.text.splitlines()[:2] == [
        "1. Text on an object that explains what that object does or can do.",
        "2. An activated or triggered ability on the stack. This kind of ability is an object."]
    assert [reference.number for reference in ability.refs] == ["113", "6"]
    assert [section.number for section in document.sections if section.kind == "chapter"] == list("123456789")


def test_glossary_terms_ending_in_an_exclamation_mark_are_terms():
    terms = {entry.term for entry in parsed("cr-2026-01-16.txt").glossary}
    assert {"For Mirrodin!", "Start Your Engines!"} <= terms


# --- front matter, contents, credits, nothing lost ---------------------------------------------------

def test_front_matter_holds_title_date_and_introduction():
    front = [block.text for block in parsed("cr-2026-01-16.txt").front_matter]
    assert front[:4] == ["Magic: The Gathering Comprehensive Rules",
                         "These rules are effective as of January 16, 2026.", "Introduction",
                         front[3]]
    assert front[3].startswith("This document is the ultimate authority for Magic: The Gathering®")
    assert not any(text in ("Contents", "100. General") for text in front)


def test_credits_hold_the_credits_and_trademark_lines():
    credits = [block.text for block in parsed("cr-2026-01-16.txt").credits]
    assert credits[0] == "Credits"
    assert credits[1] == "Magic: The Gathering Original Game Design: Richard Garfield"
    assert credits[-1].startswith("©2025 Viacom International Inc.")


def test_2011_customer_service_information_is_kept_in_credits():
    credits = [block.text for block in parsed("cr-2011-04-01.txt").credits]
    assert "Customer Service Information" in credits
    assert credits[-1] == "Visit our website: magicthegathering.com"


def normalise(text: str) -> str:
    return " ".join(text.split())


LEADING_NUMBER = re.compile(r"(\d{1,3}(?:\.\d{1,3}[a-z]?)?)\.{0,2}\s*(.*)")


def assert_nothing_lost(document, lines: list[str], exempt: set[int]):
    """Every non-blank line not exempt is in the document: whole, or as its heading number + the rest."""
    parts = []
    for section in document.sections:
        parts.append(f"{section.number}. {section.title}")
        parts.extend(block.as_text() for block in section.blocks)
        parts.extend(section.examples)
    if document.glossary:
        parts.append("Glossary")      # the glossary heading is the glossary itself
    for entry in document.glossary:
        parts.extend((entry.term, entry.text))
    parts.extend(block.as_text() for block in document.front_matter + document.credits)
    export = OrderedText(normalise("\n".join(parts)))
    numbers = {section.number for section in document.sections}
    lost = []
    for index, line in enumerate(lines):
        text = normalise(line)
        if not text or index in exempt or is_page_number(text):
            continue
        number = LEADING_NUMBER.fullmatch(text)       # (a rule's line: its number, then its text)
        if number and number.group(1) in numbers and number.group(2) in export or text in export:
            continue
        lost.append((index + 1, text))
    assert lost == []


@pytest.mark.slow
@pytest.mark.parametrize("name", CR_FILES)
def test_nothing_lost_but_the_contents_list(name):
    lines = raw_lines(name)
    contents, _, _ = raw_parts(name)
    start = lines.index(contents[0])
    assert_nothing_lost(parsed(name), lines, set(range(start, start + len(contents))))


def test_nothing_lost_from_the_blog_excerpt():
    assert_nothing_lost(parsed(SEED), raw_lines(SEED), set())


def test_contents_list_is_not_taken_for_rules():
    document = parsed("cr-2026-01-16.txt")
    assert document.section("1").line == 181
    assert document.section("100").line == 183
    assert len([section for section in document.sections if section.number == "905"]) == 1


# --- the 2011 blog excerpt ---------------------------------------------------------------------------------

def test_blog_lines_go_to_front_matter_and_credits():
    document = parsed(SEED)
    assert [block.text for block in document.front_matter] == ["Saturday, March 19, 2011"]
    assert [block.text for block in document.credits] == ["No comments:", "Post a Comment"]
    assert document.section("811.5").text.endswith("Teammates can’t manipulate each other’s cards or permanents.")


def test_excerpt_of_chapter_8_only_is_fine():
    document = parsed(SEED)
    assert document.info.complete
    assert not [problem for problem in document.problems if problem.severity == ERROR]
    assert count_kinds(document) == {"chapter": 1, "section": 11, "rule": 79, "subrule": 81}
    assert document.section("8").title == "Multiplayer Rules"


def test_hard_wrapped_lines_join_into_one_rule_text():
    document = parsed(SEED)
    assert document.section("800.4").text == ("Unlike two-player games, multiplayer games can continue "
                                              "after one or more players have left the game.")
    assert len(document.section("800.4a").examples) == 4
    assert document.section("800.4a").examples[0].endswith("Control Magic is put into Alex’s graveyard.")


def test_wrapped_line_starting_with_a_rule_number_is_text_not_a_rule():
    document = parsed(SEED)
    # "(See rule\n101.4 and rule 509, ...)" and "See rule\n103.4." inside rules 802.4 and 805.3a.
    assert document.section("101.4") is None and document.section("103.4") is None
    assert "(See rule 101.4 and rule 509, “Declare Blockers Step.”)" in document.section("802.4").text
    assert document.section("805.3a").text.endswith("See rule 103.4.")


def test_excerpt_references_outside_the_excerpt_are_references():
    refs = {reference.number: reference for section in parsed(SEED).sections for reference in section.refs}
    for number in ("109", "407", "309.5", "103.7", "704.5k", "101.4", "509", "103.4", "800.4a"):
        assert isinstance(refs[number], Reference)
        assert refs[number].target is None


def test_missing_dot_subrules_of_the_excerpt_are_present():
    document = parsed(SEED)
    for number in ("800.4c", "800.4d", "800.4i", "801.2a", "811.2c"):
        assert document.section(number).kind == "subrule"
        assert document.section(number).parent == f"cr:{number[:-1]}"


# --- references ----------------------------------------------------------------------------------------

@pytest.mark.parametrize("name", CR_FILES + [SEED])
def test_section_refs_are_those_find_references_gives(name):
    document = parsed(name)
    for section in document.sections[::7]:
        expected = []
        for text in [block.text for block in section.blocks] + list(section.examples):
            expected.extend((reference.text, reference.number) for reference in find_references(text, None, True))
        assert [(reference.text, reference.number) for reference in section.refs] == expected


def test_references_carry_the_line_of_their_paragraph():
    section = parsed("cr-2026-01-16.txt").section("100.1b")
    assert [(reference.number, reference.line) for reference in section.refs] == [("8", section.line)]


OTHER_FILES = ["ipg-2024-09-23.txt", "mtr-2026-02-27.txt", "mtr-2012-03-20-numegil.txt",
               "ipg-2016-09-30-bluewizard.html", "mtr-2019-01-21-magicjudges.html"]


@pytest.mark.slow
@pytest.mark.parametrize("name", CR_FILES + [SEED] + OTHER_FILES)
def test_fast_references_equal_find_references_on_every_line(name):
    # The parser reads references through an emulation of find_references (for speed): same results.
    source = read_source(SEEDS / name if name == SEED else CORPUS / name)
    texts = [line.text for line in source.lines if line.text]
    lines = [line.number for line in source.lines if line.text]
    assert find_references_in_texts(texts, lines, True) == [find_references(text, line, True) for text, line in zip(texts, lines)]


REFERENCE_PIECES = st.sampled_from([
    "rule", "rules", "Rule", "RULES", "rUle", "section", "sections", "Section", "§", "§§", "x§", " ", "  ",
    "\u00a0",
    "\n", ",", ", and ", " or ", "–", "-", " through ", "704.5k", "603.7d", "f", "103.2", "8", "1000.1", "12",
    "(", ")", " (3.1)", "Tardiness", "Appendix C", "appendix", "of the", " CR", "MTR", "IPG’s", "Comprehensive Rules",
    "Tournament Rules", "’s", "see", "x", ".", "5", "a", "overrules", "1/1", "\x00",
])


@settings(max_examples=600, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(REFERENCE_PIECES, max_size=14).map("".join), max_size=5))
def test_fast_references_equal_find_references_on_generated_texts(texts):
    lines = list(range(1, len(texts) + 1))
    assert find_references_in_texts(texts, lines, True) == [find_references(text, line, True) for text, line in zip(texts, lines)]


def test_model_objects_equal_those_built_by_the_dataclass_constructors():
    section = parsed("cr-2026-01-16.txt").section("100.1b")
    rebuilt = Section(**{field.name: getattr(section, field.name) for field in fields(Section)})
    assert rebuilt == section and hash(rebuilt) == hash(section)
    assert section.blocks[0] == Block(section.blocks[0].kind, section.blocks[0].text)
    reference = section.refs[0]
    assert reference == Reference(reference.text, reference.number, None, None, reference.line, reference.block,
                                  reference.start, reference.end)
    assert section.text[reference.start:reference.end] == reference.number   # where the number is written


def test_fast_constructors_and_copies_give_what_the_dataclass_gives():
    reference = Reference("rule 704.5k", "704.5k", None, None, 12, 0, 5, 11)
    assert fast_constructor(Reference)("rule 704.5k", "704.5k", line=12, block=0, start=5, end=11) == reference
    assert fast_constructor(Block)("paragraph", "Text.") == Block("paragraph", "Text.")
    copy = changed(reference, target="cr:704.5k")
    assert copy == replace(reference, target="cr:704.5k") and copy != reference and reference.target is None
    with pytest.raises(TypeError):
        fast_constructor(Reference)("only the text")       # a missing field is refused, as by the class


def test_a_field_changer_gives_what_replace_gives():
    reference = Reference("rule 704.5k", "704.5k", None, None, 12, 0, 5, 11)
    copy = field_changer(Reference, "target")(reference, "cr:704.5k")
    expected = replace(reference, target="cr:704.5k")
    assert copy == expected and hash(copy) == hash(expected) and reference.target is None
    section = Section("cr:100.1", "100.1", "", 3)
    assert field_changer(Section, "refs")(section, (copy,)) == replace(section, refs=(copy,))


def test_heading_shapes_give_the_number_the_kind_and_the_number_above():
    assert heading_shape("100.2c Text") == ("100.2c", "subrule", (100, 2, ord("c")), "Text", "100.2")
    assert heading_shape("119.1d. Text") == ("119.1d", "subrule", (119, 1, ord("d")), "Text", "119.1")
    assert heading_shape("100.2. Text") == ("100.2", "rule", (100, 2, -1), "Text", "100")
    assert heading_shape("606.5 Text")[:2] == ("606.5", "rule")
    assert heading_shape("100. General") == ("100", "section", (100, -1, -1), "General", "1")
    assert heading_shape("1. Game Concepts") == ("1", "chapter", (99, -1, -1), "Game Concepts", None)
    assert heading_shape("100a. General") is None         # a subrule letter comes after rule digits only
    assert heading_shape("100.2cText") is None            # neither dot nor gap before the text


def test_the_cycle_collector_is_paused_only_while_parsing():
    text = RULES_HEAD + "100.1. One.\n"
    assert gc.isenabled()
    parse_text(text)
    assert gc.isenabled()
    gc.disable()
    try:
        parse_text(text)
        assert not gc.isenabled()          # left as the caller had it
    finally:
        gc.enable()


# --- problems ----------------------------------------------------------------------------------------

def messages(document, severity: str) -> list[str]:
    return [problem.message for problem in document.problems if problem.severity == severity]


RULES_HEAD = "1. Game Concepts\n\n100. General\n\n"


def test_duplicate_number_is_a_warning_and_both_are_kept():
    document = parse_text(RULES_HEAD + "100.1. One.\n\n100.1. Two.\n")
    assert any("duplicate" in message and "100.1" in message for message in messages(document, WARNING))
    assert [section.text for section in document.sections if section.number == "100.1"] == ["One.", "Two."]


def test_a_number_read_again_gets_an_id_of_its_own_each_time():
    document = parse_text(RULES_HEAD + "100.3. One.\n\n100.3. Two.\n\n100.3. Three.\n\n100.4. Four.\n")
    assert [(section.id, section.text) for section in document.sections if section.number.startswith("100.")] == [
        ("cr:100.3", "One."), ("cr:100.3-2", "Two."), ("cr:100.3-3", "Three."), ("cr:100.4", "Four.")]


def test_a_rule_whose_text_is_on_the_line_after_its_number():
    document = parse_text(RULES_HEAD + "100.1.\nDeathtouch\n\n100.2.\nA rule's text on the line after its number.\n")
    assert (document.section("100.1").title, document.section("100.1").blocks) == ("Deathtouch", ())
    assert (document.section("100.2").title, document.section("100.2").text) == \
        ("", "A rule's text on the line after its number.")


def test_numbering_that_goes_backwards_is_a_warning():
    document = parse_text(RULES_HEAD + "100.1. One.\n\n100.2. Two.\n\n100.1a Back.\n")
    assert any("backwards" in message for message in messages(document, WARNING))


def test_subrule_letter_gap_is_reported_but_l_and_o_are_not_gaps():
    letters = "abcdefghijkmnpq"
    text = RULES_HEAD + "100.1. Rule.\n\n" + "".join(f"100.1{letter} Text.\n\n" for letter in letters)
    assert messages(parse_text(text), INFO) == []
    gap = parse_text(RULES_HEAD + "100.1. Rule.\n\n100.1a Text.\n\n100.1c Text.\n")
    assert any("100.1b is missing" in message for message in messages(gap, INFO))


def test_truncated_in_the_glossary_marks_the_document_incomplete():
    document = parse_text("Contents\n\n1. Game Concepts\n100. General\nGlossary\nCredits\n\n" + RULES_HEAD +
                          "100.1. Rule.\n\nGlossary\n\nAbandon\nTo turn a scheme face down.\n\nAbility\n1. Text")
    assert document.info.complete is False       # a broken invariant (the contents list) is an error
    assert any("Credits" in message for message in messages(document, ERROR))
    assert document.glossary[-1].term == "Ability" and document.glossary[-1].text == "1. Text"


def test_file_without_rules_is_an_error():
    document = parse_text("Magic Tournament Rules\n\nSome text about tournaments.\n")
    assert any("no numbered rules found" in message for message in messages(document, ERROR))
    assert [block.text for block in document.front_matter] == ["Magic Tournament Rules",
                                                              "Some text about tournaments."]


def test_contents_without_a_label_is_recognised_by_headings_that_come_back():
    document = parse_text("Title\n\n1. Game Concepts\n100. General\nGlossary\nCredits\n\n" + RULES_HEAD +
                          "100.1. Rule.\n\nGlossary\n\nAbandon\nTo turn.\n\nCredits\n\nThanks.\n")
    assert count_kinds(document) == {"chapter": 1, "section": 1, "rule": 1, "subrule": 0}
    assert document.section("1").line == 8
    assert document.info.complete and document.problems == ()


LINE_PIECES = st.sampled_from([
    "1. Game Concepts", "100. General", "100.1.", "100.1a", "119.1d.", "606.5", "901.4.All", "8.", "Glossary",
    "Credits", "Contents", "Example:", "  ", "text", "Rule", "rule 704.5k", "(see rule", "101.4 and", "\t",
    "12", "......... 5", "#", "“", "(Obsolete)", "—", ".", ",", "\u00a0", "",
])


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.lists(LINE_PIECES, max_size=6).map(" ".join), min_size=1, max_size=30),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_parser_never_raises_on_odd_text(lines, line_end):
    data = line_end.join(lines)
    if not data.strip():
        return
    document = parse_text(data)
    assert document.info.id == "cr"


# --- a pdftotext-like conversion ---------------------------------------------------------------------------

def pdftotext_like(name: str, keep_blank_lines: bool) -> str:
    """The file as PDF-to-text gives it: dot-leader contents, lines wrapped at 90, page numbers."""
    import textwrap
    lines = raw_lines(name)
    contents, _, _ = raw_parts(name)
    start = lines.index(contents[0])
    out = []
    for index, line in enumerate(lines):
        if start < index < start + len(contents) and line.strip():
            out.append(f"{line} {'.' * 12} {index}")
        elif not line.strip():
            if keep_blank_lines:
                out.append("")
        else:
            out += textwrap.wrap(line, 90, break_long_words=False, break_on_hyphens=False)
            if len(out) % 50 < 2:
                out += ["", str(len(out) // 50), ""]
    return "\n".join(out)


def same_text(a: str, b: str) -> bool:
    return " ".join(a.split()) == " ".join(b.split())


@pytest.mark.slow
@pytest.mark.parametrize("keep_blank_lines", [True, False])
def test_hard_wrapped_page_numbered_copy_gives_the_same_rules(keep_blank_lines):
    original = parsed("cr-2026-01-16.txt")
    document = parse_text(pdftotext_like("cr-2026-01-16.txt", keep_blank_lines), "wrapped.txt")
    assert [section.number for section in document.sections] == [section.number for section in original.sections]
    for ours, theirs in zip(document.sections, original.sections):
        assert (ours.title, ours.parent, ours.kind) == (theirs.title, theirs.parent, theirs.kind)
        assert same_text(ours.text, theirs.text) and len(ours.examples) == len(theirs.examples)
    if keep_blank_lines:
        assert [entry.term for entry in document.glossary] == [entry.term for entry in original.glossary]
        assert all(same_text(ours.text, theirs.text) for ours, theirs in zip(document.glossary, original.glossary))
    else:
        # Without blank lines a term is only guessed (a short line after a finished sentence).
        assert abs(len(document.glossary) - len(original.glossary)) <= 5
    assert document.info.complete and not document.problems
