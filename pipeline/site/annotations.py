"""The judges' annotations on the site: the block under the rule it explains, the page listing them all,
and on an older edition's page the notes on its rules removed since.

A note's body is already sanitised HTML (`annotate.markup`); here its `rulekb:` references become links
relative to the page, and every field of its front matter (authors, dates) is escaped. The block is folded
under its summary (a phone keeps the rules dense) and is not printed (assets/rulekb.css).
"""
from __future__ import annotations

import html
import re
from typing import Callable, Optional

from .. import kinds
from ..build_date import long_date
from ..model import Annotation, Corpus
from .pages import Page
from .render import UrlFor, esc

PAGE = "annotations/index.md"
REFERENCE_LINK = re.compile(r'<a class="rk-ref" href="rulekb:([^"]*)">(.*?)</a>', re.S)


def body_html(annotation: Annotation, url_for: UrlFor) -> str:
    """The note's HTML, each reference linked relative to the page (or left as text when it has no page)."""
    def link(match: re.Match) -> str:
        url = url_for(html.unescape(match.group(1)))
        return f'<a class="rk-ref" href="{esc(url)}">{match.group(2)}</a>' if url else match.group(2)
    return REFERENCE_LINK.sub(link, annotation.html)


def annotation_html(annotation: Annotation, url_for: UrlFor, changes: Optional[str] = None,
                    opened: bool = False) -> str:
    """An "Annotation" block: who wrote it and when, the edition it was written for, whether the rule has
    changed since (linking to `changes`, its word-level history), and the note."""
    authors = ", ".join(annotation.authors)
    written = (f'<time datetime="{esc(annotation.date)}">{esc(long_date(annotation.date))}</time>'
               if annotation.date else "")
    number = annotation.section.partition(":")[2]
    moved = annotation.target and annotation.target != annotation.section
    edition = (f'Written for the {esc(kinds.short_name(annotation.kind))} of '
               f'<time datetime="{esc(annotation.edition)}">{esc(long_date(annotation.edition))}</time>'
               + (f", where this rule was {esc(number)}" if moved else "") + ".")
    notices = []
    if annotation.changed_since:
        link = f' · <a href="{esc(changes)}">what changed</a>' if changes else ""
        notices.append(f'<p class="rk-annotation-changed">Written for the {esc(annotation.edition)} text; '
                       f'this rule has changed since{link}</p>')
    if annotation.orphaned:
        notices.append(f'<p class="rk-annotation-changed">This rule is not in the current edition: it was '
                       f'removed after the {esc(annotation.edition)} edition.</p>')
    changed = ' <span class="rk-annotation-flag">changed since</span>' if annotation.changed_since else ""
    return (f'<aside class="rk-annotation" aria-label="Annotation"><details{" open" if opened else ""}>'
            f'<summary><span class="rk-annotation-label">Annotation</span> '
            f'<span class="rk-annotation-by">{esc(authors)}{" · " if written else ""}{written}</span>'
            f'{changed}</summary>'
            f'{"".join(notices)}<div class="rk-annotation-body">{body_html(annotation, url_for)}</div>'
            f'<p class="rk-annotation-about">{edition}</p></details></aside>')


def by_section(corpus: Corpus) -> dict[str, list[Annotation]]:
    """The notes on each current rule."""
    found: dict[str, list[Annotation]] = {}
    for annotation in corpus.annotations:
        if annotation.target:
            found.setdefault(annotation.target, []).append(annotation)
    return found


def orphans_by_edition(corpus: Corpus) -> dict[str, list[Annotation]]:
    """Edition id -> the notes written for its rules that were removed since."""
    found: dict[str, list[Annotation]] = {}
    for annotation in corpus.annotations:
        if annotation.orphaned:
            found.setdefault(annotation.written_for.partition(":")[0], []).append(annotation)
    return found


def older_edition_notes(annotations: list[Annotation], url_for: UrlFor,
                        section_href: Callable[[str], Optional[str]], anchor: str = "annotations",
                        opened: bool = False) -> str:
    """On an older edition's page: the notes on its rules that later editions removed."""
    items = []
    for annotation in annotations:
        number = annotation.written_for.partition(":")[2]
        href = section_href(annotation.written_for)
        label = f'<a href="{esc(href)}">{esc(number)}</a>' if href else esc(number)
        items.append(f'<li><p class="rk-annotation-rule">{label}</p>'
                     f'{annotation_html(annotation, url_for, opened=opened)}</li>')
    return (f'<h2 id="{esc(anchor)}">Annotations on rules removed since</h2>'
            f'<ul class="rk-annotation-list">{"".join(items)}</ul>')


def annotations_page(corpus: Corpus, url_for: UrlFor, section_href: Callable[[str], Optional[str]],
                     changes: Callable[[Annotation], Optional[str]], titles: dict[str, str]) -> Page:
    """Every note, by document and rule; the ones on rules removed since last, linking to their edition."""
    out = ['<h1 id="annotations">Annotations</h1>',
           '<p class="rk-edition">Judges\u2019 commentary on the rules, each note under the rule it explains. '
           'The documents themselves prevail.</p>']
    current = [annotation for annotation in corpus.annotations if annotation.target]
    for kind in sorted({annotation.kind for annotation in current}, key=kinds.order):
        out.append(f'<h2 id="{esc(kind)}">{esc(kinds.title(kind))}</h2><ul class="rk-annotation-list">')
        for annotation in (a for a in current if a.kind == kind):
            number = annotation.target.partition(":")[2]
            title = titles.get(annotation.target, "")
            label = f'<span class="rk-num-inline">{esc(number)}</span> {esc(title)}'.strip()
            href = section_href(annotation.target)
            link = f'<a href="{esc(href)}">{label}</a>' if href else label
            out.append(f'<li><p class="rk-annotation-rule">{link}</p>'
                       f'{annotation_html(annotation, url_for, changes(annotation), opened=True)}</li>')
        out.append("</ul>")
    removed = [annotation for annotation in corpus.annotations if annotation.orphaned]
    if removed:
        out.append(older_edition_notes(removed, url_for, section_href, anchor="removed", opened=True))
    if not corpus.annotations:
        out.append("<p>No annotations yet.</p>")
    return Page(PAGE, "Annotations", "".join(out), description="Judges' annotations on the rules")
