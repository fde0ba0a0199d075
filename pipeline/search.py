"""Understand a judge's question and rank the answers: numbers, phrases, abbreviations, typos.

Turns the corpus into index entries, keeps the index fresh, and answers queries
through `index.KnowledgeBase`. Never imports whoosh itself.
"""
from __future__ import annotations

import bisect
import os
import hashlib
import html
import re
import tomllib
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional

from . import cache
from .index import Entry, Hit, KnowledgeBase, index_fingerprint, index_state, update_index
from .model import Corpus
from .pages import Layout, glossary_id, plan

ABBREVIATIONS_FILE = Path(__file__).resolve().parent / "data" / "abbreviations.toml"
DEFAULT_INDEX = Path(os.environ.get("RULEKB_INDEX", "build/index"))
MAX_QUERY = 500

DOCUMENT_WORDS = {
    "cr": "cr", "comprehensive rules": "cr", "comp rules": "cr", "rules": None,
    "ipg": "ipg", "infraction procedure guide": "ipg",
    "mtr": "mtr", "tournament rules": "mtr", "magic tournament rules": "mtr",
    "floor": "floor", "floor rules": "floor",
}
NUMBER_QUERY = re.compile(
    r"^\s*(?:(?P<doc>cr|ipg|mtr|floor(?:\s+rules)?|comp(?:rehensive)?\s+rules|(?:magic\s+)?tournament\s+rules|"
    r"infraction\s+procedure\s+guide)\b\s*[:#]?\s*)?"
    r"(?:(?:rule|rules|section|sec\.?|§|no\.?|number)\s*)?"
    r"(?P<number>\d{1,3}(?:\.\d{1,3}[a-z]?)?[a-z]?|appendix\s+[a-z])\.?\s*$", re.I)
# "cr704.5k": the document name glued to the number
GLUED = re.compile(r"^\s*(cr|ipg|mtr)(\d)", re.I)
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
WORD = re.compile(r"[A-Za-z0-9][A-Za-z0-9/'’-]*")


class QueryError(ValueError):
    """A query that cannot be searched (empty, too long): a 400 for the API, a message for the CLI."""


@dataclass
class Result:
    id: str
    document: str
    number: str
    title: str
    snippet: str
    url: Optional[str]
    score: float
    kind: str = ""
    penalty: str = ""
    current: bool = True      # False for an older edition's section, an excerpt's or an archived document's


@dataclass
class Answer:
    query: str
    suggestion: Optional[str] = None
    results: list[Result] = field(default_factory=list)
    notice: Optional[str] = None

    def as_json(self) -> dict:
        return {
            "query": self.query, "suggestion": self.suggestion, "notice": self.notice,
            "results": [{"id": r.id, "document": r.document, "number": r.number, "title": r.title,
                         "snippet": r.snippet, "url": r.url, "score": round(r.score, 4), "current": r.current}
                        for r in self.results],
        }


@lru_cache(maxsize=1)
def abbreviations() -> dict[str, tuple[str, ...]]:
    data = tomllib.loads(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))
    return {key.lower(): tuple(value) if isinstance(value, list) else (value,) for key, value in data.items()}


# ---------------------------------------------------------------------------------------------
# Building the index

def corpus_fingerprint(corpus: Corpus) -> str:
    digest = hashlib.sha256(cache.code_version().encode())
    for document in corpus.documents:
        digest.update(f"{document.id}|{document.info.sha256}|{document.info.current}|".encode())
    digest.update(ABBREVIATIONS_FILE.read_bytes())
    return digest.hexdigest()[:24]


