"""Edition comparison (pipeline/diff.py).

The counts for the two real pairs of consecutive CR releases are computed here a
second way, from the raw files, without the parser or the code under test: rule
lines are read with a regular expression and compared by number, and the
renumberings are accounted for by hand (see RENUMBERED below, read off a plain
`diff` of the two files).
"""
from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.corpus import load_document, rename_document
from pipeline.diff import (
    Change,
    EditionDiff,
    GlossaryChange,
    Move,
    announced_changes,
    check_announced,
    compare,
    diff_json,
    last_changed,
    mask_numbers,
    rule_history,
    word_diff,
)
from pipeline.diff.history import EditionSummary
from pipeline.model import WARNING, Block, Document, DocumentInfo, GlossaryEntry, Section, replace

from conftest import CORPUS

# --------------------------------------------------------------------------- the raw files

RULE_LINE = re.compile(r"^(\d{3}\.\d+[a-z]?|\d{3}|\d)\.?\s*(\S.*)$")


def raw_lines(path: Path) -> list[str]:
    # The files mix CRLF and bare CR line ends (cr-2026-01-16 has both), so split on all of them.
    text = path.read_bytes().decode("utf-8-sig")
    return [line.rstrip() for line in re.split(r"\r\n|\r|\n", text)]


def raw_rules(path: Path) -> dict[str, str]:
    """{"702.19a": text} for every numbered line of the rules proper (not the contents, not the glossary).

    The rules start at the second "1. Game Concepts" (the first is in the contents) and
    end at the second "Glossary" line. A rule's text is its line without the number,
    plus the lines after it up to the next numbered line (its examples).
    """
    lines = raw_lines(path)
    start = [i for i, line in enumerate(lines) if line == "1. Game Concepts"][1]
    end = next(i for i in range(start, len(lines)) if lines[i] == "Glossary")
    rules: dict[str, list[str]] = {}
    current = None
    for line in lines[start:end]:
        match = RULE_LINE.match(line)
        if match:
            current = match.group(1)
            assert current not in rules, f"{current} twice in {path.name}"
            rules[current] = [match.group(2).strip()]
        elif line.strip() and current:
            rules[current].append(line.strip())
    return {number: "\n".join(parts) for number, parts in rules.items()}


def raw_glossary(path: Path) -> dict[str, str]:
    """{term: text}: the glossary is blank-line separated entries, term on the first line, up to "Credits"."""
    lines = raw_lines(path)
    start = [i for i, line in enumerate(lines) if line == "Glossary"][1] + 1
    end = next(i for i in range(start, len(lines)) if lines[i] == "Credits")
    entries, block = {}, []
    for line in lines[start:end] + [""]:
        if line.strip():
            block.append(line.strip())
        elif block:
            entries[block[0]] = "\n".join(block[1:])
            block = []
    return entries


# Renumberings, read off `diff old new` (CR/LF normalised): each pair is a rule whose
# line shows up again at another number, the lines around it confirming the shift.
RENUMBERED = {
    ("cr-2024-08-02", "cr-2024-11-08"): {
        # The damage assignment order was abolished. 509.2, 509.2a, 509.3, 509.3a (ordering
        # steps) and 509.6 were deleted; 509.4 "Fourth, the active player gets priority"
        # became 509.2 "Second, ..."; 509.5 and its subrules became 509.3...; 509.7 -> 509.4.
        "509.4": "509.2", "509.4a": "509.2a",
        "509.5": "509.3", "509.5a": "509.3a", "509.5b": "509.3b", "509.5c": "509.3c", "509.5d": "509.3d",
        "509.5e": "509.3e", "509.5f": "509.3f", "509.5g": "509.3g",
        "509.7": "509.4", "509.7a": "509.4a", "509.7b": "509.4b",
        # 703.4k and 703.4m (damage assignment order actions) deleted, later letters move up two
        # (letters skip l and o: n -> k, p -> m, q -> n, r -> p, s -> q).
        "703.4n": "703.4k", "703.4p": "703.4m", "703.4q": "703.4n", "703.4r": "703.4p", "703.4s": "703.4q",
        # 802.5 (multiplayer ordering) deleted, 802.6 -> 802.5; 805.10f deleted, 805.10g -> 805.10f.
        "802.6": "802.5", "805.10g": "805.10f",
    },
    ("cr-2025-11-14", "cr-2026-01-16"): {
        # "Friends forever" (702.124k) folded into "partner—[text]": 702.124m, n, p move up one letter.
        "702.124m": "702.124k", "702.124n": "702.124m", "702.124p": "702.124n",
    },
}
# Of those, the ones whose text changed besides the number (the rest are identical lines
# but for the number): 509.4 "Fourth" -> "Second"; 509.4a "rules 509.1–3" -> "rule 509.1";
# 509.7 lost its example (Giant Spider / Flash Foliage).
MOVED_WITH_NEW_TEXT = {"509.4", "509.4a", "509.7"}


