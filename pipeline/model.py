"""The one data model every stage shares: documents, sections, references, problems.

Plain frozen dataclasses, and what makes many of them fast (or of any plain frozen dataclass, a read Line):
`fast_constructor`, and `without_cycle_collection` for a stage that makes tens of thousands. No parsing, no
I/O, no rendering here.
"""
from __future__ import annotations

import functools
import gc
import re
from dataclasses import MISSING, dataclass, field, fields, replace
from typing import Optional

# Severity of a Problem. Only "error" makes `rulekb check` exit non-zero.
ERROR = "error"
WARNING = "warning"
INFO = "info"

# Kinds of Block inside a section body.
PARAGRAPH = "paragraph"
BULLET = "bullet"          # an item of an unordered list ("• Standard")
NUMBERED = "numbered"      # an item of an ordered list ("1. Each player draws...")
SUBHEADING = "subheading"  # an unnumbered heading inside a section ("Definition")
TABLE_ROW = "row"          # one row of a (possibly flattened) table; cells in `cells`


def slug(text: str) -> str:
    """"Appendix A" -> "appendix-a"; "Two-Headed Giant" -> "two-headed-giant"."""
    return re.sub(r"[^a-z0-9.]+", "-", text.lower()).strip("-.") or "section"


def section_id(document_id: str, number: str) -> str:
    """"cr", "704.5k." -> "cr:704.5k"; "mtr", "Appendix A" -> "mtr:appendix-a"."""
    number = number.strip().rstrip(".")
    if re.fullmatch(r"[0-9][0-9A-Za-z.]*", number):
        return f"{document_id}:{number}"
    return f"{document_id}:{slug(number)}"


def subsection_id(parent_id: str, title: str) -> str:
    """Id of an unnumbered subheading: "floor:112a" + "Sideboarding" -> "floor:112a/sideboarding"."""
    return f"{parent_id}/{slug(title)}"


@dataclass(frozen=True)
class Problem:
    severity: str
    file: str
    line: Optional[int]
    message: str
    page: Optional[int] = None         # the page of a PDF source

    def __str__(self) -> str:
        where = f"{self.file}:{self.line}" if self.line else self.file
        if self.page:
            where += f" (page {self.page})"
        return f"{where}: {self.severity}: {self.message}"

    def as_json(self) -> dict:
        return {"severity": self.severity, "file": self.file, "line": self.line, "page": self.page,
                "message": self.message}


@dataclass(frozen=True)
class Reference:
    """A reference as the text writes it, and (after linking) what it points at.

    `number` is the single target number this reference names ("704.5k"); a phrase
    naming several ("rules 103.2 and 103.3", "603.7d–f") gives several References
    sharing the same `text`. `document` is the kind or id the text names ("mtr",
    "ipg", "cr") or None for the citing document itself. `target` is a section id
    or None until the link stage resolves it (and stays None if it cannot).
    """
    text: str
    number: str
    document: Optional[str] = None
    target: Optional[str] = None
    line: Optional[int] = None
    block: int = -1       # which text of the section holds it: its blocks, then its examples (-1: not said)
    start: int = -1       # where in that text the number is written (a range's numbers share one span)
    end: int = -1


@dataclass(frozen=True)
class Block:
    """One paragraph, list item, subheading or table row of a section body."""
    kind: str
    text: str
    marker: str = ""               # "•", "1.", "A." for list items
    cells: tuple[str, ...] = ()    # for table rows

    def as_text(self) -> str:
        return f"{self.marker} {self.text}" if self.marker else self.text


@dataclass(frozen=True)
class Infraction:
    """The parts of an IPG infraction section, as text (paragraphs joined by blank lines)."""
    category: str                  # "Game Play Error"
    name: str                      # "Missed Trigger"
    penalty: str                   # "No Penalty", "Warning", "Game Loss", ...
    definition: str = ""
    examples: tuple[str, ...] = ()
    philosophy: str = ""
    additional_remedy: str = ""
    upgrades: tuple[str, ...] = ()
    downgrades: tuple[str, ...] = ()


@dataclass(frozen=True)
class Section:
    """A numbered (or unnumbered sub-) section of a document.

    `number` is as the document writes it minus a trailing dot ("704.5k", "112a",
    "2.1", "Appendix A"); "" for an unnumbered subheading. `id` is
    "<document id>:<number>" (for unnumbered ones "<parent id>/<slug>").
    """
    id: str
    number: str
    title: str
    level: int                                 # 1 = chapter/top level
    blocks: tuple[Block, ...] = ()
    examples: tuple[str, ...] = ()
    parent: Optional[str] = None
    refs: tuple[Reference, ...] = ()
    line: Optional[int] = None
    infraction: Optional[Infraction] = None
    kind: str = "section"                      # chapter, section, rule, subrule, appendix, ...

    @property
    def text(self) -> str:
        return "\n\n".join(block.as_text() for block in self.blocks)


