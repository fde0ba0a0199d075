"""Each rule through the editions of a document: its wordings, the editions that held each, when it last changed.

`trace(editions, load)` keeps of each edition a summary (its numbers and the ids of their wordings),
of each consecutive pair the comparison; what the cache lacks is made on every core (`parallel.each`),
each worker holding two documents at a time. Both are cached under the bytes of the documents (not
their ids, which change when a newer edition arrives), so that adding one edition to a hundred
computes one new comparison and one summary; the rest is a walk over the summaries.

A rule's lineage follows it back through renumberings (702.19 -> 702.20 is one rule). Excerpts
are left out of the chain (they cover too little to say what changed).
"""
from __future__ import annotations

import gc
import hashlib
from dataclasses import dataclass, field, replace
from typing import Callable, Iterable, Optional

from .. import cache
from ..corpus import rename_document
from ..model import Document, DocumentInfo, Section
from ..parallel import each
from .compare import Change, EditionDiff, GlossaryChange, GlossaryDiff, Move, _key, compare, examples_outside_body
from .layout import layout_key


@dataclass(frozen=True)
class Wording:
    """A section's words in one edition: its title, its text, the examples its text does not hold, an
    infraction's penalty; `id` names these words, `words_id` them with their layout set aside (diff.layout)."""
    title: str
    text: str
    examples: tuple[str, ...] = ()
    joined: str = ""          # the words compared between editions (as `compare` compares them)
    id: str = ""
    penalty: str = ""
    words_id: str = ""

    @staticmethod
    def of(title: str, text: str, examples: tuple[str, ...] = (), penalty: str = "") -> Wording:
        parts = [title.strip()] if title.strip() else []
        if penalty:
            parts.append(f"Penalty: {penalty}")
        if text.strip():
            parts.append(text.strip())
        parts.extend(example.strip() for example in examples if example.strip())
        joined = "\n\n".join(parts)
        return Wording(title, text, examples, joined, _digest(joined), penalty, _digest(layout_key(joined)))

    @staticmethod
    def of_section(section: Section) -> Wording:
        return Wording.of(section.title, section.text, tuple(examples_outside_body(section)), _penalty(section))

    @staticmethod
    def made_of(section: Section) -> tuple:
        """All that `of_section` reads of a section: two sections alike in it have the same wording."""
        return section.title, section.blocks, section.examples, _penalty(section)


def _penalty(section: Section) -> str:
    return section.infraction.penalty if section.infraction is not None else ""


def _digest(text: str) -> str:
    return hashlib.sha1(text.encode("utf-8")).hexdigest()[:12]


@dataclass(frozen=True, slots=True)
class Step:
    """One section of one edition: where it stands and how it reads (an edition's step that is the same as the
    one before's is that same object: a hundred CR editions hold 218,000 steps, most of them alike)."""
    key: str               # the id without its document ("702.19a", "glossary/trample")
    number: str
    level: int
    kind: str
    parent: str            # the parent's key, "" for none
    wording: str           # Wording.id

    def __reduce__(self):
        # pickled as its fields: a slotted dataclass's own state functions cost twice as much, for 218,000 steps
        return Step, (self.key, self.number, self.level, self.kind, self.parent, self.wording)


@dataclass(frozen=True)
class EditionSummary:
    """What the history keeps of an edition: its sections (and glossary terms) in order, their wordings."""
    steps: tuple[Step, ...]
    glossary: tuple[tuple[str, str], ...]      # (term, Wording.id)
    wordings: dict

    @staticmethod
    def of(document: Document) -> EditionSummary:
        global _last_wordings
        wordings: dict[str, Wording] = {}
        steps = []
        made: dict[tuple, Wording] = {}
        for section in document.sections:
            made_of = Wording.made_of(section)
            wording = made[made_of] = _last_wordings.get(made_of) or Wording.of_section(section)
            wordings[wording.id] = wording
            steps.append(Step(_key(section), section.number, section.level, section.kind,
                              _key(section.parent) if section.parent else "", wording.id))
        glossary = []
        for entry in document.glossary:
            wording = Wording.of(entry.term, entry.text)
            wordings[wording.id] = wording
            glossary.append((entry.term, wording.id))
        _last_wordings = made
        return EditionSummary(tuple(steps), tuple(glossary), wordings)


