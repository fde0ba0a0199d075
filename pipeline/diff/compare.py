"""Compare two editions of a document: what was added, removed, reworded or renumbered.

`compare(old, new)` pairs the sections of two editions and says what happened to
each: unchanged, changed in place, moved to another number (with or without a
text change), added or removed. Renumbering is recognised: when rules are
inserted and later ones shift (702.19 becomes 702.20, 702.19a becomes 702.20a),
the shifted rules are moves, not removals plus additions. Rule numbers inside the
texts are masked while pairing, since a renumbering also rewrites the numbers the
rules cite.

The pairing goes level by level (chapters, sections, rules, subrules), so that
where a parent went is known before its children are paired; at each level,
each step only sees what the earlier ones left unpaired:

1. same number and same text, or differing in layout alone: unchanged (unless the parents went different ways:
   the old 702.20c stays with its parent 702.20 -> 702.21 even when the new
   702.20c reads word for word the same);
2. the same text once rule numbers are masked (and typography made plain), found exactly once on each side
   (a move if the numbers differ, a change if only cited numbers do); then the
   same heading, found once on each side ("Sideboard", MTR 3.15 -> 3.16);
3. similar texts (similarity of the masked words, or of title and body alone
   when only the examples changed): at the same number, at the number the
   parent's renumbering implies (509.4a under 509.4 -> 509.2 is looked for at
   509.2a), under the same parent, or among the unpaired sections near where the
   previous paired section went; best pairs first, ties going to the expected number;
4. the rest: added or removed.

"Changed" and `text_changed` compare the literal texts (title, an infraction's
penalty, body and examples): a rule whose only difference is a cited rule number is
changed, with `numbers_only` True so a reader can tell it apart from a rewording. A
rule whose texts differ in layout alone (spacing, a word joined at a line end:
`layout`) is not changed: it is listed apart (`EditionDiff.layout_only`), and a move
of it has `text_changed` False and `layout_only` True.

Excerpts (`info.excerpt`) are compared only on the sections they contain: sections
of the full edition outside the excerpt's top-level sections (and, for a
truncated excerpt, after its last section) are neither added nor removed, nor
are bare headings the excerpt leaves out above rules it has ("800. General"). An
excerpt without a glossary is not compared on the glossary.

Word-level highlights are in `words`, a document's own change appendix in
`announced`, the history of each rule across editions in `history`.
"""
from __future__ import annotations

import bisect
import re
import weakref
from dataclasses import dataclass, field
from typing import Iterable, Optional

from ..distance import similarity
from ..model import Document, GlossaryEntry, Section
from .layout import layout_only, plain_marks

# Pairs below these similarities (of the number-masked words) are not the same rule.
SAME_NUMBER_SIMILARITY = 0.5
NEARBY_SIMILARITY = 0.6
SIMILAR_TITLE = 0.75     # headings this alike at the same number make a rewritten section "changed"
# Score bonuses for where a candidate is, that break ties between about equally similar candidates.
SAME_NUMBER_BONUS = 0.1  # at its own number, its parent not renumbered
RENUMBERED_BONUS = 0.15  # at the number the renumbering of its parent implies (509.4a -> 509.2a)
SAME_PARENT_BONUS = 0.05
WINDOW = 25              # unpaired sections of the same level either side of where a section is looked for
MAX_CANDIDATES = 200     # siblings under the same parent looked at, to keep pathological inputs fast


# --------------------------------------------------------------------------- results

@dataclass(frozen=True)
class Change:
    """A section kept at the same number whose text changed."""
    old_id: str
    new_id: str
    old_text: str
    new_text: str
    numbers_only: bool = False    # the texts differ only in the rule numbers they cite


@dataclass(frozen=True)
class Move:
    """A section found at another number in the new edition (renumbered or moved)."""
    from_id: str
    to_id: str
    old_text: str
    new_text: str
    text_changed: bool
    numbers_only: bool = False    # text_changed, but only in the rule numbers it cites
    layout_only: bool = False     # the texts differ in layout alone (text_changed is then False)


