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
- the trademark line at the end: credits (pipeline.parse.ending).

Sections have no numbers: their ids are slugs of their titles ("jar:common-issues",
"jar:common-issues/a-player-forgets-a-triggered-ability"). It must not drop a line: what is no
heading is a block of front matter, a section or the credits.
"""
from __future__ import annotations

import re
from typing import Optional

from .. import kinds
from ..model import ERROR, PARAGRAPH, TABLE_ROW, Document, DocumentInfo, slug
from ..read import SourceText
from ..read.stream import ALONE, BOLD, Blank, ContentsLine, Element, Heading, Paragraph, TableRow
from .blocks import Draft, SectionDraft, list_item
from .common import ends_paragraph, ends_sentence, title_case
from .kind_parser import KindParser, short_title

EFFECTIVE = re.compile(r"\b(?:effective|updated)\b", re.I)
SENTENCE_INSIDE = re.compile(r"[a-z][.!?]\s+[A-Z]")      # "… these behaviors. It can be …": a passage, no name
TITLE_LINE = kinds.BY_ID["jar"].title_line
MAX_SLUG = 60
ISSUE_MAX = 200          # an error named in a bold line ("A player forgets a triggered ability (...)")
SECTION_LEVEL = 2        # a section's heading level where no heading opened it


class _JarParser(KindParser):
    pdf_paragraphs_apart = True
    glued = True

    def __init__(self, source: SourceText, info: DocumentInfo):
        super().__init__(source, info)
        self.stream = source.stream
        self.sections: list[SectionDraft] = []
        self.section: Optional[SectionDraft] = None     # the headed section being read
        self.section_level = SECTION_LEVEL               # the heading level that opened it
        self.width = self.wrapped_at(self.stream)
        self.headings_marked = any(isinstance(element, Heading) and not TITLE_LINE.search(element.text)
                                   for element in self.stream)
        self.section_look = "" if self.headings_marked else _section_look(self.stream)

    def line(self, index: int, element: Element) -> None:
        """A heading, an issue's name or body text (not a contents entry); `previous` says what it was, whatever
        happens (a heading comes after a finished passage: plain_heading)."""
        following = next((after for after in self.stream[index + 1:index + 4] if not isinstance(after, Blank)), None)
        try:
            if not (isinstance(element, ContentsLine) or self.opens_section_or_issue(element, following)):
                self.body_line(element)
        finally:
            self.previous = element.text

    def opens_section_or_issue(self, element: Element, following: Optional[Element]) -> bool:
        """Whether `element` is a section's heading or names an issue (and opens it)."""
        text, heading = element.text, isinstance(element, Heading)
        issue = self.section is not None and self.is_issue(element, following)
        if self.plain_heading(element, following) or (heading and not issue and not TITLE_LINE.search(text)):
            self.open_section(text, element.line, element.level if heading else SECTION_LEVEL)
        elif issue or (self.section is not None and self.plain_issue(element, following)):
            self.open_issue(text, element.line)
        else:
            return False
        return True

    def body_line(self, element: Element) -> None:
        """A line of text: a table row, or running text (a list item, a paragraph or the next line of one)."""
        if isinstance(element, TableRow) and self.section is not None:
            self.table_row(element)
        else:
            self.running_text(element, self.paragraph_may_end())

    def plain_heading(self, element: Element, following: Optional[Element]) -> bool:
        """Where the source marks no headings: a short title-like line standing alone before a longer passage or
        a list (see the module's docstring)."""
        text = element.text
        if self.headings_marked or not _heading_like(text) or not _followed_by_body(text, following):
            return False
        if kinds.JAR_HEADING.match(text):               # named as JAR sections are
            return True
        if _look(element) and _look(element) == self.section_look:   # set as this document sets its sections
            return True
        after_a_passage = not self.previous or ends_sentence(self.previous)
        if not _unmarked(element) or not after_a_passage:
            return False
        return not self.html or title_case(text)        # a paragraph per line: one a title, not a phrase

    def plain_issue(self, element: Element, following: Optional[Element]) -> bool:
        """In plain text (no bold to go by): an error named in a sentence-case line that ends without a full stop,
        standing at the start of a passage, with its fix right under it."""
        text = element.text
        if not _unmarked(element) or (self.html and self.headings_marked) or following is None \
                or not _unmarked(following):
            return False
        if not self.paragraph_may_end():
            return False
        words = text.split()
        if len(words) < 4 or len(text) > ISSUE_MAX or not text[0].isupper() or ends_sentence(text) \
                or text.endswith((",", ";")) or list_item(element) or list_item(following) \
                or SENTENCE_INSIDE.search(text):
            return False
        if self.width is not None and not ends_paragraph(text, following.text, self.width):
            return False            # a full line: the start of a wrapped paragraph
        return not title_case(" ".join(words[1:]))      # in sentence case (its first word aside), not a title

    def is_issue(self, element: Element, following: Optional[Element]) -> bool:
        """An error named in bold, or under a heading of a smaller level than its section's, before its fix."""
        if following is None or isinstance(following, Heading) or len(element.text) > ISSUE_MAX:
            return False
        return _look(element) == BOLD or (isinstance(element, Heading) and element.level > self.section_level)

    def open_section(self, title: str, line: int, level: int) -> None:
        section_id = self.ids.unique(f"{self.info.id}:{slug(title)[:MAX_SLUG]}", title, line)
        self.section_level = level
        self.section = SectionDraft(section_id, "", title, 1, "section", None, line)
        self.sections.append(self.section)
        self.current = self.section
        self.close()

    def open_issue(self, title: str, line: int) -> None:
        parent = self.section
        issue_id = self.ids.unique(f"{parent.id}/{slug(title)[:MAX_SLUG].strip('-.')}", title, line)
        self.current = SectionDraft(issue_id, "", title, 2, "issue", parent.id, line)
        self.sections.append(self.current)
        self.close()

    def table_row(self, row: TableRow) -> None:
        """"error<TAB>fix": an issue of its own; a header row ("Issue / Fix") or one cell stays a row."""
        cells = row.cells
        if len(cells) == 2 and not (len(cells[0]) < 20 and len(cells[1]) < 20):
            self.open_issue(cells[0], row.line)
            self.add_block(self.draft(PARAGRAPH, cells[1], row.line))
            self.current = self.section
            return
        self.start(Draft(TABLE_ROW, [row.text], row.line, cells=cells))

    def finish(self) -> Document:
        if not self.sections:
            self.problem(ERROR, None, "no headed sections found: this does not look like Judging at Regular REL")
        return self.document(draft.section() for draft in self.sections)


