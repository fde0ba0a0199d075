"""The whoosh knowledge base: write the index of every section and glossary term, and query it.

The only module that imports whoosh. It stores and retrieves plain data (Entry,
Hit); deciding what a question means (numbers, abbreviations, typos, ranking
policy) is `search`'s job.
"""
from __future__ import annotations

import hashlib
import json
import re
from collections import Counter
import shutil
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Iterable, Optional

from whoosh import index as whoosh_index
from whoosh.analysis import StemmingAnalyzer
from whoosh.fields import BOOLEAN, ID, NUMERIC, STORED, TEXT, Schema
from whoosh.query import And, AndMaybe, Phrase, Term
# Lazy unions (whoosh preloads every posting of an Or on a small index, which is slower here).
from whoosh.query.compound import DefaultOr

# Numbers and words: keep "704.5k" and "2HG" whole.
TOKENS = r"\d+(?:\.\d+[a-z]?)*[a-z]*|\w+(?:[’']\w+)*"
STEMMED = StemmingAnalyzer(expression=TOKENS, stoplist=frozenset(
    "a an and are as at be by for from if in into is it of on or that the their then there these they this to was will with".split()))
FIELD_BOOSTS = {"title": 5.0, "aliases": 4.0, "headings": 1.6, "text": 1.0}
PHRASE_FIELDS = {"title", "aliases", "headings"}
WORDS = re.compile(r"[a-z][a-z’'-]*[a-z]|[a-z]")
SYNTAX = re.compile(r"[\"():*~^\[\]{}+!\\/<>=]|(?<!\w)-|\b(?:AND|OR|NOT|ANDNOT|ANDMAYBE)\b")

SCHEMA = Schema(
    id=ID(stored=True, unique=True),
    document=ID(stored=True),
    kind=ID(stored=True),
    number=ID(stored=True),               # lower-cased number, the exact key: "704.5k", "2.1", "appendix a"
    label=STORED,                         # the number as the document writes it: "Appendix A"
    section_kind=ID(stored=True),
    title=TEXT(analyzer=STEMMED, stored=True, field_boost=FIELD_BOOSTS["title"]),
    aliases=TEXT(analyzer=STEMMED, field_boost=FIELD_BOOSTS["aliases"]),
    headings=TEXT(analyzer=STEMMED, stored=True, field_boost=FIELD_BOOSTS["headings"]),
    text=TEXT(analyzer=STEMMED, stored=True, phrase=False, field_boost=FIELD_BOOSTS["text"]),
    url=STORED,
    edition=STORED,
    current=BOOLEAN(stored=True),
    excerpt=BOOLEAN(stored=True),
    archived=BOOLEAN(stored=True),
    level=NUMERIC(stored=True),
    order=NUMERIC(stored=True),
    penalty=STORED,
    parent=ID(stored=True),
    targets=STORED,
)


@dataclass(frozen=True)
class Entry:
    """One searchable thing: a section, rule, subrule, infraction or glossary term."""
    id: str
    document: str
    kind: str
    number: str
    section_kind: str
    title: str
    headings: str
    text: str
    url: str
    edition: str
    current: bool
    excerpt: bool
    level: int
    order: int
    archived: bool = False
    penalty: str = ""
    parent: str = ""
    aliases: str = ""
    targets: str = ""          # for a glossary term: the sections it points at


@dataclass(frozen=True)
class Hit:
    id: str
    document: str
    kind: str
    number: str
    title: str
    url: str
    current: bool
    excerpt: bool
    level: int
    order: int
    score: float
    text: str
    headings: str
    penalty: str
    section_kind: str
    targets: tuple[str, ...] = ()
    archived: bool = False


def _add(writer, entry: Entry) -> None:
    writer.add_document(
        id=entry.id, document=entry.document, kind=entry.kind, number=entry.number.lower(), label=entry.number,
        section_kind=entry.section_kind, title=entry.title, aliases=entry.aliases,
        headings=entry.headings, text=entry.text, url=entry.url, edition=entry.edition,
        current=entry.current, excerpt=entry.excerpt, archived=entry.archived, level=entry.level, order=entry.order,
        penalty=entry.penalty, parent=entry.parent, targets=entry.targets)


def _vocabulary(entries: Iterable[Entry]) -> dict[str, int]:
    counts: Counter = Counter()
    for entry in entries:
        counts.update(WORDS.findall(f"{entry.title} {entry.aliases} {entry.text}".lower()))
    return dict(sorted(counts.items()))