@dataclass(frozen=True)
class GlossaryChange:
    term: str
    old_text: str
    new_text: str


@dataclass(frozen=True)
class GlossaryDiff:
    added: tuple[str, ...] = ()
    removed: tuple[str, ...] = ()
    changed: tuple[GlossaryChange, ...] = ()


@dataclass(frozen=True)
class EditionDiff:
    old: str                                  # document ids
    new: str
    added: tuple[str, ...] = ()               # new section ids
    removed: tuple[str, ...] = ()             # old section ids
    changed: tuple[Change, ...] = ()
    moved: tuple[Move, ...] = ()
    glossary: GlossaryDiff = field(default_factory=GlossaryDiff)
    old_edition: Optional[str] = None
    new_edition: Optional[str] = None
    layout_only: tuple[Change, ...] = ()     # kept at the same number, their texts differing in layout alone

    @property
    def is_empty(self) -> bool:
        return not (self.added or self.removed or self.changed or self.moved or self.glossary.added
                    or self.glossary.removed or self.glossary.changed)


# --------------------------------------------------------------------------- texts

# Rule numbers as the documents cite them: "702.19a", "509.1", "rule 727" (three digits
# alone), "section 2.3" (MTR/IPG). Four-digit numbers (years) and small counts stay.
_RULE_NUMBER = re.compile(r"(?<![\w.])(?:\d{1,3}(?:\.\d+)+[a-z]?|[1-9]\d{2}[a-z]?)(?![\w])")
_WORD = re.compile(r"\w+(?:['’]\w+)*|[^\w\s]")


def section_text(section: Section) -> str:
    """What is compared: the title, an infraction's penalty, the body and the examples of a section (those its
    body does not already hold)."""
    parts = [section.title.strip()] if section.title.strip() else []
    if section.infraction is not None and section.infraction.penalty:
        parts.append(f"Penalty: {section.infraction.penalty}")
    body = section.text.strip()
    if body:
        parts.append(body)
    parts.extend(example.strip() for example in examples_outside_body(section))
    return "\n\n".join(parts)


def examples_outside_body(section: Section) -> list[str]:
    """The examples of a section that its body does not hold already (an IPG keeps its lettered examples
    in place in the body, and lists them as examples too): each example said once."""
    if not section.examples:
        return []
    in_body = {block.as_text() for block in section.blocks} | {block.text for block in section.blocks}
    return [example for example in section.examples if example.strip() and example not in in_body]


def mask_numbers(text: str) -> str:
    """The text with every rule number replaced by "#" and whitespace collapsed."""
    return " ".join(_RULE_NUMBER.sub("#", text).split())


def _key(section_or_id) -> str:
    """The part of an id after "<document>:" ("cr:702.19a" -> "702.19a"), the same across editions."""
    ident = section_or_id if isinstance(section_or_id, str) else section_or_id.id
    return ident.split(":", 1)[1] if ":" in ident else ident


class _Item:
    """A section as the pairing sees it; the masked text and the words are worked out when needed."""
    __slots__ = ("section", "key", "text", "index", "parent", "_masked", "_words", "_core")

    def __init__(self, section: Section, index: int):
        self.section = section
        self.key = _key(section)
        self.text = section_text(section)
        self.index = index
        self.parent = _key(section.parent) if section.parent else None
        self._masked = self._words = self._core = None

    @property
    def masked(self) -> str:
        if self._masked is None:
            self._masked = mask_numbers(plain_marks(self.text))   # "player’s" is the word "player's"
        return self._masked

    @property
    def words(self) -> list:
        if self._words is None:
            self._words = _WORD.findall(self.masked.lower())
        return self._words

    @property
    def core(self) -> list:
        """The words of the title and body alone: a rule whose examples were rewritten is still itself."""
        if self._core is None:
            if self.section.examples:
                core = " ".join(part for part in (self.section.title, self.section.text) if part.strip())
                self._core = _WORD.findall(mask_numbers(core).lower())
            else:
                self._core = self.words
        return self._core


