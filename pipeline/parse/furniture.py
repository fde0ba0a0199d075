"""Recognise the page furniture of PDF-to-text output: page numbers, dot-leader contents lines.

Shared by every parser; knows nothing of any one document's numbering.
"""
from __future__ import annotations

import re

PAGE_NUMBER = re.compile(r"^\s*(?:page\s+)?\d{1,3}(?:\s+of\s+\d{1,3})?\s*$", re.I)
DOT_LEADER = re.compile(r"(?:\.\s?){4,}\s*\d{1,3}\s*$|…{2,}\s*\d{1,3}\s*$")


def is_page_number(text: str) -> bool:
    """A line holding only a page number ("12", "Page 3 of 40")."""
    return bool(PAGE_NUMBER.match(text))


def is_contents_line(text: str) -> bool:
    """A table-of-contents line ending in dot leaders and a page number."""
    return bool(DOT_LEADER.search(text))


def strip_dot_leader(text: str) -> str:
    return DOT_LEADER.sub("", text).rstrip(" .")
