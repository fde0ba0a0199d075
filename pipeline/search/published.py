"""The site's search files (`browser.browser_files` writes them) read back as the engine reads an index.

What `rulekb serve` answers /api/search from: the words, the per-term scores and the display rows the
browser's worker fetches, so a question is read and ranked as the site's search box does it (`engine`
and `scoring` do the ranking, as for a whoosh index), and a new question costs dictionary look-ups,
not whoosh's scoring. Read once, whole (a few MB), then only read: threads may share one. No whoosh.
"""
from __future__ import annotations

import bisect
import json
import re
from itertools import accumulate
from pathlib import Path
from typing import Optional

from . import passages
from .engine import Result, natural_key, shown_title
from .hits import EXACT_SCORE, Hit
from .scoring import scaled
from .signals import Fact, Row

MAX_CHILDREN = 100          # subrules listed under a number, as KnowledgeBase.by_parent
MAX_NUMBERED = 20           # sections of one number, as KnowledgeBase.by_number
SPACES = re.compile(r"\s+")


class PublishedIndex:
    """The search files of one published site (its `search/` folder)."""

    def __init__(self, folder: Path | str):
        folder = Path(folder)
        manifest = json.loads((folder / "manifest.json").read_text(encoding="utf-8"))
        read = lambda name: json.loads((folder / name).read_text(encoding="utf-8"))
        self.build = manifest["build"]
        self._semantic_file = folder / manifest["semantic"] if manifest.get("semantic") else None
        self._semantic: object = False               # not read yet
        self._passages_file = folder / manifest["passages"] if manifest.get("passages") else None
        self._passages: Optional[dict] = None
        self.fields: list[str] = manifest["fields"]
        self.pages: list[str] = manifest["pages"]
        self.documents: list[dict] = manifest["documents"]
        self._titles = frozenset(manifest["titles"])
        self.vocabulary: dict[str, list] = {}          # word -> [count, term], as KnowledgeBase.vocabulary
        self._by_letter: dict[str, list[tuple[str, int]]] = {}
        for letter, name in manifest["words"].items():
            rows = read(name)
            self._by_letter[letter] = [(word, count) for word, count, _ in rows]
            self.vocabulary.update((word, [count, term or word]) for word, count, term in rows)
        self._kept = frozenset(word for name in manifest.get("kept", {}).values() for word in read(name))
        self._flat: dict[str, list[int]] = {}           # term -> the worker's flat postings
        for name in sorted(set(manifest["terms"].values())):
            self._flat.update(read(name))
        self._postings: dict[str, list] = {}
        self._scaled: dict[str, list] = {}
        self.rows: list[Row] = []                        # entry position -> display row (browser._display_row)
        for _, name in manifest["chunks"]:
            self.rows.extend(Row(*row) for row in read(name))
        self.positions = {row.id: position for position, row in enumerate(self.rows)}
        self._children: dict[int, list[int]] = {}
        for position, row in enumerate(self.rows):
            if row.parent >= 0:
                self._children.setdefault(row.parent, []).append(position)
        self._numbers: dict[str, list[list]] = read(manifest["numbers"])
        self._in_order: dict[tuple, tuple] = {}
        self._folded: dict[int, str] = {}
        self._document_of, self._facts = _documents_of(self.documents, len(self.rows))
        self._cited = cited_of(manifest)

    def semantic(self):
        """The site's semantic table (`semantic.Semantic`), read at the first long question; None without one."""
        if self._semantic is False:
            from . import semantic
            self._semantic = semantic.read_table(self._semantic_file.read_bytes()) if self._semantic_file else None
        return self._semantic

    def passages(self) -> dict[int, list[frozenset[str]]]:
        """A long entry's paragraphs' terms (passages.py), read at the first story; none without the file."""
        if self._passages is None:
            rows = json.loads(self._passages_file.read_text(encoding="utf-8")) if self._passages_file else []
            self._passages = passages.read_rows(rows)
        return self._passages

    def cited(self) -> list[tuple[int, int, int]]:
        """The current remedies' cited sections as runs of positions (index.cited_runs), as the build wrote them."""
        return self._cited

    def close(self) -> None:
        """Nothing to close (KnowledgeBase's interface)."""

    def __len__(self) -> int:
        return len(self.rows)

    # -- the documents' words (question.Vocabulary) ---------------------------------------------

    def stem(self, word: str) -> Optional[str]:
        known = self.vocabulary.get(word)
        return known[1] if known else None

    def words_starting(self, letter: str) -> list[tuple[str, int]]:
        return self._by_letter.get(letter, [])

    def kept(self, word: str) -> bool:
        return word in self._kept

    # -- what scoring reads -------------------------------------------------------------------------

    def postings(self, term: str) -> list[tuple[str, list[tuple[int, int]]]]:
        """[(field, [(entry position, score in hundredths)])], fields in the order the build wrote them."""
        found = self._postings.get(term)
        if found is None:
            found = []
            flat = self._flat.get(term) or []
            at = 0
            while at < len(flat):              # [field, n, gap, score, gap, score, ...] per field
                field, count = self.fields[flat[at]], flat[at + 1]
                end = at + 2 + 2 * count
                found.append((field, list(zip(accumulate(flat[at + 2:end:2]), flat[at + 3:end:2]))))
                at = end
            self._postings[term] = found
        return found

    def scaled_postings(self, term: str) -> list[tuple[str, tuple[int, ...], tuple[float, ...]]]:
        """`scoring.scaled` of the term's postings, kept: done once per term, so a question only weighs and adds
        them."""
        found = self._scaled.get(term)
        if found is None:
            found = self._scaled[term] = scaled(self.postings(term))
        return found

    def facts(self) -> list[Fact]:
        """(kind, archived, glossary?, variant rule?) of every entry, by position."""
        return self._facts

    def titles(self) -> frozenset[str]:
        """The current documents' titles, as their terms joined by spaces (question.Vocabulary)."""
        return self._titles

    def archived_kinds(self) -> frozenset[str]:
        """The kinds whose every document is archived (question.Vocabulary)."""
        kinds = {document["kind"] for document in self.documents}
        return frozenset(kinds - {document["kind"] for document in self.documents if not document.get("archived")})

    # -- entries --------------------------------------------------------------------------------------

    def hit(self, position: int, score: float) -> Hit:
        number, title, heading, _, _, penalty, text, parent, targets, entry_id, action = self.rows[position]
        document = self._document_of[position]
        fact = self._facts[position]
        kind, archived, glossary = fact.kind, fact.archived, fact.glossary
        return Hit(id=entry_id, document=document["id"], kind=kind, number=number, title=title,
                   url=self.link(position), order=position, score=score, text=text,
                   headings=heading, penalty=penalty, section_kind="glossary" if glossary else "",
                   parent=self.rows[parent].id if parent >= 0 else "",
                   targets=tuple(self.rows[target].id for target in targets), archived=archived, action=action)

    def result(self, position: int, score: float, snippet: str) -> Result:
        """What an answer shows of an entry (engine's Result of its hit), made from its row."""
        number, title, heading, _, _, penalty, _, _, _, entry_id, action = self.rows[position]
        kind, archived = self._facts[position].kind, self._facts[position].archived
        return Result(entry_id, self._document_of[position]["id"], number, shown_title(title, heading), snippet,
                      self.link(position) or None, score, kind, penalty, not archived, action)

    def link(self, position: int) -> str:
        """An entry's address on the site ("cr/704/#704.5k"), as the worker makes it; "" if it has no page."""
        row = self.rows[position]
        return f"{self.pages[row.page]}#{row.anchor or row.number}" if self.pages[row.page] else ""

    def by_id(self, entry_id: str) -> Optional[Hit]:
        position = self.positions.get(entry_id)
        return None if position is None else self.hit(position, EXACT_SCORE)

    def by_number(self, number: str, kind: Optional[str] = None) -> list[Hit]:
        number = number.lower().rstrip(".")
        kinds = [kind] if kind else list(self._numbers)
        return [self.hit(position, EXACT_SCORE) for wanted in kinds
                for found, position in self._numbers.get(wanted, ()) if found == number][:MAX_NUMBERED]

    def by_parent(self, entry_id: str, limit: int = MAX_CHILDREN) -> list[Hit]:
        position = self.positions.get(entry_id)
        return [self.hit(child, EXACT_SCORE) for child in self._children.get(position, ())[:limit]]

    def numbers(self, kind: str) -> list[str]:
        return [number for number, _ in self._numbers.get(kind, ())]

    def numbers_in_order(self, kinds: tuple[str, ...]) -> tuple[list[tuple[str, str, str]], list[tuple]]:
        """Every number of the kinds as (number, label, kind), sorted as the rules sort them (the label "kind
        number" when several kinds are looked in), and their sort keys: made once."""
        if kinds not in self._in_order:
            labelled = sorted({(n, f"{kind} {n}" if len(kinds) > 1 else n, kind) for kind in kinds
                               for n in self.numbers(kind)}, key=lambda item: (natural_key(item[0]), item[1]))
            self._in_order[kinds] = labelled, [natural_key(n) for n, _, _ in labelled]
        return self._in_order[kinds]

    def folded_text(self, position: int) -> str:
        """An entry's text with its runs of spaces folded into one, as a snippet reads it (kept once made)."""
        text = self._folded.get(position)
        if text is None:
            text = self._folded[position] = SPACES.sub(" ", self.rows[position].text).strip()
        return text


