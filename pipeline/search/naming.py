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

import re

from .signals import SIGNALS, Fact

OWN_NAME_FIELDS = ("aliases", "former")      # an infraction's names; part names ("Game Loss" in IPG 1.1)
TITLE_FIELDS = ("title", "exact")            # a section's title, stemmed and as written
INCIDENTAL_WEIGHT = SIGNALS["incidental"].weight
COMMON_SHARE = 4      # a word held by a quarter of the entries or more ("player", "card", "rule") says little of
#                       what went wrong: a name need not hold it ("player drew an extra card": Drawing Extra Cards)
NAMED_WEIGHT = SIGNALS["named"].weight
REMEDY_WEIGHT = SIGNALS["remedy"].weight
PARTLY_NAMED_WEIGHT = SIGNALS["partly_named"].weight
STORY_WEIGHT = SIGNALS["story"].weight     # a word said in the story only weighs this much, one that asks whole


class Names:
    """The groups of a question each entry holds in its own name and in its title, as bits."""

    def __init__(self) -> None:
        self.own: dict[int, int] = {}
        self.titled: dict[int, int] = {}
        self.required = 0          # the groups a name must hold, as bits (`require`)
        self.said = 0              # the groups of the words saying what went wrong, common ones too
        self.asked = 0             # the required groups said whole: in the sentences that ask (not the story's)

    def require(self, groups, holding: list[int], total: int) -> None:
        """The groups a name must hold: those of the words saying what went wrong (not the story's), but for
        a word held by `holding[n]` of `total` entries, a COMMON_SHARE-th or more."""
        self.said = sum(1 << n for n, group in enumerate(groups) if max(a.weight for a in group) > INCIDENTAL_WEIGHT)
        self.required = sum(1 << n for n in range(len(groups))
                            if self.said >> n & 1 and holding[n] * COMMON_SHARE < total)
        self.asked = sum(1 << n for n, group in enumerate(groups)
                         if self.required >> n & 1 and max(a.weight for a in group) > STORY_WEIGHT)

    def note(self, field: str, positions, bit: int) -> None:
        held = self.own if field in OWN_NAME_FIELDS else self.titled if field in TITLE_FIELDS else None
        if held is not None:
            for position in positions:
                held[position] = held.get(position, 0) | bit

    def named(self, position: int, fact: Fact) -> int:
        """How wholly the entry's name holds the words said: 2 every one, 1 all but common ones, 0 not. An
        infraction's name is its own names, or its category's (the rest of its title: "USC" names every
        Unsporting Conduct infraction) holding every word said ("play/draw rule" does not name Game Play Error —
        Game Rule Violation); another entry's name is its title and names."""
        own = self.own.get(position, 0)
        titled = self.titled.get(position, 0)
        if not self.required:
            return 0
        if fact.infraction and titled & ~own & self.said == self.said:
            return 2
        held = own if fact.infraction else own | titled
        return 2 if held & self.said == self.said else 1 if held & self.required == self.required else 0

    def named_in_part(self, position: int, fact: Fact) -> bool:
        """Whether the entry's name holds an uncommon word said (one `require` asks for): an infraction's own names,
        another entry's title and names."""
        held = self.own.get(position, 0) | (0 if fact.infraction else self.titled.get(position, 0))
        return bool(held & self.required)

    def calls(self, position: int, fact: Fact) -> bool:
        """Whether the entry's name holds an uncommon word said, whole or in part (`named`, `named_in_part`)."""
        return bool(self.named(position, fact) or self.named_in_part(position, fact))

    def named_as_asked(self, position: int) -> bool:
        """Whether the entry's own names hold an uncommon word of the sentences that ask ("Is this a missed
        trigger?": Missed Trigger), not of the story only."""
        return bool(self.own.get(position, 0) & self.asked)


def is_infraction(penalty: str) -> bool:
    """An infraction: it carries a penalty."""
    return bool(penalty)


def prescribes(penalty: str, action: str) -> bool:
    """An entry that answers a call with what to do: an infraction (its penalty) or a situation with its fix."""
    return bool(penalty or action)


# What a catch-all says of itself: it takes the errors "not covered by the other" infractions (the IPG's Game Rule
# Violation: "violations of the Comprehensive Rules that are not covered by the other Game Play Errors") or "not
# mentioned above" (the JAR's "A player makes an in-game error not mentioned above").
THE_REST = re.compile(r"\bnot (?:covered by (?:the|any) other|mentioned above)\b", re.I)
HEADING_WORDS = 3          # a paragraph of this many words or fewer is a heading ("Definition"), not the definition


def covers_the_rest(title: str, text: str) -> bool:
    """A section whose name or definition (the first paragraph of its text longer than a heading) says it covers
    what the other sections do not: with a penalty or a fix (`prescribes`), the catch-all infraction or situation."""
    definition = next((paragraph for paragraph in text.split("\n\n") if len(paragraph.split()) > HEADING_WORDS), "")
    return bool(THE_REST.search(title) or THE_REST.search(definition))


# What an infraction done on purpose says of itself: its definition's first sentence says the act is done
# "intentionally" (Stalling: "A player intentionally plays slowly in order to take advantage of the time limit",
# which sends the slow play that is not intentional to Slow Play); a question saying no intent asks the infraction
# without it. The documents' word, found in a question as any other (or as a judges' word's meaning).
INTENT = "intentionally"
INTENT_WORD = re.compile(rf"\b{INTENT}\b", re.I)       # not "unintentionally"
SENTENCE = re.compile(r"(?<=[.!?])\s+")


def says_intended(text: str) -> bool:
    """Whether a section's definition (`covers_the_rest`'s: the first paragraph longer than a heading) says in its
    first sentence that the act is done intentionally."""
    definition = next((paragraph for paragraph in text.split("\n\n") if len(paragraph.split()) > HEADING_WORDS), "")
    return bool(INTENT_WORD.search(SENTENCE.split(definition.strip(), maxsplit=1)[0]))


def intended(fields: dict) -> bool:
    """A stored entry that prescribes a penalty or a fix for an act done intentionally (`says_intended`)."""
    return prescribes(fields.get("penalty", ""), fields.get("action", "")) and says_intended(fields.get("text", ""))


def catch_all(fields: dict) -> bool:
    """A stored entry that prescribes a penalty or a fix for the errors no other section covers (`covers_the_rest`)."""
    return (prescribes(fields.get("penalty", ""), fields.get("action", ""))
            and covers_the_rest(fields.get("title", ""), fields.get("text", "")))


def with_name(score: float, position: int, fact: Fact, names: Names, call: bool = False) -> float:
    """A score with the named signal applied, and the remedy signal where the name holds every word said
    (one multiplication each, in this order); for a call, a remedy not named whose name holds an uncommon word of
    it, the partly_named signal."""
    named = names.named(position, fact)
    if named:
        score = score * NAMED_WEIGHT
        if named == 2 and fact.remedy:
            score = score * REMEDY_WEIGHT
    elif call and fact.remedy and names.named_in_part(position, fact):
        score = score * PARTLY_NAMED_WEIGHT
    return score
