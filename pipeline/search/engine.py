"""Answer a question from the index: that rule for a number, else the sections holding its words.

The order of answers, the same in the browser (site/assets/search-worker.js):
- a number: that section (the current edition's), then its subrules; an unknown number says so
  and offers the nearest ones;
- words: the sections holding some of the words, by score (`scoring`), archived documents after
  the others, a glossary definition counting half and bringing the rules it cites just before it;
  a section the question names by number ("CR 500.7 says …") first where it is among the first answers;
  ties in document order.
"""
from __future__ import annotations

import bisect
import html
import re
from dataclasses import dataclass, field
from functools import lru_cache
from typing import TYPE_CHECKING, Optional

from ..kinds import short_name
from .hits import Hit
from .question import GLOSSARY_TARGETS, Question, number_kinds, shortened_notice, understand
from .scoring import answers
from .signals import SIGNALS

if TYPE_CHECKING:
    from .index import KnowledgeBase  # (not imported: answering from published files loads no whoosh)


@dataclass
class Result:
    id: str
    document: str
    number: str
    title: str
    snippet: str
    url: Optional[str]
    score: float
    kind: str = ""
    penalty: str = ""
    current: bool = True      # False for an archived document's section
    action: str = ""          # what a judge does: an infraction's remedy, a Regular REL fix (first sentence)
    english: str = ""         # a translated rule's English page (search.translated)

    def as_json(self) -> dict:
        return {"id": self.id, "document": self.document, "kind": self.kind, "number": self.number,
                "title": self.title, "penalty": self.penalty, "action": self.action, "snippet": self.snippet,
                "url": self.url, "score": round(self.score, 4), "current": self.current,
                **({"english": self.english} if self.english else {})}


@dataclass
class Answer:
    query: str
    suggestion: Optional[str] = None
    results: list[Result] = field(default_factory=list)
    notice: Optional[str] = None

    def as_json(self) -> dict:
        return {"query": self.query, "suggestion": self.suggestion, "notice": self.notice,
                "results": [result.as_json() for result in self.results]}


def search(kb: KnowledgeBase, query: str, limit: int = 10, kind: Optional[str] = None) -> Answer:
    question = understand(query, kb)
    answer = Answer(question.query, suggestion=question.suggestion,
                    notice=shortened_notice(question.shortened) if question.shortened else None)
    if question.number:
        return _answer_number(kb, answer, question, kind, limit)
    wanted_kind = kind or question.kind
    hits = _matches(kb, question, wanted_kind)
    if not hits and question.kind and not kind:
        hits = _matches(kb, question, None)      # "mtr deathtouch": the document names nothing that matches
    answer.results = [_result(hit, question.marks, answering_words(question))
                      for hit in _with_rules_of_terms(kb, cited_first(hits, question))[:limit]]
    return answer


def cited_first(hits: list[Hit], question: Question) -> list[Hit]:
    """A question naming a section by number (Question.cites): that section (of a current edition), where it is among
    the "cited_first" signal's `reach` first answers, comes first."""
    cited = set(question.cites)
    lead = next((hit for hit in hits[:SIGNALS["cited_first"].reach]
                 if not hit.archived and (hit.kind, hit.number) in cited), None)
    return hits if lead is None or lead is hits[0] else [lead] + [hit for hit in hits if hit is not lead]


def _matches(kb: KnowledgeBase, question: Question, kind: Optional[str]) -> list[Hit]:
    return [kb.hit(position, score) for position, score in answers(kb, question, kind)]


def _with_rules_of_terms(kb: KnowledgeBase, hits: list[Hit]) -> list[Hit]:
    """A glossary term points at its rule ("See rule 702.2"): that rule comes just before the definition."""
    ordered: list[Hit] = []
    seen: set[str] = set()
    for hit in hits:
        for target in hit.targets[:GLOSSARY_TARGETS] if hit.section_kind == "glossary" else ():
            rule = kb.by_id(target)
            if rule is not None and rule.id not in seen:
                ordered.append(rule)
                seen.add(rule.id)
        if hit.id not in seen:
            ordered.append(hit)
            seen.add(hit.id)
    return ordered


def _answer_number(kb: KnowledgeBase, answer: Answer, question: Question, kind: Optional[str], limit: int) -> Answer:
    """A rule number: that section first, then its subrules; or the nearest numbers."""
    kinds = [question.kind or kind] if (question.kind or kind) else (
        number_kinds(question.number))
    hits = [hit for wanted in kinds for hit in kb.by_number(question.number, kind=wanted)]
    if hits:
        first = hits[0]
        shown = {hit.id for hit in hits}
        hits += sorted((hit for hit in kb.by_parent(first.id) if hit.id not in shown), key=lambda hit: hit.order)
    else:
        name = short_name(question.kind or kind or kinds[0])
        nearest = _nearest(kb, question.number, kinds)
        answer.notice = f"there is no {name} {question.number}" + (
            f"; nearest: {', '.join(label for _, _, label in nearest)}" if nearest else "")
        for wanted_kind, number, _ in nearest:
            hits.extend(kb.by_number(number, kind=wanted_kind))
    answer.results = [_result(hit, []) for hit in hits[:limit]]
    return answer


