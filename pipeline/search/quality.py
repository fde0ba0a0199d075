"""How good a search is, measured on a question set: a file of "query<TAB>answering sections" lines, or of real
questions people asked ("split<TAB>question<TAB>answering sections<TAB>source address<TAB>the source's answer").

Used by the benchmark and the tests, for the CLI's engine and the browser's alike.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, field
from pathlib import Path
from typing import Callable, Optional
from urllib.parse import urlsplit

PARTS = ("dev", "test")
# A real question's part is decided by its thread, never by hand: one thread in three goes to the test part.
TEST_SHARE = 3
REDDIT_THREAD = re.compile(r"(/r/[^/]+/comments/[^/]+)")
FORUM_THREAD = re.compile(r"/forum/(topic|post)/(?:unread/)?(\d+)")
PAGE_PARAMETERS = ("p", "t", "id", "topic")     # the query parameters that name a page ("?p=3650"); others are views


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


@dataclass(frozen=True)
class RealQuestion:
    """A question someone asked, as they wrote it, with where it was asked and what the answer there was."""
    part: str                   # "dev" (tune on it) or "test" (measure only)
    question: str
    answers: tuple[str, ...]    # the sections of the current documents that answer it
    source: str                 # the address of the thread or page
    source_answer: str          # the answer the source gives, in one line
    line: int


def thread_of(address: str) -> str:
    """The thread a question comes from, the same for every address of it: host without "www." and trailing dot,
    path without fragment and without the query parameters that only change the view; a reddit comment's thread
    is its post (on any mirror), a judges' forum thread is told by its number ("topic/unread/31324" = "topic/31324")."""
    parts = urlsplit(address.strip())
    host = parts.netloc.lower().rstrip(".").removeprefix("www.")
    path = parts.path.rstrip("/")
    reddit = REDDIT_THREAD.search(path)
    if reddit:
        return "reddit" + reddit.group(1).lower()
    forum = FORUM_THREAD.search(path)
    if forum:
        return f"{host}/forum/{forum.group(1)}/{forum.group(2)}"
    page = "&".join(pair for pair in parts.query.split("&") if pair.split("=")[0] in PAGE_PARAMETERS)
    return host + path + (f"?{page}" if page else "")


def part_of(address: str) -> str:
    """The fixed rule that splits real questions: a hash of the thread, so that one thread is never in both parts."""
    digest = int(hashlib.sha256(thread_of(address).encode("utf-8")).hexdigest(), 16)
    return "test" if digest % TEST_SHARE == 0 else "dev"


def read_real_questions(path: Path) -> list[RealQuestion]:
    questions = []
    for number, line in enumerate(Path(path).read_text(encoding="utf-8").splitlines(), 1):
        if not line.strip() or line.startswith("#"):
            continue
        columns = line.split("\t")
        if len(columns) != 5:
            raise ValueError(f"{path}:{number}: {len(columns)} columns, 5 expected (split, question, sections, "
                             "source address, source's answer)")
        part, question, answers, source, source_answer = columns
        questions.append(RealQuestion(part, question, tuple(answers.split()), source, source_answer, number))
    return questions


def read_questions(path: Path, part: Optional[str] = None) -> list[tuple[str, list[str]]]:
    """(query, answering sections) of a question set; of a file of real questions, those of `part` (all if None)."""
    text = Path(path).read_text(encoding="utf-8")
    rows = [(number, line.split("\t")) for number, line in enumerate(text.splitlines(), 1)
            if line.strip() and not line.startswith("#")]
    if rows and len(rows[0][1]) == 5:
        return [(q.question, list(q.answers)) for q in read_real_questions(path) if part in (None, q.part)]
    questions = []
    for number, columns in rows:
        if len(columns) != 2:
            raise ValueError(f"{path}:{number}: {len(columns)} columns, 2 expected (query, sections)")
        questions.append((columns[0], columns[1].split()))
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