def expected_counts(old_name: str, new_name: str) -> dict[str, set[str]]:
    """added / removed / changed / moved numbers, by number-keyed comparison plus RENUMBERED.

    A number in the old file that a rule was renumbered *from* is not removed, and one a
    rule was renumbered *to* is not added. A number present in both files counts as the
    same rule (changed when its text differs) unless a renumbering involves it on either
    side: then the old rule there is removed (or moved away) and the new one added (or
    moved in).
    """
    old = raw_rules(CORPUS / f"{old_name}.txt")
    new = raw_rules(CORPUS / f"{new_name}.txt")
    renumbered = RENUMBERED[(old_name, new_name)]
    sources, targets = set(renumbered), set(renumbered.values())
    assert sources <= set(old) and targets <= set(new)
    return {
        "removed": {n for n in old if n not in sources and (n not in new or n in targets)},
        "added": {n for n in new if n not in targets and (n not in old or n in sources)},
        "changed": {n for n in old if n in new and n not in sources and n not in targets and old[n] != new[n]},
        "moved": set(renumbered.items()),
        "moved_text_changed": {(a, b) for a, b in renumbered.items() if old[a] != new[b]},
    }


@pytest.fixture(scope="module")
def editions():
    loaded = {}
    for name in ("cr-2024-08-02", "cr-2024-11-08", "cr-2025-11-14", "cr-2026-01-16"):
        document, problems = load_document(CORPUS / f"{name}.txt")
        assert document is not None, problems
        loaded[name] = document
    return loaded


def numbers(ids) -> set[str]:
    return {ident.split(":", 1)[1] for ident in ids}


PAIRS = [("cr-2024-08-02", "cr-2024-11-08"), ("cr-2025-11-14", "cr-2026-01-16")]


@pytest.mark.parametrize("old_name,new_name", PAIRS)
def test_real_pair_matches_an_independent_count(editions, old_name, new_name):
    expected = expected_counts(old_name, new_name)
    d = compare(editions[old_name], editions[new_name])
    assert numbers(d.added) == expected["added"]
    assert numbers(d.removed) == expected["removed"]
    assert numbers(c.new_id for c in d.changed) == expected["changed"]
    assert {(m.from_id.split(":")[1], m.to_id.split(":")[1]) for m in d.moved} == expected["moved"]
    assert {(m.from_id.split(":")[1], m.to_id.split(":")[1]) for m in d.moved if m.text_changed} \
        == expected["moved_text_changed"]


def test_real_pair_counts_as_literal_numbers(editions):
    # The same, as numbers checked by hand against `diff` (CR/LF normalised):
    # 2024-08-02 -> 2024-11-08: added 116.2m, 701.60(a,b), 702.176(a), 708.12, 709.5(a-j), 904.13(a-d) = 23;
    # removed 509.2(a), 509.3(a), 509.6, 703.4k, 703.4m, 802.5, 805.10f = 9; moved: RENUMBERED, 20;
    # changed: 107.4, 107.4e, 116.2, 118.3c (example dropped), 205.3h, 205.3m, 207.2c, 502.2, 506.3c,
    # 508.3f, 508.4a, 508.4b, 509.1i, 510.1c, 510.1d, 510.2 (example dropped), 611.2b, 700.9,
    # 702.145b, 702.160a, 709.4, 720.5 (second example) = 22.
    first = compare(editions["cr-2024-08-02"], editions["cr-2024-11-08"])
    assert (len(first.added), len(first.removed), len(first.changed), len(first.moved)) == (23, 9, 22, 20)
    # 2025-11-14 -> 2026-01-16: added 610.5 and 701.68 (Blight) with a-d = 6; removed 702.124k
    # (Friends forever) = 1; moved 702.124m/n/p -> k/m/n = 3; changed 115.7e (its example),
    # 205.3m, 207.2c, 601.2a, 702.124a, 702.124i = 6.
    second = compare(editions["cr-2025-11-14"], editions["cr-2026-01-16"])
    assert (len(second.added), len(second.removed), len(second.changed), len(second.moved)) == (6, 1, 6, 3)


@pytest.mark.parametrize("old_name,new_name", PAIRS)
def test_real_pair_glossary_matches_an_independent_count(editions, old_name, new_name):
    old = raw_glossary(CORPUS / f"{old_name}.txt")
    new = raw_glossary(CORPUS / f"{new_name}.txt")
    d = compare(editions[old_name], editions[new_name]).glossary
    assert set(d.added) == set(new) - set(old)
    assert set(d.removed) == set(old) - set(new)
    assert {g.term for g in d.changed} == {term for term in set(old) & set(new) if old[term] != new[term]}


