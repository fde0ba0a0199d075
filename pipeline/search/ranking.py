"""The engine's answers for a server: what `engine.search` answers on the published search files, computed
at a fraction of the cost, so that a question nobody asked before costs about what it costs the browser.

`answer(index, query, limit, kind)` reads the question with `question.understand` and ranks with the
formula of `scoring` (same operations, same order: the same floating-point scores), on a
`published.PublishedIndex`. What it does once instead of again and again: each term's postings scaled by
their field's boost (kept), a coverage factor for each pattern of matched words (not for each entry), rows
only for the answers shown, snippets over text whose spaces were folded when it was first shown, and the
nearest numbers by bisection in lists sorted once.
What it does not do: score the entries that cannot be among the answers shown (`_ranked`: the best
`limit`, where the engine ranks MAX_RANKED and shows `limit`), so a question holding a word of thousands
of entries ("rule", "card") costs about what a rare word costs.
A long question on a site with a semantic table ranks all MAX_RANKED and then reads their meaning
(`scoring.fused`), as the engine does.
tests/test_server.py holds its answers equal to `engine.search`'s, scores included, on every question
set, on misspelt ones and on questions naming a level, and its best MAX_RANKED to scoring's.
"""
from __future__ import annotations

import bisect
import heapq
import operator
from collections import Counter
from itertools import repeat
from typing import Optional

from ..kinds import short_name
from .engine import Answer, Result, answering_words, marked_excerpt, natural_key, snippet_pattern
from .hits import EXACT_SCORE, SCORE_SCALE
from .naming import Names, required_bits, with_name
from .published import PublishedIndex
from .question import (
    COVERAGE_POWER,
    EXPANSION_BOOST,
    FIELD_BOOSTS,
    GLOSSARY_TARGETS,
    INCIDENTAL_WEIGHT,
    MAX_RANKED,
    NAMING_FIELDS,
    STEMMED_FIELDS,
    VARIANT_WEIGHT,
    Question,
    number_kinds,
    shortened_notice,
    understand,
)
from .scoring import at_level, fused, glossary_weight, group_weight, question_words, rarity, rounded
from .signals import largest_factor

SNIPPET = 180               # characters of a snippet, as engine.snippet


def answer(index: PublishedIndex, query: str, limit: int = 10, kind: Optional[str] = None) -> Answer:
    """engine.search(index, query, limit, kind), faster (QueryError for a query that cannot be searched)."""
    question = understand(query, index)
    found = Answer(question.query, suggestion=question.suggestion,
                   notice=shortened_notice(question.shortened) if question.shortened else None)
    if question.number:
        return _answer_number(index, found, question, kind, limit)
    meaning = index.semantic() if question.long else None
    # a glossary term's rules come from its row, not the ranking; the meaning reorders all MAX_RANKED
    best = MAX_RANKED if meaning is not None else min(limit, MAX_RANKED)
    wanted = kind or question.kind
    ranked = _ranked(index, question, wanted, best)
    if not ranked and question.kind and not kind:
        wanted = None
        ranked = _ranked(index, question, None, best)      # "mtr deathtouch": the document names nothing that matches
    if meaning is not None and ranked:
        ranked = fused(ranked, meaning.similarities(question.query), index.facts(), glossary_weight(question), wanted,
                       question_words(question))
    pattern = snippet_pattern(question.marks)
    answering = answering_words(question)
    chooser = snippet_pattern(answering) if answering else None
    found.results = [_result(index, position, score, pattern, chooser)
                     for position, score in _with_rules_of_terms(index, ranked, limit)]
    return found


# -- words: scoring.ranked, the same operations in the same order -----------------------------------

def _ranked(index: PublishedIndex, question: Question, kind: Optional[str], best: int) -> list[tuple[int, float]]:
    """The `best` first (position, score), best first: scoring.ranked's first `best`.

    Only the entries that can be among them are scored. The entries holding the same words share their
    coverage, so an entry's score is at most its sum times its pattern's coverage cubed (times LEVEL_BOOST
    where a level is named). The entries are walked from the highest such bound down, and the walk stops
    where the bound falls below the score of the `best`-th entry kept: "legend rule" scores the few
    entries holding "legend" and the best of the thousands holding only "rule", not all of them.
    """
    matched = _matched(index, question, kind)
    if matched is None:
        return []
    found, bits_of, coverage, named, names = matched
    required = required_bits([group for group in question.groups if group], INCIDENTAL_WEIGHT)
    facts = index.facts()
    most = largest_factor(bool(question.level))      # the largest factor a score is multiplied by below
    definition = glossary_weight(question)
    cubes = {bits: share ** COVERAGE_POWER for bits, share in coverage.items()}
    bounds = {position: score * cubes[bits_of[position]] for position, score in found.items()}
    kept: list[tuple] = []               # the best keys so far, inverted so that the heap's first is the worst
    for position in sorted(bounds, key=bounds.__getitem__, reverse=True):
        if _beaten(kept, best, bounds[position] * most):
            break
        share = coverage[bits_of[position]]
        score = found[position]
        for _ in range(COVERAGE_POWER):
            score = score * share
        fact = facts[position]
        if question.level:
            score = at_level(score, fact.kind, question.level)
        if fact.variant and position not in named:
            score = score * VARIANT_WEIGHT
        score = with_name(score, position, fact, names, required)
        inverted = (-fact.archived, rounded(score * (definition if fact.glossary else 1.0)), -position, score)
        if len(kept) < best:
            heapq.heappush(kept, inverted)
        elif inverted > kept[0]:
            heapq.heapreplace(kept, inverted)
    return [(-position, score) for _, _, position, score in sorted(kept, reverse=True)]


