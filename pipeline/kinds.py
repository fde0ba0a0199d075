"""The kinds of rule document and the languages they are read in, declared once: what each kind is
called, how it numbers its sections, which parser reads it, where its pages start, the evidence that
tells it from the others, and its lexicon in each language it is known in (a translation is the same
kind in another language, paired with its English edition by date and number).

Every stage asks this registry (detection, parsing, addresses, search, the site, the CLI and the
server); adding a kind is adding an entry here and a parser, adding a language is adding a `Language`
and the kinds' lexicons in it. Plain data: no parsing, no I/O.
"""
# (no `from __future__ import annotations`: NamedTuple would make each field's annotation, a string then, a
# ForwardRef, compiling it: more than the rest of this module costs to import)
import re
from functools import lru_cache
from typing import NamedTuple, Optional


class Structure(NamedTuple):
    """Evidence in the body of a document: at least `least` lines of this shape."""
    shape: re.Pattern
    least: int
    weight: float
    says: str                       # what the lines are, for a message ("rule lines like 100.1")


class Language(NamedTuple):
    """A language documents are written in, and what the site says in it."""
    id: str                         # "zh": BCP 47, as <html lang> and hreflang write it
    name: str                       # in itself: "简体中文"
    english: str                    # "Simplified Chinese"
    letters: str                    # its script's letters, a character class ("" for the Latin script)
    words: frozenset = frozenset()  # common words of its running text (tell Latin-script languages apart)
    dates: tuple = ()               # its dates: patterns with the groups year, month, day
    spaced: bool = True             # words stand between spaces (Chinese does not: search cuts characters)
    unofficial: str = ""            # "this translation is unofficial; the English governs", in the language
    untranslated: str = ""          # "this rule is not translated: the English", in the language
    credit: str = ""                # "translated by", in the language
    english_label: str = "English"  # the English text, as a button in the language names it
    glossary: str = "Glossary"      # a glossary page's heading
    sentence_marks: str = ""        # where its sentences end, besides the Latin ".!?:;" ("。")
    closing_marks: str = ""         # what may close a sentence after its mark ("）", "」")


ENGLISH = Language("en", "English", "English", "", frozenset(
    ["the", "of", "and", "to", "a", "in", "is", "or", "that", "for", "be", "by", "this", "with", "on", "as"]))
LANGUAGES: tuple[Language, ...] = (
    ENGLISH,
    Language("zh", "简体中文", "Simplified Chinese", "\u3400-\u4dbf\u4e00-\u9fff",
             dates=(re.compile(r"(?P<year>\d{4})\s*年\s*(?P<month>\d{1,2})\s*月\s*(?P<day>\d{1,2})\s*日"),),
             spaced=False,
             unofficial="本译文为非官方翻译，仅供参考；规则以英文原文为准。",
             untranslated="此条规则尚无译文，以下为英文原文。", credit="译者", english_label="英文原文",
             glossary="词汇表",
             sentence_marks="。！？：；", closing_marks="）」』”’"),
    Language("ko", "한국어", "Korean", "\uac00-\ud7af\u1100-\u11ff\u3130-\u318f",
             dates=(re.compile(r"(?P<year>\d{4})\s*년\s*(?P<month>\d{1,2})\s*월\s*(?P<day>\d{1,2})\s*일"),),
             unofficial="이 번역은 비공식 번역입니다. 영어 원문이 우선합니다.",
             untranslated="이 규칙은 번역되지 않았습니다. 영어 원문입니다.", credit="번역", english_label="영어 원문",
             glossary="용어집"),
)
LANGUAGE_BY_ID = {language.id: language for language in LANGUAGES}
UNOFFICIAL_IN_ENGLISH = ("This translation is unofficial and for reference only: the English text of the rules "
                         "governs.")


