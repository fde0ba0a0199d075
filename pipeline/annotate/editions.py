"""Where a note written against one edition lands in the current one: the rule it explains followed through
the comparisons of consecutive editions the build already makes (`diff.history`: renumberings, moves,
rewordings), whether its words changed since, or that it was removed.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

from ..corpus import load_edition
from ..diff.history import KindHistory, trace
from ..model import Corpus, DocumentInfo


@dataclass(frozen=True)
class Landing:
    """What became of a section of an edition: its id there, the current rule (None: removed since), and
    whether the current words differ."""
    written_for: str
    target: Optional[str]
    changed_since: bool


class Editions:
    """The editions of each kind of document, their histories traced only when a note needs one."""

    def __init__(self, corpus: Corpus, use_cache: bool = True):
        self.corpus = corpus
        self.use_cache = use_cache
        self._histories: dict[str, KindHistory] = {}
        self._current_ids = {section.id for document in corpus.documents if document.info.current
                             for section in document.sections}
        self._lineages: dict[str, dict[tuple[int, str], list[tuple[int, str]]]] = {}

    def current(self, kind: str):
        return next((d for d in self.corpus.documents if d.info.kind == kind and d.info.current), None)

    def named(self, kind: str, edition: str, upcoming: bool = False) -> Optional[DocumentInfo]:
        """The complete edition of a kind in force from `edition` (an ISO date) in the sources, if any (or, with
        `upcoming`, one not in force yet)."""
        return next((info for info in self.corpus.editions if info.kind == kind and info.edition == edition
                     and not info.excerpt and info.preview == upcoming), None)

    def land(self, kind: str, key: str, info: DocumentInfo) -> Optional[Landing]:
        """Section `key` of the edition `info`, carried to the current edition (None: no such section there)."""
        document = self.current(kind)
        if document is not None and info.id == document.id:
            section_id = f"{document.id}:{key}"
            return Landing(section_id, section_id, False) if section_id in self._current_ids else None
        history = self._history(kind)
        index = next((i for i, chained in enumerate(history.editions) if chained.id == info.id), None)
        now = next((i for i, chained in enumerate(history.editions) if chained.current), None)
        if index is None or history.step(index, key) is None:
            return None
        written_for = f"{info.id}:{key}"
        lineage = self._lineages[kind].get((index, key), [])
        current_key = next((later for step, later in lineage if step == now), None)
        if now is None or current_key is None or document is None:
            return Landing(written_for, None, False)
        changed = history.step(index, key).wording != history.step(now, current_key).wording
        return Landing(written_for, f"{document.id}:{current_key}", changed)

    def _history(self, kind: str) -> KindHistory:
        if kind not in self._histories:
            editions = [info for info in self.corpus.editions if info.kind == kind and not info.preview]
            history = trace(editions, lambda info: load_edition(self.corpus, info.id, self.use_cache, linked=False),
                            self.use_cache)
            self._histories[kind] = history
            self._lineages[kind] = {step: lineage for lineage in history.lineages.values() for step in lineage}
        return self._histories[kind]
