"""Search in a translation's language: "践踏" finds trample (702.19) in the Chinese CR.

Chinese writes no spaces, so a text is cut into character bigrams (a run of one character is itself),
the same way here and in the browser (site/assets/translated-search.js, which reads the same file and
ranks the same way: tests/test_translations.py runs both on the same questions under Node). A language
whose words stand between spaces (Korean) is cut the same way inside its words, which also finds a word
inside its inflected forms. An entry scores the rarity (idf) of each of the question's grams it holds,
a title's grams three times; an entry must hold most of the question's grams. The data is one JSON
file per language (`search/translated-zh.json`), loaded only when a question is written in that
language: the English search's files and first answer are unchanged. Pure functions, no I/O.

Glossary terms pair both ways: a glossary entry's title is its term in the language and in English
("践踏 · Trample"), and it cites its rules (`targets`). The language's term finds the entry and the rules it
cites follow it; the English term, asked with the language chosen (`rulekb search trample --language zh`,
the site's search with the language the phone remembers), finds the same, whole term only (any other
English question is the English search's). Each result names its English page (`english`): the same
address without the language's folder.
"""
from __future__ import annotations

import math
import re
from functools import cache
from typing import Optional

from .. import kinds

TITLE_WEIGHT = 3
COVERAGE = 0.6            # share of the question's grams an entry must hold
SNIPPET = 80              # characters of an entry's text kept for its snippet
FILE = "translated-{language}.json"
GLOSSARY_TARGETS = 2      # rules a glossary entry brings after it (the English search's number)
TERMS = " · "             # between a glossary entry's term in the language and in English


@cache
def _letters(language: str) -> re.Pattern:
    return re.compile(f"[{kinds.LANGUAGE_BY_ID[language].letters}]+")


def asked_in(query: str) -> Optional[str]:
    """The language (other than English) whose script a question is written in, or None."""
    for language in kinds.LANGUAGES:
        if language.letters and _letters(language.id).search(query or ""):
            return language.id
    return None


def grams(text: str, language: str) -> list[str]:
    """The character bigrams of each run of the language's letters ("践踏异能" -> 践踏 踏异 异能); a run of
    one letter is itself."""
    found = []
    for run in _letters(language).findall(text):
        if len(run) == 1:
            found.append(run)
        found.extend(run[i:i + 2] for i in range(len(run) - 1))
    return found


def translated_data(language: str, entries: list[tuple]) -> dict:
    """The search file of a language: its entries ([id, number, title, url, text excerpt], a glossary entry's
    followed by the ids of the rules it cites) and, for each
    gram, the entries holding it, in entry order: an entry's position, or ~position (-position - 1) where the
    gram is in its title (it weighs TITLE_WEIGHT there); `targets`: a glossary entry's position and the
    positions of the rules it cites, the first GLOSSARY_TARGETS."""
    at = {entry[0]: position for position, entry in enumerate(entries)}
    postings: dict[str, dict[int, int]] = {}
    for position, entry in enumerate(entries):
        for weight, part in ((TITLE_WEIGHT, entry[2]), (1, entry[4])):
            for gram in set(grams(part, language)):
                held = postings.setdefault(gram, {})
                held[position] = max(held.get(position, 0), weight)
    return {"language": language, "title_weight": TITLE_WEIGHT, "coverage": COVERAGE,
            "entries": [[entry_id, number, title, url, text[:SNIPPET]]
                        for entry_id, number, title, url, text, *_ in entries],
            "grams": {gram: [~position if weight == TITLE_WEIGHT else position
                             for position, weight in sorted(held.items())]
                      for gram, held in sorted(postings.items())},
            "targets": {str(position): found[:GLOSSARY_TARGETS] for position, entry in enumerate(entries)
                        if (found := [at[cited] for cited in (entry[5] if len(entry) > 5 else ()) if cited in at])}}


def term_key(text: str) -> str:
    """A term as compared whole: its words, lowercase ("Trample", " trample ")."""
    return " ".join(re.findall(r"\w+", text.casefold()))


def english_term(data: dict, query: str) -> Optional[int]:
    """The glossary entry whose English term the question is, whole ("trample"), or None."""
    terms = {term_key(entry[2].split(TERMS, 1)[1]): position for position, entry in enumerate(data["entries"])
             if not entry[1] and TERMS in entry[2]}
    return terms.get(term_key(query))