@dataclass(frozen=True)
class GlossaryEntry:
    term: str
    text: str
    refs: tuple[Reference, ...] = ()
    line: Optional[int] = None
    names: tuple[str, ...] = ()   # every name a term line gives ("Partner", "Partner with [name]")


@dataclass(frozen=True)
class Penalty:
    """One row of the penalty quick reference."""
    section: Optional[str]        # section id of the infraction, None if not found
    category: str
    infraction: str
    penalty: str


@dataclass(frozen=True)
class AppendixRow:
    """A row of an IPG's Appendix A (the penalty quick reference), as written."""
    group: str                    # the group line above it ("Game Play Errors")
    infraction: str               # "Missed Trigger"
    penalty: str                  # as written: "None", "Warning*"
    line: Optional[int] = None


@dataclass(frozen=True)
class SecondPenalty:
    """A second, different penalty an infraction's section gives (a penalty box a converter misplaced)."""
    number: str                   # the infraction's section number
    penalty: str
    line: Optional[int] = None


@dataclass(frozen=True)
class PenaltyEvidence:
    """What an IPG writes of its penalties besides each infraction's own: its Appendix A row by row, and any
    second penalty a section gives. The check after parsing weighs them against the infractions."""
    appendix_line: Optional[int] = None      # Appendix A's heading; None: the document has none
    rows: tuple[AppendixRow, ...] = ()
    second_penalties: tuple[SecondPenalty, ...] = ()


@dataclass(frozen=True)
class ContentsEntry:
    """One entry of a document's contents list: a heading its text promises to reach."""
    number: str                   # as its heading will be numbered ("2.1", "Appendix A"); "" for a named one
    title: str                    # as the list writes it ("" where only the number was kept)
    line: Optional[int] = None
    closing: bool = False         # a named part that closes the document (the CR's "Glossary"): like a
    #                               numbered entry, a text that never reaches it stops early


@dataclass(frozen=True)
class TextEnd:
    """Where a source's text stops: its last line with text, and whether that line stops mid-sentence."""
    line: Optional[int]           # None: the source has no text
    mid_sentence: bool = False


@dataclass(frozen=True)
class DocumentInfo:
    id: str                       # "cr", "mtr", "ipg", or "<kind>-<edition>" for older ones
    kind: str                     # "cr", "mtr", "ipg", "floor"
    title: str
    edition: Optional[str]        # ISO date "2026-01-16"
    source: str                   # file name inside sources/
    complete: bool = True
    excerpt: bool = False
    current: bool = True          # the edition a visitor lands on for this kind
    sha256: str = ""
    note: str = ""                # what the manifest says of it, shown on the site
    encoding: str = ""
    archived: bool = False        # a historical document kept for reference (the 2002 floor rules)
    upcoming: bool = False        # its effective date is after the build's date: a preview, not in force
    edition_line: Optional[int] = None   # the line its effective date is written on (None: from the file name)
    language: str = "en"          # what it is written in ("zh": a translation, paired with an English edition)
    language_says: str = ""       # how the language was told (its script, its words, the manifest)
    credit: str = ""              # who translated it (the manifest says)
    translates: Optional[str] = None     # a translation: the id of the English edition it pairs with

    @property
    def translation(self) -> bool:
        return self.language != "en"

    @property
    def preview(self) -> bool:
        """Published ahead of its effective date, beside the edition in force (not the one visitors land on)."""
        return self.upcoming and not self.current


@dataclass(frozen=True)
class Document:
    info: DocumentInfo
    sections: tuple[Section, ...] = ()
    glossary: tuple[GlossaryEntry, ...] = ()
    front_matter: tuple[Block, ...] = ()      # title block, introduction before the first section
    credits: tuple[Block, ...] = ()           # CR credits, trademark lines at the end
    penalties: tuple[Penalty, ...] = ()
    problems: tuple[Problem, ...] = ()
    contents: tuple[ContentsEntry, ...] = ()  # its contents list, as read: checked after parsing
    end: Optional[TextEnd] = None             # where its text stops (for a contents list never reached)
    penalty_evidence: Optional[PenaltyEvidence] = None   # an IPG's Appendix A and second penalties, as read

    @property
    def id(self) -> str:
        return self.info.id

    def section(self, number_or_id: str) -> Optional[Section]:
        wanted = number_or_id if ":" in number_or_id else section_id(self.id, number_or_id)
        for section in self.sections:
            if section.id == wanted:
                return section
        return None


@dataclass(frozen=True)
class Annotation:
    """A judge's note on one section, as its file says it, and where it lands in the current edition.

    `section` and `edition` are as written ("cr:702.19b", "2025-11-14"); `written_for` is that section's
    id in the edition it was written for ("cr-2025-11-14:702.19b", or "cr:702.19b" for the current one);
    `target` is the same rule in the current edition (renumberings and moves followed), None when it was
    removed since. `html` is the body rendered and sanitised, its references as `href="rulekb:<id>"`
    for the site to turn into its own links.
    """
    file: str                       # as problems name it: "annotations/trample.md"
    line: int                       # the line of `section:` in the front matter
    section: str
    edition: str
    authors: tuple[str, ...]
    date: str
    body: str                       # Markdown as written
    html: str
    refs: tuple[Reference, ...] = ()
    written_for: str = ""
    target: Optional[str] = None
    changed_since: bool = False     # the rule's words differ from those the note was written for
    body_line: int = 0              # the line the body starts on

    @property
    def kind(self) -> str:
        return self.section.partition(":")[0]

    @property
    def orphaned(self) -> bool:
        return self.target is None


