"""What every parser shares: how a line ends a sentence or reads like a title, the contents and
credits labels, Markdown heading marks, unique section ids, truncation reports, a per-line guard
so that odd content becomes a Problem (with its line) instead of an exception, how the lines of a
paragraph join, and how PDF-to-text output is put back into lines a parser can read.

Each parser keeps only what is its document's own (numbering, penalties, glossary).
"""
from __future__ import annotations

import re
from dataclasses import replace
from typing import Optional, Sequence

from ..model import ERROR, WARNING, DocumentInfo, Problem
from ..read.source import Line
from .furniture import strip_dot_leader

# What may close a sentence after its final punctuation: "...Option.”", "...(See rule 704.)".
CLOSING_MARKS = "\"'”’)]"
SENTENCE_MARKS = ".!?:"
# "Contents", "Table of Contents", "CONTENTS:"; the MTR also lists "Appendices".
CONTENTS_LABEL = re.compile(r"(?:table\s+of\s+)?contents:?|appendices", re.I)
# "All trademarks are property of...", "™ & © 2024 Wizards", "Converted by: ...".
CREDIT_LINE = re.compile(r"^(?:All trademarks\b|Converted by\b|™\s*&\s*©|TM\s*&\s*\(?c\)?|©|\(c\)\s*\d"
                         r"|Copyright\b)", re.I)
