"""How well an entry answers a question's words: the one formula, here and in the site's worker.

An entry's score is the sum of whoosh's BM25F scores (as the build exports them, in whole
hundredths) of the question's words in it, each field times its weight and a judges' word's meaning
times MEANING_WEIGHT; times its coverage cubed: the share of the question's words it holds, each
word weighing by its rarity (log(1 + N/n) for a word held by n of N entries), so that a rule holding
"draw", "card" and "turn" outranks a definition holding only "draw" many times. A question naming a
level ("at FNM") multiplies the scores of the document answering at it by LEVEL_BOOST and divides those of
the document answering at another level (the IPG does not apply at FNM) by it; a multiplayer
or casual-variant rule counts VARIANT_WEIGHT of its score unless the question names its variant; a call (a
question reporting what someone did, no story told: question.is_call) multiplies the scores of the sections
prescribing a penalty or a fix by the "call" signal's weight, and puts first such a section among its first few
answers (`remedy_first`), and the remedy covering a tournament procedure among them just before it
(`procedure_remedy`); a story told in the game's words only (`told_in`) counts the "game" signal's share of the
tournament documents' scores, one holding a word of the tournament documents' own the "tournament" signal's share of
the game rules'.
For a long question, `fused` adds meaning: each of the first MAX_RANKED answers' score over the best one plus
the semantic signal's weight times its cosine with the question, beside the signal's `reach` entries nearest in
meaning (signals.py).
site/assets/search-worker.js does the same operations in the same order (tests/test_search_agreement.py).
"""
from __future__ import annotations

import heapq
import math
import operator
from collections import Counter
from itertools import repeat
from typing import Optional, Protocol

from ..kinds import game_rules
from . import passages
from .hits import SCORE_SCALE
from .naming import Names, with_name
from .question import (
    COVERAGE_POWER,
    EXPANSION_BOOST,
    FIELD_BOOSTS,
    GLOSSARY_WEIGHT,
    LEVEL_BOOST,
    MAX_RANKED,
    NAMING_FIELDS,
    QUERY_WORD,
    STEMMED_FIELDS,
    UNLEVELED_WEIGHT,
    VARIANT_WEIGHT,
    Question,
    level_beside,
    level_kinds,
    tells_story,
)
from .signals import SIGNALS, Fact, fused_weight, largest_factor

GAME, TOURNAMENT = "game", "tournament"     # whose words a story is told in (`told_in`): the signal that applies


class Postings(Protocol):
    """What ranking reads of an index: the whoosh index (`index.KnowledgeBase`) and the published search files
    (`published.PublishedIndex`) alike."""
    def postings(self, term: str) -> list: ...
    def scaled_postings(self, term: str) -> list: ...
    def facts(self) -> list[Fact]: ...
    def semantic(self): ...
    def passages(self) -> dict: ...
    def cited(self) -> list: ...


