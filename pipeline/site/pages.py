"""The pages of the current editions: each document's contents, its section pages, its glossary.

A section page shows its rules densely: a titled rule is a heading, an untitled one starts with
its number inline; a long section (CR 702: every keyword) opens with a contents list of its
titled rules. An infraction shows its penalty with what changes it (upgrades, downgrades, the
category's rule for repeats) beside it. Pure function of the corpus: no mkdocs, no file writing.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from .. import kinds
from ..addresses import Addresses, anchor_of, document_label, glossary_id, term_anchor
from ..build_date import long_date
from ..model import ERROR, SUBHEADING, Corpus, Document, DocumentInfo, GlossaryEntry, Section
from .render import (
    backlinks_html,
    blocks_html,
    boxed_blocks,
    esc,
    examples_html,
    heading_html,
    jumps_html,
    linked_text,
    penalty_path_html,
    rule_html,
)

# A section page with this many titled rules or more opens with a contents list of them.
CONTENTS_FROM = 8
# A document's index lists a page's titled rules under it, folded, from this many (every MTR chapter alike,
# whether it holds 6 sections or 16).
INDEX_RULES_FROM = 2
# A document whose index lists more sections than this shows it folded, chapter by chapter.
FOLD_INDEX_FROM = 60
UPGRADE = re.compile(r"\bupgrad", re.I)
REMEDY = re.compile(r"\bremedy\b", re.I)
REMEDY_ANCHOR = "remedy"


@dataclass
class Page:
    path: str                      # "cr/704.md"
    title: str
    body: str                      # HTML
    description: str = ""
    alternates: tuple[tuple[str, str], ...] = ()    # the page in each language it is in: (language, page path)


@dataclass
class Layout:
    """The site's pages and navigation, at the addresses every surface links to."""
    addresses: Addresses
    pages: dict[str, Page] = field(default_factory=dict)
    nav: list = field(default_factory=list)


@dataclass
class Histories:
    """What the history pages give the rule pages: when a rule last changed, where its history is."""
    last_changed: dict[str, str] = field(default_factory=dict)      # current section id -> edition
    pages: dict[str, str] = field(default_factory=dict)             # current page path -> its history page path
    # kind -> its upcoming editions: (info, the page of what changes, the page of the preview)
    upcoming: dict[str, list[tuple[DocumentInfo, str, str]]] = field(default_factory=dict)


def numbered_label(section: Section) -> str:
    """"702.19 Trample" with its number set apart; a section without a number (a JAR situation) by its title."""
    if not section.number:
        return esc(section.title)
    return f'<span class="rk-num-inline">{esc(section.number)}</span> {esc(section.title)}'


def part_anchors(section: Section) -> dict[int, str]:
    """An id for each subheading of a section ("definition", "philosophy"); its remedy's is "remedy", the
    jump near the top of an infraction leads there."""
    anchors: dict[int, str] = {}
    for index, block in enumerate(section.blocks):
        if block.kind != SUBHEADING:
            continue
        anchor = (REMEDY_ANCHOR if REMEDY.search(block.text)
                  else re.sub(r"[^a-z0-9]+", "-", block.text.lower()).strip("-"))
        if anchor and anchor not in anchors.values():
            anchors[index] = anchor
    return anchors


def current_documents(corpus: Corpus) -> list[Document]:
    return sorted(corpus.documents, key=lambda d: (kinds.order(d.info.kind), d.info.edition or ""))


