"""What every parsed document is held to, as its kind declares in pipeline.kinds.

A parser records what it finds (its sections, its contents list, where its text stops); these checks
then ask whether the whole adds up. A check takes the document and returns it with what it found
(and, where two signals repair each other, repaired). A broken invariant is an error naming the file
and line (the read stage adds a PDF's page), and any error, the parser's own or a check's, marks the
document incomplete: a document that was not understood is never presented as complete.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable, Sequence

from .. import kinds
from ..model import ERROR, SUBHEADING, WARNING, Document, Problem
from .common import broken_severity, normalise_title
from .quick_reference import settled_penalties

Check = Callable[[Document], Document]
NAMES_SHOWN = 5


def reported(document: Document, problems: Sequence[Problem], incomplete: bool = False) -> Document:
    """The document with `problems` added (and marked incomplete if asked)."""
    if not problems and not incomplete:
        return document
    info = replace(document.info, complete=False) if incomplete else document.info
    return replace(document, info=info, problems=document.problems + tuple(problems))


def listed(names: Sequence[str], limit: int = NAMES_SHOWN) -> str:
    """"a, b, c and 4 more": the first few of a list, for a message."""
    more = f" and {len(names) - limit} more" if len(names) > limit else ""
    return ", ".join(names[:limit]) + more


# --- the contents list ------------------------------------------------------------------------------

def contents_reached(document: Document) -> Document:
    """Every heading the contents list names is found.

    A numbered entry (or a closing part: the CR's glossary and credits) the text never reaches means the
    file stops early, a truncated download: one problem at the line where it stops, naming what is
    missing, and the document is incomplete (a warning in an excerpt). A named entry found nowhere (an
    MTR's "Introduction") is a warning: editions rename their subheadings.
    """
    entries = document.contents
    if not entries:
        return document
    numbers = {section.number for section in document.sections}
    headings = _headings(document)
    unreached = [f"{entry.number} {entry.title}".strip() for entry in entries
                 if (entry.number and entry.number not in numbers)
                 or (entry.closing and normalise_title(entry.title) not in headings)]
    unseen = [entry for entry in entries
              if not entry.number and not entry.closing and normalise_title(entry.title) not in headings]
    problems = []
    if unreached:
        problems.append(_truncated(document, unreached))
    if unseen:
        names = listed([f"\"{entry.title}\"" for entry in unseen])
        problems.append(Problem(WARNING, document.info.source, unseen[0].line,
                                f"the contents list names {names} but the text has no such heading"))
    return reported(document, problems, incomplete=bool(unreached))


def _headings(document: Document) -> set[str]:
    """The titles (normalised) of the headings that are no numbered section's: unnumbered sections,
    subheadings (in the front matter, sections and credits), and the glossary's."""
    found = {normalise_title(section.title) for section in document.sections if not section.number}
    every_blocks = (document.front_matter, document.credits, *(section.blocks for section in document.sections))
    found.update(normalise_title(block.text) for blocks in every_blocks for block in blocks if block.kind == SUBHEADING)
    if document.glossary:
        found.add("glossary")
    return found


def _truncated(document: Document, unreached: list[str]) -> Problem:
    end = document.end
    line = end.line if end else None
    where = f"line {line}" if line else "its start"
    last_section = next((section.number for section in reversed(document.sections) if section.number), "")
    if last_section:
        where += f" (after section {last_section})"
    if end is not None and end.mid_sentence:
        where += ", in the middle of a sentence"
    return Problem(broken_severity(document.info), document.info.source, line,
                   f"the contents list names {len(unreached)} section(s) the text never reaches "
                   f"({listed(unreached)}): the file stops at {where}, so it looks truncated")


# --- the layout -------------------------------------------------------------------------------------

# A layout the parser does not know (an older edition's names and numbering) shows as text left outside
# every section, or as one section swallowing what were headings to a reader. In the IPGs and MTRs of
# 2012-2026 the text before the first section is at most 3 % of the words and the longest section 11 %.
STRUCTURE_MIN_WORDS = 3000          # shorter texts (excerpts, hand-made ones) are not judged
OUTSIDE_SHARE = 0.25                # more of the words than this outside every section: not recognised
ONE_SECTION_SHARE = 0.30            # one section holding more than this: its headings not recognised


def layout_recognised(document: Document, min_words: int = STRUCTURE_MIN_WORDS) -> Document:
    """Never a half-parsed document presented as complete: when too much of the text lies outside the
    sections, or one section holds too much of it, the document is marked incomplete with an error naming
    the line (the read stage adds the page for a PDF)."""
    def words(blocks) -> int:
        return sum(len(block.as_text().split()) for block in blocks)
    sizes = [words(section.blocks) + sum(len(example.split()) for example in section.examples)
             for section in document.sections]
    outside = words(document.front_matter) + words(document.credits)
    total = outside + sum(sizes) + sum(len(entry.text.split()) for entry in document.glossary)
    info, problems = document.info, []
    if total < min_words or not document.sections or not info.complete:
        return document                # (a file already known to stop early is judged by that)
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
    return reported(document, problems, incomplete=bool(problems))


# --- the glossary -----------------------------------------------------------------------------------

def unique_terms(document: Document) -> list[Problem]:
    """Each glossary term once: a term defined twice leaves a reader one of two meanings. A translation is
    exempt: it may give two English terms one word ("平原行者" for Plainscycling and Plainswalk), and each of
    its entries pairs with its own English one (pipeline.pairing.pair_glossary says what does not)."""
    if document.info.translation:
        return []
    first: dict[str, int] = {}
    problems = []
    for entry in document.glossary:
        key = " ".join(entry.term.split()).casefold()
        if key in first:
            problems.append(Problem(ERROR, document.info.source, entry.line,
                                    f"glossary term {entry.term!r} is defined again (first at line {first[key]})"))
        else:
            first[key] = entry.line or 0
    return problems


# The longest real terms have 8 words ("Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)").
LONGEST_TERM_WORDS = 12


def terms_are_names(document: Document) -> list[Problem]:
    """A glossary term is a name, not a passage: a term line that runs on for a sentence means the layout of
    the glossary was not recognised (a converter that joined each term with its definition)."""
    return [Problem(ERROR, document.info.source, entry.line,
                    f"glossary term {' '.join(entry.term.split()[:8])!r}… reads as a passage of "
                    f"{len(entry.term.split())} words, not a name: the glossary's layout was not recognised")
            for entry in document.glossary      # (so many words take more than twice as many characters)
            if len(entry.term) > 2 * LONGEST_TERM_WORDS and len(entry.term.split()) > LONGEST_TERM_WORDS]


def problems_only(find: Callable[[Document], list[Problem]]) -> Check:
    """A check that finds problems and repairs nothing."""
    return lambda document: reported(document, find(document))


# Invariants by the name a kind declares, run in the order it declares them.
CHECKS: dict[str, Check] = {
    "contents": contents_reached,
    "layout": layout_recognised,
    "penalties agree": settled_penalties,
    "unique terms": problems_only(unique_terms),
    "terms are names": problems_only(terms_are_names),
}


def checked(document: Document) -> Document:
    """The document held to its kind's invariants; incomplete if any error was found."""
    kind = kinds.kind(document.info.kind)
    for name in kind.checks if kind else ():
        document = CHECKS[name](document)
    if document.info.complete and any(problem.severity == ERROR for problem in document.problems):
        document = replace(document, info=replace(document.info, complete=False))
    return document