def ranked(source: Postings, question: Question, kind: Optional[str], best: Optional[int] = None,
           leading: Optional[set[int]] = None, asked: Optional[set[int]] = None,
           caught: Optional[set[int]] = None, lesser: Optional[set[int]] = None) -> list[tuple[int, float]]:
    """(entry position, score) of the entries answering the question (in `kind`, if given), best first; the first
    `best` only, if given. `leading`, if given, receives those of the first MAX_RANKED that may lead a call at a
    level (`leaders`); `asked`, those whose own names hold an uncommon word of the sentences that ask
    (naming.Names.named_as_asked: `broad_second` and `intent_second` keep them first); `caught`, the remedy
    answering a call for the rule it broke (`remedy_for_broken`: `remedy_first` puts it first), its only member;
    `lesser`, the remedies holding less of a call than the game rule it broke (`remedy_for_broken`).

    With `best`, only the entries that can be among them are scored. The entries holding the same words share
    their coverage, so an entry's score is at most its sum times its pattern's coverage cubed (times the largest
    factor the declared signals can apply, `signals.largest_factor`). The entries are walked from the highest
    such bound down, and the walk stops where the bound falls below the score of the `best`-th entry kept:
    "legend rule" scores the few entries holding "legend" and the best of the thousands holding only "rule".
    """
    matched = matched_words(source, question, kind)
    if matched is None:
        return []
    found, bits_of, coverage, named, names = matched
    facts = source.facts()
    if lesser is not None:
        lesser.clear()
    if caught is not None:
        caught.clear()
        caught.update(remedy_for_broken(question, kind, bits_of, coverage, facts,
                                        source.cited() if question.call else [], lesser, names))
    definition = glossary_weight(question)
    call_share = called_share(question, coverage)
    told = told_in(question, bits_of, facts)
    if best is None:
        scored = [(position, entry_score(score, coverage[bits_of[position]], position, facts[position], question,
                                         named, names, call_share, told))
                  for position, score in found.items()]
        everything = sorted(scored, key=lambda item: _rank_key(item, facts, definition))
        _mark(everything[:MAX_RANKED], question, bits_of, coverage, names, facts, leading, asked, caught)
        return everything
    most = largest_factor(bool(question.level), question.call)
    cubes = {bits: share ** COVERAGE_POWER for bits, share in coverage.items()}
    bounds = {position: score * cubes[bits_of[position]] for position, score in found.items()}
    kept: list[tuple] = []               # the best keys so far, inverted so that the heap's first is the worst
    for position in sorted(bounds, key=bounds.__getitem__, reverse=True):
        if _beaten(kept, best, bounds[position] * most):
            break
        fact = facts[position]
        score = entry_score(found[position], coverage[bits_of[position]], position, fact, question, named, names,
                            call_share, told)
        inverted = (-fact.archived, rounded(score * (definition if fact.glossary else 1.0)), -position, score)
        if len(kept) < best:
            heapq.heappush(kept, inverted)
        elif inverted > kept[0]:
            heapq.heapreplace(kept, inverted)
    first = [(-position, score) for _, _, position, score in sorted(kept, reverse=True)]
    _mark(first[:MAX_RANKED], question, bits_of, coverage, names, facts, leading, asked, caught)
    return first


def _mark(answered: list[tuple[int, float]], question: Question, bits_of: dict, coverage: dict, names: Names,
          facts, leading: Optional[set[int]], asked: Optional[set[int]], caught: Optional[set[int]]) -> None:
    """Fill `leading` (`leaders`), `asked` (naming.Names.named_as_asked) and, for a question that is no call,
    `caught` (`alike_catch_all`) from the first answers, each if given."""
    if leading is not None:
        leading.update(leaders(answered, question, bits_of, coverage, names))
    if asked is not None:
        asked.update(position for position, _ in answered if names.named_as_asked(position))
    if caught is not None and not question.call:
        caught.update(alike_catch_all(answered, question, bits_of, coverage, names, facts))


def alike_catch_all(answered: list[tuple[int, float]], question: Question, bits_of: dict, coverage: dict,
                    names: Names, facts) -> list[int]:
    """A short question naming no section whose first answers (the "remedy_first" signal's `reach`) are remedies
    holding all of it alike: the catch-all among them (Fact.catch_all), as a list of none or one (`remedy_first` puts
    it first). "illegal play" is held whole by four Game Play Errors: it names the error in general, which Game Rule
    Violation takes ("the majority of game situations in which a player makes an error")."""
    reach = SIGNALS["remedy_first"].reach
    first = [position for position, _ in answered[:reach]]
    most = max(coverage.values())
    alike = [facts[position].remedy and coverage[bits_of[position]] == most
             and not names.named(position, facts[position]) for position in first]
    if question.long or len(first) < reach or not all(alike):
        return []
    return [position for position in first if facts[position].catch_all][:1]


def leaders(answered: list[tuple[int, float]], question: Question, bits_of: dict, coverage: dict,
            names: Names) -> set[int]:
    """The answers that may lead a call at a level (`level_first`): those holding an uncommon word of the call (one
    a name must hold: naming.Names.require) and the "level_first" signal's `within` of the coverage of the entries
    holding most of it: a call at FNM sharing only "player" or "card" with the JAR's Regular REL situations does not
    have them first, before the sections that hold what went wrong."""
    if not (question.level and question.call):
        return set()
    least = max(coverage.values()) * SIGNALS["level_first"].within
    return {position for position, _ in answered
            if _groups(bits_of[position]) & names.required and coverage[bits_of[position]] >= least}


