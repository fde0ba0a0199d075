"""How well an entry answers a question's words: the one formula, here and in the site's worker.

An entry's score is the sum of whoosh's BM25F scores (as the build exports them, in whole
hundredths) of the question's words in it, each field times its weight and a judges' word's meaning
times MEANING_WEIGHT; times its coverage cubed: the share of the question's words it holds, each
word weighing by its rarity (log(1 + N/n) for a word held by n of N entries), so that a rule holding
"draw", "card" and "turn" outranks a definition holding only "draw" many times. A question naming a
level ("at FNM") multiplies the scores of the document answering at it by LEVEL_BOOST and divides those of
the document answering at another level (the IPG does not apply at FNM) by it; a multiplayer
or casual-variant rule counts VARIANT_WEIGHT of its score unless the question names its variant.
For a long question, `fused` adds meaning: each of the first MAX_RANKED answers' score over the best one plus
the semantic signal's weight times its cosine with the question, beside the signal's `reach` entries nearest in
meaning (signals.py).
site/assets/search-worker.js does the same operations in the same order (tests/test_search_agreement.py).
"""
from __future__ import annotations

import heapq
import math
from typing import TYPE_CHECKING, Optional

from .hits import SCORE_SCALE
from .naming import Names, required_bits, with_name
from .question import (
    COVERAGE_POWER,
    EXPANSION_BOOST,
    FIELD_BOOSTS,
    GLOSSARY_WEIGHT,
    INCIDENTAL_WEIGHT,
    LEVEL_BOOST,
    MAX_RANKED,
    NAMING_FIELDS,
    QUERY_WORD,
    STEMMED_FIELDS,
    UNLEVELED_WEIGHT,
    VARIANT_WEIGHT,
    Question,
    level_kinds,
)
from .signals import SIGNALS, fused_weight

if TYPE_CHECKING:
    from .index import KnowledgeBase  # (not imported: answering from published files loads no whoosh)


def ranked(kb: KnowledgeBase, question: Question, kind: Optional[str]) -> list[tuple[int, float]]:
    """(entry position, score) of the entries answering the question, best first."""
    facts = kb.facts()
    definition = glossary_weight(question)
    return sorted(scored_entries(kb, question, kind), key=lambda item: _rank_key(item, facts, definition))


def answers(kb: KnowledgeBase, question: Question, kind: Optional[str]) -> list[tuple[int, float]]:
    """The first MAX_RANKED (entry position, score) answering the question, best first: `ranked`, and for a
    long question on an index with a semantic table, `fused`."""
    found = ranked(kb, question, kind)[:MAX_RANKED]
    meaning = kb.semantic() if question.long and found else None
    if meaning is None:
        return found
    return fused(found, meaning.similarities(question.query), kb.facts(), glossary_weight(question), kind,
                 question_words(question))


def question_words(question: Question) -> int:
    """The words a question has, as `understand` counts them to call it long."""
    return len(QUERY_WORD.findall(question.query))


def fused(lexical: list[tuple[int, float]], cosines, facts, definition: float,
          kind: Optional[str], words: int) -> list[tuple[int, float]]:
    """A long question's answers with their meaning: each lexical answer's score over the best one plus the
    semantic weight (for a question of `words` words: `signals.fused_weight`) times its cosine, and the signal's
    `reach` entries (in `kind`) nearest in meaning at the weight times their cosine alone; in the order of
    `_rank_key`, the first MAX_RANKED."""
    weight = fused_weight("semantic", words)
    top = max(score for _, score in lexical) or 1.0
    scores = {position: score / top + weight * cosines[position] for position, score in lexical}
    for position in nearest(cosines, facts, kind, SIGNALS["semantic"].reach):
        if position not in scores:
            scores[position] = weight * cosines[position]
    return sorted(scores.items(), key=lambda item: _rank_key(item, facts, definition))[:MAX_RANKED]


def nearest(cosines, facts, kind: Optional[str], count: int) -> list[int]:
    """The `count` entries (in `kind`) of highest cosine, the first in document order among equals; none of
    cosine 0 or less."""
    held = (position for position in range(len(cosines))
            if cosines[position] > 0 and (not kind or facts[position].kind == kind))
    return heapq.nsmallest(count, held, key=lambda position: (-cosines[position], position))


def glossary_weight(question: Question) -> float:
    """What a definition's score counts: half (its rules come just before it), whole for "what is X"."""
    return 1.0 if question.asks_meaning else GLOSSARY_WEIGHT


