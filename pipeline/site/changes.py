"""The site's "What changed" pages (one per pair of consecutive editions) and each rule's history.

Uses `diff` for the comparisons and `render` for safe HTML; `pages` places the results.
No mkdocs here.
"""
from __future__ import annotations

import hashlib
from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import cache
from ..diff import EditionDiff, compare, last_changed, rule_history, word_diff
from ..model import Corpus, Document
from .render import esc

SHORT = {"cr": "CR", "mtr": "MTR", "ipg": "IPG", "floor": "Floor Rules"}


@dataclass
class EditionChanges:
    """Every comparison the site shows, computed once per build."""
    pairs: list[tuple[Document, Document, EditionDiff]] = field(default_factory=list)
    history: dict[str, list[tuple[str, str, str]]] = field(default_factory=dict)   # current section id -> texts
    last_changed: dict[str, str] = field(default_factory=dict)                     # current section id -> edition


def compute(corpus: Corpus) -> EditionChanges:
    changes = EditionChanges()
    by_kind: dict[str, list[Document]] = {}
    for document in corpus.documents:
        by_kind.setdefault(document.info.kind, []).append(document)
    for documents in by_kind.values():
        documents.sort(key=lambda d: (d.info.edition or "", d.info.source))
        for old, new in zip(documents, documents[1:]):
            changes.pairs.append((old, new, _cached(compare, old, new)))
        current = [d for d in documents if d.info.current]
        if len(documents) > 1 and current and documents[-1] is current[0]:
            changes.history.update(_cached(rule_history, documents))
            changes.last_changed.update(_cached(last_changed, documents))
    changes.pairs.sort(key=lambda pair: (pair[1].info.edition or ""), reverse=True)
    return changes


def _cached(function, *arguments):
    """A comparison's result, kept in the cache under the bytes and ids of the documents it compared."""
    documents = [argument for group in arguments for argument in (group if isinstance(group, list) else [group])]
    key = cache.key(function.__name__, *(f"{d.id}|{d.info.sha256}|{d.info.edition}|{d.info.excerpt}|{d.info.current}"
                                          for d in documents))
    found = cache.load(key)
    if found is None:
        found = function(*arguments)
        cache.store(key, found)
    return found


def pair_path(old: Document, new: Document) -> str:
    return f"changes/{old.id}--{new.id}.md"


def pair_title(old: Document, new: Document) -> str:
    kind = SHORT.get(new.info.kind, new.info.kind.upper())
    return f"{kind} {old.info.edition or old.id} → {new.info.edition or new.id}"


class _Highlights:
    """Word diffs already made by an earlier build (they are the slow part of a rebuild's pages)."""

    def __init__(self):
        self.key = cache.key("word-diffs")
        self.known: dict[str, str] = {}
        self.used: dict[str, str] = {}

    def get(self, old_text: str, new_text: str) -> str:
        if not self.known and not self.used:
            self.known = cache.load(self.key) or {}
        key = hashlib.sha256(f"{old_text}\0{new_text}".encode()).hexdigest()
        html = self.used.get(key) or self.known.get(key) or _diff_html(old_text, new_text)
        self.used[key] = html
        return html

    def save(self) -> None:
        """Keep the diffs this build used (and no others: the cache does not grow build after build)."""
        if self.used.keys() != self.known.keys():
            cache.store(self.key, self.used)


HIGHLIGHTS = _Highlights()


def diff_html(old_text: str, new_text: str) -> str:
    """Word-level highlights: deleted words in <del>, inserted ones in <ins>."""
    return HIGHLIGHTS.get(old_text, new_text)


def _diff_html(old_text: str, new_text: str) -> str:
    out = []
    for tag, text in word_diff(old_text, new_text):
        if tag == "equal":
            out.append(esc(text))
        elif tag == "delete":
            out.append(f"<del>{esc(text)}</del>")
        else:
            out.append(f"<ins>{esc(text)}</ins>")
    return "".join(out).replace("\n\n", "<br><br>")


Href = Callable[[str], Optional[str]]


