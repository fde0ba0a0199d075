"""What a judge's question means: one decision, shared by the CLI, the API and the site's search box.

`understand(query, vocabulary)` turns a query into a `Question`: a rule number (in any of its
written forms, with or without a document name), or groups of index terms to match, each word
read as written, as a judges' abbreviation ("GRV", "2HG"), as a judges' word with the documents'
words for it ("late" -> tardy, "phone" -> electronic devices), completed ("trig" -> trigger, while
typing) or corrected against the documents' own words ("trampel" -> trample); a level it names
("at FNM") says which document answers first. Quotes, operators and punctuation are read as
words; curly and straight apostrophes are one letter. The browser's worker
(site/assets/search-worker.js) does the same steps on the same data, which the build exports from
here (`browser_rules`); tests/test_search_agreement.py runs both on every question set and on
made-up questions, and compares. Pure functions: no index, no I/O but the two word lists.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path
from typing import Optional, Protocol

from .. import kinds
from ..distance import near
from .forms import BASE_FORMS
from .naming import COMMON_SHARE, INTENT, OWN_NAME_FIELDS, TITLE_FIELDS
from .signals import SIGNALS, exported

ABBREVIATIONS_FILE = Path(__file__).resolve().parent / "abbreviations.toml"
JUDGES_WORDS_FILE = Path(__file__).resolve().parent / "judges_words.toml"
MAX_QUERY = 1000            # characters of a question read: a longer one is shortened (`shortened`), never refused

# How the index cuts text into terms (whoosh's tokenizer takes the same expression): numbers keep
# their dots and letters ("704.5k", "2hg"), words keep inner apostrophes.
TOKEN = r"\d+(?:\.\d+[a-z]?)*[a-z]*|\w+(?:[’']\w+)*"
TOKENS = re.compile(TOKEN)
STOP_WORDS = frozenset(["a", "an", "and", "are", "as", "at", "be", "by", "for", "from", "if", "in", "into", "is",
                        "it", "of", "on", "or", "that", "the", "their", "then", "there", "these", "they", "this",
                        "to", "was", "will", "with"])
# Words of a question that say how it is asked, not what about ("how do I ...", "what happens if my ..."):
# left out of a question that has other words. The documents' stop words above are left out always.
QUESTION_WORDS = frozenset([
    "i", "me", "my", "mine", "we", "us", "our", "you", "your", "he", "him", "his", "she", "her", "hers", "its",
    "them", "do", "does", "did", "didn't", "don't", "doesn't", "done", "can", "could", "would", "should", "what",
    "how", "why", "when", "where", "which", "who", "whom", "whose", "happen", "happens", "happened", "get", "gets",
    "got", "has", "have", "had", "just", "so", "really", "about", "also", "someone", "something", "anything",
    "many", "much", "some", "want", "wants", "wanted", "keeps", "keep", "still", "ok", "okay", "please", "hi",
    "per", "i'm", "i've", "we're", "it's", "he's", "she's", "they're", "there's", "what's", "whats", "am",
    "being", "been",
])
# Typographic quotes and apostrophes are the letters a keyboard types: "City’s" is "City's" everywhere.
FOLDED_QUOTES = str.maketrans({"’": "'", "‘": "'", "ʼ": "'", "´": "'", "`": "'", "“": '"', "”": '"', "„": '"'})
# Index fields and the weight of a match in each (a title match outweighs five of body text). The
# first four hold terms (Porter stems: "commander" and "command" are one term); "exact" holds a
# title's words as written, so that the title that has the very word asked comes first. "phrases" holds
# the judges' words' meanings of several words ("additional turns") where an entry says them together.
# "commentary": the judges' annotations on a rule, searched as part of its entry but weighing a fifth of
# its own text, so that a rule's words outrank another rule's commentary using them. "former": the names
# older editions gave an infraction (entries.former_names): a name judges still call it by ("extra card": Drawing
# Extra Cards, now Hidden Card Error), but less its name than the current one, which the title, the aliases and the
# exact words each hold. A field's weight is whoosh's field boost too (it scales a term's frequency in the index):
# fitted on indexes built at each weight, common calls and level probe: at 2 and 2.25, "extra card" had Looking at
# Extra Cards (its title's words) first; at 2.6 and 2.75 "extra cards" (plural, Looking at Extra Cards' title as
# written) had Hidden Card Error first too, but a common call lost its third place and "play/draw rule" at
# Competitive REL its second; 3 and more lost more.
FIELD_BOOSTS = {"title": 5.0, "aliases": 4.0, "headings": 1.6, "text": 1.0, "exact": 2.0, "phrases": 4.0,
                "commentary": 0.2, "former": 2.5}
STEMMED_FIELDS = ("title", "aliases", "headings", "text", "commentary", "former")
EXPANSION_BOOST = 3.0       # the words of an abbreviation's meaning, found in a title or alias
GLOSSARY_WEIGHT = SIGNALS["glossary"].weight     # a definition points at its rules, just before it
COMPLETIONS = 3             # a word being typed stands for its most frequent completions
MIN_PREFIX = 3
# A word's regular endings: "bolted" is "bolt" the documents know (not a misspelling of "bolster"), and a
# misspelling is measured on the word without them ("cracked" is "crack", 5 letters: 1 edit, never "checked").
ENDINGS = ("ing", "ed", "es", "er", "s", "d")
GLOSSARY_TARGETS = 2        # rules a definition brings before it
MEANING_WEIGHT = 1.0        # a judges' word's meaning in the documents' words, beside the word itself
INCIDENTAL_WEIGHT = SIGNALS["incidental"].weight     # a word of the story: a name, a card, a label, speech
COVERAGE_POWER = 3          # an entry holding a share s of the question's (rarity-weighted) words scores s³ of its sum
UNLEVELED_WEIGHT = SIGNALS["unleveled"].weight     # where a level is named, a document answering at none
LEVEL_BOOST = SIGNALS["level"].weight     # the document answering at the level a question names ("at FNM": the JAR)
VARIANT_WEIGHT = SIGNALS["variant"].weight     # a multiplayer or casual-variant rule, its variant not named
VARIANT_NUMBERS = {kind.id: kind.variants for kind in kinds.KINDS if kind.variants}   # the CR's chapters 8 and 9
NAMING_FIELDS = ("title", "aliases", "headings", "exact", "former")        # a variant named: its words in these
LONG_QUESTION = 5           # words from which a question is long: a result shows its best-matching sentence
MAX_GROUPS = 32             # words of a question searched: the heaviest first (those that ask, the story's, names)
MAX_RANKED = 60             # answers a question can show (a page of results, glossary targets beside them)
PAST_FORMS = frozenset(BASE_FORMS)      # "gave", "drew", "taken": a question telling what someone did (`reports`)
PAST = ("ed", "d")                      # a regular verb's past ending ("passed", "lied")
# The words of a sentence that asks only what comes next ("What now?", "Then what?", "What happens now?"),
# beside question words: it asks about the story before it and says nothing of its own (`without_what_next`).
WHAT_NEXT = frozenset(["now", "next", "then"])
NEGATED_PAST = frozenset(["didn't", "didnt"])     # "didn't notice": what someone did not do
# Two words saying something fell short of what a rule requires ("cast a spell without enough mana", "too few cards"):
# a failure reported, whatever the verb's tense ("cast" is its own past: "can I cast a sorcery in my upkeep" asks a
# rule).
SHORTFALLS = frozenset(["not enough", "without enough", "too few", "too little"])
# A call saying someone let another act ("I let my opponent attack with a tapped creature and did not say anything")
# reports the letting, which Failure to Maintain Game State names ("allows another player ... to commit a Game Play
# Error"), not the error let happen, whose words weigh as a story's (`let_happen`).
LETTING = frozenset(["let", "lets", "letting", "allow", "allows", "allowed", "allowing"])
CLAUSE_WORDS = frozenset(["and", "but", "then", "so", "or", "while", "because"])    # a clause's end, or punctuation
CLAUSE_MARK = re.compile(r"[,;:.?!]")
# A past form after one of these says what a thing is, not what someone did: "can a tapped creature block" asks a rule
DETERMINERS = frozenset(["a", "an", "the", "my", "your", "his", "her", "its", "our", "their", "each", "every",
                         "another"])
NUMBER_KINDS = list(kinds.IN_SEARCH_ORDER)   # a bare "2.1" is looked for in this order


def number_kinds(number: str) -> list[str]:
    """The kinds a bare number is looked for in, in order: the registry's answer ("112a": the floor rules;
    a number no kind writes so: every kind, in search order)."""
    return list(kinds.numbered_by(number)) or NUMBER_KINDS

# Document names a question may start with (or hold), and the kind they name.
DOCUMENT_WORDS = kinds.names()
_DOCUMENT = "|".join(sorted((re.escape(name).replace(r"\ ", r"\s+") for name in DOCUMENT_WORDS), key=len, reverse=True))
# A number as people type it on a phone: "702.19b", and "702,19" (a comma keypad), "702.19 b", "702 19b",
# "702 19 b"; a letter stands apart only after the second part ("702 b" is two words), and a comma followed
# by a space is a list ("702, 704"). ASCII digits only, as the browser's \d reads them.
NUMBER_QUERY = re.compile(
    rf"^\s*(?:(?P<doc>{_DOCUMENT})\b\s*[:#]?\s*)?"
    r"(?:(?:rule|rules|section|sec\.?|§|no\.?|number)\s*)?"
    r"(?P<number>[0-9]{1,3}(?:(?:\s*\.\s*|,|\s+)[0-9]{1,3}(?:\s*[a-z])?)?[a-z]?|appendix\s+[a-z])\.?\s*$", re.I)
# A section a question names by its number among its words: after a document's name ("CR 500.7", "MTR 9.6"), after
# "rule" or "section" ("section 614"), or alone where only one document numbers so ("702.19b": the game's rules).
CITED = re.compile(rf"(?:\b(?P<doc>{_DOCUMENT})\s*:?\s+)?(?:\b(?P<rule>rules?|section)\s+)?(?<![0-9.])"
                   r"(?P<number>[0-9]{1,3}(?:\.[0-9]{1,3}[a-z]?)?)\b", re.I)
GLUED = re.compile(rf"^\s*({'|'.join(sorted(kinds.IDS, key=len, reverse=True))})(\d)", re.I)      # "cr704.5k"
NUMBER_DOT = re.compile(r"\s*\.\s*|,|\s+(?=[0-9])")      # between a number's parts: "702 19" is 702.19
NUMBER_SPACE = re.compile(r"\s+")                        # before its letter: "702.19 b" is 702.19b
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f]")
QUOTED = re.compile(r'"([^"]*)"')                        # what someone said, in a story
SENTENCE_END = re.compile(r"[.?!:;]\s*$")
# "What is X?", "what does X mean", "define X": the question asks for a definition, which then counts whole.
ASKS_MEANING = re.compile(r"^\s*(?:what\s+(?:is|are|does|do)\b|what's\b|whats\b|define\b|definition\b|"
                          r"meaning\b)|\bmeans?\s*[?.!]*\s*$", re.I)
QUERY_WORD = re.compile(r"[^\W_][\w/'’&-]*")      # "D/DLP", "B&W": one word, an abbreviation
SENTENCE_MARKS = "?!. "
CONTRACTED = re.compile(r"\b(\w+)n't\b")                  # "didn't", "doesn't": a phrase said either way
UNCONTRACTED = {"can't": "cannot", "won't": "will not"}
SENTENCE_BREAK = re.compile(r"(?<=[.?!])\s+")     # between a question's sentences (the worker splits the same way)


class QueryError(ValueError):
    """A query that cannot be searched (empty, too long, control characters): a 400 for the API, a
    message for the CLI. Quotes, operators and punctuation are never errors: they are read as words."""


class Vocabulary(Protocol):
    """The documents' own words: how often each occurs, and the index term (stem) it becomes."""

    def stem(self, word: str) -> Optional[str]: ...

    def words_starting(self, letter: str) -> list[tuple[str, int]]: ...

    def archived_kinds(self) -> frozenset[str]: ...      # kinds whose every document is archived (the 2002 floor rules)

    def kept(self, word: str) -> bool: ...      # an English word they do not use: left as typed (index.kept_words)

    def titles(self) -> frozenset[str]: ...     # the current documents' titles, as their terms joined by spaces