def natural_key(number: str) -> tuple:
    """"704.5k" -> ((0, 704), (0, 5), (1, "k")): sorts numbers the way the rules do."""
    return tuple((0, int(part)) if part.isdigit() else (1, part) for part in re.findall(r"\d+|[a-z]+", number))


def _nearest(kb: KnowledgeBase, number: str, kinds: list[str]) -> list[tuple[str, str, str]]:
    """The two numbers before and after where `number` would be: (kind, number, label), the label
    "kind number" when several kinds are looked in."""
    labelled = sorted({(n, f"{kind} {n}" if len(kinds) > 1 else n, kind) for kind in kinds for n in kb.numbers(kind)},
                      key=lambda item: (natural_key(item[0]), item[1]))
    keys = [natural_key(n) for n, _, _ in labelled]
    position = bisect.bisect_left(keys, natural_key(number))
    return [(kind, n, label) for n, label, kind in labelled[max(0, position - 2): position + 2]]


def answering_words(question: Question) -> Optional[list[str]]:
    """For a long question, the words that choose the sentence a result shows: its words but the story's."""
    return [mark for mark in question.marks if mark not in question.incidental] if question.long else None


def _result(hit: Hit, marks: list[str], answering: Optional[list[str]] = None) -> Result:
    return Result(hit.id, hit.document, hit.number, shown_title(hit.title, hit.headings),
                  snippet(hit.text, marks, answering),
                  hit.url or None, hit.score, hit.kind, hit.penalty, not hit.archived, hit.action)


def shown_title(title: str, headings: str) -> str:
    """What an answer shows as an entry's title: its own, else its nearest heading."""
    return title or (headings.split(" › ")[-1] if headings else "")


def snippet(text: str, marks: list[str], answering: Optional[list[str]] = None, size: int = 180) -> str:
    """An HTML-escaped excerpt around the first query word found (given `answering` words: from the sentence
    holding most of them), with the words in <mark>."""
    chooser = snippet_pattern(answering) if answering else None
    return marked_excerpt(re.sub(r"\s+", " ", text).strip(), snippet_pattern(marks), size, chooser)


def snippet_pattern(marks) -> Optional[re.Pattern]:
    """The words of a question to mark in snippets (their stems), as one expression; None without any."""
    words = [word for mark in marks for word in re.findall(r"[a-z0-9.]+", mark.lower())
             if len(word) > 2 or word.isdigit()]
    stems = {word[:max(4, len(word) - 3)] if len(word) > 4 else word for word in words}
    return _stems_pattern(tuple(sorted(stems, key=lambda stem: (-len(stem), stem)))) if stems else None


@lru_cache(maxsize=1024)
def _stems_pattern(stems: tuple[str, ...]) -> re.Pattern:
    """Kept once compiled: compiling costs more than ranking, and misspelt questions mostly come back to the
    same stems once corrected."""
    return re.compile(r"\b(?:" + "|".join(re.escape(stem) for stem in stems) + r")\w*(?:\.\w+)*", re.I)


SENTENCE_START = re.compile(r"[.!?]\s+(?=[A-Z0-9(\"“])")     # the site's worker has the same expression


def best_sentence(text: str, pattern: re.Pattern) -> Optional[int]:
    """Where the sentence holding the most distinct words of `pattern` starts (the first of equals); None if
    no sentence holds two."""
    starts = [0] + [match.end() for match in SENTENCE_START.finditer(text)]
    said: list[set[str]] = [set() for _ in starts]
    for match in pattern.finditer(text):         # (no word spans a sentence's start: a space is before it)
        said[bisect.bisect_right(starts, match.start()) - 1].add(match.group(0).lower())
    best, most = None, 1
    for start, words in zip(starts, said):
        if len(words) > most:
            best, most = start, len(words)
    return best


def marked_excerpt(text: str, pattern: Optional[re.Pattern], size: int = 180,
                   chooser: Optional[re.Pattern] = None) -> str:
    """An excerpt of a text whose spaces are folded, around the first match of `pattern` (from the start of the
    sentence holding most words of `chooser`, if one holds two), the matches marked."""
    sentence = best_sentence(text, chooser) if pattern and chooser else None
    first = pattern.search(text) if pattern and sentence is None else None
    start = sentence if sentence is not None else max(0, first.start() - size // 3) if first else 0
    if start and sentence is None:
        space = text.find(" ", start)
        start = space + 1 if 0 <= space < start + 20 else start
    excerpt = text[start:start + size]
    if start + size < len(text) and " " in excerpt[size // 2:]:
        excerpt = excerpt[:excerpt.rfind(" ")]           # end on a whole word
    prefix = "…" if start else ""
    suffix = "…" if start + len(excerpt) < len(text) else ""
    if not pattern:
        return html.escape(prefix + excerpt + suffix)
    pieces, position = [], 0
    for match in pattern.finditer(excerpt):
        pieces.append(html.escape(excerpt[position:match.start()]))
        pieces.append(f"<mark>{html.escape(match.group(0))}</mark>")
        position = match.end()
    pieces.append(html.escape(excerpt[position:]))
    return html.escape(prefix) + "".join(pieces) + html.escape(suffix)
