"""Resolve references once every document's sections are known, and record backlinks.

Parsers record references as written; this stage decides which section each names
(within its document, or in another document the text names), leaves the ones it
cannot resolve as written with target None, and reports each of those as a Problem.

Judging at Regular REL cites no numbers: it names the MTR's and the IPG's sections by their
titles ("Rules Enforcement Level", "Tardiness", "Game Loss"). Those mentions become references
here, where every document's titles are known (`mention_references`).
"""
from __future__ import annotations

import bisect
import re
from dataclasses import replace
from operator import is_not
from typing import Iterable, Optional
from urllib.parse import urlsplit

from . import kinds
from .model import SUBHEADING, WARNING, Corpus, Document, GlossaryEntry, Problem, Reference, Section
from .parse.common import field_changer, without_cycle_collection
from .parse.refs import title_key
from .read import SourceText

TITLE_WORDS = re.compile(r"[a-z0-9]+")
# An HTML source's anchor may start with its kind ("#ipg-2-1", "#cr704.5k"): the number follows.
KIND_PREFIX = re.compile(rf"^(?:{'|'.join(kinds.IDS)})[-_]?")
_with_target = field_changer(Reference, "target")
_with_refs = field_changer(Section, "refs")
_entry_with_refs = field_changer(GlossaryEntry, "refs")


class _Targets:
    """Every section of every document, findable by (document id, number)."""

    def __init__(self, documents: list[Document]):
        self.documents = documents
        self.numbers: dict[str, dict[str, Section]] = {}
        for document in documents:
            table = {}
            for section in document.sections:
                if section.number:
                    table.setdefault(section.number.lower(), section)
                if section.title:   # references by title ("Game Play Error — Missed Trigger") use this key
                    table.setdefault(title_key(section.title), section)
            self.numbers[document.id] = table

    def find(self, document: Document, number: str) -> Optional[Section]:
        table = self.numbers.get(document.id, {})
        number = number.lower().rstrip(".")
        return table.get(number) or table.get(f"appendix {number}")

    def of_kind(self, kind: str, citing: Document) -> list[Document]:
        """Documents of a kind, best first for a citation from `citing`: the same era, then current."""
        same_kind = [document for document in self.documents if document.info.kind == kind]
        edition = citing.info.edition or "9999"

        def rank(document: Document):
            before = (document.info.edition or "") <= edition
            return (before, document.info.complete and not document.info.excerpt,
                    document.info.edition or "" if before else "", document.info.current)
        return sorted(same_kind, key=rank, reverse=True)


@without_cycle_collection
def link_corpus(documents: Iterable[Document], problems: Iterable[Problem] = ()) -> Corpus:
    documents = list(documents)
    documents = [mention_references(document, documents) if document.info.kind in MENTIONING else document
                 for document in documents]
    targets = _Targets(documents)
    found_problems = list(problems)
    linked = []
    backlinks: dict[str, list[str]] = {}
    for document in documents:
        unresolved: list[Problem] = []
        sections = []
        resolve = _Resolver(document, targets).resolve
        for section in document.sections:
            refs = section.refs
            if not refs:            # (most sections)
                sections.append(section)
                continue
            refs = tuple([resolve(ref, section) for ref in refs])
            if any(map(is_not, refs, section.refs)):     # (map: no generator per section)
                section = _with_refs(section, refs)
            sections.append(section)
            section_id = section.id
            for ref in refs:
                target = ref.target
                if target:
                    citing = backlinks.setdefault(target, [])
                    if (not citing or citing[-1] != section_id) and section_id not in citing \
                            and target != section_id:
                        citing.append(section_id)
                else:
                    unresolved.append(_unresolved_problem(ref, document))
        glossary = []
        for entry in document.glossary:
            if not entry.refs:
                glossary.append(entry)
                continue
            refs = tuple([resolve(ref, None) for ref in entry.refs])
            for ref in refs:
                if not ref.target:
                    unresolved.append(_unresolved_problem(ref, document))
            changed_any = any(map(is_not, refs, entry.refs))
            glossary.append(_entry_with_refs(entry, refs) if changed_any else entry)
        linked.append(replace(document, sections=tuple(sections), glossary=tuple(glossary),
                              problems=tuple(document.problems) + tuple(_dedupe(unresolved))))
    return Corpus(documents=tuple(linked), problems=tuple(found_problems),
                  backlinks={target: tuple(citing) for target, citing in backlinks.items()})


def found_in_any_current_document(ref: Reference, document: Document) -> bool:
    """Whether an unresolved reference may be found in the current documents of every kind, its own
    included: one by title ("Unsporting Conduct — Cheating", "Tardiness (3.1)"), not by number alone."""
    if ref.target or _names_another_kind(ref, document):
        return False
    return "(" in ref.text or not _by_number(ref)


def _names_another_kind(ref: Reference, document: Document) -> bool:
    return bool(ref.document) and ref.document not in (document.info.kind, document.id)