class DocumentPages:
    """Renders every page of the current editions."""

    def __init__(self, corpus: Corpus, layout: Layout, histories: Histories,
                 notes: Optional[Callable[[Section, str], str]] = None, fix: Optional[Callable[[Section], str]] = None):
        self.corpus = corpus
        self.fix = fix or (lambda section: "")           # an infraction's fix in the ordinary case
        self.notes = notes or (lambda section, path: "")     # the annotations under a rule (site.annotations)
        self.layout = layout
        self.addresses = layout.addresses
        self.histories = histories
        self.sections_by_id = {s.id: (d, s) for d in corpus.documents for s in d.sections}

    def render(self, document: Document) -> list:
        """Every page of a document; its navigation subtree."""
        by_id = {section.id: section for section in document.sections}
        children: dict[Optional[str], list[Section]] = {}
        for section in document.sections:
            children.setdefault(section.parent if section.parent in by_id else None, []).append(section)
        index_path = f"{document.id}/index.md"
        owners: dict[str, list[Section]] = {}
        for section in document.sections:
            owners.setdefault(self.addresses.locations[section.id][0], []).append(section)
        for path, sections in owners.items():
            if path != index_path:
                self.layout.pages[path] = self.section_page(document, path, sections)
        if document.glossary:
            glossary_path = f"{document.id}/glossary.md"
            self.layout.pages[glossary_path] = self.glossary_page(document, glossary_path)
        self.layout.pages[index_path] = self.document_index(document, index_path, children)
        return self.nav(document, children, owners, index_path)

    def nav(self, document: Document, children, owners, index_path: str) -> list:
        level = kinds.page_level(document.info.kind)
        nav: list = [{"Contents": index_path}]

        def nav_for(section: Section):
            path = self.addresses.locations[section.id][0]
            title = nav_title(section)
            if section.level < level:
                kids = [kid for kid in (nav_for(child) for child in children.get(section.id, [])) if kid]
                if path != index_path:
                    kids.insert(0, {title if not kids else "Overview": path})
                return {title: kids} if kids else None
            if path != index_path and owners[path][0].id == section.id:
                return {title: path}
            return None

        for top in children.get(None, []):
            item = nav_for(top)
            if item:
                nav.append(item)
        if document.glossary:
            nav.append({"Glossary": f"{document.id}/glossary.md"})
        return nav

    # -- a document's front page --------------------------------------------------------------

    def document_index(self, document: Document, path: str, children) -> Page:
        out = [f'<h1 id="top">{esc(document.info.title)}</h1>', self.edition_line(document, path), banner(document),
               self.upcoming_note(document, path)]
        if document.front_matter:
            out.append('<details class="rk-front"><summary>Introduction</summary>')
            out.append(blocks_html(document.front_matter, (), lambda _: None))
            out.append("</details>")
        out.append('<h2 id="contents">Contents</h2>')
        out.append(self.contents_html(document, path, children))
        if document.credits:
            out.append('<details class="rk-front"><summary>Credits and notices</summary>')
            out.append(blocks_html(document.credits, (), lambda _: None))
            out.append("</details>")
        return Page(path, document.info.title, "".join(out), description=f"{document.info.title}, contents")

    def edition_line(self, document: Document, path: str, data_link: bool = True) -> str:
        """Which edition a page shows and since when it is in force."""
        info = document.info
        parts = [esc(kinds.short_name(info.kind))]
        if info.edition:
            since = "takes effect on" if info.upcoming else "in effect since"
            parts.append(f'{since} <time class="rk-date" datetime="{esc(info.edition)}">'
                         f'{esc(long_date(info.edition))}</time>')
        if data_link:
            parts.append(f'<a href="{esc(self.addresses.relative(path, "index.md"))}data/{esc(document.id)}.json">'
                         f'JSON</a>')
        return f'<p class="rk-edition">{" · ".join(parts)}</p>'

    def upcoming_note(self, document: Document, path: str) -> str:
        """On every page of a document with an edition not yet in force: when it takes effect and what it
        changes. A saved copy notices by itself when the device's date has passed it (assets/dates.js)."""
        notes = []
        for info, changes, preview in self.histories.upcoming.get(document.info.kind, []):
            when = esc(long_date(info.edition or ""))
            changes_link = (f' — <a href="{esc(self.addresses.relative(path, changes))}">what changes</a>'
                            if changes else "")
            notes.append(
                f'<div class="rk-upcoming" role="note" data-effective="{esc(info.edition or "")}" '
                f'data-preview="{esc(self.addresses.relative(path, preview))}" data-when="{when}">'
                f'<p>A new edition takes effect on <strong>{when}</strong>{changes_link} · '
                f'<a href="{esc(self.addresses.relative(path, preview))}">read it</a></p></div>')
        return "".join(notes) + dates_script(self.addresses.relative(path, "index.md")) if notes else ""

    def contents_html(self, document: Document, path: str, children) -> str:
        """Chapters and sections down to the page level, and under each page its titled rules (702.19 Trample)."""
        level = kinds.page_level(document.info.kind)
        # a long index (the CR's 9 chapters hold about 150 sections) opens chapter by chapter
        folded = sum(1 for section in document.sections if section.level <= level and section.number) > FOLD_INDEX_FROM

        def items(parent: Optional[str], depth: int) -> str:
            rows = []
            for section in children.get(parent, []):
                if section.level > level:
                    continue
                href = self.addresses.href(path, section.id)
                label = numbered_label(section)
                anchor = f' id="{esc(anchor_of(section))}"' if self.addresses.locations[section.id][0] == path else ""
                inner = (items(section.id, depth + 1) if section.level < level
                         else self.titled_rules(section, path, children))
                if folded and depth == 0 and inner:
                    rows.append(f'<li{anchor}><details class="rk-fold rk-chapter"><summary><a href="{esc(href)}">'
                                f'{label}</a></summary>{inner}</details></li>')
                else:
                    rows.append(f'<li{anchor}><a href="{esc(href)}">{label}</a>{inner}</li>')
            return f'<ul class="rk-contents">{"".join(rows)}</ul>' if rows else ""
        return items(None, 0)

    def titled_rules(self, section: Section, path: str, children) -> str:
        """A page's titled rules, folded: "702. Keyword Abilities" opens onto 702.2 Deathtouch ... 702.190."""
        titled = [child for child in children.get(section.id, []) if child.title]
        if len(titled) < INDEX_RULES_FROM:
            return ""
        links = "".join(f'<li><a href="{esc(self.addresses.href(path, child.id))}">{numbered_label(child)}</a></li>'
                        for child in titled)
        count = f"{len(titled)} rules in {section.number}" if section.number else f"{len(titled)} in {section.title}"
        return (f'<details class="rk-fold"><summary>{esc(count)}</summary>'
                f'<ul class="rk-contents rk-columns">{links}</ul></details>')

    # -- a section page --------------------------------------------------------------------------

    def section_page(self, document: Document, path: str, sections: list[Section]) -> Page:
        top = sections[0]
        url_for = lambda target: self.addresses.href(path, target)
        out = [banner(document), heading_html(top, 1), self.edition_line(document, path, data_link=False),
               self.upcoming_note(document, path)]
        history = self.histories.pages.get(path)
        if history:
            out.append(self.changed_note(top, path, history, page=True))
        anchors = part_anchors(top) if top.infraction else {}
        if top.infraction:
            remedy = next((anchor for anchor in anchors.values() if anchor == REMEDY_ANCHOR), "")
            out.append(jumps_html(anchors, top.blocks))
            out.append(penalty_path_html(top.infraction, self.repeat_rule(document, top, path), url_for,
                                         self.fix(top), remedy))
        out.append(self.page_contents(sections, self.addresses.relative(path, "index.md")))
        out.append(blocks_html(top.blocks, top.refs, url_for, heading_level=2, anchors=anchors,
                               leave_out=boxed_blocks(top)))
        out.append(examples_html(top, url_for))
        out.append(self.notes(top, path))
        out.append(backlinks_html(self.citing(top.id, document, path)))
        parts = Parts(out)
        for section in sections[1:]:
            after = self.changed_note(section, path, history) + self.notes(section, path)
            citing = self.citing(section.id, document, path)
            if section.title or not section.number:
                depth = max(2, min(section.level - top.level + 1, 4))
                if depth == 2:
                    parts.open()
                parts.count()
                out.append(heading_html(section, depth))
                out.append(blocks_html(section.blocks, section.refs, url_for, heading_level=depth + 1))
                out.append(examples_html(section, url_for))
                out.append(after + backlinks_html(citing))
            else:
                parts.count()
                out.append(rule_html(section, url_for, after, backlinks_html(citing, beside=True)))
        parts.close()
        if document.glossary:
            out.append(self.terms_used(document, sections, path))
        if history:
            out.append(f'<p class="rk-page-history"><a href="{esc(self.addresses.relative(path, history))}">'
                       f'History of every rule on this page</a></p>')
        title = f"{top.number}. {top.title}" if top.number and top.title else (top.title or top.number)
        if kinds.kind(document.info.kind).numbered_titles and top.number:
            title = f"{top.number} {top.title}"
        return Page(path, title, "".join(out), description=f"{document_label(document)} {title}")

    def page_contents(self, sections: list[Section], root: str) -> str:
        """A long page's titled rules as a list of links at its top (CR 702: every keyword)."""
        titled = [section for section in sections[1:] if section.title and section.number]
        if len(titled) < CONTENTS_FROM:
            return ""
        links = "".join(f'<li><a href="#{esc(anchor_of(section))}">{numbered_label(section)}</a></li>'
                        for section in titled)
        return (f'<details class="rk-toc"><summary>On this page: {len(titled)} rules</summary>'
                f'<input type="search" class="rk-filter" aria-label="Filter the rules on this page" '
                f'placeholder="Filter: trample, 702.19" autocomplete="off" hidden>'
                f'<ul class="rk-contents rk-columns">{links}</ul></details>'
                f'<script src="{esc(root)}assets/contents.js" defer></script>')

    def changed_note(self, section: Section, path: str, history: Optional[str], page: bool = False) -> str:
        edition = self.histories.last_changed.get(section.id)
        if not edition or not history:
            return ""
        href = self.addresses.relative(path, history) + f"#{anchor_of(section)}"
        return (f'<p class="rk-changed">Changed in <span class="rk-date">{esc(edition)}</span> · '
                f'<a href="{esc(href)}">history</a></p>')

    def repeat_rule(self, document: Document, infraction: Section, path: str) -> Optional[tuple[str, str]]:
        """The category's rule for repeated offenses ("the third or subsequent Warning ... Game Loss")."""
        category = self.sections_by_id.get(infraction.parent or "")
        if category is None:
            return None
        for block in category[1].blocks:
            if UPGRADE.search(block.text):
                return block.text, self.addresses.href(path, category[1].id) or ""
        return None

    def citing(self, section_id: str, document: Document, from_path: str) -> list[tuple[str, str]]:
        found = []
        for citing_id in self.corpus.backlinks.get(section_id, ()):
            href = self.addresses.href(from_path, citing_id)
            citing = self.sections_by_id.get(citing_id)
            if not href or not citing:
                continue
            citing_document, citing_section = citing
            label = citing_section.number or citing_section.title
            if citing_document.id != document.id:
                label = f"{document_label(citing_document)} {label}"
            found.append((label, href))
        return found

    # -- glossary -----------------------------------------------------------------------------

    def glossary_page(self, document: Document, path: str) -> Page:
        url_for = lambda target: self.addresses.href(path, target)
        out = ['<h1 id="glossary">Glossary</h1>', self.edition_line(document, path, data_link=False), banner(document),
               self.upcoming_note(document, path)]
        letters = sorted({entry.term[:1].upper() for entry in document.glossary if entry.term[:1].isalpha()})
        out.append('<nav class="rk-letters" aria-label="Glossary letters">' +
                   "".join(f'<a href="#letter-{letter.lower()}">{letter}</a>' for letter in letters) + "</nav>")
        seen_letters = set()
        for entry in document.glossary:
            letter = entry.term[:1].upper()
            if letter.isalpha() and letter not in seen_letters:
                seen_letters.add(letter)
                out.append(f'<h2 id="letter-{letter.lower()}" class="rk-letter">{letter}</h2>')
            anchor = term_anchor(entry)
            out.append(f'<h3 id="{esc(anchor)}" class="rk-h rk-term"><a class="rk-num" href="#{esc(anchor)}">'
                       f'{esc(entry.term)}</a></h3>')
            offset = 0
            for paragraph in entry.text.split("\n\n"):
                out.append(f"<p>{linked_text(paragraph, entry.refs, url_for, offset)}</p>")
                offset += len(paragraph) + 2
        return Page(path, "Glossary", "".join(out), description=f"{document.info.title} glossary")

    def terms_used(self, document: Document, sections: list[Section], path: str) -> str:
        matcher = glossary_matcher(document)
        found: dict[str, GlossaryEntry] = {}
        for section in sections:
            for entry in matcher(section.text):
                found.setdefault(entry.term, entry)
        if not found:
            return ""
        links = " ".join(f'<a href="{esc(self.addresses.href(path, glossary_id(document, entry)) or "")}">'
                         f'{esc(entry.term)}</a>' for entry in sorted(found.values(), key=lambda e: e.term.lower()))
        return (f'<details class="rk-terms"><summary>Glossary terms on this page ({len(found)})</summary>'
                f'<p class="rk-chips">{links}</p></details>')