def _look(element: Element) -> str:
    """How a paragraph line is set apart: "bold", "alone" (between a converter's spacers) or ""."""
    return element.look if isinstance(element, Paragraph) else ""


def _unmarked(element: Element) -> bool:
    """A line no markup sets apart as a heading, a list, a table or bold (it may stand between spacers)."""
    return isinstance(element, Paragraph) and element.look != BOLD


def _heading_like(text: str) -> bool:
    """Short and title-like (short_title), neither the document's title nor its date line."""
    return short_title(text) and not TITLE_LINE.search(text) and not EFFECTIVE.search(text)


def _followed_by_body(text: str, following: Optional[Element]) -> bool:
    """A heading sits on a longer passage, a list, or the error named first under it."""
    if following is None or isinstance(following, Heading):
        return False
    return len(following.text) > len(text) or list_item(following) is not None


def _section_look(stream: list[Element]) -> str:
    """In a source that marks no headings: how its section headings are set, if they are set apart.

    Heading-like lines standing alone between spacers ("alone") mark the sections, bold lines then name
    the errors; without such lines, heading-like bold ones are the sections."""
    for look in (ALONE, BOLD):
        if any(_look(element) == look and _heading_like(element.text) and title_case(element.text)
               for element in stream):
            return look
    return ""


def parse_jar(source: SourceText, info: DocumentInfo) -> Document:
    """Turn a Judging at Regular REL document (HTML, text, PDF text) into a Document."""
    return _JarParser(source, info).parse()
