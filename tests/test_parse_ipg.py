"""The IPG parser on the real editions (PDF text 2024, bluewizard HTML 2016, magicjudges HTML 2020),
the cut-off 2016 seed, and small hand-made texts for the traps the real files do not show.

Expected figures are literal tables read off the documents by hand (the line numbers quoted in
the comments are the lines of the files), never computed by the parser under test.
"""
from __future__ import annotations

import re

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from pipeline.model import ERROR, INFO, SUBHEADING, TABLE_ROW, WARNING, Document, DocumentInfo, Problem
from pipeline.parse import PARSERS, parse
from pipeline.parse.ipg import parse_ipg
from pipeline.read import Line, SourceText, read_bytes, read_source
from pipeline.read.shapes import is_page_number

from conftest import CORPUS, SEEDS

IPG_2024 = CORPUS / "ipg-2024-09-23.txt"
IPG_2016 = CORPUS / "ipg-2016-09-30-bluewizard.html"
IPG_2020 = CORPUS / "ipg-2020-01-24-magicjudges.html"
SEED_CUT = SEEDS / "001_35b49a7900bc8bc7.txt"

WL, GL, ML, DQ, NP = "Warning", "Game Loss", "Match Loss", "Disqualification", "No Penalty"

# Penalty of every infraction section, read from the section itself.
# 2024: the end of each heading line ("2.1. Game Play Error — Missed Trigger No Penalty", lines 216-966).
PENALTIES_2024 = {
    "2.1": NP, "2.2": WL, "2.3": WL, "2.4": WL, "2.5": WL, "2.6": WL,
    "3.1": GL, "3.2": ML, "3.3": WL, "3.4": GL, "3.5": WL, "3.6": WL, "3.7": WL, "3.8": WL, "3.9": WL,
    "4.1": WL, "4.2": ML, "4.3": ML, "4.4": ML, "4.5": DQ, "4.6": DQ, "4.7": DQ, "4.8": DQ,
}
# 2016: the one-cell "Penalty" table after each heading. 3.4 is Insufficient Shuffling and
# 3.5 Deck/Decklist Problem in this edition; 4.3 and 4.4 were still Disqualifications.
PENALTIES_2016 = {
    "2.1": NP, "2.2": WL, "2.3": WL, "2.4": WL, "2.5": WL, "2.6": WL,
    "3.1": GL, "3.2": ML, "3.3": WL, "3.4": WL, "3.5": GL, "3.6": WL, "3.7": WL, "3.8": WL,
    "4.1": WL, "4.2": ML, "4.3": DQ, "4.4": DQ, "4.5": DQ, "4.6": DQ, "4.7": DQ, "4.8": DQ,
}
# 2020: the "Penalty" box after each Definition ("None" for 2.1; 3.5 says "Warning with potential upgrade").
PENALTIES_2020 = {
    "2.1": NP, "2.2": WL, "2.3": WL, "2.4": WL, "2.5": WL, "2.6": WL,
    "3.1": GL, "3.2": ML, "3.3": WL, "3.4": GL, "3.5": "Warning with potential upgrade",
    "3.6": WL, "3.7": WL, "3.8": WL, "3.9": WL,
    "4.1": WL, "4.2": ML, "4.3": ML, "4.4": ML, "4.5": DQ, "4.6": DQ, "4.7": DQ, "4.8": DQ,
}

