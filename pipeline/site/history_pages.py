"""The site's "What changed" pages (one per pair of consecutive editions) and its history pages (one per
page of the current edition: each rule's wordings through every edition, the editions that held each).

Long rules show the changed sentences and fold the rest (the whole text is one tap away). Uses
`diff` for the comparisons and `render` for safe HTML; `plan` places the pages. No mkdocs here.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Callable, Optional

from .. import kinds
from ..addresses import Addresses, anchor_of
from ..build_date import long_date
from ..diff import EditionDiff, word_diff
from ..diff.history import KindHistory
from ..diff.layout import layout_only
from ..model import DocumentInfo, Section
from .pages import Page
from .render import esc

CONTEXT = 110          # characters of unchanged text kept either side of a change in a long rule
LONG = 2 * CONTEXT + 80
SENTENCE_START = re.compile(r"(?<=[.!?:;])\s+(?=\S)")

Href = Callable[[str], Optional[str]]


def pair_path(old: DocumentInfo, new: DocumentInfo) -> str:
    return f"changes/{old.id}--{new.id}.md"


def pair_title(old: DocumentInfo, new: DocumentInfo) -> str:
    kind = kinds.short_name(new.kind)
    return f"{kind} {old.edition or old.id} → {new.edition or new.id}"


@lru_cache(maxsize=100_000)
def diff_html(old_text: str, new_text: str) -> str:
    """Word-level highlights (deleted words in <del>, inserted ones in <ins>); in a long text only the
    changed sentences are shown, the rest folded, with the whole text one tap away. (Kept for the build:
    the history pages show the same changes as the "What changed" pages.)"""
    pieces = word_diff(old_text, new_text)
    full = _pieces_html(pieces)
    if len(new_text) <= LONG and len(old_text) <= LONG:
        return f'<p class="rk-diff">{full}</p>'
    focused = []
    for position, (tag, text) in enumerate(pieces):
        if tag != "equal" or len(text) <= LONG:
            focused.append((tag, text))
            continue
        head = _context_after(text) if position > 0 else ""
        tail = _context_before(text) if position < len(pieces) - 1 else ""
        focused.append(("equal", head))
        focused.append(("fold", ""))
        focused.append(("equal", tail))
    if len(focused) == len(pieces):     # nothing folded (no long unchanged stretch): the whole text is shown
        return f'<p class="rk-diff">{full}</p>'
    return (f'<p class="rk-diff">{_pieces_html(focused)}</p>'
            f'<details class="rk-whole"><summary>Whole text</summary><p class="rk-diff">{full}</p></details>')


def _context_after(text: str) -> str:
    """The start of an unchanged stretch after a change: to the end of its sentence, or CONTEXT characters."""
    match = SENTENCE_START.search(text, 0, CONTEXT * 2)
    end = match.start() if match else text.rfind(" ", 0, CONTEXT)
    return text[:end if end > 0 else CONTEXT]


def _context_before(text: str) -> str:
    """The end of an unchanged stretch before a change: from the start of its sentence, or CONTEXT characters."""
    window = text[-CONTEXT * 2:]
    starts = [match.end() for match in SENTENCE_START.finditer(window)]
    if starts:
        return window[starts[-1]:]
    space = text.find(" ", len(text) - CONTEXT)
    return text[space + 1:] if space >= 0 else text[-CONTEXT:]


def _pieces_html(pieces) -> str:
    out = []
    for tag, text in _layout_as_equal(pieces):
        if tag == "equal":
            out.append(esc(text))
        elif tag == "delete":
            out.append(f"<del>{esc(text)}</del>")
        elif tag == "insert":
            out.append(f"<ins>{esc(text)}</ins>")
        else:
            out.append('<span class="rk-folded" title="unchanged text folded"> … </span>')
    return "".join(out).replace("\n\n", "<br><br>")


def _layout_as_equal(pieces: list[tuple[str, str]]) -> list[tuple[str, str]]:
    """The pieces with each change of layout alone (a space, a paragraph break, a word joined at a line end:
    diff.layout) shown as unchanged text in its new layout: only changes of wording are highlighted."""
    out: list[tuple[str, str]] = []
    for position, (tag, text) in enumerate(pieces):
        following = pieces[position + 1] if position + 1 < len(pieces) else ("", "")
        if tag == "delete" and following[0] == "insert" and layout_only(text, following[1]):
            continue                          # the insertion after it stands for both
        previous = pieces[position - 1] if position else ("", "")
        if tag == "insert" and previous[0] == "delete" and layout_only(previous[1], text):
            out.append(("equal", text))
        elif tag in ("delete", "insert") and (not text.strip() or (
                text == "-" and previous[1][-1:].isalnum() and following[1][:1].isalnum())):
            if tag == "insert":               # spacing, or a hyphen inside a word, put in or taken out
                out.append(("equal", text))
        else:
            out.append((tag, text))
    return out


def pair_highlights(diff: EditionDiff) -> list[str]:
    """The highlighted changes of a "What changed" page, in its order (changed rules, renumbered ones,
    glossary terms): the costly part of the page, and the same whatever the page links to, so a build
    keeps them with the comparison of the pair."""
    return ([diff_html(change.old_text, change.new_text) for change in diff.changed]
            + [diff_html(move.old_text, move.new_text) if move.text_changed else "" for move in diff.moved]
            + [diff_html(change.old_text, change.new_text) for change in diff.glossary.changed])


def pair_page(old: DocumentInfo, new: DocumentInfo, diff: EditionDiff, href: Href,
              title_of: Callable[[str], str], highlights: Optional[list[str]] = None) -> Page:
    """The "What changed" page of one pair of editions; `href` links a section id (of either edition) from
    this page, `title_of` gives a section id its title; `highlights` are the pair's (made if not given)."""
    path = pair_path(old, new)
    highlighted = iter(highlights if highlights is not None else pair_highlights(diff))

    def link(section_id: str) -> str:
        label = section_id.split(":", 1)[1]
        title = f" {esc(title_of(section_id))}" if title_of(section_id) else ""
        url = href(section_id)
        number = f'<span class="rk-num-inline">{esc(label)}</span>'
        return f'<a href="{esc(url)}">{number}{title}</a>' if url else f"{number}{title}"

    glossary_count = len(diff.glossary.added) + len(diff.glossary.removed) + len(diff.glossary.changed)
    heading = "What will change" if new.preview else "What changed"
    out = [f'<h1 id="changes">{heading}: {esc(pair_title(old, new))}</h1>',
           _upcoming_line(new),
           f'<p class="rk-edition">{esc(new.title)}: the edition effective <span class="rk-date">'
           f'{esc(old.edition or "?")}</span> compared with the one effective <span class="rk-date">'
           f'{esc(new.edition or "?")}</span>.</p>',
           '<ul class="rk-summary">'
           f'<li><a href="#changed">{len(diff.changed)} changed</a></li>'
           f'<li><a href="#added">{len(diff.added)} added</a></li>'
           f'<li><a href="#removed">{len(diff.removed)} removed</a></li>'
           f'<li><a href="#moved">{len(diff.moved)} renumbered</a></li>'
           f'<li><a href="#glossary">{glossary_count} glossary terms</a></li></ul>',
           f'<h2 id="changed">Changed ({len(diff.changed)})</h2>']
    for change in diff.changed:
        note = ' <span class="rk-note">(only the rule numbers it cites)</span>' if change.numbers_only else ""
        out.append(f'<div class="rk-change"><p>{link(change.new_id)}{note}</p>{next(highlighted)}</div>')
    if diff.layout_only:
        count = len(diff.layout_only)
        # folded: an edition that only restyles its quotes lists a thousand rules here
        out.append(f'<details class="rk-note" id="layout-only"><summary>Layout only, not counted as changes '
                   f'({count})</summary><p>Their words are the same; only the spacing or the typography differs '
                   f'(straight or curly quotes, a dash\u2019s form), or a word the source\u2019s text joined or '
                   f'split at a line end: {", ".join(link(change.new_id) for change in diff.layout_only)}.</p>'
                   f'</details>')
    for anchor, label, ids in (("added", "Added", diff.added), ("removed", "Removed", diff.removed)):
        out.append(f'<h2 id="{anchor}">{label} ({len(ids)})</h2>')
        if ids:
            out.append('<ul class="rk-contents">' + "".join(f"<li>{link(i)}</li>" for i in ids) + "</ul>")
    out.append(f'<h2 id="moved">Renumbered ({len(diff.moved)})</h2>')
    if diff.moved:
        out.append('<ul class="rk-moves">')
        for move in diff.moved:
            changed = next(highlighted)
            layout = ' <span class="rk-note">(layout only)</span>' if move.layout_only else ""
            out.append(f"<li>{link(move.from_id)} → {link(move.to_id)}{layout}{changed}</li>")
        out.append("</ul>")
    glossary = diff.glossary
    out.append('<h2 id="glossary">Glossary</h2>')
    if not (glossary.added or glossary.removed or glossary.changed):
        out.append("<p>No glossary changes.</p>")
    for term in glossary.added:
        out.append(f'<p><ins>{esc(term)}</ins> added</p>')
    for term in glossary.removed:
        out.append(f'<p><del>{esc(term)}</del> removed</p>')
    for change in glossary.changed:
        out.append(f'<div class="rk-change"><p><strong>{esc(change.term)}</strong></p>'
                   f'{next(highlighted)}</div>')
    return Page(path, f"{heading}: {pair_title(old, new)}", "".join(out),
                description=f"{heading}: {pair_title(old, new)}")


