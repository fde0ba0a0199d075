"""Pair a translation with its English edition, rule by rule: what does not pair, as problems.

A translation keeps the English numbers (the original is the key, the translation a layer over it,
as Sphinx's i18n keeps catalogues): each of its sections pairs with the English section of the same
number. What does not pair is reported with the file and line where it shows: an English number the
translation lacks (at the line where it would stand), a number only the translation has, a rule the
translation leaves in English. Pure functions of two parsed documents: no I/O.
"""
from __future__ import annotations

import re
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import cache
from typing import Optional

from . import kinds
from .model import INFO, WARNING, Document, DocumentInfo, GlossaryEntry, Problem, Section

LATIN = re.compile(r"[A-Za-z]")
MAX_LISTED = 400          # problems of one kind listed for a translation (the rest counted in one line)


@dataclass(frozen=True)
class Pairing:
    """How a translation pairs with its English edition, rule by rule."""
    missing: tuple[str, ...]          # English numbers the translation lacks
    extra: tuple[str, ...]            # numbers only the translation has
    untranslated: tuple[str, ...]     # numbers whose text the translation leaves in English
    translated: int                   # numbers on both sides, in the language


@cache
def _letters(language_id: str) -> Optional[re.Pattern]:
    language = kinds.language(language_id)
    return re.compile(f"[{language.letters}]") if language and language.letters else None


def left_in_english(section: Section, language_id: str) -> bool:
    """Whether a translated section is written in English: Latin letters, none of its language's script."""
    letters = _letters(language_id)
    text = f"{section.title} {section.text}"
    return letters is not None and not letters.search(text) and bool(LATIN.search(text))


def pair(translation: Document, english: Document) -> tuple[Pairing, list[Problem]]:
    """The pairing of a translation with the English edition of its date, and what does not pair."""
    language = translation.info.language
    name = kinds.LANGUAGE_BY_ID[language].english if language in kinds.LANGUAGE_BY_ID else language
    ours = {section.number.lower(): section for section in translation.sections if section.number}
    theirs = {section.number.lower(): section for section in english.sections if section.number}
    source = translation.info.source
    missing, extra, untranslated, lines = [], [], [], []
    before: Optional[int] = None            # the line of the last translated number met, in English order
    for number, section in theirs.items():
        found = ours.get(number)
        if found is None:
            missing.append(section.number)
            lines.append(Problem(WARNING, source, before, f"{section.number} of the English {english.info.source} "
                                                          f"(line {section.line}) is not in the {name} translation"))
            continue
        before = found.line
        if left_in_english(found, language):
            untranslated.append(found.number)
            lines.append(Problem(INFO, source, found.line, f"{found.number} is left in English (shown as the "
                                                            f"English, marked untranslated)"))
    for number, section in ours.items():
        if number not in theirs:
            extra.append(section.number)
            lines.append(Problem(WARNING, source, section.line, f"{section.number} is not in the English "
                                                                f"{english.info.source}: it is not shown"))
    pairing = Pairing(tuple(missing), tuple(extra), tuple(untranslated),
                      sum(1 for number in ours if number in theirs) - len(untranslated))
    if len(lines) > MAX_LISTED:
        lines = lines[:MAX_LISTED] + [Problem(WARNING, source, None, f"{len(lines) - MAX_LISTED} more rules do "
                                                                     f"not pair with {english.info.source}")]
    return pairing, lines


def unpaired(info: DocumentInfo, english: list[DocumentInfo]) -> Problem:
    """A translation whose English edition is not in the sources: said by name, and left off the site."""
    language = kinds.language(info.language)
    name = language.english if language else info.language
    dates = ", ".join(sorted(other.edition or "?" for other in english if other.kind == info.kind))
    return Problem(WARNING, info.source, info.edition_line,
                   f"a {name} translation of the {kinds.title(info.kind)} of {info.edition or 'no known date'}, but "
                   f"the sources have no English edition of that date ({kinds.short_name(info.kind)} editions: "
                   f"{dates or 'none'}): it is not published (add that English edition, or say its edition in "
                   f"sources/manifest.toml if the date was misread)")


def pair_glossary(translation: Document, english: Document) -> tuple[list[tuple[GlossaryEntry, GlossaryEntry]],
                                                                     list[Problem]]:
    """Each translated glossary entry with its English one. A translation keeps the English entries' order
    (its terms are not in its own alphabetical order) and cites the same rules: the two lists are aligned
    by the rules each entry cites (difflib's longest matching runs), and a run that differs in length on the
    two sides is not guessed at: its entries are listed, with their lines, as not paired."""
    ours, theirs = translation.glossary, english.glossary
    numbers = kinds.numbers_cited(english.info.kind)
    cited = lambda entries: [tuple(numbers.findall(entry.text)) for entry in entries]
    our_cited, their_cited = cited(ours), cited(theirs)
    pairs, left, their_left = [], [], []
    matcher = SequenceMatcher(None, our_cited, their_cited, autojunk=False)
    for tag, start, end, their_start, their_end in matcher.get_opcodes():
        if tag == "equal" or (tag == "replace" and end - start == their_end - their_start):
            pairs.extend(zip(range(start, end), range(their_start, their_end)))
        else:
            left.extend(range(start, end))
            their_left.extend(range(their_start, their_end))
    # an entry the translation moved (sorted by its own term): the one English entry left that cites the same rules
    by_cited: dict[tuple, list[int]] = {}
    for position in their_left:
        by_cited.setdefault(their_cited[position], []).append(position)
    problems = []
    for position in left:
        found = by_cited.get(our_cited[position], [])
        if our_cited[position] and len(found) == 1:
            pairs.append((position, found.pop()))
        else:
            problems.append(Problem(WARNING, translation.info.source, ours[position].line,
                                    f"glossary term {ours[position].term!r} does not pair with a term of "
                                    f"{english.info.source}"))
    return [(ours[mine], theirs[their]) for mine, their in sorted(pairs)], problems[:MAX_LISTED]