def cited_of(manifest: dict) -> list[tuple[int, int, int]]:
    """The current remedies' cited sections as the build wrote them: (remedy, start, end) runs (index.cited_runs)."""
    return [(remedy, start, end) for remedy, start, end in manifest.get("cited", [])]


def _documents_of(documents: list[dict], entries: int) -> tuple[list, list[Fact]]:
    """Each entry's document (the manifest's) and its facts, by position."""
    document_of: list = [None] * entries
    facts = [Fact("", False, False, False)] * entries
    for document in documents:       # (by runs of positions, not one by one: a question in a fresh process waits)
        start, end = document["start"], document["end"]
        kind, archived = document["kind"], bool(document.get("archived"))
        glossary = range(*(document.get("glossary") or (0, 0)))
        document_of[start:end] = [document] * (end - start)
        facts[start:end] = [Fact(kind, archived, False, False)] * (end - start)
        facts[glossary.start:glossary.stop] = [Fact(kind, archived, True, False)] * len(glossary)
        for run_start, run_end in document.get("variants") or ():
            facts[run_start:run_end] = [Fact(kind, archived, position in glossary, True)
                                        for position in range(run_start, run_end)]
        # (a few sections each; the CR's lettered subrules, 2,000 of them, one run for each rule's)
        for runs, fact in (("infractions", "infraction"), ("remedies", "remedy"), ("subrules", "subrule"),
                           ("catch_alls", "catch_all"), ("intended", "intended")):
            for run_start, run_end in document.get(runs) or ():
                facts[run_start:run_end] = [facts[position]._replace(**{fact: True})
                                            for position in range(run_start, run_end)]
    return document_of, facts