def entries(corpus: Corpus, layout: Optional[Layout] = None) -> list[Entry]:
    """Every section and glossary term; an older edition's section only where its text differs from now."""
    layout = layout or plan(corpus)
    found = []
    order = 0
    current_text = {}
    for document in corpus.documents:
        if document.info.current:
            for section in document.sections:
                current_text[(document.info.kind, section.number)] = (section.title, section.text, section.examples)
    for document in corpus.documents:
        info = document.info
        by_id = {section.id: section for section in document.sections}
        for section in document.sections:
            order += 1
            if not info.current and current_text.get((info.kind, section.number)) == (
                    section.title, section.text, section.examples):
                continue    # the current edition says the same: one result is enough
            headings = []
            parent = by_id.get(section.parent) if section.parent else None
            while parent is not None:
                if parent.title:
                    headings.append(parent.title)
                parent = by_id.get(parent.parent) if parent.parent else None
            text = "\n".join([section.text] + list(section.examples))
            title = section.title
            aliases = ""
            if section.infraction:
                aliases = section.infraction.name
            location = layout.locations.get(section.id)
            url = layout.url(location[0]) + f"#{location[1]}" if location else None
            found.append(Entry(
                id=section.id, document=document.id, kind=info.kind, number=section.number,
                # Headings help a rule without a title of its own; a titled section is found by its title.
                section_kind=section.kind, title=title, headings="" if title else " › ".join(reversed(headings)),
                text=text,
                url=url or "", edition=info.edition or "", current=info.current, excerpt=info.excerpt,
                archived=info.archived, level=section.level, order=order, penalty=section.infraction.penalty if section.infraction else "",
                parent=section.parent or "", aliases=aliases))
        for entry in document.glossary:
            order += 1
            if not info.current:
                continue
            location = layout.locations.get(glossary_id(document, entry))
            url = layout.url(location[0]) + f"#{location[1]}" if location else ""
            found.append(Entry(
                id=glossary_id(document, entry), document=document.id, kind=info.kind, number="",
                section_kind="glossary", title=entry.term, headings="", text=entry.text, url=url,
                edition=info.edition or "", current=info.current, excerpt=info.excerpt, level=9, order=order,
                aliases=" ".join(entry.names),
                targets=" ".join(ref.target for ref in entry.refs if ref.target)))
    return found


def sources_fingerprint(sources: Path | str) -> str:
    """A hash of every file in a sources folder, the code and the abbreviations: cheap, no parsing."""
    digest = hashlib.sha256(cache.code_version().encode())
    for path in sorted(Path(sources).iterdir()):
        if path.is_file() and not path.name.startswith("."):
            digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    digest.update(ABBREVIATIONS_FILE.read_bytes())
    return digest.hexdigest()[:24]


def document_fingerprints(corpus: Corpus) -> dict[str, str]:
    """What each document's index entries are made from: its bytes, its place among the editions, the code.

    An older edition's entries depend on the current edition's text (only differences
    are indexed), so its fingerprint includes the current edition's too.
    """
    common = hashlib.sha256(cache.code_version().encode() + ABBREVIATIONS_FILE.read_bytes()).hexdigest()
    current = {d.info.kind: d.info.sha256 for d in corpus.documents if d.info.current}
    marks = {}
    for document in corpus.documents:
        info = document.info
        made_of = [common, info.sha256, info.id, str(info.current), str(info.excerpt), str(info.archived),
                   info.edition or "",
                   current.get(info.kind, "") if not info.current else ""]
        marks[document.id] = hashlib.sha256("|".join(made_of).encode()).hexdigest()[:24]
    return marks


def ensure_index(corpus: Corpus, directory: Path | str = DEFAULT_INDEX, layout: Optional[Layout] = None,
                 fingerprint: Optional[str] = None) -> dict[str, list[str]]:
    """Bring the index in `directory` up to date, re-indexing only the documents that changed."""
    fingerprint = fingerprint or corpus_fingerprint(corpus)
    documents = document_fingerprints(corpus)
    state = index_state(directory)
    if state and state.get("fingerprint") == fingerprint and state.get("documents") == documents:
        return {"indexed": [], "removed": [], "kept": sorted(documents)}
    return update_index(entries(corpus, layout), directory, fingerprint, documents)


def index_for_sources(sources: Path | str, directory: Path | str = DEFAULT_INDEX) -> Path:
    """The index of a sources folder, rebuilt only when a file in it (or the code) changed."""
    fingerprint = sources_fingerprint(sources)
    if index_fingerprint(directory) == fingerprint:
        return Path(directory)
    from .ingest import load_corpus
    ensure_index(load_corpus(sources), directory, fingerprint=fingerprint)
    return Path(directory)


# ---------------------------------------------------------------------------------------------
# Answering

@dataclass(frozen=True)
class NumberQuestion:
    kind: Optional[str]
    number: str


def as_number(query: str) -> Optional[NumberQuestion]:
    query = GLUED.sub(r"\1 \2", query)
    match = NUMBER_QUERY.match(query)
    if not match:
        return None
    doc = (match.group("doc") or "").lower()
    kind = None
    if doc:
        kind = next((k for name, k in DOCUMENT_WORDS.items() if re.fullmatch(name.replace(" ", r"\s+"), doc)), None)
        if kind is None:
            kind = {"c": "cr", "i": "ipg", "f": "floor"}.get(doc[0], "mtr")
    return NumberQuestion(kind, re.sub(r"\s+", " ", match.group("number").lower()))