MARKDOWN_HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)(?:\s+#+)?\s*$")
SENTENCE_INSIDE = re.compile(r"(?:[a-z]{3}|\))[.!?]\s+[A-Z]")   # not "Team vs. Team"
NOT_TITLE_STARTS = ",.;:)]-–—•*"


def ends_sentence(text: str, marks: str = SENTENCE_MARKS) -> bool:
    """"...the game." / "...(see rule 704.)" / "Example:" end a sentence; "...a player" does not. Empty: True."""
    return text.rstrip(CLOSING_MARKS)[-1:] in marks if text else True


def looks_like_title(text: str, max_length: int = 100, max_words: int = 16, trailing: str = ".,;:") -> bool:
    """Short, starts like a title (a capital, a digit or a quote), holds no sentence and does not end like one."""
    if not text or len(text) > max_length or len(text.split()) > max_words:
        return False
    if text[0].islower() or text[0] in NOT_TITLE_STARTS:
        return False
    return text.rstrip(CLOSING_MARKS)[-1:] not in trailing and not SENTENCE_INSIDE.search(text)


TITLE_WORD = re.compile(r"[A-Za-z][\w'’-]*")
TRAILING_NOTE = re.compile(r"\s*[(\[][^()\[\]]*[)\]]$")       # "... Limited Events (these are guidelines)"


def title_case(title: str) -> bool:
    """Most long words capitalised, as in "Card Use in Limited Tournaments" or "General Unwanted Behaviors"
    (not "New sets added", "Such as these"); a note in parentheses at its end does not count."""
    long_words = [word for word in TITLE_WORD.findall(TRAILING_NOTE.sub("", title)) if len(word) > 3]
    return not long_words or 2 * sum(word[0].isupper() for word in long_words) >= len(long_words)


def broken_severity(info: DocumentInfo) -> str:
    """What a broken invariant is: an error, but a warning in a file the manifest says is an excerpt (an
    excerpt's contents list names what it left out)."""
    return WARNING if info.excerpt else ERROR


def is_contents_label(text: str) -> bool:
    return bool(CONTENTS_LABEL.fullmatch(text.strip()))


def markdown_heading(text: str) -> Optional[tuple[str, str]]:
    """"## 1.1 Tournament Types" -> ("1.1 Tournament Types", "h2"); None for a line without heading marks."""
    match = MARKDOWN_HEADING.match(text)
    return (match.group(2), f"h{len(match.group(1))}") if match else None


class SectionIds:
    """Section ids, unique within a document: a number seen again gets "-2", "-3"… (and a warning)."""

    def __init__(self, problems: list[Problem], source: str):
        self.counts: dict[str, int] = {}
        self.used: set[str] = set()
        self.problems = problems
        self.source = source

    def unique(self, wanted: str, number: str = "", line: Optional[int] = None) -> str:
        count = self.counts.get(wanted, 0) + 1
        self.counts[wanted] = count
        unique = wanted if count == 1 else f"{wanted}-{count}"
        while unique in self.used:
            count += 1
            unique = f"{wanted}-{count}"
        if unique != wanted and number:
            self.problems.append(Problem(WARNING, self.source, line,
                                         f"section number {number} appears again (duplicate number); both kept, "
                                         f"the second as {unique.split(':', 1)[1]}"))
        self.used.add(unique)
        return unique


# A layout the parser does not know (an older edition's names and numbering) shows as text left outside
# every section, or as one section swallowing what were headings to a reader. In the IPGs and MTRs of
# 2012-2026 the text before the first section is at most 3 % of the words and the longest section 11 %.
STRUCTURE_MIN_WORDS = 3000          # shorter texts (excerpts, hand-made ones) are not judged
OUTSIDE_SHARE = 0.25                # more of the words than this outside every section: not recognised
ONE_SECTION_SHARE = 0.30            # one section holding more than this: its headings not recognised


def check_structure(document, min_words: int = STRUCTURE_MIN_WORDS) -> tuple[DocumentInfo, list[Problem]]:
    """The document's info (incomplete if its layout was not recognised) and the problems that say where.

    Never a half-parsed document presented as complete: when too much of the text lies outside the
    sections, or one section holds too much of it, the document is marked incomplete with an error
    naming the line (the read stage adds the page for a PDF).
    """
    def words(blocks) -> int:
        return sum(len(block.as_text().split()) for block in blocks)
    sizes = [words(section.blocks) + sum(len(example.split()) for example in section.examples)
             for section in document.sections]
    outside = words(document.front_matter) + words(document.credits)
    total = outside + sum(sizes) + sum(len(entry.text.split()) for entry in document.glossary)
    info, problems = document.info, []
    if total < min_words or not document.sections or not info.complete:
        return info, problems          # (a file already known to stop early is judged by that)
    first = next((section.line for section in document.sections if section.line), None)
    if outside > OUTSIDE_SHARE * total:
        problems.append(Problem(ERROR, info.source, first,
                                f"{outside * 100 // total}% of the text lies outside every section (before line "
                                f"{first}, or after the last section): this edition's layout was not recognised "
                                f"there, so the document is marked incomplete"))
    largest = max(range(len(sizes)), key=sizes.__getitem__)
    if sizes[largest] > ONE_SECTION_SHARE * total:
        section = document.sections[largest]
        following = next((other.line for other in document.sections[largest + 1:] if other.line), None)
        span = f"lines {section.line}-{following - 1}" if following else f"from line {section.line}"
        problems.append(Problem(ERROR, info.source, section.line,
                                f"section {section.number or section.title!r} holds {sizes[largest] * 100 // total}% "
                                f"of the text ({span}): the headings inside it were not recognised (an older "
                                f"layout?), so the document is marked incomplete"))
    if problems:
        info = replace(info, complete=False)
    return info, problems


def line_failed(problems: list[Problem], source: str, line: Optional[int], error: Exception) -> None:
    """A line a parser could not read (odd content never stops a parse): say where; the caller keeps its text."""
    problems.append(Problem(WARNING, source, line, f"could not read this line ({type(error).__name__}: {error}); "
                                                   f"kept it as a paragraph"))


# --- joining the lines of a paragraph ---------------------------------------------------------------

# A line that ends inside a word: a letter (or a closing mark) right before a hyphen or dash, no space
# between ("turn-" / "based", "occurs—" / "unless"). PDFs of these documents break lines only at hyphens
# that are part of the word, so the hyphen stays and no space is put in.
BROKEN_AT_DASH = re.compile(r"(?:[^\W_]|[\[(])[-‐–—−]$|[\"”’)][—–]$")   # "[−" / "N]": a minus sign too
GOES_ON = re.compile(r"[^\W_]|[\[{(“\"‘']")          # what may follow such a dash without a space
# "first- and second-order": a hyphen before a conjunction is a suspended compound, the space stays.
SUSPENDED = re.compile(r"(?:and|or|nor|to)\b")


def glue(before: str, after: str) -> str:
    """What goes between two lines of one paragraph: "" after a word broken at its hyphen, else a space."""
    if before and after and GOES_ON.match(after) and BROKEN_AT_DASH.search(before) \
            and not (before[-1] == "-" and SUSPENDED.match(after)):
        return ""
    return " "


def join_lines(parts: list[str]) -> str:
    """The lines of one paragraph as one text ("turn-" + "based" -> "turn-based", others with a space)."""
    if len(parts) == 1:
        return parts[0]
    pieces = [parts[0]]
    for before, after in zip(parts, parts[1:]):
        pieces.append(glue(before, after))
        pieces.append(after)
    return "".join(pieces)


def line_starts(parts: list[str]) -> list[int]:
    """Where each line starts in join_lines(parts)."""
    starts, position = [], 0
    for index, part in enumerate(parts):
        if index:
            position += len(glue(parts[index - 1], part))
        starts.append(position)
        position += len(part)
    return starts


def wrap_width(texts: list[str], unwrapped: int = 160) -> Optional[int]:
    """The width (in characters) a hard-wrapped text was wrapped at, or None for one paragraph per line.

    PDF lines, pdftotext output and old hard-wrapped files have one; plain text and HTML with a
    paragraph per line do not (their typical long line is longer than `unwrapped`).
    """
    lengths = sorted(len(text) for text in texts if len(text) >= 20 and "\t" not in text)
    if len(lengths) < 10:
        return None
    width = lengths[int(len(lengths) * 0.9)]
    return None if width > unwrapped else width


def first_word(text: str) -> str:
    return text.split(maxsplit=1)[0] if text.split() else ""


def ends_paragraph(line: str, following: str, width: Optional[int]) -> bool:
    """Whether a wrapped line ends its paragraph: its next line's first word would have fitted on it.

    Only for hard-wrapped text (`width` known); proportional fonts make "full" vary, hence the margin.
    """
    return width is not None and len(line) + 1 + len(first_word(following)) <= width * 0.9


# --- pdftotext's default mode ------------------------------------------------------------------------

# "2.1." / "1.1" / "2." alone on a line: a heading's number (a page number has no dot).
NUMBER_ALONE = re.compile(r"[1-9]\d?\.(?:\d{1,2}\.?)*")
LONE_BULLET = re.compile(r"[•●▪◦‣∙○■□➢➤❖\uf0b7\uf0a7]")
ITEM_START = re.compile(r"[A-Z0-9“\"'‘(]")
MAX_BLANKS_IN_HEADING = 2


def rejoin_split_lines(lines: Sequence[Line]) -> list[Line]:
    """Lines of pdftotext's default mode made whole again; other lines pass through unchanged.

    - A heading's number stands on a line of its own, its title one or two lines further
      ("2.1." / "" / "Game Play Error — Missed Trigger"; "1.1" / "" / "Tournament Types"; in the
      contents "2.1." / "Game Play Error — Missed Trigger ..... 7"): one line "2.1. Game Play ...".
    - A list's bullets come first, each alone on a line, then the items' text ("•" / "•" / "" /
      "Tournament Organizer" / "Head Judge"): each item gets its bullet back ("• Head Judge"), the
      items being the lines of the block after the bullets when there are as many, else the lines that
      start a sentence after one ended.
    - A heading number drawn in the margin beside a list comes among its bullets ("•" / "1.7" /
      "" / items... / "" / "Head Judge"): it goes to the first title after the list.
    Nothing is dropped: a number joins its title, a bullet its item. Lines with a hint (PDF, HTML)
    are never touched.
    """
    out: list[Line] = []
    index, count = 0, len(lines)
    bullets = 0
    held: Optional[Line] = None          # a heading number waiting for its title
    while index < count:
        line = lines[index]
        text = line.text.strip()
        if line.hint:
            pass
        elif LONE_BULLET.fullmatch(text):
            bullets += 1
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
            bullets = 0
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
        out.append(Line(lines[-1].number, " ".join("•" * bullets), "", lines[-1].page))
    return out


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


def _bulleted_block(lines: Sequence[Line], index: int, bullets: int, out: list[Line], number_held: bool) -> int:
    """The text lines after `bullets` lone bullets, up to a blank line, with the bullets put back.

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
    if len(block) == bullets:
        starts = set(block)
    else:
        found = [index] + [at for at in block[1:] if ITEM_START.match(lines[at].text.strip())
                           and ends_sentence(lines[at - 1].text.strip(), ".!?:;")]
        starts = set(found[:bullets])
    for at in block:
        line = lines[at]
        out.append(Line(line.number, f"• {line.text.strip()}", "li", line.page) if at in starts else line)
    missing = bullets - len(starts)
    if missing > 0:                      # more bullets than items found: the rest stay as drawn
        out.append(Line(lines[end - 1].number, " ".join("•" * missing), "", lines[end - 1].page))
    return end