def _by_number(ref: Reference) -> bool:
    return ref.number[:1].isdigit() or ref.number.lower().startswith("appendix")


class _Resolver:
    """_resolve for the references of one document, the commonest kind (a number in the document itself,
    no title beside it: "rule 704.5k") looked up once per number."""
    __slots__ = ("document", "targets", "found")

    def __init__(self, document: Document, targets: _Targets):
        self.document = document
        self.targets = targets
        self.found: dict[str, Optional[str]] = {}     # number -> the id of the section it names (None: none)

    def resolve(self, ref: Reference, section: Optional[Section]) -> Reference:
        if ref.target or ref.document or "(" in ref.text:
            return _resolve(ref, self.document, section, self.targets)
        number = ref.number
        try:
            target = self.found[number]
        except KeyError:
            if not _by_number(ref):
                return _resolve(ref, self.document, section, self.targets)
            found = self.targets.find(self.document, number)
            target = self.found[number] = found.id if found else None
        return _with_target(ref, target) if target else ref


def _resolve(ref: Reference, document: Document, section: Optional[Section], targets: _Targets) -> Reference:
    if ref.target:
        return ref
    if _names_another_kind(ref, document):
        for candidate in targets.of_kind(ref.document, document):
            found = targets.find(candidate, ref.number)
            if found:
                return _with_target(ref, found.id)
        return ref
    if not _by_number(ref):
        return _resolve_title(ref, document, targets)
    found = targets.find(document, ref.number)
    if found and _title_agrees(ref, found):
        return _with_target(ref, found.id)
    if "(" in ref.text:
        # "Tardiness (3.1)" written in one document about another: the title decides which.
        for other in targets.documents:
            if other is document:
                continue
            candidate = targets.find(other, ref.number)
            if candidate and _title_agrees(ref, candidate, required=True) and other.info.current:
                return _with_target(ref, candidate.id)
    return ref


def _resolve_title(ref: Reference, document: Document, targets: _Targets) -> Reference:
    """A section named by its title ("Unsporting Conduct — Cheating"): in this document, else a current one.

    A flattened table may run the next cell into the title ("… — Minor Warning"): shorter
    readings are tried, down to the category and one word.
    """
    words = ref.number.split(" ")
    readings = [" ".join(words[:end]) for end in range(len(words), 3, -1)]
    places = [document] + [other for other in targets.documents if other is not document and other.info.current]
    for reading in readings:
        for place in places:
            found = targets.find(place, reading)
            if found:
                return _with_target(ref, found.id)
    return ref


def _title_agrees(ref: Reference, section: Section, required: bool = False) -> bool:
    """For "Title (3.1)" references: the written title must be the section's (last words of it)."""
    if "(" not in ref.text:
        return not required
    written = [word.rstrip("s") for word in TITLE_WORDS.findall(ref.text.split("(")[0].lower())]
    title = {word.rstrip("s") for word in TITLE_WORDS.findall(section.title.lower())}
    return bool(written) and all(word in title for word in written[-2:])


def _unresolved_problem(ref: Reference, document: Document) -> Problem:
    if _names_another_kind(ref, document):
        where = f"the {ref.document.upper()}, which is not among the sources"
        return Problem(WARNING, document.info.source, ref.line,
                       f"reference “{ref.text}” names {ref.number} in {where} (or has no such section); "
                       "kept as written")
    return Problem(WARNING, document.info.source, ref.line,
                   f"reference “{ref.text}” names {ref.number}, which is not in this document; kept as written")


def _dedupe(problems: list[Problem]) -> list[Problem]:
    seen = set()
    kept = []
    for problem in problems:
        key = (problem.line, problem.message)
        if key not in seen:
            seen.add(key)
            kept.append(problem)
    return kept


def references_from_links(document: Document, source: SourceText) -> Document:
    """Turn an HTML source's links to its own sections into References of the sections holding them.

    Internal anchors ("#ipg2-1") and links to the document's own pages on an external
    site ("http://www.bluewizard.net/...Guide.html#2.1") become internal references;
    links elsewhere (card databases) are not references.
    """
    if not source.links or not document.sections:
        return document
    ordered = sorted((s for s in document.sections if s.line), key=lambda s: s.line)
    lines = [s.line for s in ordered]
    by_number = {s.number.lower(): s for s in document.sections if s.number}
    anchor_lines = dict(source.anchors)
    added: dict[str, list[Reference]] = {}

    for link in source.links:
        fragment = urlsplit(link.href).fragment
        if not fragment:
            continue
        target = None
        if fragment in anchor_lines:
            at = bisect.bisect_left(lines, anchor_lines[fragment])
            if at < len(ordered):
                target = ordered[at]
        if target is None:
            number = KIND_PREFIX.sub("", fragment.lower()).replace("-", ".").replace("_", ".")
            target = by_number.get(number) or by_number.get(number.replace("appendix.", "appendix "))
        if target is None:
            continue
        holder_index = bisect.bisect_right(lines, link.line) - 1
        if holder_index < 0:
            continue    # a link in the front matter: the contents list, not a reference
        holder = ordered[holder_index]
        if holder.id == target.id or any(ref.target == target.id or ref.number == target.number for ref in holder.refs):
            continue
        added.setdefault(holder.id, []).append(
            Reference(link.text or target.number, target.number, None, target.id, link.line))
    if not added:
        return document
    sections = tuple(replace(s, refs=s.refs + tuple(added[s.id])) if s.id in added else s for s in document.sections)
    return replace(document, sections=sections)


