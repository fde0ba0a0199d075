"""The engine's answers for a server: what `engine.search` answers on the published search files, computed
at a fraction of the cost, so that a question nobody asked before costs about what it costs the browser.

`answer(index, query, limit, kind)` reads the question with `question.understand` and ranks with the
formula of `scoring` (same operations, same order: the same floating-point scores), on a
`published.PublishedIndex`. What it does once instead of again and again: each term's postings scaled by
their field's boost (kept), a coverage factor for each pattern of matched words (not for each entry), rows
only for the answers shown, snippets over text whose spaces were folded when it was first shown, and the
nearest numbers by bisection in lists sorted once.
What it does not do: score the entries that cannot be among the answers shown (`scoring.ranked` asked for the
best `limit`, where the engine ranks MAX_RANKED and shows `limit`), so a question holding a word of thousands
of entries ("rule", "card") costs about what a rare word costs.
A long question on a site with a semantic table ranks all MAX_RANKED and then reads their meaning
(`scoring.fused`), as the engine does.
tests/test_server.py holds its answers equal to `engine.search`'s, scores included, on every question
set, on misspelt ones and on questions naming a level.
"""
from __future__ import annotations

import bisect
from typing import Optional

from ..kinds import short_name
from . import scoring
from .engine import Answer, Result, answering_words, marked_excerpt, natural_key, snippet_pattern
from .hits import EXACT_SCORE
from .published import PublishedIndex
from .question import (
    GLOSSARY_TARGETS,
    MAX_RANKED,
    Question,
    number_kinds,
    shortened_notice,
    understand,
)
from .scoring import (
    broad_second,
    fused,
    general_first,
    glossary_weight,
    intent_second,
    level_first,
    procedure_remedy,
    question_words,
    remedy_first,
)
from .signals import SIGNALS

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
    best = MAX_RANKED if meaning is not None or question.level else min(limit, MAX_RANKED)   # (level_first)
    best = max(best, SIGNALS["remedy_first"].reach, SIGNALS["intent_second"].reach,   # (remedy_first,
               SIGNALS["procedure_remedy"].reach)        # alike_catch_all, intent_second, procedure_remedy)
    if question.long:
        best = max(best, SIGNALS["general_first"].reach)       # (general_first)
    wanted = kind or question.kind
    leading: set[int] = set()            # (level_first)
    asked: set[int] = set()              # (broad_second, intent_second)
    caught: set[int] = set()             # (remedy_first)
    lesser: set[int] = set()             # (level_first, remedy_first)
    ranked = scoring.ranked(index, question, wanted, best, leading, asked, caught, lesser)
    if not ranked and question.kind and not kind:       # "mtr deathtouch": nothing of the MTR matches
        wanted = None
        ranked = scoring.ranked(index, question, None, best, leading, asked, caught, lesser)
    lexical = ranked
    if meaning is not None and ranked:
        ranked = fused(ranked, meaning.similarities(question.query), index.facts(), glossary_weight(question), wanted,
                       question_words(question))
    ranked = remedy_first(level_first(ranked, index.facts(), question, leading, lesser), index.facts(), question,
                          lexical, caught, lesser)
    ranked = procedure_remedy(ranked, index.facts(), question, index.cited(), wanted)
    ranked = intent_second(ranked, index.facts(), question, asked)
    ranked = general_first(broad_second(ranked, question, index, asked), index.facts(), question)
    pattern = snippet_pattern(question.marks)
    answering = answering_words(question)
    chooser = snippet_pattern(answering) if answering else None
    found.results = [_result(index, position, score, pattern, chooser)
                     for position, score in _with_rules_of_terms(index, ranked, limit)]
    return found


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