def test_spot_checks_2025_11_to_2026_01(editions):
    d = compare(editions["cr-2025-11-14"], editions["cr-2026-01-16"])
    changed = {c.new_id: c for c in d.changed}
    # 115.7e's example: Arc Trail now reads "... and 1 damage to any other target."
    arc = changed["cr:115.7e"]
    assert "1 damage to another target" in arc.old_text and "1 damage to any other target" in arc.new_text
    assert ("delete", "another") in word_diff(arc.old_text, arc.new_text)
    assert ("insert", "any other") in word_diff(arc.old_text, arc.new_text)
    # 601.2a gained a sentence pointing to the new 610.5.
    assert "(see rule 610.5)" in changed["cr:601.2a"].new_text
    assert "610.5" not in changed["cr:601.2a"].old_text
    # Blight is a new keyword action, 701.68, with four subrules; the glossary has it too.
    assert {"cr:701.68", "cr:701.68a", "cr:701.68b", "cr:701.68c", "cr:701.68d", "cr:610.5"} == set(d.added)
    assert editions["cr-2026-01-16"].section("701.68").title == "Blight"
    assert d.glossary.added == ("Blight",) and d.glossary.removed == ("Friends Forever",)
    # "Friends forever" left 702.124; "Choose a Background" moved up from m to k, unchanged.
    assert d.removed == ("cr:702.124k",)
    moves = {m.from_id: m for m in d.moved}
    background = moves["cr:702.124m"]
    assert background.to_id == "cr:702.124k" and not background.text_changed
    assert background.new_text.startswith("“Choose a Background” means")


def test_spot_checks_2024_08_to_2024_11(editions):
    d = compare(editions["cr-2024-08-02"], editions["cr-2024-11-08"])
    changed = {c.new_id: c for c in d.changed}
    # "There are eleven special actions" -> "twelve", and the twelfth (Room unlocking) is 116.2m.
    assert word_diff(changed["cr:116.2"].old_text, changed["cr:116.2"].new_text) == [
        ("equal", "There are "), ("delete", "eleven"), ("insert", "twelve"), ("equal", " special actions:")]
    assert "cr:116.2m" in d.added
    # 509.1i only follows the renumbering ("See rule 509.4" -> "See rule 509.2a"): changed, numbers only.
    assert changed["cr:509.1i"].numbers_only
    assert not changed["cr:116.2"].numbers_only
    # 118.3c lost its Lodestone Golem example: still the same rule, changed.
    assert "Lodestone Golem" in changed["cr:118.3c"].old_text
    assert "Lodestone Golem" not in changed["cr:118.3c"].new_text
    # 509.4 "Fourth, the active player gets priority" is now 509.2 "Second, ...".
    moves = {m.from_id: m for m in d.moved}
    priority = moves["cr:509.4"]
    assert priority.to_id == "cr:509.2" and priority.text_changed and not priority.numbers_only
    assert ("delete", "Fourth") in word_diff(priority.old_text, priority.new_text)
    # 703.4n..s each moved up two letters, texts unchanged.
    assert moves["cr:703.4s"].to_id == "cr:703.4q" and not moves["cr:703.4s"].text_changed
    # Rooms: 709.5 and its ten subrules are new; Manifest Dread is the new 701.60.
    assert {f"cr:709.5{letter}" for letter in "abcdefghij"} <= set(d.added)
    assert editions["cr-2024-11-08"].section("701.60").title == "Manifest Dread"
    # The glossary entry was renamed "Damage Assignment Order (Obsolete)": term by term, a new term.
    assert "Damage Assignment Order" in d.glossary.removed
    assert "Damage Assignment Order (Obsolete)" in d.glossary.added
    day = {g.term: g for g in d.glossary.changed}["Day"]
    assert "rule 727" in day.old_text and "rule 728" in day.new_text


def test_an_edition_compared_with_itself_has_no_differences(editions):
    d = compare(editions["cr-2026-01-16"], editions["cr-2026-01-16"])
    assert d.is_empty


def by_number(diff: EditionDiff) -> tuple:
    """A comparison with every section id read as its number (what does not depend on the documents' ids)."""
    def key(ident: str) -> str:
        return ident.split(":", 1)[1]
    changes = lambda found: [(key(c.old_id), key(c.new_id), c.old_text, c.new_text, c.numbers_only) for c in found]
    return (sorted(map(key, diff.added)), sorted(map(key, diff.removed)), changes(diff.changed),
            changes(diff.layout_only), [(key(m.from_id), key(m.to_id), m.text_changed, m.layout_only) for m in diff.moved],
            diff.glossary)


def test_two_editions_under_one_id_compare_as_under_their_own(editions):
    """The histories compare the parses as cached, both under the kind's id: the same changes, by number."""
    old, new = editions["cr-2025-11-14"], editions["cr-2026-01-16"]
    assert old.id == new.id == "cr"
    named = compare(rename_document(old, replace(old.info, id="cr-2025-11-14")), new)
    assert named.added and named.changed and named.moved and named.old == "cr-2025-11-14"
    assert by_number(compare(old, new)) == by_number(named)


