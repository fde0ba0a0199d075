"""The whoosh index: written from search entries, read by the engine, exported for the browser.

The only module that imports whoosh. It stores and retrieves plain data (Entry, Hit): what a
question means and how results are ordered are `question`'s and `engine`'s business. The
schema is declared up front; the analysis (tokens, stop words, Porter stems) is the one
`question` describes. Besides whoosh's files, an index folder holds `vocabulary.json` (every
word of the documents: how often, and the term it becomes), `kept.json` (the English words a question's word is
left as typed for, not corrected: `kept_words`) and `state.json`.
"""
from __future__ import annotations

import json
import re
from collections import Counter
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path
from typing import Iterable, Iterator, Optional

from whoosh import index as whoosh_index
from whoosh.analysis import Filter, LowercaseFilter, RegexTokenizer, StemFilter, StopFilter
from whoosh.fields import BOOLEAN, ID, NUMERIC, STORED, TEXT, Schema
from whoosh.lang.porter import stem as whoosh_stem
from whoosh.query import Term
from whoosh.scoring import BM25F

from ..kinds import game_rules
from . import in_use
from .forms import BASE_FORMS
from .hits import SCORE_SCALE, SUBRULE, Hit  # (plain data, kept apart so that answering loads no whoosh)
from .naming import catch_all, intended, is_infraction, prescribes
from .passages import PASSAGES_FILE, passage_rows, read_rows
from .question import (
    FIELD_BOOSTS,
    MIN_CORRECTION,
    STOP_WORDS,
    TOKEN,
    TOKENS,
    fold,
    has_closest_word,
    is_variant,
    known_base,
    meanings,
    terms,
)
from .scoring import scaled
from .semantic import english_words
from .signals import Fact


class FoldQuotes(Filter):
    """"player’s" and "player's" are one word (question.fold)."""

    def __call__(self, tokens):
        for token in tokens:
            token.text = fold(token.text)
            yield token


CATEGORY = re.compile(r"\s[—–]\s")          # an infraction's title: its category, a dash, its name
# "drew", "drawn" -> "draw", but not a form the judges' words give a meaning of its own ("took": theft).
IRREGULAR = {form: verb for form, verb in BASE_FORMS.items() if form not in meanings()}


class BaseForms(Filter):
    """"drew", "drawn" -> "draw" (IRREGULAR), before the stemmer, which knows only regular endings."""

    def __call__(self, tokens):
        for token in tokens:
            token.text = IRREGULAR.get(token.text, token.text)
            yield token


def porter_stem(word: str) -> str:
    """Porter's stem, with the two rules of step 1b that whoosh's stemmer never applies (their tests are anchored
    at the word's start): a stem left by -ed/-ing ending in at, bl or iz takes back its e ("activated" is
    "activate", "randomized" "randomize"); one ending in a doubled consonant loses one ("tapped", "tapping" ->
    "tap" as "tap"), but not l, s, z ("falling", "missed", "buzzed") nor in a stem of three letters ("added" ->
    "add", "erred" -> "err", not Porter's "ad", apart from "add")."""
    stemmed = whoosh_stem(word)
    said = word[:-1] if word.endswith("s") and not word.endswith("ss") else word    # (after step 1a's plural)
    ending = next((ending for ending in ("ed", "ing") if said.endswith(ending)), None)
    if not ending or stemmed != said[:-len(ending)]:
        return stemmed
    if stemmed.endswith(("at", "bl", "iz")):
        return whoosh_stem(stemmed + "e")      # "activated" as "activate", "randomized" as "randomize"
    if len(stemmed) > 3 and stemmed[-1] == stemmed[-2] and stemmed[-1] not in "aeiouylsz":
        return stemmed[:-1]      # (no later step of Porter's changes a stem ending in a doubled consonant)
    return stemmed


class CrossReferences(Filter):
    """The "see" of a reference to another rule ("See rule 702.19", "(see also rules 613.7 and 613.8)") is no word
    of the text: it is in a third of the entries, which would make "saw the top card" a common word's call."""

    def __call__(self, tokens):
        held: list = []                  # a "see" and the words between it and a number
        for token in tokens:
            if held:
                if token.text in REFERENCE_WORDS:
                    held.append(token.copy())
                    continue
                yield from (held[1:] if token.text[:1].isdigit() else held)
                held = []
            if token.text == "see":
                held = [token.copy()]
                continue
            yield token
        yield from held


