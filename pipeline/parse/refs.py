"""Find the references a passage of rule text makes, exactly as written.

"rule 704.5k", "rules 103.2 and 103.3", "rules A, B, and C", "603.7d–f",
"section 8", "see section 113", "MTR section 4.3", "Tardiness (3.1)".
Only finds and expands them; which section each names is the link stage's job.
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Iterator, Optional

from ..model import Reference

# A number as rule documents write them: 704.5k, 704.5, 704, 4.3, 112a, 8.
NUMBER = r"\d{1,3}(?:\.\d{1,3}[a-z]?|[a-z])?(?![\w.]*\d)"
CR_NUMBER = r"[1-9]\d{2}\.\d{1,3}[a-z]?"
DASH = r"(?:\s?[–—-]\s?|\s+through\s+)"
SEPARATOR = r"(?:,\s*(?:and|or)\s+|,\s*|\s+(?:and|or)\s+)"

# Names a text uses for documents, mapped to the kind they name.
DOCUMENT_NAMES = [
    (r"Magic(?::\s*The Gathering)?\s+Tournament Rules|Tournament Rules|MTR", "mtr"),
    (r"(?:Magic(?::\s*The Gathering)?\s+)?Infraction Procedure Guide|IPG", "ipg"),
    (r"(?:Magic(?::\s*The Gathering)?\s+)?Comprehensive Rules|CR", "cr"),
    (r"(?:DCI\s+)?Universal Tournament Rules|UTR", "utr"),
    (r"(?:DCI\s+)?Floor Rules", "floor"),
    (r"Judging at Regular REL|JAR", "jar"),
]
DOCUMENT = "|".join(f"(?:{pattern})" for pattern, _ in DOCUMENT_NAMES)

ITEM = rf"{NUMBER}(?:{DASH}(?:{NUMBER}|[a-z]\b))?"
# Searched for first (anchored on a literal word, so fast); the document name before it is looked up after.
KEYWORD_LIST = re.compile(
    rf"\b(?P<word>rules?|sections?|§§?)\s+"
    rf"(?P<items>{ITEM}(?:{SEPARATOR}{ITEM})*)",
    re.I,
)
DOCUMENT_BEFORE = re.compile(rf"(?P<doc>{DOCUMENT})(?:,|’s|'s)?\s+$", re.I)
# "rule 704.5k of the Comprehensive Rules" / "section 4.3 of the Magic Tournament Rules"
TRAILING_DOCUMENT = re.compile(rf"\s+(?:of|in)\s+(?:the\s+)?(?P<doc>{DOCUMENT})\b", re.I)
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


def find_references(text: str, line: Optional[int] = None, bare_cr_numbers: bool = False) -> list[Reference]:
    """Every reference in `text`, one Reference per number it names, in order of appearance.

    `bare_cr_numbers` also takes numbers like 704.5k standing alone (the CR's own
    style); documents that are not the CR should leave it off.
    """
    return [moved(reference, start=start, end=end)
            for start, end, reference in find_reference_spans(text, line, bare_cr_numbers)]


def moved(reference: Reference, **fields) -> Reference:
    """`reference` with some fields set (its span, its block), as dataclasses.replace gives it, without the
    frozen class's __init__ (a CR parse places thousands of references: that __init__ was a tenth of it)."""
    if _PLAIN_REFERENCE:
        copy = object.__new__(Reference)
        state = copy.__dict__
        state.update(reference.__dict__)
        state.update(fields)
        return copy
    return replace(reference, **fields)


# The shortcut above holds for a dataclass that keeps its fields in __dict__ and checks nothing after __init__.
_PLAIN_REFERENCE = "__slots__" not in Reference.__dict__ and not hasattr(Reference, "__post_init__")


def find_reference_spans(text: str, line: Optional[int] = None,
                         bare_cr_numbers: bool = False) -> list[tuple[int, int, Reference]]:
    """Like find_references, with the (start, end) of the written phrase of each number.

    First the places a reference may start are found with cheap patterns (a keyword before a
    number, a CR-style number, "(3.1)", "Appendix C", an infraction's title), then each is read
    with its own pattern, left to right; a place inside the phrase read before it is skipped.
    """
    if not may_hold_references(text):
        return []
    found: list[tuple[int, int, Reference]] = []
    consumed = trigger_end = 0
    for start, end, kind, trigger in _triggers(text, bare_cr_numbers):
        if start < trigger_end:
            continue        # inside the previous place (as one left-to-right scan would see it)
        trigger_end = end
        if start < consumed:
            continue
        if kind == "keyword":
            match = KEYWORD_LIST.match(text, start)
            if not match:
                continue
            before = _document_before(text, start)
            document = document_kind(before.group("doc")) if before else None
            phrase_start = before.start() if before else start
            if document is None:
                trailing = TRAILING_DOCUMENT.match(text, match.end())
                if trailing:
                    document = document_kind(trailing.group("doc"))
            phrase = text[phrase_start:match.end()]
            for item_start, item_end, number in _expand(match.group("items"), match.start("items")):
                found.append((item_start, item_end, Reference(phrase, number, document, None, line)))
            consumed = match.end()
        elif kind == "bare":
            match = BARE_CR.match(text, start)
            if not match:
                continue
            for item_start, item_end, number in _expand(match.group("items"), match.start("items")):
                found.append((item_start, item_end, Reference(match.group(0), number, None, None, line)))
            consumed = match.end()
        elif kind == "appendix":
            before = _document_before(text, start)
            document = document_kind(before.group("doc")) if before else None
            written = text[before.start() if before else start:end]
            found.append((start, end, Reference(written, " ".join(trigger.group(0).split()), document, None, line)))
            consumed = end
        elif kind == "named":
            match = NAMED.match(text, start)
            if not match or re.match(r"\s\(\d", text[match.end():match.end() + 3]):
                continue    # "Tardiness (3.1)"-style: the number after it says it better
            title = match.group(0).rstrip()
            found.append((start, start + len(title), Reference(title, title_key(title), None, None, line)))
            consumed = start + len(title)
        else:   # "paren": "Tardiness (3.1)"
            title = TITLE_BEFORE.search(text, max(0, start - 80), start)
            if not title:
                continue
            number_start, number_end = trigger.span("number")
            found.append((number_start, number_end,
                          Reference(text[title.start():end], trigger.group("number"), None, None, line)))
            consumed = end
    return found