def remedy_for_broken(question: Question, kind: Optional[str], bits_of: dict, coverage: dict, facts,
                      cited: list[tuple[int, int, int]], lesser: Optional[set[int]] = None,
                      names: Optional[Names] = None) -> list[int]:
    """The remedy answering a call for the rule it broke, as a list of none or one; in `kind`, if given, and of the
    document answering at the call's level, if it names one. Where the current game rules (kinds.game_rules) hold as
    much of the call's words as any current section of the tournament documents but the catch-alls ("attacked with a
    creature that was tapped": the CR's attack rules, no tournament rule), a current catch-all (Fact.catch_all: the
    IPG's Game Rule Violation, the JAR's "in-game error not mentioned above"), the one holding most of its words (the
    first of equals) among those holding one, as every answer does ("cracked a fetchland": no error in the words of
    any). Where one tournament section holds more of it than any other and prescribes nothing ("lied about the life
    total": the MTR's "answer completely and honestly"), the first current remedy citing it or a section it is
    under, or naming its chapter (`cited`: index.cited_runs; Communication Policy Violation cites the MTR's section
    4). Beside that catch-all, `lesser` (if given) receives the other remedies holding less of the call than a game
    rule does whose names (`names`: naming.Names) hold no uncommon word of it: they answer something else the call's
    words touch ("player did not have enough mana": Slow Play holds "not enough" of time, not mana), not the rule
    broken (`remedy_first`, `level_first`); one the call names in part answers it ("kept a hand then mulliganed":
    Mulligan Procedure Error, though the game's mulligan rule holds more of it)."""
    if not question.call:
        return []
    game = game_rules()
    played = policy = 0.0            # the most of the call's words a game rule holds, a tournament document's section
    alone = None                     # the one tournament section holding `policy`; None for several
    for position, bits in bits_of.items():
        fact = facts[position]
        if not (fact.archived or fact.catch_all):
            share = coverage[bits]
            if fact.kind in game:
                played = max(played, share)
            elif share > policy:
                policy, alone = share, position
            elif share == policy:
                alone = None

    def wanted(position: int) -> bool:
        return _at_level(facts[position], question, kind)

    if played and policy <= played:
        held = [(coverage[bits_of[position]], -position) for position, fact in enumerate(facts)
                if fact.catch_all and position in bits_of and wanted(position)]
        if held and lesser is not None:
            lesser.update(position for position, bits in bits_of.items()
                          if facts[position].remedy and not facts[position].catch_all and coverage[bits] < played
                          and not (names is not None and names.calls(position, facts[position])))
        return [-max(held)[1]] if held else []
    if alone is None or facts[alone].remedy:
        return []
    return next(([remedy] for remedy, start, end in cited if start <= alone < end and wanted(remedy)), [])


def _at_level(fact, question: Question, kind: Optional[str]) -> bool:
    """Whether a remedy may answer the question: current, of the document answering at its level if it names one, in
    `kind` if given."""
    return not fact.archived and fact.kind == (question.level or fact.kind) and fact.kind == (kind or fact.kind)


def _groups(bits) -> int:
    """The groups an entry holds, as bits (a long entry's pattern in a story is (bits, position))."""
    return bits if isinstance(bits, int) else bits[0]


def _beaten(kept: list[tuple], best: int, bound: float) -> bool:
    """Whether no entry scoring at most `bound` can enter the best kept: there are `best` of them, the
    worst is in a current document and scores more than `bound` by more than rounding can close (the
    bound is raised by a billionth for the floating-point error of computing it another way)."""
    if len(kept) < best:
        return False
    minus_archived, worst, _, _ = kept[0]
    return minus_archived == 0 and bound * (1 + 1e-9) < worst - 1e-6