PARENTS_FILE = "parents.json"     # beside the search files of an index kept for the command line (PublishedFiles)


class PublishedFiles(PublishedIndex):
    """The same search files, each read when a question first needs it: the words of the letters it starts
    with, the postings of its terms' shards, the display rows of its answers. What one question in a fresh
    process (`rulekb search`) reads, where the server reads everything once. Answers are PublishedIndex's.
    Beside the files, PARENTS_FILE (each entry's parent position) lists a section's subrules without reading
    every row; without it, they are found in every row."""

    def __init__(self, folder: Path | str):
        self.folder = Path(folder)
        manifest = self._read("manifest.json")
        self.build = manifest["build"]
        self._semantic_file = self.folder / manifest["semantic"] if manifest.get("semantic") else None
        self._semantic = False
        self._passages_file = self.folder / manifest["passages"] if manifest.get("passages") else None
        self._passages = None
        self.fields = manifest["fields"]
        self.pages = manifest["pages"]
        self.documents = manifest["documents"]
        self._titles = frozenset(manifest["titles"])
        self._word_files: dict[str, str] = manifest["words"]
        self._kept_files: dict[str, str] = manifest.get("kept", {})
        self._kept_of: dict[str, frozenset[str]] = {}           # letter -> the kept words starting with it
        self._term_files: dict[str, str] = manifest["terms"]
        self._numbers_file: str = manifest["numbers"]
        self.rows = _Rows(self, manifest["chunks"], manifest["entries"])
        self._postings, self._scaled, self._in_order, self._folded = {}, {}, {}, {}
        self._words: dict[str, dict[str, list]] = {}          # letter -> word -> [count, term]
        self._shards: dict[str, dict[str, list[int]]] = {}    # term file -> term -> flat postings
        self._document_of, self._facts = _documents_of(self.documents, manifest["entries"])
        self._cited = cited_of(manifest)

    def _read(self, name: str):
        return json.loads((self.folder / name).read_text(encoding="utf-8"))

    def _letter(self, letter: str) -> dict[str, list]:
        found = self._words.get(letter)
        if found is None:
            name = self._word_files.get(letter)
            found = self._words[letter] = {word: [count, term or word] for word, count, term in
                                           (self._read(name) if name else ())}
        return found

    def stem(self, word: str) -> Optional[str]:
        known = self._letter(word[:1]).get(word) if word else None
        return known[1] if known else None

    def words_starting(self, letter: str) -> list[tuple[str, int]]:
        return [(word, count) for word, (count, _) in self._letter(letter).items()]

    def kept(self, word: str) -> bool:
        letter = word[:1]
        if letter not in self._kept_of:
            name = self._kept_files.get(letter)
            self._kept_of[letter] = frozenset(self._read(name) if name else ())
        return word in self._kept_of[letter]

    @property
    def vocabulary(self) -> dict[str, list]:
        """Every word (all the word files read)."""
        for letter in self._word_files:
            self._letter(letter)
        return {word: known for words in self._words.values() for word, known in words.items()}

    @property
    def _flat(self) -> _Terms:
        return _Terms(self)

    @property
    def _numbers(self) -> dict[str, list[list]]:
        if "_numbers_read" not in self.__dict__:
            self.__dict__["_numbers_read"] = self._read(self._numbers_file)
        return self.__dict__["_numbers_read"]

    @property
    def positions(self) -> dict[str, int]:
        """Every entry's position by id (all the rows read)."""
        return {self.rows[position].id: position for position in range(len(self.rows))}

    def by_id(self, entry_id: str) -> Optional[Hit]:
        position = self.rows.position_of(entry_id)
        return None if position is None else self.hit(position, EXACT_SCORE)

    def by_parent(self, entry_id: str, limit: int = MAX_CHILDREN) -> list[Hit]:
        position = self.rows.position_of(entry_id)
        return [self.hit(child, EXACT_SCORE) for child in self._children_of(position)[:limit]]

    def _children_of(self, position: Optional[int]) -> list[int]:
        if position is None:
            return []
        if "_parents" not in self.__dict__:
            try:
                self.__dict__["_parents"] = self._read(PARENTS_FILE)
            except OSError:
                self.__dict__["_parents"] = [self.rows[at].parent for at in range(len(self.rows))]
        return [child for child, parent in enumerate(self.__dict__["_parents"]) if parent == position]


