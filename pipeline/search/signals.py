"""What ranks an answer, declared once: each signal, its weight and where it acts; and the named records ranking
reads (an entry's facts, a display row) instead of numbered positions.

The one Python ranker (`scoring.ranked`: over every entry for the engine, walked best-first for the server's
few answers) and the site's worker (`browser_rules` exports SIGNALS) read their weights from here; `largest_factor`
is the bound the server's early stop needs, derived from the declared weights, so that adding a signal that
multiplies a score above 1 moves the bound with it. Plain data: no imports from the rest of the search.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple


@dataclass(frozen=True)
class Signal:
    name: str
    weight: float
    acts: str          # "score": multiplies an entry's score where it applies; "order": sorts before the score;
                       # "words": weighs a question's words (their scores and their share of its coverage);
                       # "fused": added to a long question's scores, each over the best (scoring.fused);
                       # "coverage": weighs an entry's share of the question's words
    says: str
    reach: int = 0     # a "fused" signal: the entries nearest by it ranked beside the lexical answers; an "order"
                       # signal: the answers it looks among
    whole_at: int = 0  # a "fused" signal: the words from which a question weighs it whole (`fused_weight`)
    within: float = 0.0  # a "score" signal applying to entries whose coverage is at least this share of the best;
                         # the "level_first" signal: the answers it puts first hold as much
    least: int = 0     # the "game" signal: the tournament documents' entries a word of theirs is held by, at least


SIGNALS = {signal.name: signal for signal in (
    Signal("lexical", 1.0, "score", "whoosh's BM25F per field (FIELD_BOOSTS), times the share of the question's "
                                    "rarity-weighted words the entry holds, cubed"),
    Signal("level", 4.0, "score", "the document answering at the level a question names, this many times; a document "
                                  "of another level, a this-many-th"),
    Signal("unleveled", 0.5, "score", "where a question names a level, a document answering at none (the CR, the "
                                      "MTR): the question asks what to do at a tournament of that level"),
    # At Competitive REL the IPG gives infractions' penalties only; the MTR, answering at no level, says how the
    # tournament runs beside it (concessions, intentional draws, time): a level's `beside` documents
    # (judges_words.toml) count this, not the unleveled weight.
    Signal("beside", 1.25, "score", "where a question names a level, a document answering at no level but beside the "
                                    "level's own there (the MTR beside the IPG at Competitive REL); fitted on the "
                                    "dev questions"),
                       # fitted (first / top 2 / top 3 of the 122 dev questions, 56/69/86 at the unleveled 0.5):
                       # 0.75: 56/70/86, 1: 56/70/85, 1.1: 56/71/87, 1.25: 56/72/88, 1.5: 56/72/88 (a test question
                       # third, not second), 2: 57/72/88 (3 test questions out of the top 3); the MTR beside the JAR at
                       # Regular REL too, at 0.75 or 1.25: common calls 176/188 -> 175/186 (first / top 3); for a
                       # story at Regular REL only (judges_words.toml: beside_stories), real dev 73/91/106 of 150 ->
                       # 0.75: 73/91/108, 1: 73/91/108, 1.25: 73/93/108, 1.5: 73/94/109, 2: 74/94/109, every other
                       # set unchanged (a weight of its own above 1.25 not declared: one dev question more); the CR
                       # beside the JAR in a story too (0.75, 1): no more
    Signal("currency", 1.0, "order", "a current document's answers before an archived one's (the 2002 floor rules)"),
    Signal("glossary", 0.5, "score", "a definition (its rules come just before it); whole when the question asks "
                                     "what a term is"),
    Signal("variant", 0.5, "score", "a multiplayer or casual-variant rule, unless the question names its variant"),
    # A call named: "bribery", "USC", "drew an extra card" (Drawing Extra Cards, Hidden Card Error's former name).
    # Where the MTR's section and the IPG's infraction are both named ("Bribery", "Bribery and Wagering"), the one
    # with the penalty answers the call.
    Signal("named", 2.0, "score", "a section whose name holds every word of the question that says what went wrong "
                                  "(an infraction's name or former name, else the section's title or part names)"),
    Signal("remedy", 3.0, "score", "a named section that prescribes a penalty or a fix (an IPG infraction, a JAR "
                                   "situation): a call named asks what to do"),
    # A call named in part: "competitive player forgot to write his sideboard on the decklist" names Decklist Problem
    # by "decklist", "player dropped a card from the top of the library face up at regular REL" the JAR's "A player
    # sees a card in a library ..." by "library": the remedy called by its name before one holding the same words in
    # its text only.
    Signal("partly_named", 1.35, "score", "for a call, a section prescribing a penalty or a fix whose name holds an "
                                          "uncommon word of the call but not all (an infraction's own names, another "
                                          "section's title and names: naming.Names); fitted on the common calls"),
                       # fitted (first / top 2 / top 3 of the 194 common calls on sources, 179/184/189 without):
                       # 1.25: 180/185/189, 1.3 to 1.4: 180/186/189, 1.45: 180/186/188 ("while drawing, a second card
                       # stuck to the first ..." fourth), 1.5: 180/185/187 and a search question second; for every
                       # question, not a call's only, 1.5 lost 5 dev questions first
    # A call reports what someone did ("spectator gave advice", "passed the draft pack the wrong way"): it asks what
    # to do, which the infraction or the Regular REL situation prescribes, not the game rule or tournament rule broken.
    Signal("call", 3.0, "score", "a section that prescribes a penalty or a fix, where the question reports what "
                                 "someone did (a verb in the past) and tells no story, and the section holds "
                                 "`within` of the coverage of the entries holding most of the question; fitted on "
                                 "the common calls and the situations",
           within=0.75),     # fitted: 1 and 0.9 lost common calls (160, 161 of 194 first), none lost situations
    # A call asks what to do: where its first answer is the rule broken, a section prescribing what to do among
    # its first `reach` answers comes before it ("forgot to draw for the turn": Game Rule Violation, not CR 504).
    Signal("remedy_first", 1.0, "order", "for a call, the first section prescribing a penalty or a fix among its "
                                         "first `reach` answers, first, and each such section among them before "
                                         "the rules its words alone ranked after it; fitted on the common calls "
                                         "and the situations",
           reach=3),       # fitted: 2 found 2 of the 3 calls, 4 and more lost a search question, 8 a situation
    # A call that broke a tournament procedure (the MTR's Booster Draft Procedures) asks for the remedy of it, which
    # may hold none of its words: the remedy covering the procedure (a section it cites, a chapter its name names:
    # Limited Procedure Violation, the MTR's Limited Tournament Rules) comes just before it.
    Signal("procedure_remedy", 1.0, "order", "for a call, the first of its first `reach` answers that is a "
                                             "tournament section prescribing nothing, covered by a remedy (one "
                                             "citing it or a section it is under, or naming its chapter), after "
                                             "that remedy; fitted on the common calls",
           reach=3),       # fitted: 1 (the first answer alone) left the call 29th; 2 to 6, every set the same
    # An infraction done on purpose (Stalling: "A player intentionally plays slowly ..."; naming.says_intended) is not
    # what a question saying no intent asks: "taking too long to make a decision" is Slow Play, not Stalling,
    # which holds "make a decision" in an example.
    Signal("intent_second", 1.0, "order", "for a question holding no word of intent (\"intentionally\", or a "
                                          "judges' word meaning it), a first answer whose definition says the act "
                                          "is done intentionally and whose own names hold no word the question "
                                          "asks, after the first remedy among its first `reach` answers whose "
                                          "definition does not",
           reach=3),
    # A call at a level asks what to do at that level: the answers of the document answering at it come before the
    # rule broken ("drew an extra card at FNM": the JAR's situation, then the CR's draw).
    Signal("level_first", 1.0, "order", "for a call naming a level and telling no story, the first `reach` answers "
                                        "of the document answering at that level holding an uncommon word of the "
                                        "call and `within` of the coverage of the entries holding most of it, first, "
                                        "in their order (a question naming a level but reporting nothing: the best "
                                        "alone); fitted on the common calls",
           reach=3, within=0.3),
                           # fitted: 1 (the best alone) left 3 common calls fifth and sixth, 3 put them in the top 3,
                           # more found no more; for every question naming a level, not a call's only, the search
                           # and situation questions said "at competitive REL" had 72 of 115 answered in the top 3,
                           # not 101 (a game rule fourth: "split second"); for a call's only, 97. within: the
                           # 230 search and situation questions said at FNM and at competitive REL, 96 and 97 in
                           # the top 3 with none; an uncommon word alone, 97 and 97; with within 0.2: 98 and 97,
                           # 0.25: 99 and 97, 0.3: 100 and 97, 0.33: 100 and 98, 0.35: 101 and 98 but a common
                           # call lost (187 of 194 in the top 3), 0.4: three lost; the coverage alone (0.75) lost
                           # three ('sees a card in a library' holds "library" of "dropped a card from the top
                           # of the library", a third of the best coverage)
    # A story told in the game's words only ("Player A draws his card and plays a land tapped ... What happens?")
    # asks the game's rules, not what a judge does: the long infractions, which hold a little of every story, come
    # after them (scoring.told_in).
    Signal("game", 0.5, "score", "for a story holding no word of policy (one held by `least` entries or more of "
                                 "the current tournament documents and by none of the game's rules), the "
                                 "tournament documents' sections count this share of their score; fitted on the "
                                 "dev questions",
           least=3),       # fitted (first answers of the 122 dev questions, 53 without): least 2, 4, 5: 55, 3: 56;
                           # weight 0.75: 54, 0.5: 56, 0.35: 56 (one fewer in the top 3), 0.25: 55
    # and one holding a word of the tournament documents' own ("warning", "decklist") asks what a judge does there.
    Signal("tournament", 0.25, "score", "for a story holding a word of policy (the game signal's), the game rules' "
                                        "sections count this share of their score; fitted on the dev questions"),
                       # fitted (first / top 3 of the 122 dev questions, 56 / 84 without): 0.75: 56/84, 0.35: 56/85,
                       # 0.25: 56/86, 0.1: 55/85, 0: 54/83
    # A long section (an infraction's definition, philosophy, examples and remedy) holds a little of every story: it
    # leads many it does not answer (Hidden Card Error, Game Rule Violation first for a story of a trigger or a
    # shortcut). Where it leads a story only narrowly, the answer after it leads; not where the sentences that ask
    # name it ("Is this a missed trigger? ...": naming.Names.named_as_asked).
    Signal("broad_second", 1.0, "order", "for a story, a first answer of `least` paragraphs or more (passages.py), "
                                         "not named by the sentences that ask, followed by one of fewer holding "
                                         "`within` of its score or more: the second first; fitted on the dev "
                                         "questions",
           within=0.6, least=25),
                       # fitted (first answers of the 122 dev questions, 58 without; top 2 and 3 alike, 75 and 90):
                       # within 0.5 and 0.55: 63, 0.6: 64, 0.65 and 0.7: 63, 0.75: 62; least 22: 62, 28: 61 (at
                       # 0.65); named by the sentences that ask or not alike (0.65: 64 without the exception); the
                       # sections leading most of the documents' own paragraphs asked as questions as the broad ones
                       # instead: 63 (and 48 s more to build). Dropped beside it, each trading the top 3 for first
                       # answers: IPG 2.1, 2.3 and 2.5's scores times 0.5 to 0.97 (56-61 first, top 3 73-89), the
                       # same only where the story holds no uncommon word of their definition (57-60, 85-88), every
                       # section's score lowered by how many of those paragraphs it leads (58-62, 78-87), the
                       # cosines evened by the entries' nearness to the others (CSLS: 55-58, 82-90)
    # A rule's lettered subrules go from the general case to the special ones (702.19b: how trample assigns damage;
    # 702.19c: the variant trample over planeswalkers; 702.19d: a trampler left with no blocker): where a long
    # question's first answer is a subrule and an earlier one of the same rule is among its first few, it leads.
    Signal("general_first", 1.0, "order", "for a long question whose first answer is a lettered subrule, the "
                                          "earliest subrule of the same rule among its first `reach` answers, "
                                          "first; fitted on the dev questions and the situations",
           reach=4),
                       # fitted (first / top 2 / top 3; 63/74/90 of the 122 dev questions and 27/33/36 of the 40
                       # situations without): reach 2: unchanged, 3: dev 64/75/90, 4: dev 64/75/90 and situations
                       # 28/34/37, 5: dev 63/74/89 (the trample question's 702.19b after an earlier subrule); the
                       # earlier subrule holding 0.8 or 0.9 of the first's score or more alike, 0.95: unchanged
    # A question quoting a rule by its number ("CR 500.7 says extra turns are added …; am I wrong understanding CR
    # 500.7?") turns on that rule: where it is among the first answers, it leads.
    Signal("cited_first", 1.0, "order", "for a question naming a section by number (\"CR 500.7\", \"MTR 9.6\", "
                                        "\"section 614\"), that section, where it is among its first `reach` "
                                        "answers, first",
           reach=10),
                       # measured (first / top 2 / top 3 of the 150 dev questions, 74/94/109 without): reach 5, 20
                       # or 60: 75/94/109 (of the 3 dev questions naming a section, one's 500.7 second to first;
                       # section 614 is not among the first answers of the question naming it, whose answer is 616.1)
    Signal("incidental", 0.25, "words", "a word of the story (a name, a card, a player's label, quoted speech)"),
    Signal("story", 0.35, "words", "a long question's word said only in the sentences telling the story, not in "
                                   "those that ask (with a \"?\", else the last one); fitted on the dev questions"),
    Signal("passage", 0.5, "coverage", "for a question telling a story, a long section's coverage: this share of it is "
                                       "its best paragraph's (passages.py), the rest its whole text's; fitted on the "
                                       "dev questions"),
    Signal("semantic", 1.5, "fused", "meaning beyond shared words, for a long question: an answer's lexical score "
                                     "over the best one, plus this many times the cosine of its vector and the "
                                     "question's (semantic.py); fitted on the dev questions "
                                     "(rulekb bench --only meaning)",
           reach=0,        # fitted: the entries nearest in meaning alone, 20 of them, lost more than they found
           # A question of a few words says what it asks in the documents' words: its meaning weighs its share of
           # 8 words ("player drew an extra card": Hidden Card Error's name, not Looking at Extra Cards' nearer
           # vector); from 8 words (the stories the weight was fitted on) whole.
           whole_at=8),
)}


def fused_weight(name: str, words: int) -> float:
    """A "fused" signal's weight for a question of `words` words: its share of `whole_at` words, whole from there."""
    signal = SIGNALS[name]
    return signal.weight * min(1.0, words / signal.whole_at) if signal.whole_at else signal.weight