class Lexicon(NamedTuple):
    """A kind in one language: its name, as its title line writes it, and the words its parser reads as
    marks (the English's where a translation keeps them)."""
    language: str
    title: str                      # "万智牌完整规则"
    title_line: re.Pattern
    glossary: str = "Glossary"      # the heading of the part after the rules that defines the terms
    credits: str = "Credits"        # the heading of the closing part
    examples: tuple[str, ...] = ("Example:", "Examples:")   # how an example paragraph starts
    left_out: tuple[str, ...] = ()  # how a translation marks a part it leaves out ("<생략>": omitted)


class Kind(NamedTuple):
    id: str                         # "cr": also the id of the current edition
    title: str                      # "Comprehensive Rules"
    short: str                      # "CR", as search results and page titles name it
    names: tuple[str, ...]          # what people and documents call it ("comp rules"), lowercase
    title_line: re.Pattern          # its name as its own title line writes it
    parser: str                     # the parser that reads it (pipeline.parse names them)
    page_level: int                 # the level whose sections get a page each: a CR section (704), an IPG
    #                                 infraction (2.1), an MTR chapter (4), a floor-rules group (110), a JAR section
    search_order: int               # where a bare number ("2.1") is looked for first: lower first
    number: re.Pattern              # one of its section numbers, whole
    structure: tuple[Structure, ...] = ()
    numbered_titles: bool = True    # page titles "2.1 Missed Trigger" rather than "704. State-Based Actions"
    mentions_by_title: bool = False  # names other documents' sections by their titles ("Tardiness")
    checks: tuple[str, ...] = ()    # invariants held after parsing, in this order (pipeline.parse.checks names
    #                                 them); a parser checks only its own numbering as it reads
    translated: tuple[Lexicon, ...] = ()   # its name in the other languages it is known in
    cited_as: str = ""              # how other documents' text names it ("Comprehensive Rules|CR"), a pattern
    bare_numbers: bool = False      # a number of its shape standing alone in a note is its rule ("704.5k")
    titles_named: int = 0           # where a title named in another's text is looked for, lower first (0: not)
    variants: Optional[re.Pattern] = None   # its sections of multiplayer and casual variants (the CR's 8xx, 9xx)
    action: str = "Remedy"          # what a result calls the judge's action it shows ("Fix" at Regular REL)
    fix_first: bool = False         # a section's first paragraph is its fix (Regular REL situations)
    home: str = ""                  # what the home page says it holds (a current edition listed there)
    cited_number: str = ""          # its section number as running text cites it, unmistakably ("702.19b")
    saved_order: int = 9            # where the phone's offline copy takes its pages: small and consulted first
    game_rules: bool = False        # the game's own rules, not a tournament's: a story told in no word of the
                                    # tournament documents' own asks them (the search's "game" and "tournament"
                                    # signals)

    def lexicon(self, language: str) -> Optional[Lexicon]:
        """The kind in a language (English: its own title), or None where it is not known in it."""
        if language == ENGLISH.id:
            return Lexicon(ENGLISH.id, self.title, self.title_line)
        return next((lexicon for lexicon in self.translated if lexicon.language == language), None)

    def fits(self, number: str) -> bool:
        """Whether a section number is written as this kind numbers its sections ("112a": the floor rules')."""
        return bool(self.number.fullmatch(number))


CR_RULE_LINE = re.compile(r"^\s*[1-9]\d{2}\.\d{1,3}[a-z]?\.?\s")
INFRACTION_HEADING = re.compile(r"^\s*(?:IPG\s+)?\d\.\d{1,2}\.?\s+"
                                r"(?:Game Play Error|Tournament Error|Unsporting Conduct|Procedural Error)", re.I)
MTR_CHAPTER = re.compile(r"^\s*(?:MTR\s+)?[1-9]\.?\s+(?:Tournament Fundamentals|Tournament Mechanics|Tournament Rules"
                         r"|Communication|Tournament Violations|Limited Tournament Rules|Constructed Tournament Rules"
                         r"|Team Tournament Rules)\b", re.I)