@dataclass(frozen=True)
class Alternative:
    stem: str                 # a judges' word's meaning of several words: one term of the phrases field
    word: str                 # the word as the documents write it
    weight: float = 1.0       # a judges' word's meaning weighs MEANING_WEIGHT


@dataclass
class Question:
    query: str
    number: Optional[str] = None           # "704.5k", "2.1", "appendix a"
    kind: Optional[str] = None             # a document kind the question names
    groups: list[list[Alternative]] = field(default_factory=list)   # each must match (one of its terms)
    boosts: list[str] = field(default_factory=list)   # stems of an abbreviation's meaning: title/alias bonus
    corrected: list[str] = field(default_factory=list)   # the words as searched, for "did you mean"
    suggestion: Optional[str] = None       # the corrected query, when a word was corrected
    marks: list[str] = field(default_factory=list)     # words to highlight in snippets
    level: Optional[str] = None            # the kind answering at the level the question names ("at FNM": jar)
    incidental: list[str] = field(default_factory=list)   # the story's words: weighing INCIDENTAL_WEIGHT
    asks_meaning: bool = False             # "what is X": a definition counts as much as a rule
    call: bool = False                     # reports what someone did, no story told: a call (`is_call`)
    intends: bool = False                  # holds the documents' word of intent (naming.INTENT), or a meaning of it
    long: bool = False                     # LONG_QUESTION words or more: results show the sentence answering
    shortened: int = 0                     # a question longer than MAX_QUERY: its length as typed (`shortened`)
    cites: list[tuple[str, str]] = field(default_factory=list)    # (kind, number) of the sections it names by number


