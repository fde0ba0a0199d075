"""What is layout, not wording, in a difference between two texts of a rule.

Spacing (spaces, line and paragraph breaks) is layout; so is a word that a conversion of the
source to text joined or split at a line end: "previouslyunknown", "previously- unknown" and
"previously-unknown" are one word written three ways (a PDF-to-text tool drops or keeps a
line-end hyphen, with or without the line's break). Two texts with the same `layout_key` say
the same words: a change between them is "layout only", shown as such and never counted as a
change of wording. A deliberate respelling ("pre-game" -> "pregame") cannot be told from a
line-end join by the texts alone, and is layout only too.
"""
from __future__ import annotations

import re

_SPACING = re.compile(r"\s+")
# A hyphen inside a word, or at its line's end before the word goes on ("previously- unknown"); not a dash
# between spaced words ("A - B").
_JOINING_HYPHEN = re.compile(r"(?<=\w)[-\u00ad\u2010]\s*(?=\w)")


def layout_key(text: str) -> str:
    """The text without its layout: no spacing, no hyphen inside a word."""
    return _SPACING.sub("", _JOINING_HYPHEN.sub("", text))


def layout_only(old_text: str, new_text: str) -> bool:
    """Whether two different texts differ in layout alone."""
    return old_text != new_text and layout_key(old_text) == layout_key(new_text)
