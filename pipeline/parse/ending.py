"""How a document ends, the same for every kind: the credits that close it, and where its text stops.

- The credits are the trailing lines that are each a credit line ("All trademarks are property of...",
  "© 2026 Viacom...", "Converted by: ...") or go on with the line above in lower case. A credit line
  with the document's text after it (a page footer in PDF text) is no credit: it stays where it is.
- Where the text stops is recorded on the Document; a contents list that names headings it never
  reaches is then a broken invariant (pipeline.parse.checks).
"""
from __future__ import annotations

import re
from typing import Sequence

from ..model import TextEnd
from ..read.shapes import ends_sentence
from ..read.stream import Element, PageNumber

# "All trademarks are property of...", "™ & © 2024 Wizards", "Converted by: ...".
CREDIT_LINE = re.compile(r"^(?:All trademarks\b|Converted by\b|™\s*&\s*©|TM\s*&\s*\(?c\)?|©|\(c\)\s*\d"
                         r"|Copyright\b)", re.I)


def credits_start(stream: Sequence[Element]) -> int:
    """Where the credits that close the document begin in `stream` (its length if it closes without)."""
    start = len(stream)
    index = len(stream) - 1
    while index >= 0:
        element = stream[index]
        if not element.text or isinstance(element, PageNumber):
            index -= 1
            continue
        if CREDIT_LINE.match(element.text):
            start = index
        elif not element.text[0].islower():
            break                       # the document's own text: the credits, if any, begin below it
        index -= 1
    return start


def text_end(stream: Sequence[Element]) -> TextEnd:
    """Where the text of `stream` stops: its last line with text, and whether it stops mid-sentence (a
    contents list it never reaches then reads as a truncated download: pipeline.parse.checks)."""
    last = next((element for element in reversed(stream) if element.text), None)
    return TextEnd(last.line, not ends_sentence(last.text)) if last is not None else TextEnd(None)
