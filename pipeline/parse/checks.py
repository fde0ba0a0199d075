"""What every parsed document is held to, as its kind declares in pipeline.kinds.

A parser records what it finds; these checks then ask whether the whole adds up. A broken
invariant is an error naming the file and line (the read stage adds a PDF's page), and any
error, the parser's own or a check's, marks the document incomplete: a document that was not
understood is never presented as complete.
"""
from __future__ import annotations

from dataclasses import replace
from typing import Callable

from .. import kinds
from ..model import ERROR, Document, Problem


def unique_terms(document: Document) -> list[Problem]:
    """Each glossary term once: a term defined twice leaves a reader one of two meanings."""
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
            for entry in document.glossary if len(entry.term.split()) > LONGEST_TERM_WORDS]


# Invariants by the name a kind declares; "contents" (every heading the contents list names is found)
# is checked by each parser where it reads the list.
CHECKS: dict[str, Callable[[Document], list[Problem]]] = {
    "unique terms": unique_terms,
    "terms are names": terms_are_names,
}


def checked(document: Document) -> Document:
    """The document with its kind's invariants checked; incomplete if any error was found."""
    kind = kinds.kind(document.info.kind)
    found = [problem for name in (kind.checks if kind else ()) if name in CHECKS
             for problem in CHECKS[name](document)]
    problems = document.problems + tuple(found)
    info = document.info
    if info.complete and any(problem.severity == ERROR for problem in problems):
        info = replace(info, complete=False)
    return replace(document, info=info, problems=problems)