REFERENCE_WORDS = frozenset(["also", "rule", "rules", "section", "sections"])
ANALYZER = (RegexTokenizer(TOKEN) | FoldQuotes() | LowercaseFilter() | CrossReferences()
            | StopFilter(stoplist=STOP_WORDS) | BaseForms() | StemFilter(stemfn=porter_stem))
WORDS_AS_WRITTEN = RegexTokenizer(TOKEN) | FoldQuotes() | LowercaseFilter() | StopFilter(stoplist=STOP_WORDS)
PHRASES = RegexTokenizer(r"[^|]+")      # "addit turn|plai first": each phrase one term
PHRASE_SLACK = 1                          # words a phrase may have between its own ("gains that much life")
SCHEMA_VERSION = "11"

class Weighting(BM25F):
    """whoosh's BM25F, but for the judges' notes: a note's word weighs by its rarity in the rules' own text (not
    among the few notes, where every word is rare), whatever the note's length (commentary_B=0). So a note says
    a word at most as strongly as a short rule does, and FIELD_BOOSTS["commentary"] puts it well below."""

    def scorer(self, searcher, fieldname, text, qf=1):
        scorer = super().scorer(searcher, fieldname, text, qf)
        if fieldname == "commentary" and hasattr(scorer, "idf"):
            scorer.idf = searcher.get_parent().idf("text", text)
        return scorer


KEPT_FILE = "kept.json"      # English words a question's word is left as typed for (`kept_words`)

# An infraction's former names, as the notes: held by a few entries only, their length is not measured against
# an average over thousands without any (which would make every score round to nothing).
WEIGHTING = Weighting(commentary_B=0.0, former_B=0.0)

SCHEMA = Schema(
    id=ID(stored=True, unique=True),
    document=ID(stored=True),
    kind=ID(stored=True),
    number=ID(stored=True),               # lower-cased number, the exact key: "704.5k", "2.1", "appendix a"
    label=STORED,                         # the number as the document writes it: "Appendix A"
    section_kind=ID(stored=True),
    title=TEXT(analyzer=ANALYZER, stored=True, phrase=False, field_boost=FIELD_BOOSTS["title"]),
    exact=TEXT(analyzer=WORDS_AS_WRITTEN, phrase=False, field_boost=FIELD_BOOSTS["exact"]),
    aliases=TEXT(analyzer=ANALYZER, phrase=False, field_boost=FIELD_BOOSTS["aliases"]),
    former=TEXT(analyzer=ANALYZER, phrase=False, field_boost=FIELD_BOOSTS["former"]),   # an infraction's old names
    headings=TEXT(analyzer=ANALYZER, stored=True, phrase=False, field_boost=FIELD_BOOSTS["headings"]),
    text=TEXT(analyzer=ANALYZER, stored=True, phrase=False, field_boost=FIELD_BOOSTS["text"]),
    phrases=TEXT(analyzer=PHRASES, phrase=False, field_boost=FIELD_BOOSTS["phrases"]),
    # The judges' annotations on a rule. Their weight is FIELD_BOOSTS["commentary"], applied by the ranking
    # only: whoosh's own boost (and its length normalisation, against an average over the many rules without
    # a note) would make a note's scores round to zero in the exported hundredths.
    commentary=TEXT(analyzer=ANALYZER, phrase=False),
    url=STORED,
    edition=STORED,
    archived=BOOLEAN(stored=True),
    order=NUMERIC(stored=True),
    penalty=STORED,
    action=STORED,                        # what a judge does: an infraction's remedy, a JAR situation's fix
    parent=ID(stored=True),
    targets=STORED,
    cites=STORED,                         # the sections of other documents it cites ("section 4" of the MTR)
)


@dataclass(frozen=True)
class Entry:
    """One searchable thing: a section, rule, subrule, infraction or glossary term of a current edition."""
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
    order: int
    archived: bool = False
    penalty: str = ""
    parent: str = ""
    aliases: str = ""
    former: str = ""           # the names older editions gave an infraction ("Drawing Extra Cards")
    targets: str = ""          # for a glossary term: the sections it points at
    action: str = ""           # the first thing to do: an infraction's remedy, a JAR situation's fix
    commentary: str = ""       # the judges' annotations on it (searched, weighing little; not shown)
    cites: str = ""            # the sections of other documents its text cites, by id


