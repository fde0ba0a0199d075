"""Tell the language a source is written in, from its text: the script of its letters, then its words.

A translation keeps the English rule numbers and often some English words (terms in parentheses,
rules left untranslated): the language is the one whose script holds a fair share of the letters, or,
for the Latin script, the one whose common words its running text uses. Never a guess: a text in a
script or Latin-script language the registry (pipeline.kinds) does not know is reported as unknown,
with what was counted. Nothing here reads kinds or sections.
"""
from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from functools import cache
from typing import Optional

from .. import kinds

# A script's letters against the Latin letters: one Chinese character or Korean syllable says as much as
# several Latin letters, so a quarter of the Latin letters' count is a fair share (a translation that quotes
# its English terms in parentheses is still a translation).
SHARE = 0.25
LEAST_LETTERS = 200           # fewer letters than this: too little text to tell
LEAST_WORDS = 0.05            # a Latin-script language's common words: at least this share of the words
LATIN = re.compile(r"[A-Za-z]")
WORD = re.compile(r"[A-Za-z]+(?:'[a-z]+)?")
# Scripts the registry may not know, named for the message ("a text in Japanese kana").
OTHER_SCRIPTS = (("Japanese kana", re.compile(r"[\u3040-\u30ff]")), ("Cyrillic", re.compile(r"[\u0400-\u04ff]")),
                 ("Arabic", re.compile(r"[\u0600-\u06ff]")), ("Greek", re.compile(r"[\u0370-\u03ff]")),
                 ("Thai", re.compile(r"[\u0e00-\u0e7f]")), ("Hebrew", re.compile(r"[\u0590-\u05ff]")))


@dataclass(frozen=True)
class LanguageFound:
    language: Optional[str]           # "zh", or None: not one the registry knows
    says: str                         # the evidence, for `rulekb check` and messages


@cache
def _letters(language_id: str) -> re.Pattern:
    return re.compile(f"[{kinds.LANGUAGE_BY_ID[language_id].letters}]")


def read_language(text: str) -> LanguageFound:
    """The language of a text: the registry's language whose script holds a fair share of its letters,
    else (Latin script) the one whose common words it uses."""
    # each distinct character is classified once (a text has a few thousand): a scan per script is slower
    characters = Counter(text)
    def count(pattern: re.Pattern) -> int:
        return sum(number for character, number in characters.items() if pattern.match(character))

    latin = count(LATIN)
    counted = {language.id: count(_letters(language.id)) for language in kinds.LANGUAGES if language.letters}
    others = {name: count(pattern) for name, pattern in OTHER_SCRIPTS}
    best = max(counted, key=counted.get, default=None)
    other = max(others, key=others.get)
    letters = f"{latin} Latin letters" + "".join(f", {count} {kinds.LANGUAGE_BY_ID[key].english} characters"
                                                 for key, count in counted.items() if count)
    if others[other] > max(counted.get(best, 0), latin * SHARE) and others[other] >= LEAST_LETTERS // 4:
        return LanguageFound(None, f"{others[other]} {other} characters beside {letters}: a language this site "
                                   f"does not know")
    if best is not None and counted[best] >= latin * SHARE and counted[best] >= LEAST_LETTERS // 4:
        return LanguageFound(best, f"{kinds.LANGUAGE_BY_ID[best].english} by its script ({letters})")
    if latin < LEAST_LETTERS:
        return LanguageFound(kinds.ENGLISH.id, f"too little text to tell ({letters}): read as English")
    words = [word.lower() for word in WORD.findall(text)]
    for language in kinds.LANGUAGES:
        if language.letters or not language.words:
            continue
        share = sum(1 for word in words if word in language.words) / max(len(words), 1)
        if share >= LEAST_WORDS:
            return LanguageFound(language.id, f"{language.english} by its words ({share:.0%} of {len(words)} "
                                              f"words are common {language.english} words)")
    return LanguageFound(None, f"Latin script, but few common words of a language this site knows ({letters})")