def test_a_summary_is_the_same_whether_the_edition_before_was_summarized_first(editions):
    old, new = editions["cr-2025-11-14"], editions["cr-2026-01-16"]
    EditionSummary.of(cr_document([("100", "Chapter")]))
    alone = EditionSummary.of(new)
    EditionSummary.of(old)
    after_old = EditionSummary.of(new)
    assert after_old == alone
    # and the wordings the two editions share were found again, not worked out anew
    before = EditionSummary.of(old)
    again = EditionSummary.of(new)
    shared = set(before.wordings) & set(again.wordings)
    assert sum(before.wordings[key] is again.wordings[key] for key in shared) > 1000


# --------------------------------------------------------------------------- hand-made documents

def cr_section(doc_id: str, number: str, text: str = "", title: str = "", examples=()) -> Section:
    """A Section numbered the CR way: "7" chapter, "702" section, "702.19" rule, "702.19a" subrule."""
    if re.fullmatch(r"\d", number):
        level, parent, kind = 1, None, "chapter"
    elif re.fullmatch(r"\d{3}", number):
        level, parent, kind = 2, number[0], "section"
    elif re.fullmatch(r"\d{3}\.\d+", number):
        level, parent, kind = 3, number.split(".")[0], "rule"
    else:
        level, parent, kind = 4, number.rstrip("abcdefghijkmnpqrstuvwxyz"), "subrule"
    blocks = (Block("paragraph", text),) if text else ()
    return Section(id=f"{doc_id}:{number}", number=number, title=title, level=level, blocks=blocks,
                   examples=tuple(examples), parent=f"{doc_id}:{parent}" if parent else None, kind=kind)


def cr_document(spec, doc_id="cr", edition=None, excerpt=False, complete=True, glossary=(), parents=None) -> Document:
    """spec: [(number, text)] or [(number, text, title)]; parents: {number: parent number} to override."""
    sections = tuple(cr_section(doc_id, *entry) for entry in spec)
    if parents:
        sections = tuple(replace(s, parent=f"{doc_id}:{parents[s.number]}") if s.number in parents else s
                         for s in sections)
    info = DocumentInfo(id=doc_id, kind="cr", title="Comprehensive Rules", edition=edition,
                        source=f"{doc_id}.txt", excerpt=excerpt, complete=complete)
    return Document(info=info, sections=sections,
                    glossary=tuple(GlossaryEntry(term, text) for term, text in glossary))


KEYWORDS_OLD = [
    ("7", "", "Additional Rules"),
    ("702", "", "Keyword Abilities"),
    ("702.18", "", "Shroud"),
    ("702.18a", "Shroud is a static ability. “Shroud” means “This permanent or player can’t be the target of spells or abilities.”"),
    ("702.18b", "Multiple instances of this keyword on the same object are redundant."),
    ("702.19", "", "Trample"),
    ("702.19a", "Trample is a static ability that modifies the rules for assigning an attacking creature’s combat damage."),
    ("702.19b", "The controller of an attacking creature with trample first assigns damage as described in rule 702.19a."),
    ("702.19c", "Multiple instances of this keyword on the same object are redundant."),
    ("702.20", "", "Vigilance"),
    ("702.20a", "Vigilance is a static ability that modifies the rules for the declare attackers step."),
    ("702.20b", "Attacking doesn’t cause creatures with vigilance to tap. See rule 702.20a."),
    ("702.20c", "Multiple instances of this keyword on the same object are redundant."),
]

KEYWORDS_NEW = [
    ("7", "", "Additional Rules"),
    ("702", "", "Keyword Abilities"),
    ("702.18", "", "Shroud"),
    ("702.18a", "Shroud is a static ability. “Shroud” means “This permanent or player can’t be the target of spells or abilities.”"),
    ("702.18b", "Multiple instances of this keyword on the same object are redundant."),
    # inserted: every later keyword shifts by one
    ("702.19", "", "Toxic"),
    ("702.19a", "Toxic is a static ability. It is written “toxic N,” where N is a number."),
    ("702.19b", "Multiple instances of this keyword on the same object are redundant."),
    ("702.20", "", "Trample"),
    ("702.20a", "Trample is a static ability that modifies the rules for assigning an attacking creature’s combat damage."),
    ("702.20b", "The controller of an attacking creature with trample first assigns damage as described in rule 702.20a."),
    ("702.20c", "Multiple instances of this keyword on the same object are redundant."),
    ("702.21", "", "Vigilance"),
    ("702.21a", "Vigilance is a static ability that modifies the rules for the declare attackers step."),
    ("702.21b", "Attacking doesn’t cause creatures with vigilance to tap or become tapped. See rule 702.21a."),
    ("702.21c", "Multiple instances of this keyword on the same object are redundant."),
]