def entry_score(score: float, share: float, position: int, fact, question: Question, named: set,
                names: Names, call_share: float = 1.0, told: str = "") -> float:
    """An entry's score from its words' sum: times its coverage cubed, its level's factor, its variant's, a call's
    (a remedy covering `call_share` of the question or more: `called_share`), a tournament document's in a story
    told in the game's words or a game rule's in one told in the tournament's (`told`: `told_in`), its name's
    (naming.with_name: for a call, a remedy's name holding a word of it too)."""
    for _ in range(COVERAGE_POWER):
        score = score * share
    if question.level:
        score = at_level(score, fact.kind, question.level, story=bool(told))
    if fact.variant and position not in named:
        score = score * VARIANT_WEIGHT
    if question.call and fact.remedy and share >= call_share:
        score = score * SIGNALS["call"].weight
    if told == GAME and fact.kind not in game_rules() or told == TOURNAMENT and fact.kind in game_rules():
        score = score * SIGNALS[told].weight
    return with_name(score, position, fact, names, question.call)


def told_in(question: Question, bits_of: dict, facts) -> str:
    """Whose words a story is told in: a story holding a word of policy, one held by the "game" signal's `least`
    entries or more of the current tournament documents (the IPG, the MTR, the JAR) and by no entry of the game's
    rules (kinds.game_rules: the CR), is the tournament's (TOURNAMENT: "warning", "decklist", "tardiness" say what a
    judge is asked); one holding none, the game's (GAME: "Player A draws his card and plays a land tapped; Player B
    says it enters untapped. What happens?" asks how the game plays); "" for a question telling no story. A story
    naming a level ("at FNM", "at a PPTQ") is the tournament's: the level's name is a word of policy, taken out of the
    words searched (question.understand), so it is never among them to count.
    `bits_of`: the groups each entry holds (a long entry's as (bits, position))."""
    if not (question.long and tells_story(question)):
        return ""
    if question.level:
        return TOURNAMENT
    game = game_rules()
    held = Counter((_groups(bits), facts[position].kind in game)
                   for position, bits in bits_of.items() if not facts[position].archived)
    policy: Counter = Counter()          # group -> the tournament documents' entries holding it
    played: Counter = Counter()          # group -> the game rules' entries holding it
    for (bits, in_game), count in held.items():
        counted = played if in_game else policy
        for number in range(bits.bit_length()):
            if bits >> number & 1:
                counted[number] += count
    least = SIGNALS[GAME].least
    return TOURNAMENT if any(count >= least and not played[number] for number, count in policy.items()) else GAME


def answers(kb: Postings, question: Question, kind: Optional[str]) -> list[tuple[int, float]]:
    """The first MAX_RANKED (entry position, score) answering the question, best first: `ranked`, and for a
    long question on an index with a semantic table, `fused`."""
    leading: set[int] = set()
    asked: set[int] = set()
    caught: set[int] = set()
    lesser: set[int] = set()
    lexical = ranked(kb, question, kind, MAX_RANKED, leading, asked, caught, lesser)   # (only those that can be first)
    found = lexical
    meaning = kb.semantic() if question.long and found else None
    if meaning is not None:
        found = fused(found, meaning.similarities(question.query), kb.facts(), glossary_weight(question), kind,
                      question_words(question))
    found = remedy_first(level_first(found, kb.facts(), question, leading, lesser), kb.facts(), question, lexical,
                         caught, lesser)
    found = procedure_remedy(found, kb.facts(), question, kb.cited(), kind)
    found = intent_second(found, kb.facts(), question, asked)
    return general_first(broad_second(found, question, kb, asked), kb.facts(), question)


def intent_second(found: list[tuple[int, float]], facts, question: Question,
                  asked: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, float]]:
    """A question saying no intent (Question.intends) answered first by a remedy that asks none: where its first
    answer prescribes a penalty for an act done intentionally (Fact.intended: Stalling) and its own names hold no word
    the question asks (`asked`: naming.Names.named_as_asked; "stalling" asks Stalling), the first remedy among the
    "intent_second" signal's `reach` first answers that is not so comes before it ("taking too long to make a
    decision": Slow Play, not Stalling, whose example holds "make a decision")."""
    if not found or question.intends or not facts[found[0][0]].intended or found[0][0] in asked:
        return found
    reach = SIGNALS["intent_second"].reach
    lead = next((item for item in found[:reach] if facts[item[0]].remedy and not facts[item[0]].intended), None)
    return lead_first(found, lead)


