"""What the IPG, MTR and JAR parsers do alike around their own grammar: the loop that reads their lines,
the front matter they collect (where blocks go until a section is being read), the credits they read,
section ids and the numbers' order, the problems they record, a line they could not read kept as a
paragraph (never an exception), the lines that hold none of the document's text, the width a text was
wrapped at, running text (a list item, the next line of the paragraph or item open above, or a new
paragraph), whether a paragraph may end where a line begins, whether a line goes on with the paragraph
above, the shape of a subheading, when a contents list's title and a heading name the same section, and
the Document they hand back.

Each parser subclasses `KindParser` and keeps only what is its kind's: its headings, its sections, the
lines that are no running text (table rows, subheadings, an IPG's infraction parts, a JAR's issues). (The
CR parser, built for speed, does these its own way.)
"""
from __future__ import annotations

import re
from typing import Collection, Iterable, Optional, Sequence

from ..model import BULLET, NUMBERED, PARAGRAPH, Document, DocumentInfo, Problem, Section
from ..read import SourceText
from ..read.shapes import looks_like_title
from ..read.stream import ContentsLine, Element, PageNumber
from .blocks import Draft, SectionDraft, list_item
from .common import (
    NumberOrder,
    SectionIds,
    ends_paragraph,
    ends_sentence,
    first_word,
    line_failed,
    normalise_title,
    wrap_width,
)
from .ending import CREDIT_LINE, credits_start

SUBHEADING_MAX = 60         # characters in a subheading ("Booster Draft Timing", "FRAMEWORK OF THIS DOCUMENT")
SUBHEADING_WORDS = 6

# A table's rule as Markdown draws it ("|---|:---:|"), or a horizontal rule ("-----", pandoc's plain text).
RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?$")


def text_lines(stream: Sequence[Element], lone_numbers_are_text: bool = False) -> list[Element]:
    """The elements of `stream` that hold text (see holds_no_text)."""
    return [element for element in stream if not ((isinstance(element, PageNumber) or "---" in element.text)
                                                  and holds_no_text(element, lone_numbers_are_text))]


def holds_no_text(element: Element, lone_numbers_are_text: bool = False) -> bool:
    """Page furniture or a rule: a page number (only one of a run of them where a number alone on a line may be
    the document's text, as in the MTR's tiebreaker examples), or a line of dashes."""
    if isinstance(element, PageNumber):
        return element.in_run or not lone_numbers_are_text
    return "---" in element.text and RULE.match(element.text) is not None


def short_title(text: str) -> bool:
    """A line that may be a subheading (a JAR's section heading): short (SUBHEADING_MAX, SUBHEADING_WORDS), starting
    like a title and holding a letter, ending like no sentence or clause. How its words are capitalised is the
    kind's to say."""
    return looks_like_title(text, SUBHEADING_MAX, SUBHEADING_WORDS, trailing=".,;:!?") and any(
        character.isalpha() for character in text)


def same_title(listed: str, title: str) -> bool:
    """Whether a contents list's title and a heading's name the same section: alike but for case, punctuation and
    an end cut off (both of 8 characters at least), or most of the shorter one's long words (two at least) in
    the other (editions reword: "Limited Events" / "Limited Tournaments")."""
    a, b = normalise_title(listed), normalise_title(title)
    if not (a and b):
        return False
    if a == b or (min(len(a), len(b)) >= 8 and (a.startswith(b) or b.startswith(a))):
        return True
    shorter, longer = sorted(({word for word in text.split() if len(word) > 3} for text in (a, b)), key=len)
    return len(shorter) >= 2 and 3 * len(shorter & longer) >= 2 * len(shorter)