# The wordings of the last edition summarized in this process, by what each is made of: most of an edition's
# rules read as in the edition before, whose summary this process most likely made too (a worker is given
# the editions in order), and a wording's digests cost more than finding it again. One edition's only.
_last_wordings: dict[tuple, Wording] = {}


@dataclass
class KindHistory:
    """The editions of one document, oldest first, and every rule's way through them."""
    editions: list[DocumentInfo] = field(default_factory=list)
    summaries: list[EditionSummary] = field(default_factory=list)
    diffs: list[EditionDiff] = field(default_factory=list)        # diffs[i]: editions[i] -> editions[i + 1]
    lineages: dict[str, list[tuple[int, str]]] = field(default_factory=dict)   # newest key -> [(edition, key)]
    wordings: dict[str, Wording] = field(default_factory=dict)

    def label(self, index: int) -> str:
        return self.editions[index].edition or self.editions[index].id

    def step(self, index: int, key: str) -> Optional[Step]:
        return self._steps(index).get(key)

    def _steps(self, index: int) -> dict[str, Step]:
        if not hasattr(self, "_by_key"):
            self._by_key = [{step.key: step for step in summary.steps} for summary in self.summaries]
        return self._by_key[index]

    def wordings_of(self, key: str) -> list[tuple[Wording, list[int], list[str]]]:
        """The distinct wordings of the newest edition's section `key`, oldest first: (wording, the editions
        that held it, the numbers it had there). A wording that differs from the one before in layout alone
        (diff.layout) is not another: the newer layout stands for both. Worked out once per key (a rule's history
        page, its "changed in" date and its parent's count of changed rules all ask); the lists are not to be
        changed by the caller."""
        if not hasattr(self, "_wordings_of"):
            self._wordings_of: dict[str, list[tuple[Wording, list[int], list[str]]]] = {}
        known = self._wordings_of.get(key)
        if known is None:
            known = self._wordings_of[key] = self._trace_wordings(key)
        return known

    def _trace_wordings(self, key: str) -> list[tuple[Wording, list[int], list[str]]]:
        found: list[tuple[Wording, list[int], list[str]]] = []
        for index, old_key in self.lineages.get(key, []):
            step = self.step(index, old_key)
            if step is None:
                continue
            wording = self.wordings[step.wording]
            if found and found[-1][0].words_id == wording.words_id:
                found[-1] = (wording, found[-1][1], found[-1][2])
                found[-1][1].append(index)
                if step.number not in found[-1][2]:
                    found[-1][2].append(step.number)
            else:
                found.append((wording, [index], [step.number]))
        return found

    def last_changed(self, key: str) -> Optional[str]:
        """The edition in which the newest edition's section `key` got its present wording (None if it has had
        it since the oldest edition)."""
        chain = self.wordings_of(key)
        if not chain:
            return None
        first_index = chain[-1][1][0]
        return self.label(first_index) if first_index > 0 else None


