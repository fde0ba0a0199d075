"""Tell what a source is: its kind (cr, mtr, floor, ipg), title and edition date.

Detection reads the text the way a person would (the title, "Effective ..." lines,
the shape of the numbering); the manifest in sources/ overrides or adds what the
text cannot say. Nothing here parses sections.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Optional

from .model import ERROR, WARNING, Problem
from .reader import SourceText

MANIFEST_NAME = "manifest.toml"

TITLES = {
    "cr": "Comprehensive Rules",
    "mtr": "Magic Tournament Rules",
    "ipg": "Infraction Procedure Guide",
    "floor": "Magic Online DCI Floor Rules",
}

MONTHS = {name: number for number, names in enumerate([
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
    ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
    ("october", "oct"), ("november", "nov"), ("december", "dec")], start=1) for name in names}
MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
DATE_US = re.compile(rf"\b({MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s+(\d{{4}})\b", re.I)
DATE_EU = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({MONTH})\.?,?\s+(\d{{4}})\b", re.I)
DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")
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


@dataclass(frozen=True)
class ManifestEntry:
    kind: Optional[str] = None
    title: Optional[str] = None
    edition: Optional[str] = None
    excerpt: Optional[bool] = None
    id: Optional[str] = None
    note: str = ""
    ignore: bool = False
    archived: bool = False


def detect(source: SourceText) -> Detected:
    kind = detect_kind(source)
    edition, edition_line = detect_edition(source)
    if edition is None:
        edition = _date_in_name(source.name)
    return Detected(kind, TITLES.get(kind, "Unknown document"), edition, edition_line=edition_line)


TITLE_NAMES = [
    (re.compile(r"Floor Rules", re.I), "floor"),
    (re.compile(r"Infraction Procedure Guide|Penalty Guidelines", re.I), "ipg"),
    (re.compile(r"Comprehensive Rules", re.I), "cr"),
    (re.compile(r"Tournament Rules", re.I), "mtr"),
]
INFRACTION_HEADING = re.compile(r"^\s*(?:IPG\s+)?\d\.\d{1,2}\.?\s+(?:Game Play Error|Tournament Error|Unsporting Conduct)", re.I)


def detect_kind(source: SourceText) -> Optional[str]:
    """The kind a document names itself in its title lines, else the kind its numbering shows."""
    head = [line.text for line in source.lines[:40] if line.text.strip()][:12]
    if any(TITLE_NAMES[0][0].search(text) for text in head):
        return "floor"     # "DCI Floor Rules" is named in a sentence, under a generic heading
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


def parse_date(text: str) -> Optional[str]:
    for pattern, order in ((DATE_US, "mdy"), (DATE_EU, "dmy"), (DATE_ISO, "ymd")):
        match = pattern.search(text)
        if not match:
            continue
        parts = dict(zip(order, match.groups()))
        month = parts["m"]
        month_number = int(month) if month.isdigit() else MONTHS[month.lower().rstrip(".")]
        try:
            return date(int(parts["y"]), month_number, int(parts["d"])).isoformat()
        except ValueError:
            continue
    return None


def _date_in_name(name: str) -> Optional[str]:
    match = DATE_ISO.search(name)
    if not match:
        return None
    try:
        return date(*map(int, match.groups())).isoformat()
    except ValueError:
        return None


def load_manifest(directory: Path) -> tuple[dict[str, ManifestEntry], list[Problem]]:
    path = Path(directory) / MANIFEST_NAME
    if not path.exists():
        return {}, []
    try:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        line = getattr(error, "lineno", None)
        match = re.search(r"line (\d+)", str(error))
        return {}, [Problem(ERROR, MANIFEST_NAME, line or (int(match.group(1)) if match else None),
                            f"the manifest is not valid TOML: {error}")]
    entries: dict[str, ManifestEntry] = {}
    problems: list[Problem] = []
    known = set(ManifestEntry.__dataclass_fields__)
    for name, fields in data.items():
        if not isinstance(fields, dict):
            problems.append(Problem(ERROR, MANIFEST_NAME, None, f"entry {name!r} must be a table of fields"))
            continue
        unknown = set(fields) - known
        if unknown:
            problems.append(Problem(WARNING, MANIFEST_NAME, None,
                                    f"entry {name!r}: unknown field(s) {', '.join(sorted(unknown))}"))
        kind = fields.get("kind")
        if kind is not None and kind not in TITLES:
            problems.append(Problem(ERROR, MANIFEST_NAME, None,
                                    f"entry {name!r}: kind must be one of {', '.join(TITLES)}, not {kind!r}"))
            continue
        entries[name] = ManifestEntry(**{key: value for key, value in fields.items() if key in known})
    return entries, problems


def apply_manifest(found: Detected, entry: Optional[ManifestEntry]) -> Detected:
    if entry is None:
        return found
    kind = entry.kind or found.kind
    return Detected(
        kind=kind,
        title=entry.title or (TITLES.get(kind, found.title) if entry.kind else found.title),
        edition=entry.edition or found.edition,
        excerpt=bool(entry.excerpt) if entry.excerpt is not None else found.excerpt,
        id=entry.id,
        note=entry.note,
        edition_line=found.edition_line,
        archived=entry.archived,
    )