def test_a_renumbering_shift_is_reported_as_moves():
    d = compare(cr_document(KEYWORDS_OLD), cr_document(KEYWORDS_NEW))
    assert d.added == ("cr:702.19", "cr:702.19a", "cr:702.19b")
    assert d.removed == ()
    assert d.changed == ()
    moves = {(m.from_id, m.to_id): m for m in d.moved}
    assert set(moves) == {
        ("cr:702.19", "cr:702.20"), ("cr:702.19a", "cr:702.20a"), ("cr:702.19b", "cr:702.20b"),
        ("cr:702.19c", "cr:702.20c"),
        ("cr:702.20", "cr:702.21"), ("cr:702.20a", "cr:702.21a"), ("cr:702.20b", "cr:702.21b"),
        ("cr:702.20c", "cr:702.21c"),
    }
    # The same words under the new number: not a text change.
    assert not moves[("cr:702.19a", "cr:702.20a")].text_changed
    # The rule it cites was renumbered with it: a text change, but of numbers only.
    cited = moves[("cr:702.19b", "cr:702.20b")]
    assert cited.text_changed and cited.numbers_only
    # A real rewording on top of the shift.
    reworded = moves[("cr:702.20b", "cr:702.21b")]
    assert reworded.text_changed and not reworded.numbers_only
    assert ("insert", " or become tapped") in word_diff(reworded.old_text, reworded.new_text)


def test_identical_subrules_follow_their_own_parents():
    # "Multiple instances ... are redundant" is word for word the same under every keyword;
    # 702.20c of the old edition (Vigilance) must go with Vigilance to 702.21c, although
    # the new 702.20c reads exactly the same.
    d = compare(cr_document(KEYWORDS_OLD), cr_document(KEYWORDS_NEW))
    moves = {m.from_id: m.to_id for m in d.moved}
    assert moves["cr:702.20c"] == "cr:702.21c"
    assert moves["cr:702.19c"] == "cr:702.20c"


def test_a_deletion_shifts_later_rules_back():
    old = [("5", "", "Turn Structure"), ("509", "", "Declare Blockers Step"),
           ("509.1", "First, the defending player declares blockers."),
           ("509.2", "Second, the active player announces the damage assignment order."),
           ("509.2a", "Ordering is done during the declare blockers step."),
           ("509.3", "Third, the active player gets priority."),
           ("509.3a", "Any abilities that triggered on blockers being declared are put on the stack. See rules 509.1–2.")]
    new = [("5", "", "Turn Structure"), ("509", "", "Declare Blockers Step"),
           ("509.1", "First, the defending player declares blockers."),
           ("509.2", "Second, the active player gets priority."),
           ("509.2a", "Any abilities that triggered on blockers being declared are put on the stack. See rule 509.1.")]
    d = compare(cr_document(old), cr_document(new))
    assert d.removed == ("cr:509.2", "cr:509.2a")
    assert d.added == ()
    assert [(m.from_id, m.to_id, m.text_changed) for m in d.moved] == [
        ("cr:509.3", "cr:509.2", True), ("cr:509.3a", "cr:509.2a", True)]
    assert d.changed == ()


def test_same_number_rewording_is_a_change_and_unrelated_text_is_not():
    old = [("1", "", "Game Concepts"), ("100", "", "General"),
           ("100.1", "These Magic rules apply to any Magic game with two or more players."),
           ("100.2", "To play, each player needs their own deck of traditional Magic cards.")]
    new = [("1", "", "Game Concepts"), ("100", "", "General"),
           ("100.1", "These Magic rules apply to any Magic game with two or more players, including two-player games."),
           ("100.2", "Stickers are placed on cards by the sticker sheet rules below, never by hand.")]
    d = compare(cr_document(old, "cr-old"), cr_document(new, "cr-new"))
    assert [(c.old_id, c.new_id) for c in d.changed] == [("cr-old:100.1", "cr-new:100.1")]
    assert d.removed == ("cr-old:100.2",) and d.added == ("cr-new:100.2",)


FULL = [("1", "", "Game Concepts"), ("100", "", "General"),
        ("100.1", "These Magic rules apply to any Magic game."),
        ("8", "", "Multiplayer Rules"), ("800", "", "General"),
        ("800.1", "A multiplayer game is a game that begins with more than two players."),
        ("800.2", "These rules consist of a series of options."),
        ("800.3", "Many multiplayer tournaments have additional rules."),
        ("9", "", "Casual Variants"), ("900", "", "General"),
        ("900.1", "This section contains rules for casual variants.")]

EXCERPT = [("8", "", "Multiplayer Rules"),                 # the excerpt skips the "800. General" heading
           ("800.1", "A multiplayer game is a game that begins with more than two players."),
           ("800.2", "These rules consist of a series of options that can be added to a multiplayer game."),
           ("800.4", "Unlike two-player games, multiplayer games can continue after a player leaves.")]