class Parts:
    """A page's top-level titled rules, each with the rules under it, as one `<section class="rk-part">`
    (CR 702: a keyword and its subrules). A long page lays out only the parts near the screen
    (rulekb.css: content-visibility), so the parts are what a phone skips: a skipped part's rules are
    neither styled nor laid out, which the rules one by one were not. `--rk-rules` (how many rules the
    part holds) lets the stylesheet guess the height of a part not yet drawn."""

    def __init__(self, out: list[str]):
        self.out = out
        self.start: Optional[int] = None       # where the open part's tag goes in `out`
        self.rules = 0

    def open(self) -> None:
        self.close()
        self.start = len(self.out)
        self.out.append("")
        self.rules = 0

    def count(self) -> None:
        self.rules += 1

    def close(self) -> None:
        if self.start is None:
            return
        self.out[self.start] = f'<section class="rk-part" style="--rk-rules:{self.rules}">'
        self.out.append("</section>")
        self.start = None


def dates_script(root: str) -> str:
    """The script that turns a saved page's "takes effect on" note into "now in force" once the date passes."""
    return f'<script src="{esc(root)}assets/dates.js" defer></script>'


def banner(document: Document) -> str:
    info = document.info
    notes = []
    if info.excerpt:
        notes.append("This is an <strong>excerpt</strong>, not the whole document.")
    if info.current and info.upcoming:
        notes.append(f"This edition takes effect on <strong>{esc(long_date(info.edition or ''))}</strong>; "
                     f"no earlier edition is in this site, so it is shown before its date.")
    if not info.current:
        notes.append("This is an <strong>older edition</strong>.")
    if not info.complete and not info.excerpt:
        notes.append(incomplete_note(document))
    if info.note:
        notes.append(esc(info.note))
    if not notes:
        return ""
    return (f'<div class="admonition warning rk-banner"><p class="admonition-title">{esc(document_label(document))}</p>'
            f'<p>{" ".join(notes)}</p></div>')


