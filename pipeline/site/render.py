"""Render parts of the model as safe HTML fragments: rules, blocks, links, penalties.

Every piece of source text goes through `html.escape` here, so nothing in a source (a
<script>, an onclick, a javascript: link) reaches the site as code. References become links
where the parser found them (their spans), never by reading the text again. Knows nothing of
mkdocs; `pages` decides which fragments make which page.
"""
from __future__ import annotations

import html
import re
from typing import Callable, Iterable, Optional, Sequence

from ..addresses import anchor_of
from ..model import BULLET, NUMBERED, SUBHEADING, TABLE_ROW, Block, Infraction, Reference, Section

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


def linked_text(text: str, refs: Iterable[Reference], url_for: UrlFor, offset: int = 0) -> str:
    """Escape `text` (which starts at `offset` of the text the references' spans count in), making each
    resolved reference a link to its target. A reference known only by its words (an HTML link of the
    source) links the first place those words are written."""
    spans: list[tuple[int, int, str]] = []
    for ref in refs:
        if not ref.target:
            continue
        url = url_for(ref.target)
        if not url:
            continue
        if ref.start >= 0:
            start, end = ref.start - offset, ref.end - offset
        else:
            start = text.find(ref.text)
            end = start + len(ref.text)
        if 0 <= start < end <= len(text):
            spans.append((start, end, url))
    if not spans:
        return esc(text)
    pieces = []
    position = 0
    for start, end, url in sorted(spans):
        if start < position:
            continue   # a range "603.7d–f" names several targets in one span: linked once, to the first
        pieces.append(esc(text[position:start]))
        pieces.append(f'<a class="rk-ref" href="{esc(url)}">{esc(text[start:end])}</a>')
        position = end
    pieces.append(esc(text[position:]))
    return "".join(pieces)


def refs_of(refs: Sequence[Reference], block: int) -> list[Reference]:
    """The references found in one text of a section (its blocks first, then its examples)."""
    return [ref for ref in refs if ref.block == block or ref.block < 0]


def blocks_html(blocks: Sequence[Block], refs: Sequence[Reference], url_for: UrlFor, heading_level: int = 4,
                first_block: int = 0, anchors: Optional[dict[int, str]] = None,
                leave_out: frozenset[int] = frozenset()) -> str:
    """Paragraphs as <p>, list items grouped into <ul>/<ol>, table rows into a <table>, subheadings.
    `first_block` is the index of blocks[0] among the section's texts (for the references' spans);
    `anchors`: the id of a subheading, by its index (what a page's jumps lead to); `leave_out`, the indices
    of blocks shown elsewhere on the page (boxed_blocks)."""
    out: list[str] = []
    open_list: Optional[str] = None

    def close_list():
        nonlocal open_list
        if open_list:
            out.append(f"</{open_list}>")
            open_list = None

    rows: list[tuple[int, Block]] = []

    def flush_rows():
        if rows:
            out.append('<div class="rk-table"><table>')
            for index, row in rows:
                cells = _cells_html(row, refs_of(refs, index), url_for)
                out.append("<tr>" + "".join(f"<td>{cell}</td>" for cell in cells) + "</tr>")
            out.append("</table></div>")
            rows.clear()

    for position, block in enumerate(blocks):
        index = first_block + position
        if index in leave_out:
            continue
        if block.kind == TABLE_ROW:
            close_list()
            rows.append((index, block))
            continue
        flush_rows()
        body = linked_text(block.text, refs_of(refs, index), url_for)
        if block.kind in (BULLET, NUMBERED):
            wanted = "ul" if block.kind == BULLET else "ol"
            if open_list != wanted:
                close_list()
                # an ordered list shows the document's own markers ("A.", "1."), not the browser's
                out.append(f'<{wanted} class="rk-list{" rk-marked" if wanted == "ol" else ""}">')
                open_list = wanted
            numbered = block.kind == NUMBERED and block.marker
            marker = f'<span class="rk-marker">{esc(block.marker)}</span> ' if numbered else ""
            out.append(f"<li>{marker}{body}</li>")
            continue
        close_list()
        if block.kind == SUBHEADING:
            level = min(heading_level, 6)
            anchor = (anchors or {}).get(index)
            attribute = f' id="{esc(anchor)}"' if anchor else ""
            out.append(f'<p class="rk-subheading"{attribute} role="heading" aria-level="{level}">'
                       f'<strong>{body}</strong></p>')
        else:
            out.append(f"<p>{body}</p>")
    close_list()
    flush_rows()
    return "".join(out)


