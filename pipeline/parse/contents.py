"""A document's own contents list, found in its typed stream given the kind's heading grammar.

A parser says how its headings are written: `entry_of(text)` gives the (number, title) a line would name
as a contents entry ("" for the number of an unnumbered entry such as "Introduction"), or None. What is
the same for every kind is found here, in three forms a contents list takes:

- dot-leader lines (the read stage's `ContentsLine`: "1.1 Tournament Types ..... 5"); a heading number
  alone on the line before one ("APPENDIX B" / "Time Limits ..... 47") starts its entry;
- after a "Contents" label, the entries that follow, until a line that is none or names an entry again
  (the body's first heading); a "list" of one entry was the first heading, not a list;
- a run of heading lines with nothing between them whose numbers come back later in the document
  (an HTML contents list of links).

What is found is data (`Contents.entries`, as `ContentsEntry`) and the stream positions the parser
skips (`Contents.skip`). Whether the body reaches every entry is checked after parsing
(pipeline.parse.checks).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Optional, Sequence

from ..model import ContentsEntry
from ..read.stream import Blank, ContentsLine, Element, PageNumber
from .common import is_contents_label

EntryOf = Callable[[str], Optional[tuple[str, str]]]
PAGE_AFTER_TITLE = re.compile(r"\s+\d{1,3}$")       # "1.1 Tournament Types 5": a page number without leaders
MIN_RUN = 4                                         # numbered entries in a run of heading lines
MIN_COMING_BACK = 2                                 # of which this many are headings again later


@dataclass
class Contents:
    """The entries of a contents list, in source order, and the stream positions it takes."""
    entries: list[ContentsEntry] = field(default_factory=list)
    skip: set[int] = field(default_factory=set)

    def add(self, number: str, title: str, line: int) -> None:
        self.entries.append(ContentsEntry(number, title, line))

    def by_number(self) -> dict[str, ContentsEntry]:
        """The first entry of each number."""
        found: dict[str, ContentsEntry] = {}
        for entry in self.entries:
            if entry.number:
                found.setdefault(entry.number, entry)
        return found

    def unnumbered(self) -> list[ContentsEntry]:
        return [entry for entry in self.entries if not entry.number]


def leader_lines(stream: Sequence[Element], entry_of: EntryOf, contents: Contents,
                 starts_entry: Callable[[str], bool] = lambda text: False) -> None:
    """Every dot-leader line is an entry; a line `starts_entry` accepts, with a leader line next (blank lines
    between), is the start of that entry."""
    start = ""
    for index, element in enumerate(stream):
        if isinstance(element, ContentsLine):
            contents.skip.add(index)
            _add(contents, entry_of, f"{start} {element.entry}".strip(), element.line)
            start = ""
        elif element.text and starts_entry(element.text) and _leader_follows(stream, index):
            contents.skip.add(index)
            start = element.text


def _add(contents: Contents, entry_of: EntryOf, text: str, line: int) -> None:
    entry = entry_of(text) if text else None
    if entry is not None:
        contents.add(entry[0], entry[1], line)


def _leader_follows(stream: Sequence[Element], index: int) -> bool:
    following = next((at for at in range(index + 1, len(stream)) if stream[at].text), None)
    return following is not None and isinstance(stream[following], ContentsLine)


def labelled_lists(stream: Sequence[Element], entry_of: EntryOf, contents: Contents, *,
                   label_of: Callable[[str], str] = str.strip, key: Callable[[str], str] = str.casefold,
                   ignored: Callable[[Element], bool] = lambda element: False, end: Optional[int] = None) -> None:
    """The entries after a "Contents" label (`label_of` gives the text a label is read from) before the body's
    first numbered heading and before `end`: until a line that is no entry or names an entry again (dot-leader
    lines, blank lines, page numbers and `ignored` lines between them aside). `key` compares unnumbered titles."""
    seen = _Seen(key)
    pending: Optional[list] = None            # the list being read: (element, entry), or None for a leader line
    for index in range(len(stream) if end is None else end):
        element = stream[index]
        if isinstance(element, (Blank, PageNumber)) or ignored(element):
            continue
        if isinstance(element, ContentsLine):
            seen.add(entry_of(element.entry) if element.entry else None)
            if pending is not None:
                pending.append(None)
            continue
        if pending is not None:
            entry = entry_of(element.text)
            if entry is not None and not seen.has(entry):
                seen.add(entry)
                pending.append((index, element.line, entry))
                continue
            _accept(pending, contents, seen)
            pending = None
        if is_contents_label(label_of(element.text)):
            contents.skip.add(index)
            pending = []
            continue
        entry = entry_of(element.text)
        if entry is not None and entry[0]:
            break                               # the body has begun
    if pending is not None:
        _accept(pending, contents, seen)


class _Seen:
    """The entries named so far: numbers, and the keys of unnumbered titles."""

    def __init__(self, key: Callable[[str], str]):
        self.key = key
        self.numbers: set[str] = set()
        self.titles: set[str] = set()

    def has(self, entry: tuple[str, str]) -> bool:
        number, title = entry
        return number in self.numbers if number else self.key(title) in self.titles

    def add(self, entry: Optional[tuple[str, str]]) -> None:
        if entry is None:
            return
        number, title = entry
        if number:
            self.numbers.add(number)
        else:
            self.titles.add(self.key(title))

    def discard(self, entry: tuple[str, str]) -> None:
        number, title = entry
        if number:
            self.numbers.discard(number)
        else:
            self.titles.discard(self.key(title))


def _accept(pending: list, contents: Contents, seen: _Seen) -> None:
    """The entries of a list after a label; one alone was the body's first heading, not an entry."""
    if len(pending) == 1 and pending[0] is not None:
        seen.discard(pending[0][2])
        return
    for item in pending:
        if item is not None:
            index, line, (number, title) = item
            contents.skip.add(index)
            contents.add(number, title, line)


