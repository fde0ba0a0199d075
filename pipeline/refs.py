"""Find the references a passage of rule text makes, exactly as written.

"rule 704.5k", "rules 103.2 and 103.3", "rules A, B, and C", "603.7d–f",
"section 8", "see section 113", "MTR section 4.3", "Tardiness (3.1)".
Only finds and expands them; which section each names is the link stage's job.
"""
from __future__ import annotations

import re
from bisect import bisect_right
from itertools import accumulate
from typing import Iterator, Optional

from .model import Reference

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
TRIGGER = re.compile(
    r"(?P<keyword>\b(?:rules?|sections?|§§?)\s+\d)"
    r"|(?P<bare>(?<![\w.])[1-9]\d{2}\.\d)"
    r"|\s\((?P<paren>(?P<paren_number>\d{1,2}\.\d{1,2}))\)"
    r"|(?P<appendix>\bAppendix\s+[A-H]\b)(?!\s*[—–:-])"
    r"|(?P<named>(?-i:\b(?:Game Play Error|Tournament Error|Unsporting Conduct)\s?[—–-]\s?[A-Z]))",
    re.I)
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
    return [reference for _, _, reference in find_reference_spans(text, line, bare_cr_numbers)]


def find_reference_spans(text: str, line: Optional[int] = None,
                         bare_cr_numbers: bool = False) -> list[tuple[int, int, Reference]]:
    """Like find_references, with the (start, end) of the written phrase of each number.

    One scan finds every place a reference may start (a keyword before a number, a
    CR-style number, "(3.1)", "Appendix C"); each is then read with its own pattern.
    """
    found: list[tuple[int, int, Reference]] = []
    consumed = 0
    for trigger in TRIGGER.finditer(text):
        position = trigger.start()
        if position < consumed:
            continue
        kind = trigger.lastgroup
        if kind == "keyword":
            match = KEYWORD_LIST.match(text, position)
            if not match:
                continue
            before = _document_before(text, position)
            document = document_kind(before.group("doc")) if before else None
            start = before.start() if before else position
            if document is None:
                trailing = TRAILING_DOCUMENT.match(text, match.end())
                if trailing:
                    document = document_kind(trailing.group("doc"))
            phrase = text[start:match.end()]
            for item_start, item_end, number in _expand(match.group("items"), match.start("items")):
                found.append((item_start, item_end, Reference(phrase, number, document, None, line)))
            consumed = match.end()
        elif kind == "bare":
            if not bare_cr_numbers:
                continue
            match = BARE_CR.match(text, position)
            if not match:
                continue
            for item_start, item_end, number in _expand(match.group("items"), match.start("items")):
                found.append((item_start, item_end, Reference(match.group(0), number, None, None, line)))
            consumed = match.end()
        elif kind == "appendix":
            before = _document_before(text, position)
            document = document_kind(before.group("doc")) if before else None
            written = text[before.start() if before else position:trigger.end()]
            found.append((position, trigger.end(), Reference(written, trigger.group("appendix").replace("\n", " "),
                                                             document, None, line)))
            consumed = trigger.end()
        elif kind == "named":
            match = NAMED.match(text, position)
            if not match or re.match(r"\s\(\d", text[match.end():match.end() + 3]):
                continue    # "Tardiness (3.1)"-style: the number after it says it better
            title = match.group(0).rstrip()
            found.append((position, position + len(title), Reference(title, title_key(title), None, None, line)))
            consumed = position + len(title)
        elif kind == "paren":
            title = TITLE_BEFORE.search(text, max(0, position - 80), position)
            if not title:
                continue
            number = trigger.group("paren_number")
            found.append((trigger.start("paren_number"), trigger.end("paren_number"),
                          Reference(text[title.start():trigger.end()], number, None, None, line)))
            consumed = trigger.end()
    return found


MAY_REFER = re.compile(r"\d|ppendix|PPENDIX|(?:Error|Conduct)\s?[—–-]")


def may_hold_references(text: str) -> bool:
    """False for a text no reference can be in (most paragraphs): a cheap test before find_references."""
    return MAY_REFER.search(text) is not None


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


# --- many texts at once, fast -------------------------------------------------------------------------
#
# find_references reads every character with one many-branched pattern: about 0.2 s for the
# texts of a whole CR, four times the time of everything else. In the CR its triggers are a keyword
# ("rule", "sections", "§", any case) before whitespace and a digit, and a CR number ("704.5k"). Both
# have a cheap mark: whitespace then a digit, a dot then a digit. So all texts are searched once for
# those marks, and the patterns above are matched only there, in the order and with the overlap rules
# of find_reference_spans. A text where refs does more (a document name before or after the
# keyword, a "Title (3.1)" or "Appendix C" reference) goes to find_references itself.
# tests/test_parse_cr.py checks the results equal find_references on every text of every fixture
# and on generated texts: a change above that this shortcut misses fails those tests.