SCHEMA_VERSION = hashlib.sha256(repr([(name, type(field).__name__, field.stored)
                                      for name, field in sorted(SCHEMA.items())]).encode()).hexdigest()[:16]


def _write_state(directory: Path, fingerprint: str, documents: dict[str, str], entries: list[Entry]) -> None:
    (directory / "vocabulary.json").write_text(json.dumps(_vocabulary(entries)))
    (directory / "fingerprint.json").write_text(json.dumps(
        {"fingerprint": fingerprint, "entries": len(entries), "documents": documents, "schema": SCHEMA_VERSION},
        sort_keys=True))


def write_index(entries: Iterable[Entry], directory: Path | str, fingerprint: str,
                documents: Optional[dict[str, str]] = None) -> int:
    """Write a fresh index into `directory` (replacing any old one whole); return the entry count.

    `documents` maps each document id to a fingerprint of what its entries were made
    from, so that `update_index` can later redo only the documents that changed.
    """
    entries = list(entries)
    directory = Path(directory)
    directory.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".index-", dir=directory.parent))
    try:
        ix = whoosh_index.create_in(str(building), SCHEMA)
        writer = ix.writer(limitmb=256)   # one segment: queries on one segment are about twice as fast
        for entry in entries:
            _add(writer, entry)
        writer.commit()
        _write_state(building, fingerprint, documents or {}, entries)
        if directory.exists():
            shutil.rmtree(directory)
        building.rename(directory)
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    return len(entries)


def update_index(entries: list[Entry], directory: Path | str, fingerprint: str,
                 documents: dict[str, str]) -> dict[str, list[str]]:
    """Re-index only the documents whose fingerprint changed (removing the ones that are gone).

    Falls back to a fresh index when there is none yet. Returns which documents were
    re-indexed, removed and kept, for the build's report.
    """
    directory = Path(directory)
    state = index_state(directory)
    before = (state or {}).get("documents", {})
    stale = sorted(doc for doc, mark in before.items() if documents.get(doc) != mark)
    fresh = sorted(doc for doc, mark in documents.items() if before.get(doc) != mark)
    if state is None or state.get("schema") != SCHEMA_VERSION or not whoosh_index.exists_in(str(directory)) \
            or len(fresh) == len(documents):
        write_index(entries, directory, fingerprint, documents)   # nothing to keep: a fresh index is faster
        return {"indexed": sorted(documents), "removed": [], "kept": []}
    if stale or fresh:
        writer = whoosh_index.open_dir(str(directory)).writer(limitmb=256)
        for doc in stale:
            writer.delete_by_term("document", doc)
        wanted = set(fresh)
        for entry in entries:
            if entry.document in wanted:
                _add(writer, entry)
        writer.commit()
    _write_state(directory, fingerprint, documents, entries)
    return {"indexed": fresh, "removed": sorted(set(stale) - set(fresh)),
            "kept": sorted(set(documents) - set(fresh))}


def index_state(directory: Path | str) -> Optional[dict]:
    try:
        return json.loads((Path(directory) / "fingerprint.json").read_text())
    except (OSError, ValueError):
        return None


def index_fingerprint(directory: Path | str) -> Optional[str]:
    state = index_state(directory)
    return state.get("fingerprint") if state else None


