"""Decide the site's pages from the corpus and render each one's body as HTML.

Which document is shown, how it is split into phone-sized pages, where every
section's anchor lives, the navigation tree, the home, penalty and glossary pages.
Pure function of the corpus: no mkdocs here (see `site`), no file writing.
"""
from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import Callable, Optional

from ..addresses import (KIND_ORDER, PAGE_LEVEL, SHORT_NAMES, Addresses, address_corpus, anchor_of, document_label,
                         glossary_id, term_anchor)
from ..model import Corpus, Document, GlossaryEntry, Section, slug
from . import changes as history_pages
from .render import (backlinks_html, blocks_html, esc, example_html, heading_html, linked_text, penalty_class,
                     penalty_html)

CATEGORY_ORDER = ["Game Play Error", "Tournament Error", "Unsporting Conduct"]


@dataclass
class Page:
    path: str                      # "cr/704.md"
    title: str
    body: str                      # HTML
    description: str = ""
    search_exclude: bool = False   # older editions: reachable, but not in the site's search


@dataclass
class Layout:
    """The site's pages and navigation, at the addresses every surface links to."""
    addresses: Addresses
    pages: dict[str, Page] = field(default_factory=dict)
    nav: list = field(default_factory=list)


def shown_documents(corpus: Corpus) -> list[Document]:
    """Every document gets pages: the current editions first, then excerpts and older editions."""
    return sorted(corpus.documents, key=lambda d: (not d.info.current, KIND_ORDER.get(d.info.kind, 9),
                                                   d.info.edition or ""))


# ---------------------------------------------------------------------------------------------
# Rendering


