"""Where every section lives on the site: its page and its anchor. One answer for every surface.

The site renders its pages at these addresses; the search index, `rulekb show` and the API
link to them. A pure function of the corpus: which page holds a section is decided by the
document's kind (a CR section such as 704 gets a page, an IPG infraction, an MTR chapter, a
floor-rules group) and never by rendering. Knows no HTML and no mkdocs.
"""
from __future__ import annotations

import posixpath
from dataclasses import dataclass, field
from typing import Optional

from . import kinds
from .model import Corpus, Document, GlossaryEntry, Section, slug


@dataclass
class Addresses:
    """Section id -> (page file, anchor); page files are mkdocs paths ("cr/704.md")."""
    locations: dict[str, tuple[str, str]] = field(default_factory=dict)
    numbers: dict[str, str] = field(default_factory=dict)    # "cr 704.5k" -> "cr/704/#704.5k" (current editions)
    _relative: dict = field(default_factory=dict, repr=False)

    @staticmethod
    def url(path: str) -> str:
        """The site URL of a page file, as mkdocs writes it with directory URLs ("cr/704.md" -> "cr/704/")."""
        if path == "index.md":
            return ""
        return path[:-len("index.md")] if path.endswith("/index.md") else path[:-3] + "/"

    def link(self, section_id: str) -> Optional[str]:
        """The site-relative URL of a section ("cr/704/#704.5k"), or None if it has no page."""
        location = self.locations.get(section_id)
        if not location:
            return None
        return self.url(location[0]) + (f"#{location[1]}" if location[1] else "")

    def href(self, from_path: str, section_id: str) -> Optional[str]:
        """A section's URL relative to the page `from_path` ("../702/#702.19b")."""
        location = self.locations.get(section_id)
        if not location:
            return None
        page, anchor = location
        return self.relative(from_path, page) + (f"#{anchor}" if anchor else "")

    def relative(self, from_path: str, to_path: str) -> str:
        key = (from_path, to_path)
        found = self._relative.get(key)
        if found is None:      # thousands of links share a few hundred page pairs
            source = self.url(from_path) or "."
            target = self.url(to_path) or "."
            relative = posixpath.relpath(target, source)
            found = self._relative[key] = "./" if relative == "." else relative + "/"
        return found


def anchor_of(section: Section) -> str:
    """The in-page anchor of a section: its number as written ("704.5k"), or a slug for unnumbered ones."""
    key = section.id.split(":", 1)[1]      # "704.5k", "appendix-a", "704.5j-2" for a duplicated number
    return key if section.number else key.replace("/", "--")


def glossary_id(document: Document, entry: GlossaryEntry) -> str:
    return f"{document.id}:glossary/{term_anchor(entry)}"


def term_anchor(entry: GlossaryEntry) -> str:
    return "term-" + slug(entry.term)


def document_label(document: Document) -> str:
    """"CR", "IPG", "CR 2024" for an older edition."""
    label = kinds.short_name(document.info.kind)
    if not document.info.current:
        label += f" {document.info.edition[:4]}" if document.info.edition else f" ({document.id})"
    return label


def page_owner(document: Document, section: Section, by_id: dict[str, Section]) -> Section:
    """The ancestor (or the section itself) that owns the page this section appears on."""
    level = kinds.page_level(document.info.kind)
    current = section
    while current.level > level and current.parent and current.parent in by_id:
        current = by_id[current.parent]
    return current


def section_page_path(document: Document, owner: Section) -> str:
    return f"{document.id}/{slug(owner.number) if owner.number else anchor_of(owner)}.md"


def address_document(document: Document) -> Addresses:
    """The addresses of one document's sections and terms (each document's are its own: `rulekb show` needs
    only the one it shows)."""
    addresses = Addresses()
    _address_document(addresses, document)
    return addresses


def address_corpus(corpus: Corpus) -> Addresses:
    addresses = Addresses()
    for document in corpus.documents:
        _address_document(addresses, document)
    for document in corpus.documents:
        if document.info.current:
            for section in document.sections:
                link = addresses.link(section.id)
                if section.number and link:
                    addresses.numbers[f"{document.info.kind} {section.number.lower()}"] = link
    return addresses


def _address_document(addresses: Addresses, document: Document) -> None:
    by_id = {section.id: section for section in document.sections}
    level = kinds.page_level(document.info.kind)
    index_path = f"{document.id}/index.md"
    owners = {section.id: page_owner(document, section, by_id) for section in document.sections}
    # A chapter gets a page of its own when it has text, or sections below the page level hang from it
    # directly (an excerpt may lack the 800 heading between chapter 8 and rule 800.1).
    with_pages = {owner.id for section_id, owner in owners.items() if owner.id != section_id}
    for section in document.sections:
        owner = owners[section.id]
        if owner.level < level and not (owner.blocks or owner.examples) and owner.id not in with_pages:
            addresses.locations[section.id] = (index_path, anchor_of(section))   # a bare chapter heading
        else:
            addresses.locations[section.id] = (section_page_path(document, owner), anchor_of(section))
    for entry in document.glossary:
        addresses.locations[glossary_id(document, entry)] = (f"{document.id}/glossary.md", term_anchor(entry))
