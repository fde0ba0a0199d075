"""Tell what a source is: its kind (from the registry in pipeline.kinds), title and edition date.

Detection weighs the evidence of every kind the way a person reads a document: its title line,
what its opening sentences are about, what they mention, the shape of its numbering. A title
outweighs a sentence naming another document; evidence too close to choose is reported, with
what was seen, never settled by whichever kind was looked at first. The manifest in sources/
overrides or adds what the text cannot say. Nothing here parses sections.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from typing import Optional

from .. import kinds
from .dates import date_in_name, parse_date, valid_iso_date
from .language import read_language
from .source import SourceText

EFFECTIVE = re.compile(r"\b(effective|updated|as of)\b", re.I)

TITLE_WEIGHT = 10.0      # its name as a title line near the top ("MAGIC INFRACTION PROCEDURE GUIDE")
SUBJECT_WEIGHT = 10.0    # its name as the subject of an opening sentence ("The DCI Floor Rules work in ...")
MENTION_WEIGHT = 1.0     # its name inside a sentence near the top ("... use the Judging at Regular REL document")
LEAST = 3.0              # less evidence than this for every kind: not a rule document we know
DECISIVE = 1.5           # the best kind must outweigh the next by this factor, else the document is ambiguous
HEAD_LINES = 12          # the opening lines where titles and subjects are looked for
MENTION_LINES = 40
LANGUAGE_SAMPLE = 60_000    # characters of the text its language is read from (past the contents, into the rules)
TITLE_MAX_LENGTH = 90
# What may stand before a document's name in its own title or subject: "The Magic: The Gathering™ (“Magic”)".
BRAND = re.compile(r"^(?:the|magic|gathering|dci|mtg|wizards|of|coast|official|[\W\d_]|\(tm\)|\(r\))*$", re.I)
NUMBERED = re.compile(r"\d{1,3}[a-z]?\.?(?:\d{1,3}[a-z]?\.?)*\s")
SENTENCE_INSIDE = re.compile(r"(?:[a-z]{3}|\))[.!?]\s+[A-Z]")


@dataclass(frozen=True)
class Evidence:
    kind: str
    weight: float
    says: str                        # "title line 2: 'MAGIC INFRACTION PROCEDURE GUIDE'"


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
    evidence: tuple[Evidence, ...] = ()
    ambiguous: tuple[str, ...] = ()  # the kinds whose evidence was too close to choose (kind is then None)
    language: Optional[str] = "en"   # read from the text ("zh"), or None: a language the registry does not know
    language_says: str = ""          # the evidence for it
    credit: str = ""                 # who translated it (the manifest says)


def detect(source: SourceText) -> Detected:
    evidence = gather_evidence(source)
    kind, ambiguous = decide(evidence)
    language = read_language(_sample(source))
    edition, edition_line = detect_edition(source, language.language)
    if edition is None:
        edition = date_in_name(source.name)
    return Detected(kind, _title(kind, language.language), edition, edition_line=edition_line,
                    evidence=tuple(evidence), ambiguous=ambiguous, language=language.language,
                    language_says=language.says)


def _title(kind_id: Optional[str], language: Optional[str]) -> str:
    """The kind's title in the language of the text (its English title where the registry has none)."""
    found = kinds.kind(kind_id or "")
    lexicon = found.lexicon(language or "") if found else None
    return lexicon.title if lexicon else kinds.title(kind_id)


def _sample(source: SourceText) -> str:
    taken, size = [], 0
    for line in source.lines:
        taken.append(line.text)
        size += len(line.text)
        if size > LANGUAGE_SAMPLE:
            break
    return "\n".join(taken)


def decide(evidence: list[Evidence]) -> tuple[Optional[str], tuple[str, ...]]:
    """The kind the evidence points to, or None and the kinds it cannot choose between."""
    totals = weigh(evidence)
    ranked = sorted(totals, key=totals.get, reverse=True)
    if not ranked or totals[ranked[0]] < LEAST:
        return None, ()
    close = tuple(other for other in ranked[1:] if totals[other] * DECISIVE > totals[ranked[0]])
    return (None, (ranked[0], *close)) if close else (ranked[0], ())


