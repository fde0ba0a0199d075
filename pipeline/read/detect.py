"""Tell what a source is: its kind (cr, mtr, floor, ipg), title and edition date.

Detection reads the text the way a person would (the title, "Effective ..." lines,
the shape of the numbering); the manifest in sources/ overrides or adds what the
text cannot say. Nothing here parses sections.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .dates import date_in_name, parse_date
from .source import SourceText

TITLES = {
    "cr": "Comprehensive Rules",
    "mtr": "Magic Tournament Rules",
    "ipg": "Infraction Procedure Guide",
    "floor": "Magic Online DCI Floor Rules",
    "jar": "Judging at Regular REL",
}

EFFECTIVE = re.compile(r"\b(effective|updated|as of)\b", re.I)

CR_RULE_LINE = re.compile(r"^\s*[1-9]\d{2}\.\d{1,3}[a-z]?\.?\s")
MTR_HEADING = re.compile(r"\b(Tournament Fundamentals|Tournament Mechanics|Tournament Rules|Floor Rules)\b", re.I)


@dataclass(frozen=True)
class Detected:
    kind: Optional[str]
    title: str
    edition: Optional[str]
    excerpt: bool = False
    id: Optional[str] = None
    note: str = ""
    edition_line: Optional[int] = None
    archived: bool = False


def detect(source: SourceText) -> Detected:
    kind = detect_kind(source)
    edition, edition_line = detect_edition(source)
    if edition is None:
        edition = date_in_name(source.name)
    return Detected(kind, TITLES.get(kind, "Unknown document"), edition, edition_line=edition_line)


TITLE_NAMES = [
    (re.compile(r"Floor Rules", re.I), "floor"),
    (re.compile(r"Judging at Regular", re.I), "jar"),
    (re.compile(r"Infraction Procedure Guide|Penalty Guidelines", re.I), "ipg"),
    (re.compile(r"Comprehensive Rules", re.I), "cr"),
    (re.compile(r"Tournament Rules", re.I), "mtr"),
]
INFRACTION_HEADING = re.compile(r"^\s*(?:IPG\s+)?\d\.\d{1,2}\.?\s+"
                                r"(?:Game Play Error|Tournament Error|Unsporting Conduct)", re.I)


def detect_kind(source: SourceText) -> Optional[str]:
    """The kind a document names itself in its title lines, else the kind its numbering shows."""
    head = [line.text for line in source.lines[:40] if line.text.strip()][:12]
    if any(TITLE_NAMES[0][0].search(text) for text in head):
        return "floor"     # "DCI Floor Rules" is named in a sentence, under a generic heading
    if any(TITLE_NAMES[1][0].search(text) for text in head[:4]):
        return "jar"       # the JAR names the IPG and the MTR near its top: its own title comes first
    title_lines = [text for text in head if len(text) < 90]
    for text in title_lines:
        for pattern, kind in TITLE_NAMES:
            if pattern.search(text):
                return kind
    lines = source.lines
    if sum(1 for line in lines if INFRACTION_HEADING.match(line.text)) >= 3:
        return "ipg"
    if sum(1 for line in lines if CR_RULE_LINE.match(line.text)) >= 20:
        return "cr"
    if any(MTR_HEADING.search(line.text) for line in lines[:400]):
        return "mtr"
    return None


def detect_edition(source: SourceText) -> tuple[Optional[str], Optional[int]]:
    """The effective date the document states near its top ("Effective September 23, 2024")."""
    fallback: tuple[Optional[str], Optional[int]] = (None, None)
    for line in source.lines[:120]:
        found = parse_date(line.text)
        if not found:
            continue
        if EFFECTIVE.search(line.text):
            return found, line.number
        if fallback[0] is None:
            fallback = (found, line.number)
    return fallback


