"""The words of a question found in a snippet: where they are, without compiling an expression per question.

What is marked is defined by the expression `pattern(stems)`: a stem at the start of a word, case ignored,
and the rest of that word (with its ".5k" parts). Compiling it costs 0.1-0.3 ms, more than ranking a
question, and new questions rarely share their stems; so `Marks` finds the same matches with `str.find` on
the lowered text and one expression compiled once for the rest of the word. A text where lower-casing is
not one character for one, or that holds a letter the expression's case folding matches to an ASCII one
that lower-casing does not ("ı", "ſ"), is searched with the expression itself.
"""
from __future__ import annotations

import re
from functools import lru_cache
from typing import Iterator, Optional

REST_OF_WORD = re.compile(r"\w*(?:\.\w+)*")
FOLDED_TO_ASCII = ("ı", "ſ")     # re.IGNORECASE takes them for "i" and "s"; str.lower keeps them


def pattern(stems: tuple[str, ...]) -> re.Pattern:
    """The expression whose matches Marks finds (stems longest first, as Marks tries them)."""
    return _compiled(stems)


@lru_cache(maxsize=64)
def _compiled(stems: tuple[str, ...]) -> re.Pattern:
    return re.compile(r"\b(?:" + "|".join(re.escape(stem) for stem in stems) + r")\w*(?:\.\w+)*", re.I)


class Marks:
    """The stems of a question's words (lower case, longest first) and where texts hold them."""

    def __init__(self, stems: tuple[str, ...]):
        self.stems = stems

    def first(self, text: str) -> Optional[int]:
        """Where the first match starts, None if there is none."""
        return next((start for start, _ in self.spans(text)), None)

    def spans(self, text: str) -> Iterator[tuple[int, int]]:
        """(start, end) of each match, left to right, as `pattern(stems).finditer(text)` gives them."""
        lowered = text.lower()
        if len(lowered) != len(text) or any(letter in text for letter in FOLDED_TO_ASCII):
            yield from (match.span() for match in pattern(self.stems).finditer(text))
            return
        at = 0
        while True:
            start = min((found for found in (self._next(lowered, text, stem, at) for stem in self.stems)
                         if found >= 0), default=-1)
            if start < 0:
                return
            stem = next(stem for stem in self.stems if lowered.startswith(stem, start))
            end = REST_OF_WORD.match(text, start + len(stem)).end()
            yield start, end
            at = end

    @staticmethod
    def _next(lowered: str, text: str, stem: str, at: int) -> int:
        """Where `stem` next starts at a word boundary from `at`, -1 if nowhere."""
        found = lowered.find(stem, at)
        while found >= 0 and _word(text, found - 1) == _word(text, found):
            found = lowered.find(stem, found + 1)
        return found


def _word(text: str, position: int) -> bool:
    """Whether the character at `position` is a word character (`\\w`); outside the text is not."""
    if 0 <= position < len(text):
        letter = text[position]
        return letter.isalnum() or letter == "_"
    return False
