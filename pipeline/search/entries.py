"""The corpus as search entries: every section and glossary term of the current editions.

Older editions and excerpts are not searched (a rule's old wordings are found through its
history page), but an infraction's former names are: what an older edition called the infraction
at its number ("Drawing Extra Cards", the 2.3 of 2014) is an alias of the current one (Hidden Card
Error), unless the current edition still has an infraction of that name elsewhere (Insufficient
Shuffling moved from 3.4 to 3.9). Each entry carries its address on the site, and a rule's
annotations as its commentary (a note on a rule removed since is not searched). A function of the
corpus (older editions are read from their cached parses).
"""
from __future__ import annotations

import re

from .. import kinds
from ..addresses import Addresses, address_corpus, glossary_id
from ..corpus import load_edition
from ..model import PARAGRAPH, SUBHEADING, Corpus, Document, Section
from ..parse.remedy import ordinary_fix
from .index import Entry

ACTION_CHARACTERS = 260       # what a result shows of what to do
SENTENCE_END = re.compile(r"(?<=[a-z0-9)”’\"][.!?])\s+(?=[A-Z“\"(])")


def searched_documents(corpus: Corpus) -> list[Document]:
    """The documents the search covers: the current edition of each (archived ones ranked last)."""
    return [document for document in corpus.documents if document.info.current and not document.info.excerpt]


def entries(corpus: Corpus, addresses: Addresses | None = None) -> list[Entry]:
    addresses = addresses or address_corpus(corpus)
    found = []
    order = 0
    commentary: dict[str, list[str]] = {}
    for annotation in corpus.annotations:
        if annotation.target:
            commentary.setdefault(annotation.target, []).append(annotation.body)
    for document in searched_documents(corpus):
        info = document.info
        by_id = {section.id: section for section in document.sections}
        former = former_names(corpus, document)
        parts = part_names(document)
        for section in document.sections:
            headings = []
            parent = by_id.get(section.parent) if section.parent else None
            while parent is not None:
                if parent.title:
                    headings.append(parent.title)
                parent = by_id.get(parent.parent) if parent.parent else None
            found.append(Entry(
                id=section.id, document=document.id, kind=info.kind, number=section.number,
                # Headings help a rule without a title of its own; a titled section is found by its title.
                section_kind=section.kind, title=section.title,
                headings="" if section.title else " › ".join(reversed(headings)),
                text="\n".join([section.text, *section.examples]), url=addresses.link(section.id) or "",
                edition=info.edition or "", order=order, archived=info.archived,
                penalty=section.infraction.penalty if section.infraction else "", parent=section.parent or "",
                aliases="\n".join(names(section, parts)),
                former="\n".join(former.get(section.number, ())), action=action(info.kind, section),
                commentary="\n\n".join(commentary.get(section.id, ())),
                cites=" ".join(dict.fromkeys(ref.target for ref in section.refs
                                             if ref.target and not ref.target.startswith(document.id + ":")))))
            order += 1
        for entry in document.glossary:
            entry_id = glossary_id(document, entry)
            found.append(Entry(
                id=entry_id, document=document.id, kind=info.kind, number="", section_kind="glossary",
                title=entry.term, headings="", text=entry.text, url=addresses.link(entry_id) or "",
                edition=info.edition or "", order=order, archived=info.archived, aliases=" ".join(entry.names),
                targets=" ".join(ref.target for ref in entry.refs if ref.target)))
            order += 1
    return found


def names(section: Section, parts: dict[str, list[str]]) -> list[str]:
    """What a section is called beside its title: an infraction's name, the names of its parts (`part_names`)."""
    return ([section.infraction.name] if section.infraction else []) + parts.get(section.id, [])


def part_names(document: Document) -> dict[str, list[str]]:
    """Section id -> the names of its parts: its subheadings that no other section of the document has ("Game Loss",
    "Disqualification" in the IPG's Definition of Penalties). A subheading every infraction has ("Definition",
    "Philosophy") says how a section is laid out, not what it is about."""
    def key(text: str) -> str:
        return " ".join(text.casefold().split())
    held: dict[str, set[str]] = {}
    for section in document.sections:
        for block in section.blocks:
            if block.kind == SUBHEADING and block.text.strip():
                held.setdefault(key(block.text), set()).add(section.id)
    found: dict[str, list[str]] = {}
    for section in document.sections:
        for block in section.blocks:
            if block.kind == SUBHEADING and len(held.get(key(block.text), ())) == 1:
                own = found.setdefault(section.id, [])
                if block.text.strip() not in own:
                    own.append(block.text.strip())
    return found


def former_names(corpus: Corpus, document: Document) -> dict[str, list[str]]:
    """Number -> the names older editions of the document gave the infraction at that number, where
    the current edition names it otherwise, has no infraction of that name any more, and did not split it."""
    current = {section.number: section.infraction.name for section in document.sections if section.infraction}
    if not current:
        return {}          # a document without infractions: its older editions are not read
    names = {_name_key(name) for name in current.values()}
    found: dict[str, list[str]] = {}
    for info in corpus.editions:
        if info.kind != document.info.kind or info.current or info.archived or info.id == document.id:
            continue
        older = load_edition(corpus, info.id, linked=False)
        for section in older.sections if older is not None else ():
            name = section.infraction.name if section.infraction else ""
            if section.number in current and name and _name_key(name) not in names and not _split(name, current):
                known = found.setdefault(section.number, [])
                if _name_key(name) not in {_name_key(other) for other in known}:
                    known.append(name)
    return found


def _split(name: str, current: dict[str, str]) -> bool:
    """Whether a former name holds every word of two current names: an infraction split since ("Deck/Decklist
    Problem", now Decklist Problem and Deck Problem), which the old name does not name one of."""
    words = set(_name_key(name).split())
    return sum(1 for other in current.values() if set(_name_key(other).split()) <= words) >= 2


def _name_key(name: str) -> str:
    return " ".join(re.findall(r"\w+", name.casefold()))


def action(kind: str, section: Section) -> str:
    """What a judge does, as a result shows it: the first sentence of an infraction's fix in the ordinary case
    (parse.remedy: not a simple backup or another exception the remedy opens with), of a Regular REL
    situation's fix (the JAR's first paragraph)."""
    if section.infraction is not None:
        text = ordinary_fix(section)
    elif kinds.kind(kind) is not None and kinds.kind(kind).fix_first:
        text = next((block.text for block in section.blocks if block.kind == PARAGRAPH), "")
    else:
        return ""
    return first_sentence(text)


def first_sentence(text: str) -> str:
    text = " ".join(text.split())
    sentence = SENTENCE_END.split(text, maxsplit=1)[0]
    if len(sentence) > ACTION_CHARACTERS:
        sentence = sentence[:ACTION_CHARACTERS].rsplit(" ", 1)[0] + " …"
    return sentence
