"""Find the references a passage of rule text makes, exactly as written.

"rule 704.5k", "rules 103.2 and 103.3", "rules A, B, and C", "603.7d–f",
"section 8", "see section 113", "MTR section 4.3", "Tardiness (3.1)".
Only finds and expands them; which section each names is the link stage's job.
"""
from __future__ import annotations

import bisect
import itertools
import re
from operator import itemgetter
from typing import Optional

from .. import kinds
from ..model import Reference
from .common import changed, fast_constructor

# A number as rule documents write them: 704.5k, 704.5, 704, 4.3, 112a, 8.
NUMBER = r"\d{1,3}(?:\.\d{1,3}[a-z]?|[a-z])?(?![\w.]*\d)"
CR_NUMBER = r"[1-9]\d{2}\.\d{1,3}[a-z]?"
DASH = r"(?:\s?[–—-]\s?|\s+through\s+)"
SEPARATOR = r"(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or)\s+)"

# Names a text uses for documents, mapped to the kind they name (the registry's).
DOCUMENT_NAMES = kinds.cited_names()
DOCUMENT = "|".join(f"(?:{pattern})" for pattern, _ in DOCUMENT_NAMES)

ITEM = rf"{NUMBER}(?:{DASH}(?:{NUMBER}|[a-z]\b))?"
# A keyword and a number: the place starts there ("rule 7" of "rule 704.5k" or "rule 7000") and, where the
# number begins a list of them, the list is read in the same match (in a lookahead: the place still ends at
# the first digit). The document name before it is looked up after.
# "rule 704.5k of the Comprehensive Rules" / "section 4.3 of the Magic Tournament Rules"
TRAILING_DOCUMENT = rf"\s+(?:of|in)\s+(?:the\s+)?(?P<trailing>{DOCUMENT})\b"
# (The document named after the list is read in the same lookahead: one match instead of two.)
KEYWORD_TRIGGER = re.compile(
    rf"\b(?:rules?|sections?|§§?)\s+(?:(?=(?P<items>{ITEM}(?:{SEPARATOR}{ITEM})*)(?:{TRAILING_DOCUMENT})?)|)\d",
    re.I,
)
DOCUMENT_BEFORE = re.compile(rf"(?P<doc>{DOCUMENT})(?:,|’s|'s)?\s+$", re.I)
# A bare CR-style number in parentheses or after "see": "(see 509.1a)", "(704.5k)".
BARE_CR = re.compile(rf"(?<![\w.])(?P<items>{CR_NUMBER}(?:{DASH}(?:{CR_NUMBER}|[a-z]\b))?)(?![\w])")
# "Tardiness (3.1)", "Unsporting Conduct — Cheating (4.8)": a title, then its number in parentheses.
TITLE_BEFORE = re.compile(r"(?P<title>[A-Z][\w’'/-]*(?:\s+(?:[A-Z][\w’'/-]*|of|a|the|to|—|-|–))*)$")
ITEM_SPLIT = re.compile(SEPARATOR, re.I)
# An infraction named by its title: "Game Play Error — Game Rule Violation" (the number is the title).
NAMED = re.compile(r"(?:Game Play Error|Tournament Error|Unsporting Conduct)\s?[—–-]\s?"
                   r"[A-Z][\w'’/-]*(?:\s(?:[A-Z][\w'’/-]*|of|a|an|the|to|at|in)(?=[\s,.;:)]|$))*")
DASHES = re.compile(r"\s?[—–-]\s?")
RANGE_SPLIT = re.compile(DASH)
# Subrule letters skip l and o (they look like 1 and 0).
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"


def document_kind(name: str) -> Optional[str]:
    for pattern, kind in DOCUMENT_NAMES:
        if re.fullmatch(pattern, name.strip(), re.I):
            return kind
    return None


def find_references(text: str, line: Optional[int] = None, bare_cr_numbers: bool = False,
                    block: int = -1) -> list[Reference]:
    """Every reference in `text`, one Reference per number it names, in order of appearance, with the span
    of its number (and `block`, the place of the text in its section, when given).

    `bare_cr_numbers` also takes numbers like 704.5k standing alone (the CR's own
    style); documents that are not the CR should leave it off.
    """
    return find_references_in_texts([text], [line], bare_cr_numbers, [block])[0]


def find_reference_spans(text: str, line: Optional[int] = None,
                         bare_cr_numbers: bool = False) -> list[tuple[int, int, Reference]]:
    """Like find_references, with the (start, end) of each number beside a Reference that holds no span."""
    return [(ref.start, ref.end, Reference(ref.text, ref.number, ref.document, None, line))
            for ref in find_references(text, line, bare_cr_numbers)]