class Renderer:
    """Renders the pages of a planned layout."""

    def __init__(self, corpus: Corpus, layout: Layout):
        self.corpus = corpus
        self.layout = layout
        self.addresses = layout.addresses
        self.sections_by_id = {s.id: (d, s) for d in corpus.documents for s in d.sections}
        self.changes = history_pages.compute(corpus)
        self.history_paths = self._plan_history()

    def _plan_history(self) -> dict[str, str]:
        """Section id -> its history page, for the current sections that changed in some edition."""
        paths = {}
        for section_id in self.changes.last_changed:
            location = self.addresses.locations.get(section_id)
            if location:
                paths[section_id] = "history/" + location[0]
        return paths

    def render_all(self) -> Layout:
        layout = self.layout
        layout.pages["index.md"] = self.home_page()
        nav: list = [{"Home": "index.md"}]
        current_ipg = self.corpus.document("ipg")
        if current_ipg and current_ipg.penalties:
            layout.pages["penalties.md"] = self.penalties_page(current_ipg)
            nav.append({"Penalty quick reference": "penalties.md"})
        older: list = []
        for document in shown_documents(self.corpus):
            entry = {self.document_title(document): self.document_pages(document)}
            (nav if document.info.current and not document.info.excerpt else older).append(entry)
        if older:
            nav.append({"Excerpts and older documents": older})
        if self.changes.pairs:
            nav.append({"What changed": self.changes_pages()})
        self.history_pages()
        history_pages.HIGHLIGHTS.save()
        layout.nav = nav
        return layout

    # -- editions -----------------------------------------------------------------------------

    def changes_pages(self) -> list:
        layout = self.layout
        index_path = "changes/index.md"
        layout.pages[index_path] = Page(index_path, "What changed", history_pages.index_body(
            self.changes, lambda path: self.addresses.relative(index_path, path)), description="Changes between editions")
        nav: list = [{"All changes": index_path}]
        for old, new, diff in self.changes.pairs:
            path = history_pages.pair_path(old, new)
            body = history_pages.pair_page_body(old, new, diff, lambda target, path=path: self.addresses.href(path, target))
            title = history_pages.pair_title(old, new)
            layout.pages[path] = Page(path, f"What changed: {title}", body, description=f"What changed: {title}",
                                      search_exclude=True)
            nav.append({title: path})
        return nav

    def history_pages(self) -> None:
        by_page: dict[str, list[str]] = {}
        for section_id, path in self.history_paths.items():
            by_page.setdefault(path, []).append(section_id)
        order = {section_id: position for position, section_id in enumerate(self.sections_by_id)}  # document order
        for path, section_ids in by_page.items():
            page_path = path[len("history/"):]
            owner = self.layout.pages.get(page_path)
            title = owner.title if owner else page_path
            section_ids.sort(key=lambda sid: order.get(sid, 0))
            numbers = {sid: self.sections_by_id[sid][1].number for sid in section_ids if sid in self.sections_by_id}
            anchors = {sid: anchor_of(self.sections_by_id[sid][1]) for sid in section_ids if sid in self.sections_by_id}
            body = history_pages.history_body(title, section_ids, self.changes, numbers,
                                              lambda target, path=path: self.addresses.href(path, target), anchors)
            self.layout.pages[path] = Page(path, f"History: {title}", body, search_exclude=True)

    # -- documents --------------------------------------------------------------------------

    def document_title(self, document: Document) -> str:
        title = document.info.title
        if not document.info.current or document.info.excerpt:
            title += f" ({document.info.edition})" if document.info.edition and document.info.edition not in title else ""
        return title

    def document_pages(self, document: Document) -> list:
        """Render every page of a document; return its navigation subtree."""
        layout = self.layout
        by_id = {section.id: section for section in document.sections}
        children: dict[Optional[str], list[Section]] = {}
        for section in document.sections:
            children.setdefault(section.parent if section.parent in by_id else None, []).append(section)
        level = PAGE_LEVEL.get(document.info.kind, 1)
        index_path = f"{document.id}/index.md"
        nav: list = [{"Contents": index_path}]
        owners: dict[str, list[Section]] = {}
        for section in document.sections:
            path = self.addresses.locations[section.id][0]
            owners.setdefault(path, []).append(section)

        def nav_for(section: Section):
            path = self.addresses.locations[section.id][0]
            title = _nav_title(section)
            if section.level < level:
                kids = [nav_for(child) for child in children.get(section.id, [])]
                kids = [kid for kid in kids if kid]
                if path != index_path:
                    kids.insert(0, {title if not kids else "Overview": path})
                return {title: kids} if kids else None
            if path != index_path and self.addresses.locations[section.id][1] == anchor_of(section) and \
                    owners[path][0].id == section.id:
                return {title: path}
            return None

        for top in children.get(None, []):
            item = nav_for(top)
            if item:
                nav.append(item)
        for path, sections in owners.items():
            if path == index_path:
                continue
            layout.pages[path] = self.section_page(document, path, sections)
        if document.glossary:
            glossary_path = f"{document.id}/glossary.md"
            layout.pages[glossary_path] = self.glossary_page(document, glossary_path)
            nav.append({"Glossary": glossary_path})
        layout.pages[index_path] = self.document_index(document, index_path, children, owners.get(index_path, []))
        return nav

    def banner(self, document: Document) -> str:
        info = document.info
        notes = []
        if info.excerpt:
            notes.append("This is an <strong>excerpt</strong>, not the whole document.")
        if not info.current:
            notes.append("This is an <strong>older edition</strong>; the current one is in the main navigation.")
        if not info.complete and not info.excerpt:
            notes.append("This file is <strong>incomplete</strong>: it stops before the end of the document.")
        if info.note:
            notes.append(esc(info.note))
        if not notes:
            return ""
        return f'<div class="admonition warning rk-banner"><p class="admonition-title">{esc(document_label(document))}</p><p>{" ".join(notes)}</p></div>'

    def edition_line(self, document: Document) -> str:
        info = document.info
        parts = []
        if info.edition:
            parts.append(f"Effective {esc(info.edition)}")
        parts.append(f'source <code>{esc(info.source)}</code>')
        parts.append(f'<a href="{esc(self.data_href(document))}">JSON</a>')
        return f'<p class="rk-edition">{" · ".join(parts)}</p>'

    def data_href(self, document: Document, from_path: Optional[str] = None) -> str:
        from_path = from_path or f"{document.id}/index.md"
        depth = self.addresses.url(from_path).count("/")
        return "../" * depth + f"data/{document.id}.json"

    def document_index(self, document: Document, path: str, children, index_sections: list[Section]) -> Page:
        out = [f'<h1 id="top">{esc(document.info.title)}</h1>', self.edition_line(document), self.banner(document)]
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
        return Page(path, document.info.title, "".join(out), description=f"{document.info.title}, contents",
                    search_exclude=not self.searchable(document))

    def contents_html(self, document: Document, path: str, children) -> str:
        level = PAGE_LEVEL.get(document.info.kind, 1)

        def items(parent: Optional[str]) -> str:
            rows = []
            for section in children.get(parent, []):
                if section.level > level or not section.number and section.level >= level:
                    continue
                href = self.addresses.href(path, section.id)
                label = f'<span class="rk-num-inline">{esc(section.number)}</span> {esc(section.title)}'
                anchor = f' id="{esc(anchor_of(section))}"' if self.addresses.locations[section.id][0] == path else ""
                inner = items(section.id) if section.level < level else ""
                rows.append(f'<li{anchor}><a href="{esc(href)}">{label}</a>{inner}</li>')
            return f'<ul class="rk-contents">{"".join(rows)}</ul>' if rows else ""
        return items(None)

    def section_page(self, document: Document, path: str, sections: list[Section]) -> Page:
        top = sections[0]
        url_for = lambda target: self.addresses.href(path, target)  # noqa: E731
        bare = document.info.kind == "cr"
        page_url = "/" + self.addresses.url(path)
        out = [self.banner(document)]
        for section in sections:
            depth = section.level - top.level
            label = f"{SHORT_NAMES.get(document.info.kind, '')} {section.number or section.title}".strip()
            out.append(heading_html(section, 1 + depth, label, page_url))
            if section.id in self.history_paths:
                history = self.addresses.relative(path, self.history_paths[section.id]) + f"#{anchor_of(section)}"
                out.append(f'<p class="rk-changed">Changed in {esc(self.changes.last_changed[section.id])} · '
                           f'<a href="{esc(history)}">history</a></p>')
            if section.infraction:
                out.append(penalty_html(section.infraction.penalty))
            out.append(blocks_html(section.blocks, section.refs, url_for, bare, heading_level=2 + depth))
            in_body = {block.as_text() for block in section.blocks} | {block.text for block in section.blocks}
            for example in section.examples:
                if example not in in_body:   # some parsers keep examples in place in the body too
                    out.append(example_html(example, section.refs, url_for, bare))
            out.append(backlinks_html(self.citing(section.id, document, path)))
        if document.glossary:
            out.append(self.terms_used(document, sections, path))
        title = f"{top.number}. {top.title}" if top.number and top.title else (top.title or top.number)
        if document.info.kind == "ipg" and top.number:
            title = f"{top.number} {top.title}"
        description = f"{document_label(document)} {title}"
        return Page(path, title, "".join(out), description=description, search_exclude=not self.searchable(document))

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

    @staticmethod
    def searchable(document: Document) -> bool:
        """The site search holds the current editions only: one answer per rule, the one in force."""
        return document.info.current and not document.info.excerpt and not document.info.archived

    # -- glossary -----------------------------------------------------------------------------

    def glossary_page(self, document: Document, path: str) -> Page:
        url_for = lambda target: self.addresses.href(path, target)  # noqa: E731
        out = ['<h1 id="glossary">Glossary</h1>', self.banner(document)]
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
            out.append(f'<h3 id="{esc(anchor)}" class="rk-h rk-term">{esc(entry.term)}'
                       f'<button class="rk-copy" type="button" data-url="/{esc(self.addresses.url(path))}#{esc(anchor)}" '
                       f'aria-label="Copy link to {esc(entry.term)}" title="Copy link"></button></h3>')
            for paragraph in entry.text.split("\n\n"):
                out.append(f"<p>{linked_text(paragraph, entry.refs, url_for, document.info.kind == 'cr')}</p>")
        return Page(path, "Glossary", "".join(out), description=f"{document.info.title} glossary",
                    search_exclude=not self.searchable(document))

    def terms_used(self, document: Document, sections: list[Section], path: str) -> str:
        matcher = _glossary_matcher(document)
        found: dict[str, GlossaryEntry] = {}
        for section in sections:
            for entry in matcher(section.text):
                found.setdefault(entry.term, entry)
        if not found:
            return ""
        links = ", ".join(f'<a href="{esc(self.addresses.href(path, glossary_id(document, entry)) or "")}">{esc(entry.term)}</a>'
                          for entry in sorted(found.values(), key=lambda e: e.term.lower()))
        return (f'<details class="rk-terms" data-search-exclude><summary>Glossary terms on this page ({len(found)})'
                f'</summary><p>{links}</p></details>')

    # -- home and penalties ---------------------------------------------------------------------

    def home_page(self) -> Page:
        out = ['<h1 id="rulekb">Magic tournament rules</h1>',
               '<p class="rk-lead">The Comprehensive Rules, the Infraction Procedure Guide and the Magic Tournament '
               'Rules, cross-linked. Type a rule number (<code>704.5k</code>, <code>ipg 2.1</code>) or a phrase into '
               'the search.</p>']
        links = []
        ipg = self.corpus.document("ipg")
        if ipg and ipg.penalties:       # the same condition as the penalty page itself
            links.append(('penalties/', "Penalty quick reference", "every infraction and its penalty"))
        if ipg:
            links.append(("ipg/", "IPG infractions", "definitions, philosophy, remedies"))
        if self.corpus.document("cr"):
            links.append(("cr/", "Comprehensive Rules contents", "chapters, sections, glossary"))
        if self.corpus.document("mtr"):
            links.append(("mtr/", "Tournament Rules", "MTR chapters and appendices"))
        links.append(("search-tips/", "Search tips", "numbers, phrases, abbreviations"))
        if len(self.corpus.documents) > len({d.info.kind for d in self.corpus.documents}):
            links.append(("changes/", "What changed", "between the editions in this site"))
        out.append('<ul class="rk-quick">' + "".join(
            f'<li><a href="{href}"><strong>{esc(title)}</strong><span>{esc(note)}</span></a></li>'
            for href, title, note in links) + "</ul>")
        out.append('<h2 id="documents">Documents and editions</h2>')
        rows = []
        for document in sorted(self.corpus.documents, key=lambda d: (KIND_ORDER.get(d.info.kind, 9), not d.info.current, d.info.edition or "")):
            info = document.info
            status = []
            if info.archived:
                status.append("archived")
            elif info.current:
                status.append("current")
            if info.excerpt:
                status.append("excerpt")
            if not info.current and not info.excerpt:
                status.append("older edition")
            if not info.complete and not info.excerpt:
                status.append("incomplete")
            shown = f"{document.id}/index.md" in self.layout.pages or document in shown_documents(self.corpus)
            name = f'<a href="{esc(document.id)}/">{esc(info.title)}</a>' if shown else esc(info.title)
            rows.append(f"<tr><td>{name}</td><td>{esc(info.edition or '—')}</td><td>{esc(', '.join(status))}</td></tr>")
        out.append('<div class="rk-table"><table><thead><tr><th>Document</th><th>Effective</th><th>Status</th></tr></thead>'
                   f'<tbody>{"".join(rows)}</tbody></table></div>')
        return Page("index.md", "Home", "".join(out), description="Magic: The Gathering tournament rules reference",
                    search_exclude=True)

    def penalties_page(self, ipg: Document) -> Page:
        path = "penalties.md"
        groups: dict[str, list] = {}
        for penalty in ipg.penalties:
            groups.setdefault(penalty.category, []).append(penalty)
        order = sorted(groups, key=lambda c: next((i for i, name in enumerate(CATEGORY_ORDER) if name.lower() in c.lower()), 9))
        out = ['<h1 id="penalties">Penalty quick reference</h1>',
               f'<p class="rk-edition">From the Infraction Procedure Guide effective {esc(ipg.info.edition or "")}; '
               f'each row links to its infraction.</p>']
        for category in order:
            anchor = slug(category)
            out.append(f'<h2 id="{esc(anchor)}">{esc(_plural(category))}</h2>')
            out.append('<table class="rk-penalties"><thead><tr><th scope="col">Infraction</th>'
                       '<th scope="col">Penalty</th></tr></thead><tbody>')
            for penalty in groups[category]:
                href = self.addresses.href(path, penalty.section) if penalty.section else None
                number = penalty.section.split(":", 1)[1] if penalty.section else ""
                name = f'<span class="rk-num-inline">{esc(number)}</span> {esc(penalty.infraction)}'
                cell = f'<a href="{esc(href)}">{name}</a>' if href else name
                out.append(f'<tr><td>{cell}</td><td><span class="rk-pen rk-pen-{penalty_class(penalty.penalty)}">'
                           f'{esc(penalty.penalty)}</span></td></tr>')
            out.append("</tbody></table>")
        upgrades = self.upgrade_rules(ipg, path)
        if upgrades:
            out.append('<h2 id="upgrades">Upgrades and downgrades</h2>')
            out.append(upgrades)
        return Page(path, "Penalty quick reference", "".join(out), description="Every IPG infraction and its penalty")

    def upgrade_rules(self, ipg: Document, path: str) -> str:
        """The general rules that change a penalty, quoted from the IPG's general and category sections."""
        url_for = lambda target: self.addresses.href(path, target)  # noqa: E731
        out = []
        for section in ipg.sections:
            if section.infraction or section.kind == "appendix" or section.number.lower().startswith("appendix"):
                continue   # infractions speak for themselves; Appendix B's change notes are no rules
            for block in section.blocks:
                if re.search(r"\bupgrad|\bdowngrad", block.text, re.I):
                    href = self.addresses.href(path, section.id)
                    source = f' <a class="rk-src" href="{esc(href)}">({esc(section.number)})</a>' if href else ""
                    out.append(f"<li>{linked_text(block.text, section.refs, url_for)}{source}</li>")
        return f'<ul class="rk-upgrades">{"".join(out)}</ul>' if out else ""


def _plural(category: str) -> str:
    return category if category.endswith("s") or category.lower().endswith("conduct") else category + "s"


def _nav_title(section: Section) -> str:
    if section.number and section.title:
        # "704. State-Based Actions" for a CR section; "4.3 Out-of-Order Sequencing", "Appendix A Changes"
        dotted = "." in section.number or section.number.lower().startswith("appendix")
        return f"{section.number}{' ' if dotted else '. '}{section.title}"
    return section.title or section.number


_MATCHERS: dict[tuple[str, str], Callable] = {}


def _glossary_matcher(document: Document) -> Callable[[str], list[GlossaryEntry]]:
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


def render_site(corpus: Corpus, addresses: Optional[Addresses] = None) -> Layout:
    layout = Layout(addresses or address_corpus(corpus))
    return Renderer(corpus, layout).render_all()
