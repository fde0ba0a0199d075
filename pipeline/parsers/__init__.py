"""Parsers per document kind, behind one door: `parse(source, info)`.

Each parser module registers itself for a kind ("cr", "mtr", "floor", "ipg") and
turns a SourceText into a Document. Parsers never raise on odd content: they
record Problems and keep every passage of the source somewhere in the Document.
"""
from __future__ import annotations

from typing import Callable

from ..model import Document, DocumentInfo
from ..reader import SourceText

Parser = Callable[[SourceText, DocumentInfo], Document]
PARSERS: dict[str, Parser] = {}


def register(*kinds: str):
    def decorate(parser: Parser) -> Parser:
        for kind in kinds:
            PARSERS[kind] = parser
        return parser
    return decorate


def parse(source: SourceText, info: DocumentInfo) -> Document:
    _load_parsers()
    try:
        parser = PARSERS[info.kind]
    except KeyError:
        raise ValueError(f"no parser for document kind {info.kind!r}") from None
    return parser(source, info)


def _load_parsers() -> None:
    from . import cr, ipg, mtr  # noqa: F401  (modules register themselves on import; a second import is free)