def moved(reference: Reference, **fields) -> Reference:
    """`reference` with some fields set (its span, its block), as dataclasses.replace gives it, faster."""
    return changed(reference, **fields)


new_reference = fast_constructor(Reference)
BETWEEN_TEXTS = "\x00"     # joins texts searched at once: no literal holds it, so none runs across two texts


def find_references_in_texts(texts: list[str], lines: list, bare_cr_numbers: bool = False,
                             blocks: Optional[list[int]] = None) -> list[list[Reference]]:
    """find_references of each text (with its line, and its block when given): a parser's whole document at
    once, far faster than text by text.

    The places a reference may start (a keyword before a number, a CR-style number, "(3.1)", "Appendix
    C", an infraction's title) are found in all the texts at once (`_places`), then read left to right,
    each with its own pattern; a place inside the one before it, or inside the phrase read before it,
    is skipped.
    """
    if blocks is None:
        blocks = [-1] * len(texts)
    joined = BETWEEN_TEXTS.join(texts)
    offsets = list(itertools.accumulate([len(text) + 1 for text in texts], initial=0))    # (the last: past the end)
    found: dict[int, list[Reference]] = {}         # (most texts hold none)
    place_end = phrase_end = 0     # (in the texts joined: a text's places end before the next text starts)
    index, next_text = -1, 0       # the text holding the place; where the one after it starts
    for start, end, trigger, match in _places(joined, texts, offsets, bare_cr_numbers):
        if start < place_end:
            continue
        if match is None:
            # A bare number, matched only now: most are inside a phrase read before ("rule 704.5k"). Skipping
            # one unmatched changes nothing after it: it starts with three digits and a dot, where no
            # other place starts.
            if start < phrase_end:
                continue
            match = BARE_CR.match(joined, start)
            if match is None:
                continue
            end = match.end()
        place_end = end
        if start < phrase_end:
            continue
        while start >= next_text:   # (the places come in order: a step or two on, cheaper than a bisection)
            index += 1
            next_text = offsets[index + 1]
        base = offsets[index]
        read = trigger.read(texts[index], start - base, end - base, match, base)
        if read is None:
            continue
        phrase_end, items = read
        phrase_end += base
        line, block = lines[index], blocks[index]
        references = [new_reference(written, number, document, None, line, block, item_start, item_end)
                      for item_start, item_end, written, number, document in items]    # (Reference's field order)
        if index in found:
            found[index] += references
        else:
            found[index] = references
    return [found.get(index, []) for index in range(len(texts))]


# --- reading a place: (the end of the phrase read, [(start, end, the phrase as written, number, document)]) ---

def _read_keyword(text: str, start: int, end: int, match: re.Match, base: int):
    """ "rule 704.5k", "rules 103.2 and 103.3", "MTR section 4.3", "section 4.3 of the Magic Tournament Rules"."""
    items_start, phrase_end = match.span("items")
    if items_start < 0:
        return None
    items = match.string[items_start:phrase_end]
    items_start -= base
    phrase_end -= base
    before = _document_before(text, start)
    if before is None:          # (most references)
        trailing = match.group("trailing")
        document = document_kind(trailing) if trailing else None
        phrase = text[start:phrase_end]
    else:
        document = document_kind(before.group("doc"))
        if document is None and match.group("trailing"):
            document = document_kind(match.group("trailing"))
        phrase = text[before.start():phrase_end]
    if items.replace(".", "").isalnum():    # one number ("704.5k"): no separator, no dash (most references)
        return phrase_end, [(items_start, phrase_end, phrase, items.rstrip("."), document)]
    return phrase_end, [(item_start, item_end, phrase, number, document)
                        for item_start, item_end, number in _expand(items, items_start)]


def _read_bare(text: str, start: int, end: int, match: re.Match, base: int):
    """ "704.5k", "603.7d–f" standing alone (the CR's own style): read from its match (of BARE_CR)."""
    written = match.group(0)
    return end, [(item_start, item_end, written, number, None)
                 for item_start, item_end, number in _expand(written, start)]


def _read_appendix(text: str, start: int, end: int, match: re.Match, base: int):
    """ "Appendix C", "MTR Appendix B"."""
    before = _document_before(text, start)
    document = document_kind(before.group("doc")) if before else None
    written = text[before.start() if before else start:end]
    return end, [(start, end, written, " ".join(match.group(0).split()), document)]


