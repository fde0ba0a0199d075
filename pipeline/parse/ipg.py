"""Parse the Magic Infraction Procedure Guide (IPG) into a Document.

What it does, in one pass over the typed stream of a SourceText (pipeline.read.stream: headings, list
items, table rows, dot-leader contents lines and page numbers already told apart):
- skips page numbers and the contents list (dot-leader lines, or the run of entries after a
  "Contents" line: pipeline.parse.contents), recording its entries (Document.contents: a file that stops before them is
  reported after parsing, pipeline.parse.checks); the credits that close it (pipeline.parse.ending);
- finds the numbered headings ("1. GENERAL PHILOSOPHY", "2.1 Game Play Error - Missed Trigger",
  "IPG 2.1 ...") and the appendix headings ("APPENDIX A — PENALTY QUICK REFERENCE");
- for each infraction (2.1, 3.4, ..., and an older edition's 3.1-6.x under their own numbers) finds
  the penalty wherever the format puts it: at the end of the heading line (PDF text), in a one-cell
  table (bluewizard HTML), after a "Penalty" line (magicjudges HTML), on a line of its own, or at
  the end of a part's heading ("Definition Warning": an older PDF's penalty box beside it); and the
  parts Definition / Examples / Philosophy / Additional Remedy / Upgrade / Downgrade, whether
  headings or inline labels;
- reads Appendix A's rows and any second penalty a section gives as data (Document.penalty_evidence):
  whether they agree with the infractions, and Document.penalties, are settled after parsing
  (pipeline.parse.quick_reference);
- keeps Appendix B change notes ("3.5: ...") as text, never as references.

What it must not do: raise on odd content (it records Problems instead), drop text (every line
that is not a page number or part of a contents list ends up in a title, a block, an infraction
field, the front matter or the credits), or guess at rules it cannot see (a section the contents
list names but the file never reaches is reported, and the document is marked incomplete).
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import NamedTuple, Optional

from ..model import (
    ERROR,
    NUMBERED,
    PARAGRAPH,
    SUBHEADING,
    TABLE_ROW,
    WARNING,
    AppendixRow,
    Block,
    Document,
    DocumentInfo,
    Infraction,
    PenaltyEvidence,
    SecondPenalty,
    Section,
    section_id,
)
from ..read import SourceText
from ..read.stream import Element, Heading, ListItem, Paragraph, TableRow
from . import common
from .blocks import Draft, SectionDraft, list_item
from .contents import Contents, labelled_lists, leader_lines
from .ending import CREDIT_LINE, credits_start, text_end
from .kind_parser import KindParser, holds_no_text, same_title, short_title
from .penalties import (
    LEADING_PENALTY,
    PENALTY_LIST,
    TRAILING_PENALTY,
    TRAILING_PENALTY_ANY_CASE,
    WHOLE_PENALTY,
    name_key,
    normalise_penalty,
    penalties_agree,
    singular,
)

# --- Penalties (their names and forms: pipeline.parse.penalties) -------------------------------------

# pdftotext -layout: a box beside the text is a column after a run of spaces.
COLUMN_GAP = re.compile(r"\s{3,}")
# A text PDF puts a box's label on the line of the heading beside it, after one space.
BOX_LABEL = re.compile(r"^(?P<title>.*\S)\s+(?P<label>Penalty):?$", re.I)

# --- Headings -------------------------------------------------------------------------------

# "2.1. Title", "2.1 Title", "IPG 2.1 Title", "## 2.1 Title". Never "3.5: change note".
NUMBERED_HEADING = re.compile(r"^(?:IPG\s+)?(?P<number>\d{1,2}(?:\.\d{1,2}){0,2})\.?\s+(?P<title>\S.*)$")
APPENDIX_HEADING = re.compile(
    r"^(?:IPG\s+)?Appendix\s+(?P<letter>[A-Z])\b\.?\s*(?:[—–:-]\s*)?(?P<title>.*)$", re.I)
# "Game Play Error — Missed Trigger", "Game Play Error - Missed Trigger".
CATEGORY_DASH = re.compile(r"^(?P<category>[^—–]+?)\s*(?:[—–]|\s-\s)\s*(?P<name>\S.*)$")
KNOWN_CATEGORY = re.compile(
    r"^(?:(?:Game Play|Tournament|Procedural|Communication)\s+Errors?|Unsporting Conduct)$", re.I)
CATEGORY_HYPHEN = re.compile(r"^(?P<category>[^-]+?)-(?P<name>\S.*)$")
INFRACTION_CHAPTER = re.compile(r"error|conduct|infraction|cheating", re.I)

# --- Body -----------------------------------------------------------------------------------

# Parts of an infraction, as a line of their own ("Definition") or as a label ("Upgrade: ...").
PART_NAMES = {
    "definition": "definition", "definitions": "definition",
    "example": "examples", "examples": "examples",
    "philosophy": "philosophy",
    "additional remedy": "additional_remedy", "additional remedies": "additional_remedy",
    "remedy": "additional_remedy",
    "upgrade": "upgrade", "upgrades": "upgrade",
    "downgrade": "downgrade", "downgrades": "downgrade",
    "penalty": "penalty",
}
_PART = r"Definitions?|Examples?|Philosophy|Additional Remed(?:y|ies)|Remedy|Penalty"
PART_LINE = re.compile(rf"^(?P<part>{_PART}|Upgrades?|Downgrades?)\s*:?$", re.I)
# "Definition Warning": the penalty box printed beside a part's heading (older PDFs). Not after
# "Upgrade", whose penalty is the upgraded one.
PART_AND_PENALTY = re.compile(rf"^(?P<part>{_PART})\s*:?\s+(?P<penalty>{PENALTY_LIST})$", re.I)
PART_LABEL = re.compile(rf"^(?P<part>{_PART}|Upgrades?|Downgrades?)\s*:\s*(?P<rest>\S.*)$", re.I)
DATE_LINE = re.compile(
    r"^(?:January|February|March|April|May|June|July|August|September|October|November|December)"
    r"\s+\d{1,2}(?:st|nd|rd|th)?\s*,?\s+\d{4}:?$", re.I)
# "3.5: ...", "Appendix A: ..." in Appendix B: change notes, not references.
CHANGE_NOTE = re.compile(r"^(?P<subject>\d{1,2}(?:\.\d{1,2})*[a-z]?|Appendix\s+[A-Z])\s*:\s*(?P<text>.*)$", re.I)
TABLE_HEADER = re.compile(r"^Infraction\s+Penalty$", re.I)
SMALL_WORDS = {"a", "an", "and", "as", "at", "by", "for", "from", "in", "of", "on", "or", "the", "to", "with"}


def split_category(title: str) -> Optional[tuple[str, str]]:
    """"Game Play Error - Missed Trigger" -> ("Game Play Error", "Missed Trigger")."""
    match = CATEGORY_DASH.match(title)
    if match:
        return match.group("category").strip(), match.group("name").strip()
    match = CATEGORY_HYPHEN.match(title)
    if match and KNOWN_CATEGORY.match(match.group("category").strip()):
        return match.group("category").strip(), match.group("name").strip()
    return None


def smart_title(text: str) -> str:
    """"DEFINITION OF PENALTIES" -> "Definition of Penalties" (used when no contents entry says better)."""
    words = text.lower().split()
    return " ".join(word if i and word in SMALL_WORDS else word[:1].upper() + word[1:]
                    for i, word in enumerate(words))


def looks_like_title(text: str) -> bool:
    """Short, starts with a capital, does not end like a sentence (a colon may end an IPG title)."""
    return common.looks_like_title(text, 150, trailing=".,;")


def is_all_caps(text: str) -> bool:
    letters = [c for c in text if c.isalpha()]
    return len(letters) >= 2 and all(c.isupper() for c in letters)


def looks_like_subheading(text: str) -> bool:
    """A short line (short_title) of capitalised words ("Warning", "Game Loss", "FRAMEWORK OF THIS DOCUMENT")."""
    if not short_title(text):
        return False
    words = text.split()
    if is_all_caps(text):
        return len(words) >= 2 or len(text) >= 6
    return all(w[0].isupper() or w[0].isdigit() or (i and w.lower() in SMALL_WORDS) for i, w in enumerate(words))


# --- Builders ---------------------------------------------------------------------------------

@dataclass
class _Chunk(Draft):
    """A block being built, and the infraction part it belongs to."""
    part: str = ""            # "definition", "upgrade:2", ...


class _Name(NamedTuple):
    """Appendix A, one cell per line: an infraction's name waiting for its penalty on the next line."""
    name: str
    line: int
    group: str                       # the group line before it ("Game Play Errors")
    orphan: Optional[tuple]          # a lone penalty (penalty, line) just before it, if any