def _cells_html(row: Block, refs: list[Reference], url_for: UrlFor) -> list[str]:
    """A table row's cells, each with the references that fall in it."""
    cells = row.cells or tuple(row.text.split("\t"))
    found = []
    position = 0
    for cell in cells:
        at = row.text.find(cell, position)
        offset = at if at >= 0 else -1
        if at >= 0:
            position = at + len(cell)
        cell_refs = [ref for ref in refs if offset <= ref.start < offset + len(cell)] if offset >= 0 else []
        found.append(linked_text(cell, cell_refs, url_for, offset if offset >= 0 else 0))
    return found


def example_html(example: str, refs: Sequence[Reference], url_for: UrlFor) -> str:
    match = EXAMPLE_LABEL.match(example)
    label = match.group(1) if match else "Example:"
    start = match.end() if match else 0
    return (f'<div class="rk-example"><p><span class="rk-example-label">{esc(label)}</span> '
            f'{linked_text(example[start:], refs, url_for, start)}</p></div>')


def number_link(section: Section) -> str:
    """The section's number as the link to itself (its permalink)."""
    anchor = anchor_of(section)
    return f'<a class="rk-num" href="#{esc(anchor)}">{esc(section.number)}</a>' if section.number else ""


def heading_html(section: Section, level: int) -> str:
    """A titled section: its number (the permalink) and its title, as a heading."""
    level = max(1, min(level, 6))
    title = f'<span class="rk-title">{esc(section.title)}</span>' if section.title else ""
    number = number_link(section)
    return (f'<h{level} id="{esc(anchor_of(section))}" class="rk-h rk-{esc(section.kind)}">'
            f'{number}{" " if number and title else ""}{title}</h{level}>')


def rule_html(section: Section, url_for: UrlFor, after: str = "", cited: str = "") -> str:
    """An untitled rule: its number inline at the start of its first paragraph, then its other
    paragraphs and examples; `after` (a changes note, annotations) closes it. `cited` ("referenced by",
    folded) comes first, set beside the rule's first line (rulekb.css): a rule list keeps its length."""
    out = [f'<div id="{esc(anchor_of(section))}" class="rk-rule rk-{esc(section.kind)}">', cited]
    blocks = list(section.blocks)
    first = blocks[0] if blocks and blocks[0].kind not in (TABLE_ROW, BULLET, NUMBERED, SUBHEADING) else None
    if first is not None:
        out.append(f"<p>{number_link(section)} {linked_text(first.text, refs_of(section.refs, 0), url_for)}</p>")
        out.append(blocks_html(blocks[1:], section.refs, url_for, first_block=1))
    else:
        out.append(f"<p>{number_link(section)}</p>")
        out.append(blocks_html(blocks, section.refs, url_for))
    out.append(examples_html(section, url_for))
    out.append(after)
    out.append("</div>")
    return "".join(out)


def examples_html(section: Section, url_for: UrlFor) -> str:
    in_body = {block.as_text() for block in section.blocks} | {block.text for block in section.blocks}
    out = []
    for position, example in enumerate(section.examples):
        if example not in in_body:   # some parsers keep examples in place in the body too
            out.append(example_html(example, refs_of(section.refs, len(section.blocks) + position), url_for))
    return "".join(out)