def _read_named(text: str, start: int, end: int, match: re.Match, base: int):
    """An infraction named by its title: "Game Play Error — Missed Trigger"."""
    match = NAMED.match(text, start)
    if not match or re.match(r"\s\(\d", text[match.end():match.end() + 3]):
        return None     # "Tardiness (3.1)"-style: the number after it says it better
    title = match.group(0).rstrip()
    return start + len(title), [(start, start + len(title), title, title_key(title), None)]


def _read_paren(text: str, start: int, end: int, match: re.Match, base: int):
    """ "Tardiness (3.1)": a title, then its number in parentheses."""
    title = TITLE_BEFORE.search(text, max(0, start - 80), start)
    if not title:
        return None
    return end, [(match.start("number") - base, match.end("number") - base, text[title.start():end],
                  match.group("number"), None)]


# --- finding the places a reference may start ------------------------------------------------------

# Besides a keyword and a number: a bare CR number, "(3.1)" after a title, "Appendix C", an infraction's title
# ("Game Play Error — Missed Trigger").
PAREN_TRIGGER = re.compile(r"\s\((?P<number>\d{1,2}\.\d{1,2})\)")
APPENDIX_TRIGGER = re.compile(r"\bAppendix\s+[A-H]\b(?!\s*[—–:-])", re.I)
NAMED_TRIGGER = re.compile(r"\b(?:Game Play Error|Tournament Error|Unsporting Conduct)\s?[—–-]\s?[A-Z]")
DIGIT = re.compile(r"\d")


class _Start:
    """Where a trigger's matches can start: `offset` characters from each place `literal` is written in the
    text (in its ASCII copy, lowered, for a pattern that ignores case), where the character there is one
    of `first` (any, when empty), and the character after the literal one of the class `then` (any, when
    empty; in the pattern's own terms: "\\d"), or (`digit_after`, checked on each place found: a literal
    written less often than "." is) a digit. With `only_with`, it is looked for only in a text holding one of
    those characters (a whole text's scan saved where none can be)."""
    __slots__ = ("literal", "finder", "lowered", "ascii", "offset", "first", "digit_after", "only_with")

    def __init__(self, literal: str, lowered: bool = False, offset: int = 0, first: str = "", then: str = "",
                 digit_after: bool = False, ascii: bool = False, only_with: str = ""):
        self.lowered = lowered
        self.only_with = only_with
        # (`ascii`: an ASCII literal, without "?", and ASCII `first`, looked for in the ASCII copy, case kept: the
        # same places as in the text, one byte a character searched several times faster)
        self.ascii = ascii = ascii or lowered
        self.digit_after = digit_after
        self.literal = literal.encode("ascii") if ascii else literal
        pattern = re.escape(literal) + then
        self.finder = re.compile(pattern.encode("ascii") if ascii else pattern) if then else None
        self.offset = offset
        self.first = first.encode("ascii") if ascii else first

    def written(self, haystack) -> list[int]:
        """Where the literal is written in `haystack` (str.find outruns a regular expression's search)."""
        if self.finder is not None:
            return [found.start() for found in self.finder.finditer(haystack)]
        literal = self.literal
        find = haystack.find
        written = []
        if not self.lowered and literal[:1].isupper():
            # A capital is written rarely ("E" a thousand times in the CR's 900 KB): a search for one character
            # outruns one for several many times over ("Error": 0.2 ms against 1), so the literal is looked for
            # at each place its capital is written.
            capital = literal[:1]
            at = find(capital)
            while at >= 0:
                if haystack.startswith(literal, at):
                    written.append(at)
                at = find(capital, at + 1)
            return written
        at = find(literal)
        while at >= 0:
            written.append(at)
            at = find(literal, at + 1)
        return written

    def places(self, written: list[int], haystack) -> list[int]:
        """Where a match can start: `offset` from each place the literal is `written`, where the character
        there is one of `first` (and a digit after it, if asked)."""
        offset, first = self.offset, self.first
        if self.digit_after:        # ("(" before "3.1)": most parentheses hold words)
            after = len(self.literal)
            written = [at for at in written if haystack[at + after:at + after + 1].isdigit()]
        if first:
            return [at + offset for at in written if at + offset >= 0 and haystack[at + offset] in first]
        if offset:
            return [at + offset for at in written if at + offset >= 0]
        return written


class _Trigger:
    """One kind of place: its pattern, the words a text must hold for it to be looked for at all, where its
    matches can start, and how a place is read."""
    __slots__ = ("kind", "pattern", "needs", "starts", "read")

    def __init__(self, kind: str, pattern: re.Pattern, needs: tuple[str, ...], starts: tuple[_Start, ...], read):
        self.kind = kind
        self.pattern = pattern
        self.needs = needs
        self.starts = starts
        self.read = read