def group_weight(group) -> float:
    """What a group of alternatives weighs in an entry's coverage: its heaviest alternative's weight (a word of the
    story, INCIDENTAL_WEIGHT; a word of what went wrong, 1)."""
    return max(alternative.weight for alternative in group)


def _rank_key(item: tuple[int, float], facts, definition: float) -> tuple:
    """Archived documents after the others; then by score (a definition's counting `definition`); then
    document order."""
    position, score = item
    fact = facts[position]
    return (fact.archived, -rounded(score * (definition if fact.glossary else 1.0)), position)


def rounded(value: float) -> float:
    """To a millionth, as the browser rounds."""
    return math.floor(value * 1e6 + 0.5) / 1e6


def scored_entries(kb: KnowledgeBase, question: Question, kind: Optional[str]) -> list[tuple[int, float]]:
    """(entry position, score) of every entry holding some word of the question (in `kind`, if given)."""
    groups = [group for group in question.groups if group]
    scores: dict[int, float] = {}
    matched: dict[int, int] = {}         # entry -> the groups it holds, as bits
    named: set[int] = set()              # entries holding a word in a title or heading
    names = Names()                      # the groups each entry holds in its name (naming.py)
    for number, group in enumerate(groups):
        bit = 1 << number
        for alternative in group:
            phrase = " " in alternative.stem      # a phrase, where an entry says it
            for name, postings in kb.postings(alternative.stem):
                if name == "phrases" if phrase else name in STEMMED_FIELDS:
                    add_postings(postings, name, alternative.weight, scores, matched, bit, named)
                    names.note(name, (position for position, _ in postings), bit)
            for name, postings in [] if phrase else kb.postings(alternative.word):
                if name == "exact":
                    add_postings(postings, name, alternative.weight, scores, matched, bit, named)
                    names.note(name, (position for position, _ in postings), bit)
    if not matched:
        return []
    facts = kb.facts()
    weights = [rarity(len(facts), sum(1 for bits in matched.values() if bits & (1 << n))) * group_weight(groups[n])
               for n in range(len(groups))]
    found = {position: scores[position] for position in matched if not kind or facts[position].kind == kind}
    for stem in question.boosts:        # an abbreviation's meaning in a title
        for name, postings in kb.postings(stem):
            if name in ("title", "aliases"):
                boost = FIELD_BOOSTS[name]
                for position, value in postings:
                    if position in found:
                        found[position] = found[position] + (value / SCORE_SCALE) * boost * EXPANSION_BOOST
    everything = sum(weights)
    required = required_bits(groups, INCIDENTAL_WEIGHT)
    result = []
    for position, score in found.items():
        bits = matched[position]
        held = sum(weight for n, weight in enumerate(weights) if bits & (1 << n))
        coverage = held / everything if everything else 1.0
        for _ in range(COVERAGE_POWER):
            score = score * coverage
        if question.level:
            score = at_level(score, facts[position].kind, question.level)
        if facts[position].variant and position not in named:
            score = score * VARIANT_WEIGHT
        score = with_name(score, position, facts[position], names, required)
        result.append((position, score))
    return result


def at_level(score: float, kind: str, level: str) -> float:
    """A score where the question names a level: the document answering at it counts LEVEL_BOOST times,
    another level's procedure ("at FNM": the IPG does not apply) a LEVEL_BOOST-th, a document answering at no
    level (the CR's game rules, the MTR) UNLEVELED_WEIGHT: the question asks what to do at a tournament."""
    if kind == level:
        return score * LEVEL_BOOST
    if kind in level_kinds():
        return score / LEVEL_BOOST
    return score * UNLEVELED_WEIGHT


def add_postings(postings, field: str, weight: float, scores: dict, matched: dict, bit: int, named: set) -> None:
    boost = FIELD_BOOSTS[field]
    for position, value in postings:
        scores[position] = scores.get(position, 0) + (value / SCORE_SCALE) * boost * weight
        matched[position] = matched.get(position, 0) | bit
    if field in NAMING_FIELDS:
        named.update(position for position, _ in postings)


def rarity(total: int, holding: int) -> float:
    """log(1 + N/n), to a millionth (the browser's logarithm may differ in its last bit)."""
    return math.floor(math.log(1 + total / holding) * 1e6 + 0.5) / 1e6 if holding else 0.0