@dataclass
class _OpenSection(SectionDraft):
    """A section being read (its blocks are _Chunks: an infraction's parts), and what its heading said."""
    key: tuple = ()           # numeric sort key, () for appendices
    category: str = ""        # "Game Play Error — Missed Trigger": "Game Play Error", "Missed Trigger"
    name: str = ""
    beside: str = ""          # a box drawn beside the heading (pdftotext -layout): read after it
    candidate: bool = False   # may be an infraction (has a category dash, a penalty, or an infraction chapter)
    mode: str = ""            # "", "penalties" (Appendix A), "changes" (Appendix B)
    part: str = ""
    penalty: str = ""         # the heading's, as written, until the section gives one
    awaiting_penalty: Optional[int] = None   # line of a "Penalty" label whose value comes next
    repeats: dict[str, int] = field(default_factory=dict)   # how many upgrades, downgrades it has given
    group: str = ""           # Appendix A group line ("Game Play Errors")
    single: Optional[_Name] = None   # Appendix A: a one-cell line a penalty may follow
    orphan: Optional[tuple] = None   # Appendix A: a lone penalty (penalty, line) that no name came before
    rows: list[AppendixRow] = field(default_factory=list)   # Appendix A's


class _IpgParser(KindParser):
    sentence_ends_paragraph = True

    def __init__(self, source: SourceText, info: DocumentInfo):
        super().__init__(source, info)
        self.stream = source.stream
        self.listed = self.find_contents(credits_start(self.stream))
        self.skip = self.listed.skip
        self.contents = {number: entry.title for number, entry in self.listed.by_number().items()}
        self.sections: list[Section] = []
        self.section: Optional[_OpenSection] = None     # the section being read (also `current`)
        self.appendices_seen = False
        self.first_ids: dict[str, str] = {}         # number -> id of its first section: the headings read
        self.chapter_titles: dict[str, str] = {}
        self.appendix_rows: Optional[tuple[int, list]] = None   # (heading line, rows) of Appendix A
        self.second_penalties: list[SecondPenalty] = []

    # -- driver ------------------------------------------------------------------------------

    def sections_begun(self) -> bool:
        return self.section is not None

    def draft(self, kind: str, text: str, line: int, marker: str = "", **fields) -> _Chunk:
        """A block of the infraction part being read."""
        return _Chunk(kind, [text], line, marker, part=self.section.part if self.section else "", **fields)

    def line(self, index: int, element: Element) -> None:
        if isinstance(element, TableRow) and self.is_navigation_row(element.cells):
            return
        heading = self.heading(element)
        if heading:
            self.open_section(heading)
            if heading.beside:
                self.body_line(Paragraph(heading.beside, element.line, element.page))
        elif self.section is not None and CREDIT_LINE.match(element.text):
            self.start(_Chunk(PARAGRAPH, [element.text], element.line))   # a page's footer: alone
        else:
            self.body_line(element)

    # -- contents ----------------------------------------------------------------------------

    def find_contents(self, end: int) -> Contents:
        """Its dot-leader lines and the entries after its "Contents" label (before the credits)."""
        found = Contents()
        before_credits = self.stream[:end]
        leader_lines(before_credits, self.parse_entry, found)
        labelled_lists(before_credits, self.parse_entry, found, key=name_key, ignored=holds_no_text)
        found.entries.sort(key=lambda entry: entry.line)
        return found

    def parse_entry(self, text: str) -> Optional[tuple[str, str]]:
        """The (number, title) a contents entry names ("" for an unnumbered one), or None."""
        match = NUMBERED_HEADING.match(text)
        if match and looks_like_title(match.group("title")):
            return match.group("number"), match.group("title")
        match = APPENDIX_HEADING.match(text)
        if match and (not match.group("title") or looks_like_title(match.group("title"))):
            return f"Appendix {match.group('letter').upper()}", match.group("title")
        if looks_like_subheading(text) or (looks_like_title(text) and len(text.split()) <= 8):
            return "", text
        return None

    def is_navigation_row(self, cells: tuple[str, ...]) -> bool:
        """A table row listing subsections ("1.1. Definition of Penalties\t1.3. Randomizing a Deck")."""
        return bool(cells) and all(
            (m := NUMBERED_HEADING.match(cell)) and "." in m.group("number") and looks_like_title(m.group("title"))
            for cell in cells)

    # -- headings ----------------------------------------------------------------------------

    def heading(self, element: Element) -> Optional[_OpenSection]:
        if isinstance(element, (TableRow, ListItem)):
            return None
        marked = isinstance(element, Heading)
        match = NUMBERED_HEADING.match(element.text)
        if match:
            return self.numbered_heading(match.group("number"), match.group("title").strip(), marked, element.line)
        match = APPENDIX_HEADING.match(element.text)
        if match:
            return self.appendix_heading(match.group("letter").upper(), match.group("title").strip(),
                                         marked, element.line)
        return None

    def numbered_heading(self, number: str, raw_title: str, marked: bool, line: int) -> Optional[_OpenSection]:
        title, penalty, beside = self.title_penalty_beside(number, raw_title)
        if not looks_like_title(title):
            return None
        key = tuple(int(part) for part in number.split("."))
        if not self.accept_numbered(number, key, title, marked, bool(penalty)):
            if not self.renamed_in_contents(number, key, title):
                return None
            self.problem(WARNING, line, f"the contents list calls {number} {self.contents[number]!r}; "
                                        f"its heading says {title!r}")
        split = split_category(title)
        level = len(key)
        heading = _OpenSection("", number, self.display_title(number, title, split), level,
                               "chapter" if level == 1 else "section", None, line, key=key, penalty=penalty,
                               beside=beside)
        if split and level > 1:
            heading.category, heading.name = split
        return heading

    def title_penalty_beside(self, number: str, raw_title: str) -> tuple[str, str, str]:
        """A numbered heading's title, the penalty at its end ("" for none), and the text of a box beside it."""
        beside = ""
        columns = COLUMN_GAP.split(raw_title, maxsplit=1)
        if len(columns) == 2 and not WHOLE_PENALTY.match(columns[1]):
            raw_title, beside = columns          # "Tardiness        Penalty": the box's label beside it
        title, penalty = raw_title, ""
        trailing = (TRAILING_PENALTY_ANY_CASE if is_all_caps(raw_title) else TRAILING_PENALTY).match(raw_title)
        if trailing and self.may_be_infraction(number, trailing.group("title")):
            title, penalty = trailing.group("title"), trailing.group("penalty")
        label = BOX_LABEL.match(title)
        if label and not beside and self.may_be_infraction(number, label.group("title")):
            # "Game Play Error — Missed Trigger Penalty": the box's label beside the heading, its value below.
            title, beside = label.group("title"), "" if penalty else label.group("label")
        return title, penalty, beside

    def accept_numbered(self, number: str, key: tuple, title: str, marked: bool, penalty: bool) -> bool:
        """Heading or numbered list item? ("3. Players present their decks..." inside 2.3 is an item.)"""
        if marked:
            return True
        listed = self.contents.get(number)
        if listed is not None and same_title(listed, title):
            return True        # the contents list's own title (a repeat is reported as a duplicate)
        # Strongly heading-like: ALL CAPS, "Category — Name", or a penalty at the end.
        strong = is_all_caps(title) or bool(split_category(title)) or penalty
        if strong:
            return not self.appendices_seen or (listed is not None and number not in self.first_ids)
        if listed is not None or number in self.first_ids:
            return False       # the contents list calls this number something else
        return self.expected(key) and len(title.split()) <= 10

    def appendix_heading(self, letter: str, title: str, marked: bool, line: int) -> Optional[_OpenSection]:
        number = f"Appendix {letter}"
        if (title and not looks_like_title(title)) or (number in self.first_ids and not marked):
            return None        # "Appendix A: Mulligan Procedure Error added." is a change note
        if not title and number in self.contents:
            title = self.contents[number]
        shown = self.display_title(number, title, None) if title else ""
        return _OpenSection("", number, shown, 1, "appendix", None, line)

    def renamed_in_contents(self, number: str, key: tuple, title: str) -> bool:
        """A section the contents list names otherwise ("1.3 Randomizing a Deck" over "IPG 1.3 Randomizing a
        Library"): its heading still, when it is the next number and reads as a title, not a list item."""
        return (number in self.contents and number not in self.first_ids and len(key) > 1 and self.expected(key)
                and len(title.split()) <= 8 and not common.ends_sentence(title))

    def expected(self, key: tuple) -> bool:
        """The next number in sequence after the last heading (1 -> 1.1 -> 1.2 -> 2 -> 2.1 ...)."""
        last = self.order.key
        if not last:
            return key in ((1,), (1, 1))
        nexts = {last[:-1] + (last[-1] + 1,), last + (1,)}
        for depth in range(1, len(last)):
            upper = last[:depth]
            nexts.add(upper[:-1] + (upper[-1] + 1,))
            nexts.add(upper[:-1] + (upper[-1] + 1, 1))
        return key in nexts

    def display_title(self, number: str, title: str, split: Optional[tuple[str, str]]) -> str:
        if split:
            return f"{split[0]} — {split[1]}"
        listed = self.contents.get(number)
        if listed and name_key(listed) == name_key(title):
            return listed
        return smart_title(title) if is_all_caps(title) else title

    def chapter_title(self, number: str) -> str:
        return self.chapter_titles.get(number.split(".")[0], "")

    def may_be_infraction(self, number: str, title: str) -> bool:
        """A section ("2.1", not "2") titled "Category — Name" or inside a chapter of errors or conduct."""
        return "." in number and bool(split_category(title) or INFRACTION_CHAPTER.search(self.chapter_title(number)))

    # -- sections ----------------------------------------------------------------------------

    def open_section(self, heading: _OpenSection) -> None:
        self.close()
        number = heading.number
        first = number not in self.first_ids
        heading.id = self.ids.unique(section_id(self.info.id, number), number, heading.line)
        if not heading.key:
            self.appendices_seen = True
        elif first:
            self.order.read(heading.key, number, heading.line)
        if first:
            self.first_ids[number] = heading.id
            if heading.kind == "chapter":
                self.chapter_titles[number] = heading.title
        heading.parent = self.first_ids.get(".".join(number.split(".")[:-1])) if heading.level > 1 else None
        heading.candidate = heading.level > 1 and bool(
            heading.category or heading.penalty or INFRACTION_CHAPTER.search(self.chapter_title(number)))
        heading.mode = _appendix_mode(heading)
        self.section = self.current = heading

    def close(self) -> None:
        super().close()
        open_ = self.section
        if open_ is None:
            return
        self.section = self.current = None
        if open_.awaiting_penalty is not None:   # a "Penalty" label with nothing after it
            open_.blocks.append(_Chunk(SUBHEADING, ["Penalty"], open_.awaiting_penalty))
        examples = tuple(chunk.block().as_text() for chunk in open_.blocks if chunk.example)
        infraction = self.infraction(open_, examples) if open_.candidate else None
        self.sections.append(open_.section(examples, infraction=infraction,
                                           kind="infraction" if infraction else open_.kind))
        if open_.mode == "penalties":
            if open_.single is not None and open_.single.orphan is not None:
                self.pair_orphan(open_, open_.single)
            if self.appendix_rows is None or not self.appendix_rows[1]:   # the first quick reference with rows
                self.appendix_rows = (open_.line, open_.rows)

    def infraction(self, open_: _OpenSection, examples: tuple[str, ...]) -> Optional[Infraction]:
        if not (open_.category or open_.penalty):
            return None
        parts: dict[str, list[str]] = {}
        for chunk in open_.blocks:
            if chunk.part and chunk.kind != SUBHEADING:
                parts.setdefault(chunk.part, []).append(_part_text(chunk))
        text = {part: "\n\n".join(texts) for part, texts in parts.items()}
        return Infraction(
            category=open_.category or singular(self.chapter_title(open_.number)), name=open_.name or open_.title,
            penalty=normalise_penalty(open_.penalty), definition=text.get("definition", ""), examples=examples,
            philosophy=text.get("philosophy", ""), additional_remedy=text.get("additional_remedy", ""),
            upgrades=tuple(text[part] for part in text if part.startswith("upgrade:")),
            downgrades=tuple(text[part] for part in text if part.startswith("downgrade:")))

    # -- body --------------------------------------------------------------------------------

    def body_line(self, element: Element) -> None:
        open_ = self.section
        if open_ is None:
            self.plain_line(element)
            return
        if open_.awaiting_penalty is not None and self.penalty_value(open_, element):
            return
        if open_.mode == "penalties":
            self.penalty_row(open_, element)
        elif open_.mode == "changes":
            self.change_note(open_, element)
        else:
            self.section_line(open_, element)

    def penalty_value(self, open_: _OpenSection, element: Element) -> bool:
        """The line after a "Penalty" label: the penalty itself (True), or ordinary text (False)."""
        label_line = open_.awaiting_penalty
        open_.awaiting_penalty = None
        if self.part_and_penalty(open_, element) or self.penalty_beside_text(open_, element):
            return True
        value = element.text.replace("\t", " ").strip()
        if not PART_LINE.match(value) and (
                LEADING_PENALTY.match(value) or (len(value.split()) <= 6 and not common.ends_sentence(value))):
            self.set_penalty(open_, value, element.line)
            return True
        self.start(_Chunk(SUBHEADING, ["Penalty"], label_line))
        return False

    def penalty_beside_text(self, open_: _OpenSection, element: Element) -> bool:
        """pdftotext -layout puts the box's value on the row of the text beside it: the penalty, and the rest of the
        row a line of the section."""
        columns = [cell for cell in COLUMN_GAP.split(element.text) if cell]
        value = next((cell for cell in columns if WHOLE_PENALTY.match(cell)), None)
        if len(columns) < 2 or value is None:
            return False
        self.set_penalty(open_, value, element.line)
        rest = " ".join(cell for cell in columns if cell is not value)
        self.section_line(open_, Paragraph(rest, element.line, element.page))
        return True

    def set_penalty(self, open_: _OpenSection, value: str, line: int) -> None:
        """The infraction's penalty; a second, different one breaks the rule of one penalty per infraction."""
        if not open_.penalty:
            open_.penalty = value
        elif not penalties_agree(open_.penalty, value):
            # an error whatever Appendix A says (pipeline.parse.quick_reference keeps the one it agrees with)
            self.second_penalties.append(SecondPenalty(open_.number, value, line))

    def part_and_penalty(self, open_: _OpenSection, element: Element) -> bool:
        """"Definition Warning": the part begins under its own subheading, and the penalty is the infraction's
        (so does "Penalty<TAB>Warning", a table row in bluewizard HTML)."""
        match = PART_AND_PENALTY.match(element.text)
        if not match or isinstance(element, ListItem) or open_.level < 2:
            return False
        open_.candidate = True
        self.set_penalty(open_, match.group("penalty"), element.line)
        part = PART_NAMES[match.group("part").lower()]
        if part != "penalty":
            self.start_part(open_, part)
            self.start(_Chunk(SUBHEADING, [match.group("part")], element.line))
        return True

    def section_line(self, open_: _OpenSection, element: Element) -> None:
        """A line of a section: an infraction's part or penalty, where it is one; else a list item or text."""
        if not (self.part_line(open_, element) or self.part_and_penalty(open_, element)
                or self.part_label(open_, element) or self.lone_penalty(open_, element)):
            self.plain_line(element)

    def part_line(self, open_: _OpenSection, element: Element) -> bool:
        """"Definition", "Upgrade:": a part begins under its heading; "Penalty": the penalty follows."""
        match = PART_LINE.match(element.text)
        if not match or isinstance(element, ListItem) or (
                isinstance(element, TableRow) and match.group("part").lower() != "penalty"):
            return False
        part = PART_NAMES[match.group("part").lower()]
        if part == "penalty" and open_.candidate:
            open_.awaiting_penalty = element.line
            return True
        self.start_part(open_, part)
        self.start(_Chunk(SUBHEADING, [element.text], element.line))
        return True

    def part_label(self, open_: _OpenSection, element: Element) -> bool:
        """"Upgrade: ...", "Penalty: Warning": a part that begins with its label, or the penalty."""
        label = PART_LABEL.match(element.text)
        if not label:
            return False
        part = PART_NAMES[label.group("part").lower()]
        if part == "penalty" and open_.candidate:
            self.set_penalty(open_, label.group("rest"), element.line)
            return True
        self.start_part(open_, part)
        self.start(self.draft(PARAGRAPH, element.text, element.line, example=part == "examples"))
        return True

    def lone_penalty(self, open_: _OpenSection, element: Element) -> bool:
        """The penalty on a line of its own, before any text but headings."""
        if open_.candidate and not open_.penalty and WHOLE_PENALTY.match(element.text) \
                and all(chunk.kind == SUBHEADING for chunk in open_.blocks):
            self.set_penalty(open_, element.text, element.line)
            return True
        return False

    def start_part(self, open_: _OpenSection, part: str) -> None:
        """The part the next blocks belong to (the second upgrade a section gives is "upgrade:2")."""
        if part in ("upgrade", "downgrade"):
            open_.repeats[part] = open_.repeats.get(part, 0) + 1
            part = f"{part}:{open_.repeats[part]}"
        open_.part = part

    def plain_line(self, element: Element) -> None:
        """A body line that is not a heading or label: a list item, a table row, a subheading or paragraph text."""
        text, line = element.text, element.line
        ended = self.paragraph_may_end()
        item = self.item(element, ended)
        if item is not None:
            self.start(item)
        elif isinstance(element, TableRow):
            self.start(self.draft(TABLE_ROW, " ".join(element.cells), line, cells=element.cells))
        # A heading element, a short ALL-CAPS line, or (outside an infraction's parts, where a short
        # capitalised line is more likely text) a short line of capitalised words: "Warning", "Game Loss".
        elif isinstance(element, Heading) or (looks_like_subheading(text) and (
                is_all_caps(text) or (ended and not (self.section and self.section.part)))):
            if self.section is not None:
                self.section.part = ""
            self.start(_Chunk(SUBHEADING, [text], line))
        else:
            self.paragraph_line(element)

    def item(self, element: Element, paragraph_may_end: bool) -> Optional[_Chunk]:
        """A list item (blocks.list_item), or None; in an infraction's examples, a lettered one ("A. ...") or a
        list's element is one of its examples."""
        found = list_item(element, paragraph_may_end, self.open)
        if found is None:
            return None
        kind, marker, text = found
        if self.section is not None and self.section.part == "examples" and (
                marker[0].isupper() or isinstance(element, ListItem)):
            if kind == NUMBERED:
                return self.draft(NUMBERED, text, element.line, marker, example=True)
            return self.draft(PARAGRAPH, element.text, element.line, example=True)
        return self.draft(kind, text, element.line, marker)

    def goes_on(self, text: str, previous: str, above: Draft) -> bool:
        """Whether the line goes on with the paragraph or list item above (KindParser.goes_on); in an
        infraction's examples, so does an example broken across a page ("They realize the error...")."""
        return above.example or super().goes_on(text, previous, above)

    # -- appendices --------------------------------------------------------------------------

    def penalty_row(self, open_: _OpenSection, element: Element) -> None:
        """A line of the penalty quick reference: a row of its table (quick_reference_row), or a note under it."""
        cells = _row_cells(element)
        if not cells:
            return
        if self.quick_reference_row(open_, cells, element.line):
            self.start(_Chunk(TABLE_ROW, [" ".join(cells)], element.line, cells=cells))
        else:
            self.paragraph_line(element)

    def quick_reference_row(self, open_: _OpenSection, cells: tuple[str, ...], line: int) -> bool:
        """What a row of Appendix A says: an infraction and its penalty, the header, a penalty under its name
        (pdftotext's default mode), a name or a group line (one_cell); False for a note under the table."""
        single, open_.single = open_.single, None
        orphan, open_.orphan = open_.orphan, None
        lone_penalty = len(cells) == 1 and WHOLE_PENALTY.match(cells[0])
        if single is not None and single.orphan is not None and not lone_penalty:
            self.pair_orphan(open_, single)
        if len(cells) >= 2:
            if not (cells[0].lower() == "infraction" and cells[-1].lower() == "penalty"):
                open_.rows.append(AppendixRow(open_.group, cells[0], " / ".join(cells[1:]), line))
        elif lone_penalty and single is not None:
            open_.group = single.group
            open_.rows.append(AppendixRow(single.group, single.name, cells[0], single.line))
        elif lone_penalty:
            open_.orphan = (cells[0], line)
        else:
            return self.one_cell(open_, cells[0], line, orphan)
        return True

    def one_cell(self, open_: _OpenSection, cell: str, line: int, orphan: Optional[tuple]) -> bool:
        """An Appendix A line of one cell: an infraction's name its penalty may follow, or a group line ("Game
        Play Errors"); False for a note under the table."""
        if len(cell) <= 80 and not common.ends_sentence(cell) and not KNOWN_CATEGORY.match(cell):
            open_.single = _Name(cell, line, open_.group, orphan)
        group = looks_like_subheading(cell)
        if group:
            open_.group = cell
        return group or open_.single is not None

    def pair_orphan(self, open_: _OpenSection, single: _Name) -> None:
        """A penalty read just before a name that no penalty followed: the text put that row's cells out of
        order ("Warning*" / "Missed Trigger" / "Looking at Extra Cards" / "Warning"). Paired, and said so."""
        penalty, penalty_line = single.orphan
        open_.rows.append(AppendixRow(single.group, single.name, penalty, single.line))
        self.problem(WARNING, single.line, f"Appendix A: the penalty {penalty!r} (line {penalty_line}) comes just "
                                           f"before the infraction {single.name!r}, which has no penalty after it: "
                                           f"read as that infraction's penalty")

    def change_note(self, open_: _OpenSection, element: Element) -> None:
        """Appendix B: date lines and "3.5: ..." notes. The "3.5:" names what changed; it is no reference."""
        text, line = element.text, element.line
        if DATE_LINE.match(text) or isinstance(element, Heading):
            self.start(_Chunk(SUBHEADING, [text], line))
        elif note := CHANGE_NOTE.match(text):
            self.start(_Chunk(PARAGRAPH, [text], line, references_from=note.start("text")))
        elif self.goes_on_above(text):
            self.paragraph_line(element)        # a note goes on, whatever its next line looks like
        else:
            self.plain_line(element)

    # -- the document ------------------------------------------------------------------------

    def finish(self) -> Document:
        infractions = [s for s in self.sections if s.infraction]
        if not self.sections:
            self.problem(ERROR, 1, "no numbered sections found: this does not look like an Infraction Procedure Guide")
        elif not infractions:
            self.problem(ERROR, self.sections[0].line,
                         "no infraction sections (like \"2.1 Game Play Error — Missed Trigger\") found: "
                         "is this an Infraction Procedure Guide?")
        contents = tuple(self.listed.by_number().values())
        line, rows = self.appendix_rows or (None, ())
        evidence = PenaltyEvidence(line, tuple(rows), tuple(self.second_penalties))
        return self.document(self.sections, contents=contents, end=text_end(self.stream), penalty_evidence=evidence)


