"""Comparing sequences of words: the one module that imports rapidfuzz (its longest-common-subsequence
algorithms are written in C; a history of a hundred editions asks for tens of thousands of comparisons)."""
from __future__ import annotations

from rapidfuzz.distance import Indel


def similarity(a: list, b: list, cutoff: float = 0.0) -> float:
    """2 x (length of the longest common subsequence) / (len(a) + len(b)): 1.0 for equal sequences;
    0.0 as soon as it is known to be below `cutoff`."""
    return Indel.normalized_similarity(a, b, score_cutoff=cutoff)


def opcodes(a: list, b: list) -> list[tuple[str, int, int, int, int]]:
    """("equal" | "delete" | "insert", a from, a to, b from, b to) steps that turn `a` into `b`."""
    return [(op.tag, op.src_start, op.src_end, op.dest_start, op.dest_end) for op in Indel.opcodes(a, b)]