OPERATORS_ONLY = re.compile(r"^(?:(?:AND|OR|NOT|ANDNOT|ANDMAYBE)\s*)+$")


def clean(query: str) -> str:
    """The query as searched, or a QueryError saying what is wrong with it."""
    query = query or ""
    if len(query) > MAX_QUERY:
        raise QueryError(f"the query is {len(query)} characters long; at most {MAX_QUERY} are searched")
    if CONTROL.search(query):
        raise QueryError("the query contains control characters")
    query = re.sub(r"\s+", " ", query).strip()
    if not query:
        raise QueryError("the query is empty")
    if query.count('"') % 2 or query.count("“") != query.count("”"):
        raise QueryError("the query has an unbalanced quotation mark")
    if OPERATORS_ONLY.match(query):
        raise QueryError(f"the query is only the operator {query!r}; add the words to search for")
    return query


def search(kb: KnowledgeBase, query: str, limit: int = 10, kind: Optional[str] = None) -> Answer:
    query = clean(query)
    answer = Answer(query)
    number = as_number(query)
    if number:
        return _answer_number(kb, answer, number, kind, limit)
    phrases = []
    plain_words = []
    words = WORD.findall(query)
    for word in words:
        expansion = abbreviations().get(word.lower()) if _is_abbreviation(word, len(words)) else None
        if expansion:
            phrases.extend((phrase, 3.0) for phrase in expansion)
        else:
            plain_words.append(word)
    corrected = _corrections(kb, plain_words)
    if corrected != plain_words:
        answer.suggestion = " ".join(corrected)
    # (The query itself as a phrase was tried as an extra score: no better answers, three times slower.)
    # An abbreviation's expansion must match like words do ("GRV" needs "game rule violation").
    required = corrected + [word for phrase, _ in phrases[:1] for word in phrase.split()]
    wanted = max(limit, 10)
    hits = _rank(kb.text_search(required, phrases, kind, limit=wanted * 2))
    if len(hits) < 3:   # too few sections hold every word: take those holding some
        seen = {hit.id for hit in hits}
        hits += _rank([hit for hit in kb.text_search(required, phrases, kind, limit=wanted * 3, every_word=False)
                       if hit.id not in seen])
    marks = [w.lower() for w in corrected] + [p.lower() for p, _ in phrases]
    answer.results = [_result(hit, marks) for hit in _with_rules_of_terms(kb, hits)[:limit]]
    return answer


def _is_abbreviation(word: str, words_in_query: int) -> bool:
    """"GRV", "2HG", "D/DLP" are abbreviations; "to" or "cr" inside a sentence are words (a lone "grv" is not)."""
    return word.isupper() or any(ch.isdigit() or ch == "/" for ch in word) or words_in_query == 1


def _with_rules_of_terms(kb: KnowledgeBase, hits: list[Hit]) -> list[Hit]:
    """A glossary term points at its rule ("See rule 702.2"): show that rule just before the definition."""
    ordered: list[Hit] = []
    seen: set[str] = set()
    for hit in hits:
        for target in hit.targets[:2] if hit.section_kind == "glossary" else ():
            rule = kb.by_id(target)
            if rule is not None and rule.id not in seen:
                ordered.append(rule)
                seen.add(rule.id)
        if hit.id not in seen:
            ordered.append(hit)
            seen.add(hit.id)
    return ordered


def _answer_number(kb: KnowledgeBase, answer: Answer, number: NumberQuestion, kind: Optional[str], limit: int) -> Answer:
    """A rule number: that section first (current edition first), then its subrules; or the nearest numbers."""
    hits, notice = _number_hits(kb, number, kind)
    answer.notice = notice
    if hits:
        first = hits[0]
        children = [hit for hit in kb.by_parent(first.id) if hit.id not in {h.id for h in hits}]
        hits = hits + sorted(children, key=lambda hit: hit.order)
    else:
        for label in _nearest(kb, number.number, [number.kind or kind] if (number.kind or kind) else
                              (["cr"] if re.match(r"\d{3}", number.number) else ["ipg", "mtr", "cr", "floor"])):
            wanted_kind, _, wanted = label.rpartition(" ")
            hits.extend(hit for hit in kb.by_number(wanted, kind=wanted_kind or number.kind or kind) if hit.current)
    answer.results = [_result(hit, []) for hit in hits[:limit]]
    return answer


