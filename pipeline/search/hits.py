"""What the search gives back of an entry (`Hit`), and the scale of its stored scores: plain data, no whoosh.

Read by everything that answers a question, from a whoosh index (`index`) or from the published search
files (`published`), so that answering from the latter never loads whoosh.
"""
from __future__ import annotations

from dataclasses import dataclass

SCORE_SCALE = 100      # scores are kept as whole hundredths, in the browser's files as here
# The score of an entry found by an exact look-up (its number, id or parent), not ranked: whoosh's for one term
# of an ID field (its weight, 1), so that an answer read from the published files is the whoosh index's.
EXACT_SCORE = 1.0
SUBRULE = "subrule"    # a lettered subrule's section kind (702.19b), as the parsers name it (scoring.general_first)


@dataclass(frozen=True)
class Hit:
    id: str
    document: str
    kind: str
    number: str
    title: str
    url: str
    order: int
    score: float
    text: str
    headings: str
    penalty: str
    section_kind: str
    parent: str = ""
    targets: tuple[str, ...] = ()
    archived: bool = False
    action: str = ""