def incomplete_note(document: Document) -> str:
    """Why a document is not to be trusted whole: its first error, where it is, and how many there are."""
    errors = [problem for problem in document.problems if problem.severity == ERROR]
    if not errors:
        return "This file is <strong>incomplete</strong>: it stops before the end of the document."
    first = errors[0]
    where = f"line {first.line}" + (f", page {first.page}" if first.page else "") if first.line else "the file"
    more = f" ({len(errors) - 1} more: <code>rulekb check</code> lists them)" if len(errors) > 1 else ""
    return (f"This document <strong>did not pass its checks</strong>, so what this page shows may be missing or "
            f"wrong: {esc(first.message)} ({esc(first.file)}, {where}){more}.")


def nav_title(section: Section) -> str:
    if section.number and section.title:
        # "704. State-Based Actions" for a CR section; "4.3 Out-of-Order Sequencing", "Appendix A Changes"
        dotted = "." in section.number or section.number.lower().startswith("appendix")
        return f"{section.number}{' ' if dotted else '. '}{section.title}"
    return section.title or section.number


_MATCHERS: dict[tuple[str, str], Callable] = {}


def glossary_matcher(document: Document) -> Callable[[str], list[GlossaryEntry]]:
    """Finds the glossary terms a text uses, by looking up its word n-grams (fast for ~700 terms)."""
    key = (document.id, document.info.sha256)    # not id(document): a freed object's id is reused
    cached = _MATCHERS.get(key)
    if cached:
        return cached
    terms: dict[tuple[str, ...], GlossaryEntry] = {}
    first_words: dict[str, int] = {}     # first word of a term -> the most words a term starting with it has
    for entry in document.glossary:
        for name in entry.names or (entry.term,):
            name = re.sub(r"\s*\(obsolete\)\s*$", "", name, flags=re.I)
            words = tuple(re.findall(r"[a-z0-9’'-]+", name.lower()))
            if words and len(name) > 2:
                terms.setdefault(words, entry)
                first_words[words[0]] = max(first_words.get(words[0], 0), len(words))

    def match(text: str) -> list[GlossaryEntry]:
        words = re.findall(r"[a-z0-9’'-]+", text.lower())
        found = []
        for start, word in enumerate(words):
            longest = first_words.get(word)
            if not longest:
                continue
            for size in range(min(longest, len(words) - start), 0, -1):
                entry = terms.get(tuple(words[start:start + size]))
                if entry:
                    found.append(entry)
                    break
        return found
    _MATCHERS[key] = match
    return match