@dataclass(frozen=True)
class JudgesWord:
    """People's words for a thought the documents write otherwise, and where they write it."""
    said: tuple[str, ...]
    means: tuple[str, ...]
    cites: str
    passage: str
    qualifies: tuple[str, ...] = ()     # the passage's words the meaning qualifies (`bound_meanings`)
    prefers: str = ""         # for a level: the kind that answers at it
    beside: tuple[str, ...] = ()      # for a level: the kinds answering at no level but beside it (level_beside)
    beside_stories: tuple[str, ...] = ()      # for a level: those beside it for a story told at it only


@lru_cache(maxsize=1)
def judges_words() -> tuple[list[JudgesWord], list[JudgesWord]]:
    """(words, levels) of judges_words.toml."""
    import tomllib  # (here: most questions never read the word lists)
    data = tomllib.loads(JUDGES_WORDS_FILE.read_text(encoding="utf-8"))
    def entries(name: str) -> list[JudgesWord]:
        return [JudgesWord(tuple(fold(said).lower() for said in item["said"]), tuple(item.get("means", ())),
                           item["cites"], item["passage"], tuple(item.get("qualifies", ())), item.get("prefers", ""),
                           tuple(item.get("beside", ())),
                           tuple(item.get("beside_stories", ())))
                for item in data.get(name, [])]
    return entries("words"), entries("levels")


@lru_cache(maxsize=1)
def meanings() -> dict[str, tuple[str, ...]]:
    """What people say ("late", "too long") -> the documents' words for it."""
    found: dict[str, list[str]] = {}
    for entry in judges_words()[0]:
        for said in entry.said:
            for form in dict.fromkeys([said, uncontracted(said)]):
                known = found.setdefault(form, [])
                known.extend(word for word in entry.means if word not in known)
    return {said: tuple(means) for said, means in found.items()}


@lru_cache(maxsize=1)
def bound_meanings() -> dict[str, dict[str, tuple[str, ...]]]:
    """What people say -> its meanings that qualify another word of their passage -> those words (an entry's
    `qualifies`): a word saying how much ("enough", "only") means the documents' word only for what the documents
    say it of ("fails to sufficiently shuffle"): "did not shuffle enough" is Insufficient Shuffling, "did not have
    enough mana" is not. A meaning another entry gives the same word unbound is not bound."""
    bound: dict[str, dict[str, list[str]]] = {}
    free: dict[str, set[str]] = {}
    for entry in judges_words()[0]:
        for said in entry.said:
            for form in dict.fromkeys([said, uncontracted(said)]):
                for meaning in entry.means:
                    if entry.qualifies:
                        known = bound.setdefault(form, {}).setdefault(meaning, [])
                        known.extend(word for word in entry.qualifies if word not in known)
                    else:
                        free.setdefault(form, set()).add(meaning)
    return {said: {meaning: tuple(words) for meaning, words in means.items() if meaning not in free.get(said, ())}
            for said, means in bound.items()}


def uncontracted(phrase: str) -> str:
    """A phrase as said without its contractions: "didn't say" is also "did not say"."""
    return CONTRACTED.sub(lambda match: UNCONTRACTED.get(match.group(0), match.group(1) + " not"), phrase)


@lru_cache(maxsize=1)
def levels() -> dict[str, str]:
    """What people call a Rules Enforcement Level ("fnm", "gp") -> the kind answering at it."""
    return {said: entry.prefers for entry in judges_words()[1] for said in entry.said}