def search_translated(data: dict, query: str, limit: int = 10) -> list[dict]:
    """The entries a question in the language finds, best first: {id, number, title, url, snippet, score}."""
    term = english_term(data, query)
    if term is not None:
        return [_found(data, position, 0.0) for position in _with_targets(data, [term])[:limit]]
    wanted = list(dict.fromkeys(grams(query, data["language"])))
    if not wanted:
        return []
    total = len(data["entries"])
    scores: dict[int, float] = {}
    held: dict[int, int] = {}
    for gram in wanted:
        postings = data["grams"].get(gram, [])
        if not postings:
            continue
        rarity = math.log(1 + total / len(postings))
        for posting in postings:
            position, weight = (~posting, data["title_weight"]) if posting < 0 else (posting, 1)
            scores[position] = scores.get(position, 0.0) + rarity * weight
            held[position] = held.get(position, 0) + 1
    least = math.ceil(len(wanted) * data["coverage"])
    ranked = sorted((position for position in scores if held[position] >= least),
                    key=lambda position: (-round(scores[position], 6), position))
    if ranked:      # the best rule's own subrules follow it (702.19 Trample, then 702.19a ...), as in English
        best = data["entries"][ranked[0]][1]
        ranked = [ranked[0]] + sorted(ranked[1:], key=lambda position: not _under(data["entries"][position][1], best))
    return [_found(data, position, scores.get(position, 0.0)) for position in _with_targets(data, ranked)[:limit]]


def _with_targets(data: dict, ranked: list[int]) -> list[int]:
    """The best entry, then the rules it cites if it is a glossary entry, then the others."""
    if not ranked:
        return ranked
    targets = [position for position in data.get("targets", {}).get(str(ranked[0]), []) if position != ranked[0]]
    return [ranked[0]] + targets + [position for position in ranked[1:] if position not in targets]


def _found(data: dict, position: int, score: float) -> dict:
    entry_id, number, title, url, text = data["entries"][position][:5]
    return {"id": entry_id, "number": number, "title": title, "url": url, "snippet": text,
            "english": url.split("/", 1)[1] if "/" in url else url, "score": round(score, 4)}



def _under(number: str, rule: str) -> bool:
    """Whether a number is a subrule of a rule ("702.19b" of "702.19")."""
    return number.startswith(rule) and number != rule and not number[len(rule)].isdigit()


def answering_language(query: str, chosen: Optional[str] = None) -> Optional[str]:
    """The language whose search may answer: the question's script's, else the one chosen (its English
    glossary terms), else None (the English search answers)."""
    return asked_in(query) or (chosen if chosen in kinds.LANGUAGE_BY_ID and chosen != kinds.ENGLISH.id else None)


def translated_answer(data: dict, query: str, limit: int = 10):
    """The answer to a question in the language, as the English search gives its answers (engine.Answer)."""
    from .engine import Answer, Result  # (the engine's answer: the CLI and the API print it)
    answer = Answer(query)
    for found in search_translated(data, query, limit):
        document = found["id"].split(":", 1)[0]
        answer.results.append(Result(found["id"], document, found["number"], found["title"], found["snippet"],
                                     found["url"], found["score"], kind=document, english=found["english"]))
    if not answer.results and asked_in(query) is None:
        return None             # an English question that is no glossary term: the English search answers
    if not answer.results:
        answer.notice = f"Nothing in the {kinds.LANGUAGE_BY_ID[data['language']].english} translation holds this."
    return answer


def answer_from_folder(folder, query: str, limit: int = 10, chosen: Optional[str] = None):
    """A published site's answer to a question in a translation's language (its search/ folder holds the
    language's file), or to an English glossary term with that language `chosen`; or None: the English
    search answers."""
    from pathlib import Path
    language = answering_language(query, chosen)
    if language is None:
        return None
    path = Path(folder) / FILE.format(language=language)
    if not path.is_file():
        return None
    return translated_answer(_read(str(path), path.stat().st_mtime_ns), query, limit)


@cache
def _read(path: str, version: int) -> dict:
    import json
    with open(path, encoding="utf-8") as file:
        return json.load(file)