def largest_factor(level_named: bool, call: bool = False) -> float:
    """The largest number a lexical score can be multiplied by in ranking: the product of the score signals'
    weights above 1 that can apply (the level's only where the question names one, the call's only for a call; of
    the level's and the beside signal's, the larger: a document answers at the level or beside it, never both; of
    the named and remedy signals' product and the partly_named signal's, the larger: a name holds all or part)."""
    factor = 1.0
    applying = {"level": level_named, "beside": level_named, "call": call, "partly_named": call}
    exclusive = []                       # the weights of the level's document and of those beside it
    names: dict[str, float] = {}         # the weights of the named, remedy and partly_named signals that apply
    for signal in SIGNALS.values():
        applies = applying.get(signal.name, True)
        if signal.acts == "score" and signal.weight > 1.0 and signal.name != "lexical" and applies:
            if signal.name in ("level", "beside"):
                exclusive.append(signal.weight)
            elif signal.name in ("named", "remedy", "partly_named"):
                names[signal.name] = signal.weight
            else:
                factor *= signal.weight
    whole = names.get("named", 1.0) * names.get("remedy", 1.0)
    return factor * max(exclusive, default=1.0) * max(whole, names.get("partly_named", 1.0))


def exported() -> dict[str, dict]:
    """The declaration as the site's worker receives it."""
    return {name: {"weight": signal.weight, "acts": signal.acts, "reach": signal.reach, "whole_at": signal.whole_at,
                   "within": signal.within, "least": signal.least}
            for name, signal in SIGNALS.items()}


class Fact(NamedTuple):
    """What ranking needs of an entry."""
    kind: str
    archived: bool
    glossary: bool
    variant: bool
    infraction: bool = False     # an infraction: its name is its own, not its title's category ("Game Play Error —")
    remedy: bool = False         # prescribes a penalty or a fix: an infraction, a Regular REL situation
    subrule: bool = False        # a lettered subrule (702.19b): its rule's subrules follow one another
    catch_all: bool = False      # a remedy for the errors no other covers (naming.covers_the_rest)
    intended: bool = False       # a remedy for an act done intentionally (naming.says_intended)


class Row(NamedTuple):
    """What a result shows of an entry, as the browser's display files hold it (browser._display_row)."""
    number: str
    title: str
    heading: str
    page: int
    anchor: str
    penalty: str
    text: str
    parent: int          # the parent's position, -1 for none
    targets: list        # a glossary term's sections, as positions
    id: str
    action: str