@lru_cache(maxsize=1)
def level_words() -> frozenset[str]:
    """The words of the names of levels ("regular", "rel", "fnm")."""
    return frozenset(word for said in levels() for word in terms(said))


@lru_cache(maxsize=1)
def level_kinds() -> frozenset[str]:
    """The kinds answering at some level (the JAR at Regular, the IPG at Competitive REL)."""
    return frozenset(levels().values())


@lru_cache(maxsize=2)
def level_beside(story: bool = False) -> dict[str, tuple[str, ...]]:
    """The kind answering at a level -> the kinds answering at no level but beside it there (the MTR beside the
    IPG at Competitive REL: the "beside" signal); for a `story` told at the level, its `beside_stories` too (the
    MTR beside the JAR at Regular REL)."""
    found = {entry.prefers: entry.beside + (entry.beside_stories if story else ()) for entry in judges_words()[1]}
    return {kind: beside for kind, beside in found.items() if beside}


@lru_cache(maxsize=1)
def abbreviations() -> dict[str, tuple[str, ...]]:
    import tomllib
    data = tomllib.loads(ABBREVIATIONS_FILE.read_text(encoding="utf-8"))
    return {key.lower(): tuple(value) if isinstance(value, list) else (value,) for key, value in data.items()}


def shortened(query: str) -> str:
    """A question of at most MAX_QUERY characters: a longer one keeps the part that asks, in its order: its last
    sentence, then the sentences asking something (ending "?") and then the others, from the last back, while
    they fit; of a last sentence longer than that, its end from a word on."""
    if len(query) <= MAX_QUERY:
        return query
    sentences = SENTENCE_BREAK.split(query.strip())
    last = len(sentences) - 1
    earlier = range(last - 1, -1, -1)
    order = ([last] + [n for n in earlier if sentences[n].endswith("?")]
             + [n for n in earlier if not sentences[n].endswith("?")])
    kept: list[int] = []
    size = 0
    for n in order:
        needed = len(sentences[n]) + (1 if kept else 0)
        if size + needed <= MAX_QUERY:
            kept.append(n)
            size += needed
    if not kept:
        end = query.strip()[-MAX_QUERY:]
        return end[end.find(" ") + 1:] if " " in end else end
    return " ".join(sentences[n] for n in sorted(kept))


def shortened_notice(length: int) -> str:
    """What an answer says of a question it shortened."""
    return (f"the question is {length} characters long: its last sentences and its questions were searched, "
            f"{MAX_QUERY} characters at most")


def clean(query: str) -> str:
    """The query as searched (a long one `shortened`), or a QueryError saying what is wrong with it."""
    query = shortened(query or "")
    if CONTROL.search(query):
        raise QueryError("the query contains control characters")
    if not query.strip():
        raise QueryError("the query is empty")
    return re.sub(r"\s+", " ", fold(query).replace('"', " ")).strip()


def fold(text: str) -> str:
    """Curly quotes and apostrophes as a keyboard types them."""
    return text.translate(FOLDED_QUOTES)


def as_number(query: str) -> Optional[tuple[Optional[str], str]]:
    """(kind or None, number) for "704.5k", "cr 704.5k", "CR704.5k", "rule 704.5k", "mtr section 4.3", "702,19",
    "702 19 b"."""
    match = NUMBER_QUERY.match(GLUED.sub(r"\1 \2", query))
    if not match:
        return None
    doc = " ".join((match.group("doc") or "").lower().split())
    return DOCUMENT_WORDS.get(doc) if doc else None, written_number(match.group("number"))


def written_number(typed: str) -> str:
    """A number in the documents' spelling: "702 19 B" -> "702.19b"; "Appendix  A" -> "appendix a"."""
    typed = typed.lower().strip()
    if not typed[:1].isdigit():
        return " ".join(typed.split())
    return NUMBER_SPACE.sub("", NUMBER_DOT.sub(".", typed))


def cited_sections(query: str) -> list[tuple[str, str]]:
    """(kind, number) of the sections a question names by number among its words (`CITED`): "CR 500.7 says extra
    turns are added …" names cr 500.7; a number alone or after "section" names a section of the one document whose
    numbers it fits ("section 614": the game's rules'; not "2.5", which the IPG and the MTR both number so, nor "3")."""
    cited = []
    for match in CITED.finditer(query):
        number, doc = match.group("number").lower(), match.group("doc")
        fits = [DOCUMENT_WORDS[" ".join(doc.lower().split())]] if doc else list(kinds.numbered_by(number))
        if len(fits) == 1 and (doc or match.group("rule") or "." in number) and (fits[0], number) not in cited:
            cited.append((fits[0], number))
    return cited


def terms(text: str) -> list[str]:
    """The words of a text as the index cuts them, lower-cased, without stop words."""
    return [token for token in TOKENS.findall(text.lower()) if token not in STOP_WORDS]


def let_happen(query: str) -> set[str]:
    """The terms of what a question says someone let another do: its words after a word of LETTING to the end of
    that clause (punctuation or a word of CLAUSE_WORDS), but those it says outside such a clause too. "I let my
    opponent attack with a tapped creature and did not say anything": opponent, attack, tapped, creature."""
    inside: set[str] = set()
    outside: set[str] = set()
    letting = False
    end = 0
    for match in QUERY_WORD.finditer(query):
        word = match.group(0).lower()
        if CLAUSE_MARK.search(query[end:match.start()]) or word in CLAUSE_WORDS:
            letting = False
        end = match.end()
        if word in LETTING:
            letting = True
            continue
        (inside if letting else outside).update(terms(word))
    return inside - outside