def _upcoming_line(new: DocumentInfo) -> str:
    if not new.preview:
        return ""
    return (f'<p class="rk-upcoming"><strong>Not in force yet:</strong> this edition takes effect on '
            f'<strong>{esc(long_date(new.edition or ""))}</strong>; until then the rules are the ones of the '
            f'edition before it.</p>')


def changes_index(pairs: list[tuple[DocumentInfo, DocumentInfo, EditionDiff]], addresses: Addresses) -> Page:
    path = "changes/index.md"
    out = ['<h1 id="what-changed">What changed</h1>',
           '<p>Each pair of consecutive editions in this site, newest first: changed, added, removed and renumbered '
           'rules, with the changed words highlighted.</p><ul class="rk-contents">']
    for old, new, diff in pairs:
        counts = (f"{len(diff.changed)} changed, {len(diff.added)} added, {len(diff.removed)} removed, "
                  f"{len(diff.moved)} renumbered")
        if diff.layout_only:
            counts += f"; {len(diff.layout_only)} in layout only, not counted"
        out.append(f'<li><a href="{esc(addresses.relative(path, pair_path(old, new)))}">'
                   f'{esc(pair_title(old, new))}</a> '
                   f'<span class="rk-note">{esc(counts)}</span></li>')
    out.append("</ul>")
    return Page(path, "What changed", "".join(out), description="Changes between editions")