def _items(document: Document) -> list[_Item]:
    """One item per section id (a duplicated id keeps its first section). The items of the last two documents
    are kept while the documents live: a chain of editions compares each with the one before, then the one
    after (the items only learn their masked text and words, once)."""
    for held, items in _held_items:
        if held() is document:
            return items
    by_id: dict[str, Section] = {}
    for section in document.sections:
        by_id.setdefault(section.id, section)
    items = [_Item(section, index) for index, section in enumerate(document.sections)
             if by_id[section.id] is section]
    _held_items[:] = [*_held_items[-1:], (weakref.ref(document, _forget_items), items)]
    return items


_held_items: list[tuple[weakref.ref, list[_Item]]] = []


def _forget_items(gone: weakref.ref) -> None:
    _held_items[:] = [(held, items) for held, items in _held_items if held is not gone]


def _ancestor_keys(section: Section, by_id: dict) -> list[str]:
    keys = [_key(section)]
    seen = {section.id}
    current = section
    while current.parent and current.parent not in seen:
        keys.append(_key(current.parent))
        seen.add(current.parent)
        if current.parent not in by_id:
            break
        current = by_id[current.parent]
    return keys


# --------------------------------------------------------------------------- excerpts

def _scope_filter(items: list[_Item], document: Document, excerpt: Document) -> list[_Item]:
    """The items of `document` that fall inside what `excerpt` covers."""
    excerpt_by_id = {section.id: section for section in excerpt.sections}
    roots = {_ancestor_keys(section, excerpt_by_id)[-1] for section in excerpt.sections}
    by_id = {section.id: section for section in document.sections}
    kept = [item for item in items if roots & set(_ancestor_keys(item.section, by_id))]
    if not excerpt.info.complete and excerpt.sections:
        # A truncated excerpt: nothing after its last section counts either.
        last = _key(excerpt.sections[-1])
        position = next((i for i, item in enumerate(kept) if item.key == last), None)
        if position is not None:
            stop = position + 1
            # keep the last section's own descendants (they may be cut short as well, but they are its)
            while stop < len(kept) and last in _ancestor_keys(kept[stop].section, by_id)[1:]:
                stop += 1
            kept = kept[:stop]
    return kept


# --------------------------------------------------------------------------- pairing

@dataclass
class _Pairing:
    old: Document
    new: Document
    pairs: dict            # new key -> old key (every paired section, unchanged ones included)
    old_items: dict        # key -> _Item
    new_items: dict
    old_order: list        # keys in document order (in scope)
    new_order: list


def _similarity(a: _Item, b: _Item, cutoff: float) -> float:
    """The similarity of the masked words; of the title and body alone if that is higher."""
    if a.masked == b.masked:
        return 1.0
    best = _ratio(a.words, b.words, cutoff)
    if best < 1.0 and (a.section.examples or b.section.examples) and a.core and b.core:
        best = max(best, _ratio(a.core, b.core, max(cutoff, best)))
    return best


def _ratio(a: list, b: list, cutoff: float) -> float:
    """The words' similarity (longest common subsequence); 0.0 when below `cutoff` (the lengths alone
    can show it)."""
    if not a or not b or 2.0 * min(len(a), len(b)) / (len(a) + len(b)) < cutoff:
        return 0.0
    return similarity(a, b, cutoff)


