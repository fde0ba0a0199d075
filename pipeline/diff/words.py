"""Word-level differences between two wordings of a rule, for highlights (<del>/<ins>)."""
from __future__ import annotations

import re

from .. import kinds
from ..distance import opcodes

# Words, runs of spaces, and single other characters: joined back they give the text. A letter of a script
# written without spaces (Chinese) is a word of its own: a sentence of it is not one word.
_UNSPACED = "".join(language.letters for language in kinds.LANGUAGES if not language.spaced)
_TOKEN = re.compile((f"[{_UNSPACED}]|" if _UNSPACED else "") + r"\w+(?:['’]\w+)*|\s+|[^\w\s]")


def _opcodes(a: list[str], b: list[str]) -> list[tuple]:
    """The steps that turn token list `a` into `b` (a longest common subsequence), neighbouring "equal"
    runs made one."""
    merged: list[tuple] = []
    for tag, i1, i2, j1, j2 in opcodes(a, b):
        if merged and tag == "equal" and merged[-1][0] == "equal":
            previous = merged.pop()
            i1, j1 = previous[1], previous[3]
        merged.append((tag, i1, i2, j1, j2))
    return merged


def word_diff(old_text: str, new_text: str) -> list[tuple[str, str]]:
    """("equal"|"delete"|"insert", text) pieces, word by word.

    Joining the "equal" and "delete" pieces gives `old_text` back; joining "equal"
    and "insert" gives `new_text`. Within one changed stretch the deletion comes
    before the insertion, and spaces between changed words belong to the change.
    """
    a, b = _TOKEN.findall(old_text), _TOKEN.findall(new_text)
    if "".join(a) != old_text or "".join(b) != new_text:   # cannot happen; the tokens cover everything
        return [("delete", old_text), ("insert", new_text)]
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