def _appendix_mode(heading: _OpenSection) -> str:
    """How an appendix's lines are read: "penalties" (Appendix A's quick reference), "changes" (Appendix B's
    notes), or "" as any section's."""
    if heading.kind != "appendix":
        return ""
    if re.search(r"penalt|quick\s+reference", heading.title, re.I):
        return "penalties"
    return "changes" if re.search(r"change|revision|history", heading.title, re.I) else ""


def _part_text(chunk: _Chunk) -> str:
    """A block's text for an Infraction field: an "Upgrade:" label is the field's name, not its text."""
    text = Block(chunk.kind, chunk.text, chunk.marker).as_text()
    if chunk.part.startswith(("upgrade:", "downgrade:")):
        text = re.sub(r"^(?:Upgrade|Downgrade)\s*:\s*", "", text, flags=re.I)
    return text


def _row_cells(element: Element) -> tuple[str, ...]:
    """The cells of an Appendix A line: a table's row's own, else split at tabs, "|", or runs of spaces, else
    before a trailing penalty; the header "Infraction Penalty" as two cells."""
    text = element.text
    if isinstance(element, TableRow):
        cells = element.cells
    elif "\t" in text or "|" in text:
        cells = tuple(cell.strip() for cell in re.split(r"\t|\|", text) if cell.strip())
    else:
        cells = tuple(cell.strip() for cell in re.split(r"\s{2,}", text) if cell.strip())
        trailing = TRAILING_PENALTY.match(text) if len(cells) == 1 else None
        if trailing:
            cells = (trailing.group("title"), trailing.group("penalty"))
    if len(cells) == 1 and TABLE_HEADER.match(cells[0]):
        cells = tuple(cells[0].split(None, 1))
    return cells


def parse_ipg(source: SourceText, info: DocumentInfo) -> Document:
    """Turn an Infraction Procedure Guide (text, PDF text or HTML) into a Document."""
    return _IpgParser(source, info).parse()