def write_index(entries: Iterable[Entry], directory: Path | str, fingerprint: str = "") -> int:
    """Write a fresh index into `directory` (a new folder); return the number of entries."""
    entries = list(entries)
    directory = Path(directory)
    directory.mkdir(parents=True, exist_ok=True)
    ix = whoosh_index.create_in(str(directory), SCHEMA)
    writer = ix.writer(limitmb=256)   # one segment: document numbers follow `order`, queries are faster
    words: Counter = Counter()
    phrases = meaning_phrases()
    for entry in sorted(entries, key=lambda entry: entry.order):
        writer.add_document(
            id=entry.id, document=entry.document, kind=entry.kind, number=entry.number.lower(), label=entry.number,
            section_kind=entry.section_kind, title=entry.title, exact=entry.title, aliases=entry.aliases,
            former=entry.former,
            headings=entry.headings,
            text=entry.text, phrases=phrases_said(phrases, entry.title, entry.aliases, *entry.headings.split(" › "),
                                                  entry.text),
            url=entry.url, edition=entry.edition, archived=entry.archived, order=entry.order,
            penalty=entry.penalty, action=entry.action, parent=entry.parent, targets=entry.targets,
            commentary=entry.commentary, cites=entry.cites)
        for value in (entry.title, entry.aliases, entry.former, entry.headings, entry.text, entry.commentary):
            words.update(token for token in TOKENS.findall(fold(value).lower()) if token not in STOP_WORDS)
    writer.commit()
    for form, verb in IRREGULAR.items():     # "drew" is "draw" in a question, though no document says "drew"
        if form not in words and verb in words:
            words[form] = 0
    vocabulary = {word: [count, _term_of(word)] for word, count in sorted(words.items())}
    (directory / "vocabulary.json").write_text(json.dumps(vocabulary, ensure_ascii=False))
    (directory / KEPT_FILE).write_text(json.dumps(kept_words(vocabulary)))
    texts = [entry.text for entry in sorted(entries, key=lambda entry: entry.order)]
    (directory / PASSAGES_FILE).write_text(json.dumps(passage_rows(texts, _stems), ensure_ascii=False,
                                                      separators=(",", ":")))
    (directory / "state.json").write_text(json.dumps({"fingerprint": fingerprint, "entries": len(entries),
                                                      "schema": SCHEMA_VERSION}))
    return len(entries)


def cited_runs(stored: list[dict], facts: list[Fact]) -> list[tuple[int, int, int]]:
    """(remedy, start, end) for each section of another document that a current remedy cites (IPG 3.7, Communication
    Policy Violation: "the Communication policies detailed in section 4 of the Magic Tournament Rules"), then for each
    chapter its name names (`named_chapters`): the positions of that section and of the sections under it, which
    follow it in document order (scoring.remedy_for_broken, scoring.procedure_remedy)."""
    position_of = {fields["id"]: position for position, fields in enumerate(stored)}

    def under(position: int, ancestor: str) -> bool:
        parent = stored[position].get("parent")
        while parent and parent != ancestor:
            parent = stored[position_of[parent]].get("parent") if parent in position_of else ""
        return bool(parent)

    def run(remedy: int, start: int) -> tuple[int, int, int]:
        end = start + 1
        while end < len(stored) and under(end, stored[start]["id"]):
            end += 1
        return remedy, start, end

    runs = []
    for remedy, fields in enumerate(stored):
        if facts[remedy].remedy and not facts[remedy].archived:
            for target in (fields.get("cites") or "").split():
                if target in position_of:
                    runs.append(run(remedy, position_of[target]))
    return runs + [run(remedy, chapter) for remedy, chapter in named_chapters(stored, facts)]


def named_chapters(stored: list[dict], facts: list[Fact]) -> list[tuple[int, int]]:
    """(remedy, chapter) for each chapter of another tournament document that a current infraction's name names: a
    word its name (its title after the category: "Limited Procedure Violation") and the chapter's title hold, and no
    other infraction's name nor chapter's title (the MTR's chapter 7, Limited Tournament Rules, whose draft procedures
    Limited Procedure Violation remedies without citing them; chapter 4, Communication, which Communication Policy
    Violation cites too). A chapter: a numbered section of a document's top level (not an appendix)."""
    chapters = {position: set(terms(fields.get("title", ""))) for position, fields in enumerate(stored)
                if not (facts[position].archived or facts[position].kind in game_rules() or fields.get("parent"))
                and str(fields.get("number", "")).isdigit()}
    names = {position: set(terms(CATEGORY.split(fields.get("title", ""))[-1])) for position, fields in enumerate(stored)
             if facts[position].infraction and facts[position].remedy and not facts[position].archived}
    said = Counter(word for words in [*chapters.values(), *names.values()] for word in words)
    return [(remedy, chapter) for remedy, name in names.items() for chapter, title in chapters.items()
            if facts[chapter].kind != facts[remedy].kind and any(said[word] == 2 for word in name & title)]


