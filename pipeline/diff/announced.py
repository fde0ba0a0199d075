"""What a document's own change appendix announces, checked against what the comparison finds."""
from __future__ import annotations

import re
from typing import Optional

from ..model import WARNING, Document, Problem, Section, section_id
from ..read.dates import only_date
from .compare import EditionDiff, _ancestor_keys, _key

_CHANGE_APPENDIX = re.compile(r"changes?\s+(?:from|since|to)\s+(?:the\s+)?previous\s+versions?", re.I)
_ENTRY_LABEL = re.compile(
    r"(?:^|(?<=[.;!?)])\s+)(?:sections?\s+)?(\d{1,2}(?:\.\d{1,2})*[a-z]?|appendix\s+[A-Z])\s*[:\-–—]\s", re.I)
_SECTION_MENTION = re.compile(r"\bsections?\s+(\d{1,2}(?:\.\d{1,2})+[a-z]?|\d{1,2}(?=[\s,.;:)]))", re.I)


def _change_appendix(document: Document) -> list[Section]:
    """The section(s) of a document's own change appendix, with their descendants."""
    roots = [s for s in document.sections if _CHANGE_APPENDIX.search(s.title) and s.kind != "rule"]
    if not roots:
        return []
    wanted = {s.id for s in roots}
    found = []
    for section in document.sections:
        if section.id in wanted or (section.parent in wanted):
            wanted.add(section.id)
            found.append(section)
    return found


def _line_date(line: str) -> Optional[str]:
    """An ISO date when the line is a date heading ("September 23, 2024"), else None."""
    return only_date(line) if len(line) <= 40 else None


def _appendix_entries(document: Document) -> list[tuple[Optional[str], str, str]]:
    """(date heading or None, number as written, the entry's line) for every numbered entry."""
    entries = []
    current: Optional[str] = None
    for section in _change_appendix(document):
        lines = [section.title] if section.title and _line_date(section.title) else []
        for block in section.blocks:
            lines.extend(block.as_text().split("\n"))
        for line in lines:
            when = _line_date(line)
            if when:
                current = when
                continue
            numbers = [_normal_number(m.group(1)) for m in _ENTRY_LABEL.finditer(line)]
            numbers += [_normal_number(m.group(1)) for m in _SECTION_MENTION.finditer(line)]
            for number in dict.fromkeys(numbers):
                entries.append((current, number, line))
    return entries


def _normal_number(text: str) -> str:
    text = " ".join(text.split())
    if text.lower().startswith("appendix"):
        return "Appendix " + text.split()[-1].upper()
    return text


def announced_changes(document: Document, since: Optional[str] = None) -> set[str]:
    """The section numbers ("3.5", "Appendix D") the document's change appendix names.

    Appendices list changes under date headings, newest first. With `since` (an ISO
    date, the previous edition's) only entries dated after it count; without it only
    the newest date's entries do (the change from the edition just before). An
    appendix without dates gives every number it names.
    """
    entries = _appendix_entries(document)
    if not entries:
        return set()
    dates = [when for when, _, _ in entries if when]
    if not dates:
        return {number for _, number, _ in entries}
    if since:
        return {number for when, number, _ in entries if when and when > since}
    newest = max(dates)
    return {number for when, number, _ in entries if when == newest}


def check_announced(diff: EditionDiff, new_document: Document, since: Optional[str] = None) -> list[Problem]:
    """A WARNING for each section the change appendix announces but the comparison finds unchanged.

    A change anywhere inside an announced section (its subsections, its paragraphs)
    counts for it. `since` defaults to the old edition of the comparison.
    """
    announced = announced_changes(new_document, since or diff.old_edition)
    if not announced:
        return []
    by_id = {section.id: section for section in new_document.sections}
    touched: set[str] = set()
    for ident in list(diff.added) + [c.new_id for c in diff.changed] + [m.to_id for m in diff.moved]:
        section = by_id.get(ident)
        touched.update(_ancestor_keys(section, by_id) if section else [_key(ident)])
    for ident in list(diff.removed) + [c.old_id for c in diff.changed] + [m.from_id for m in diff.moved]:
        touched.add(_key(ident))
        # a removed subsection "3.5/example-e" or "3.5.1" counts for 3.5
        key = _key(ident)
        for cut in (key.rsplit("/", 1)[0], key.rsplit(".", 1)[0]):
            touched.add(cut)
    appendix = _change_appendix(new_document)
    line = appendix[0].line if appendix else None
    problems = []
    for number in sorted(announced, key=_number_order):
        key = _key(section_id(new_document.id, number))
        if key not in touched:
            where = "" if key in {_key(s) for s in new_document.sections} else " (no such section in this edition)"
            problems.append(Problem(WARNING, new_document.info.source, line,
                                    f"the change appendix names {number}{where}, but comparing with the "
                                    f"{diff.old_edition or diff.old} edition finds no change there"))
    return problems


def _number_order(number: str):
    return [(0, int(part), "") if part.isdigit() else (1, 0, part) for part in re.split(r"[.\s]", number)]


