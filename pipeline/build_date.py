"""The date a build is made on, which decides which edition of each document is in force.

Today (the machine's local date), or the day of `SOURCE_DATE_EPOCH` (seconds since 1970, in UTC) when
it is set: the reproducible-builds convention, so that a rebuild of the same sources on the same
stated day makes the same site, and tests can say which day it is.
"""
from __future__ import annotations

import os
from datetime import UTC, date, datetime
from typing import Optional

# An effective date further ahead than this is more likely a typo than an announced edition.
FAR_AHEAD_DAYS = 366


def build_date(environ: Optional[dict] = None) -> date:
    stated = (os.environ if environ is None else environ).get("SOURCE_DATE_EPOCH", "").strip()
    if stated:
        try:
            return datetime.fromtimestamp(int(stated), tz=UTC).date()
        except (ValueError, OverflowError, OSError):
            pass      # not a number of seconds: the convention says to ignore it, and so do we
    return date.today()


def in_force(edition: Optional[str], today: date) -> bool:
    """Whether an edition dated `edition` (ISO) has taken effect by `today`; an undated one has."""
    return not edition or edition <= today.isoformat()


def far_ahead(edition: Optional[str], today: date) -> bool:
    if not edition:
        return False
    try:
        return (date.fromisoformat(edition) - today).days > FAR_AHEAD_DAYS
    except ValueError:
        return False


def long_date(iso: str) -> str:
    """"2026-12-04" as people write it: "December 4, 2026"."""
    try:
        day = date.fromisoformat(iso)
    except (TypeError, ValueError):
        return iso or ""
    return f"{day:%B} {day.day}, {day.year}"