# Appendix A rows as the documents write them (2024: lines 993-1017; the HTML files: the <table>).
APPENDIX_A_2024 = [
    ("Missed Trigger", "None"), ("Looking at Extra Cards", WL), ("Hidden Card Error", WL),
    ("Mulligan Procedure Error", WL), ("Game Rule Violation", WL), ("Failure to Maintain Game State", WL),
    ("Tardiness", GL), ("Outside Assistance", ML), ("Slow Play", WL), ("Decklist Problem", GL),
    ("Deck Problem", WL), ("Limited Procedure Violation", WL), ("Communication Policy Violation", WL),
    ("Marked Cards", WL), ("Insufficient Shuffling", WL),
    ("Unsporting Conduct — Minor", WL), ("Unsporting Conduct — Major", ML),
    ("Improperly Determining a Winner", ML), ("Bribery and Wagering", ML), ("Aggressive Behavior", DQ),
    ("Theft of Tournament Material", DQ), ("Stalling", DQ), ("Cheating", DQ),
]
APPENDIX_A_2016 = [
    ("Missed Trigger", "None"), ("Looking at Extra Cards", WL), ("Hidden Card Error", WL),
    ("Mulligan Procedure Error", WL), ("Game Rule Violation", WL), ("Failure to Maintain Game State", WL),
    ("Tardiness", GL), ("Outside Assistance", ML), ("Slow Play", WL), ("Insufficient Shuffling", WL),
    ("Deck/Decklist Problem", GL), ("Limited Procedure Violation", WL), ("Communication Policy Violation", WL),
    ("Marked Cards", WL),
    ("Unsporting Conduct - Minor", WL), ("Unsporting Conduct - Major", ML),
    ("Improperly Determining a Winner", DQ), ("Bribery and Wagering", DQ), ("Aggressive Behavior", DQ),
    ("Theft of Tournament Material", DQ), ("Stalling", DQ), ("Cheating", DQ),
]
APPENDIX_A_2020 = [
    ("Missed Trigger", "None"), ("Looking at Extra Cards", WL), ("Hidden Card Error", WL),
    ("Mulligan Procedure Error", WL), ("Game Rule Violation", WL), ("Failure to Maintain Game State", WL),
    ("Tardiness", GL), ("Outside Assistance", ML), ("Slow Play", WL), ("Decklist Problem", GL),
    ("Deck/Deck Problem", WL),   # sic: the file's typo for "Deck Problem"
    ("Limited Procedure Violation", WL), ("Communication Policy Violation", WL),
    ("Marked Cards", WL), ("Insufficient Shuffling", WL),
    ("Unsporting Conduct - Minor", WL), ("Unsporting Conduct - Major", ML),
    ("Improperly Determining a Winner", ML), ("Bribery and Wagering", ML), ("Aggressive Behavior", DQ),
    ("Theft of Tournament Material", DQ), ("Stalling", DQ), ("Cheating", DQ),
]

EDITIONS = {
    "2024": (IPG_2024, PENALTIES_2024, APPENDIX_A_2024),
    "2016": (IPG_2016, PENALTIES_2016, APPENDIX_A_2016),
    "2020": (IPG_2020, PENALTIES_2020, APPENDIX_A_2020),
}

# Lines of the contents lists (skipped by design), found by hand:
# 2024: "CONTENTS" on line 22, dot-leader entries on lines 23-58 (grep -n '\.\.\.\.' ipg-2024-09-23.txt);
# 2016 and the seed: "CONTENTS" on line 38, entries up to "Appendix B - ..." on line 76;
# 2020: "Contents" on line 25, entries up to "Appendix A - ..." on line 35, plus the link tables
#       under each chapter heading (rows whose every cell is "2.1. Game Play Error - ...").
CONTENTS_LINES = {IPG_2024: range(22, 59), IPG_2016: range(38, 77), SEED_CUT: range(38, 77),
                  IPG_2020: range(25, 36)}
NAVIGATION_ROW = re.compile(r"^\d+\.\d+\.? \S[^\t]*(?:\t\d+\.\d+\.? \S[^\t]*)*$")


def info_for(path) -> DocumentInfo:
    return DocumentInfo(id="ipg", kind="ipg", title="Infraction Procedure Guide", edition=None, source=path.name)


_parsed: dict = {}


def parsed(path) -> Document:
    if path not in _parsed:
        _parsed[path] = parse(read_source(path), info_for(path))
    return _parsed[path]


def parse_text(text: str, name: str = "hand-made.txt") -> Document:
    source = read_bytes(text.encode("utf-8"), name)
    return parse(source, DocumentInfo(id="ipg", kind="ipg", title="IPG", edition=None, source=name))