def trace(editions: Iterable[DocumentInfo], load: Callable[[DocumentInfo], Document],
          use_cache: bool = True) -> KindHistory:
    """The history of a chain of editions of one kind (excerpts are left out), loading each as it is needed."""
    chain = sorted((info for info in editions if not info.excerpt), key=lambda info: (info.edition or "", info.source))
    history = KindHistory(editions=chain)
    # the pieces: each edition's summary, each pair's comparison; what the cache does not hold is made and cached on
    # every core (in runs of the chain's order, so that a worker loads each document once)
    pieces: list[tuple] = []
    for index, info in enumerate(chain):
        pieces.append(("summary", info))
        if index:
            pieces.append(("diff", chain[index - 1], info))
    known = {piece: _cached(use_cache, piece) for piece in pieces}
    missing = [piece for piece, value in known.items() if value is None]
    recent = _Recent(load)
    for piece, value in zip(missing, each(lambda piece: _stored(use_cache, piece, _make(piece, recent)), missing,
                                          _concerns, runs=True)):
        known[piece] = value
    steps: dict[Step, Step] = {}
    for index, info in enumerate(chain):
        summary = known[("summary", info)]
        for key, wording in summary.wordings.items():     # one object per wording, however many editions hold it
            summary.wordings[key] = history.wordings.setdefault(key, wording)
        # and one per step (the memory of a build of the CR archive was mostly steps alike, each loaded apart)
        object.__setattr__(summary, "steps", tuple([steps.setdefault(step, step) for step in summary.steps]))
        history.summaries.append(summary)
        if index:
            history.diffs.append(_named(known[("diff", chain[index - 1], info)], chain[index - 1], info))
    history.lineages = _lineages(history)
    return history


def summarize(info: DocumentInfo, load: Callable[[DocumentInfo], Document], use_cache: bool = True) -> EditionSummary:
    """An edition's summary, from the cache when its bytes were summarized before."""
    piece = ("summary", info)
    summary = _cached(use_cache, piece)
    if summary is None:
        summary = _make(piece, _Recent(load))
        _store(use_cache, piece, summary)
    return summary


def _lineages(history: KindHistory) -> dict[str, list[tuple[int, str]]]:
    """Newest edition's key -> the (edition, key) it had in every edition it was in, oldest first.

    Walks the editions forward: a section carries on the lineage of the section it was paired with
    in the edition before (moved, changed or the same), or starts one of its own.
    """
    if not history.summaries:
        return {}
    lineages: list[list[tuple[int, str]]] = []
    current: dict[str, int] = {}                  # key in the edition being read -> its lineage
    for step in history.summaries[0].steps:
        current[step.key] = len(lineages)
        lineages.append([(0, step.key)])
    for index in range(1, len(history.summaries)):
        diff = history.diffs[index - 1]
        moved = {_key(move.to_id): _key(move.from_id) for move in diff.moved}
        added = {_key(section_id) for section_id in diff.added}
        taken = set(moved.values())
        following: dict[str, int] = {}
        for step in history.summaries[index].steps:
            old = moved.get(step.key)
            if old is None and step.key not in added and step.key in current and step.key not in taken:
                old = step.key
            lineage = current.get(old) if old else None
            if lineage is None:
                lineage = len(lineages)
                lineages.append([])
            lineages[lineage].append((index, step.key))
            following[step.key] = lineage
        current = following
    return {key: lineages[lineage] for key, lineage in current.items()}


def rule_history(documents: list[Document]) -> dict[str, list[tuple[str, str, str]]]:
    """Section id of the newest edition -> [(edition, section id there, text)], oldest first (documents in memory)."""
    by_info = {document.info: document for document in documents}
    history = trace(by_info, by_info.__getitem__, use_cache=False)
    if not history.editions:
        return {}
    newest = history.editions[-1].id
    found = {}
    for key, chain in history.lineages.items():
        found[f"{newest}:{key}"] = [(history.label(index), f"{history.editions[index].id}:{old_key}",
                                     history.wordings[history.step(index, old_key).wording].joined)
                                    for index, old_key in chain]
    return found


def last_changed(documents: list[Document]) -> dict[str, str]:
    """Section id of the newest edition -> the edition in which its wording last changed (or it appeared)."""
    by_info = {document.info: document for document in documents}
    history = trace(by_info, by_info.__getitem__, use_cache=False)
    if len(history.editions) < 2:
        return {}
    newest = history.editions[-1].id
    return {f"{newest}:{key}": edition for key in history.lineages
            if (edition := history.last_changed(key)) is not None}