def _pair(old: Document, new: Document) -> _Pairing:
    old_list, new_list = _items(old), _items(new)
    if new.info.excerpt:
        old_list = _scope_filter(old_list, old, new)
    if old.info.excerpt:
        new_list = _scope_filter(new_list, new, old)
    pairer = _Pairer(old_list, new_list)
    # Level by level (chapters, then sections, then rules, then subrules), so that where
    # a parent went is known before its children are paired.
    for level in sorted({item.section.level for item in old_list} | {item.section.level for item in new_list}):
        pairer.pair_level(level)
    return _Pairing(old, new, pairer.pairs, pairer.old_items, pairer.new_items,
                    [item.key for item in old_list], [item.key for item in new_list])


class _Pairer:
    """The pairs found so far, and the three steps of the module's docstring that add to them."""

    def __init__(self, old_list: list[_Item], new_list: list[_Item]):
        self.old_list, self.new_list = old_list, new_list
        self.old_items = {item.key: item for item in old_list}
        self.new_items = {item.key: item for item in new_list}
        self.pairs: dict[str, str] = {}        # new key -> old key
        self.paired_old: dict[str, str] = {}   # old key -> new key

    def accept(self, old_key: str, new_key: str) -> None:
        self.pairs[new_key] = old_key
        self.paired_old[old_key] = new_key

    def pair_level(self, level: int) -> None:
        olds = [item for item in self.old_list if item.section.level == level]
        news = [item for item in self.new_list if item.section.level == level]
        if not olds or not news:
            return
        self._same_number_and_text(news, level)
        self._same_unique_text_or_title(olds, news)
        olds = [item for item in olds if item.key not in self.paired_old]
        news = [item for item in news if item.key not in self.pairs]
        if olds and news:
            self._similar(olds, news, level)

    def _same_number_and_text(self, news: list[_Item], level: int) -> None:
        """Step 1: same number, same text (unless the parents went different ways)."""
        for item in news:
            other = self.old_items.get(item.key)
            if (other is not None and other.section.level == level and _same_words(other, item)
                    and not self._contradicts(other, item)):
                self.accept(other.key, item.key)

    def _same_unique_text_or_title(self, olds: list[_Item], news: list[_Item]) -> None:
        """Step 2: the same number-masked text, once on each side; then the same heading, once on each side."""
        for value in (_masked, _title):
            old_unique = _unique(olds, self.paired_old, value)
            for found, new_key in _unique(news, self.pairs, value).items():
                old_key = old_unique.get(found)
                if old_key is not None:
                    self.accept(old_key, new_key)

    def _similar(self, olds: list[_Item], news: list[_Item], level: int) -> None:
        """Step 3: similar texts at the same number, at the number the parent's renumbering implies,
        or nearby; the best pairs first."""
        news_by_parent: dict[Optional[str], list[_Item]] = {}
        for item in news:
            news_by_parent.setdefault(item.parent, []).append(item)
        new_positions = [item.index for item in news]
        anchors = _anchors(self.old_list, self.paired_old, self.new_items)
        candidates = []
        for item in olds:
            expected = _expected_key(item, self.paired_old)
            mapped_parent = self.paired_old.get(item.parent, item.parent) if item.parent else None
            # near: the unpaired sections of this level around where the previous paired section went ...
            at = bisect.bisect_left(new_positions, anchors[item.key])
            pool = {candidate.key: candidate for candidate in news[max(0, at - WINDOW):at + WINDOW]}
            # ... and those under the same (renumbered) parent, and at its own or the expected number
            siblings = news_by_parent.get(mapped_parent, [])[:MAX_CANDIDATES]
            pool.update((candidate.key, candidate) for candidate in siblings)
            for key in (item.key, expected):
                candidate = self.new_items.get(key)
                if candidate is not None and key not in self.pairs and candidate.section.level == level:
                    pool[key] = candidate
            for candidate in pool.values():
                score = _pair_score(item, candidate, expected, mapped_parent)
                if score is not None:
                    candidates.append((-score, item.index, candidate.index, item.key, candidate.key))
        candidates.sort()
        for _, _, _, old_key, new_key in candidates:
            if old_key not in self.paired_old and new_key not in self.pairs:
                self.accept(old_key, new_key)

    def _contradicts(self, before: _Item, after: _Item) -> bool:
        """The parents were paired elsewhere: 702.20c stays with 702.20 -> 702.21, however alike 702.20c reads."""
        pairs, paired_old = self.pairs, self.paired_old
        if before.parent == after.parent and pairs.get(after.parent, before.parent) == before.parent:
            return False
        if before.parent in paired_old and paired_old[before.parent] != after.parent and after.parent in self.old_items:
            return True
        return after.parent in pairs and pairs[after.parent] != before.parent and before.parent in self.new_items