def warnings(document: Document, severity: str = WARNING) -> list[Problem]:
    return [problem for problem in document.problems if problem.severity == severity]


def by_number(document: Document, number: str):
    """Document.section() does not slug "Appendix A" into its id, so look appendices up by number."""
    return next((s for s in document.sections if s.number == number), None)


def appendix_a_rows(document: Document) -> list[tuple[str, str]]:
    appendix = by_number(document, "Appendix A")
    return [block.cells for block in appendix.blocks if block.kind == TABLE_ROW and len(block.cells) == 2
            and block.cells != ("Infraction", "Penalty")]


# --- Penalties ------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_every_infraction_has_the_penalty_its_section_gives(edition):
    path, expected, _ = EDITIONS[edition]
    document = parsed(path)
    found = {section.number: section.infraction.penalty for section in document.sections if section.infraction}
    assert found == expected


@pytest.mark.parametrize("edition", EDITIONS)
def test_penalty_quick_reference_is_built_from_the_sections_in_document_order(edition):
    path, expected, _ = EDITIONS[edition]
    document = parsed(path)
    assert [(p.section, p.penalty) for p in document.penalties] == \
        [(f"ipg:{number}", penalty) for number, penalty in expected.items()]
    assert all(p.category in ("Game Play Error", "Tournament Error", "Unsporting Conduct")
               for p in document.penalties)


@pytest.mark.parametrize("edition", EDITIONS)
def test_appendix_a_is_read_as_data_row_by_row(edition):
    path, _, rows = EDITIONS[edition]
    assert appendix_a_rows(parsed(path)) == rows


@pytest.mark.parametrize("edition", EDITIONS)
def test_appendix_a_agrees_with_the_sections_in_the_real_files(edition):
    path, _, _ = EDITIONS[edition]
    assert warnings(parsed(path)) == []


def test_appendix_a_typo_is_matched_to_its_infraction_and_noted():
    # 2020 line 1258 of the reader's lines: "Deck/Deck Problem\tWarning" for 3.5 Deck Problem.
    notes = warnings(parsed(IPG_2020), INFO)
    assert len(notes) == 1 and "Deck/Deck Problem" in notes[0].message and notes[0].line == 1258


def altered_2024(*replacements: tuple[str, str]) -> str:
    text = IPG_2024.read_text(encoding="utf-8")
    for old, new in replacements:
        assert old in text
        text = text.replace(old, new, 1)
    return text


def test_appendix_a_disagreeing_penalty_is_an_error_naming_file_and_line():
    # Line 1002 "Slow Play Warning" changed to "Slow Play Game Loss"; section 3.3 still says Warning.
    document = parse_text(altered_2024(("\nSlow Play Warning\n", "\nSlow Play Game Loss\n")), "altered.txt")
    found = warnings(document, ERROR)
    assert [(p.file, p.line) for p in found] == [("altered.txt", 1002)]
    assert "Slow Play" in found[0].message and "Game Loss" in found[0].message and "3.3" in found[0].message


def test_appendix_a_missing_or_extra_rows_are_errors():
    # Line 1016 "Stalling Disqualification" renamed to a row no section has.
    document = parse_text(altered_2024(("\nStalling Disqualification\n", "\nLoitering Disqualification\n")),
                          "altered.txt")
    messages = {(p.line, p.message.split(" ")[0]) for p in warnings(document, ERROR)}
    assert (951, "infraction") in messages      # 4.7 Stalling (line 951) has no row any more
    assert (1016, "Appendix") in messages       # the row names no section
    assert any(p.section is None and p.infraction == "Loitering" for p in document.penalties)


def test_penalty_wording_is_normalised_or_kept_as_written():
    document = parse_text(
        "2. GAME PLAY ERRORS\n"
        "2.1. Game Play Error — Missed Trigger\nPenalty: None\nDefinition\nA trigger is missed.\n"
        "2.2. Game Play Error — Looking at Extra Cards\nWarning / Game Loss\nDefinition\nA player looks.\n"
        "2.3. Game Play Error — Hidden Card Error\nPenalty\nWarning (Competitive), Game Loss (Professional)\n"
        "Definition\nA hidden error.\n")
    penalties = {s.number: s.infraction.penalty for s in document.sections if s.infraction}
    assert penalties == {"2.1": NP, "2.2": "Warning / Game Loss",
                         "2.3": "Warning (Competitive), Game Loss (Professional)"}