# -- caching, with the documents' ids taken out ---------------------------------------------------

def _neutral(document: Document) -> Document:
    """The document under its kind's id, so that a comparison does not depend on what the build calls it (the
    two editions compared then have the same id: a comparison pairs their sections by the ids' numbers, and
    `_named` puts the editions' own ids back). A parse as cached has that id already."""
    return rename_document(document, replace(document.info, id=document.info.kind))


def _named(diff: EditionDiff, old: DocumentInfo, new: DocumentInfo) -> EditionDiff:
    """A cached comparison with the editions' own ids put back."""
    def old_id(ident: str) -> str:
        return f"{old.id}:{_key(ident)}"

    def new_id(ident: str) -> str:
        return f"{new.id}:{_key(ident)}"
    return EditionDiff(
        old.id, new.id, tuple(new_id(i) for i in diff.added), tuple(old_id(i) for i in diff.removed),
        tuple(Change(old_id(c.old_id), new_id(c.new_id), c.old_text, c.new_text, c.numbers_only) for c in diff.changed),
        tuple(Move(old_id(m.from_id), new_id(m.to_id), m.old_text, m.new_text, m.text_changed, m.numbers_only,
                   m.layout_only) for m in diff.moved),
        GlossaryDiff(diff.glossary.added, diff.glossary.removed,
                     tuple(GlossaryChange(g.term, g.old_text, g.new_text) for g in diff.glossary.changed)),
        old.edition, new.edition,
        tuple(Change(old_id(c.old_id), new_id(c.new_id), c.old_text, c.new_text, c.numbers_only)
              for c in diff.layout_only))


class _Recent:
    """A loader that keeps the last two documents it gave: an edition's summary and its comparisons with the
    editions beside it load it once (no more than two documents are held)."""

    def __init__(self, load: Callable[[DocumentInfo], Document]):
        self.load = load
        self.held: list[tuple[DocumentInfo, Document]] = []
        self.renamed: list[tuple[Document, Document]] = []

    def __call__(self, info: DocumentInfo) -> Document:
        for held, document in self.held:
            if held == info:
                return document
        document = self.load(info)
        self.held = [*self.held[-1:], (info, document)]
        gc.collect(0)
        return document

    def neutral(self, info: DocumentInfo) -> Document:
        """The document under its kind's id (`_neutral`), the same object for both of its comparisons: the
        comparison keeps what it works out of a document's sections while the document is held."""
        document = self(info)
        for held, renamed in self.renamed:
            if held is document:
                return renamed
        renamed = _neutral(document)
        self.renamed = [*self.renamed[-1:], (document, renamed)]
        return renamed


def _make(piece: tuple, load: _Recent):
    """One piece of a history: an edition's summary, or the comparison of two editions (under neutral ids)."""
    if piece[0] == "summary":
        return EditionSummary.of(load(piece[1]))
    _, old, new = piece
    return compare(load.neutral(old), load.neutral(new))


def _concerns(piece: tuple) -> str:
    """The file (or the two files) a piece of a history is made from."""
    return piece[1].source if piece[0] == "summary" else f"{piece[1].source} compared with {piece[2].source}"


def _cache_key(piece: tuple) -> Optional[str]:
    """Pieces are cached under the bytes of their editions (None: an edition without known bytes)."""
    shas = [info.sha256 for info in piece[1:]]
    return cache.key(piece[0], shas[0], shas[1] if len(shas) > 1 else "") if all(shas) else None


def _cached(use_cache: bool, piece: tuple):
    key = _cache_key(piece) if use_cache else None
    return cache.load(key) if key else None


def _store(use_cache: bool, piece: tuple, value) -> None:
    key = _cache_key(piece) if use_cache else None
    if key:
        cache.store(key, value)


def _stored(use_cache: bool, piece: tuple, value):
    """The value, once stored (in the worker that made it: the stores are on every core too)."""
    _store(use_cache, piece, value)
    return value
