"""Whether a question names a section: every word of it that says what went wrong is in the section's name.

An infraction's name is its own name and former names ("Hidden Card Error", "Drawing Extra Cards": the aliases
and former fields), or its category (the rest of its title: "USC" names the Unsporting Conduct infractions), not
words of each ("play/draw rule" names the MTR's Play/Draw Rule, not Game Play Error — Game Rule Violation); another
section's name is its title and part names. A named section counts the "named" signal's weight, and one that
prescribes a penalty or a fix the "remedy" signal's too: "bribery" names the MTR's Bribery and the IPG's Bribery
and Wagering, and the call wants the penalty. The words of a question's story (a name, a card: weighing
INCIDENTAL_WEIGHT) are not needed. The site's worker (search-worker.js, `namedScore`) does the same in the same
order.
"""
from __future__ import annotations

from .signals import SIGNALS, Fact

OWN_NAME_FIELDS = ("aliases", "former")      # an infraction's names; part names ("Game Loss" in IPG 1.1)
TITLE_FIELDS = ("title", "exact")            # a section's title, stemmed and as written
NAMED_WEIGHT = SIGNALS["named"].weight
REMEDY_WEIGHT = SIGNALS["remedy"].weight


class Names:
    """The groups of a question each entry holds in its own name and in its title, as bits."""

    def __init__(self) -> None:
        self.own: dict[int, int] = {}
        self.titled: dict[int, int] = {}

    def note(self, field: str, positions, bit: int) -> None:
        held = self.own if field in OWN_NAME_FIELDS else self.titled if field in TITLE_FIELDS else None
        if held is not None:
            for position in positions:
                held[position] = held.get(position, 0) | bit

    def named(self, position: int, fact: Fact, required: int) -> bool:
        """Whether the entry's name holds the required groups: an infraction's own names, or its category's (the
        rest of its title: "USC" names every Unsporting Conduct infraction), not some of each; another entry's
        title or names."""
        own = self.own.get(position, 0)
        titled = self.titled.get(position, 0)
        if not required:
            return False
        if fact.infraction:
            return own & required == required or titled & ~own & required == required
        return (own | titled) & required == required


def is_infraction(penalty: str) -> bool:
    """An infraction: it carries a penalty."""
    return bool(penalty)


def prescribes(penalty: str, action: str) -> bool:
    """An entry that answers a call with what to do: an infraction (its penalty) or a situation with its fix."""
    return bool(penalty or action)


def required_bits(groups, incidental: float) -> int:
    """The groups a name must hold, as bits: those of the words saying what went wrong, not the story's."""
    return sum(1 << n for n, group in enumerate(groups) if max(a.weight for a in group) > incidental)


def with_name(score: float, position: int, fact: Fact, names: Names, required: int) -> float:
    """A score with the named and remedy signals applied (one multiplication each, in this order)."""
    if names.named(position, fact, required):
        score = score * NAMED_WEIGHT
        if fact.remedy:
            score = score * REMEDY_WEIGHT
    return score