def test_an_excerpt_is_compared_only_on_its_sections():
    # Without its "800" heading, the excerpt's parser hangs 800.x under the chapter.
    excerpt = cr_document(EXCERPT, "cr-excerpt", excerpt=True, parents={"800.1": "8", "800.2": "8", "800.4": "8"})
    full = cr_document(FULL, "cr-full", glossary=[("Abandon", "To turn a scheme face down.")])
    d = compare(full, excerpt)
    # Chapters 1 and 9 are not in the excerpt, the 800 heading is left out by it: none of them is removed.
    assert d.removed == ("cr-full:800.3",)
    assert d.added == ("cr-excerpt:800.4",)
    assert [c.new_id for c in d.changed] == ["cr-excerpt:800.2"]
    assert d.moved == ()
    assert d.glossary.removed == ()          # the excerpt has no glossary at all
    # and the other way round
    back = compare(excerpt, full)
    assert back.added == ("cr-full:800.3",) and back.removed == ("cr-excerpt:800.4",)
    assert [c.new_id for c in back.changed] == ["cr-full:800.2"]


def test_the_real_chapter_8_excerpt_stays_inside_chapter_8(editions, sources_dir):
    excerpt, problems = load_document(sources_dir / "cr-2011-02-04-multiplayer-excerpt.txt")
    assert excerpt is not None and excerpt.info.excerpt, problems
    d = compare(excerpt, editions["cr-2026-01-16"])
    touched = list(d.added) + list(d.removed) + [c.new_id for c in d.changed] + [m.to_id for m in d.moved]
    assert touched
    assert all(ident.split(":")[1].startswith("8") for ident in touched)
    assert not d.glossary.added and not d.glossary.removed


def test_glossary_is_compared_term_by_term():
    old = cr_document([("1", "", "Game Concepts")], glossary=[
        ("Abandon", "To turn a face-up ongoing scheme card face down. See rule 701.26."),
        ("Ability", "Text on an object that explains what that object does."),
        ("Friends Forever", "A variant of the partner ability."),
    ])
    new = cr_document([("1", "", "Game Concepts")], glossary=[
        ("Abandon", "To turn a face-up ongoing scheme card face down. See rule 701.33."),
        ("Ability", "Text on an object that explains what that object does."),
        ("Blight", "To put N -1/-1 counters on a creature you control."),
    ])
    g = compare(old, new).glossary
    assert g.added == ("Blight",)
    assert g.removed == ("Friends Forever",)
    assert g.changed == (GlossaryChange("Abandon", "To turn a face-up ongoing scheme card face down. See rule 701.26.",
                                        "To turn a face-up ongoing scheme card face down. See rule 701.33."),)


def test_a_glossary_term_retyped_with_curly_quotes_is_the_same_term():
    # The CR of 2019-05-03 made its quotes curly, terms included: "Attacks and Isn't Blocked" stayed itself
    old = cr_document([("1", "", "Game Concepts")], glossary=[
        ("Attacks and Isn't Blocked", "An attacking creature no creature blocked."),
        ('"Bands with Other"', "A variant of the banding ability.")])
    new = cr_document([("1", "", "Game Concepts")], glossary=[
        ("Attacks and Isn\u2019t Blocked", "An attacking creature no creature blocked."),
        ("\u201cBands with Other\u201d", "A variant of the banding ability, rewritten.")])
    g = compare(old, new).glossary
    assert g.added == () and g.removed == ()
    assert [change.term for change in g.changed] == ["\u201cBands with Other\u201d"]


def test_diff_json_shape():
    d = compare(cr_document(KEYWORDS_OLD, "cr-2024"), cr_document(KEYWORDS_NEW, "cr"))
    data = diff_json(d)
    assert data["old"] == "cr-2024" and data["new"] == "cr"
    assert data["added"] == ["cr:702.19", "cr:702.19a", "cr:702.19b"]
    assert data["removed"] == [] and data["changed"] == []
    assert {"from": "cr-2024:702.20b", "to": "cr:702.21b", "text_changed": True} in [
        {key: move[key] for key in ("from", "to", "text_changed")} for move in data["moved"]]
    assert data["glossary"] == {"added": [], "removed": [], "changed": []}
    changed = compare(cr_document([("100.1", "Old words.")], "a"), cr_document([("100.1", "New words.")], "b"))
    assert diff_json(changed)["changed"] == [{"id": "b:100.1", "old_text": "Old words.", "new_text": "New words."}]


def test_results_are_frozen_dataclasses():
    d = compare(cr_document(KEYWORDS_OLD), cr_document(KEYWORDS_NEW))
    assert isinstance(d, EditionDiff) and isinstance(d.moved[0], Move)
    with pytest.raises(AttributeError):
        d.added = ()
    with pytest.raises(AttributeError):
        Change("a", "b", "x", "y").new_text = "z"


