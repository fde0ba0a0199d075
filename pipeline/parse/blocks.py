"""Blocks as the parsers build them from body lines: a paragraph, list item or table row that may take more
lines, and the references written in it, each with the source line its phrase starts on; the section that
holds them; and what a list item is, the same in every kind: an element of a list, an item drawn in a
line's text ("• Text", "- Text") or numbered in it ("1. Text", "(b) Text").

What is about a kind (which blocks are examples, a lost bullet) stays in its parser; when a line goes on
with the block above is pipeline.parse.kind_parser's.
"""
from __future__ import annotations

import bisect
import re
from dataclasses import dataclass, field
from typing import Optional, Sequence

from ..model import BULLET, NUMBERED, SUBHEADING, Block, Reference, Section
from ..read.stream import Element, ListItem
from .common import join_lines, line_starts
from .refs import find_references, may_hold_references, moved


@dataclass
class Draft:
    """A block being built from one or more source lines."""
    kind: str
    parts: list[str]                  # the text of each of its lines
    line: int                         # the source line of the first
    marker: str = ""                  # "•", "1.", "A." for list items
    cells: tuple[str, ...] = ()       # for table rows
    example: bool = False             # one of its section's examples, not a block
    glued: bool = False               # its lines joined as a hard-wrapped text is ("turn-" + "based"), not by spaces
    references_from: int = 0          # where in its text references may be written (after a change note's "3.5:")
    lines: list[int] = field(default_factory=list)   # the source line of each part after the first

    @property
    def text(self) -> str:
        return join_lines(self.parts) if self.glued else " ".join(self.parts)

    def add(self, text: str, line: int) -> None:
        """The next line of this paragraph or item."""
        self.parts.append(text)
        self.lines.append(line)

    def block(self) -> Block:
        return Block(self.kind, self.text, self.marker, self.cells)

    def references(self, block: int = -1) -> list[Reference]:
        """The references in this block (`block`: its place in its section), each with the line its phrase
        starts on."""
        text = self.text
        searched = text[self.references_from:] if self.references_from else text
        if not may_hold_references(searched):
            return []
        found = find_references(searched, self.line, block=block)
        if self.references_from:
            found = [moved(reference, start=reference.start + self.references_from,
                           end=reference.end + self.references_from) for reference in found]
        if not self.lines:
            return found
        starts = line_starts(self.parts) if self.glued else _spaced_starts(self.parts)
        line_of = [self.line] + self.lines
        return [moved(reference, line=line_of[max(bisect.bisect_right(starts, reference.start) - 1, 0)])
                for reference in found]


def _spaced_starts(parts: list[str]) -> list[int]:
    """Where each part starts in " ".join(parts)."""
    starts, position = [], 0
    for part in parts:
        starts.append(position)
        position += len(part) + 1
    return starts


def references_of(drafts: Sequence[Draft]) -> tuple[Reference, ...]:
    """The references of a section's drafts, in order, each knowing its block's place (a subheading is a title,
    not a passage that refers)."""
    return tuple(reference for index, draft in enumerate(drafts) if draft.kind != SUBHEADING
                 for reference in draft.references(index))


@dataclass
class SectionDraft:
    """A section being read: where it stands, and its blocks and examples as drafts."""
    id: str
    number: str                       # "" for an unnumbered one
    title: str
    level: int
    kind: str
    parent: Optional[str]
    line: int
    blocks: list[Draft] = field(default_factory=list)
    examples: list[Draft] = field(default_factory=list)

    def section(self, examples: Optional[tuple[str, ...]] = None, **more) -> Section:
        """The Section (`examples`: its examples' texts where they are not the example drafts'; `more`: more of
        its fields, as a kind knows them)."""
        if examples is None:
            examples = tuple(example.text for example in self.examples)
        more.setdefault("kind", self.kind)
        return Section(id=self.id, number=self.number, title=self.title, level=self.level,
                       blocks=tuple(block.block() for block in self.blocks), examples=examples, parent=self.parent,
                       refs=references_of(self.blocks + self.examples), line=self.line, **more)


# A list item drawn in the text (a PDF's, a plain text's; the reader has taken a list element's marker already):
# a bullet, the space after it optional ("•Text" in PDF text), or a dash, which a wrapped line may start with too.
BULLETS = "•◦▪‣●■□·○∙"
DASHES = "-–*+"
BULLET_ITEM = re.compile(rf"^([{BULLETS}])\s*(\S.*)$")
DASH_ITEM = re.compile(rf"^([{re.escape(DASHES)}])\s+(\S.*)$")


def drawn_item(text: str, paragraph_may_end: bool = True, above: Optional[Draft] = None) -> Optional[tuple[str, str]]:
    """The marker and text of a line drawn as a list item, or None. A dash starts an item only where the
    paragraph above may end, or after an item drawn with the same dash: "-" also breaks a word at a line's end."""
    first = text[:1]
    if not first or (first not in BULLETS and first not in DASHES):
        return None                 # (most lines: no regular expression tried)
    match = BULLET_ITEM.match(text)
    if match is None:
        match = DASH_ITEM.match(text)
        if match is None or not (paragraph_may_end or (above is not None and above.kind == BULLET
                                                       and above.marker == match.group(1))):
            return None
    return match.group(1), match.group(2)


# A list item numbered in the text: "1.", "2)", "(3)", "a.", "(b)", "A." (an IPG's lettered examples).
NUMBERED_ITEM = re.compile(r"^(\d{1,2}[.)]|[A-Za-z][.)]|\(\d{1,2}\)|\([a-z]\))\s+(\S.*)$")


def list_item(element: Element, paragraph_may_end: bool = True,
              above: Optional[Draft] = None) -> Optional[tuple[str, str, str]]:
    """The kind (BULLET or NUMBERED), marker and text of a line that is a list item, or None: an element of a
    list (with the marker its reader drew, else "•"), an item drawn in the text (drawn_item), or one numbered
    in it where the paragraph above may end or a list goes on ("...Vengeant" / "F. A player": the item above
    may end without a full stop; after a bullet, not at a capital, which starts a wrapped line as often:
    "(Player" / "B) observes this")."""
    listed = isinstance(element, ListItem)
    if listed and element.marker:
        return (BULLET if element.marker in BULLETS else NUMBERED), element.marker, element.body
    text = element.text
    drawn = drawn_item(text, paragraph_may_end or listed, above)
    if drawn:
        return BULLET, drawn[0], drawn[1]
    numbered = NUMBERED_ITEM.match(text) if text[1:2] in ".)" or text[:1] == "(" or text[2:3] in ".)" else None
    if numbered and (listed or paragraph_may_end or (above is not None and (
            above.kind == NUMBERED or above.kind == BULLET and not text[0].isupper()))):
        return NUMBERED, numbered.group(1), numbered.group(2)
    return (BULLET, "•", text) if listed else None