def test_markdown_conversion():
    document = parse_text(
        "# Magic Infraction Procedure Guide\n\n## Contents\n\n"
        "# 2. Game Play Errors\n\nErrors in play.\n\n"
        "## 2.1. Game Play Error – Missed Trigger\n\n**Penalty:** No Penalty\n\n### Definition\n\n"
        "A triggered ability triggers.\n\n### Examples\n\nA. Knight of Infamy attacks alone.\n\n"
        "Upgrade: If detrimental, the penalty is a Warning.\n\n"
        "## Appendix A — Penalty Quick Reference\n\n| Infraction | Penalty |\n|---|---|\n| Missed Trigger | None |\n",
        "ipg.md")
    trigger = document.section("2.1")
    assert (trigger.title, trigger.infraction.penalty) == ("Game Play Error — Missed Trigger", NP)
    assert trigger.infraction.definition == "A triggered ability triggers."
    assert trigger.examples == ("A. Knight of Infamy attacks alone.",)
    assert trigger.infraction.upgrades == ("If detrimental, the penalty is a Warning.",)
    assert appendix_a_rows(document) == [("Missed Trigger", "None")]
    assert warnings(document) == [] and document.info.complete


def test_layout_text_with_column_gaps():
    document = parse_text(
        "  2. GAME PLAY ERRORS\n"
        "  2.1. Game Play Error — Missed Trigger                      No Penalty\n"
        "  Definition\n  A triggered ability triggers, but the player\n  forgets it.\n\f"
        "                                 8\n"
        "  APPENDIX A — PENALTY QUICK REFERENCE\n  Infraction                  Penalty\n"
        "  Game Play Errors\n  Missed Trigger              Warning\n")
    assert document.section("2.1").infraction.definition == "A triggered ability triggers, but the player forgets it."
    assert document.section("2.1").infraction.penalty == NP
    assert appendix_a_rows(document) == [("Missed Trigger", WL)]
    assert [p.line for p in warnings(document, ERROR)] == [10]   # Appendix A disagrees with 2.1


# --- Structure ------------------------------------------------------------------------------

@pytest.mark.parametrize("edition", EDITIONS)
def test_general_and_category_chapters(edition):
    document = parsed(EDITIONS[edition][0])
    chapters = [(s.number, s.title, s.level) for s in document.sections if s.kind == "chapter"]
    assert chapters == [("1", "General Philosophy", 1), ("2", "Game Play Errors", 1),
                        ("3", "Tournament Errors", 1), ("4", "Unsporting Conduct", 1)]
    section = document.section("1.1")
    assert (section.kind, section.level, section.title, section.parent) == \
        ("section", 2, "Definition of Penalties", "ipg:1")
    assert [b.text for b in section.blocks if b.kind == SUBHEADING] == [WL, GL, ML, DQ]


@pytest.mark.parametrize("edition", EDITIONS)
def test_infraction_sections_carry_category_name_and_em_dash_title(edition):
    document = parsed(EDITIONS[edition][0])
    section = document.section("2.1")
    assert (section.kind, section.level, section.parent) == ("infraction", 2, "ipg:2")
    assert section.title == "Game Play Error — Missed Trigger"
    assert (section.infraction.category, section.infraction.name) == ("Game Play Error", "Missed Trigger")
    usc = document.section("4.1").infraction
    assert (usc.category, usc.name) == ("Unsporting Conduct", "Minor")


def test_2016_titles_written_with_a_hyphen_parse():
    document = parsed(IPG_2016)
    # Lines 252, 872: "2.1 Game Play Error - Missed Trigger", "3.5 Tournament Error - Deck/Decklist Problem".
    deck = document.section("3.5")
    assert deck.title == "Tournament Error — Deck/Decklist Problem"
    assert (deck.infraction.category, deck.infraction.name) == ("Tournament Error", "Deck/Decklist Problem")
    assert sum(1 for s in document.sections if s.infraction) == 22


