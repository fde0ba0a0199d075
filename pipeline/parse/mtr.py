"""Parse the Magic Tournament Rules (MTR) and the old Magic Online DCI Floor Rules.

Registered for the kinds "mtr" and "floor": both are tournament rules made of
numbered sections, written in one of two numbering styles:

- MTR style: chapters "1. Tournament Fundamentals", sections "1.1 Tournament Types"
  (no dot after the second number; "MTR 1.1 ..." in the magicjudges HTML) and
  appendices "Appendix A—Changes ..." / "Appendix A-Changes" / "MTR Appendix A - Changes" /
  "Appendix A: Changes" / "APPENDIX A" with its title on the next line.
- Floor style (2002 Magic Online floor rules): "100." groups, "101." sections,
  "112a." subsections, and unnumbered subheadings ("Sideboarding") that get
  their own Section (number "", kind "subheading").

How it decides, reading the typed stream (pipeline.read.stream), which has settled headings, lists,
tables, dot-leader contents lines and page numbers:
- Page numbers in an increasing run are furniture; a number alone on a line outside such a run is
  text (tables hold numbers too).
- The contents list (dot-leader lines, or a run of heading-shaped lines whose
  numbers come back later, as in the HTML: pipeline.parse.contents) is skipped; its entries confirm
  headings, give chapters their titles when only the contents names them, and
  say when the document stops early (contents entries never found: pipeline.parse.ending).
- "1. Players may exchange..." looks exactly like a chapter heading: a chapter
  is accepted only when the contents list names it, when a heading tag marks it,
  or when the next line is its own first section ("1.1 ...").
- Hard-wrapped lines (pdftotext) are joined into paragraphs by line length and end punctuation
  (KindParser.goes_on); files with one paragraph per line (plain text, HTML) are not.
- Headings the source marks (HTML h1-h6, Markdown "#", a PDF font) help, but are
  never required.
- A note run into a heading line ("Appendix D-Recommended Booster Mix (these numbers are
  guidelines)") is a paragraph of its own when the contents list gives the title without it.
- A title and its contents entry match when one starts the other or most of their words are shared
  (editions reword: "Limited Events" / "Limited Tournaments").

It must not: read files, resolve references (the link stage does), change the
text it keeps, raise on odd content (it records Problems), or drop any
passage: what is not a heading is a block of front matter, a section or credits.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Optional

from ..model import (
    BULLET,
    ERROR,
    INFO,
    NUMBERED,
    PARAGRAPH,
    SUBHEADING,
    TABLE_ROW,
    Document,
    DocumentInfo,
    section_id,
    subsection_id,
)
from ..read import SourceText
from ..read.stream import Element, Heading, ListItem, TableRow
from .blocks import BULLET_ITEM, Draft, SectionDraft, list_item
from .common import CLOSING_MARKS, ends_sentence, looks_like_title, normalise_title, title_case
from .contents import Contents, heading_runs, leader_lines
from .ending import text_end
from .kind_parser import KindParser, same_title, short_title, text_lines

# --- the shapes of lines -------------------------------------------------------------------------

SECTION_HEADING = re.compile(r"^(MTR\s+)?(\d{1,2}(?:\.\d{1,2})+)\.?\s+(\S.*)$")
CHAPTER_HEADING = re.compile(r"^(MTR\s+)?(\d{1,2})\.\s+(\S.*)$")
APPENDIX_HEADING = re.compile(r"^(MTR\s+)?(?:Appendix|APPENDIX)\s+([A-Z])(?![\w’'])\s*(?:(--|[—–:.-])\s*)?(.*)$")
FLOOR_HEADING = re.compile(r"^(\d{3})([a-z]?)\.\s+(\S.*)$")
EXAMPLE_START = re.compile(r"^Examples?(?:\s+\d{1,2})?\s*[:—–]\s*\S")
EXAMPLE_LABEL = re.compile(r"^Examples?\s*:?$")
# Where a note run into a heading line starts, after its title: "(", ". ", ": ", " - ", "—".
NOTE_START = re.compile(r"\s*[(\[]|[.:;]\s+\S|\s+[-–—]\s+\S|\s*[—–]\s*\S")
WORD_END = re.compile(r"[0-9A-Za-z]\b")

MAX_TITLE = 100


@dataclass(frozen=True)
class _Shape:
    """What a line would be if it were a heading."""
    form: str                 # "chapter", "section", "appendix", "floor"
    number: str               # "1", "1.1", "Appendix A", "112a"
    title: str
    prefixed: bool = False    # "MTR 1.1 ...": only headings carry the prefix
    separator: str = ""       # the appendix's separator: "—", "-", ":", "."


# --- entry point ---------------------------------------------------------------------------------

def parse_mtr(source: SourceText, info: DocumentInfo) -> Document:
    """Turn a tournament-rules source (MTR or floor rules) into a Document; never raises on content."""
    return _Parser(source, info).parse()


# --- small helpers -------------------------------------------------------------------------------

def _title_and_note(text: str, title: str) -> Optional[tuple[str, str]]:
    """`text` split into `title` as it is written there and a note run in after it, or None."""
    wanted = normalise_title(title)
    for match in WORD_END.finditer(text):
        end = match.end()
        if normalise_title(text[:end]) == wanted:
            while end < len(text) and text[end] in CLOSING_MARKS:     # "(2HG)" ends the title with its mark
                end += 1
            rest = text[end:]
            if not NOTE_START.match(rest):
                return None
            return text[:end], rest.strip().lstrip(".:;-–—").strip()
    return None


def _bare_appendix(shape: Optional[_Shape]) -> bool:
    """"APPENDIX B" with its title on the next line (not "Appendix B." ending a sentence)."""
    return bool(shape) and shape.form == "appendix" and not shape.title and shape.separator != "."


def _title_ok(title: str, hinted: bool = False) -> bool:
    """A heading title: short, starts like a title, does not end like a sentence (unless marked as a heading)."""
    return looks_like_title(title, MAX_TITLE, max_words=14, trailing="" if hinted else ".,;:")


def shape_of(text: str, style: str) -> Optional[_Shape]:
    """The heading a line would be, by its shape alone (whether it really is one is decided later)."""
    if style == "floor":
        match = FLOOR_HEADING.match(text)
        if match:
            return _Shape("floor", match.group(1) + match.group(2), match.group(3).strip())
        return None
    match = SECTION_HEADING.match(text)
    if match:
        return _Shape("section", match.group(2), match.group(3).strip(), bool(match.group(1)))
    match = CHAPTER_HEADING.match(text)
    if match:
        return _Shape("chapter", match.group(2), match.group(3).strip(), bool(match.group(1)))
    match = APPENDIX_HEADING.match(text)
    if match:
        return _Shape("appendix", f"Appendix {match.group(2)}", match.group(4).strip(),
                      bool(match.group(1)), match.group(3) or "")
    return None


def numbering_style(texts: list[str]) -> str:
    """"floor" when "101. Title" headings outnumber "1.1 Title" ones, else "mtr"."""
    floor = sum(1 for text in texts if FLOOR_HEADING.match(text))
    mtr = sum(1 for text in texts if SECTION_HEADING.match(text))
    return "floor" if floor >= 3 and floor > mtr else "mtr"


def _tab_bullet(element: Element) -> bool:
    """A line indented by a tab and holding no other tab: a list item whose bullet was lost."""
    return element.indent.startswith("\t") and "\t" not in element.text


def order_key(shape: _Shape) -> tuple:
    """Sort key in document order: chapters and sections by number, appendices after them."""
    if shape.form == "appendix":
        return (1, shape.number)
    if shape.form == "floor":
        return (0, int(shape.number[:3]), shape.number[3:])
    return (0,) + tuple(int(part) for part in shape.number.split("."))


# --- the parser ----------------------------------------------------------------------------------

class _Parser(KindParser):
    lone_numbers_are_text = True     # a tiebreaker example's numbers

    def __init__(self, source: SourceText, info: DocumentInfo):
        super().__init__(source, info)
        self.stream = text_lines(source.stream, self.lone_numbers_are_text)
        texts = [element.text for element in self.stream]
        self.style = numbering_style(texts)
        self.shapes: list[Optional[_Shape]] = [shape_of(text, self.style) if text else None for text in texts]
        self.shape_of_text = dict(zip(texts, self.shapes))    # the contents finder asks by text, not by line
        self.width = self.wrapped_at(self.stream)
        self.contents = self._find_contents()
        self.skip = set(self.contents.skip)                    # and the lines a heading's title was taken from
        self.contents_by_number = self.contents.by_number()
        self.contents_subheadings = {normalise_title(entry.title): entry for entry in self.contents.unnumbered()}
        # Output being built.
        self.sections: list[SectionDraft] = []
        self.numbered: dict[str, SectionDraft] = {}
        self.numbered_current: Optional[SectionDraft] = None  # last numbered section (parent of subheadings)

    # --- contents list ---

    def _find_contents(self) -> Contents:
        """Dot-leader lines ("APPENDIX B" / "Time Limits ..... 47": one entry), and runs of heading lines whose
        numbers come back later (the HTML's list of links)."""
        found = Contents()
        leader_lines(self.stream, self._entry, found, lambda text: _bare_appendix(self._shape(text)))
        heading_runs(self.stream, self._entry, found, self._numbers_of_contents)
        found.entries.sort(key=lambda entry: entry.line)
        return found

    def _entry(self, text: str) -> tuple[str, str]:
        """What a contents line names: a heading's number and title, or a title alone."""
        shape = self._shape(text)
        return (shape.number, shape.title) if shape else ("", text)

    def _shape(self, text: str) -> Optional[_Shape]:
        """A line's shape, as worked out for the stream already (a leader entry's joined text anew)."""
        return self.shape_of_text[text] if text in self.shape_of_text else shape_of(text, self.style)

    def _numbers_of_contents(self, numbers: list[str]) -> bool:
        """A run of MTR-style numbers lists sections or appendices, not only "1.", "2." (a numbered list)."""
        inner = [number for number in numbers if "." in number or number.startswith("Appendix")]
        return self.style != "mtr" or len(inner) >= 2

    # --- main pass ---

    def line(self, index: int, element: Element) -> None:
        if not (self._heading(index) or self._subheading(index)):
            self._body_line(index)

    def _next_index(self, index: int) -> Optional[int]:
        """The next non-blank line that is not contents."""
        for following in range(index + 1, len(self.stream)):
            if following not in self.skip and self.stream[following].text:
                return following
        return None

    def _may_start_heading(self) -> bool:
        """Whether a heading may start here: not in the middle of a hard-wrapped passage.

        Only a full line wraps, so after a short or finished line (or in a source with one
        paragraph per line) a line starting "2.5 ..." can be a heading.
        """
        return (self.paragraph_may_end() or self.width is None
                or len(self.previous) < self.width * 0.6)

    # --- headings ---

    def _heading(self, index: int) -> bool:
        shape = self.shapes[index]
        if shape is None:
            return False
        element = self.stream[index]
        title_line = self._title_below(index)
        if title_line is not None:
            shape = replace(shape, title=self.stream[title_line].text)
        shape, note = self._without_note(shape)
        if not self._accepted(index, shape, isinstance(element, Heading)):
            return False
        if title_line is not None:
            self.skip.add(title_line)
        title = self._full_title(index if title_line is None else title_line, shape)
        self._open_section(shape, title, element.line)
        if note:
            self.start(Draft(PARAGRAPH, [note], element.line))
        return True

    def _accepted(self, index: int, shape: _Shape, hinted: bool) -> bool:
        if self.style == "floor":
            return _title_ok(shape.title, hinted)
        if shape.form == "chapter":
            return self._is_chapter(index, shape, hinted)
        if shape.form == "section":
            return self._is_section(shape, hinted)
        return self._is_appendix(shape, hinted)

    def _title_below(self, index: int) -> Optional[int]:
        """The line holding the title of an appendix heading that has none of its own ("APPENDIX D" / "Title")."""
        if not _bare_appendix(self.shapes[index]):
            return None
        following = self._next_index(index)
        if following is None or self.shapes[following]:
            return None
        text = self.stream[following].text
        entry = self.contents_by_number.get(self.shapes[index].number)
        if entry is not None:
            return following if same_title(entry.title, text) else None
        return following if _title_ok(text) and title_case(text) else None

    def _without_note(self, shape: _Shape) -> tuple[_Shape, str]:
        """A heading's shape without the note run into its line, and that note ("" for none): only where the
        contents list gives the title without it."""
        entry = self.contents_by_number.get(shape.number)
        split = _title_and_note(shape.title, entry.title) if entry else None
        if not split or not split[1]:
            return shape, ""
        return replace(shape, title=split[0]), split[1]

    def _strong(self, shape: _Shape, hinted: bool) -> bool:
        """A heading marked as one by the source itself or named by the contents list."""
        entry = self.contents_by_number.get(shape.number)
        return hinted or shape.prefixed or bool(entry and same_title(entry.title, shape.title))

    def _is_chapter(self, index: int, shape: _Shape, hinted: bool) -> bool:
        if not _title_ok(shape.title, hinted) or len(shape.title) > 80:
            return False
        if self._strong(shape, hinted):
            return True
        if shape.number in self.contents_by_number:
            return False          # the contents names another chapter by this number: a list item
        following = self._next_index(index)
        if following is None:
            return False
        next_shape = self.shapes[following]
        return (bool(next_shape) and next_shape.form == "section"
                and next_shape.number.split(".")[0] == shape.number
                and _title_ok(next_shape.title) and self._may_start_heading())

    def _is_section(self, shape: _Shape, hinted: bool) -> bool:
        if not _title_ok(shape.title, hinted or shape.prefixed):
            return False
        if self._strong(shape, hinted):
            return True
        return title_case(shape.title) and self._may_start_heading()

    def _is_appendix(self, shape: _Shape, hinted: bool) -> bool:
        if not _title_ok(shape.title, hinted or shape.prefixed) and shape.title:
            return False
        entry = self.contents_by_number.get(shape.number)
        if entry:
            return hinted or same_title(entry.title, shape.title)
        if hinted or shape.prefixed:
            return True
        if not self._may_start_heading() or not title_case(shape.title):
            return False
        if shape.separator in ("—", "–", "-"):
            return True
        # "Appendix E: ..." is also how change notes start: only the next appendix in turn.
        last = self.order.key
        expected = "A" if not last or last[0] == 0 else chr(ord(last[1][-1]) + 1)
        return shape.number[-1] == expected

    def _full_title(self, index: int, shape: _Shape) -> str:
        """A heading title wrapped onto the next line, when the contents list has it whole."""
        entry = self.contents_by_number.get(shape.number)
        title = shape.title
        if not entry or normalise_title(entry.title) == normalise_title(title):
            return title
        following = self._next_index(index)
        if following is None:
            return title
        longer = f"{title} {self.stream[following].text}"
        if normalise_title(longer) == normalise_title(entry.title):
            self.skip.add(following)
            return longer
        return title

    def _open_section(self, shape: _Shape, title: str, line: int) -> None:
        self.close()
        self.order.read(order_key(shape), shape.number, line)
        entry = self.contents_by_number.get(shape.number)
        if entry and normalise_title(entry.title) != normalise_title(title):
            self.problem(INFO, line, f"the contents list calls {shape.number} \"{entry.title}\" "
                                     f"but its heading says \"{title}\"")
        level, kind, parent = self._place(shape)
        draft = SectionDraft(self.ids.unique(section_id(self.info.id, shape.number), shape.number, line),
                      shape.number, title, level, kind, parent, line)
        self.sections.append(draft)
        self.numbered.setdefault(shape.number, draft)
        self.current = self.numbered_current = draft

    def _place(self, shape: _Shape) -> tuple[int, str, Optional[str]]:
        """Level, kind and parent id of a numbered heading."""
        if shape.form == "appendix":
            return 1, "appendix", None
        if shape.form == "chapter":
            return 1, "chapter", None
        if shape.form == "floor":
            number, letter = int(shape.number[:3]), shape.number[3:]
            if letter:
                parent = self.numbered.get(str(number))
                return 3, "subsection", parent.id if parent else None
            if number % 10 == 0:
                return 1, "chapter", None
            group = self.numbered.get(str(number - number % 10))
            return 2, "section", group.id if group else None
        parts = shape.number.split(".")
        parent_number = ".".join(parts[:-1])
        if parent_number not in self.numbered and len(parts) == 2:
            self._chapter_from_contents(parent_number)
        parent = self.numbered.get(parent_number)
        kind = "section" if len(parts) == 2 else "subsection"
        return len(parts), kind, parent.id if parent else None

    def _chapter_from_contents(self, number: str) -> None:
        """The HTML names chapters only in its contents list: the chapter Section comes from there."""
        entry = self.contents_by_number.get(number)
        if entry is None or not number.isdigit():
            return
        chapter = SectionDraft(self.ids.unique(section_id(self.info.id, number), number, entry.line),
                        number, entry.title, 1, "chapter", None, entry.line)
        self.sections.append(chapter)
        self.numbered[number] = chapter

    # --- unnumbered subheadings ---

    def _subheading(self, index: int) -> bool:
        element = self.stream[index]
        text = element.text
        if "\t" in text or isinstance(element, (ListItem, TableRow)) or BULLET_ITEM.match(text) \
                or self.stream[index].indent.startswith("\t"):
            return False
        known = (self.contents_subheadings and len(text) <= MAX_TITLE
                 and normalise_title(text) in self.contents_subheadings)
        if not (known or isinstance(element, Heading) or EXAMPLE_LABEL.match(text)
                or self._looks_like_subheading(index)):
            return False
        self.close()
        if self.style == "floor" and self.numbered_current is not None and not EXAMPLE_LABEL.match(text):
            self._open_subheading_section(text, element.line)
        else:
            self.add_block(Draft(SUBHEADING, [text], element.line))
        return True

    def _looks_like_subheading(self, index: int) -> bool:
        """A short title-like line after a finished passage, followed by a passage or a list."""
        text = self.stream[index].text
        if not (short_title(text) and text[0].isupper() and title_case(text)) or any(c.isdigit() for c in text):
            return False
        if not self.paragraph_may_end() and (not self._in_list() or self.goes_on_above(text)):
            return False           # in a passage, or the wrapped end of an item ("...Avatar: The Last" / "Airbender")
        following = index + 1
        while following < len(self.stream) and following in self.skip:
            following += 1
        if following >= len(self.stream) or not self.stream[following].text:
            return False           # a heading sits right on top of its text
        after = self.stream[following]
        if list_item(after):
            return True
        if isinstance(after, Heading) or "\t" in after.text or self.shapes[following]:
            return False
        long_line = 60 if self.width is None else int(self.width * 0.6)
        return len(after.text) >= long_line or (self.width is None and ends_sentence(after.text)
                                                 and len(after.text.split()) >= 4)

    def _open_subheading_section(self, title: str, line: int) -> None:
        parent = self.numbered_current
        draft = SectionDraft(self.ids.unique(subsection_id(parent.id, title), "", line), "", title,
                      parent.level + 1, "subheading", parent.id, line)
        self.sections.append(draft)
        self.current = draft

    # --- body text ---

    def _body_line(self, index: int) -> None:
        """A table row, an example, or running text."""
        element = self.stream[index]
        text = element.text
        finished_before = self.paragraph_may_end()
        cells = self._cells(index)
        if cells is not None:
            self.start(Draft(TABLE_ROW, [text], element.line, cells=cells))
        elif EXAMPLE_START.match(text.lstrip("*_")) and self.current is not None:
            self.start(Draft(PARAGRAPH, [text], element.line, example=True))
        else:
            self.running_text(element, finished_before)

    def _cells(self, index: int) -> Optional[tuple[str, ...]]:
        """The cells of a table row (a table's row, a line with tabs between its cells), or None."""
        element = self.stream[index]
        if isinstance(element, TableRow):
            return element.cells
        if "\t" in element.text and not _tab_bullet(element):
            return tuple(cell.strip() for cell in re.split(r"\t+", element.text))
        return None

    def item(self, element: Element, paragraph_may_end: bool) -> Optional[Draft]:
        """A list item (blocks.list_item), or a line indented by a tab whose bullet was lost."""
        item = super().item(element, paragraph_may_end)
        return item or (self.draft(BULLET, element.text, element.line, "•") if _tab_bullet(element) else None)

    def _in_list(self) -> bool:
        return self.open is not None and self.open.kind in (BULLET, NUMBERED)

    def add_block(self, draft: Draft) -> None:
        """A block, or an example of the section being read."""
        if draft.example and self.current is not None:
            self.current.examples.append(draft)
        else:
            super().add_block(draft)

    # --- the document ---

    def finish(self) -> Document:
        sections = [draft.section() for draft in self.sections]
        if not any(section.number for section in sections):
            self.problem(ERROR, None, "no numbered sections found: this is not a tournament rules document "
                                      "(expected headings like \"1.1 Tournament Types\" or \"101. Title\")")
        return self.document(sections, contents=tuple(self.contents.entries), end=text_end(self.stream))