def backlinks_html(citing: Iterable[tuple[str, str]], beside: bool = False) -> str:
    """"Referenced by" list; `citing` holds (label, url) pairs. `beside`: the short form set beside a rule's
    first line ("Cited 3×"), its full words for screen readers."""
    citing = list(citing)
    if not citing:
        return ""
    links = " ".join(f'<a href="{esc(url)}">{esc(label)}</a>' for label, url in citing)
    noun = "place" if len(citing) == 1 else "places"
    words = f"Referenced by {len(citing)} {noun}"
    summary = (f'<summary aria-label="{words}"><span aria-hidden="true">Cited {len(citing)}\u00d7</span></summary>'
               if beside else f"<summary>{words}</summary>")
    return (f'<details class="rk-refby{" rk-refby--beside" if beside else ""}">{summary}'
            f'<p class="rk-chips">{links}</p></details>')


UPGRADE_LABEL = re.compile(r"^\s*(?:Upgrades?|Downgrades?)\s*:?\s*", re.I)


def boxed_blocks(section: Section) -> frozenset[int]:
    """The indices of an infraction's blocks that its penalty box shows (penalty_path_html): each upgrade's and
    downgrade's paragraphs, with the "Upgrade" heading above them, so that the page says them once."""
    infraction = section.infraction
    if infraction is None:
        return frozenset()
    texts = [block.as_text() for block in section.blocks]
    found: set[int] = set()
    for part in (*infraction.upgrades, *infraction.downgrades):
        paragraphs = part.split("\n\n")
        for start in range(len(texts) - len(paragraphs) + 1):
            if UPGRADE_LABEL.sub("", texts[start], count=1) == paragraphs[0] and \
                    texts[start + 1:start + len(paragraphs)] == paragraphs[1:]:
                found.update(range(start, start + len(paragraphs)))
                if start and section.blocks[start - 1].kind == SUBHEADING and \
                        UPGRADE_LABEL.fullmatch(texts[start - 1]):
                    found.add(start - 1)
                break
    return frozenset(found)


def penalty_html(penalty: str) -> str:
    return (f'<div class="rk-penalty rk-pen-{penalty_class(penalty)}"><span class="rk-penalty-label">Penalty</span> '
            f'<strong class="rk-penalty-value">{esc(penalty)}</strong></div>')


def jumps_html(anchors: dict[int, str], blocks: Sequence[Block]) -> str:
    """A page's parts, one tap each ("Definition · Examples · Philosophy · Remedy"), near its top."""
    if len(anchors) < 2:
        return ""
    links = "".join(f'<a href="#{esc(anchor)}">{esc("Remedy" if anchor == "remedy" else blocks[index].text)}</a>'
                    for index, anchor in sorted(anchors.items()))
    return f'<nav class="rk-jumps" aria-label="On this page">{links}</nav>'


def penalty_path_html(infraction: Infraction, repeat_rule: Optional[tuple[str, str]], url_for: UrlFor,
                      fix: str = "", remedy: str = "") -> str:
    """The penalty box with what to do beside it: the fix in the ordinary case (`fix`, with a jump to the
    whole remedy at `remedy`), the infraction's upgrades and downgrades, and its category's rule for repeated
    offenses (`repeat_rule`: (its text, the link to where it is written))."""
    items = []
    if fix:
        jump = f' <a class="rk-jump" href="#{esc(remedy)}">Remedy</a>' if remedy else ""
        items.append(f'<li class="rk-fix"><strong>Fix</strong> {esc(fix)}{jump}</li>')
    for upgrade in infraction.upgrades:
        items.append(f'<li class="rk-up"><strong>Upgrade</strong> {esc(upgrade)}</li>')
    for downgrade in infraction.downgrades:
        items.append(f'<li class="rk-down"><strong>Downgrade</strong> {esc(downgrade)}</li>')
    if repeat_rule:
        text, url = repeat_rule
        source = f' <a href="{esc(url)}">({esc(url.rsplit("#", 1)[-1])})</a>' if url else ""
        items.append(f'<li class="rk-repeat"><strong>Repeated</strong> {esc(text)}{source}</li>')
    path = f'<ul class="rk-path">{"".join(items)}</ul>' if items else ""
    return f'<div class="rk-penalty-path">{penalty_html(infraction.penalty)}{path}</div>'
