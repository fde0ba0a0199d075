"""pdftotext's default mode put back into whole lines: a heading's number and its title, a list's bullets and
its items, each on lines of their own, are joined again. Lines a reader marked (a hint) are never touched.

Part of the read stage: it is about how a converter wrote the text, not about any kind of document.
"""
from __future__ import annotations

import re
from typing import Optional, Sequence

from .lines import Line
from .shapes import ends_sentence, looks_like_title, strip_dot_leader

# "2.1." / "1.1" / "2." alone on a line: a heading's number (a page number has no dot).
NUMBER_ALONE = re.compile(r"[1-9]\d?\.(?:\d{1,2}\.?)*")
NUMBER_FIRST = "123456789"      # what NUMBER_ALONE starts with
LONE_BULLET = re.compile(r"[•●▪◦‣∙○■□➢➤❖\uf0b7\uf0a7]")
LONE_LETTER = re.compile(r"[A-Z]\.")       # an example's letter ("A." / "B." / "" / items...), drawn as bullets are
ITEM_START = re.compile(r"[A-Z0-9“\"'‘(]")
MAX_BLANKS_IN_HEADING = 2
LONGEST_SPLIT_OFF = 12                  # "12.34.56." at most


def is_split_off(text: str) -> bool:
    """A bullet or a heading's number alone on its line."""
    if len(text) > 2:       # (a bullet is one character, a letter two: longer, only a number; most are words)
        return len(text) <= LONGEST_SPLIT_OFF and text[0] in NUMBER_FIRST and NUMBER_ALONE.fullmatch(text) is not None
    return text != "" and (LONE_BULLET.fullmatch(text) is not None or LONE_LETTER.fullmatch(text) is not None
                           or NUMBER_ALONE.fullmatch(text) is not None)


def _any_split_off(lines: Sequence[Line]) -> bool:
    """Whether a line without a hint is a bullet or a heading's number alone (a loop: most lines are long)."""
    for line in lines:
        if not line.hint:
            text = line.text.strip()
            if 0 < len(text) <= LONGEST_SPLIT_OFF and is_split_off(text):
                return True
    return False


def rejoin_split_lines(lines: Sequence[Line]) -> list[Line]:
    """Lines of pdftotext's default mode made whole again; other lines pass through unchanged.

    - A heading's number stands on a line of its own, its title one or two lines further
      ("2.1." / "" / "Game Play Error — Missed Trigger"; "1.1" / "" / "Tournament Types"; in the
      contents "2.1." / "Game Play Error — Missed Trigger ..... 7"): one line "2.1. Game Play ...".
    - A list's bullets come first, each alone on a line, then the items' text ("•" / "•" / "" /
      "Tournament Organizer" / "Head Judge"): each item gets its bullet back ("• Head Judge"), the
      items being the lines of the block after the bullets when there are as many, else the lines that
      start a sentence after one ended.
    - An example list's letters come so too ("A." / "B." / "" / "A player draws..." / "A player..."): each
      item gets its letter back ("A. A player draws..."); letters count only in order from "A.".
    - A heading number drawn in the margin beside a list comes among its bullets ("•" / "1.7" /
      "" / items... / "" / "Head Judge"): it goes to the first title after the list.
    Nothing is dropped: a number joins its title, a bullet its item. Lines with a hint (PDF, HTML)
    are never touched.
    """
    if not _any_split_off(lines):
        return list(lines)               # nothing was split: most files
    out: list[Line] = []
    index, count = 0, len(lines)
    bullets: list[str] = []              # the markers met so far, each alone on its line ("•", "A.")
    held: Optional[Line] = None          # a heading number waiting for its title
    while index < count:
        line = lines[index]
        text = line.text.strip()
        if line.hint:
            pass
        elif LONE_BULLET.fullmatch(text) or LONE_LETTER.fullmatch(text) and _letters_in_order(bullets, text):
            bullets.append(text)
            index += 1
            continue
        elif bullets and held is None and NUMBER_ALONE.fullmatch(text):
            held = line
            index += 1
            continue
        elif bullets and not text:
            index += 1                   # blank lines between the bullets
            continue
        elif bullets:
            index = _bulleted_block(lines, index, bullets, out, held is not None)
            bullets = []
            continue
        elif held is not None and text:
            title = _title_after(lines, index - 1, held.text.strip(), len(lines))
            if title is not None:
                out.append(_joined_heading(held, lines[title]))
                held = None
                index = title + 1
                continue
            out.append(held)
            held = None
        elif held is None and NUMBER_ALONE.fullmatch(text):
            title = _title_after(lines, index, text, MAX_BLANKS_IN_HEADING + 1)
            if title is not None:
                out.append(_joined_heading(line, lines[title]))
                index = title + 1
                continue
        out.append(line)
        index += 1
    if held is not None:
        out.append(held)
    if bullets:                          # bullets with no text after them: kept as drawn
        out.append(Line(lines[-1].number, " ".join(bullets), "", lines[-1].page))
    return out


def _letters_in_order(markers: list[str], letter: str) -> bool:
    """"A." starts a run of letters, "B." goes on after "A.": a lone capital with a dot elsewhere is text."""
    if not markers:
        return letter == "A."
    return LONE_LETTER.fullmatch(markers[-1]) is not None and ord(letter[0]) == ord(markers[-1][0]) + 1


def _joined_heading(number: Line, title: Line) -> Line:
    return Line(number.number, f"{number.text.strip()} {title.text.strip()}", number.hint or title.hint, number.page)


def _title_after(lines: Sequence[Line], index: int, number: str, reach: int) -> Optional[int]:
    """The line a lone heading number's title is on: the next text line, if it reads like a title."""
    for following in range(index + 1, min(len(lines), index + 1 + reach)):
        text = lines[following].text.strip()
        if not text:
            continue
        return following if _is_title(text) else None
    return None


def _is_title(text: str) -> bool:
    title = strip_dot_leader(text) if "..." in text or "…" in text else text
    return bool(title) and title[0].isupper() and not NUMBER_ALONE.fullmatch(text) \
        and looks_like_title(title, 150, max_words=20, trailing=".,;")


def _bulleted_block(lines: Sequence[Line], index: int, markers: list[str], out: list[Line], number_held: bool) -> int:
    """The text lines after the lone `markers` (bullets or letters), up to a blank line, with them put back.

    With a heading number held, a title-like line after a finished one and before a blank line ends
    the list: it is that number's title.
    """
    end = index
    while end < len(lines):
        text = lines[end].text.strip()
        if not text or LONE_BULLET.fullmatch(text) or lines[end].hint:
            break
        if number_held and end > index and _is_title(text) and ends_sentence(lines[end - 1].text.strip()) \
                and (end + 1 >= len(lines) or not lines[end + 1].text.strip()):
            break
        end += 1
    block = list(range(index, end))
    if len(block) == len(markers):
        starts = block
    else:
        found = [index] + [at for at in block[1:] if ITEM_START.match(lines[at].text.strip())
                           and ends_sentence(lines[at - 1].text.strip(), ".!?:;")]
        starts = found[:len(markers)]
    marker_of = dict(zip(starts, markers))
    for at in block:
        line = lines[at]
        out.append(Line(line.number, f"{marker_of[at]} {line.text.strip()}", "li", line.page) if at in marker_of
                   else line)
    missing = markers[len(starts):]
    if missing:                          # more markers than items found: the rest stay as drawn
        out.append(Line(lines[end - 1].number, " ".join(missing), "", lines[end - 1].page))
    return end
