"""How a line of text is shaped: whether it ends a sentence or reads like a title, whether it is a page
number or a contents entry drawn with dot leaders, and how two lines of one paragraph join.

Shared by the stream (which settles page furniture and contents lines once) and by the parsers;
knows nothing of any one document's numbering.
"""
from __future__ import annotations

import re

# What may close a sentence after its final punctuation: "...Option.”", "...(See rule 704.)".
CLOSING_MARKS = "\"'”’)]"
SENTENCE_MARKS = ".!?:"
SENTENCE_INSIDE = re.compile(r"(?:[a-z]{3}|\))[.!?]\s+[A-Z]")   # not "Team vs. Team"
NOT_TITLE_STARTS = ",.;:)]-–—•*"

PAGE_NUMBER = re.compile(r"^\s*(?:page\s+)?\d{1,3}(?:\s+of\s+\d{1,3})?\s*$", re.I)
PAGE_NUMBER_MAX = 16        # "Page 123 of 456" at most
DOT_LEADER = re.compile(r"(?:\.\s?){4,}\s*\d{1,3}\s*$|…{2,}\s*\d{1,3}\s*$")
DIGITS = re.compile(r"\d+")
RUN_LEAST = 3               # page numbers come in an increasing run of at least this many


def ends_sentence(text: str, marks: str = SENTENCE_MARKS) -> bool:
    """"...the game." / "...(see rule 704.)" / "Example:" end a sentence; "...a player" does not. Empty: True."""
    return text.rstrip(CLOSING_MARKS)[-1:] in marks if text else True


def looks_like_title(text: str, max_length: int = 100, max_words: int = 16, trailing: str = ".,;:") -> bool:
    """Short, starts like a title (a capital, a digit or a quote), holds no sentence and does not end like one."""
    if not text or len(text) > max_length or text[0].islower() or text[0] in NOT_TITLE_STARTS:
        return False
    # (the cheap tests first: most lines a parser asks about end like a sentence)
    return (text.rstrip(CLOSING_MARKS)[-1:] not in trailing and len(text.split()) <= max_words
            and not SENTENCE_INSIDE.search(text))


def is_page_number(text: str) -> bool:
    """A line holding only a page number ("12", "Page 3 of 40")."""
    return bool(PAGE_NUMBER.match(text))


def is_contents_line(text: str) -> bool:
    """A table-of-contents line ending in dot leaders and a page number."""
    return bool(DOT_LEADER.search(text))


def strip_dot_leader(text: str) -> str:
    return DOT_LEADER.sub("", text).rstrip(" .")


def page_number_runs(numbers: list[tuple[int, str]]) -> set[int]:
    """Of (position, text) page-number lines, the positions of those in an increasing run of at least three
    (a step of one or two: a page without a number between). A table cell alone on a line ("21", "10") is in
    no such run."""
    candidates = [(position, int(DIGITS.search(text).group())) for position, text in numbers]
    best: dict[int, tuple[int, int]] = {}         # value -> (chain length, position in candidates)
    length = [1] * len(candidates)
    previous = [-1] * len(candidates)
    for position, (_, value) in enumerate(candidates):
        for step in (1, 2):
            if value - step in best and best[value - step][0] + 1 > length[position]:
                length[position] = best[value - step][0] + 1
                previous[position] = best[value - step][1]
        best[value] = (length[position], position)
    found: set[int] = set()
    for position in range(len(candidates) - 1, -1, -1):
        if length[position] >= RUN_LEAST and candidates[position][0] not in found:
            walk = position
            while walk >= 0 and candidates[walk][0] not in found:
                found.add(candidates[walk][0])
                walk = previous[walk]
    return found


# A line that ends inside a word: a letter (or a closing mark) right before a hyphen or dash, no space
# between ("turn-" / "based", "occurs—" / "unless"). PDFs of these documents break lines only at hyphens
# that are part of the word, so the hyphen stays and no space is put in.
BROKEN_AT_DASH = re.compile(r"(?:[^\W_]|[\[(])[-‐–—−]$|[\"”’)][—–]$")   # "[−" / "N]": a minus sign too
GOES_ON = re.compile(r"[^\W_]|[\[{(“\"‘']")          # what may follow such a dash without a space
# "first- and second-order": a hyphen before a conjunction is a suspended compound, the space stays.
SUSPENDED = re.compile(r"(?:and|or|nor|to)\b")


def glue(before: str, after: str) -> str:
    """What goes between two lines of one paragraph: "" after a word broken at its hyphen, else a space."""
    # The pattern's two characters end the text (or stand before a final newline): its last three hold them,
    # and a search of those does not walk a paragraph that grows line by line.
    if before and after and GOES_ON.match(after) and BROKEN_AT_DASH.search(before[-3:]) \
            and not (before[-1] == "-" and SUSPENDED.match(after)):
        return ""
    return " "