def without_what_next(query: str) -> str:
    """A question without its sentences that ask only what comes next (`asks_what_next`), where others remain:
    "... I noticed it on my turn. What now?" is read as "... I noticed it on my turn." ("now" is no word of what
    happened, and the story tells what is asked about: a call, if it reports what someone did)."""
    sentences = SENTENCE_BREAK.split(query.strip())
    kept = [sentence for sentence in sentences if not asks_what_next(sentence)]
    return " ".join(kept) if kept and len(kept) < len(sentences) else query


def asks_what_next(sentence: str) -> bool:
    """A sentence of question words (and stop words) and a word of WHAT_NEXT: "What now?", "Then what?"."""
    words = [word.lower() for word in QUERY_WORD.findall(sentence)]
    return (any(word in WHAT_NEXT for word in words)
            and all(word in WHAT_NEXT or word in QUESTION_WORDS or word in STOP_WORDS for word in words))


def understand(query: str, vocabulary: Vocabulary) -> Question:
    searched = without_what_next(shortened(query or ""))
    typed = fold(searched)
    length = len(query or "")
    query = clean(searched)
    question = Question(query, shortened=length if length > MAX_QUERY else 0)
    number = as_number(query)
    if number:
        question.kind, question.number = number
        return question
    question.asks_meaning = bool(ASKS_MEANING.search(query))
    question.long = len(QUERY_WORD.findall(query)) >= LONG_QUESTION
    question.cites = cited_sections(query)
    question.incidental = incidental_words(typed, query, vocabulary.titles())
    incidental = set(question.incidental)
    names = written_names(query)
    words = QUERY_WORD.findall(query)
    words, question.kind = _document_named(words, vocabulary.archived_kinds())
    words, question.level = _phrase_named(words, levels())
    expansions: list[str] = []
    plain: list[str] = []
    for word in words:
        expansion = abbreviations().get(word.lower()) if _is_abbreviation(word, len(words)) else None
        if expansion:
            expansions.extend(expansion)
        else:
            plain.append(word)
    corrected_words = []
    meant: list[str] = []
    pieces = _said_pieces(plain)
    asked = asked_words(query) if question.long else None
    let = let_happen(query) if reports(query, vocabulary) and not tells_story(question) else set()
    story = SIGNALS["story"].weight       # read here: the benchmark fits it (rulekb bench --only meaning)
    said_stems = {vocabulary.stem(token) for piece, means in pieces for said in (piece, *means)    # (`qualified`)
                  for token in terms(said)} - {None}
    for position, (piece, means) in enumerate(pieces):
        group: list[Alternative] = []
        if means:       # a judges' word: itself where the documents use it, never "corrected" into another
            group.extend(Alternative(vocabulary.stem(token), token) for token in terms(piece)
                         if " " not in piece and vocabulary.stem(token))
        else:
            for token in said_terms(piece, vocabulary):
                # a name or a card: itself if the documents use it, never corrected ("Ansel" is not "angel")
                if token in incidental or (token in names and not vocabulary.stem(token)):
                    stem = vocabulary.stem(token)
                    corrected_words.append(token)
                    group.extend([Alternative(stem, token, INCIDENTAL_WEIGHT)] if stem else [])
                    continue
                read, shown = _read_word(token, vocabulary, typing=position == len(pieces) - 1)
                corrected_words.append(shown)
                group.extend(read)
        for phrase in means:      # a phrase ("slow play") is found where all its words are
            if not qualified(piece, phrase, said_stems, vocabulary):
                continue
            words_of = terms(phrase)
            stems = [vocabulary.stem(word) for word in words_of]
            stem = " ".join(stem or "" for stem in stems)
            if words_of and all(stems) and stem not in {alternative.stem for alternative in group}:
                group.append(Alternative(stem, " ".join(words_of), MEANING_WEIGHT))
                meant.extend(words_of)
        if (asked is not None and not any(token in asked for token in terms(piece))
                or terms(piece) and all(token in let for token in terms(piece))):
            group = [Alternative(a.stem, a.word, min(a.weight, story)) for a in group]
        if group and group not in question.groups:      # "extra turns after time runs out": one thought
            question.groups.append(group)
    for word in terms(expansions[0]) if expansions else []:      # the first meaning must match like words do
        stem = vocabulary.stem(word)
        if stem:
            question.groups.append([Alternative(stem, word)])
    for phrase in expansions:
        for word in terms(phrase):
            stem = vocabulary.stem(word)
            if stem and stem not in question.boosts:
                question.boosts.append(stem)
    # Past MAX_GROUPS words the lightest go (names, then the story's): the heaviest first, each weight in the order
    # said. (Kept in the order said, a long story's question, which comes last, was what the cap cut.)
    question.groups = sorted(question.groups, key=lambda group: -max(a.weight for a in group))[:MAX_GROUPS]
    plain_terms = [token for piece, means in pieces if not means for token in said_terms(piece, vocabulary)]
    if corrected_words != plain_terms:
        question.suggestion = _with_corrections(query, plain_terms, corrected_words)
    question.corrected = corrected_words
    question.call = is_call(question, vocabulary)
    intent = vocabulary.stem(INTENT)
    question.intends = bool(intent) and any(alternative.stem == intent
                                            for group in question.groups for alternative in group)
    question.marks = corrected_words + meant + [word for phrase in expansions for word in terms(phrase)]
    return question


def qualified(piece: str, meaning: str, said_stems: set, vocabulary: Vocabulary) -> bool:
    """Whether a judges' word's meaning is the question's: unbound (`bound_meanings`), or the question says a word
    it qualifies (as the documents write it, or by a judges' word meaning it: "randomized" is "shuffle")."""
    wanted = bound_meanings().get(piece, {}).get(meaning)
    return wanted is None or any(vocabulary.stem(word) in said_stems for word in wanted)