def _number_hits(kb: KnowledgeBase, question: NumberQuestion, kind: Optional[str]) -> tuple[list[Hit], Optional[str]]:
    kinds = [question.kind or kind] if (question.kind or kind) else (
        ["cr"] if re.match(r"\d{3}", question.number) else ["ipg", "mtr", "cr", "floor"])
    found = []
    for wanted in kinds:
        hits = kb.by_number(question.number, kind=wanted)
        hits.sort(key=lambda hit: (not hit.current, hit.excerpt))
        found.extend(hits)
    if found:
        return found, None
    name = (question.kind or kinds[0]).upper()
    nearest = _nearest(kb, question.number, kinds)
    hint = f"; nearest: {', '.join(nearest)}" if nearest else ""
    return [], f"there is no {name} {question.number}{hint}"


def _natural(number: str) -> tuple:
    """"704.5k" -> ((0, 704), (0, 5), (1, "k")): sorts numbers the way the rules do."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.findall(r"\d+|[a-z]+", number))


def _nearest(kb: KnowledgeBase, number: str, kinds: list[str]) -> list[str]:
    candidates = []
    for kind in kinds:
        candidates.extend(f"{kind} {n}" for n, _, current in kb.numbers(kind) if current)
    if not candidates:
        return []
    plain = [c.split(" ")[-1] for c in candidates]
    ordered = sorted(set(zip(plain, candidates)), key=lambda pair: _natural(pair[0]))
    keys = [_natural(p) for p, _ in ordered]
    wanted = _natural(number)
    position = bisect.bisect_left(keys, wanted)
    window = ordered[max(0, position - 2): position + 2]
    return [label if len(kinds) > 1 else label.split(" ", 1)[1] for _, label in window]


def _corrections(kb: KnowledgeBase, words: list[str]) -> list[str]:
    """The query's words, each unknown one replaced by the closest word the documents use."""
    corrected = []
    for word in words:
        lower = word.lower()
        if len(lower) < 4 or any(ch.isdigit() for ch in lower) or kb.known_word(lower):
            corrected.append(word)
            continue
        corrected.append(kb.suggest(lower) or word)
    return corrected


def _rank(hits: list[Hit]) -> list[Hit]:
    def weight(hit: Hit) -> float:
        score = hit.score
        if hit.section_kind == "glossary":
            score *= 0.5    # a definition points at its rules, which the ranking puts next to it
        return score
    # The current editions come first; an older edition's (or an archived document's) only after them.
    return sorted(hits, key=lambda hit: (not hit.current or hit.archived, -weight(hit), hit.order))


def _result(hit: Hit, marks: list[str]) -> Result:
    title = hit.title or (hit.headings.split(" › ")[-1] if hit.headings else "")
    return Result(hit.id, hit.document, hit.number, title, snippet(hit.text, marks), hit.url or None, hit.score,
                  hit.kind, hit.penalty, hit.current and not hit.excerpt and not hit.archived)


def snippet(text: str, marks: list[str], size: int = 180) -> str:
    """An HTML-escaped excerpt around the first query word found, with the words in <mark>."""
    text = re.sub(r"\s+", " ", text).strip()
    stems = sorted({word[:max(4, len(word) - 3)] if len(word) > 4 else word
                    for mark in marks for word in re.findall(r"[a-z0-9.]+", mark) if len(word) > 2 or word.isdigit()},
                   key=len, reverse=True)
    pattern = re.compile(r"\b(?:" + "|".join(re.escape(stem) for stem in stems) + r")\w*(?:\.\w+)*", re.I) if stems else None
    first = pattern.search(text) if pattern else None
    start = max(0, first.start() - size // 3) if first else 0
    if start:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    excerpt = text[start:start + size]
    if start + size < len(text) and " " in excerpt[size // 2:]:
        excerpt = excerpt[:excerpt.rfind(" ")]           # end on a whole word
    prefix = "…" if start else ""
    suffix = "…" if start + len(excerpt) < len(text) else ""
    if not pattern:
        return html.escape(prefix + excerpt + suffix)
    pieces, position = [], 0
    for match in pattern.finditer(excerpt):
        pieces.append(html.escape(excerpt[position:match.start()]))
        pieces.append(f"<mark>{html.escape(match.group(0))}</mark>")
        position = match.end()
    pieces.append(html.escape(excerpt[position:]))
    return html.escape(prefix) + "".join(pieces) + html.escape(suffix)
