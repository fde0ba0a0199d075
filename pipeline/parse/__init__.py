"""The parse stage: numbered lines of one source to a Document, by a parser per document kind.

`parse(source, info)` looks the kind up in PARSERS. Parsers never raise on odd content: they
record Problems (with file and line) and keep every passage of the source somewhere in the
Document. What they share is in `common`, `furniture` (PDF page furniture) and `refs`.
"""
from __future__ import annotations

from typing import Callable

from ..model import Document, DocumentInfo
from ..read import SourceText
from .cr import parse_cr
from .ipg import parse_ipg
from .jar import parse_jar
from .mtr import parse_mtr

Parser = Callable[[SourceText, DocumentInfo], Document]
PARSERS: dict[str, Parser] = {"cr": parse_cr, "mtr": parse_mtr, "floor": parse_mtr, "ipg": parse_ipg, "jar": parse_jar}


def parse(source: SourceText, info: DocumentInfo) -> Document:
    try:
        parser = PARSERS[info.kind]
    except KeyError:
        raise ValueError(f"no parser for document kind {info.kind!r}") from None
    return parser(source, info)