@pytest.mark.parametrize("edition", list(EDITIONS) + ["seed"])
def test_missed_trigger_has_definition_philosophy_remedy_and_upgrade(edition):
    path = SEED_CUT if edition == "seed" else EDITIONS[edition][0]
    trigger = parsed(path).section("2.1").infraction
    assert trigger.definition.startswith("A triggered ability triggers, but the player controlling the ability")
    assert trigger.philosophy.startswith("Triggered abilities are common and invisible")
    assert "(MTR section 4.3)" in trigger.philosophy
    assert "Aura" in trigger.additional_remedy or "default action" in trigger.additional_remedy
    assert "Upgrade" not in trigger.additional_remedy
    assert len(trigger.upgrades) == 1 and trigger.upgrades[0].startswith("If the triggered ability is usually")
    assert [e[:3] for e in trigger.examples] == ["A. ", "B. ", "C. ", "D. "]
    assert parsed(path).section("2.1").examples == trigger.examples


def test_example_broken_across_a_page_stays_one_example():
    # 2024 lines 267-268 and 2016 lines 307-309: example D continues "They/She realize(s) the error...".
    for path in (IPG_2024, IPG_2016):
        examples = parsed(path).section("2.1").examples
        assert examples[3].startswith("D. A player forgets to exile the Angel token")
        assert examples[3].endswith("during the next turn.")


def test_upgrades_and_downgrades_inline_and_as_headings():
    # 2024 3.1 (lines 526-531): one "Upgrade:" and one "Downgrade:"; 2020 3.5: three "Upgrade" headings.
    tardiness = parsed(IPG_2024).section("3.1").infraction
    assert len(tardiness.upgrades) == 1 and tardiness.upgrades[0].startswith("A player not in their seat")
    assert tardiness.downgrades == ("A player who arrives at their seat before 1 minute has elapsed "
                                    "in the round receives a Warning.",)
    assert len(parsed(IPG_2020).section("3.5").infraction.upgrades) == 3
    # 2016 3.5 (lines 954, 958): two "Downgrade:" paragraphs.
    assert len(parsed(IPG_2016).section("3.5").infraction.downgrades) == 2


def test_pdf_text_paragraphs_are_joined_across_lines_and_page_numbers():
    philosophy = parsed(IPG_2024).section("2.1").infraction.philosophy
    # Lines 282-284: "...that player may need to" / "9" / "acknowledge that ability’s existence..."
    assert "that player may need to acknowledge that ability’s existence" in philosophy
    assert "\n\n9" not in philosophy and " 9 " not in philosophy


def test_front_matter_and_credits():
    document = parsed(IPG_2024)
    front = [b.text for b in document.front_matter]
    assert front[:3] == ["MAGIC INFRACTION PROCEDURE GUIDE", "Effective September 23, 2024", "INTRODUCTION"]
    assert not any("...." in text for text in front)            # the contents list is not front matter
    # 2024 line 1047 and 2016 lines 1644 and 1647 close the files.
    assert [b.text.split(" ")[0] for b in document.credits] == ["All"]
    assert [b.text.split(" ")[0] for b in parsed(IPG_2016).credits] == ["All", "Converted"]


def test_credit_looking_page_footer_stays_in_the_body_but_trailing_credits_do_not():
    document = parse_text(
        "2. GAME PLAY ERRORS\n2.1. Game Play Error — Missed Trigger No Penalty\nDefinition\nA trigger is missed.\n"
        "© 2024 Wizards of the Coast\nPhilosophy\nTriggers are invisible.\n"
        "All trademarks are property of Wizards of the Coast LLC in the U.S.A. and other\ncountries. ©2024 Wizards.\n")
    assert [b.text for b in document.credits] == [
        "All trademarks are property of Wizards of the Coast LLC in the U.S.A. and other countries. ©2024 Wizards."]
    texts = [b.text for b in document.section("2.1").blocks]
    assert "© 2024 Wizards of the Coast" in texts and texts[-1] == "Triggers are invisible."