def _pair_score(item: _Item, candidate: _Item, expected: str, mapped_parent: Optional[str]) -> Optional[float]:
    """How well an unpaired old section pairs with a new one (None: not at all); ties go to the
    expected number and the same parent."""
    same = candidate.key == item.key
    at_expected = candidate.key == expected     # where its parent went (its own number if that stayed)
    threshold = SAME_NUMBER_SIMILARITY if (same or at_expected) else NEARBY_SIMILARITY
    if same and _title(item) and _title(item) == _title(candidate):
        ratio = 1.0    # the same number and the same heading: the same section, however rewritten
    else:
        ratio = _similarity(item, candidate, threshold)
        if ratio < threshold and same and _similar_titles(item, candidate):
            ratio = threshold   # "Deck/Decklist Problem" -> "Deck Problem", body rewritten
        if ratio < threshold:
            return None
    if at_expected:
        ratio += SAME_NUMBER_BONUS if same else RENUMBERED_BONUS
    return ratio + SAME_PARENT_BONUS * (candidate.parent == mapped_parent)


def _unique(items: list[_Item], taken, value) -> dict:
    """value -> key of the unpaired items whose value no other unpaired item shares."""
    counts: dict = {}
    for item in items:
        if item.key not in taken and value(item):
            counts[value(item)] = counts.get(value(item), 0) + 1
    return {value(item): item.key for item in items
            if item.key not in taken and value(item) and counts[value(item)] == 1}


def _same_words(a: _Item, b: _Item) -> bool:
    """The same text, or the same in all but layout (diff.layout): the masked texts are the cheap test first."""
    return a.text == b.text or (a.masked == b.masked and layout_only(a.text, b.text))


def _masked(item: _Item) -> str:
    return item.masked


def _title(item: _Item):
    text = " ".join(item.section.title.split()).casefold()
    return (item.section.level, text) if text else None


def _similar_titles(a: _Item, b: _Item) -> bool:
    first, second = _WORD.findall(a.section.title.lower()), _WORD.findall(b.section.title.lower())
    if not first or not second:
        return False
    return similarity(first, second) >= SIMILAR_TITLE


def _anchors(old_list: list, paired_old: dict, new_items: dict) -> dict[str, int]:
    """For each old section, the new position of the nearest paired section before it (0 if none)."""
    anchors, position = {}, 0
    for item in old_list:
        anchors[item.key] = position
        counterpart = paired_old.get(item.key)
        if counterpart is not None:
            position = new_items[counterpart].index
    return anchors


def _expected_key(item: _Item, paired_old: dict) -> str:
    """Where the renumbering of its parent puts a section: 509.4a, parent 509.4 -> 509.2, gives 509.2a."""
    parent = item.parent
    if parent and parent in paired_old and item.key.startswith(parent):
        return paired_old[parent] + item.key[len(parent):]
    return item.key


# --------------------------------------------------------------------------- compare

