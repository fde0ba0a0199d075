"""The parse stage: the typed stream of one source (pipeline.read.stream) to a Document, by the parser its
kind names.

`parse(source, info)` runs the parser the kind's registry entry (pipeline.kinds) names, then
holds the result to the kind's invariants (`checks`: its contents list, its layout, an IPG's
penalties against its Appendix A in `quick_reference`). Parsers never raise on odd content: they
record Problems (with file and line) and what they read as data, and keep every passage of the
source somewhere in the Document. What they share is in `common`, `blocks` (paragraphs and list
items built from lines, with their references; what a list item is: a list's element, or drawn or
numbered in the text; the section holding them), `kind_parser` (what the IPG, MTR and JAR parsers do
alike around their grammar: the reading loop, front matter, credits, a line that could not be read, page
furniture, running text and when a line goes on with the paragraph above, the shape of a subheading, a
contents title matched to a heading, section ids, the Document), `ending` (credits, where the
text stops), `contents` (a contents list found given a heading grammar), `refs` and `penalties`; what
is about the format was settled by the read stage.
"""
from __future__ import annotations

from typing import Callable

from .. import kinds
from ..model import Document, DocumentInfo
from ..read import SourceText
from .checks import checked
from .common import without_cycle_collection
from .cr import parse_cr
from .ipg import parse_ipg
from .jar import parse_jar
from .mtr import parse_mtr

Parser = Callable[[SourceText, DocumentInfo], Document]
PARSERS: dict[str, Parser] = {"cr": parse_cr, "mtr": parse_mtr, "ipg": parse_ipg, "jar": parse_jar}


@without_cycle_collection       # (the checks too: they copy the Document, as the parser made it without cycles)
def parse(source: SourceText, info: DocumentInfo) -> Document:
    kind = kinds.kind(info.kind)
    if kind is None or kind.parser not in PARSERS:
        raise ValueError(f"no parser for document kind {info.kind!r}")
    return checked(PARSERS[kind.parser](source, info))
