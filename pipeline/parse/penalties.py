"""The penalties an Infraction Procedure Guide gives, as data: their names, the ways a text writes them, and
when two of them agree; and how infraction names compare across formats.

Shared by the IPG parser (which finds a penalty wherever a format puts it) and the check after parsing that
an IPG's infractions and its Appendix A agree (pipeline.parse.quick_reference). Plain data and text: no parsing.
"""
from __future__ import annotations

import re

# The penalties an IPG gives; "Caution" is the older editions' lightest one.
PENALTY_NAMES = ("No Penalty", "Caution", "Warning", "Game Loss", "Match Loss", "Disqualification")
_CANONICAL = {name.casefold(): name for name in PENALTY_NAMES}
_CANONICAL["none"] = "No Penalty"          # Appendix A and the magicjudges box say "None"
PENALTY = rf"(?:{'|'.join(PENALTY_NAMES)}|None)[*†‡]?"   # "Warning*": a footnote
PENALTY_LIST = rf"{PENALTY}(?:\s*(?:/|,|\bor\b)\s*{PENALTY})*"
# A known penalty, maybe qualified: "Warning*", "Warning / Game Loss", "Warning with potential upgrade",
# "Warning (Competitive), Game Loss (Professional)". Not "Definition Warning" (a label run into it).
KNOWN_PENALTY = re.compile(rf"^{PENALTY}(?:\s*(?:{PENALTY}|\([^()]*\)|[a-z][\w'’-]*|[/,;+&]))*$")
# "2.1. Game Play Error — Missed Trigger No Penalty": the penalty after one space (or a column gap).
TRAILING_PENALTY = re.compile(rf"^(?P<title>.*?\S)\s+(?P<penalty>{PENALTY_LIST})$")
TRAILING_PENALTY_ANY_CASE = re.compile(TRAILING_PENALTY.pattern, re.I)
LEADING_PENALTY = re.compile(rf"^{PENALTY}\b", re.I)
ANY_PENALTY = re.compile(PENALTY, re.I)
WHOLE_PENALTY = re.compile(rf"^{PENALTY_LIST}$", re.I)
PENALTY_SPLIT = re.compile(r"\s*(?:/|,|\bor\b)\s*", re.I)
FOOTNOTE_MARK = re.compile(r"[*†‡]+$")
DASHES = re.compile(r"\s*[—–]\s*|\s+-\s+")
SPACES = re.compile(r"\s+")


def normalise_penalty(text: str) -> str:
    """"None" -> "No Penalty", "warning" -> "Warning"; anything else is kept as written."""
    text = SPACES.sub(" ", text).strip(" .")
    mark = FOOTNOTE_MARK.search(text)
    if mark and mark.start():
        return normalise_penalty(text[:mark.start()]) + mark.group()
    canonical = _CANONICAL.get(text.casefold())
    if canonical:
        return canonical
    parts = PENALTY_SPLIT.split(text)
    if len(parts) > 1 and all(part.casefold() in _CANONICAL for part in parts):
        return " / ".join(_CANONICAL[part.casefold()] for part in parts)
    return text


def _penalty_core(text: str) -> str:
    """The penalty without a trailing qualifier or footnote mark: "Warning with potential upgrade" -> "Warning"."""
    text = FOOTNOTE_MARK.sub("", normalise_penalty(text))
    match = LEADING_PENALTY.match(text)
    if match and not ANY_PENALTY.search(text, match.end()):
        return normalise_penalty(match.group(0))
    return text


def penalties_agree(a: str, b: str) -> bool:
    return normalise_penalty(a) == normalise_penalty(b) or _penalty_core(a) == _penalty_core(b)


def is_known_penalty(text: str) -> bool:
    """One of PENALTY_NAMES (or "None"), maybe qualified: "Warning*", "Warning / Game Loss", "Warning with
    potential upgrade". Not "", not "Definition Warning"."""
    return bool(KNOWN_PENALTY.match(normalise_penalty(text)))


def contradicts(garbled: str, listed: str) -> bool:
    """Does an unreadable penalty still name a known penalty other than `listed` ("Definition Game Loss"
    against "Warning")? Then the two disagree, and neither is taken."""
    named = {normalise_penalty(found) for found in ANY_PENALTY.findall(garbled)}
    return bool(named) and not any(penalties_agree(found, listed) for found in named)


def name_key(text: str) -> str:
    """Compare infraction names across formats: case, dashes and spacing do not count."""
    return SPACES.sub(" ", DASHES.sub(" - ", text.casefold())).strip(" .:")


def singular(title: str) -> str:
    """"Game Play Errors" -> "Game Play Error" (the category word an infraction heading uses)."""
    return title[:-1] if title.endswith("Errors") else title