def general_first(found: list[tuple[int, float]], facts, question: Question) -> list[tuple[int, float]]:
    """A long question's answers with the earliest subrule of its first answer's rule first, where the first is a
    lettered subrule and that earlier one is among the "general_first" signal's `reach` first answers: a rule's
    subrules go from the general case to the special ones. Subrules of one rule are consecutive entries (the rule
    itself comes before them), so two subrules are of one rule where every entry from one to the other is one."""
    if not (question.long and found and facts[found[0][0]].subrule):
        return found
    first = found[0][0]
    lead = min((item for item in found[:SIGNALS["general_first"].reach]
                if all(facts[position].subrule for position in range(min(first, item[0]), max(first, item[0]) + 1))),
               key=lambda item: item[0])
    return found if lead[0] == first else lead_first(found, lead)


def broad_second(found: list[tuple[int, float]], question: Question, source: Postings,
                 asked: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, float]]:
    """A story's answers with a broad first one (the "broad_second" signal's `least` paragraphs or more: a long
    infraction holding a little of every story) after the second, where the second is not broad and holds the
    signal's `within` of its score or more (the paragraphs: `source.passages`, read for a story only); but a first
    named by the sentences that ask (`asked`: `ranked`'s)."""
    if len(found) < 2 or not (question.long and tells_story(question)) or found[0][0] in asked:
        return found
    signal, paragraphs = SIGNALS["broad_second"], source.passages()
    (first, score), (second, close) = found[0], found[1]
    broad = [len(paragraphs.get(position, ())) >= signal.least for position in (first, second)]
    if broad == [True, False] and rounded(close) >= rounded(score * signal.within):
        return [found[1], found[0], *found[2:]]
    return found


def remedy_first(found: list[tuple[int, float]], facts, question: Question,
                 lexical: Optional[list[tuple[int, float]]] = None,
                 caught: frozenset[int] | set[int] = frozenset(),
                 lesser: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, float]]:
    """A call answered first by what to do: where its first answer prescribes no penalty or fix (the rule broken),
    the first that does among the "remedy_first" signal's `reach` first answers, else among the `reach` first
    answers of its words alone (`lexical`, before the meaning re-ordered them: "passed the draft pack the wrong
    way" finds Limited Procedure Violation third by its words, the draft's game rules nearer in meaning), else,
    where that first answer is a game rule, the remedy for the rule broken (`caught`: `remedy_for_broken`; at the
    first answer's score where its words did not find it), then the others in their order, a remedy among the first
    `reach` kept before the rules its words put after it (`remedies_kept`). A remedy holding less of the call than
    the game rule it broke (`lesser`: `remedy_for_broken`) is passed over as that rule is: where it is first, the
    remedy for the rule broken comes before it. A question that is no call has the catch-all its first answers hold
    alike first (`caught`: `alike_catch_all`)."""
    if not question.call:           # a question naming no section that remedies answer alike: their catch-all
        lead = next((item for item in found if item[0] in caught), None)
        return lead_first(found, lead)
    reach = SIGNALS["remedy_first"].reach

    def answering(position: int) -> bool:
        return facts[position].remedy and position not in lesser

    if not found or answering(found[0][0]):
        return remedies_kept(found, facts, lexical, reach)
    lead = next((item for item in found[:reach] if answering(item[0])), None)
    if lead is None and lexical:
        position = next((position for position, _ in lexical[:reach] if answering(position)), None)
        lead = next((item for item in found if item[0] == position), None)
    if lead is None and caught and (facts[found[0][0]].kind in game_rules() or found[0][0] in lesser):
        position = next(iter(caught))
        lead = next((item for item in found if item[0] == position), (position, found[0][1]))
    return remedies_kept(lead_first(found, lead), facts, lexical, reach)