# --- Appendix B and references ---------------------------------------------------------------

@pytest.mark.parametrize("path", [IPG_2024, IPG_2016])
def test_appendix_b_change_notes_are_not_references(path):
    appendix = by_number(parsed(path), "Appendix B")
    notes = [b.text for b in appendix.blocks if re.match(r"\d+(\.\d+)?: ", b.text)]
    assert len(notes) >= 15
    assert appendix.refs == ()


def test_change_note_keeps_a_real_reference_but_not_its_prefix():
    document = parse_text(
        "2. GAME PLAY ERRORS\n2.1. Game Play Error — Missed Trigger No Penalty\nDefinition\nMissed.\n"
        "APPENDIX B — CHANGES FROM PREVIOUS VERSIONS\nMay 1, 2030\n3.5: Moved text to section 2.1.\n")
    assert [ref.number for ref in by_number(document, "Appendix B").refs] == ["2.1"]


def test_references_in_bodies_are_found_on_their_own_line():
    refs = {(r.text, r.number, r.document, r.line) for s in parsed(IPG_2024).sections for r in s.refs
            if r.number[:1].isdigit()}       # (infractions named by title are references too: see test_refs)
    # grep -n "section [0-9]\|([0-9]\.[0-9])" ipg-2024-09-23.txt: six references in section bodies.
    assert refs == {
        ("Tardiness (3.1)", "3.1", None, 143), ("Decklist Problems (3.4)", "3.4", None, 143),
        ("MTR section 4.3", "4.3", "mtr", 292),      # the 2.1 Philosophy paragraph starts on line 288
        ("section 1.4", "1.4", None, 446), ("section 4", "4", "mtr", 725), ("section 5.2", "5.2", "mtr", 902),
    }


# --- Truncation, problems -------------------------------------------------------------------

def test_cut_off_seed_is_reported_incomplete_where_it_stops():
    document = parsed(SEED_CUT)
    assert document.info.complete is False
    found = warnings(document, ERROR)
    assert len(found) == 1
    assert "2.1" in found[0].message and "Appendix A" not in [s.number for s in document.sections]
    assert found[0].line == 345                      # the last line of the file, the 2.1 "Upgrade:"
    assert [s.number for s in document.sections] == ["1", "1.1", "1.2", "1.3", "1.4", "2", "2.1"]
    assert [(p.section, p.penalty) for p in document.penalties] == [("ipg:2.1", NP)]


def test_stray_page_number_inside_a_sentence_is_kept_as_text():
    # Seed line 322 ends "(such as taking 8" and the next paragraph goes on "an action or ...".
    philosophy = parsed(SEED_CUT).section("2.1").infraction.philosophy
    assert "(such as taking 8 an action or explicitly passing priority)" in philosophy


@pytest.mark.parametrize("edition", EDITIONS)
def test_whole_files_are_complete(edition):
    assert parsed(EDITIONS[edition][0]).info.complete is True


def test_duplicate_and_backwards_numbers_are_warnings():
    document = parse_text(
        "1. GENERAL PHILOSOPHY\nJudges are neutral.\n2. GAME PLAY ERRORS\nErrors happen.\n"
        "2.1. Game Play Error — Missed Trigger No Penalty\nDefinition\nMissed.\n"
        "2.3. Game Play Error — Hidden Card Error Warning\nDefinition\nHidden.\n"
        "2.2. Game Play Error — Looking at Extra Cards Warning\nDefinition\nLooked.\n"
        "2.3. Game Play Error — Hidden Card Error Warning\nDefinition\nAgain.\n")
    messages = [p.message for p in warnings(document)]
    assert any("backwards" in m and "2.2" in m for m in messages)
    assert any("duplicate" in m and "2.3" in m for m in messages)
    ids = [s.id for s in document.sections]
    assert len(ids) == len(set(ids)) and "ipg:2.3-2" in ids      # the same "-2" as the CR and the MTR


