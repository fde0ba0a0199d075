"""Word-level differences between two wordings of a rule, for highlights (<del>/<ins>)."""
from __future__ import annotations

import difflib
import re

# Words, runs of spaces, and single other characters: joined back they give the text.
_TOKEN = re.compile(r"\w+(?:['’]\w+)*|\s+|[^\w\s]")


def _opcodes(a: list[str], b: list[str]) -> list[tuple]:
    """difflib's opcodes, computed only between the common beginning and end (most edits are local)."""
    start = 0
    limit = min(len(a), len(b))
    while start < limit and a[start] == b[start]:
        start += 1
    end = 0
    while end < limit - start and a[len(a) - 1 - end] == b[len(b) - 1 - end]:
        end += 1
    middle = difflib.SequenceMatcher(_is_filler, a[start:len(a) - end], b[start:len(b) - end])   # autojunk: fast on long texts
    opcodes = [("equal", 0, start, 0, start)] if start else []
    for tag, i1, i2, j1, j2 in middle.get_opcodes():
        opcodes.append((tag, i1 + start, i2 + start, j1 + start, j2 + start))
    if end:
        opcodes.append(("equal", len(a) - end, len(a), len(b) - end, len(b)))
    # neighbouring "equal" runs (at the seams) become one
    merged: list[tuple] = []
    for code in opcodes:
        if merged and code[0] == "equal" and merged[-1][0] == "equal":
            previous = merged.pop()
            code = ("equal", previous[1], code[2], previous[3], code[4])
        merged.append(code)
    return merged


def _is_filler(token: str) -> bool:
    return not token[:1].isalnum()


def word_diff(old_text: str, new_text: str) -> list[tuple[str, str]]:
    """("equal"|"delete"|"insert", text) pieces, word by word.

    Joining the "equal" and "delete" pieces gives `old_text` back; joining "equal"
    and "insert" gives `new_text`. Within one changed stretch the deletion comes
    before the insertion, and spaces between changed words belong to the change.
    """
    a, b = _TOKEN.findall(old_text), _TOKEN.findall(new_text)
    if "".join(a) != old_text or "".join(b) != new_text:   # cannot happen; the tokens cover everything
        return [("delete", old_text), ("insert", new_text)]
    # Spaces and punctuation are junk to difflib: never where a match starts (matching the commas of
    # the creature-type list took seconds), still inside the matches it extends.
    opcodes = _opcodes(a, b)
    # An "equal" run of whitespace alone between two changes is part of the change.
    merged: list[list] = []   # [tag, old tokens, new tokens]
    for position, (tag, i1, i2, j1, j2) in enumerate(opcodes):
        old_part, new_part = a[i1:i2], b[j1:j2]
        if tag == "equal":
            inside = 0 < position < len(opcodes) - 1
            if inside and all(token.isspace() for token in old_part):
                merged.append(["change", old_part, new_part])
            else:
                merged.append(["equal", old_part, new_part])
        else:
            merged.append(["change", old_part, new_part])
    pieces: list[tuple[str, str]] = []
    run: list[list] = []

    def flush() -> None:
        if not run:
            return
        deleted = "".join("".join(part[1]) for part in run)
        inserted = "".join("".join(part[2]) for part in run)
        if deleted == inserted:
            _append(pieces, "equal", deleted)
        else:
            # the spaces both sides end with are not part of the change
            shared = len(deleted) - len(deleted.rstrip())
            shared = min(shared, len(inserted) - len(inserted.rstrip()))
            while shared and deleted[len(deleted) - shared:] != inserted[len(inserted) - shared:]:
                shared -= 1
            tail = deleted[len(deleted) - shared:] if shared else ""
            _append(pieces, "delete", deleted[:len(deleted) - shared])
            _append(pieces, "insert", inserted[:len(inserted) - shared])
            _append(pieces, "equal", tail)
        run.clear()

    for part in merged:
        if part[0] == "equal":
            flush()
            _append(pieces, "equal", "".join(part[1]))
        else:
            run.append(part)
    flush()
    return pieces


def _append(pieces: list, tag: str, text: str) -> None:
    if not text:
        return
    if pieces and pieces[-1][0] == tag:
        pieces[-1] = (tag, pieces[-1][1] + text)
    else:
        pieces.append((tag, text))