def pair_page_body(old: Document, new: Document, diff: EditionDiff, href: Href) -> str:
    """The "What changed" page of one pair of editions; `href` links a section id from this page."""
    new_sections = {s.id: s for s in new.sections}
    old_sections = {s.id: s for s in old.sections}

    def link(section_id: str, document: dict) -> str:
        section = document.get(section_id)
        label = section_id.split(":", 1)[1]
        title = f" {esc(section.title)}" if section is not None and section.title else ""
        url = href(section_id)
        number = f'<span class="rk-num-inline">{esc(label)}</span>'
        return f'<a href="{esc(url)}">{number}{title}</a>' if url else f"{number}{title}"

    scope = " Only the sections the excerpt contains are compared." if old.info.excerpt or new.info.excerpt else ""
    out = [f'<h1 id="changes">What changed: {esc(pair_title(old, new))}</h1>',
           f'<p class="rk-edition">{esc(old.info.title)} effective {esc(old.info.edition or "?")} compared with '
           f'the edition effective {esc(new.info.edition or "?")}.{scope}</p>',
           '<ul class="rk-summary">'
           f'<li><a href="#added">{len(diff.added)} added</a></li>'
           f'<li><a href="#removed">{len(diff.removed)} removed</a></li>'
           f'<li><a href="#changed">{len(diff.changed)} changed</a></li>'
           f'<li><a href="#moved">{len(diff.moved)} renumbered</a></li>'
           f'<li><a href="#glossary">{len(diff.glossary.added) + len(diff.glossary.removed) + len(diff.glossary.changed)} glossary terms</a></li>'
           "</ul>"]
    out.append(f'<h2 id="changed">Changed ({len(diff.changed)})</h2>')
    for change in diff.changed:
        note = ' <span class="rk-note">(only the rule numbers it cites)</span>' if change.numbers_only else ""
        out.append(f'<div class="rk-change"><p>{link(change.new_id, new_sections)}{note}</p>'
                   f'<p class="rk-diff">{diff_html(change.old_text, change.new_text)}</p></div>')
    out.append(f'<h2 id="added">Added ({len(diff.added)})</h2>')
    for section_id in diff.added:
        section = new_sections.get(section_id)
        text = esc(section.text[:400] + ("…" if len(section.text) > 400 else "")) if section else ""
        out.append(f'<div class="rk-change"><p>{link(section_id, new_sections)}</p><p class="rk-diff"><ins>{text}</ins></p></div>')
    out.append(f'<h2 id="removed">Removed ({len(diff.removed)})</h2>')
    for section_id in diff.removed:
        section = old_sections.get(section_id)
        text = esc(section.text[:400] + ("…" if len(section.text) > 400 else "")) if section else ""
        out.append(f'<div class="rk-change"><p>{link(section_id, old_sections)}</p><p class="rk-diff"><del>{text}</del></p></div>')
    out.append(f'<h2 id="moved">Renumbered ({len(diff.moved)})</h2>')
    if diff.moved:
        out.append('<ul class="rk-moves">')
        for move in diff.moved:
            changed = f'<p class="rk-diff">{diff_html(move.old_text, move.new_text)}</p>' if move.text_changed else ""
            out.append(f"<li>{link(move.from_id, old_sections)} → {link(move.to_id, new_sections)}{changed}</li>")
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
                   f'<p class="rk-diff">{diff_html(change.old_text, change.new_text)}</p></div>')
    return "".join(out)


def index_body(changes: EditionChanges, href_page: Callable[[str], str]) -> str:
    out = ['<h1 id="what-changed">What changed</h1>',
           '<p>Each pair of consecutive editions in this site, newest first: added, removed, changed and '
           'renumbered rules, with the changed words highlighted.</p><ul class="rk-contents">']
    for old, new, diff in changes.pairs:
        counts = f"{len(diff.changed)} changed, {len(diff.added)} added, {len(diff.removed)} removed, {len(diff.moved)} renumbered"
        out.append(f'<li><a href="{esc(href_page(pair_path(old, new)))}">{esc(pair_title(old, new))}</a> '
                   f'<span class="rk-note">{esc(counts)}</span></li>')
    out.append("</ul>")
    return "".join(out)


def history_body(title: str, section_ids: list[str], changes: EditionChanges, numbers: dict[str, str],
                 href: Href, anchors: dict[str, str]) -> str:
    """A page's rules, each with its text in every edition (changes highlighted against the one before).

    `anchors` gives each rule the same anchor here as on its own page, so "history" links land on it.
    """
    out = [f'<h1 id="history">History: {esc(title)}</h1>',
           '<p>The text of each rule on this page that changed, in every edition in this site, oldest first.</p>']
    for section_id in section_ids:
        editions = changes.history.get(section_id, [])
        number = numbers.get(section_id, section_id.split(":", 1)[1])
        url = href(section_id)
        label = f'<a href="{esc(url)}">{esc(number)}</a>' if url else esc(number)
        out.append(f'<h2 id="{esc(anchors.get(section_id, number))}" class="rk-h">{label}</h2>')
        previous = None
        for edition, old_id, text in editions:
            shown = diff_html(previous, text) if previous is not None else esc(text)
            where = old_id.split(":", 1)[1]
            renumbered = f" (numbered {esc(where)})" if where.casefold() != number.replace(" ", "-").casefold() else ""
            out.append(f'<p class="rk-edition">{esc(edition)}{renumbered}</p><p class="rk-diff">{shown}</p>')
            previous = text
    return "".join(out)