def procedure_remedy(found: list[tuple[int, float]], facts, question: Question, cited: list[tuple[int, int, int]],
                     kind: Optional[str] = None) -> list[tuple[int, float]]:
    """A call's first answers with the remedy of a procedure among them just before it: the first of the
    "procedure_remedy" signal's `reach` first answers that is a current tournament section prescribing nothing and
    that a remedy covers (`cited`: index.cited_runs, a section it cites or a chapter its name names; `_at_level`; no
    catch-all, which covers what no other remedy does, not one procedure), that remedy not before it already, has it
    just before it, at its score (the words may not have found it): the call broke the procedure, which says what
    should have been done, not what to do now ("player looked at the next pack too early": Limited Procedure
    Violation before the MTR's Booster Draft Procedures, in the chapter its name names, Limited Tournament Rules)."""
    if not question.call:
        return found
    for at, (position, score) in enumerate(found[:SIGNALS["procedure_remedy"].reach]):
        fact = facts[position]
        if fact.remedy or fact.archived or fact.kind in game_rules():
            continue
        remedy = next((remedy for remedy, start, end in cited if start <= position < end
                       and not facts[remedy].catch_all and _at_level(facts[remedy], question, kind)), None)
        if remedy is None or any(earlier == remedy for earlier, _ in found[:at]):
            continue
        rest = [other for other in found if other[0] != remedy]
        return rest[:at] + [(remedy, score)] + rest[at:]
    return found



def lead_first(found: list[tuple[int, float]], lead: Optional[tuple[int, float]]) -> list[tuple[int, float]]:
    """The answers with `lead` (one of them, or a new one) first and the others in their order; unchanged if None."""
    return found if lead is None else [lead] + [item for item in found if item is not lead]

def remedies_kept(found: list[tuple[int, float]], facts, lexical: Optional[list[tuple[int, float]]],
                  reach: int) -> list[tuple[int, float]]:
    """A call's first `reach` answers with each remedy before the rules its words alone (`lexical`) ranked after it:
    the meaning may bring a rule near the call's words before the answers that say what to do, not past one the
    words found first ("while drawing, a second card stuck to the first and I saw it": Looking at Extra Cards
    before the library's rule)."""
    order = {position: rank for rank, (position, _) in enumerate(lexical or ())}
    first = list(found[:reach])
    for start in range(1, len(first)):
        at = start
        while at and facts[first[at][0]].remedy and not facts[first[at - 1][0]].remedy \
                and order.get(first[at][0], len(order)) < order.get(first[at - 1][0], len(order)):
            first[at - 1], first[at] = first[at], first[at - 1]
            at -= 1
    return first + found[reach:]


def called_share(question: Question, coverage: dict[int, float]) -> float:
    """The least coverage of a remedy that a call counts more: the "call" signal's `within` share of the coverage
    of the entries holding most of the question's words (a remedy holding only some of them, such as the one word
    naming the thing the call is about, is not what the call reports)."""
    return max(coverage.values()) * SIGNALS["call"].within if question.call else 1.0


def level_first(found: list[tuple[int, float]], facts, question: Question,
                leading: frozenset[int] | set[int] = frozenset(),
                lesser: frozenset[int] | set[int] = frozenset()) -> list[tuple[int, float]]:
    """A question at a level ("drew an extra card at FNM": a level named, no story told) answered first by the best
    answer of the document answering at that level (the JAR at Regular REL, the IPG at Competitive REL), then the
    others in their order: what to do at that level, before the game rule that was broken. A call (`is_call`: it
    reports what someone did) has the "level_first" signal's `reach` first answers of that document among `leading`
    (`leaders`: holding enough of the call) that a judge applies (a penalty or a fix: not the JAR's "Resources",
    a chapter's own prose) first, in their order: its infractions or situations compete among
    themselves ("mulliganed to six and shuffled the cards back without putting one on the bottom at competitive
    REL": Mulligan Procedure Error second, after Looking at Extra Cards, not sixth after the CR's mulligan rules); a
    question reporting nothing ("split second at competitive REL") may ask a game rule, which only the level's best
    answer comes before. A remedy holding less of the call than the game rule it broke (`lesser`: `remedy_for_broken`)
    does not lead (`remedy_first` has the level's remedy for the rule broken first)."""
    if not question.level or tells_story(question):
        return found
    reach = SIGNALS["level_first"].reach if question.call else 1
    leads = [item for item in found if facts[item[0]].kind == question.level
             and (not question.call or item[0] in leading and facts[item[0]].remedy and item[0] not in lesser)][:reach]
    chosen = {position for position, _ in leads}
    return leads + [item for item in found if item[0] not in chosen]


