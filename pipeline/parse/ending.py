"""How a document ends, the same for every kind: the credits that close it, and a file that stops before
the end its contents list promises.

- The credits are the trailing lines that are each a credit line ("All trademarks are property of...",
  "© 2026 Viacom...", "Converted by: ...") or go on with the line above in lower case. A credit line
  with the document's text after it (a page footer in PDF text) is no credit: it stays where it is.
- A contents list that names headings the text never reaches is a broken invariant (a truncated
  download): one problem at the line where the file stops, naming what is missing; the document is
  marked incomplete. In a file the manifest calls an excerpt it is a warning (an excerpt's contents
  list names what it left out).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional, Sequence

from ..model import ERROR, WARNING, DocumentInfo, Problem
from ..read.shapes import ends_sentence
from ..read.stream import Element, PageNumber

# "All trademarks are property of...", "™ & © 2024 Wizards", "Converted by: ...".
CREDIT_LINE = re.compile(r"^(?:All trademarks\b|Converted by\b|™\s*&\s*©|TM\s*&\s*\(?c\)?|©|\(c\)\s*\d"
                         r"|Copyright\b)", re.I)
NAMES_SHOWN = 5


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


def listed(names: Sequence[str], limit: int = NAMES_SHOWN) -> str:
    """"a, b, c and 4 more": the first few of a list, for a message."""
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


def broken_severity(info: DocumentInfo) -> str:
    """What a broken invariant is: an error, but a warning in a file the manifest says is an excerpt (an
    excerpt's contents list names what it left out)."""
    return WARNING if info.excerpt else ERROR


def truncated(info: DocumentInfo, unreached: Sequence[str], stream: Sequence[Element],
              last_section: Optional[str] = None) -> tuple[DocumentInfo, list[Problem]]:
    """The document's info and the problem to report when its contents list names headings (`unreached`, as
    "7.2 Card Use in Limited Tournaments") the text never reaches; (info, []) when it names none."""
    if not unreached:
        return info, []
    last = next((element for element in reversed(stream) if element.text), None)
    where = f"line {last.line}" if last else "its start"
    if last_section:
        where += f" (after section {last_section})"
    if last is not None and not ends_sentence(last.text):
        where += ", in the middle of a sentence"
    message = (f"the contents list names {len(unreached)} section(s) the text never reaches ({listed(unreached)}): "
               f"the file stops at {where}, so it looks truncated")
    return replace(info, complete=False), [Problem(broken_severity(info), info.source, last.line if last else None,
                                                   message)]
