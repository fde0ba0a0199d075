"""The engine's answers for a server: what `engine.search` answers on the published search files, computed
at a fraction of the cost, so that a question nobody asked before costs about what it costs the browser.

`answer(index, query, limit, kind)` reads the question with `question.understand` and ranks with the
formula of `scoring` (same operations, same order: the same floating-point scores), on a
`published.PublishedIndex`. What it does once instead of again and again: a coverage factor for each
pattern of matched words (not for each entry), each entry's sort key in the scoring loop, the best
MAX_RANKED by a partial sort, rows only for the answers shown, snippets over text whose spaces were
folded when it was first shown, and the nearest numbers by bisection in lists sorted once.
tests/test_server.py holds its answers equal to `engine.search`'s, scores included, on every question
set, on misspelt ones and on questions naming a level.
"""
from __future__ import annotations

import bisect
import heapq
import re
from collections import Counter
from typing import Optional

from .engine import Answer, Result, marked_excerpt, natural_key, snippet_pattern
from .index import SCORE_SCALE
from .published import PublishedIndex
from .question import (
    COVERAGE_POWER,
    EXPANSION_BOOST,
    FIELD_BOOSTS,
    GLOSSARY_TARGETS,
    GLOSSARY_WEIGHT,
    MAX_RANKED,
    NUMBER_KINDS,
    STEMMED_FIELDS,
    VARIANT_WEIGHT,
    Question,
    understand,
)
from .scoring import add_postings, at_level, rarity, rounded

SNIPPET = 180               # characters of a snippet, as engine.snippet


def answer(index: PublishedIndex, query: str, limit: int = 10, kind: Optional[str] = None) -> Answer:
    """engine.search(index, query, limit, kind), faster (QueryError for a query that cannot be searched)."""
    question = understand(query, index)
    found = Answer(question.query, suggestion=question.suggestion)
    if question.number:
        return _answer_number(index, found, question, kind, limit)
    ranked = _ranked(index, question, kind or question.kind)
    if not ranked and question.kind and not kind:
        ranked = _ranked(index, question, None)      # "mtr deathtouch": the document names nothing that matches
    pattern = snippet_pattern(question.marks)
    found.results = [_result(index, position, score, pattern)
                     for position, score in _with_rules_of_terms(index, ranked, limit)]
    return found


# -- words: scoring.ranked, the same operations in the same order -----------------------------------

def _ranked(index: PublishedIndex, question: Question, kind: Optional[str]) -> list[tuple[int, float]]:
    return [(position, score) for _, _, position, score
            in heapq.nsmallest(MAX_RANKED, _scored(index, question, kind))]


def _scored(index: PublishedIndex, question: Question, kind: Optional[str]) -> list[tuple]:
    """(scoring's rank key: archived, minus the rounded weighed score, position; then the score) of every entry
    holding a word of the question."""
    groups = [group for group in question.groups if group]
    scores: dict[int, float] = {}
    matched: dict[int, int] = {}         # entry -> the groups it holds, as bits
    named: set[int] = set()
    for number, group in enumerate(groups):
        bit = 1 << number
        for alternative in group:
            phrase = " " in alternative.stem
            for name, postings in index.postings(alternative.stem):
                if name == "phrases" if phrase else name in STEMMED_FIELDS:
                    add_postings(postings, name, alternative.weight, scores, matched, bit, named)
            for name, postings in [] if phrase else index.postings(alternative.word):
                if name == "exact":
                    add_postings(postings, name, alternative.weight, scores, matched, bit, named)
    if not matched:
        return []
    facts = index.facts()
    patterns = Counter(matched.values())
    weights = [rarity(len(facts), sum(count for bits, count in patterns.items() if bits & (1 << n)))
               for n in range(len(groups))]
    found = {position: scores[position] for position in matched if not kind or facts[position][0] == kind}
    for stem in question.boosts:
        for name, postings in index.postings(stem):
            if name in ("title", "aliases"):
                boost = FIELD_BOOSTS[name]
                for position, value in postings:
                    if position in found:
                        found[position] = found[position] + (value / SCORE_SCALE) * boost * EXPANSION_BOOST
    everything = sum(weights)
    coverage = {}
    for bits in patterns:
        held = sum(weight for n, weight in enumerate(weights) if bits & (1 << n))
        coverage[bits] = held / everything if everything else 1.0
    result = []
    for position, score in found.items():
        share = coverage[matched[position]]
        for _ in range(COVERAGE_POWER):
            score = score * share
        fact = facts[position]
        if question.level:
            score = at_level(score, fact[0], question.level)
        if fact[3] and position not in named:
            score = score * VARIANT_WEIGHT
        result.append((fact[1], -rounded(score * (GLOSSARY_WEIGHT if fact[2] else 1.0)), position, score))
    return result


def _with_rules_of_terms(index: PublishedIndex, ranked: list[tuple[int, float]], limit: int):
    """A glossary term's rules just before it (engine._with_rules_of_terms), up to `limit` answers."""
    ordered: list[tuple[int, float]] = []
    seen: set[int] = set()
    facts = index.facts()
    for position, score in ranked:
        if len(ordered) >= limit:
            break
        for target in index.rows[position][8][:GLOSSARY_TARGETS] if facts[position][2] else ():
            if target not in seen:
                ordered.append((target, 0.0))
                seen.add(target)
        if position not in seen:
            ordered.append((position, score))
            seen.add(position)
    return ordered[:limit]


# -- numbers: engine._answer_number ------------------------------------------------------------------

def _answer_number(index: PublishedIndex, found: Answer, question: Question, kind: Optional[str],
                   limit: int) -> Answer:
    kinds = [question.kind or kind] if (question.kind or kind) else (
        ["cr"] if re.match(r"\d{3}", question.number) else NUMBER_KINDS)
    hits = [hit for wanted in kinds for hit in index.by_number(question.number, kind=wanted)]
    if hits:
        shown = {hit.id for hit in hits}
        hits += sorted((hit for hit in index.by_parent(hits[0].id) if hit.id not in shown), key=lambda hit: hit.order)
    else:
        name = (question.kind or kind or kinds[0]).upper()
        nearest = _nearest(index, question.number, tuple(kinds))
        found.notice = f"there is no {name} {question.number}" + (
            f"; nearest: {', '.join(label for _, _, label in nearest)}" if nearest else "")
        for wanted_kind, number, _ in nearest:
            hits.extend(index.by_number(number, kind=wanted_kind))
    found.results = [_result(index, hit.order, hit.score, None) for hit in hits[:limit]]
    return found


def _nearest(index: PublishedIndex, number: str, kinds: tuple[str, ...]) -> list[tuple[str, str, str]]:
    """The two numbers before and after where `number` would be (engine._nearest)."""
    labelled, keys = index.numbers_in_order(kinds)
    position = bisect.bisect_left(keys, natural_key(number))
    return [(kind, n, label) for n, label, kind in labelled[max(0, position - 2): position + 2]]


# -- what an answer shows: engine._result and engine.snippet ----------------------------------------

def _result(index: PublishedIndex, position: int, score: float, pattern) -> Result:
    hit = index.hit(position, score)
    title = hit.title or (hit.headings.split(" › ")[-1] if hit.headings else "")
    excerpt = marked_excerpt(index.folded_text(position), pattern, SNIPPET)
    return Result(hit.id, hit.document, hit.number, title, excerpt, hit.url or None, hit.score, hit.kind,
                  hit.penalty, not hit.archived, hit.action)