def said_terms(piece: str, vocabulary: Vocabulary) -> list[str]:
    """A word's terms as the documents write it: a word hyphenated where the documents join it ("de-sideboard":
    the IPG's "desideboard") is the documents' word, not two ("de" is no word of theirs); one of words they
    use ("state-based") stays those words."""
    parts = terms(piece)
    if "-" not in piece or " " in piece or len(parts) < 2:
        return parts
    joined = piece.replace("-", "")
    return [joined] if vocabulary.stem(joined) and not all(vocabulary.stem(part) for part in parts) else parts


def is_call(question: Question, vocabulary: Vocabulary) -> bool:
    """A call: a question reporting what someone did (`reports`) that tells no story (`tells_story`)."""
    return reports(question.query, vocabulary) and not tells_story(question)


def tells_story(question: Question) -> bool:
    """A question telling a story: several sentences, or a word of a story (a name, a card, a player's label,
    quoted speech) besides the level's name ("at Regular REL")."""
    return (len([sentence for sentence in SENTENCE_BREAK.split(question.query) if terms(sentence)]) > 1
            or any(word not in level_words() for word in question.incidental))


def reports(query: str, vocabulary: Vocabulary) -> bool:
    """Whether a question reports what someone did, in the past ("spectator gave advice", "passed the pack the
    wrong way", "lied about the life total", "did not shuffle enough"): a call, which asks what to do about it. A
    verb's past form: an irregular one (forms.BASE_FORMS: "gave", "drew"), a regular one (`past_ending`), or "did
    not"; but a word that only says how a question is asked ("did"), or one after a determiner ("a tapped creature":
    what it is); or a shortfall (SHORTFALLS: "without enough mana")."""
    words = [word.lower() for word in QUERY_WORD.findall(query)]
    return any(word in NEGATED_PAST or (word == "did" and following == "not") or f"{previous} {word}" in SHORTFALLS
               or (word not in QUESTION_WORDS and previous not in DETERMINERS
                   and (word in PAST_FORMS or past_ending(word, vocabulary)))
               for previous, word, following in zip([""] + words[:-1], words, words[1:] + [""]))


def past_ending(word: str, vocabulary: Vocabulary) -> bool:
    """A word with a regular past ending: "ed" after a documents' word ("passed", "lied"), or a word the documents
    do not know ("misrepresented"); not a documents' own word that only ends so ("speed", "red"), nor a word joined
    by a hyphen, an adjective of two ("state-based actions", "double-faced card": nothing was done)."""
    return (word.endswith("ed") and "-" not in word
            and bool(known_base(word, vocabulary, PAST) or not vocabulary.stem(word)))


def incidental_words(typed: str, query: str, titles: frozenset[str] = frozenset()) -> list[str]:
    """The words of a question's story rather than of what went wrong, as index tokens: a word capitalised
    inside a sentence (a person's or a card's name: "Alice", "Ragavan"; not one in capitals, an abbreviation, nor
    one of a run of capitalised words that writes a title of the documents: `titled_words`), a
    lone letter ("Player B", `_label`), and the words of quoted speech ("he said "I concede""): `typed` is the question
    with its quotes, `query` as cleaned. A number is not one of them: "59 cards" says what went wrong; nor is a
    quoted word the sentences that ask say outside the quotes: "When is end of turn? The phrase "until end of turn"
    puzzles me" quotes the rules' words to ask about them."""
    found: list[str] = []
    titled = titled_words(query, titles)
    for match in QUERY_WORD.finditer(query):
        word = match.group(0)
        inside = match.start() > 0 and not SENTENCE_END.search(query[:match.start()])
        if (inside and _capitalised(word) and match.start() not in titled) or _label(word):
            found.extend(token for token in terms(word) if token not in found)
    asked = {token for sentence in asking_sentences(QUOTED.sub(" ", typed))[1] for token in terms(sentence)}
    for speech in QUOTED.findall(typed):
        found.extend(token for token in terms(speech) if token not in found and token not in asked)
    return found


def titled_words(query: str, titles: frozenset[str]) -> set[int]:
    """Where the words start of each run of capitalised words (stop words between them: "Looking at Extra Cards")
    whose terms are one of `titles` (Vocabulary.titles): the documents' own name of a section ("Outside
    Assistance", "Deathtouch"), written as its title is, not a person's or a card's name. Only a whole title:
    a part of one ("Deck Checks", "Head") is as often a word of the story."""
    found: set[int] = set()
    run: list[re.Match] = []

    def close() -> None:
        if run and " ".join(token for match in run for token in terms(match.group(0))) in titles:
            found.update(match.start() for match in run)
        run.clear()

    for match in QUERY_WORD.finditer(query):
        word = match.group(0)
        joined = bool(run) and not query[run[-1].end():match.start()].strip()
        if joined and (_capitalised(word) or word in STOP_WORDS):
            run.append(match)
            continue
        close()
        if _capitalised(word):
            run.append(match)
    close()
    return found


def _capitalised(word: str) -> bool:
    """Capitalised, not in capitals (an abbreviation, a lone "A")."""
    return word[0].isupper() and not word.isupper()


def written_names(query: str) -> set[str]:
    """The words a question writes as names, as index tokens with and without "'s": capitalised (not in capitals)
    inside a sentence or more than once ("Ansel wins game 2 ... Ansel says": a name at each sentence's start;
    a phone capitalising a sentence's first word does not repeat a misspelling)."""
    seen: set[str] = set()
    names: set[str] = set()
    for match in QUERY_WORD.finditer(query):
        word = match.group(0)
        if not word[0].isupper() or word.isupper():
            continue
        inside = match.start() > 0 and not SENTENCE_END.search(query[:match.start()])
        for token in terms(word):
            base = token.removesuffix("'s")
            if inside or base in seen:
                names.update((base, base + "'s"))
            seen.add(base)
    return names


def _label(word: str) -> bool:
    """A lone letter labelling a player or a card ("Player B"), not the pronoun "I" nor a digit ("5 minutes")."""
    return len(word) == 1 and word.isalpha() and word.lower() not in QUESTION_WORDS