def test_numbered_list_items_are_not_headings():
    document = parse_text(
        "1. GENERAL PHILOSOPHY\nJudges are neutral.\n2. GAME PLAY ERRORS\n"
        "2.1. Game Play Error — Missed Trigger No Penalty\nDefinition\nThe steps are:\n"
        "3. Players present their decks to their opponents for additional shuffling. The sideboard is also\n"
        "presented at this time.\n")
    assert [s.number for s in document.sections] == ["1", "2", "2.1"]


@pytest.mark.parametrize("path", [SEEDS / "000_d5f726d99ad04a53.txt", SEEDS / "002_75bbd6f8d1790816.txt",
                                  CORPUS / "mtr-2026-02-27.txt"])
def test_a_file_that_is_not_an_ipg_is_an_error(path):
    document = parse(read_source(path), info_for(path))
    assert any(p.severity == ERROR for p in document.problems)
    assert not any(s.infraction for s in document.sections)


def test_registered_for_ipg():
    # Checked on the registry itself, so the other parsers' modules need not be importable here.
    assert PARSERS["ipg"] is parse_ipg


# --- Nothing lost -----------------------------------------------------------------------------

def export_text(document: Document) -> str:
    """What an export shows: headings (with the penalty of an infraction), blocks, examples, front matter, credits."""
    parts = [block.as_text() for block in document.front_matter]
    for section in document.sections:
        head = f"{section.number} {section.title}"
        if section.infraction:
            head += f" {section.infraction.penalty}"
        parts.append(head)
        parts.extend(block.as_text() for block in section.blocks)
        parts.extend(section.examples)
    parts.extend(block.as_text() for block in document.credits)
    return normalise("\n".join(parts))


def normalise(text: str) -> str:
    """Whitespace collapsed; case and dash style do not count (titles are normalised to "Title Case — Name")."""
    return re.sub(r"\s+", " ", re.sub(r"[—–]", "-", text)).strip().casefold()


def as_heading(text: str) -> str:
    """A heading line as the export writes it: "IPG 2.1. Title" -> "2.1 Title", "APPENDIX A — T" -> "Appendix A T"."""
    text = re.sub(r"^(?:IPG\s+)?(\d+(?:\.\d+)*)\.?\s", r"\1 ", text)
    return re.sub(r"^(?:IPG\s+)?(Appendix [A-Z])\s*[—–-]\s*", r"\1 ", text, flags=re.I)


@pytest.mark.parametrize("path", [IPG_2024, IPG_2016, IPG_2020, SEED_CUT])
def test_nothing_is_lost(path):
    source = read_source(path)
    export = export_text(parsed(path))
    lost = []
    for line in source.lines:
        text = line.text.strip()
        if not text or is_page_number(text) or line.number in CONTENTS_LINES[path]:
            continue
        if line.hint == "tr" and NAVIGATION_ROW.match(text):
            continue
        if normalise(as_heading(text)) not in export:
            lost.append((line.number, text[:80]))
    assert lost == []


# --- Robustness and speed ---------------------------------------------------------------------

FRAGMENTS = [
    "2.1. Game Play Error — Missed Trigger No Penalty", "2.1 Game Play Error - Missed Trigger", "Penalty",
    "None", "Warning", "Definition", "Examples", "A. A player draws.", "Upgrade:", "Downgrade: x",
    "APPENDIX A — PENALTY QUICK REFERENCE", "Appendix B", "3.5: a change note", "Infraction Penalty",
    "Game Play Errors", "Slow Play Warning", "CONTENTS", "1. General Philosophy .......... 3", "12",
    "IPG 4. Unsporting conduct", "• bullet", "- dash", "All trademarks ©", "", "\t", "Missed Trigger\tNone",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(st.tuples(st.one_of(st.sampled_from(FRAGMENTS), st.text(max_size=60)),
                          st.sampled_from(["", "h1", "h4", "li", "tr"])), max_size=40),
       st.sampled_from(["text", "html"]))