WHITESPACE_DIGIT = re.compile(r"\s\d")
DOT_DIGIT = re.compile(r"\.\d")
# What only find_references reads: "Tardiness (3.1)", "Appendix C" (in its usual spellings).
PARENTHESISED_NUMBER = re.compile(r"\(\d{1,2}\.\d{1,2}\)")
APPENDIX_WORDS = (re.compile("ppendix"), re.compile("PPENDIX"), re.compile(r"Error\s?[—–-]|Conduct\s?[—–-]"))
# refs.TRIGGER's "keyword" and "bare" branches, read from their ends.
KEYWORD_BEFORE_GAP = re.compile(r"\b(?:rules?|sections?|§§?)$", re.I)
KEYWORD_LAST_LETTERS = "eEnNsS\u017f§"  # rule, rules, section, sections, §; re.I takes ſ for s
LONGEST_KEYWORD = len("sections")
BARE_TRIGGER = re.compile(r"(?<![\w.])[1-9]\d{2}\.\d")
BARE_TRIGGER_LENGTH = len("704.5")
SEPARATOR = "\x00"   # no reference pattern matches across it: it is neither space nor word character


def find_references_in_texts(texts: list[str], lines: list, bare_cr_numbers: bool = False) -> list[list[Reference]]:
    """[find_references(text, line, bare_cr_numbers) for text, line in zip(texts, lines)], fast.

    For a parser's whole document at once (the CR's ~9,000 texts in ~25 ms instead of ~200 ms).
    """
    big = SEPARATOR.join(texts)
    starts = [0, *accumulate(len(text) + 1 for text in texts)]
    delegated = {bisect_right(starts, match.start()) - 1
                 for pattern in (PARENTHESISED_NUMBER, *APPENDIX_WORDS) for match in pattern.finditer(big)}
    results: list[list[Reference]] = [[] for _ in texts]
    keyword_marks_of = WHITESPACE_DIGIT.finditer
    dot_marks_of = DOT_DIGIT.finditer if bare_cr_numbers else None
    for index, text in enumerate(texts):
        if index in delegated:
            results[index] = find_references(text, lines[index], bare_cr_numbers)
            continue
        if not MAY_REFER.search(text):
            continue            # no digit: nothing to find (most texts)
        keyword_marks = [match.start() for match in keyword_marks_of(text)]
        dot_marks = [match.start() for match in dot_marks_of(text)] if dot_marks_of else []
        if not keyword_marks and not dot_marks:
            continue
        found = _references_at(text, lines[index], keyword_marks, dot_marks)
        results[index] = find_references(text, lines[index], bare_cr_numbers) if found is None else found
    return results


def _references_at(text: str, line: int, keyword_marks: list[int], dot_marks: list[int]) -> Optional[list]:
    """The references of `text`, given its marks; None when find_references must read it."""
    triggers = []                                   # (start, end, is a keyword) as refs.TRIGGER finds them
    for mark in keyword_marks:                      # "rule 704.5k": the whitespace before the digit
        gap_start = mark
        while gap_start > 0 and text[gap_start - 1].isspace():
            gap_start -= 1
        if gap_start == 0 or text[gap_start - 1] not in KEYWORD_LAST_LETTERS:
            continue                                # "deals 2 damage"
        keyword = KEYWORD_BEFORE_GAP.search(text, max(0, gap_start - LONGEST_KEYWORD), gap_start)
        if keyword is not None:
            triggers.append((keyword.start(), mark + 2, True))
    for mark in dot_marks:                          # "704.5k": the dot before the digit
        begin = mark - 3
        if begin >= 0 and BARE_TRIGGER.match(text, begin):
            triggers.append((begin, begin + BARE_TRIGGER_LENGTH, False))
    triggers.sort()
    found = []
    trigger_end = consumed = 0
    for start, end, is_keyword in triggers:
        if start < trigger_end:                     # inside the trigger before: never a trigger itself
            continue
        trigger_end = end
        if start < consumed:
            continue
        if is_keyword:
            match = KEYWORD_LIST.match(text, start)
            if match is None:
                continue
            if _document_before(text, start) or TRAILING_DOCUMENT.match(text, match.end()):
                return None                         # "MTR section 4.3", "rule 3 of the Tournament Rules"
        else:
            match = BARE_CR.match(text, start)
            if match is None:
                continue
        _add_references(found, match, line)
        consumed = match.end()
    return found


def _add_references(found: list, match: re.Match, line: int) -> None:
    """refs' expansion of one match's items ("103.2 and 103.3", "603.7d–f"), fast for a single number."""
    phrase = match.group(0)
    items = match.group("items")
    if items.replace(".", "").isalnum():            # one number: no separator, no range
        found.append(Reference(phrase, items.rstrip("."), None, None, line))
        return
    for _, _, number in _expand(items, match.start("items")):
        found.append(Reference(phrase, number, None, None, line))