def question_words(question: Question) -> int:
    """The words a question has, as `understand` counts them to call it long."""
    return len(QUERY_WORD.findall(question.query))


def fused(lexical: list[tuple[int, float]], cosines, facts, definition: float,
          kind: Optional[str], words: int) -> list[tuple[int, float]]:
    """A long question's answers with their meaning: each lexical answer's score over the best one plus the
    semantic weight (for a question of `words` words: `signals.fused_weight`) times its cosine, and the signal's
    `reach` entries (in `kind`) nearest in meaning at the weight times their cosine alone; in the order of
    `_rank_key`, the first MAX_RANKED."""
    weight = fused_weight("semantic", words)
    top = max(score for _, score in lexical) or 1.0
    scores = {position: score / top + weight * cosines[position] for position, score in lexical}
    for position in nearest(cosines, facts, kind, SIGNALS["semantic"].reach):
        if position not in scores:
            scores[position] = weight * cosines[position]
    return sorted(scores.items(), key=lambda item: _rank_key(item, facts, definition))[:MAX_RANKED]


def nearest(cosines, facts, kind: Optional[str], count: int) -> list[int]:
    """The `count` entries (in `kind`) of highest cosine, the first in document order among equals; none of
    cosine 0 or less."""
    held = (position for position in range(len(cosines))
            if cosines[position] > 0 and (not kind or facts[position].kind == kind))
    return heapq.nsmallest(count, held, key=lambda position: (-cosines[position], position))


def glossary_weight(question: Question) -> float:
    """What a definition's score counts: half (its rules come just before it), whole for "what is X"."""
    return 1.0 if question.asks_meaning else GLOSSARY_WEIGHT


def group_weight(group) -> float:
    """What a group of alternatives weighs in an entry's coverage: its heaviest alternative's weight (a word of the
    story, INCIDENTAL_WEIGHT; a word of what went wrong, 1)."""
    return max(alternative.weight for alternative in group)


def _rank_key(item: tuple[int, float], facts, definition: float) -> tuple:
    """Archived documents after the others; then by score (a definition's counting `definition`); then
    document order."""
    position, score = item
    fact = facts[position]
    return (fact.archived, -rounded(score * (definition if fact.glossary else 1.0)), position)


def rounded(value: float) -> float:
    """To a millionth, as the browser rounds."""
    return math.floor(value * 1e6 + 0.5) / 1e6