# Letters a pattern ignoring case also takes in another form (İ and ı for i, ſ for s, the Kelvin sign for k)
# are "?" in the ASCII copy: a literal is looked for with "?" in their place too ("ect?on", only in a text that
# holds İ or ı: elsewhere a "?" there is a question mark, which no keyword holds), or they are left out of it
# ("ect", not "sect").
_TRIGGERS = (
    _Trigger("keyword", KEYWORD_TRIGGER, ("ule", "ULE", "ection", "ECTION", "§"),
             (_Start("rule", lowered=True), _Start("ection", lowered=True, offset=-1, first="s?"),
              _Start("ect?on", lowered=True, offset=-1, first="s?", only_with="\u0130\u0131"), _Start("§")),
             _read_keyword),
    _Trigger("paren", PAREN_TRIGGER, ("(",), (_Start("(", offset=-1, digit_after=True),), _read_paren),
    _Trigger("appendix", APPENDIX_TRIGGER, ("ppendix", "PPENDIX"), (_Start("append", lowered=True),), _read_appendix),
    _Trigger("named", NAMED_TRIGGER, ("Error", "Conduct"),
             (_Start("Error", offset=-10, first="G", ascii=True),          # Game Play
              _Start("Error", offset=-11, first="T", ascii=True),          # Tournament
              _Start("Conduct", offset=-11, first="U", ascii=True)), _read_named),     # Unsporting
)
# (A bare number's place is matched by its whole pattern: what it matches is what is read.)
BARE = _Trigger("bare", BARE_CR, (".",), (_Start(".", offset=-3, first="123456789", then=r"\d"),), _read_bare)


def _places(joined: str, texts: list[str], offsets: list[int],
            bare_cr_numbers: bool) -> list[tuple[int, int, _Trigger, Optional[re.Match]]]:
    """The places a reference may start in `joined` (`texts` joined by BETWEEN_TEXTS, the text at `offsets`
    each), by start: (start, end, trigger, the match), one for each match of each trigger's pattern (as its
    finditer gives them) in a text holding what the trigger needs; a bare number's place is only where it
    may start, (start, 0, BARE, None), its pattern matched by the reader when the place is not skipped.

    A regular expression scan costs far more per character than a search for a literal, and most
    paragraphs hold no reference: the literals are looked for in all the texts at once, and each pattern
    is tried only where one is written. The separator stands where a text ends or starts as the patterns
    see it (no word character, space, digit or dot), so a pattern matches in the joined texts where it
    does in the text alone.
    """
    ascii_copy = ascii_lowered = None
    written: dict[tuple, list[int]] = {}     # (literal, finder, haystack) -> where it is written (each looked for once)
    found = []
    bisect_right = bisect.bisect_right
    for trigger in _TRIGGERS:
        starts = []
        for start in trigger.starts:
            if start.only_with and not _holds_any(joined, start.only_with):
                continue
            if start.ascii:
                if ascii_copy is None:   # one byte per character ("?" for any other than ASCII), and lowered
                    ascii_copy = joined.encode("ascii", "replace")
                    ascii_lowered = ascii_copy.lower()
                haystack = ascii_lowered if start.lowered else ascii_copy
            else:
                haystack = joined
            key = (start.literal, start.finder, start.lowered, start.ascii)
            if key not in written:
                written[key] = start.written(haystack)
            starts += start.places(written[key], haystack)
        if len(trigger.starts) > 1:
            starts.sort()
        needs = trigger.needs
        match_at = trigger.pattern.match
        end = 0
        for start in starts:
            if start < end:
                continue        # finditer goes on after a match's end
            match = match_at(joined, start)
            if match is None:
                continue
            end = match.end()
            # (What a match holds its text holds: the text is searched only for a match like "rUle 7".)
            if _holds_any(match.group(), needs) or _holds_any(texts[bisect_right(offsets, start) - 1], needs):
                found.append((start, end, trigger, match))
    if bare_cr_numbers:
        # (A bare number's pattern holds the dot its text needs, and no match of it holds another's start.)
        (start,) = BARE.starts
        found += [(at, 0, BARE, None) for at in start.places(start.written(joined), joined)]
    found.sort(key=itemgetter(0))     # (no two places start at one character: each trigger has its own first ones)
    return found


def _holds_any(text: str, needs: tuple[str, ...]) -> bool:
    """Whether `text` holds one of `needs` (a loop: any() over a generator costs more, once per text found)."""
    for need in needs:  # noqa: SIM110
        if need in text:
            return True
    return False