class _Terms:
    """The flat postings of a term, read from its shard (PublishedIndex._flat's `get`)."""

    def __init__(self, index: PublishedFiles):
        self.index = index

    def get(self, term: str) -> Optional[list[int]]:
        name = self.index._term_files.get(term[:2])
        if name is None:
            return None
        shard = self.index._shards.get(name)
        if shard is None:
            shard = self.index._shards[name] = self.index._read(name)
        return shard.get(term)


class _Rows:
    """The display rows by position, each file of consecutive rows read when one of them is first asked for."""

    def __init__(self, index: PublishedFiles, chunks: list[list], entries: int):
        self.index = index
        self.starts = [start for start, _ in chunks]
        self.names = [name for _, name in chunks]
        self.entries = entries
        self.read: dict[int, list[Row]] = {}           # chunk -> its rows
        self.ids: dict[str, int] = {}                   # the ids of the rows read

    def __len__(self) -> int:
        return self.entries

    def __getitem__(self, position: int) -> Row:
        if not 0 <= position < self.entries:
            raise IndexError(position)
        chunk = bisect.bisect_right(self.starts, position) - 1
        return self._chunk(chunk)[position - self.starts[chunk]]

    def _chunk(self, chunk: int) -> list[Row]:
        rows = self.read.get(chunk)
        if rows is None:
            rows = self.read[chunk] = [Row(*row) for row in self.index._read(self.names[chunk])]
            self.ids.update((row.id, self.starts[chunk] + at) for at, row in enumerate(rows))
        return rows

    def position_of(self, entry_id: str) -> Optional[int]:
        if entry_id not in self.ids:
            for chunk in range(len(self.names)):
                self._chunk(chunk)
        return self.ids.get(entry_id)
