"""What every parser shares: how a line ends a sentence or reads like a title, the contents label,
titles compared across formats, unique section ids and numbers in order, a per-line guard so that odd content
becomes a Problem (with its line) instead of an exception, how the lines of a paragraph join, and
what makes a parse fast (model objects built and copied without the frozen classes' __init__, the
cycle collector paused).
How a document ends (its credits, a truncated file) is in `ending`; what is about the format
(headings, lists, tables, page furniture, dot-leader contents lines) was settled by the read stage's
typed stream.

Each parser keeps only what is its document's own (numbering, penalties, glossary).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional

from ..model import (  # noqa: F401  (shared with the parsers)
    ERROR,
    WARNING,
    DocumentInfo,
    Problem,
    fast_constructor,
    without_cycle_collection,
)
from ..read.shapes import CLOSING_MARKS, ends_sentence, glue, looks_like_title  # noqa: F401  (shared with the parsers)

# "Contents", "Table of Contents", "CONTENTS:"; the MTR also lists "Appendices".
CONTENTS_LABEL = re.compile(r"(?:table\s+of\s+)?contents:?|appendices", re.I)

TITLE_WORD = re.compile(r"[A-Za-z][\w'’-]*")
NOT_ALPHANUMERIC = re.compile(r"[^0-9a-z]+")
TRAILING_NOTE = re.compile(r"\s*[(\[][^()\[\]]*[)\]]$")       # "... Limited Events (these are guidelines)"


def title_case(title: str) -> bool:
    """Most long words capitalised, as in "Card Use in Limited Tournaments" or "General Unwanted Behaviors"
    (not "New sets added", "Such as these"); a note in parentheses at its end does not count."""
    long_words = [word for word in TITLE_WORD.findall(TRAILING_NOTE.sub("", title)) if len(word) > 3]
    return not long_words or 2 * sum(word[0].isupper() for word in long_words) >= len(long_words)


def normalise_title(text: str) -> str:
    """"Appendix A—Changes" and "appendix a - changes" compare equal."""
    return NOT_ALPHANUMERIC.sub(" ", text.lower().replace("’", "'")).strip()


def is_contents_label(text: str) -> bool:
    return bool(CONTENTS_LABEL.fullmatch(text.strip()))


class SectionIds:
    """Section ids, unique within a document: a number seen again gets "-2", "-3"… (and a warning)."""

    def __init__(self, problems: list[Problem], source: str):
        self.counts: dict[str, int] = {}
        self.used: set[str] = set()
        self.problems = problems
        self.source = source

    def unique(self, wanted: str, number: str = "", line: Optional[int] = None) -> str:
        if wanted not in self.counts and wanted not in self.used:     # (almost every id)
            self.counts[wanted] = 1
            self.used.add(wanted)
            return wanted
        count = self.counts.get(wanted, 0) + 1
        self.counts[wanted] = count
        unique = wanted if count == 1 else f"{wanted}-{count}"
        while unique in self.used:
            count += 1
            unique = f"{wanted}-{count}"
        if unique != wanted and number:
            self.problems.append(Problem(WARNING, self.source, line,
                                         f"section number {number} appears again (duplicate number); both kept, "
                                         f"the second as {unique.split(':', 1)[1]}"))
        self.used.add(unique)
        return unique


class NumberOrder:
    """The highest section number read so far (`key`: its sort key); a number below it is a warning."""

    def __init__(self, problems: list[Problem], source: str):
        self.key: Optional[tuple] = None
        self.number = ""
        self.problems = problems
        self.source = source

    def read(self, key: tuple, number: str, line: Optional[int]) -> None:
        if self.key is not None and key < self.key:
            self.problems.append(Problem(WARNING, self.source, line,
                                         f"section {number} comes after {self.number}: the numbering goes backwards"))
        elif self.key is None or key > self.key:
            self.key, self.number = key, number


def broken_severity(info: DocumentInfo) -> str:
    """What a broken invariant is: an error, but a warning in a file the manifest says is an excerpt (an
    excerpt's contents list names what it left out)."""
    return WARNING if info.excerpt else ERROR


def line_failed(problems: list[Problem], source: str, line: Optional[int], error: Exception) -> None:
    """A line a parser could not read (odd content never stops a parse): say where; the caller keeps its text."""
    problems.append(Problem(WARNING, source, line, f"could not read this line ({type(error).__name__}: {error}); "
                                                   f"kept it as a paragraph"))


# --- joining the lines of a paragraph ---------------------------------------------------------------

def join_lines(parts: list[str]) -> str:
    """The lines of one paragraph as one text ("turn-" + "based" -> "turn-based", others with a space)."""
    if len(parts) == 1:
        return parts[0]
    pieces = [parts[0]]
    for before, after in zip(parts, parts[1:]):
        pieces.append(glue(before, after))
        pieces.append(after)
    return "".join(pieces)


def line_starts(parts: list[str]) -> list[int]:
    """Where each line starts in join_lines(parts)."""
    starts, position = [], 0
    for index, part in enumerate(parts):
        if index:
            position += len(glue(parts[index - 1], part))
        starts.append(position)
        position += len(part)
    return starts


def wrap_width(texts: list[str], unwrapped: int = 160) -> Optional[int]:
    """The width (in characters) a hard-wrapped text was wrapped at, or None for one paragraph per line.

    PDF lines, pdftotext output and old hard-wrapped files have one; plain text and HTML with a
    paragraph per line do not (their typical long line is longer than `unwrapped`).
    """
    if _past_width(texts, unwrapped):
        return None
    lengths = sorted([len(text) for text in texts if len(text) >= 20 and "\t" not in text])
    if len(lengths) < 10:
        return None
    width = lengths[int(len(lengths) * 0.9)]
    return None if width > unwrapped else width


def _past_width(texts: list[str], unwrapped: int) -> bool:
    """Whether wrap_width's tenth longest measured line is longer than `unwrapped` for certain: enough lines that
    long found, without measuring and sorting every line (a paragraph-a-line file has them at once). How many it
    takes is counted on every text: measuring fewer can only lower it."""
    needed = len(texts) - int(len(texts) * 0.9)
    for text in texts:
        if len(text) > unwrapped and "\t" not in text:
            needed -= 1
            if needed <= 0:
                return True
    return False


def first_word(text: str) -> str:
    return text.split(maxsplit=1)[0] if text.split() else ""


def ends_paragraph(line: str, following: str, width: Optional[int]) -> bool:
    """Whether a wrapped line ends its paragraph: its next line's first word would have fitted on it.

    Only for hard-wrapped text (`width` known); proportional fonts make "full" vary, hence the margin.
    """
    return width is not None and len(line) + 1 + len(first_word(following)) <= width * 0.9


# --- building model objects fast ------------------------------------------------------------------

def changed(item, **changes):
    """dataclasses.replace(item, **changes) for a frozen model object, without running its __init__ again
    (which sets each field through object.__setattr__: linking a CR changes thousands of references)."""
    cls = type(item)
    plain = _PLAIN.get(cls)
    if plain is None:
        plain = _PLAIN[cls] = "__slots__" not in cls.__dict__ and not hasattr(cls, "__post_init__")
    if not plain:
        return replace(item, **changes)
    copy = _new(cls)
    state = item.__dict__.copy()     # (a copy, then set: twice as fast as a dict built anew, and in the same order)
    state.update(changes)
    _set(copy, "__dict__", state)
    return copy


def field_changer(cls, name: str):
    """changed(item, **{name: value}) as a function of (item, value) for items of `cls`: linking sets one
    field (a reference's target, a section's references) thousands of times."""
    if "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__"):
        return lambda item, value: replace(item, **{name: value})

    def change(item, value):
        copy = _new(item.__class__)
        state = item.__dict__.copy()
        state[name] = value
        _set(copy, "__dict__", state)
        return copy
    change.__qualname__ = change.__name__ = f"with_{name}"
    return change


_PLAIN: dict[type, bool] = {}       # class -> whether it keeps its fields in __dict__ and checks nothing after __init__
_new = object.__new__
_set = object.__setattr__
