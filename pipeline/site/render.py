"""Render parts of the model as safe HTML fragments: sections, blocks, links, penalties.

Every piece of source text goes through `html.escape` here, so nothing in a source
(a <script>, an onclick, a javascript: link) reaches the site as code. Knows nothing
of mkdocs; `pages` decides which fragments make which page.
"""
from __future__ import annotations

import html
import re
from typing import Callable, Iterable, Optional

from ..addresses import anchor_of
from ..model import BULLET, NUMBERED, SUBHEADING, TABLE_ROW, Block, Reference, Section
from ..parse.refs import find_reference_spans

# Turns a section id into a URL relative to the page being rendered ("../702/#702.2"), or None.
UrlFor = Callable[[str], Optional[str]]

EXAMPLE_LABEL = re.compile(r"^\s*(Examples?\s*:)\s*", re.I)
PENALTY_CLASSES = {
    "no penalty": "none", "warning": "warning", "game loss": "game-loss",
    "match loss": "match-loss", "disqualification": "dq",
}


def esc(text: str) -> str:
    return html.escape(text, quote=True)


def penalty_class(penalty: str) -> str:
    return PENALTY_CLASSES.get(penalty.strip().lower(), "other")


def linked_text(text: str, refs: Iterable[Reference], url_for: UrlFor, bare_cr_numbers: bool = False) -> str:
    """Escape `text`, turning each reference the section resolved into a link to its target."""
    targets: dict[tuple[str, Optional[str]], str] = {}
    for ref in refs:
        if ref.target:
            targets.setdefault((ref.number.lower(), ref.document), ref.target)
            targets.setdefault((ref.number.lower(), "*"), ref.target)
    if not targets:
        return esc(text)
    pieces = []
    position = 0
    for start, end, ref in find_reference_spans(text, None, bare_cr_numbers):
        if start < position:
            continue   # a range "603.7d–f" names several targets: link it once, to the first
        target = targets.get((ref.number.lower(), ref.document)) or targets.get((ref.number.lower(), "*"))
        url = url_for(target) if target else None
        if not url:
            continue
        pieces.append(esc(text[position:start]))
        pieces.append(f'<a class="rk-ref" href="{esc(url)}">{esc(text[start:end])}</a>')
        position = end
    pieces.append(esc(text[position:]))
    return "".join(pieces)


def blocks_html(blocks: Iterable[Block], refs, url_for: UrlFor, bare_cr_numbers: bool = False,
                heading_level: int = 4) -> str:
    """Paragraphs as <p>, list items grouped into <ul>/<ol>, table rows into a <table>, subheadings."""
    out: list[str] = []
    open_list: Optional[str] = None

    def close_list():
        nonlocal open_list
        if open_list:
            out.append(f"</{open_list}>")
            open_list = None

    rows: list[Block] = []

    def flush_rows():
        if rows:
            out.append('<div class="rk-table"><table>')
            for row in rows:
                cells = row.cells or tuple(row.text.split("\t"))
                out.append("<tr>" + "".join(f"<td>{linked_text(cell, refs, url_for, bare_cr_numbers)}</td>"
                                            for cell in cells) + "</tr>")
            out.append("</table></div>")
            rows.clear()

    for block in blocks:
        if block.kind == TABLE_ROW:
            close_list()
            rows.append(block)
            continue
        flush_rows()
        body = linked_text(block.text, refs, url_for, bare_cr_numbers)
        if block.kind in (BULLET, NUMBERED):
            wanted = "ul" if block.kind == BULLET else "ol"
            if open_list != wanted:
                close_list()
                # an ordered list shows the document's own markers ("A.", "1."), not the browser's
                out.append(f'<{wanted} class="rk-list{" rk-marked" if wanted == "ol" else ""}">')
                open_list = wanted
            marker = f'<span class="rk-marker">{esc(block.marker)}</span> ' if block.kind == NUMBERED and block.marker else ""
            out.append(f"<li>{marker}{body}</li>")
            continue
        close_list()
        if block.kind == SUBHEADING:
            level = min(heading_level, 6)
            out.append(f'<p class="rk-subheading" role="heading" aria-level="{level}"><strong>{body}</strong></p>')
        else:
            out.append(f"<p>{body}</p>")
    close_list()
    flush_rows()
    return "".join(out)


def example_html(example: str, refs, url_for: UrlFor, bare_cr_numbers: bool = False) -> str:
    match = EXAMPLE_LABEL.match(example)
    label = match.group(1) if match else "Example:"
    text = example[match.end():] if match else example
    return (f'<div class="rk-example"><p><span class="rk-example-label">{esc(label)}</span> '
            f'{linked_text(text, refs, url_for, bare_cr_numbers)}</p></div>')


def heading_html(section: Section, level: int, label: str, page_url: str) -> str:
    """A numbered heading with its anchor, a permalink and a copy-link button."""
    anchor = anchor_of(section)
    number = esc(section.number) if section.number else ""
    title = f' <span class="rk-title">{esc(section.title)}</span>' if section.title else ""
    level = max(1, min(level, 6))
    number_html = f'<a class="rk-num" href="#{esc(anchor)}">{number}</a>' if number else ""
    return (f'<h{level} id="{esc(anchor)}" class="rk-h rk-{esc(section.kind)}">{number_html}{title}'
            f'<button class="rk-copy" type="button" data-url="{esc(page_url)}#{esc(anchor)}" '
            f'aria-label="Copy link to {esc(label)}" title="Copy link"></button></h{level}>')


def backlinks_html(citing: Iterable[tuple[str, str]]) -> str:
    """"Referenced by" list; `citing` holds (label, url) pairs. Excluded from search."""
    citing = list(citing)
    if not citing:
        return ""
    links = ", ".join(f'<a href="{esc(url)}">{esc(label)}</a>' for label, url in citing)
    noun = "place" if len(citing) == 1 else "places"
    return (f'<details class="rk-refby" data-search-exclude><summary>Referenced by {len(citing)} {noun}</summary>'
            f'<p>{links}</p></details>')


def penalty_html(penalty: str) -> str:
    return (f'<div class="rk-penalty rk-pen-{penalty_class(penalty)}"><span class="rk-penalty-label">Penalty</span> '
            f'<strong class="rk-penalty-value">{esc(penalty)}</strong></div>')
