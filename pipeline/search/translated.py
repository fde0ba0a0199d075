"""Search in a translation's language: "践踏" finds trample (702.19) in the Chinese CR.

Chinese writes no spaces, so a text is cut into character bigrams (a run of one character is itself),
the same way here and in the browser (site/assets/translated-search.js, which reads the same file and
ranks the same way: tests/test_translations.py runs both on the same questions under Node). A language
whose words stand between spaces (Korean) is cut the same way inside its words, which also finds a word
inside its inflected forms. An entry scores the rarity (idf) of each of the question's grams it holds,
a title's grams three times; an entry must hold most of the question's grams. The data is one JSON
file per language (`search/translated-zh.json`), loaded only when a question is written in that
language: the English search's files and first answer are unchanged. Pure functions, no I/O.
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


def translated_data(language: str, entries: list[tuple[str, str, str, str, str]]) -> dict:
    """The search file of a language: its entries ([id, number, title, url, text excerpt]) and, for each
    gram, the entries holding it, in entry order: an entry's position, or ~position (-position - 1) where the
    gram is in its title (it weighs TITLE_WEIGHT there)."""
    postings: dict[str, dict[int, int]] = {}
    for position, (_, _, title, _, text) in enumerate(entries):
        for weight, part in ((TITLE_WEIGHT, title), (1, text)):
            for gram in set(grams(part, language)):
                held = postings.setdefault(gram, {})
                held[position] = max(held.get(position, 0), weight)
    return {"language": language, "title_weight": TITLE_WEIGHT, "coverage": COVERAGE,
            "entries": [[entry_id, number, title, url, text[:SNIPPET]]
                        for entry_id, number, title, url, text in entries],
            "grams": {gram: [~position if weight == TITLE_WEIGHT else position
                             for position, weight in sorted(held.items())]
                      for gram, held in sorted(postings.items())}}


def search_translated(data: dict, query: str, limit: int = 10) -> list[dict]:
    """The entries a question in the language finds, best first: {id, number, title, url, snippet, score}."""
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
    results = []
    for position in ranked[:limit]:
        entry_id, number, title, url, text = data["entries"][position]
        results.append({"id": entry_id, "number": number, "title": title, "url": url, "snippet": text,
                        "score": round(scores[position], 4)})
    return results



def _under(number: str, rule: str) -> bool:
    """Whether a number is a subrule of a rule ("702.19b" of "702.19")."""
    return number.startswith(rule) and number != rule and not number[len(rule)].isdigit()

def translated_answer(data: dict, query: str, limit: int = 10):
    """The answer to a question in the language, as the English search gives its answers (engine.Answer)."""
    from .engine import Answer, Result  # (the engine's answer: the CLI and the API print it)
    answer = Answer(query)
    for found in search_translated(data, query, limit):
        document = found["id"].split(":", 1)[0]
        answer.results.append(Result(found["id"], document, found["number"], found["title"], found["snippet"],
                                     found["url"], found["score"], kind=document))
    if not answer.results:
        answer.notice = f"Nothing in the {kinds.LANGUAGE_BY_ID[data['language']].english} translation holds this."
    return answer


def answer_from_folder(folder, query: str, limit: int = 10):
    """A published site's answer to a question in a translation's language (its search/ folder holds the
    language's file), or None: the English search answers."""
    from pathlib import Path
    language = asked_in(query)
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