def test_mask_numbers():
    assert mask_numbers("See rule 702.19a and rules 509.1–3, rule 727.") == "See rule # and rules #–3, rule #."
    assert mask_numbers("Deal 2 damage in 2024, MTR section 2.3.") == "Deal 2 damage in 2024, MTR section #."


# --------------------------------------------------------------------------- word_diff

def joined(pieces, keep):
    return "".join(text for tag, text in pieces if tag in keep)


@pytest.mark.parametrize("old,new", [
    ("There are eleven special actions:", "There are twelve special actions:"),
    ("", "A brand new rule."),
    ("A rule that went away.", ""),
    ("same", "same"),
    ("Arc Trail deals 2 damage to any target and 1 damage to another target.",
     "Arc Trail deals 2 damage to any target and 1 damage to any other target."),
    ("line one\n\nline two", "line one\nline  two and three"),
])
def test_word_diff_round_trips(old, new):
    pieces = word_diff(old, new)
    assert joined(pieces, {"equal", "delete"}) == old
    assert joined(pieces, {"equal", "insert"}) == new
    assert all(tag in {"equal", "insert", "delete"} and text for tag, text in pieces)


def test_word_diff_works_on_whole_words():
    assert word_diff("the damage assignment order", "the damage assignment") == [
        ("equal", "the damage assignment"), ("delete", " order")]
    assert word_diff("Hybrid mana symbols are colored.", "A hybrid mana symbol is colored.") == [
        ("delete", "Hybrid"), ("insert", "A hybrid"), ("equal", " mana "), ("delete", "symbols are"),
        ("insert", "symbol is"), ("equal", " colored.")]


@settings(max_examples=200, deadline=None)
@given(st.text(alphabet=st.sampled_from(list("ab c.\n’—")), max_size=40),
       st.text(alphabet=st.sampled_from(list("ab c.\n’—")), max_size=40))
def test_word_diff_round_trips_on_any_text(old, new):
    pieces = word_diff(old, new)
    assert joined(pieces, {"equal", "delete"}) == old
    assert joined(pieces, {"equal", "insert"}) == new


# --------------------------------------------------------------------------- change appendices

def test_announced_changes_of_the_real_ipg_and_mtr():
    ipg, _ = load_document(CORPUS / "ipg-2024-09-23.txt")
    # Appendix B, under "September 23, 2024": 1.2, 2.1 (twice), 2.5, 3.5.
    assert announced_changes(ipg) == {"1.2", "2.1", "2.5", "3.5"}
    # Since 2024-02-02: the April 15, 2024 entries (2.3, 3.4, 3.5) as well.
    assert announced_changes(ipg, since="2024-02-02") == {"1.2", "2.1", "2.5", "3.5", "2.3", "3.4"}
    mtr, _ = load_document(CORPUS / "mtr-2026-02-27.txt")
    assert announced_changes(mtr) == {"3.7", "6.3", "6.4", "6.7", "Appendix D"}
    # The 2012 MTR runs several "Section 2.2: ... Section 2.9: ..." entries together on a line.
    old_mtr, _ = load_document(CORPUS / "mtr-2012-03-20-numegil.txt")
    assert announced_changes(old_mtr) == {"2.2", "2.9", "2.11", "2.12", "2.13", "3.7", "4.1", "6.3", "6.4",
                                          "6.7", "6.8", "Appendix E"}
    cr, _ = load_document(CORPUS / "cr-2026-01-16.txt")
    assert announced_changes(cr) == set()


def test_real_ipg_changes_agree_with_its_appendix():
    old, _ = load_document(CORPUS / "ipg-2020-01-24-magicjudges.html")
    new, _ = load_document(CORPUS / "ipg-2024-09-23.txt")
    d = compare(old, new)
    assert announced_changes(new, since=d.old_edition) == {"1.1", "1.2", "2.1", "2.3", "2.5", "3.4", "3.5", "4.2"}
    assert check_announced(d, new) == []


def _ipg(sections, appendix_lines, edition):
    blocks = tuple(Block("paragraph", line) for line in appendix_lines)
    spec = [Section(id=f"ipg:{number}", number=number, title=title, level=number.count(".") + 1,
                    blocks=(Block("paragraph", text),), parent=f"ipg:{number.rsplit('.', 1)[0]}" if "." in number else None)
            for number, title, text in sections]
    spec.append(Section(id="ipg:appendix-b", number="Appendix B", title="Changes from Previous Versions", level=1,
                        blocks=blocks, kind="appendix", line=500))
    info = DocumentInfo(id="ipg", kind="ipg", title="Infraction Procedure Guide", edition=edition, source="ipg.txt")
    return Document(info=info, sections=tuple(spec))