def weigh(evidence: list[Evidence]) -> dict[str, float]:
    totals: dict[str, float] = {}
    for item in evidence:
        totals[item.kind] = totals.get(item.kind, 0.0) + item.weight
    return totals


def explain(found: Detected) -> str:
    """The evidence behind a detection, for a message: "ipg 18 (title line 2 ..., ...); jar 1 (...)"."""
    totals = weigh(list(found.evidence))
    if not totals:
        return "no title line, opening sentence or numbering of any known kind"
    parts = []
    for kind_id in sorted(totals, key=totals.get, reverse=True):
        says = "; ".join(item.says for item in found.evidence if item.kind == kind_id)
        parts.append(f"{kinds.short_name(kind_id)} {totals[kind_id]:g} ({says})")
    return ", ".join(parts)


def gather_evidence(source: SourceText) -> list[Evidence]:
    """What the text says of its kind: its title lines, the subject of its opening sentences, the
    documents its opening mentions, and the shape of its numbering."""
    evidence = _opening_evidence(source)
    texts = [line.text for line in source.lines]
    for kind in kinds.KINDS:
        for structure in kind.structure:
            count = sum(1 for text in texts if structure.shape.match(text))
            if count >= structure.least:
                evidence.append(Evidence(kind.id, structure.weight, f"{count} {structure.says}"))
    return evidence


def _opening_evidence(source: SourceText) -> list[Evidence]:
    """Each kind's strongest sign in the opening lines, once: a title line, else a subject, else a mention."""
    strongest: dict[str, Evidence] = {}
    opening = [line for line in source.lines[:MENTION_LINES] if line.text.strip()]
    for index, line in enumerate(opening):
        text = " ".join(line.text.split())
        first = True
        for start, kind in _names_in(text):
            quoted = _quoted(text)
            if index < HEAD_LINES and first and _is_title_line(text):
                found = Evidence(kind.id, TITLE_WEIGHT, f"title line {line.number}: {quoted}")
            elif index < HEAD_LINES and first and BRAND.match(text[:start]):
                found = Evidence(kind.id, SUBJECT_WEIGHT, f"line {line.number} is about it: {quoted}")
            else:
                found = Evidence(kind.id, MENTION_WEIGHT, f"mentioned at line {line.number}")
            if found.weight > strongest.get(kind.id, found).weight or kind.id not in strongest:
                strongest[kind.id] = found
            first = False
    return list(strongest.values())


def _names_in(text: str) -> list[tuple[int, kinds.Kind]]:
    """Where the text names a kind of document, in order (the longer name where two overlap)."""
    found = sorted(((match.start(), -len(match.group(0)), match.end(), kind) for kind in kinds.KINDS
                    for title_line in (kind.title_line, *(lexicon.title_line for lexicon in kind.translated))
                    for match in title_line.finditer(text)), key=lambda item: item[:2])
    names, reached = [], -1
    for start, _, end, kind in found:
        if start >= reached:
            names.append((start, kind))
            reached = end
    return names


def _is_title_line(text: str) -> bool:
    """Short, not numbered, not a sentence: "Magic: The Gathering Comprehensive Rules", not "... use the JAR."
    nor "100. General Magic Tournament Rules" (a section's heading)."""
    return len(text) <= TITLE_MAX_LENGTH and not text.endswith(".") and not SENTENCE_INSIDE.search(text) \
        and not NUMBERED.match(text)


def _quoted(text: str, limit: int = 60) -> str:
    return repr(text if len(text) <= limit else text[:limit - 1] + "…")


def detect_edition(source: SourceText, language: Optional[str] = "en") -> tuple[Optional[str], Optional[int]]:
    """The effective date the document states near its top ("Effective September 23, 2024"; in a
    translation, as its language writes dates: "2026年1月16日")."""
    found_language = kinds.language(language or "")
    if found_language is not None and found_language.dates:
        for line in source.lines[:120]:
            found = _date_in(line.text, found_language.dates)
            if found:
                return found, line.number
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




def _date_in(text: str, patterns: tuple) -> Optional[str]:
    """The first real date a language's patterns find in `text`, as an ISO date."""
    for pattern in patterns:
        for match in pattern.finditer(text):
            iso = f"{int(match['year']):04d}-{int(match['month']):02d}-{int(match['day']):02d}"
            if valid_iso_date(iso):
                return iso
    return None