def test_never_raises_on_arbitrary_lines(lines, fmt):
    source = SourceText("random.txt", tuple(Line(i + 1, text, hint) for i, (text, hint) in enumerate(lines)),
                        "utf-8", fmt, "")
    document = parse(source, DocumentInfo(id="ipg", kind="ipg", title="IPG", edition=None, source="random.txt"))
    assert isinstance(document, Document)
    assert all(isinstance(p, Problem) for p in document.problems)
    assert not any("could not read this line" in p.message for p in document.problems)   # the safety net stayed unused
    assert len({s.id for s in document.sections}) == len(document.sections)


def older_layout_2024() -> str:
    """The 2024 IPG with no contents list and chapters 3 and 4 headed in a layout the parser does not know
    ("PART 3: TOURNAMENT ERRORS", "Section 3-1: Tournament Error — Tardiness Game Loss")."""
    lines = IPG_2024.read_text(encoding="utf-8").split("\n")
    body = lines.index("1. GENERAL PHILOSOPHY")
    out = []
    for number, line in enumerate(lines):
        if number < body and "...." in line:
            continue
        if number >= body:
            line = re.sub(r"^([34])\.(\d)\.\s+", r"Section \1-\2: ", line)
            line = re.sub(r"^([34])\.\s+", r"PART \1: ", line)
        out.append(line)
    return "\n".join(out)


def test_a_layout_not_recognised_is_reported_where_and_marks_the_document_incomplete():
    document = parse_text(older_layout_2024(), "ipg-older.txt")
    assert [s.number for s in document.sections][-3:] == ["2.6", "Appendix A", "Appendix B"]
    assert not document.info.complete
    swallowed = [p for p in document.problems if "not recognised" in p.message]
    assert len(swallowed) == 1 and swallowed[0].file == "ipg-older.txt"
    assert swallowed[0].line == document.section("2.6").line and "holds 5" in swallowed[0].message
    # nothing is lost: the unrecognised part is kept as the text of the section that swallowed it
    assert "Tournament Error — Tardiness" in document.section("2.6").text


def test_the_real_editions_are_recognised_whole():
    for path in (IPG_2024, IPG_2016, IPG_2020):
        assert not [p for p in parsed(path).problems if "not recognised" in p.message], path.name


@pytest.mark.parametrize("title, expected", [
    ("Game Play Error — Missed Trigger", ("Game Play Error", "Missed Trigger")),
    ("Game Play Error - Missed Trigger", ("Game Play Error", "Missed Trigger")),
    # a converter that flattened the dash: split only after a category the IPG has
    ("Game Play Error-Missed Trigger", ("Game Play Error", "Missed Trigger")),
    ("Unsporting Conduct-Cheating", ("Unsporting Conduct", "Cheating")),
    ("Out-of-Order Sequencing", None),
])
def test_an_infraction_heading_is_split_into_its_category_and_name(title, expected):
    from pipeline.parse.ipg import split_category
    assert split_category(title) == expected


# pdftotext -layout puts the box's value on the row of the text beside it: the text goes on as a paragraph of
# the section, and ends where its sentence ends (the box's value ends the row, not the text).
@pytest.mark.parametrize("row, next_line, paragraphs", [
    ("A player takes an action that may have", "allowed them to see the faces of cards.",
     ["A player takes an action that may have allowed them to see the faces of cards."]),
    ("A player sees the faces of cards.", "Some of them were in their library.",
     ["A player sees the faces of cards.", "Some of them were in their library."])])
def test_layout_text_with_the_penalty_box_beside_the_text(row, next_line, paragraphs):
    document = parse_text(
        "  2. GAME PLAY ERRORS\n  2.2. Game Play Error — Looking at Extra Cards\n  Penalty\n"
        f"  {row:<50}Warning\n  {next_line}\n  Philosophy\n  Players have to be careful.\n")
    section = document.section("2.2")
    assert section.infraction.penalty == WL
    assert [block.text for block in section.blocks[:len(paragraphs)]] == paragraphs
    assert section.blocks[len(paragraphs)].text == "Philosophy"