def kept_words(vocabulary: dict[str, list]) -> list[str]:
    """The English words (semantic.english_words) that the documents do not use and that a question's word would
    be "corrected" from into one they use (question.closest_word): "strict" is not "strike", "trial" not "trail".
    A question's word among them is left as typed (question.Vocabulary.kept)."""
    by_letter: dict[str, dict[int, list[str]]] = {}          # first letter -> length -> words
    for word in vocabulary:
        if len(word) >= MIN_CORRECTION:
            by_letter.setdefault(word[0], {}).setdefault(len(word), []).append(word)
    known = _Known(vocabulary)
    return sorted(word for word in english_words()
                  if word not in vocabulary and not known_base(word, known)       # "tutored": read as "tutor"
                  and has_closest_word(word, by_letter.get(word[0], {})))


class _Known:
    """The documents' words as `question.known_base` reads them."""

    def __init__(self, vocabulary: dict[str, list]) -> None:
        self.vocabulary = vocabulary

    def stem(self, word: str) -> Optional[str]:
        known = self.vocabulary.get(word)
        return known[1] if known else None


def meaning_phrases() -> list[tuple[str, ...]]:
    """The judges' words' meanings of several words, as index terms: ("addit", "turn"), ("plai", "first")."""
    found = {tuple(_term_of(word) for word in terms(phrase)) for means in meanings().values() for phrase in means}
    return sorted(phrase for phrase in found if len(phrase) > 1)


def phrases_said(phrases: list[tuple[str, ...]], *texts: str) -> str:
    """Each time a text says one of `phrases` (its terms in order, PHRASE_SLACK other terms allowed between
    them), that phrase as one term ("addit turn"), for the phrases field."""
    said = []
    for text in texts:
        stems = _stems(text)
        present = set(stems)
        for phrase in phrases:
            if phrase[0] not in present:        # (most phrases: no need to look further)
                continue
            for start, stem in enumerate(stems):
                if stem == phrase[0] and _follows(stems, start, phrase[1:]):
                    said.append(" ".join(phrase))
    return "|".join(said)


@lru_cache(maxsize=4096)
def _stems(text: str) -> tuple[str, ...]:
    """A text's index terms in order (the same headings come with every entry under them: analysed once)."""
    return tuple(token.text for token in ANALYZER(text))


def _follows(stems: list[str], start: int, rest: tuple[str, ...]) -> bool:
    position = start
    for stem in rest:
        window = stems[position + 1: position + 2 + PHRASE_SLACK]
        if stem not in window:
            return False
        position += 1 + window.index(stem)
    return True


def _term_of(word: str) -> str:
    """The index term the analyzer makes of one word ("triggered" -> "trigger")."""
    return next((token.text for token in ANALYZER(word)), word)


def index_state(directory: Path | str) -> Optional[dict]:
    try:
        state = json.loads((Path(directory) / "state.json").read_text())
    except (OSError, ValueError):
        return None
    return state if state.get("schema") == SCHEMA_VERSION and whoosh_index.exists_in(str(directory)) else None


