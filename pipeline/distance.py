"""How far apart two sequences are: the one module that imports rapidfuzz (its algorithms are written
in C: a history of a hundred editions asks for tens of thousands of comparisons of word lists, and a
search server corrects a typo against every word of the documents that starts with its letter)."""
from __future__ import annotations

from functools import cache


@cache
def _rapidfuzz():
    """rapidfuzz's modules, loaded at the first comparison (a C library's loading is a good part of what
    `rulekb show` would spend on imports, and it compares nothing)."""
    from rapidfuzz import process
    from rapidfuzz.distance import OSA, Indel
    return process, OSA, Indel


def similarity(a: list | str, b: list | str, cutoff: float = 0.0) -> float:
    """2 x (length of the longest common subsequence) / (len(a) + len(b)): 1.0 for equal sequences;
    0.0 as soon as it is known to be below `cutoff`."""
    return _rapidfuzz()[2].normalized_similarity(a, b, score_cutoff=cutoff)


def opcodes(a: list, b: list) -> list[tuple[str, int, int, int, int]]:
    """("equal" | "delete" | "insert", a from, a to, b from, b to) steps that turn `a` into `b`."""
    return [(op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end) for op in _rapidfuzz()[2].opcodes(a, b)]


def near(word: str, choices: list[str], limit: int) -> list[tuple[int, int]]:
    """(position in `choices`, distance) of every choice within `limit` edits of `word`: optimal string
    alignment (insert, delete, substitute, swap two neighbours), computed in C."""
    process, osa, _ = _rapidfuzz()
    return [(position, distance) for _, distance, position
            in process.extract(word, choices, scorer=osa.distance, score_cutoff=limit, limit=None)]
