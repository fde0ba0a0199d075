"""How good a search is, measured on a question set: a file of "query<TAB>answering sections" lines.

Used by the benchmark and the tests, for the CLI's engine and the browser's alike.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional


@dataclass
class Quality:
    questions: int = 0
    top1: int = 0
    top3: int = 0
    reciprocal_ranks: float = 0.0
    misses: list[str] = field(default_factory=list)     # questions with no answer in the top 3

    @property
    def mrr(self) -> float:
        return self.reciprocal_ranks / self.questions if self.questions else 0.0

    def line(self, name: str) -> str:
        n = self.questions or 1
        return (f"{name:<22} top-1 {self.top1 / n:>5.0%}   top-3 {self.top3 / n:>5.0%}   MRR {self.mrr:.3f}   "
                f"({self.questions} questions)")


def read_questions(path: Path) -> list[tuple[str, list[str]]]:
    questions = []
    for line in Path(path).read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.startswith("#"):
            continue
        query, answers = line.split("\t")
        questions.append((query, answers.split()))
    return questions


def answer_rank(ids: list[str], answers: list[str]) -> Optional[int]:
    """1-based rank of the first result that answers: a subrule of an answer counts too, and so does a
    section whose id the answer gives only the first words of ("jar:common-issues/a-player-forgets" for
    the section headed "A player forgets a triggered ability (one that …)")."""
    for rank, result in enumerate(ids, 1):
        for answer in answers:
            rest = result[len(answer):] if result.startswith(answer) else None
            if rest is not None and (rest == "" or re.fullmatch(r"[a-z]", rest)
                                     or ("/" in answer and rest.startswith("-"))):
                return rank
    return None


def measure(answer: Callable[[str], list[str]], questions: list[tuple[str, list[str]]]) -> Quality:
    """`answer(query)` gives the result ids of a question, best first."""
    quality = Quality(questions=len(questions))
    for query, answers in questions:
        ids = answer(query)
        rank = answer_rank(ids, answers)
        if rank == 1:
            quality.top1 += 1
        if rank is not None and rank <= 3:
            quality.top3 += 1
        else:
            quality.misses.append(f"{query!r}: wanted {' '.join(answers)}, got {' '.join(ids[:3]) or 'nothing'}")
        if rank is not None:
            quality.reciprocal_ranks += 1 / rank
    return quality