def asking_sentences(query: str) -> tuple[list[str], list[str]]:
    """(the sentences of a question holding a word, those of them that ask: with a "?", else the last one)."""
    sentences = [sentence for sentence in SENTENCE_BREAK.split(query) if terms(sentence)]
    return sentences, [sentence for sentence in sentences if "?" in sentence] or sentences[-1:]


def asked_words(query: str) -> Optional[set[str]]:
    """The words of the sentences that ask, in a question of several sentences (`asking_sentences`); the others
    tell the story. None where every sentence asks (or there is one), or where those that ask hold no word but how
    they ask ("... he calls for a judge. What do you do?": the story is what is asked about): then every word
    asks."""
    sentences, asking = asking_sentences(query)
    if len(asking) == len(sentences):
        return None
    asked = {token for sentence in asking for token in terms(sentence)}
    return asked if asked - QUESTION_WORDS else None


def _with_corrections(query: str, typed: list[str], corrected: list[str]) -> str:
    """The question as typed (lower-cased), each misspelt word in it corrected: "he forgot his triger" -> "he
    forgot his trigger", "missed triger" -> "missed trigger" (a judges' word as typed); without the "?" it
    ends with (one is put after it: "Did you mean …?")."""
    fixes = {word: correction for word, correction in zip(typed, corrected) if word != correction}
    return TOKENS.sub(lambda word: fixes.get(word.group(0), word.group(0)), query.lower()).rstrip(SENTENCE_MARKS)


def is_variant(kind: str, number: str) -> bool:
    """A rule of a multiplayer variant or casual variant: it applies only to games played so."""
    pattern = VARIANT_NUMBERS.get(kind)
    return bool(pattern and number and pattern.fullmatch(number.lower()))


def _said_pieces(words: list[str]) -> list[tuple[str, tuple[str, ...]]]:
    """The question's words as (word or phrase, the documents' words for it): the longest phrase of the
    judges' words first; words that only say how a question is asked are left out when others remain."""
    lowered = [word.lower() for word in words]
    pieces: list[tuple[str, tuple[str, ...]]] = []
    start = 0
    while start < len(lowered):
        for size in (4, 3, 2, 1):
            phrase = " ".join(lowered[start:start + size])
            if start + size <= len(lowered) and (size == 1 or phrase in meanings()):
                pieces.append((phrase, meanings().get(phrase, ())))
                start += size
                break
    asked = [piece for piece in pieces if piece[1] or piece[0] not in QUESTION_WORDS]
    return asked if any(terms(piece) or means for piece, means in asked) else pieces


def _document_named(words: list[str], archived: frozenset[str] = frozenset()) -> tuple[list[str], Optional[str]]:
    """A question naming a document ("mtr slow play"): the document is a filter, not a word to find. An archived
    document is named only by a name of several words ("floor rules"): a lone word ("floor judge") is a word of
    the current documents, whose answers a superseded document must not hide."""
    names = {name: kind for name, kind in DOCUMENT_WORDS.items() if " " in name or kind not in archived}
    return _phrase_named(words, names)


def _phrase_named(words: list[str], names: dict[str, str]) -> tuple[list[str], Optional[str]]:
    """The first (longest) of `names` the question holds beside other words: the question without it, nor any
    other of `names` naming the same ("a player at our local store ... at Regular REL?": one level, said twice, and
    neither time a word to find), and what it names."""
    named = None
    while (found := _named_at(words, names, named)) is not None:
        start, size = found
        named = names[" ".join(word.lower() for word in words[start:start + size])]
        words = words[:start] + words[start + size:]
    return words, named


def _named_at(words: list[str], names: dict[str, str], named: Optional[str]) -> Optional[tuple[int, int]]:
    """(start, size) of the first longest of `names` (naming `named`, if given) the words hold beside others."""
    lowered = [word.lower() for word in words]
    for size in (4, 3, 2, 1):
        for start in range(0, len(words) - size + 1):
            name = " ".join(lowered[start:start + size])
            if name in names and len(words) > size and named in (None, names[name]):
                return start, size
    return None


def _is_abbreviation(word: str, words_in_query: int) -> bool:
    """"GRV", "2HG", "D/DLP", "OoOS" (a capital after the first letter) are abbreviations; "to" or "ml" inside a
    sentence are words (a lone "grv" is one)."""
    return (word.isupper() or any(ch.isupper() for ch in word[1:]) or any(ch.isdigit() or ch == "/" for ch in word)
            or words_in_query == 1)


def _read_word(word: str, vocabulary: Vocabulary, typing: bool) -> tuple[list[Alternative], str]:
    """A query word as index terms: itself if the documents use it, else its completions (the last
    word, 3+ letters: it may still be being typed), else nothing for an English word they do not use, else the
    closest word they use."""
    stem = vocabulary.stem(word)
    if stem:
        return [Alternative(stem, word)], word
    if word[:1].isdigit():
        return [], word
    base = known_base(word, vocabulary)
    if base:           # a known word with a regular ending ("tutored", "bolted"): the documents' word, not a typo
        return [Alternative(vocabulary.stem(base), base)], word
    candidates = vocabulary.words_starting(word[0])
    if typing and len(word) >= MIN_PREFIX:
        completions = sorted(((count, candidate) for candidate, count in candidates if candidate.startswith(word)),
                             key=lambda pair: (-pair[0], pair[1]))[:COMPLETIONS]
        if completions:
            group = []
            for _, candidate in completions:
                alternative = Alternative(vocabulary.stem(candidate), candidate)
                if alternative.stem and alternative.stem not in {a.stem for a in group}:
                    group.append(alternative)
            return group, word
    if vocabulary.kept(word):     # English, not the documents': "how strict are we" is not "how strike are we"
        return [], word
    correction = closest_word(word, candidates)
    if correction:
        return [Alternative(vocabulary.stem(correction), correction)], correction
    return [], word