class KindParser:
    """The state every kind's parser keeps besides its sections, and the Document it makes of them."""

    # Whether a paragraph ends with every sentence that ends a line, and only there (the IPG's, wherever the
    # line ends), or where the line is not full (the MTR's and the JAR's).
    sentence_ends_paragraph = False
    # Whether a PDF's paragraphs are set apart by a gap, the reader's blank line (the JAR's): there every line
    # goes on with the paragraph above.
    pdf_paragraphs_apart = False
    lone_numbers_are_text = False       # (see holds_no_text)
    glued = False           # a paragraph's lines joined as a hard-wrapped text's ("turn-" + "based"): the JAR's

    def __init__(self, source: SourceText, info: DocumentInfo):
        self.source = source
        self.info = info
        self.problems: list[Problem] = []
        self.ids = SectionIds(self.problems, info.source)       # the sections' ids, unique
        self.order = NumberOrder(self.problems, info.source)    # the highest section number read so far
        self.front: list[Draft] = []            # the blocks before the first section
        self.current: Optional[SectionDraft] = None     # the section blocks go to (add_block)
        self.open: Optional[Draft] = None       # the paragraph or list item the next line may go on with
        self.credits: list[Draft] = []          # the credits that close the document (pipeline.parse.ending)
        self.in_credits = False
        self.html = source.format == "html"    # a paragraph per line, never hard-wrapped
        self.previous: Optional[str] = None     # the last line of the block open, as written (None after a blank)
        self.width: Optional[int] = None        # the width the text was hard-wrapped at (wrapped_at)
        self.every_line_goes_on = self.pdf_paragraphs_apart and source.format == "pdf"
        self.stream: Sequence[Element] = ()     # the elements to read, as the kind's parser takes them
        self.skip: Collection[int] = ()         # the places in `stream` of a contents list

    def parse(self) -> Document:
        """Read the stream, then hand back the Document the kind's parser makes of it (`finish`)."""
        self.read(self.stream, credits_start(self.stream), self.skip)
        return self.finish()

    def read(self, elements: Sequence[Element], credits_at: int, skip: Collection[int] = ()) -> None:
        """Read `elements` in turn: from `credits_at` on, once the sections have begun, the credits; before them,
        what `skip` names (a contents list) is passed over; a blank line ends a paragraph, what holds no text is
        passed over, any other line is the kind's to read (`line`; one that raises is kept as it is written)."""
        for index, element in enumerate(elements):
            if not self.in_credits and index >= credits_at and self.sections_begun():
                self.in_credits = True
                self.close()
            if index in skip and not self.in_credits:
                continue
            if not element.text:
                self.blank()
            elif (element.__class__ is PageNumber or "---" in element.text) \
                    and holds_no_text(element, self.lone_numbers_are_text):
                continue                    # (most lines: no call made)
            elif self.in_credits:
                self.credit_line(element)
            else:
                try:
                    self.line(index, element)
                except Exception as error:  # never raise on odd content
                    self.could_not_read(element, error)
        self.close()

    def line(self, index: int, element: Element) -> None:
        """A line of the document's text, `index` its place in the elements read."""
        raise NotImplementedError

    def sections_begun(self) -> bool:
        return bool(self.sections)

    def blank(self) -> None:
        """A blank line: the paragraph above ends."""
        self.open = self.previous = None

    def close(self) -> None:
        """What is being read ends (a section, the text before the credits, the document): no line goes on
        with the paragraph above."""
        self.open = None

    def paragraph_may_end(self) -> bool:
        """Whether the paragraph above may end here: none is open (a blank line, a heading, a table row came
        before), or its last line ends a sentence."""
        return self.open is None or ends_sentence(self.previous)

    def goes_on(self, text: str, previous: str, above: Draft) -> bool:
        """Whether the line `text` goes on with the paragraph or list item `above`, whose last line was
        `previous` (the parser has made sure one is open right above): a line that starts in lower case or
        with "(" does (where a paragraph is a line, only after an unfinished sentence: "(" may open one of
        its own); in the IPG, a line after an unfinished sentence (a paragraph per line aside). Otherwise
        only where a text was hard-wrapped: after a full line (its first word would not have fitted above; a
        list item in a narrow column wraps after a short first line into shorter ones)."""
        if self.every_line_goes_on:
            return True
        first = text[0]
        if first.islower() or first == "(":     # a paragraph a line: a stray break inside a sentence only
            return self.width is not None or self.sentence_ends_paragraph or not ends_sentence(previous)
        if self.sentence_ends_paragraph:
            return not self.html and not ends_sentence(previous)
        if self.width is None:
            return False
        if ends_sentence(previous):
            return len(previous) + 1 + len(first_word(text)) > self.width
        return not ends_paragraph(previous, text, self.width) or (
            above.kind in (BULLET, NUMBERED) and len(above.parts) == 1 and len(text) <= len(previous))

    def wrapped_at(self, stream: Sequence[Element]) -> Optional[int]:
        """The width the text of `stream` was hard-wrapped at (contents lines aside), or None: a paragraph a line."""
        if self.html:
            return None
        return wrap_width([element.text for element in stream if not isinstance(element, ContentsLine)])

    def add_block(self, draft: Draft) -> None:
        """A block of the section being read, or of the front matter before the first."""
        (self.current.blocks if self.current is not None else self.front).append(draft)

    def start(self, draft: Draft) -> None:
        """A new block (add_block), which the next line may go on with where it is a paragraph or a list item."""
        self.add_block(draft)
        self.open = draft if draft.kind in (PARAGRAPH, BULLET, NUMBERED) else None
        self.previous = draft.parts[-1]

    def draft(self, kind: str, text: str, line: int, marker: str = "", **fields) -> Draft:
        """A new block of one line, as the kind builds them."""
        return Draft(kind, [text], line, marker, glued=self.glued, **fields)

    def running_text(self, element: Element, paragraph_may_end: bool) -> None:
        """A line of running text: a list item (`item`), else the next line of the paragraph or item open above
        or a new paragraph (paragraph_line)."""
        item = self.item(element, paragraph_may_end)
        if item is not None:
            self.start(item)
            self.previous = element.text        # as written, its marker with it (goes_on measures lines)
        else:
            self.paragraph_line(element)

    def paragraph_line(self, element: Element) -> None:
        """The next line of the paragraph or list item open above (goes_on_above), or a new paragraph."""
        if self.goes_on_above(element.text):
            self.open.add(element.text, element.line)
            self.previous = element.text
        else:
            self.start(self.draft(PARAGRAPH, element.text, element.line))

    def goes_on_above(self, text: str) -> bool:
        """Whether the line `text` goes on with the paragraph or list item open above, after `previous`, its last
        line as written (goes_on)."""
        return self.open is not None and self.goes_on(text, self.previous, self.open)

    def item(self, element: Element, paragraph_may_end: bool) -> Optional[Draft]:
        """The list item a line is (pipeline.parse.blocks.list_item), or None."""
        found = list_item(element, paragraph_may_end, self.open)
        return self.draft(found[0], found[2], element.line, found[1]) if found else None

    def credit_line(self, element: Element) -> None:
        """A line of the credits that close the document: a credit line ("All trademarks...", "© 2026 ...") is a
        paragraph of its own, a line after it (in lower case: pipeline.parse.ending) goes on with it."""
        if self.credits and not CREDIT_LINE.match(element.text):
            self.credits[-1].add(element.text, element.line)
        else:
            self.credits.append(Draft(PARAGRAPH, [element.text], element.line))

    def problem(self, severity: str, line: Optional[int], message: str) -> None:
        self.problems.append(Problem(severity, self.info.source, line, message))

    def could_not_read(self, element: Element, error: Exception) -> None:
        """What a parser does where reading `element` raised (odd content never stops a parse): a warning with its
        line, and its text kept as a paragraph where the parser is (`keep_unread`)."""
        line_failed(self.problems, self.info.source, element.line, error)
        self.keep_unread(element)

    def keep_unread(self, element: Element) -> None:
        """Keep the text of a line that could not be read, as a paragraph of its own where the parser is."""
        self.add_block(self.draft(PARAGRAPH, element.text, element.line))
        self.open = None

    def document(self, sections: Iterable[Section], **more) -> Document:
        """The Document: its sections, front matter, credits and problems (and `more` of its fields)."""
        return Document(info=self.info, sections=tuple(sections), front_matter=blocks_of(self.front),
                        credits=blocks_of(self.credits), problems=tuple(self.problems), **more)


def blocks_of(drafts: Iterable[Draft]) -> tuple:
    return tuple(draft.block() for draft in drafts)