def _beaten(kept: list[tuple], best: int, bound: float) -> bool:
    """Whether no entry scoring at most `bound` can enter the best kept: there are `best` of them, the
    worst is in a current document and scores more than `bound` by more than rounding can close (the
    bound is raised by a billionth for the floating-point error of computing it another way)."""
    if len(kept) < best:
        return False
    minus_archived, worst, _, _ = kept[0]
    return minus_archived == 0 and bound * (1 + 1e-9) < worst - 1e-6


def _matched(index: PublishedIndex, question: Question, kind: Optional[str]):
    """(sums of the entries holding a word of the question (in `kind`), the groups each holds as bits, the
    coverage of each pattern of bits, the entries naming a word, the groups each holds in its name), None if no
    entry holds any."""
    groups = [group for group in question.groups if group]
    scores: dict[int, float] = {}
    matched: dict[int, int] = {}         # entry -> the groups it holds, as bits
    named: set[int] = set()
    names = Names()
    for number, group in enumerate(groups):
        bit = 1 << number
        for alternative in group:
            phrase = " " in alternative.stem
            for name, positions, values in index.scaled_postings(alternative.stem):
                if name == "phrases" if phrase else name in STEMMED_FIELDS:
                    _add(positions, values, name, alternative.weight, scores, matched, bit, named)
                    names.note(name, positions, bit)
            for name, positions, values in [] if phrase else index.scaled_postings(alternative.word):
                if name == "exact":
                    _add(positions, values, name, alternative.weight, scores, matched, bit, named)
                    names.note(name, positions, bit)
    if not matched:
        return None
    facts = index.facts()
    patterns = Counter(matched.values())
    weights = [rarity(len(facts), sum(count for bits, count in patterns.items() if bits & (1 << n)))
               * group_weight(groups[n]) for n in range(len(groups))]
    found = {position: scores[position] for position in matched if facts[position].kind == kind} if kind else scores
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
    return found, matched, coverage, named, names


def _add(positions: tuple[int, ...], values: tuple[float, ...], field: str, weight: float, scores: dict,
         matched: dict, bit: int, named: set) -> None:
    """scoring.add_postings on scaled postings: the same sums (a value times a weight of 1.0 is the value),
    made by map and zip over built-in operations, without a Python statement per posting."""
    if weight != 1.0:
        values = map(operator.mul, values, repeat(weight))
    scores.update(zip(positions, map(operator.add, map(scores.get, positions, repeat(0)), values)))
    matched.update(zip(positions, map(operator.or_, map(matched.get, positions, repeat(0)), repeat(bit))))
    if field in NAMING_FIELDS:
        named.update(positions)


def _with_rules_of_terms(index: PublishedIndex, ranked: list[tuple[int, float]], limit: int):
    """A glossary term's rules just before it (engine._with_rules_of_terms), up to `limit` answers."""
    ordered: list[tuple[int, float]] = []
    seen: set[int] = set()
    facts = index.facts()
    for position, score in ranked:
        if len(ordered) >= limit:
            break
        for target in index.rows[position].targets[:GLOSSARY_TARGETS] if facts[position].glossary else ():
            if target not in seen:
                ordered.append((target, EXACT_SCORE))
                seen.add(target)
        if position not in seen:
            ordered.append((position, score))
            seen.add(position)
    return ordered[:limit]


# -- numbers: engine._answer_number ------------------------------------------------------------------

def _answer_number(index: PublishedIndex, found: Answer, question: Question, kind: Optional[str],
                   limit: int) -> Answer:
    kinds = [question.kind or kind] if (question.kind or kind) else (
        number_kinds(question.number))
    hits = [hit for wanted in kinds for hit in index.by_number(question.number, kind=wanted)]
    if hits:
        shown = {hit.id for hit in hits}
        hits += sorted((hit for hit in index.by_parent(hits[0].id) if hit.id not in shown), key=lambda hit: hit.order)
    else:
        name = short_name(question.kind or kind or kinds[0])
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

def _result(index: PublishedIndex, position: int, score: float, pattern, chooser=None) -> Result:
    return index.result(position, score, marked_excerpt(index.folded_text(position), pattern, SNIPPET, chooser))
