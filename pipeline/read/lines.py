"""What a reader makes of a file: its numbered lines (with what markup made each) and its links.

Plain data, imported by every reader and by the typed stream; nothing here reads or decides anything.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

ALONE = "alone"     # the hint of a short line an HTML converter set apart between empty spacers


@dataclass(frozen=True)
class Line:
    """One line of a source.

    `hint` says what markup made it: an HTML element ("h2", "li", "tr"), a Markdown heading,
    a PDF or HTML font ("h1" for a larger one, "b" for a wholly bold paragraph), "alone" for a
    short line an HTML converter set between empty spacers; "" for plain text. `page` is the
    PDF page it is on.
    """
    number: int
    text: str
    hint: str = ""
    page: Optional[int] = None


@dataclass(frozen=True)
class Link:
    """A hyperlink in an HTML or Markdown source: where it is, what it says, where it goes."""
    line: int
    text: str
    href: str
