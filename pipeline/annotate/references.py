"""The references a note makes ("see 2.5", "CR 704.5k", "MTR section 4.3"): found as the documents' own
are (`parse.refs`), plus the two forms people write in commentary that the documents do not use ("see 2.5"
and a document's name before a number, "IPG 2.1"); resolved against the current editions.

A note's references resolve in the document of the section it explains unless they name another. In its
rendered HTML, each becomes `<a class="rk-ref" href="rulekb:<section id>">` (the site turns that into a
link of its own); text inside a link or code is left alone.
"""
from __future__ import annotations

import html
import re
from typing import Optional

from .. import kinds
from ..model import Corpus, Reference
from ..parse.refs import DOCUMENT, NUMBER, document_kind, find_reference_spans, title_key

# "see 2.5", "cf. 4.3", "IPG 2.1", "CR 704.5k", "MTR 3.2": a number with no "rule" or "section" before it.
COMMENTARY = re.compile(rf"\b(?:(?P<doc>{DOCUMENT})|see|cf\.)\s+(?P<number>{NUMBER}|Appendix\s+[A-H])\b",
                        re.I)
TAG = re.compile(r"(<[^>]*>)")
BARE_NUMBERS = {kind.id for kind in kinds.KINDS if kind.bare_numbers}   # "704.5k" alone names its rule
LINK_SCHEME = "rulekb:"


class Targets:
    """The sections of the current editions, by kind and number (or title), as the link stage finds them."""

    def __init__(self, corpus: Corpus):
        self.tables: dict[str, dict[str, str]] = {}
        for document in corpus.documents:
            if not document.info.current or document.info.excerpt:
                continue
            table = self.tables.setdefault(document.info.kind, {})
            for section in document.sections:
                if section.number:
                    table.setdefault(section.number.lower(), section.id)
                if section.title:
                    table.setdefault(title_key(section.title), section.id)

    def find(self, ref: Reference, kind: str) -> Optional[str]:
        table = self.tables.get(ref.document or kind, {})
        number = ref.number.lower().rstrip(".")
        return table.get(number) or table.get(f"appendix {number}")


def find(text: str, kind: str, line: Optional[int] = None) -> list[tuple[int, int, Reference]]:
    """(start, end, reference) of every reference in a note's text, in order; numbers standing alone are
    read as the CR writes them only in a note on the CR."""
    found = find_reference_spans(text, line, bare_cr_numbers=kind in BARE_NUMBERS)
    taken = [(start, end) for start, end, _ in found]
    for match in COMMENTARY.finditer(text):
        start, end = match.span("number")
        if any(start < other_end and other_start < end for other_start, other_end in taken):
            continue
        named = document_kind(match.group("doc")) if match.group("doc") else None
        found.append((start, end, Reference(match.group(0), " ".join(match.group("number").split()), named,
                                            None, line)))
    return sorted(found, key=lambda item: item[0])


def resolve(text: str, kind: str, targets: Targets, line: Optional[int] = None) -> list[Reference]:
    """The references of a text, each with its target (None when no current section has that number)."""
    return [Reference(ref.text, ref.number, ref.document, targets.find(ref, kind), ref.line, -1, start, end)
            for start, end, ref in find(text, kind, line)]


def link_html(sanitised: str, kind: str, targets: Targets) -> str:
    """The rendered note with each resolved reference in its text made a `rulekb:` link."""
    pieces = TAG.split(sanitised)
    inside = 0             # depth of <a>, <code> and <pre> around the text being read
    out = []
    for piece in pieces:
        if piece.startswith("<"):
            name = re.match(r"</?\s*([a-z0-9]+)", piece)
            if name and name.group(1) in ("a", "code", "pre"):
                inside += -1 if piece.startswith("</") else 1
            out.append(piece)
            continue
        if inside or not piece:
            out.append(piece)
            continue
        text = html.unescape(piece)
        position = 0
        for ref in resolve(text, kind, targets):
            if ref.target is None or ref.start < position:
                continue
            out.append(html.escape(text[position:ref.start], quote=False))
            out.append(f'<a class="rk-ref" href="{LINK_SCHEME}{html.escape(ref.target)}">'
                       f'{html.escape(text[ref.start:ref.end], quote=False)}</a>')
            position = ref.end
        out.append(html.escape(text[position:], quote=False))
    return "".join(out)