def heading_runs(stream: Sequence[Element], entry_of: EntryOf, contents: Contents,
                 accept: Callable[[list[str]], bool] = lambda numbers: True) -> None:
    """Runs of numbered entries with nothing but blank lines and a "Contents" label between them, at least
    MIN_RUN entries long, MIN_COMING_BACK of whose numbers come back later as the body's headings, and whose
    numbers `accept` takes (a numbered list is no contents list). A number seen again in the run ends it: the
    body's first headings may follow the list with nothing between them."""
    numbers = [_number(entry_of, element.text) for element in stream]
    last_seen = {number: index for index, number in enumerate(numbers) if number}
    run: list[int] = []
    for index, element in enumerate(stream):
        if index not in contents.skip and (numbers[index] or not element.text or is_contents_label(element.text)):
            run.append(index)
        else:
            _accept_run(stream, entry_of, contents, run, numbers, last_seen, accept)
            run = []
    _accept_run(stream, entry_of, contents, run, numbers, last_seen, accept)


def _number(entry_of: EntryOf, text: str) -> str:
    entry = entry_of(text) if text else None
    return entry[0] if entry else ""


def _accept_run(stream: Sequence[Element], entry_of: EntryOf, contents: Contents, run: list[int],
                numbers: list[str], last_seen: dict[str, int], accept: Callable[[list[str]], bool]) -> None:
    run = _until_repeat(run, numbers)
    listed = [numbers[index] for index in run if numbers[index]]
    if len(listed) < MIN_RUN or not accept(listed):
        return
    last = run[-1]
    if sum(1 for number in listed if last_seen[number] > last) < MIN_COMING_BACK:
        return
    while run and not stream[run[-1]].text:           # blank lines at the edges belong to the text around
        run.pop()
    while run and not stream[run[0]].text:
        run.pop(0)
    if run and run[0] > 0 and is_contents_label(stream[run[0] - 1].text or "-"):
        run.insert(0, run[0] - 1)
    for index in run:
        contents.skip.add(index)
        if numbers[index]:
            number, title = entry_of(stream[index].text)
            contents.add(number, PAGE_AFTER_TITLE.sub("", title), stream[index].line)


def _until_repeat(run: list[int], numbers: list[str]) -> list[int]:
    seen: set[str] = set()
    for position, index in enumerate(run):
        if numbers[index] in seen:
            return run[:position]
        if numbers[index]:
            seen.add(numbers[index])
    return run
