"""Dates as the documents write them ("September 23, 2024", "23 September 2024", "2024-09-23")."""
from __future__ import annotations

import re
from datetime import date
from typing import Optional

MONTHS = {name: number for number, names in enumerate([
    ("january", "jan"), ("february", "feb"), ("march", "mar"), ("april", "apr"), ("may",),
    ("june", "jun"), ("july", "jul"), ("august", "aug"), ("september", "sep", "sept"),
    ("october", "oct"), ("november", "nov"), ("december", "dec")], start=1) for name in names}
MONTH = "|".join(sorted(MONTHS, key=len, reverse=True))
DATE_US = re.compile(rf"\b({MONTH})\.?\s+(\d{{1,2}})(?:st|nd|rd|th)?\s*,?\s+(\d{{4}})\b", re.I)
DATE_EU = re.compile(rf"\b(\d{{1,2}})(?:st|nd|rd|th)?\s+({MONTH})\.?,?\s+(\d{{4}})\b", re.I)
DATE_ISO = re.compile(r"\b(\d{4})-(\d{2})-(\d{2})\b")


def find_date(text: str) -> Optional[tuple[str, int, int]]:
    """The first real date written in `text`: (ISO date, start, end), or None."""
    for pattern, order in ((DATE_US, "mdy"), (DATE_EU, "dmy"), (DATE_ISO, "ymd")):
        for match in pattern.finditer(text):
            parts = dict(zip(order, match.groups()))
            month = parts["m"]
            month_number = int(month) if month.isdigit() else MONTHS[month.lower().rstrip(".")]
            try:
                return date(int(parts["y"]), month_number, int(parts["d"])).isoformat(), match.start(), match.end()
            except ValueError:
                continue
    return None


def parse_date(text: str) -> Optional[str]:
    """The first real date written in `text`, as an ISO date ("September 23, 2024" -> "2024-09-23")."""
    found = find_date(text)
    return found[0] if found else None


def only_date(text: str) -> Optional[str]:
    """The ISO date when `text` is a date and nothing else ("September 23, 2024:" as a heading)."""
    text = text.strip().rstrip(":").strip()
    found = find_date(text)
    return found[0] if found and found[1] == 0 and found[2] == len(text) else None


def date_in_name(name: str) -> Optional[str]:
    match = DATE_ISO.search(name)
    if not match:
        return None
    try:
        return date(*map(int, match.groups())).isoformat()
    except ValueError:
        return None


def valid_iso_date(text: str) -> bool:
    """"2024-09-23" is; "2024-13-45", "2024-9-23" and "yesterday" are not."""
    match = re.fullmatch(r"(\d{4})-(\d{2})-(\d{2})", text)
    if not match:
        return False
    try:
        date(*map(int, match.groups()))
    except ValueError:
        return False
    return True
