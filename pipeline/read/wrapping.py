"""Text a converter wrapped at a fixed width, put back into one line per paragraph.

pandoc writes Markdown and plain text wrapped at 72 columns: a rule, a glossary definition or a
paragraph of the MTR comes as several lines, and its second line can read like a glossary term or a
title. A line is joined to the one before when the file is wrapped at a fixed width and the line
before was full: its next word would not have fitted there (give or take a few columns). A line that
starts a numbered rule, a list item or a heading is never joined (the parsers decide those) unless a
number continues a sentence ("See rule" / "202.3."), nor one after a hard line break or a contents
entry. Nothing here knows rules; lines keep the number of the line they start on.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

from .source import Line

SHORTEST_WRAP = 40          # narrower "wrapping" is a column of short lines (a list, a table)
LONGEST_WRAP = 80           # wider is a layout, not a wrap: pdftotext lines of a PDF run to 100 and more
NEAR_FULL = 10              # a full line ends within this many columns of the width
FULL_SHARE = 0.3            # a wrapped file's lines are mostly full: at least this share of them
OVER_SHARE = 0.05           # and almost none is longer than the width (a long address may be)
LEAST_LINES = 40
# An address or a link (30 characters without a space): no converter breaks it, so it may overrun. Looked for
# after whitespace (`has_long_word`), where "\S{30}" alone would be tried from every character of every word again;
# most lines are ruled out first by RUN_AFTER_SPACE, which starts with a literal space.
WORD_AFTER_SPACE = re.compile(r"\s\S{30}")
RUN_AFTER_SPACE = re.compile(r" [^ ]{30}")
EARLY_BREAK = 5             # pandoc may break a few columns early, before a link or an emphasis it wrote
# What starts a block of its own: a number ("702.37a", "1.", "12)"), a bullet, a heading, a table row.
CONTENTS_ENTRY = re.compile(r"(?:\.{3,}|…+)\s*\d+$")       # "1.1 Tournament Types ..... 5": a line of its own
BLOCK_START = re.compile(r"[#|>•]|[-*+]\s|\d+(?:\.\d+)*[a-z]?[.)]?(?:\s|$)")


def wrap_width(lines: Sequence[Line]) -> Optional[int]:
    """The width the text was wrapped at, or None when it was not wrapped at a fixed width."""
    texts = []
    longer = 0          # lines longer than LONGEST_WRAP without a long word
    # (A file of a paragraph a line shows it in its first lines: enough of them longer than LONGEST_WRAP for what
    # every line of the file would need end the search; how many it takes only grows with the lines counted.)
    enough = _longer_needed(len(lines))
    for line in lines:
        text = line.text
        if text and not line.hint and text[0] != "#" and "\t" not in text and text.strip():
            texts.append(text)
            if len(text) > LONGEST_WRAP and not has_long_word(text):
                longer += 1
                if longer >= enough:
                    return None
    if longer >= _longer_needed(len(texts)):   # the wrap width's percentile is past LONGEST_WRAP for certain
        return None
    lengths = sorted(len(text) for text in texts if not has_long_word(text))
    if len(lengths) < LEAST_LINES:
        return None
    width = lengths[min(len(lengths) - 1, int(len(lengths) * (1 - OVER_SHARE)))]
    if not SHORTEST_WRAP <= width <= LONGEST_WRAP:
        return None
    full = sum(1 for length in lengths if width - NEAR_FULL <= length <= width)
    return width if full >= FULL_SHARE * len(lengths) else None


def has_long_word(text: str) -> bool:
    """Whether `text` holds 30 characters without a space (a run that long starts the text or follows a space)."""
    if len(text) < 30:
        return False
    spaced = " " + text
    # (Such a run lies in a run of 30 or more characters that are not a space, after a space of `spaced`: that
    # pattern starts with a space, so it is tried only where one is written, three times faster than
    # WORD_AFTER_SPACE, whose "\s" is tried at every character; most lines have no such run and are settled by it.)
    return RUN_AFTER_SPACE.search(spaced) is not None and WORD_AFTER_SPACE.search(spaced) is not None


def _longer_needed(count: int) -> int:
    """How many of `count` lines longer than LONGEST_WRAP (without a long word) put the wrap width's percentile past
    it for certain (leaving out the lines with a long word can only lower it)."""
    return max(1, count - int(count * (1 - OVER_SHARE)))


def unwrapped(lines: Sequence[Line], width: int, hard_breaks: frozenset[int] = frozenset(),
              marked_headings: bool = True) -> list[Line]:
    """`lines` with each wrapped paragraph on one line (`hard_breaks`: numbers of lines that end in one).
    Without `marked_headings` (plain text), a full line in title case that ends a sentence is not joined to
    a next line that starts one: it may be a heading over its first paragraph."""
    out: list[Line] = []
    last = 0                 # the length of the last line joined into out[-1]
    for line in lines:
        before = out[-1] if out else None
        text = line.text.strip()
        if (before is not None and text and not line.hint and before.hint in ("", "li")
                and last and before.number not in hard_breaks
                and last + 1 + len(text.split(None, 1)[0]) > width - EARLY_BREAK
                and (not BLOCK_START.match(text) or _number_in_sentence(before.text, text))
                and not CONTENTS_ENTRY.search(before.text)
                and (marked_headings or not _may_be_heading(before.text, text))):
            out[-1] = Line(before.number, f"{before.text.rstrip()} {text}", before.hint, before.page)
            hard_breaks = hard_breaks | {before.number} if line.number in hard_breaks else hard_breaks
            last = len(line.text.rstrip())
            continue
        out.append(line)
        last = len(line.text.rstrip()) if text else 0
    return out


def _number_in_sentence(before: str, text: str) -> bool:
    """A rule number the wrap put at a line's start, in a sentence that goes on ("… See rule" / "202.3.")."""
    last = before.rsplit(None, 1)[-1]
    return text[0].isdigit() and last.isalpha() and last.islower()


def _may_be_heading(before: str, text: str) -> bool:
    """"Appendix A—Changes From Previous Versions. These numbers are guidelines only." over its paragraph:
    a line that ends a sentence, before one that starts another, with most of its longer words capitalised."""
    if before.rstrip()[-1] not in ".!?:" or not text[0].isupper():
        return False
    longer = [word for word in before.split() if len(word) > 3 and word[0].isalpha()]
    return sum(word[0].isupper() for word in longer) * 2 > len(longer)