class KnowledgeBase:
    """Read access to a written index. One searcher, guarded by the caller if shared by threads."""

    def __init__(self, directory: Path | str):
        self.directory = Path(directory)
        self.ix = whoosh_index.open_dir(str(directory))
        self.searcher = self.ix.searcher()
        self._vocabulary = None

    def close(self) -> None:
        self.searcher.close()

    def __len__(self) -> int:
        return self.searcher.doc_count()

    # -- exact look-ups -------------------------------------------------------------------

    def by_number(self, number: str, kind: Optional[str] = None, document: Optional[str] = None) -> list[Hit]:
        query = Term("number", number.lower().rstrip("."))
        if kind:
            query = And([query, Term("kind", kind)])
        if document:
            query = And([query, Term("document", document)])
        return self._hits(self.searcher.search(query, limit=20))

    def by_id(self, section_id: str) -> Optional[Hit]:
        hits = self._hits(self.searcher.search(Term("id", section_id), limit=1))
        return hits[0] if hits else None

    def by_parent(self, section_id: str, limit: int = 60) -> list[Hit]:
        return self._hits(self.searcher.search(Term("parent", section_id), limit=limit))

    def numbers(self, kind: str) -> list[tuple[str, str, bool]]:
        """Every (number, document, current) of a kind, for "nearest number" suggestions."""
        found = []
        for fields in self.searcher.documents(kind=kind):
            if fields.get("number"):
                found.append((fields["number"], fields["document"], fields.get("current", False)))
        return found

    # -- text search ----------------------------------------------------------------------

    def text_search(self, words: list[str], phrases: Iterable[tuple[str, float]] = (), kind: Optional[str] = None,
                    limit: int = 50, every_word: bool = True) -> list[Hit]:
        """Sections matching the words (each in any field), scored by BM25F with field weights.

        every_word: only sections holding every word (fast: an intersection); otherwise any
        word will do. Phrases only add to the score of what the words found.
        """
        groups = []
        for word in words:
            tokens = [token.text for token in STEMMED(SYNTAX.sub(" ", word))]
            for token in tokens:
                groups.append(DefaultOr([Term(field, token, boost=boost) for field, boost in FIELD_BOOSTS.items()]))
        optional = []
        for phrase, boost in phrases:
            tokens = [token.text for token in STEMMED(phrase)]
            for field, field_boost in FIELD_BOOSTS.items():
                if len(tokens) > 1 and field in PHRASE_FIELDS:
                    optional.append(Phrase(field, tokens, boost=boost * field_boost))
                elif len(tokens) > 1:
                    continue   # body text keeps no positions (a third of the index time); its words are scored anyway
                elif tokens:
                    optional.append(Term(field, tokens[0], boost=boost * field_boost))
        if not groups and not optional:
            return []
        if every_word and groups:
            required = And(groups) if len(groups) > 1 else groups[0]
            query = AndMaybe(required, DefaultOr(optional)) if optional else required
        else:
            query = DefaultOr(groups + optional)
        if kind:
            query = And([query, Term("kind", kind)])
        return self._hits(self.searcher.search(query, limit=limit))

    @property
    def vocabulary(self) -> dict[str, int]:
        if self._vocabulary is None:
            try:
                self._vocabulary = json.loads((self.directory / "vocabulary.json").read_text())
            except (OSError, ValueError):
                self._vocabulary = {}
            by_start: dict[str, list[str]] = {}
            for word in self._vocabulary:
                if len(word) > 2 and not word[0].isdigit():
                    by_start.setdefault(word[0], []).append(word)
            self._by_start = by_start
        return self._vocabulary

    def known_word(self, word: str) -> bool:
        return word.lower() in self.vocabulary

    def suggest(self, word: str) -> Optional[str]:
        """The closest word of the index's vocabulary (edit distance 1-2), for a word it does not know."""
        word = word.lower()
        vocabulary = self.vocabulary
        letters = set(word)
        best = None
        limit = 1 if len(word) <= 5 else 2
        for candidate in self._by_start.get(word[:1], ()):
            if abs(len(candidate) - len(word)) > limit or len(letters ^ set(candidate)) > 2 * limit + 1:
                continue
            distance = _distance(candidate, word)
            if distance <= limit:
                key = (distance, -vocabulary[candidate])
                if best is None or key < best[0]:
                    best = (key, candidate)
        return best[1] if best else None

    def _hits(self, results) -> list[Hit]:
        hits = []
        for hit in results:
            fields = hit.fields()
            hits.append(Hit(
                id=fields["id"], document=fields["document"], kind=fields["kind"],
                number=fields.get("label", fields.get("number", "")),
                title=fields.get("title", ""), url=fields.get("url", ""), current=fields.get("current", False),
                excerpt=fields.get("excerpt", False), level=fields.get("level", 0), order=fields.get("order", 0),
                score=hit.score or 0.0, text=fields.get("text", ""),
                headings=fields.get("headings", ""), penalty=fields.get("penalty", ""),
                section_kind=fields.get("section_kind", ""),
                targets=tuple((fields.get("targets") or "").split()),
                archived=fields.get("archived", False)))
        return hits


def _distance(a: str, b: str) -> int:
    """Levenshtein distance (short words only)."""
    previous = list(range(len(b) + 1))
    for i, char_a in enumerate(a, 1):
        current = [i]
        for j, char_b in enumerate(b, 1):
            current.append(min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (char_a != char_b)))
        previous = current
    return previous[-1]
