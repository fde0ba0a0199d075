"""What is layout, not wording, in a difference between two texts of a rule.

Spacing (spaces, line and paragraph breaks) is layout; so is a word that a conversion of the
source to text joined or split at a line end: "previouslyunknown", "previously- unknown" and
"previously-unknown" are one word written three ways (a PDF-to-text tool drops or keeps a
line-end hyphen, with or without the line's break). Two texts with the same `layout_key` say
the same words: a change between them is "layout only", shown as such and never counted as a
change of wording. A deliberate respelling ("pre-game" -> "pregame") cannot be told from a
line-end join by the texts alone, and is layout only too.

Typography is layout as well: straight or curly quotes and apostrophes, a dash written as one
character or two hyphens, an ellipsis as one character or three dots, a trademark sign or "(tm)".
An edition that changes every "player's" to "player’s" (the CR did, 2019) changes no rule's words.
"""
from __future__ import annotations

import re

_SPACING = re.compile(r"\s+")
# One form of each typographic mark: quotes and apostrophes straight, every dash a hyphen (then runs of them one).
# (str.replace for each mark present: several times quicker than str.translate on long texts)
_TYPOGRAPHY = (("\u201c", '"'), ("\u201d", '"'), ("\u201e", '"'), ("\u201f", '"'), ("\u2033", '"'),
               ("\u2018", "'"), ("\u2019", "'"), ("\u201a", "'"), ("\u201b", "'"), ("\u2032", "'"),
               ("\u2012", "-"), ("\u2013", "-"), ("\u2014", "-"), ("\u2015", "-"), ("\u2212", "-"),
               ("\u2026", "..."))
_DASHES = re.compile(r"-{2,}")
_SIGNS = re.compile(r"\((tm|r|c)\)", re.IGNORECASE)
_SIGN = {"tm": "\u2122", "r": "\u00ae", "c": "\u00a9"}
# A hyphen inside a word, or at its line's end before the word goes on ("previously- unknown"); not a dash
# between spaced words ("A - B").
_JOINING_HYPHEN = re.compile(r"(?<=\w)[-\u00ad\u2010]\s*(?=\w)")


def plain_marks(text: str) -> str:
    """The text with one form of each typographic mark (straight quotes, hyphens, "..." and the signs)."""
    for mark, plain in _TYPOGRAPHY:
        if mark in text:
            text = text.replace(mark, plain)
    if "--" in text:
        text = _DASHES.sub("-", text)
    return _SIGNS.sub(lambda sign: _SIGN[sign.group(1).lower()], text) if "(" in text else text


def layout_key(text: str) -> str:
    """The text without its layout: no spacing, no hyphen inside a word, one form of each typographic mark."""
    return _SPACING.sub("", _JOINING_HYPHEN.sub("", plain_marks(text)))


def layout_only(old_text: str, new_text: str) -> bool:
    """Whether two different texts differ in layout alone."""
    return old_text != new_text and layout_key(old_text) == layout_key(new_text)