FLOOR_HEADING = re.compile(r"^\s*1\d\d[a-z]?\.\s+[A-Z]")
JAR_HEADING = re.compile(r"^\s*(?:Common Issues|General Unwanted Behaviou?rs|Serious Problems|Communication"
                         r"|Game Play Errors)\s*$", re.I)

KINDS: tuple[Kind, ...] = (
    Kind("cr", "Comprehensive Rules", "CR", ("cr", "comprehensive rules", "comp rules"),
         re.compile(r"Comprehensive Rules", re.I), "cr", page_level=2, search_order=2,
         number=re.compile(r"[1-9](?:\d{2}(?:\.\d{1,3}[a-z]?)?)?"),
         structure=(Structure(CR_RULE_LINE, 20, 8.0, "rule lines like 100.1"),),
         numbered_titles=False, checks=("contents", "unique terms", "terms are names"),
         cited_as=r"(?:Magic(?::\s*The Gathering)?\s+)?Comprehensive Rules|CR", bare_numbers=True,
         variants=re.compile(r"[89]\d\d(?:\.\w+)?"), home="chapters, sections, keywords, glossary",
         saved_order=5, cited_number=r"[1-9]\d{2}(?:\.\d{1,3}[a-z]?)?", game_rules=True,
         translated=(Lexicon("zh", "万智牌完整规则", re.compile(r"完整规则"), glossary="词汇表", credits="版权信息",
                             examples=("例如：", "例：")),
                     Lexicon("ko", "매직: 더 개더링 종합 규칙서", re.compile(r"종합\s*규칙"), glossary="용어사전",
                             left_out=("<생략>",)))),
    Kind("ipg", "Infraction Procedure Guide", "IPG", ("ipg", "infraction procedure guide"),
         re.compile(r"Infraction Procedure Guide|Penalty Guidelines", re.I), "ipg", page_level=2, search_order=0,
         number=re.compile(r"\d{1,2}(?:\.\d{1,2})?|appendix [a-z]", re.I),
         structure=(Structure(INFRACTION_HEADING, 3, 8.0, "infraction headings like 2.1 Game Play Error"),),
         checks=("contents", "penalties agree", "layout"),
         cited_as=r"(?:Magic(?::\s*The Gathering)?\s+)?Infraction Procedure Guide|IPG", titles_named=2,
         home="definitions, philosophy, remedies", saved_order=1),
    Kind("mtr", "Magic Tournament Rules", "MTR", ("mtr", "tournament rules", "magic tournament rules"),
         re.compile(r"(?<!Universal )Tournament Rules", re.I), "mtr", page_level=1, search_order=1,
         number=re.compile(r"\d{1,2}(?:\.\d{1,2})?|appendix [a-z]", re.I),
         structure=(Structure(MTR_CHAPTER, 2, 5.0, "chapters like 1. Tournament Fundamentals"),),
         checks=("contents", "layout"),
         cited_as=r"Magic(?::\s*The Gathering)?\s+Tournament Rules|Tournament Rules|MTR", titles_named=1,
         home="chapters and appendices", saved_order=2),
    Kind("jar", "Judging at Regular REL", "JAR", ("jar", "judging at regular rel"),
         re.compile(r"Judging at Regular", re.I), "jar", page_level=1, search_order=3,
         number=re.compile(r"(?!)"),                # its sections have titles, no numbers
         structure=(Structure(JAR_HEADING, 2, 3.0, "headings like Serious Problems"),),
         mentions_by_title=True, cited_as=r"Judging at Regular REL|JAR", action="Fix", fix_first=True,
         home="the whole document", saved_order=3),
    Kind("floor", "Magic Online DCI Floor Rules", "Floor Rules", ("floor", "floor rules"),
         re.compile(r"Floor Rules", re.I), "mtr", page_level=1, search_order=4,
         number=re.compile(r"1\d\d[a-z]?"),
         structure=(Structure(FLOOR_HEADING, 5, 6.0, "headings like 112a. Game Clock"),), numbered_titles=False,
         checks=("contents", "layout"), cited_as=r"(?:DCI\s+)?Floor Rules", saved_order=4),
)
# Documents other documents cite that are no kind here: a reference to one is theirs, never the citing
# document's own section ("UTR section 3").
CITED_ELSEWHERE: tuple[tuple[str, str], ...] = (
    (r"(?:DCI\s+)?Universal Tournament Rules|UTR", "utr"),
)

