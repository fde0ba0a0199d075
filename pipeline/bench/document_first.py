"""Choosing the document first, measured (`rulekb bench --only meaning`): would a long question rank better if it
first chose which document answers it (the game rules, the tournament procedure, the Regular REL guide), then
ranked within? Not declared in signals.py: on the dev questions it found nothing the ranker does not (the figures,
issue 32's report), and the ceiling it prints says how little the right choice, known in advance, would add.

Each long dev question's answers are the ranker's (`scoring.answers`: lexical, then fused with the semantic signal),
each plus a weight (WEIGHTS) times its document's share less the best document's: the mean of the CHOSEN_BY
nearest cosines of its entries (meaning), or its answers' lexical scores over the best, summed (words). The ceiling
keeps only the documents holding an answer. Glossary rules are not put before their terms here, as `engine.search`
does: the figures compare with each other, not with the search bench's.
"""
from __future__ import annotations

from ..search import scoring
from ..search.quality import answer_rank
from ..search.question import understand

# a weight of each chooser's share; the grids differ as the shares do (a cosine's tenths, a sum of lexical scores)
WEIGHTS = {"meaning": (0.0, 1.0, 2.0, 5.0, 10.0), "words": (0.0, 0.1, 0.2, 0.4, 0.8)}
CHOSEN_BY = 5                # a document's meaning: the mean cosine of its this-many nearest entries
GROUPS = {"document": {}, "kind of document": {"cr": "game rules", "mtr": "procedure", "ipg": "procedure",
                                               "jar": "regular rel"}}


def report(kb, sets: dict[str, list[tuple[str, list[str]]]]) -> None:
    """Top-3/top-10 of each set's long dev questions, by grouping, chooser and weight; and the ceiling."""
    meaning = kb.semantic()
    facts = kb.facts()
    ids = {}
    prepared = {name: [_prepared(kb, meaning, query, answers) for query, answers in questions]
                for name, questions in sets.items()}
    for grouping, groups in GROUPS.items():
        group_of = [groups.get(fact.kind, fact.kind) for fact in facts]
        for chooser in ("meaning", "words"):
            line = []
            for weight in WEIGHTS[chooser]:
                found = {name: _measured(kb, ids, rows, group_of, chooser, weight) for name, rows in prepared.items()}
                line.append(f"w={weight:g}: " + " ".join(f"{top3}/{top10}" for top3, top10 in found.values()))
            print(f"document first, by {grouping}, chosen by {chooser} (top-3/top-10 of "
                  f"{', '.join(sets)}): {'  '.join(line)}")
        ceiling = {name: _measured(kb, ids, rows, group_of, "answer", 1.0) for name, rows in prepared.items()}
        print(f"document first, by {grouping}, the answer's own (the ceiling): "
              + " ".join(f"{top3}/{top10}" for top3, top10 in ceiling.values()))


def _prepared(kb, meaning, query: str, answers: list[str]):
    question = understand(query, kb)
    found = scoring.answers(kb, question, question.kind)
    lexical = scoring.ranked(kb, question, question.kind)[:len(found)]
    return found, lexical, meaning.similarities(question.query), scoring.glossary_weight(question), answers


def _measured(kb, ids: dict, rows, group_of: list[str], chooser: str, weight: float) -> tuple[int, int]:
    counts = [0, 0]
    facts = kb.facts()
    for found, lexical, cosines, definition, answers in rows:
        if not found:
            continue
        share = _shares(found, lexical, cosines, group_of, chooser, answers, kb, ids)
        best = max(share.values())
        scores = [(position, score + weight * (share.get(group_of[position], 0.0) - best))
                  for position, score in found]
        order = sorted(scores, key=lambda item: scoring._rank_key(item, facts, definition))[:10]
        rank = answer_rank([_id(kb, ids, position) for position, _ in order], answers)
        counts[0] += rank is not None and rank <= 3
        counts[1] += rank is not None
    return counts[0], counts[1]


def _shares(found, lexical, cosines, group_of, chooser, answers, kb, ids) -> dict[str, float]:
    if chooser == "answer":         # the ceiling: the documents that hold an answer, every other far below
        held = {group_of[position] for position in range(len(group_of))
                if answer_rank([_id(kb, ids, position)], answers)}
        return {group: (1.0 if group in held else -1e6) for group in set(group_of)}
    if chooser == "words":
        top = max((score for _, score in lexical), default=0.0) or 1.0
        share: dict[str, float] = {}
        for position, score in lexical:
            share[group_of[position]] = share.get(group_of[position], 0.0) + score / top
        return share
    nearest: dict[str, list[float]] = {}
    for position, cosine in enumerate(cosines):
        nearest.setdefault(group_of[position], []).append(cosine)
    return {group: sum(sorted(values)[-CHOSEN_BY:]) / min(CHOSEN_BY, len(values)) for group, values in nearest.items()}


def _id(kb, ids: dict, position: int) -> str:
    if position not in ids:
        ids[position] = kb.hit(position, 0.0).id
    return ids[position]