def known_base(word: str, vocabulary: Vocabulary, endings: tuple[str, ...] = ENDINGS) -> Optional[str]:
    """The documents' word that `word` is with one of `endings` added ("tutored" -> "tutor", "bolted" -> "bolt",
    "scrying" -> "scry", "shocked" -> "shock"), a final "e" dropped or a last consonant doubled after a vowel;
    else None."""
    for ending in endings:
        if word.endswith(ending) and len(word) - len(ending) >= 3:
            base = word[:-len(ending)]
            doubled = base[-1] == base[-2] and base[-3] in "aeiou"        # "tapped": "tap"; "misssed": no
            for candidate in (base, base + "e", base[:-1] if doubled else ""):
                if candidate and vocabulary.stem(candidate):
                    return candidate
    return None


def edit_budget(word: str) -> int:
    """Edits a misspelling of `word` may hold: 1 for a word of up to 5 letters without its regular ending, else
    2 (a swap of two neighbouring letters is one edit)."""
    core = next((word[:-len(ending)] for ending in ENDINGS if word.endswith(ending) and len(word) - len(ending) >= 3),
                word)
    return 1 if len(core) <= 5 else 2


MIN_CORRECTION = 3            # letters: a shorter word of the documents is never offered as a correction


def closest_word(word: str, candidates: list[tuple[str, int]]) -> Optional[str]:
    """The most frequent candidate within `edit_budget(word)` edits."""
    limit = edit_budget(word)
    found = [(distance, -candidates[position][1], candidates[position][0])
             for position, distance in near(word, [candidate for candidate, _ in candidates], limit)
             if len(candidates[position][0]) >= MIN_CORRECTION]
    return min(found)[2] if found else None


def has_closest_word(word: str, by_length: dict[int, list[str]]) -> bool:
    """Whether `closest_word` finds a word for `word` among candidates given by length (those of MIN_CORRECTION
    letters or more): only the lengths within the edit budget are compared, as each edit changes the length by
    one at the most."""
    limit = edit_budget(word)
    choices = [candidate for length in range(len(word) - limit, len(word) + limit + 1)
               for candidate in by_length.get(length, ())]
    return bool(choices) and bool(near(word, choices, limit))


# The same patterns in JavaScript's dialect (flags "u"): Python's \w and \d are Unicode, JavaScript's are not.
JS_PATTERNS = {
    "token": r"\p{Nd}+(?:\.\p{Nd}+[a-z]?)*[a-z]*|[\p{L}\p{N}\p{M}_]+(?:[’'][\p{L}\p{N}\p{M}_]+)*",
    "query_word": r"[\p{L}\p{N}\p{M}][\p{L}\p{N}\p{M}_/'’&-]*",
    "number_query": NUMBER_QUERY.pattern.replace("(?P<", "(?<"),
    "glued": GLUED.pattern,
    "number_dot": NUMBER_DOT.pattern,
    "number_space": NUMBER_SPACE.pattern,
    "clause_mark": CLAUSE_MARK.pattern,
    "cited": CITED.pattern.replace("(?P<", "(?<"),
}


def browser_rules() -> dict:
    """Everything the browser's worker needs to read a question the way `understand` does."""
    return {
        "patterns": JS_PATTERNS, "stop_words": sorted(STOP_WORDS), "field_boosts": FIELD_BOOSTS,
        "stemmed_fields": list(STEMMED_FIELDS),
        "expansion_boost": EXPANSION_BOOST, "glossary_weight": GLOSSARY_WEIGHT,
        "completions": COMPLETIONS, "min_prefix": MIN_PREFIX, "max_query": MAX_QUERY, "endings": list(ENDINGS),
        "incidental_weight": INCIDENTAL_WEIGHT, "asks_meaning": ASKS_MEANING.pattern, "long_question": LONG_QUESTION,
        "document_words": DOCUMENT_WORDS, "number_kinds": NUMBER_KINDS,
        "number_patterns": kinds.number_patterns(), "short_names": {kind.id: kind.short for kind in kinds.KINDS},
        "action_labels": {kind.id: kind.action for kind in kinds.KINDS},
        "glossary_targets": GLOSSARY_TARGETS,
        "abbreviations": {key: list(value) for key, value in sorted(abbreviations().items())},
        "question_words": sorted(QUESTION_WORDS), "what_next": sorted(WHAT_NEXT),
        "meanings": {key: list(value) for key, value in sorted(meanings().items())},
        "bound_meanings": {key: {meaning: list(words) for meaning, words in sorted(value.items())}
                           for key, value in sorted(bound_meanings().items())},
        "levels": dict(sorted(levels().items())), "level_beside": {kind: list(beside) for kind, beside
                                                                   in sorted(level_beside().items())},
        "level_beside_stories": {kind: list(beside) for kind, beside in sorted(level_beside(story=True).items())},
        "meaning_weight": MEANING_WEIGHT, "coverage_power": COVERAGE_POWER,
        "level_boost": LEVEL_BOOST, "max_groups": MAX_GROUPS, "max_ranked": MAX_RANKED,
        "variant_weight": VARIANT_WEIGHT, "naming_fields": list(NAMING_FIELDS), "signals": exported(),
        "own_name_fields": list(OWN_NAME_FIELDS), "title_fields": list(TITLE_FIELDS),
        "level_words": sorted(level_words()), "common_share": COMMON_SHARE, "past_forms": sorted(PAST_FORMS),
        "past_endings": list(PAST), "negated_past": sorted(NEGATED_PAST), "shortfalls": sorted(SHORTFALLS),
        "determiners": sorted(DETERMINERS), "game_kinds": sorted(kinds.game_rules()), "intent_word": INTENT,
        "letting": sorted(LETTING), "clause_words": sorted(CLAUSE_WORDS),
    }
