"""Parse Judging at Regular REL (JAR, kind "jar"): short, unnumbered, headed sections.

The document, as the magicjudges HTML and the PDF give it:
- a title ("Judging at Regular Rules Enforcement Level") and an "Effective ..." line: front matter,
  with the introduction that follows until the first heading;
- headed sections ("Common Issues", "General Unwanted Behaviors", "Serious Problems", ...): a
  heading is a line the source marks as one (HTML h1-h6, a larger PDF or CSS font, Markdown "#").
  Where the source marks none (plain text; an ebook converter's HTML of bare paragraphs), it is a
  short title-like line standing alone before a longer passage or a list: between spacers (the
  reader's "alone" hint), after a finished passage, or named as JAR sections are named (the kinds
  registry's evidence: "Serious Problems"); a bold one when the document sets its headings in bold and
  apart by nothing else;
- inside a section, the common errors and their fixes: a bold line (or a short title-like line
  ending without a full stop) followed by its fix, or a table row "error<TAB>fix". Each error is a
  subsection of kind "issue" whose blocks are the fix: the site's Regular REL quick reference is
  built from them;
- the trademark line at the end: credits.

Sections have no numbers: their ids are slugs of their titles ("jar:common-issues",
"jar:common-issues/a-player-forgets-a-triggered-ability"). It must not drop a line: what is no
heading is a block of front matter, a section or the credits.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from typing import Optional

from .. import kinds
from ..model import BULLET, ERROR, PARAGRAPH, TABLE_ROW, Block, Document, DocumentInfo, Problem, Section, slug
from ..read import Line, SourceText
from ..read.source import ALONE
from .common import (
    CREDIT_LINE,
    SectionIds,
    ends_paragraph,
    ends_sentence,
    glue,
    line_failed,
    looks_like_title,
    markdown_heading,
    rejoin_split_lines,
    title_case,
    wrap_width,
)
from .furniture import is_page_number
from .refs import find_references, may_hold_references

HEADING_HINTS = {"h1", "h2", "h3", "h4", "h5", "h6"}
BULLET_ITEM = re.compile(r"^([•◦▪‣●■·○*-])\s+(\S.*)$")
EFFECTIVE = re.compile(r"\b(?:effective|updated)\b", re.I)
TITLE_LINE = kinds.BY_ID["jar"].title_line
MAX_SLUG = 60
ISSUE_MAX = 200          # an error named in a bold line ("A player forgets a triggered ability (...)")
UNMARKED = ("", ALONE)   # hints of lines no markup sets apart as headings or bold
HEADING_MAX_CHARS = 60
HEADING_MAX_WORDS = 6


@dataclass
class _Open:
    id: str
    title: str
    level: int
    kind: str
    parent: Optional[str]
    line: int
    blocks: list[Block] = field(default_factory=list)
    block_lines: list[int] = field(default_factory=list)


class _JarParser:
    def __init__(self, source: SourceText, info: DocumentInfo):
        self.source = source
        self.info = info
        self.problems: list[Problem] = []
        self.ids = SectionIds(self.problems, info.source)
        self.front: list[Block] = []
        self.credits: list[Block] = []
        self.sections: list[_Open] = []
        self.section: Optional[_Open] = None     # the headed section being read
        self.section_hint = "h2"                  # the heading level that opened it
        self.current: Optional[_Open] = None     # where body text goes (the section or one of its issues)
        self.in_credits = False
        self.previous = ""                        # the last text line, "" after a blank one
        self.previous_heading = False             # the last text line opened a section or an issue
        self.html = source.format == "html"
        self.width = None if self.html else wrap_width([line.text.strip() for line in source.lines])
        self.headings_marked = any(line.hint in HEADING_HINTS and not TITLE_LINE.search(line.text)
                                   for line in source.lines)
        self.section_mark = "" if self.headings_marked else _section_mark(source.lines)

    def parse(self) -> Document:
        lines = [Line(line.number, line.text.strip(), line.hint, line.page)
                 for line in rejoin_split_lines(self.source.lines)]
        if not self.html:
            lines = _wrapped_headings(lines)
        for index, line in enumerate(lines):
            if not line.text:
                self.previous = ""
                continue
            sections = len(self.sections)
            try:
                self.line(line, next((after for after in lines[index + 1:index + 4] if after.text), None))
            except Exception as error:   # never raise on odd content: say where, keep the text
                line_failed(self.problems, self.info.source, line.number, error)
                self.add_block(Block(PARAGRAPH, line.text), line.number)
            self.previous = line.text
            self.previous_heading = len(self.sections) > sections
        return self.document()

    def line(self, line: Line, following: Optional[Line]) -> None:
        text, hint = line.text, line.hint
        marked = markdown_heading(text)
        if marked:
            text, hint = marked
        if is_page_number(text) and hint not in HEADING_HINTS:
            return
        if self.in_credits or (self.sections and CREDIT_LINE.match(text)):
            self.in_credits = True
            self.credits.append(Block(PARAGRAPH, text))
            return
        if self.plain_heading(text, hint, following):
            self.open_section(text, line.number, hint)
            return
        if self.section is not None and self.is_issue(text, hint, following):
            self.open_issue(text, line.number)
            return
        if hint in HEADING_HINTS and not TITLE_LINE.search(text):
            self.open_section(text, line.number, hint)
            return
        if self.section is not None and self.plain_issue(text, hint, following):
            self.open_issue(text, line.number)
            return
        if hint == "tr" and self.section is not None:
            self.table_row(text, line.number)
            return
        bullet = BULLET_ITEM.match(text)
        if hint == "li" or bullet:
            self.add_block(Block(BULLET, bullet.group(2) if bullet else text, "•"), line.number)
            return
        last = self.current.blocks[-1] if self.current is not None and self.current.blocks else None
        if last is not None and self.continues(last, text):
            # a sentence broken across lines (a <br>, a PDF or hard-wrapped line end) goes on
            self.current.blocks[-1] = replace(last, text=last.text + glue(last.text, text) + text)
        else:
            self.add_block(Block(PARAGRAPH, text), line.number)

    def continues(self, last: Block, text: str) -> bool:
        """Whether a line goes on with the paragraph or list item above it (no blank line between)."""
        if last.kind not in (PARAGRAPH, BULLET) or not self.previous or self.previous_heading:
            return False
        if last.kind == PARAGRAPH and text[0].islower() and not ends_sentence(last.text):
            return True
        if self.source.format == "pdf":
            return True                      # the PDF reader parts paragraphs with a blank line
        return not self.html and (not ends_sentence(self.previous)
                                  or not ends_paragraph(self.previous, text, self.width) and self.width is not None)

    def plain_heading(self, text: str, hint: str, following: Optional[Line]) -> bool:
        """Where the source marks no headings: a short title-like line standing alone before a longer passage or
        a list (see the module's docstring)."""
        if self.headings_marked or not _heading_like(text) or not _followed_by_body(text, following):
            return False
        if kinds.JAR_HEADING.match(text):               # named as JAR sections are
            return True
        if hint and hint == self.section_mark:          # set as this document sets its section headings
            return True
        after_a_passage = not self.previous or ends_sentence(self.previous)
        if hint not in UNMARKED or not after_a_passage:
            return False
        return not self.html or title_case(text)        # a paragraph per line: one a title, not a phrase

    def plain_issue(self, text: str, hint: str, following: Optional[Line]) -> bool:
        """In plain text (no bold to go by): an error named in a sentence-case line that ends without a full stop,
        standing at the start of a passage, with its fix right under it."""
        if hint not in UNMARKED or (self.html and self.headings_marked) or following is None \
                or not following.text or following.hint not in UNMARKED:
            return False
        if self.previous and not self.previous_heading and not ends_sentence(self.previous):
            return False
        words = text.split()
        if len(words) < 4 or len(text) > ISSUE_MAX or not text[0].isupper() or ends_sentence(text) \
                or text.endswith((",", ";")) or BULLET_ITEM.match(text) or BULLET_ITEM.match(following.text):
            return False
        if self.width is not None and len(text) + 1 + len(following.text.split()[0]) > self.width * 0.9:
            return False            # a full line: the start of a wrapped paragraph
        long_words = [word for word in words[1:] if len(word) > 3 and word[0].isalpha()]
        return sum(word[0].isupper() for word in long_words) * 2 < len(long_words)   # sentence case, not a title

    def is_issue(self, text: str, hint: str, following: Optional[Line]) -> bool:
        """An error named in bold, or under a heading of a smaller level than its section's, before its fix."""
        if following is None or following.hint in HEADING_HINTS or not following.text or len(text) > ISSUE_MAX:
            return False
        return hint == "b" or (hint in HEADING_HINTS and hint > self.section_hint)

    def open_section(self, title: str, line: int, hint: str) -> None:
        section_id = self.ids.unique(f"{self.info.id}:{slug(title)[:MAX_SLUG]}", title, line)
        self.section_hint = hint if hint in HEADING_HINTS else "h2"
        self.section = _Open(section_id, title, 1, "section", None, line)
        self.sections.append(self.section)
        self.current = self.section

    def open_issue(self, title: str, line: int) -> None:
        parent = self.section
        issue_id = self.ids.unique(f"{parent.id}/{slug(title)[:MAX_SLUG].strip('-.')}", title, line)
        self.current = _Open(issue_id, title, 2, "issue", parent.id, line)
        self.sections.append(self.current)

    def table_row(self, text: str, line: int) -> None:
        """"error<TAB>fix": an issue of its own; a header row ("Issue / Fix") or one cell stays a row."""
        cells = tuple(cell.strip() for cell in text.split("\t") if cell.strip())
        if len(cells) == 2 and not (len(cells[0]) < 20 and len(cells[1]) < 20):
            self.open_issue(cells[0], line)
            self.add_block(Block(PARAGRAPH, cells[1]), line)
            self.current = self.section
            return
        self.add_block(Block(TABLE_ROW, text, cells=cells), line)

    def add_block(self, block: Block, line: int) -> None:
        if self.current is None:
            self.front.append(block)
            return
        self.current.blocks.append(block)
        self.current.block_lines.append(line)

    def document(self) -> Document:
        sections = []
        for draft in self.sections:
            refs = []
            for index, (block, line) in enumerate(zip(draft.blocks, draft.block_lines)):
                if may_hold_references(block.text):
                    refs.extend(replace(ref, block=index) for ref in find_references(block.text, line))
            sections.append(Section(id=draft.id, number="", title=draft.title, level=draft.level,
                                    blocks=tuple(draft.blocks), parent=draft.parent, refs=tuple(refs),
                                    line=draft.line, kind=draft.kind))
        if not sections:
            self.problems.append(Problem(ERROR, self.info.source, None,
                                         "no headed sections found: this does not look like Judging at Regular REL"))
        return Document(info=self.info, sections=tuple(sections), front_matter=tuple(self.front),
                        credits=tuple(self.credits), problems=tuple(self.problems))


def _heading_like(text: str) -> bool:
    """Short and title-like, neither the document's title nor its date line."""
    return (looks_like_title(text, HEADING_MAX_CHARS, max_words=HEADING_MAX_WORDS)
            and not TITLE_LINE.search(text) and not EFFECTIVE.search(text))


def _followed_by_body(text: str, following: Optional[Line]) -> bool:
    """A heading sits on a longer passage, a list, or the error named first under it."""
    if following is None or following.hint in HEADING_HINTS:
        return False
    return len(following.text) > len(text) or following.hint == "li" or bool(BULLET_ITEM.match(following.text))


def _section_mark(lines) -> str:
    """In a source that marks no headings: the hint its section headings carry, if one does.

    Heading-like lines standing alone between spacers ("alone") mark the sections, bold lines then name
    the errors; without such lines, heading-like bold ones ("b") are the sections."""
    for mark in (ALONE, "b"):
        if any(line.hint == mark and _heading_like(line.text.strip()) and title_case(line.text) for line in lines):
            return mark
    return ""


def _wrapped_headings(lines: list[Line]) -> list[Line]:
    """A heading a PDF wraps onto two lines comes as two lines with the same hint: one heading again."""
    out: list[Line] = []
    for line in lines:
        before = out[-1] if out else None
        if before is not None and line.text and before.text and line.hint and line.hint == before.hint \
                and (line.hint in HEADING_HINTS or line.hint == "b") and not before.text.endswith((".", ":")):
            out[-1] = Line(before.number, before.text + glue(before.text, line.text) + line.text, before.hint,
                           before.page)
            continue
        out.append(line)
    return out


def parse_jar(source: SourceText, info: DocumentInfo) -> Document:
    """Turn a Judging at Regular REL document (HTML, text, PDF text) into a Document."""
    return _JarParser(source, info).parse()
