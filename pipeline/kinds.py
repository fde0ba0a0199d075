"""The kinds of rule document, declared once: what each is called, how it numbers its sections, which
parser reads it, where its pages start, and the evidence that tells it from the others.

Every stage asks this registry (detection, parsing, addresses, search, the site, the CLI and the
server); adding a kind is adding an entry here and a parser. Plain data: no parsing, no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional


@dataclass(frozen=True)
class Structure:
    """Evidence in the body of a document: at least `least` lines of this shape."""
    shape: re.Pattern
    least: int
    weight: float
    says: str                       # what the lines are, for a message ("rule lines like 100.1")


@dataclass(frozen=True)
class Kind:
    id: str                         # "cr": also the id of the current edition
    title: str                      # "Comprehensive Rules"
    short: str                      # "CR", as search results and page titles name it
    names: tuple[str, ...]          # what people and documents call it ("comp rules"), lowercase
    title_line: re.Pattern          # its name as its own title line writes it
    parser: str                     # the parser that reads it (pipeline.parse names them)
    page_level: int                 # the level whose sections get a page each: a CR section (704), an IPG
    #                                 infraction (2.1), an MTR chapter (4), a floor-rules group (110), a JAR section
    search_order: int               # where a bare number ("2.1") is looked for first: lower first
    number: re.Pattern              # one of its section numbers, whole
    structure: tuple[Structure, ...] = ()
    numbered_titles: bool = True    # page titles "2.1 Missed Trigger" rather than "704. State-Based Actions"
    mentions_by_title: bool = False  # names other documents' sections by their titles ("Tardiness")
    checks: tuple[str, ...] = ()    # invariants held after parsing, in this order (pipeline.parse.checks names
    #                                 them); a parser checks only its own numbering as it reads


CR_RULE_LINE = re.compile(r"^\s*[1-9]\d{2}\.\d{1,3}[a-z]?\.?\s")
INFRACTION_HEADING = re.compile(r"^\s*(?:IPG\s+)?\d\.\d{1,2}\.?\s+"
                                r"(?:Game Play Error|Tournament Error|Unsporting Conduct|Procedural Error)", re.I)
MTR_CHAPTER = re.compile(r"^\s*(?:MTR\s+)?[1-9]\.?\s+(?:Tournament Fundamentals|Tournament Mechanics|Tournament Rules"
                         r"|Communication|Tournament Violations|Limited Tournament Rules|Constructed Tournament Rules"
                         r"|Team Tournament Rules)\b", re.I)
FLOOR_HEADING = re.compile(r"^\s*1\d\d[a-z]?\.\s+[A-Z]")
JAR_HEADING = re.compile(r"^\s*(?:Common Issues|General Unwanted Behaviou?rs|Serious Problems|Communication"
                         r"|Game Play Errors)\s*$", re.I)

KINDS: tuple[Kind, ...] = (
    Kind("cr", "Comprehensive Rules", "CR", ("cr", "comprehensive rules", "comp rules"),
         re.compile(r"Comprehensive Rules", re.I), "cr", page_level=2, search_order=2,
         number=re.compile(r"[1-9](?:\d{2}(?:\.\d{1,3}[a-z]?)?)?"),
         structure=(Structure(CR_RULE_LINE, 20, 8.0, "rule lines like 100.1"),),
         numbered_titles=False, checks=("contents", "unique terms", "terms are names")),
    Kind("ipg", "Infraction Procedure Guide", "IPG", ("ipg", "infraction procedure guide"),
         re.compile(r"Infraction Procedure Guide|Penalty Guidelines", re.I), "ipg", page_level=2, search_order=0,
         number=re.compile(r"\d{1,2}(?:\.\d{1,2})?|appendix [a-z]", re.I),
         structure=(Structure(INFRACTION_HEADING, 3, 8.0, "infraction headings like 2.1 Game Play Error"),),
         checks=("contents", "penalties agree", "layout")),
    Kind("mtr", "Magic Tournament Rules", "MTR", ("mtr", "tournament rules", "magic tournament rules"),
         re.compile(r"(?<!Universal )Tournament Rules", re.I), "mtr", page_level=1, search_order=1,
         number=re.compile(r"\d{1,2}(?:\.\d{1,2})?|appendix [a-z]", re.I),
         structure=(Structure(MTR_CHAPTER, 2, 5.0, "chapters like 1. Tournament Fundamentals"),),
         checks=("contents", "layout")),
    Kind("jar", "Judging at Regular REL", "JAR", ("jar", "judging at regular rel"),
         re.compile(r"Judging at Regular", re.I), "jar", page_level=1, search_order=3,
         number=re.compile(r"(?!)"),                # its sections have titles, no numbers
         structure=(Structure(JAR_HEADING, 2, 3.0, "headings like Serious Problems"),),
         mentions_by_title=True),
    Kind("floor", "Magic Online DCI Floor Rules", "Floor Rules", ("floor", "floor rules"),
         re.compile(r"Floor Rules", re.I), "mtr", page_level=1, search_order=4,
         number=re.compile(r"1\d\d[a-z]?"),
         structure=(Structure(FLOOR_HEADING, 5, 6.0, "headings like 112a. Game Clock"),), numbered_titles=False,
         checks=("contents", "layout")),
)

BY_ID = {kind.id: kind for kind in KINDS}
IDS = tuple(kind.id for kind in KINDS)
IN_SEARCH_ORDER = tuple(kind.id for kind in sorted(KINDS, key=lambda kind: kind.search_order))


def kind(kind_id: str) -> Optional[Kind]:
    return BY_ID.get(kind_id)


def short_name(kind_id: str) -> str:
    found = BY_ID.get(kind_id)
    return found.short if found else kind_id.upper()


def title(kind_id: Optional[str]) -> str:
    found = BY_ID.get(kind_id or "")
    return found.title if found else "Unknown document"


def page_level(kind_id: str) -> int:
    found = BY_ID.get(kind_id)
    return found.page_level if found else 1


def order(kind_id: str) -> int:
    """Where a kind's documents come in lists (the CR first, then the IPG, the MTR, the JAR)."""
    return IDS.index(kind_id) if kind_id in BY_ID else len(IDS)


def names() -> dict[str, str]:
    """Every name a question or a text may use for a document, lowercase, and the kind it names."""
    return {name: kind.id for kind in KINDS for name in kind.names}