def matched_words(source: Postings, question: Question, kind: Optional[str]):
    """(sums of the entries holding a word of the question (in `kind`), the pattern each holds (the groups it holds
    as bits; for a story, a long entry's (bits, position), its coverage counting its best paragraph's:
    passages.py), the coverage of each pattern, the entries naming a word, the groups each holds in its name),
    None if no entry holds any."""
    groups = [group for group in question.groups if group]
    scores: dict[int, float] = {}
    matched: dict[int, int] = {}         # entry -> the groups it holds, as bits
    named: set[int] = set()              # entries holding a word in a title or heading
    names = Names()                      # the groups each entry holds in its name (naming.py)
    # a story: each long entry's paragraphs (passages.py), and the groups it holds outside its text (its title,
    # names, headings, notes), which every paragraph of it holds (a few words read nothing: a phone fetches nothing)
    paragraphs = source.passages() if question.long and tells_story(question) else None
    outside: dict[int, int] = {}
    for number, group in enumerate(groups):
        bit = 1 << number
        for alternative in group:
            phrase = " " in alternative.stem      # a phrase, where an entry says it
            for name, positions, values in source.scaled_postings(alternative.stem):
                if name == "phrases" if phrase else name in STEMMED_FIELDS:
                    _add(positions, values, name, alternative.weight, scores, matched, bit, named)
                    names.note(name, positions, bit)
                    if paragraphs and not phrase and name != "text":
                        _hold(outside, positions, paragraphs, bit)
            for name, positions, values in [] if phrase else source.scaled_postings(alternative.word):
                if name == "exact":
                    _add(positions, values, name, alternative.weight, scores, matched, bit, named)
                    names.note(name, positions, bit)
                    if paragraphs:
                        _hold(outside, positions, paragraphs, bit)
    if not matched:
        return None
    facts = source.facts()
    patterns = Counter(matched.values())
    holding = [sum(count for bits, count in patterns.items() if bits & (1 << n)) for n in range(len(groups))]
    weights = [rarity(len(facts), holding[n]) * group_weight(groups[n]) for n in range(len(groups))]
    names.require(groups, holding, len(facts))
    found = {position: scores[position] for position in matched if facts[position].kind == kind} if kind else scores
    for stem in question.boosts:        # an abbreviation's meaning in a title
        for name, postings in source.postings(stem):
            if name in ("title", "aliases"):
                boost = FIELD_BOOSTS[name]
                for position, value in postings:
                    if position in found:
                        found[position] = found[position] + (value / SCORE_SCALE) * boost * EXPANSION_BOOST
    everything = sum(weights)
    coverage = {}
    for bits in patterns:
        held = sum(weight for n, weight in enumerate(weights) if bits & (1 << n))
        coverage[bits] = held / everything if everything else 1.0
    if paragraphs:
        said = passages.sayings(groups)
        for position in found:
            if position in paragraphs:
                bits = matched[position]
                best = passages.best_share(paragraphs[position], said, weights, everything, bits,
                                           outside.get(position, 0))
                matched[position] = (bits, position)      # a pattern of its own
                coverage[(bits, position)] = passages.covered(coverage[bits], best)
    return found, matched, coverage, named, names


def _hold(outside: dict[int, int], positions, paragraphs: dict, bit: int) -> None:
    """Note a group (`bit`) as held outside the text by the long entries among `positions`."""
    for position in positions:
        if position in paragraphs:
            outside[position] = outside.get(position, 0) | bit


def scaled(postings) -> list[tuple[str, tuple[int, ...], tuple[float, ...]]]:
    """[(field, entry positions, (score / SCORE_SCALE) * the field's boost)] of a term's postings: what every
    question does first with them, done once per term by the index that keeps them."""
    return [(name, tuple(position for position, _ in found),
             tuple((value / SCORE_SCALE) * FIELD_BOOSTS[name] for _, value in found))
            for name, found in postings]


def _add(positions: tuple[int, ...], values: tuple[float, ...], field: str, weight: float, scores: dict,
         matched: dict, bit: int, named: set) -> None:
    """A word's scaled postings times its weight added to the entries' sums (a value times a weight of 1.0 is the
    value), made by map and zip over built-in operations, without a Python statement per posting."""
    if weight != 1.0:
        values = map(operator.mul, values, repeat(weight))
    scores.update(zip(positions, map(operator.add, map(scores.get, positions, repeat(0)), values)))
    matched.update(zip(positions, map(operator.or_, map(matched.get, positions, repeat(0)), repeat(bit))))
    if field in NAMING_FIELDS:
        named.update(positions)


def at_level(score: float, kind: str, level: str, story: bool = False) -> float:
    """A score where the question names a level: the document answering at it counts LEVEL_BOOST times,
    another level's procedure ("at FNM": the IPG does not apply) a LEVEL_BOOST-th, a document answering at no
    level but beside the level's own there (`level_beside`: the MTR at Competitive REL, and in a `story` at Regular
    REL) the "beside" signal's weight, another (the CR's game rules, the MTR for a call at Regular REL)
    UNLEVELED_WEIGHT: the question asks what to do at a tournament."""
    if kind == level:
        return score * LEVEL_BOOST
    if kind in level_kinds():
        return score / LEVEL_BOOST
    if kind in level_beside(story).get(level, ()):
        return score * SIGNALS["beside"].weight
    return score * UNLEVELED_WEIGHT


def rarity(total: int, holding: int) -> float:
    """log(1 + N/n), to a millionth (the browser's logarithm may differ in its last bit)."""
    return math.floor(math.log(1 + total / holding) * 1e6 + 0.5) / 1e6 if holding else 0.0


