"""A long section's paragraphs, for a question that tells a story: its words may be spread over the whole section
(an infraction's definition, philosophy, examples and remedy hold a little of every story), so a long section's
coverage also counts how much of the question one paragraph holds (`covered`, the "passage" signal's weight).

The index keeps, for each entry whose text has at least MIN_CHARACTERS and two paragraphs, each paragraph's index
terms (its stems, as the text field analyses it): PASSAGES_FILE beside whoosh's files, the same rows in the site's
`search/p.<hash>.json` (read by the worker for a story only). Plain data: no imports from the rest of the search
but the signals.
"""
from __future__ import annotations

from .signals import SIGNALS

MIN_CHARACTERS = 400     # a shorter text is read whole (fitted on the dev questions: 0 to 400 alike, 600 up lost one)
PASSAGES_FILE = "passages.json"


def paragraphs(text: str) -> list[str]:
    """A text's paragraphs: its lines that say something."""
    return [line for line in text.split("\n") if line.strip()]


def passage_rows(texts: list[str], stems) -> list[list]:
    """[[entry position, "a paragraph's terms, space-separated", ...], ...] of the long texts (in index order);
    `stems` gives a text's index terms."""
    rows = []
    for position, text in enumerate(texts):
        found = paragraphs(text) if len(text) >= MIN_CHARACTERS else []
        if len(found) >= 2:
            rows.append([position, *(" ".join(dict.fromkeys(stems(paragraph))) for paragraph in found)])
    return rows


def read_rows(rows: list[list]) -> dict[int, list[frozenset[str]]]:
    """Entry position -> its paragraphs' terms."""
    return {row[0]: [frozenset(terms.split()) for terms in row[1:]] for row in rows}


def sayings(groups) -> list[tuple[frozenset[str], tuple[tuple[str, ...], ...]]]:
    """Each group's alternatives as a paragraph says them: (its single terms, its phrases' words), made once a
    question so that `best_share` asks a set, not a word at a time, for each of hundreds of entries."""
    return [(frozenset(alternative.stem for alternative in group if " " not in alternative.stem),
             tuple(tuple(alternative.stem.split(" ")) for alternative in group if " " in alternative.stem))
            for group in groups]


def covered(whole: float, best: float) -> float:
    """A long entry's coverage for a story: its whole coverage and its best paragraph's, weighed by the "passage"
    signal (what the worker computes, in the same order)."""
    weight = SIGNALS["passage"].weight
    return whole * (1 - weight) + best * weight


def best_share(paragraph_terms: list[frozenset[str]], said: list, weights: list[float], everything: float,
               held: int, outside: int) -> float:
    """The share of the question's (weighted) words held by the entry's best paragraph: a group counts if the
    paragraph says one of its alternatives (`said`: `sayings` of the groups; a phrase counts when the paragraph
    holds each of its words) or the entry holds it outside its text (`outside`, bits: its title, names,
    headings); only groups the entry holds (`held`, bits). The weights are added in the groups' order, as the
    worker adds them."""
    looked = [(weights[number], None if outside >> number & 1 else said[number])
              for number in range(len(said)) if held >> number & 1]
    best = 0.0
    for terms in paragraph_terms:
        share = 0.0
        for weight, saying in looked:
            if saying is None or not terms.isdisjoint(saying[0]) or any(map(terms.issuperset, saying[1])):
                share += weight
        best = max(best, share)
    return best / everything if everything else 1.0