BY_ID = {kind.id: kind for kind in KINDS}
IDS = tuple(kind.id for kind in KINDS)
IN_SEARCH_ORDER = tuple(kind.id for kind in sorted(KINDS, key=lambda kind: kind.search_order))


def numbered_by(number: str) -> tuple[str, ...]:
    """The kinds whose numbering a bare section number fits, where it is looked for first first: "704.5k" the
    CR; "2.1" the IPG, then the MTR; "112a" the floor rules. The one answer the CLI, the API, the server and
    the search (Python and the browser's worker) give to "which document has this number"."""
    wanted = number.strip().lower()
    return tuple(kind_id for kind_id in IN_SEARCH_ORDER if BY_ID[kind_id].fits(wanted))


def number_patterns() -> dict[str, str]:
    """Each kind's section number as a pattern the browser reads too (case-insensitive, whole)."""
    return {kind_id: BY_ID[kind_id].number.pattern for kind_id in IN_SEARCH_ORDER}


def cited_names() -> list[tuple[str, str]]:
    """How a text names each document (a pattern) and the kind it names: the kinds here, then the documents
    cited elsewhere (the names are apart: no order among them decides)."""
    return [(kind.cited_as, kind.id) for kind in sorted(KINDS, key=lambda kind: (kind.titles_named or 9,
                                                                                 kind.search_order))
            if kind.cited_as] + list(CITED_ELSEWHERE)


def numbers_cited(kind_id: str) -> re.Pattern:
    """A kind's section numbers in running text, in any language's words (group 1; none where it writes none
    unmistakably): "702.19" in a Chinese glossary entry is CR 702.19."""
    found = BY_ID.get(kind_id)
    return re.compile(rf"(?<![\d.])({found.cited_number})(?!\d)" if found and found.cited_number else r"(?!)")


def titles_named() -> tuple[str, ...]:
    """The kinds whose section titles another document's text may name ("Tardiness"), where looked first first."""
    return tuple(kind.id for kind in sorted(KINDS, key=lambda kind: kind.titles_named) if kind.titles_named)


def language(language_id: str) -> Optional[Language]:
    return LANGUAGE_BY_ID.get(language_id)


def kind(kind_id: str) -> Optional[Kind]:
    return BY_ID.get(kind_id)


def short_name(kind_id: str) -> str:
    found = BY_ID.get(kind_id)
    return found.short if found else kind_id.upper()


def title(kind_id: Optional[str]) -> str:
    found = BY_ID.get(kind_id or "")
    return found.title if found else "Unknown document"


def page_level(kind_id: str) -> int:
    found = BY_ID.get(kind_id)
    return found.page_level if found else 1


def order(kind_id: str) -> int:
    """Where a kind's documents come in lists (the CR first, then the IPG, the MTR, the JAR)."""
    return IDS.index(kind_id) if kind_id in BY_ID else len(IDS)


@lru_cache(maxsize=1)
def game_rules() -> frozenset[str]:
    """The kinds holding the game's own rules (the CR), not a tournament's (asked for every entry scored)."""
    return frozenset(kind.id for kind in KINDS if kind.game_rules)


def names() -> dict[str, str]:
    """Every name a question or a text may use for a document, lowercase, and the kind it names."""
    return {name: kind.id for kind in KINDS for name in kind.names}