@dataclass(frozen=True)
class Corpus:
    """A sources/ folder: the current edition of each document, linked (references resolved,
    backlinks known), and what is known of every edition, older ones included."""
    documents: tuple[Document, ...] = ()
    problems: tuple[Problem, ...] = ()          # problems found while reading or linking, older editions' too
    backlinks: dict = field(default_factory=dict)  # section id -> tuple of citing section ids
    editions: tuple[DocumentInfo, ...] = ()     # every document of the folder, current and older, in file order
    folder: Optional[str] = None                # where they are read from (older editions are read when needed)
    today: Optional[str] = None                 # the build's date (ISO): which editions are in force
    annotations: tuple[Annotation, ...] = ()    # the judges' notes, carried to the current editions
    notes_folder: Optional[str] = None          # the name their problems' files start with ("annotations")
    translations: tuple[DocumentInfo, ...] = ()  # the translations of the folder, each beside its English edition
    #                                              (never among `editions`: a translation is never the English)

    def document(self, doc_id: str) -> Optional[Document]:
        for document in self.documents:
            if document.id == doc_id:
                return document
        return None

    def upcoming(self, kind: str) -> list[DocumentInfo]:
        """The editions of a kind that take effect after the build's date, soonest first."""
        return sorted((info for info in self.editions if info.kind == kind and info.preview),
                      key=lambda info: (info.edition or "", info.source))

    def note_problems(self) -> list[Problem]:
        """The problems of the annotations folder's files."""
        prefix = f"{self.notes_folder}/"
        return [problem for problem in self.problems if self.notes_folder and problem.file.startswith(prefix)]

    def all_problems(self) -> tuple[Problem, ...]:
        found = list(self.problems)
        for document in self.documents:
            found.extend(document.problems)
        return tuple(found)


def fast_constructor(cls):
    """A constructor for a frozen dataclass that fills its fields directly: the same parameters
    (positional or by name, with the same defaults), the same object.

    The generated __init__ of a frozen dataclass sets each field through object.__setattr__, which
    was a third of the parse time of a 9,000-line CR (its sections, blocks and references) and half of
    splitting its text into lines. Like dataclasses itself, it is written as source and compiled once.
    Falls back to the class itself for a dataclass with __slots__, __post_init__, default factories or
    fields outside __init__.
    """
    every = fields(cls)
    if "__slots__" in cls.__dict__ or hasattr(cls, "__post_init__") or any(
            field.default_factory is not MISSING or not field.init or field.kw_only for field in every):
        return cls
    parameters = ", ".join(field.name if field.default is MISSING else f"{field.name}=_defaults[{field.name!r}]"
                           for field in every)
    state = ", ".join(f"{field.name!r}: {field.name}" for field in every)
    # The whole __dict__ at once: filled key by key it would not share its keys with the class's other
    # instances, and the interpreter's attribute cache would miss on every later read of a field.
    source = (f"def construct({parameters}):\n    instance = _new(_cls)\n"
              f"    _set(instance, '__dict__', {{{state}}})\n    return instance\n")
    scope = {"_new": object.__new__, "_set": object.__setattr__, "_cls": cls,
             "_defaults": {field.name: field.default for field in every if field.default is not MISSING}}
    exec(source, scope)     # the field names are the model's own identifiers
    construct = scope["construct"]
    construct.__qualname__ = construct.__name__ = f"new_{cls.__name__.lower()}"
    return construct


def without_cycle_collection(function):
    """`function` run with Python's cycle collector paused (and resumed after, if it was running).

    A parse or a link (or a source's lines, or its stream) makes tens of thousands of objects and no garbage
    cycles; the collector, run after every 700 new objects, would walk the growing heap again and again for
    nothing (a tenth of the time). Objects are still freed as soon as nothing refers to them.
    """
    @functools.wraps(function)
    def run(*args, **kwargs):
        if not gc.isenabled():
            return function(*args, **kwargs)
        gc.disable()
        try:
            return function(*args, **kwargs)
        finally:
            gc.enable()
    return run


__all__ = [
    "slug", "section_id", "subsection_id",
    "ERROR", "WARNING", "INFO", "PARAGRAPH", "BULLET", "NUMBERED", "SUBHEADING", "TABLE_ROW",
    "Problem", "Reference", "Block", "Infraction", "Section", "GlossaryEntry", "Penalty", "ContentsEntry", "TextEnd",
    "AppendixRow", "SecondPenalty", "PenaltyEvidence",
    "DocumentInfo", "Document", "Annotation", "Corpus", "replace", "fast_constructor",
    "without_cycle_collection",
]