def test_check_announced_reports_announced_sections_that_did_not_change():
    base = [("1", "General Philosophy", "Judges are neutral arbiters."),
            ("1.1", "Definition of Penalties", "Penalties are given."),
            ("1.2", "Applying Penalties", "Apply them.")]
    old = _ipg(base, ["May 1, 2024", "1.1: Something older."], "2024-05-01")
    new_sections = [base[0], ("1.1", "Definition of Penalties", "Penalties are given by judges."), base[2]]
    new = _ipg(new_sections, ["September 23, 2024", "1.1: Clarified.", "1.2: Reworded.", "Appendix C: New.",
                              "May 1, 2024", "1.1: Something older."], "2024-09-23")
    d = compare(old, new)
    problems = check_announced(d, new)
    assert [p.severity for p in problems] == [WARNING, WARNING]
    assert "1.2" in problems[0].message and "Appendix C" in problems[1].message
    assert problems[0].file == "ipg.txt" and problems[0].line == 500
    assert announced_changes(new) == {"1.1", "1.2", "Appendix C"}


# --------------------------------------------------------------------------- history

def test_rule_history_follows_renumberings():
    first = cr_document(KEYWORDS_OLD, "cr-2024", edition="2024-01-01")
    second = cr_document(KEYWORDS_NEW, "cr-2025", edition="2025-01-01")
    third_spec = [entry if entry[0] != "702.20a" else
                  ("702.20a", "Trample is a static ability that changes how an attacking creature assigns combat damage.")
                  for entry in KEYWORDS_NEW]
    third = cr_document(third_spec, "cr", edition="2026-01-01")
    history = rule_history([third, first, second])           # any order: sorted by edition
    assert [(edition, ident) for edition, ident, _ in history["cr:702.20a"]] == [
        ("2024-01-01", "cr-2024:702.19a"), ("2025-01-01", "cr-2025:702.20a"), ("2026-01-01", "cr:702.20a")]
    assert [(edition, ident) for edition, ident, _ in history["cr:702.19"]] == [("2025-01-01", "cr-2025:702.19"),
                                                                                ("2026-01-01", "cr:702.19")]
    assert history["cr:702.18a"][0][2].startswith("Shroud is a static ability.")
    changed = last_changed([first, second, third])
    assert changed["cr:702.20a"] == "2026-01-01"         # reworded in the newest edition
    assert changed["cr:702.21b"] == "2025-01-01"         # reworded when it moved
    assert changed["cr:702.19"] == "2025-01-01"          # added
    assert changed["cr:702.20b"] == "2025-01-01"         # the number it cites changed with the shift
    assert "cr:702.18a" not in changed                   # never changed
    assert "cr:702.21a" not in changed                   # moved, same words


def test_rule_history_on_real_editions(editions):
    documents = [editions["cr-2025-11-14"], editions["cr-2026-01-16"]]
    history = rule_history(documents)
    assert [(edition, ident) for edition, ident, _ in history["cr:702.124k"]] == [
        ("2025-11-14", "cr:702.124m"), ("2026-01-16", "cr:702.124k")]
    assert len(history) == len(editions["cr-2026-01-16"].sections)
    changed = last_changed(documents)
    assert changed["cr:115.7e"] == "2026-01-16" and changed["cr:701.68a"] == "2026-01-16"
    assert "cr:702.124k" not in changed and "cr:100.1" not in changed
    assert len(changed) == 6 + 6     # the six changed and the six added rules of this release


def test_a_keyword_inserted_into_the_real_702_shifts_every_later_keyword():
    # The real rules of cr-2026-01-16 (read raw, so without the parser), then a new
    # 702.19 inserted: 702.19 (Trample) and everything after it in 702 shift by one, and
    # every citation of a shifted rule anywhere follows, as Wizards does it.
    rules = list(raw_rules(CORPUS / "cr-2026-01-16.txt").items())

    def shifted(number: str) -> str:
        match = re.fullmatch(r"702\.(\d+)([a-z]?)", number)
        return f"702.{int(match.group(1)) + 1}{match.group(2)}" if match and int(match.group(1)) >= 19 else number

    new = []
    for number, text in rules:
        if number == "702.19":
            new += [("702.19", "Brandnew"), ("702.19a", "Brandnew is a static ability that does something new.")]
        new.append((shifted(number), re.sub(r"\b702\.\d+[a-z]?\b", lambda m: shifted(m.group(0)), text)))
    d = compare(cr_document(rules, "old"), cr_document(new, "new"))
    assert d.added == ("new:702.19", "new:702.19a") and d.removed == ()
    shifted_count = sum(1 for number, _ in rules if shifted(number) != number)
    assert len(d.moved) == shifted_count > 600
    assert all(shifted(m.from_id.split(":")[1]) == m.to_id.split(":")[1] for m in d.moved)
    # What changed is only the numbers cited, inside 702 (moved) and elsewhere (changed).
    assert all(m.numbers_only for m in d.moved if m.text_changed)
    assert d.changed and all(c.numbers_only for c in d.changed)