# --- mentions by title (Judging at Regular REL) ------------------------------------------------------

MENTIONING = {kind.id for kind in kinds.KINDS if kind.mentions_by_title}   # name others' sections by title
MENTIONED = kinds.titles_named()      # where their titles are looked for, in this order (the MTR applies at every REL)
MENTION_MIN_LETTERS = 8               # a one-word title is a mention only when this long ("Tardiness", not "Players")


def mention_references(document: Document, documents: list[Document]) -> Document:
    """`document` with a Reference for each place its text names a section of the MTR or the IPG (or one
    of its own headed sections: "... is a Serious Problem").

    Names are those sections' titles, IPG infraction names and short subheadings found in one
    section only ("Game Loss" under "Definition of Penalties"); a name two sections of one document
    share names the first, and the MTR's are taken before the IPG's. A name of several words matches
    in any case, with or without a plural ending; a one-word name ("Tardiness") only as the title
    writes it, so that ordinary prose ("registration") is no mention. Where the parser already found
    a reference, no mention is added.
    """
    targets = _Targets(documents)
    names: dict[str, tuple[str, str, Section]] = {}     # key -> (kind, the name as written, section)
    own = [(section.title, section) for section in document.sections if section.level == 1 and section.title]
    for kind, named in [(None, own)] + [(kind, None) for kind in MENTIONED]:
        if named is None:
            candidates = targets.of_kind(kind, document)
            if not candidates:
                continue
            named = _names_of(candidates[0])
        for name, section in named:
            letters = sum(character.isalpha() for character in name)
            if letters < 4 or (" " not in name.strip() and letters < MENTION_MIN_LETTERS):
                continue
            names.setdefault(_singular(name), (kind, name, section))
    if not names:
        return document
    stems = sorted(names, key=len, reverse=True)
    pattern = re.compile(r"(?<![\w-])(?:" + "|".join(r"\s+".join(map(re.escape, stem.split())) for stem in stems)
                         + r")(?:es|s)?(?![\w-])", re.I)
    sections = []
    found_any = False
    for section in document.sections:
        found = []
        linked: set[str] = set()          # each section links a name's first mention only
        for index, block in enumerate(section.blocks):
            if block.kind == SUBHEADING:
                continue
            taken = [(ref.start, ref.end) for ref in section.refs if ref.block == index and ref.start >= 0]
            for match in pattern.finditer(block.text):
                written = match.group(0)
                entry = names.get(_singular(written))
                if entry is None or any(start < match.end() and match.start() < end for start, end in taken):
                    continue
                kind, name, target = entry
                if " " not in name.strip() and not written.startswith(name.rstrip("s")):
                    continue       # a one-word title written otherwise is ordinary prose
                if target.id in linked or target.id == section.id or target.id == section.parent:
                    continue
                linked.add(target.id)
                found.append(Reference(written, target.number, kind, target.id, section.line, index,
                                       match.start(), match.end()))
        if found:
            found_any = True
            section = replace(section, refs=section.refs + tuple(found))
        sections.append(section)
    return replace(document, sections=tuple(sections)) if found_any else document


def _singular(name: str) -> str:
    """The key of a name: case, spacing and a plural ending do not count ("Game Losses" = "game loss")."""
    key = " ".join(name.split()).casefold().rstrip(":")
    if key.endswith("sses"):
        return key[:-2]
    return key[:-1] if key.endswith("s") and not key.endswith("ss") else key


def _names_of(document: Document):
    """(name, section) pairs: numbered sections' titles, infraction names, short subheadings used once.

    Chapters are left out: their titles are broad and one of them is the MTR's own name ("Tournament
    Rules", chapter 3), which the JAR writes meaning the whole document.
    """
    subheadings: dict[str, list[tuple[str, Section]]] = {}
    for section in document.sections:
        if not section.number or section.kind in ("chapter", "appendix") or section.level < 2:
            continue
        if section.title:
            yield section.title, section
        if section.infraction and section.infraction.name:
            yield section.infraction.name, section
        for block in section.blocks:
            if block.kind == SUBHEADING and len(block.text.split()) <= 4:
                text = block.text.strip().rstrip(":")
                subheadings.setdefault(_singular(text), []).append((text, section))
    for holders in subheadings.values():
        if len({section.id for _, section in holders}) == 1:
            yield holders[0]
