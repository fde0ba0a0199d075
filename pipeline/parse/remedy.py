"""What a judge does about an infraction in the ordinary case: the main paragraph of its remedy.

An IPG remedy is written as a list of paragraphs, most of them conditions ("If the set contains more
cards than it is supposed to ..., the player reveals ..."), some of them exceptions around the ordinary
case: an optional shortcut ("In cases where ..., a simple backup ... may be performed"), a case with
nothing to do ("... there is no remedy to be applied"), an illustration ("For example, ..."), the items
of a list, a fallback ("Otherwise, ..."). `ordinary_fix(section)` reads that structure:

1. the exceptions are set aside (the first paragraph is the answer only when nothing else is left);
2. a paragraph for "every other case" ("isn't covered by the previous paragraphs", "for all other ...")
   is the ordinary case by its own words;
3. a remedy that starts by saying what to do, without a condition, is that paragraph;
4. otherwise, of the conditions, the one whose words the infraction's definition and examples share
   most: the case the infraction is about (Hidden Card Error's examples draw, scry and pick up too many
   cards, so its ordinary fix is the one for a set holding more cards than it should).

Pure text: works on any edition's parsed section, whatever its source format.
"""
from __future__ import annotations

import re

from ..model import Section

# How the IPG opens a paragraph that is not the ordinary case.
ASIDE = re.compile(r"^(?:for example|e\.g\.|otherwise|in cases where|for each of these|[•\-–—*]|\(?[a-z0-9]\)\s)",
                   re.I)
NOTHING_TO_DO = re.compile(r"\bno remedy\b|^no\b|\bnot\b[^.]*\brepeat\b", re.I)
OPTIONAL = re.compile(r"\bmay be (?:performed|considered)\b", re.I)
PENALTY = re.compile(r"\breceives? an?\b|\bissue penalt", re.I)      # whose penalty, not what to fix
EVERY_OTHER = re.compile(r"\b(?:isn[’']t|is not|are not|aren[’']t) covered by\b|\bfor all other\b", re.I)
CONDITION = re.compile(r"^(?:if|when|whenever|in the event|unless|where|once|after|before)\b", re.I)
WORD = re.compile(r"[a-z]+")
COMMON = frozenset(["the", "a", "an", "and", "or", "of", "to", "in", "on", "is", "are", "be", "that", "this", "it",
    "its", "their", "they", "them", "his", "her", "he", "she", "player", "players", "card", "cards", "any", "if",
    "with", "for", "as", "by", "from", "not", "was", "were", "has", "have", "had", "when", "which", "would",
    "should", "may", "can", "been", "at", "than", "then", "there", "into"])


def ordinary_fix(section: Section) -> str:
    """The remedy's main paragraph for the ordinary case, spaces folded; "" for an infraction without a
    remedy (or a section that is no infraction)."""
    infraction = section.infraction
    if infraction is None:
        return ""
    paragraphs = [" ".join(paragraph.split()) for paragraph in infraction.additional_remedy.split("\n\n")]
    paragraphs = [paragraph for paragraph in paragraphs if paragraph]
    if not paragraphs:
        return ""
    kept = [paragraph for paragraph in paragraphs if not _aside(paragraph)]
    if not kept:
        return paragraphs[0]
    every_other = [paragraph for paragraph in kept if EVERY_OTHER.search(paragraph)]
    if every_other:
        return every_other[-1]      # "for all other abilities, if ..." narrows; the last one is the catch-all
    if not CONDITION.match(kept[0]):
        return kept[0]
    about = _words(" ".join([infraction.definition, *infraction.examples]))
    return max(kept, key=lambda paragraph: len(_words(paragraph) & about))      # ties: the first


def _aside(paragraph: str) -> bool:
    """An exception around the ordinary case: an illustration, a list's item, an optional shortcut, a case
    with nothing to do."""
    return bool(ASIDE.match(paragraph) or NOTHING_TO_DO.search(paragraph) or OPTIONAL.search(paragraph)
                or PENALTY.search(paragraph))


def _words(text: str) -> set[str]:
    """A text's words that say something (not the IPG's everyday words), without a plural's or a tense's
    ending: "draws", "drew" and "draw" are not all one, but "draws" and "draw" are."""
    found = set()
    for word in WORD.findall(text.lower()):
        if word in COMMON or len(word) < 3:
            continue
        for ending in ("ing", "ed", "es", "s"):
            if word.endswith(ending) and len(word) - len(ending) >= 3:
                word = word[: -len(ending)]
                break
        found.add(word)
    return found