def compare(old: Document, new: Document) -> EditionDiff:
    """What changed from `old` to `new` (two editions of the same kind of document)."""
    pairing = _pair(old, new)
    paired_old = set(pairing.pairs.values())
    added = [key for key in pairing.new_order if key not in pairing.pairs]
    removed = [key for key in pairing.old_order if key not in paired_old]
    if old.info.excerpt:
        added = _drop_missing_headings(added, pairing.new_items, set(pairing.pairs))
    if new.info.excerpt:
        removed = _drop_missing_headings(removed, pairing.old_items, paired_old)
    added = tuple(pairing.new_items[key].section.id for key in added)
    removed = tuple(pairing.old_items[key].section.id for key in removed)
    changed, moved, relaid = [], [], []
    for new_key in pairing.new_order:
        old_key = pairing.pairs.get(new_key)
        if old_key is None:
            continue
        before, after = pairing.old_items[old_key], pairing.new_items[new_key]
        relaid_only = layout_only(before.text, after.text)
        differs = before.text != after.text and not relaid_only
        numbers_only = differs and before.masked == after.masked
        if old_key == new_key:
            if differs or relaid_only:
                (changed if differs else relaid).append(
                    Change(before.section.id, after.section.id, before.text, after.text, numbers_only))
        else:
            moved.append(Move(before.section.id, after.section.id, before.text, after.text, differs, numbers_only,
                              relaid_only))
    return EditionDiff(old.id, new.id, added, removed, tuple(changed), tuple(moved),
                       compare_glossary(old, new), old.info.edition, new.info.edition, tuple(relaid))


def _drop_missing_headings(keys: list, items: dict, paired: set) -> list:
    """Leave out bare headings ("800. General") an excerpt skips while it has rules under them."""
    with_paired_children = {items[key].parent for key in paired if key in items and items[key].parent}
    return [key for key in keys
            if not (key in with_paired_children and not items[key].section.blocks and not items[key].section.examples)]


def compare_glossary(old: Document, new: Document) -> GlossaryDiff:
    """Term by term (a term whose texts differ in layout alone is not changed). An excerpt without a glossary is
    not compared on its glossary at all."""
    if (old.info.excerpt and not old.glossary) or (new.info.excerpt and not new.glossary):
        return GlossaryDiff()
    before = _glossary_map(old.glossary)
    after = _glossary_map(new.glossary)
    added = tuple(after[key][0] for key in after if key not in before)
    removed = tuple(before[key][0] for key in before if key not in after)
    changed = tuple(GlossaryChange(after[key][0], before[key][1], after[key][1])
                    for key in after if key in before and before[key][1] != after[key][1]
                    and not layout_only(before[key][1], after[key][1]))
    return GlossaryDiff(added, removed, changed)


def _glossary_map(entries: Iterable[GlossaryEntry]) -> dict[str, tuple[str, str]]:
    """Normalised term (spacing, case and typography: "Isn't" is "Isn’t") -> (term as written, text). A term
    listed twice keeps its texts joined."""
    found: dict[str, tuple[str, str]] = {}
    for entry in entries:
        key = " ".join(plain_marks(entry.term).split()).casefold()
        if key in found:
            term, text = found[key]
            found[key] = (term, f"{text}\n\n{entry.text}")
        else:
            found[key] = (entry.term, entry.text)
    return found


def diff_json(d: EditionDiff) -> dict:
    return {
        "old": d.old,
        "new": d.new,
        "old_edition": d.old_edition,
        "new_edition": d.new_edition,
        "numbers_only": [c.new_id for c in d.changed if c.numbers_only],
        "layout_only": [c.new_id for c in d.layout_only] + [m.to_id for m in d.moved if m.layout_only],
        "added": list(d.added),
        "removed": list(d.removed),
        "changed": [{"id": c.new_id, "old_text": c.old_text, "new_text": c.new_text} for c in d.changed],
        "moved": [{"from": m.from_id, "to": m.to_id, "text_changed": m.text_changed, "layout_only": m.layout_only,
                   "old_text": m.old_text, "new_text": m.new_text} for m in d.moved],
        "glossary": {
            "added": list(d.glossary.added),
            "removed": list(d.glossary.removed),
            "changed": [{"term": g.term, "old_text": g.old_text, "new_text": g.new_text} for g in d.glossary.changed],
        },
    }