class KnowledgeBase:
    """Read access to a written index. Each thread that searches should have its own (see `serve`)."""

    def __init__(self, directory: Path | str):
        self.directory = Path(directory)
        self._held = in_use.hold(directory)        # not pruned from the cache while it is read
        try:
            self.ix = whoosh_index.open_dir(str(directory))
        except Exception:
            in_use.release(self._held)
            raise
        self.searcher = self.ix.searcher(weighting=WEIGHTING)
        self._vocabulary: Optional[dict] = None
        self._by_letter: dict[str, list[tuple[str, int]]] = {}
        self._kept: Optional[list[str]] = None
        self._kept_set: Optional[frozenset[str]] = None
        self._numbers: dict[str, list[str]] = {}
        self._postings: dict[str, list] = {}
        self._scaled: dict[str, list] = {}
        self._facts: Optional[list[Fact]] = None
        self._cited: Optional[list[tuple[int, int, int]]] = None
        self._archived_kinds: Optional[frozenset[str]] = None
        self._titles: Optional[frozenset[str]] = None
        self._semantic: object = False               # not read yet
        self._passages: Optional[dict] = None

    def semantic(self):
        """The index's semantic table (`semantic.Semantic`), read at the first long question; None without one."""
        if self._semantic is False:
            from . import semantic
            self._semantic = semantic.load(self.directory)
        return self._semantic

    def passages(self) -> dict[int, list[frozenset[str]]]:
        """A long entry's paragraphs' terms (passages.py), read at the first story; none in an older index."""
        if self._passages is None:
            self._passages = read_rows(self.passage_rows())
        return self._passages

    def passage_rows(self) -> list[list]:
        """The rows of PASSAGES_FILE, as the site's search files hold them; none in an older index."""
        try:
            return json.loads((self.directory / PASSAGES_FILE).read_text())
        except (OSError, ValueError):
            return []

    def close(self) -> None:
        self.searcher.close()
        in_use.release(self._held)
        self._held = None

    def __len__(self) -> int:
        return self.searcher.doc_count()

    # -- the documents' words (question.Vocabulary) ------------------------------------------

    @property
    def vocabulary(self) -> dict[str, list]:
        if self._vocabulary is None:
            try:
                self._vocabulary = json.loads((self.directory / "vocabulary.json").read_text())
            except (OSError, ValueError):
                self._vocabulary = {}
            for word, (count, _) in self._vocabulary.items():
                self._by_letter.setdefault(word[0], []).append((word, count))
        return self._vocabulary

    def stem(self, word: str) -> Optional[str]:
        known = self.vocabulary.get(word)
        return known[1] if known else None

    def words_starting(self, letter: str) -> list[tuple[str, int]]:
        _ = self.vocabulary     # builds the by-letter table on first use
        return self._by_letter.get(letter, [])

    def kept_words(self) -> list[str]:
        """The rows of KEPT_FILE (`kept_words`); none in an older index."""
        if self._kept is None:
            try:
                self._kept = json.loads((self.directory / KEPT_FILE).read_text())
            except (OSError, ValueError):
                self._kept = []
        return self._kept

    def kept(self, word: str) -> bool:
        if self._kept_set is None:
            self._kept_set = frozenset(self.kept_words())
        return word in self._kept_set

    # -- exact look-ups -------------------------------------------------------------------

    def by_number(self, number: str, kind: Optional[str] = None) -> list[Hit]:
        query = Term("number", number.lower().rstrip("."))
        return self._hits(self.searcher.search(query, limit=20, filter=Term("kind", kind) if kind else None))

    def by_id(self, section_id: str) -> Optional[Hit]:
        hits = self._hits(self.searcher.search(Term("id", section_id), limit=1))
        return hits[0] if hits else None

    def by_parent(self, section_id: str, limit: int = 100) -> list[Hit]:
        return self._hits(self.searcher.search(Term("parent", section_id), limit=limit))

    def numbers(self, kind: str) -> list[str]:
        """Every number of a kind, for "nearest number" answers (read once: it takes every stored entry)."""
        if kind not in self._numbers:
            self._numbers[kind] = [fields["number"] for fields in self.searcher.documents(kind=kind)
                                   if fields.get("number")]
        return self._numbers[kind]

    # -- terms and their entries ----------------------------------------------------------------

    def postings(self, term: str) -> list[tuple[str, list[tuple[int, int]]]]:
        """[(field, [(entry position, score in SCORE_SCALE units)])] for a term, fields in FIELD_BOOSTS order:
        whoosh's score of each entry for that one term, before field weights, rounded as the browser has it."""
        if term not in self._postings:
            reader = self.searcher.reader()
            found = [(field, self._scores(field, term)) for field in FIELD_BOOSTS if (field, term) in reader]
            if len(self._postings) > 4096:
                self._postings.clear()
            self._postings[term] = found
        return self._postings[term]

    def scaled_postings(self, term: str) -> list[tuple[str, tuple[int, ...], tuple[float, ...]]]:
        """`scoring.scaled` of the term's postings, kept as they are."""
        if term not in self._scaled:
            if len(self._scaled) > 4096:
                self._scaled.clear()
            self._scaled[term] = scaled(self.postings(term))
        return self._scaled[term]

    def facts(self) -> list[Fact]:
        """(kind, archived, glossary?, variant rule?, infraction?, remedy?, lettered subrule?, catch-all?, intended?)
        of every entry, by position: what ranking needs of each."""
        if self._facts is None:
            self._facts = [Fact(fields["kind"], bool(fields.get("archived")), fields.get("section_kind") == "glossary",
                                is_variant(fields["kind"], fields.get("number") or ""),
                                is_infraction(fields.get("penalty", "")),
                                prescribes(fields.get("penalty", ""), fields.get("action", "")),
                                subrule=fields.get("section_kind") == SUBRULE, catch_all=catch_all(fields),
                                intended=intended(fields))
                           for fields in self.stored()]
        return self._facts

    def cited(self) -> list[tuple[int, int, int]]:
        """`cited_runs` of the stored entries (kept once made)."""
        if self._cited is None:
            self._cited = cited_runs(self.stored(), self.facts())
        return self._cited

    def titles(self) -> frozenset[str]:
        """The current documents' titles, as their terms joined by spaces (question.Vocabulary)."""
        if self._titles is None:
            said = (" ".join(terms(fields.get("title", ""))) for fields in self.stored() if not fields.get("archived"))
            self._titles = frozenset(title for title in said if title)
        return self._titles

    def archived_kinds(self) -> frozenset[str]:
        """The kinds whose every entry is of an archived document (question.Vocabulary)."""
        if self._archived_kinds is None:
            current = {fact.kind for fact in self.facts() if not fact.archived}
            self._archived_kinds = frozenset(fact.kind for fact in self.facts()) - current
        return self._archived_kinds

    def hit(self, position: int, score: float) -> Hit:
        return self._hit(self.searcher.stored_fields(position), score)

    def impacts(self) -> Iterator[tuple[str, str, list[tuple[int, int]]]]:
        """(field, term, [(entry position, score in SCORE_SCALE units)]) for every term of every field: the
        browser's copy of what `postings` gives."""
        reader = self.searcher.reader()
        count = self.searcher.doc_count_all()
        for field in FIELD_BOOSTS:
            # each entry's length of the field, read once for all its terms rather than once a posting
            lengths = [self.searcher.doc_field_length(docnum, field, 1) for docnum in range(count)]
            for term in reader.lexicon(field):
                yield field, term.decode("utf-8"), self._scores(field, term, lengths)

    def _scores(self, field: str, term: str | bytes, lengths: Optional[list] = None) -> list[tuple[int, int]]:
        """Each entry's whoosh score for one term of one field, before field weights, in whole hundredths
        (`lengths`: each entry's length of the field, as whoosh's scorer would read it, when known)."""
        if lengths is not None and self.searcher.is_atomic():
            # what searcher.postings does, but the scorer reads the lengths known instead of each from disk
            scorer = WEIGHTING.scorer(self.searcher, field, term)
            if hasattr(scorer, "dfl"):
                scorer.dfl = lengths.__getitem__
            matcher = self.searcher.reader().postings(field, term, scorer=scorer)
        else:
            matcher = self.searcher.postings(field, term)
        found = []
        while matcher.is_active():
            found.append((matcher.id(), round(matcher.score() * SCORE_SCALE)))
            matcher.next()
        return found

    def stored(self) -> list[dict]:
        """Every entry's stored fields, in index order (= `order`)."""
        return [self.searcher.stored_fields(docnum) for docnum in range(self.searcher.doc_count_all())]

    def _hits(self, results) -> list[Hit]:
        return [self._hit(hit.fields(), hit.score or 0.0) for hit in results]

    @staticmethod
    def _hit(fields: dict, score: float) -> Hit:
        return Hit(
            id=fields["id"], document=fields["document"], kind=fields["kind"],
            number=fields.get("label", fields.get("number", "")), title=fields.get("title", ""),
            url=fields.get("url", ""), order=fields.get("order", 0), score=score,
            text=fields.get("text", ""), headings=fields.get("headings", ""), penalty=fields.get("penalty", ""),
            section_kind=fields.get("section_kind", ""), parent=fields.get("parent", ""),
            targets=tuple((fields.get("targets") or "").split()), archived=fields.get("archived", False),
            action=fields.get("action", ""))