def history_page(path: str, title: str, sections: list[Section], history: KindHistory, href: Href,
                 edition_href: Callable[[int, str], Optional[str]],
                 below: Optional[dict[str, list[tuple[Section, str]]]] = None) -> Page:
    """The history of the rules on one page: each rule's wordings, oldest first, with the editions that held
    each (`edition_href(edition index, number)` links one to that edition's reader). `below`: a section id ->
    the rules under it that other pages hold, each with the link to its history; a section with such rules
    says how many of them changed, and which (its own words may be its title alone)."""
    below = below or {}
    count = len(history.editions)
    out = [f'<h1 id="history">History: {esc(title)}</h1>',
           f'<p>Each rule on this page in the {count} editions in this site '
           f'(<span class="rk-date">{esc(history.label(0))}</span> to '
           f'<span class="rk-date">{esc(history.label(count - 1))}</span>): each different wording, oldest first, '
           f'with the editions that had it and what changed from the one before.</p>']
    for section in sections:
        key = section.id.split(":", 1)[1]
        wordings = history.wordings_of(key)
        url = href(section.id)
        label = f'<a href="{esc(url)}">{esc(section.number or section.title)}</a>' if url else esc(section.number)
        title_text = f" {esc(section.title)}" if section.title and section.number else ""
        out.append(f'<h2 id="{esc(anchor_of(section))}" class="rk-h">{label}{title_text}</h2>')
        rules = below.get(section.id)
        if rules:
            out.append(_rules_below_html(rules, history))
        if len(wordings) <= 1:
            since = history.label(wordings[0][1][0]) if wordings else history.label(count - 1)
            own = "Its own words (heading and text): the same" if rules else "The same wording"
            out.append(f'<p class="rk-edition">{own} since <span class="rk-date">{esc(since)}</span>.</p>')
            continue
        previous = None
        for wording, editions, numbers in wordings:
            out.append(f'<p class="rk-edition">{_editions_html(editions, numbers, history, edition_href)}</p>')
            text = wording.joined
            # the first wording whole, its paragraphs apart as in the highlights after it
            first = f'<p class="rk-diff">{_pieces_html([("equal", text)])}</p>'
            out.append(diff_html(previous, text) if previous is not None else first)
            previous = text
    return Page(path, f"History: {title}", "".join(out), description=f"History of {title}")