def may_hold_references(text: str) -> bool:
    """False for a text no reference can be in (most paragraphs): a cheap test before find_references."""
    return ("ppendix" in text or "PPENDIX" in text or "Error" in text or "Conduct" in text
            or DIGIT.search(text) is not None)


def title_key(title: str) -> str:
    """A title as a lookup key: "Game Play Error - Missed Trigger" and "… — Missed Trigger" are one key."""
    key = " ".join(title.split())
    if "—" in key or "–" in key or "-" in key:      # (most titles have none)
        key = DASHES.sub(" — ", key)
    return key.casefold()




def _last_words(pattern: str) -> set[str]:
    """The last word of each name a pattern writes ("Comprehensive Rules|CR": rules, cr), lowercase."""
    depth, start, alternatives = 0, 0, []
    for at, character in enumerate(pattern):
        depth += {"(": 1, ")": -1}.get(character, 0)
        if character == "|" and depth == 0:
            alternatives.append(pattern[start:at])
            start = at + 1
    alternatives.append(pattern[start:])
    return {re.search(r"[A-Za-z]+$", name).group(0).lower() for name in alternatives}


DOCUMENT_NAME_ENDINGS = tuple(sorted(set().union(*(_last_words(pattern) for pattern, _ in DOCUMENT_NAMES))))
# The last two letters of those, or of a possessive: most keywords follow other words ("see rule", "in rule").
LAST_TWO = {ending[-2:] for ending in DOCUMENT_NAME_ENDINGS} | {"’s", "'s"}


def _document_before(text: str, position: int):
    """The document name written just before `position` ("MTR section 4.3"), if any."""
    # (Most keywords have a word and a space before them, "see rule": its last two letters rule it out, without
    # slicing a tail.)
    if position > 2 and text[position - 1] == " " and text[position - 2].isalnum() \
            and text[position - 3:position - 1].lower() not in LAST_TWO:
        return None
    tail = text[max(0, position - 30):position].rstrip().rstrip(",")
    if tail[-2:].lower() not in LAST_TWO:
        return None
    tail = tail.lower()
    if tail.endswith(("’s", "'s")):
        tail = tail[:-2]
    if not tail.endswith(DOCUMENT_NAME_ENDINGS):
        return None
    return DOCUMENT_BEFORE.search(text, max(0, position - 60), position)


def _expand(items: str, offset: int) -> list[tuple[int, int, str]]:
    """Split "103.2 and 103.3" / "603.7d–f" / "801–811" into single numbers with their spans."""
    if items.replace(".", "").isalnum():    # one number ("704.5k"): no separator, no dash (most references)
        return [(offset, offset + len(items), items.rstrip("."))]
    found = []
    position = 0
    for piece in ITEM_SPLIT.split(items):
        start = items.index(piece, position)
        position = start + len(piece)
        span = (offset + start, offset + start + len(piece))
        parts = RANGE_SPLIT.split(piece)
        if len(parts) == 2:
            found.extend((span[0], span[1], number) for number in expand_range(parts[0], parts[1]))
        else:
            found.append((span[0], span[1], piece.rstrip(".")))
    return found


def expand_range(first: str, last: str) -> list[str]:
    """603.7d–f -> 603.7d, 603.7e, 603.7f; 801–811 -> 801 ... 811; 100.1–100.3 likewise."""
    first = first.rstrip(".")
    last = last.rstrip(".")
    letter_range = re.fullmatch(r"(.*\d)([a-z])", first)
    if letter_range and (re.fullmatch(r"[a-z]", last) or last.startswith(letter_range.group(1))):
        stem, start_letter = letter_range.groups()
        end_letter = last[-1]
        if start_letter in SUBRULE_LETTERS and end_letter in SUBRULE_LETTERS:
            a, b = SUBRULE_LETTERS.index(start_letter), SUBRULE_LETTERS.index(end_letter)
            if a <= b and b - a < 30:
                return [stem + SUBRULE_LETTERS[i] for i in range(a, b + 1)]
    whole = re.fullmatch(r"(\d+)", first), re.fullmatch(r"(\d+)", last)
    if all(whole) and 0 <= int(last) - int(first) <= 30:
        return [str(n) for n in range(int(first), int(last) + 1)]
    dotted = re.fullmatch(r"(\d+)\.(\d+)", first), re.fullmatch(r"(?:(\d+)\.)?(\d+)", last)
    if all(dotted) and (dotted[1].group(1) in (None, dotted[0].group(1))):
        a, b = int(dotted[0].group(2)), int(dotted[1].group(2))
        if 0 <= b - a <= 30:
            return [f"{dotted[0].group(1)}.{n}" for n in range(a, b + 1)]
    return [first, last]