# The places a reference may start, each with a pattern that scans fast (a literal or a rare
# character first): a keyword and a number ("rule 704.5k"), a bare CR number, "(3.1)" after a
# title, "Appendix C", an infraction's title ("Game Play Error — Missed Trigger").
KEYWORD_TRIGGER = re.compile(r"\b(?:rules?|sections?|§§?)\s+\d", re.I)
BARE_TRIGGER = re.compile(r"(?<![\w.])[1-9]\d{2}\.\d")
PAREN_TRIGGER = re.compile(r"\s\((?P<number>\d{1,2}\.\d{1,2})\)")
APPENDIX_TRIGGER = re.compile(r"\bAppendix\s+[A-H]\b(?!\s*[—–:-])", re.I)
NAMED_TRIGGER = re.compile(r"\b(?:Game Play Error|Tournament Error|Unsporting Conduct)\s?[—–-]\s?[A-Z]")
DIGIT = re.compile(r"\d")
# Each pattern runs only on a text holding what it needs (a substring test is far cheaper than a scan).
_TRIGGERS = (
    ("keyword", KEYWORD_TRIGGER, ("ule", "ULE", "ection", "ECTION", "§")),
    ("paren", PAREN_TRIGGER, ("(",)),
    ("appendix", APPENDIX_TRIGGER, ("ppendix", "PPENDIX")),
    ("named", NAMED_TRIGGER, ("Error", "Conduct")),
)


def _triggers(text: str, bare_cr_numbers: bool) -> list[tuple[int, int, str, re.Match]]:
    found = [(match.start(), match.end(), kind, match) for kind, pattern, needs in _TRIGGERS
             if any(need in text for need in needs) for match in pattern.finditer(text)]
    if bare_cr_numbers and "." in text:
        found.extend((match.start(), match.end(), "bare", match) for match in BARE_TRIGGER.finditer(text))
    found.sort(key=lambda trigger: (trigger[0], -trigger[1]))
    return found


def may_hold_references(text: str) -> bool:
    """False for a text no reference can be in (most paragraphs): a cheap test before find_references."""
    return (DIGIT.search(text) is not None or "ppendix" in text or "PPENDIX" in text
            or "Error" in text or "Conduct" in text)


def title_key(title: str) -> str:
    """A title as a lookup key: "Game Play Error - Missed Trigger" and "… — Missed Trigger" are one key."""
    return DASHES.sub(" — ", " ".join(title.split())).casefold()


DOCUMENT_NAME_ENDINGS = ("rules", "guide", "mtr", "ipg", "cr", "utr", "jar", "rel")


def _document_before(text: str, position: int):
    """The document name written just before `position` ("MTR section 4.3"), if any."""
    tail = text[max(0, position - 30):position].rstrip().rstrip(",").lower()
    if tail.endswith(("’s", "'s")):
        tail = tail[:-2]
    if not tail.endswith(DOCUMENT_NAME_ENDINGS):
        return None
    return DOCUMENT_BEFORE.search(text, max(0, position - 60), position)


def _expand(items: str, offset: int) -> Iterator[tuple[int, int, str]]:
    """Split "103.2 and 103.3" / "603.7d–f" / "801–811" into single numbers with their spans."""
    position = 0
    for piece in ITEM_SPLIT.split(items):
        start = items.index(piece, position)
        position = start + len(piece)
        span = (offset + start, offset + start + len(piece))
        parts = RANGE_SPLIT.split(piece)
        if len(parts) == 2:
            for number in expand_range(parts[0], parts[1]):
                yield span[0], span[1], number
        else:
            yield span[0], span[1], piece.rstrip(".")


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


def find_references_in_texts(texts: list[str], lines: list, bare_cr_numbers: bool = False) -> list[list[Reference]]:
    """find_references of each text (with its line): a parser's whole document at once."""
    return [find_references(text, line, bare_cr_numbers) for text, line in zip(texts, lines)]
