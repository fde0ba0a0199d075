"""The site's search files (`browser.browser_files` writes them) read back as the engine reads an index.

What `rulekb serve` answers /api/search from: the words, the per-term scores and the display rows the
browser's worker fetches, so a question is read and ranked as the site's search box does it (`engine`
and `scoring` do the ranking, as for a whoosh index), and a new question costs dictionary look-ups,
not whoosh's scoring. Read once, whole (a few MB), then only read: threads may share one. No whoosh.
"""
from __future__ import annotations

import json
import re
from itertools import accumulate
from pathlib import Path
from typing import Optional

from .engine import Result, natural_key, shown_title
from .index import SCORE_SCALE, Hit
from .question import FIELD_BOOSTS
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
        self.fields: list[str] = manifest["fields"]
        self.pages: list[str] = manifest["pages"]
        self.documents: list[dict] = manifest["documents"]
        self.vocabulary: dict[str, list] = {}          # word -> [count, term], as KnowledgeBase.vocabulary
        self._by_letter: dict[str, list[tuple[str, int]]] = {}
        for letter, name in manifest["words"].items():
            rows = read(name)
            self._by_letter[letter] = [(word, count) for word, count, _ in rows]
            self.vocabulary.update((word, [count, term or word]) for word, count, term in rows)
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
        self._document_of = [None] * len(self.rows)
        self._facts: list[Fact] = [Fact("", False, False, False)] * len(self.rows)
        for document in self.documents:
            glossary = document.get("glossary") or (0, 0)
            variants = {position for start, end in document.get("variants") or () for position in range(start, end)}
            for position in range(document["start"], document["end"]):
                self._document_of[position] = document
                self._facts[position] = Fact(document["kind"], bool(document.get("archived")),
                                             glossary[0] <= position < glossary[1], position in variants)

    def semantic(self):
        """The site's semantic table (`semantic.Semantic`), read at the first long question; None without one."""
        if self._semantic is False:
            from . import semantic
            self._semantic = semantic.read_table(self._semantic_file.read_bytes()) if self._semantic_file else None
        return self._semantic

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
        """[(field, entry positions, (score / SCORE_SCALE) * the field's boost)]: the first two operations of
        scoring.add_postings done once per term (kept), so a question only weighs and adds them."""
        found = self._scaled.get(term)
        if found is None:
            found = self._scaled[term] = [
                (name, tuple(position for position, _ in postings),
                 tuple((value / SCORE_SCALE) * FIELD_BOOSTS[name] for _, value in postings))
                for name, postings in self.postings(term)]
        return found

    def facts(self) -> list[Fact]:
        """(kind, archived, glossary?, variant rule?) of every entry, by position."""
        return self._facts

    def archived_kinds(self) -> frozenset[str]:
        """The kinds whose every document is archived (question.Vocabulary)."""
        kinds = {document["kind"] for document in self.documents}
        return frozenset(kinds - {document["kind"] for document in self.documents if not document.get("archived")})

    # -- entries --------------------------------------------------------------------------------------

    def hit(self, position: int, score: float) -> Hit:
        number, title, heading, _, _, penalty, text, parent, targets, entry_id, action = self.rows[position]
        document = self._document_of[position]
        kind, archived, glossary, _ = self._facts[position]
        return Hit(id=entry_id, document=document["id"], kind=kind, number=number, title=title,
                   url=self.link(position), order=position, score=score, text=text,
                   headings=heading, penalty=penalty, section_kind="glossary" if glossary else "",
                   parent=self.rows[parent].id if parent >= 0 else "",
                   targets=tuple(self.rows[target].id for target in targets), archived=archived, action=action)

    def result(self, position: int, score: float, snippet: str) -> Result:
        """What an answer shows of an entry (engine's Result of its hit), made from its row."""
        number, title, heading, _, _, penalty, _, _, _, entry_id, action = self.rows[position]
        kind, archived, _, _ = self._facts[position]
        return Result(entry_id, self._document_of[position]["id"], number, shown_title(title, heading), snippet,
                      self.link(position) or None, score, kind, penalty, not archived, action)

    def link(self, position: int) -> str:
        """An entry's address on the site ("cr/704/#704.5k"), as the worker makes it; "" if it has no page."""
        row = self.rows[position]
        return f"{self.pages[row.page]}#{row.anchor or row.number}" if self.pages[row.page] else ""

    def by_id(self, entry_id: str) -> Optional[Hit]:
        position = self.positions.get(entry_id)
        return None if position is None else self.hit(position, 0.0)

    def by_number(self, number: str, kind: Optional[str] = None) -> list[Hit]:
        number = number.lower().rstrip(".")
        kinds = [kind] if kind else list(self._numbers)
        return [self.hit(position, 0.0) for wanted in kinds
                for found, position in self._numbers.get(wanted, ()) if found == number][:MAX_NUMBERED]

    def by_parent(self, entry_id: str, limit: int = MAX_CHILDREN) -> list[Hit]:
        position = self.positions.get(entry_id)
        return [self.hit(child, 0.0) for child in self._children.get(position, ())[:limit]]

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