def _rules_below_html(rules: list[tuple[Section, str]], history: KindHistory) -> str:
    """How many of the rules under a section changed through the editions, and which: each a link to its
    history (a rule new since the oldest edition counts apart)."""
    changed, new = [], []
    for rule, url in rules:
        wordings = history.wordings_of(rule.id.split(":", 1)[1])
        if len(wordings) > 1:
            changed.append((rule, url))
        elif wordings and wordings[0][1][0] > 0:
            new.append((rule, url))
    first, last = history.label(0), history.label(len(history.editions) - 1)
    noun = "rule" if len(rules) == 1 else "rules"
    summary = (f'<p class="rk-edition rk-below"><strong>{len(changed)}</strong> of its {len(rules)} {noun} changed '
               f'and <strong>{len(new)}</strong> {"is" if len(new) == 1 else "are"} new from '
               f'<span class="rk-date">{esc(first)}</span> to <span class="rk-date">{esc(last)}</span>.</p>')
    lists = []
    for label, found in (("Changed", changed), ("New", new)):
        if found:
            links = " ".join(f'<a href="{esc(url)}">{esc(rule.number or rule.title)}</a>' for rule, url in found)
            lists.append(f'<details class="rk-fold"><summary>{label}: {len(found)}</summary>'
                         f'<p class="rk-chips">{links}</p></details>')
    return summary + "".join(lists)


def _editions_html(editions: list[int], numbers: list[str], history: KindHistory,
                   edition_href: Callable[[int, str], Optional[str]]) -> str:
    """"2019-01-25 to 2023-04-14 (9 editions), numbered 702.19b": each date a link to that edition."""
    def dated(index: int) -> str:
        label = f'<span class="rk-date">{esc(history.label(index))}</span>'
        url = edition_href(index, numbers[-1] if numbers else "")
        return f'<a href="{esc(url)}">{label}</a>' if url else label
    span = dated(editions[0]) if len(editions) == 1 else f"{dated(editions[0])} to {dated(editions[-1])}"
    count = f" ({len(editions)} editions)" if len(editions) > 1 else ""
    numbered = f", numbered {esc(' then '.join(numbers))}" if numbers and any(n for n in numbers) else ""
    return f"{span}{count}{numbered}"

