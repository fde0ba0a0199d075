"""Parse the Magic: The Gathering Comprehensive Rules (kind "cr") into a Document.

The document, in the order the file gives it:
- front matter: title, "These rules are effective as of ...", the introduction;
- the contents list (every heading again, "Glossary" and "Credits" too): skipped, but
  remembered to notice a truncated file (a listed heading that never comes);
- the rules: chapters "1. Game Concepts" (level 1), sections "100. General" (2), rules
  "100.1. ..." (3) and subrules "100.1a ..." (4). Continuation paragraphs (indented or not)
  and "Example:" paragraphs belong to the rule above them;
- the glossary, from the "Glossary" heading after the rules: a term line, then its
  definition lines. Numbered senses ("1. Text on an object...") are definition text there;
- the credits, from the "Credits" heading after the rules, and everything after them.

How it decides, in one pass over the typed stream (pipeline.read.stream), reading every element as a line
of text with its indentation:
- A number at the start of a line is a heading only if it makes sense where it stands. The
  real anomalies are accepted ("119.1d." extra dot, "606.5 " missing dot, "901.4.All"
  missing space, "800.4c If" next to "800.4a." in one excerpt). In hard-wrapped copies a line
  can start with a number that goes on with the sentence above ("(See rule\\n101.4 and rule
  509...)"): right after a line that stops mid-sentence, a number that goes backwards, or is
  followed by a lowercase word or by nothing, is text.
- Hard-wrapped lines are joined with a space when the line above stops mid-sentence, or,
  once the file has shown it is hard-wrapped, whenever no blank line parts them. A page
  number between blank lines (PDF-to-text) skips, and does not break the paragraph.
- Glossary entries are parted by blank lines; in a conversion without them, a short term-like
  line after a finished sentence starts the next entry.
- The contents list is the run of heading lines after "Contents" (or dot-leader lines, or
  headings that come back before any rule) up to the first heading seen twice. A heading it names
  that never comes is a truncated file (Document.contents, pipeline.parse.checks).
- In an excerpt (rules not followed by a glossary), unnumbered paragraphs set off by a blank
  line after the last rule are not rules text (a blog's "Post a Comment"): they go to credits.

It must not: read files, resolve references (the link stage does), change the text it keeps
(lines are only stripped and joined), raise on odd content (it records Problems), or drop any
line other than the contents list and page numbers.
"""
from __future__ import annotations

import re
from itertools import chain
from typing import Callable, Optional

from .. import kinds
from ..model import (
    ERROR,
    INFO,
    PARAGRAPH,
    SUBHEADING,
    WARNING,
    Block,
    ContentsEntry,
    Document,
    DocumentInfo,
    GlossaryEntry,
    Problem,
    Reference,
    Section,
)
from ..read import SourceText
from ..read.stream import ContentsLine, Element, PageNumber
from . import common
from .common import (
    CLOSING_MARKS,
    SectionIds,
    ends_paragraph,
    fast_constructor,
    glue,
    is_contents_label,
    join_lines,
    looks_like_title,
    wrap_width,
)
from .ending import text_end
from .refs import SUBRULE_LETTERS, find_references_in_texts

# --- the shapes of lines ---------------------------------------------------------------------------

# "1. Game Concepts", "100. General", "100.1. Text", "100.1a Text", "119.1d. Text", "606.5 Text",
# "901.4.All": section (or chapter) digits, rule number, subrule letter, then the dots and the gap
# before the text, either of which may be missing. The groups: the whole number, the number above a subrule's
# ("100.2"), section digits, rule digits, letter (only after rule digits: the shape refuses it elsewhere), dots,
# gap, the text (the rest of the line).
NUMBERED_LINE = re.compile(r"((([1-9]\d{2}|[1-9])(?:\.(\d{1,3}))?)([a-z]?))(\.{0,2})(\s*)(.*)", re.S)
# The value of every string of one to three digits ("7", "07", "702"): looked up, as every numbered line of the
# rules needs two, for less than int() costs.
DIGITS_VALUE = {f"{value:0{width}d}": value for width in (1, 2, 3) for value in range(10 ** width)}
GLOSSARY_SENSE = re.compile(r"\d{1,2}\.\s")     # "2. An activated or triggered ability...": a sense of its own
# Source typos in a number: "606. 8b Players..." (a space inside it), "306.b If an effect..." (rule digits lost).
MISTYPED_NUMBER = re.compile(r"([1-9]\d{2})\.(?: (\d{1,3})([a-z]?)|([a-z]))\s+(\S.*)", re.S)
# An emptied section: "215. This section is now empty. See rule...", "211. [This section has been ...]".
SENTENCE_SECTION = re.compile(r"([1-9]\d{2})\. +(\S.*)", re.S)
# A glossary term glued to its first numbered sense: "Ability1. Text on an object..." (2021-06-09).
GLUED_TERM = re.compile(r"([^\d\s](?:[^\d]*[^\d\s])?)(1\.\s+\S.*)", re.S)
GLOSSARY_LABEL = "glossary"
CREDITS_LABEL = "credits"
# A CR sentence also ends at a semicolon (the items of a list of rules text); a translation's at its own marks
# ("。"), which closing marks of its own may follow ("。）"): the registry's languages say them.
SENTENCE_END = ".!?:;" + "".join(language.sentence_marks for language in kinds.LANGUAGES)
CLOSING = CLOSING_MARKS + "".join(language.closing_marks for language in kinds.LANGUAGES)
# A title never holds a sentence mark of a language that has its own ("这些规则适用于…。" is a rule's text).
OWN_SENTENCE_MARKS = re.compile("[" + re.escape("".join(language.sentence_marks for language in kinds.LANGUAGES))
                                + "]" if any(language.sentence_marks for language in kinds.LANGUAGES) else "(?!)")
RULE_TEXT_OPENERS = "“\"'‘{[(∞−-+—–•*_"
TITLE_MAX = 100          # a heading or glossary term is no longer than this
SENTENCE_INSIDE = re.compile(r"[a-z]{3}[.?!] +[A-Z]")    # "… have. See rule", not "Team vs. Team"
TERM_MAX = 80            # "Remove from the Game, Removed, Removed-from-the-Game Zone (Obsolete)"
# A definition line that cites a rule is never a term ("See rule 702.19, “Trample”" lacks its full stop).
CITES_RULE = re.compile(r"\b(?:rules?|section)\s+\d")
# A definition ends with its citation even where the source forgets the full stop: "See rule 603.4",
# "See rule 702.141, “Encore”".
ENDS_WITH_CITATION = re.compile(r"\b(?:rules?|section)\s+\d[\d.a-z]*(?:,\s*[“\"][^”\"]*[”\"])?$")
RULE_TITLE_MAX = 80      # "702.2. Deathtouch", "204.4. Supertypes": a rule that is only a heading
# Three joins of a line cut mid-sentence with a line starting in lowercase prove hard wrapping.
WRAPS_TO_PROVE_HARD_WRAPPING = 3
# Names on a glossary term line: a quoted name (a comma inside the quotes belongs to it) or a plain one.
TERM_NAME = re.compile(r"“([^”]*)”|\"([^\"]*)\"|([^,“\"]+)")
OBSOLETE = re.compile(r"\s*\(Obsolete\)\s*$", re.I)
# Subrule letters skip l and o: the letter expected after each one.
NEXT_LETTER = {ord(a): ord(b) for a, b in zip(SUBRULE_LETTERS, SUBRULE_LETTERS[1:])}
FIRST_LETTER = ord(SUBRULE_LETTERS[0])
LEVELS = {"chapter": 1, "section": 2, "rule": 3, "subrule": 4}
RULE_KINDS = ("rule", "subrule")     # (chapters and sections are headings)


def ends_sentence(text: str) -> bool:
    return text.rstrip(CLOSING)[-1:] in SENTENCE_END if text else True


def reads_like_title(text: str) -> bool:
    """"Game Concepts", "Supertypes", "∞ (Infinity)"; not "These rules apply...", "game.", "each"."""
    return looks_like_title(text, TITLE_MAX, max_words=TITLE_MAX, trailing=SENTENCE_END + ",") \
        and not OWN_SENTENCE_MARKS.search(text)


def _starts_rule_text(text: str) -> bool:
    """Rules text starts "If...", "“Legend rule”...", "{T}:...", "∞ (the...", "20 life..."; not "and", ")."."""
    first = text[0]
    return first.isupper() or first.isdigit() or first in RULE_TEXT_OPENERS


def reads_like_term(text: str) -> bool:
    """"Ability", "For Mirrodin!", "Partner, “Partner with [name]”"; not "2. An..." nor a sentence, nor one
    that ends another ("Speed is a value that a player can have. See rule 702.179, “Start Your Engines!”")."""
    return len(text) <= TITLE_MAX and not text[0].isdigit() and text.rstrip(CLOSING_MARKS)[-1:] not in ".:;" \
        and not SENTENCE_INSIDE.search(text)


def heading_shape(stripped: str):
    """(number, kind, sort key, text, number above) if the line is shaped like a heading or rule, else None.

    "100.2c Text" -> ("100.2c", "subrule", (100, 2, ord("c")), "Text", "100.2"); "1. Game Concepts" -> a
    chapter with key (99, -1, -1), before every section of its own.
    """
    match = NUMBERED_LINE.match(stripped)
    if match is None:
        return None
    number, stem, section, rule, letter, dots, gap, text = match.groups()
    if rule is None:
        if dots == "." and gap and not letter and reads_like_title(text):
            if len(section) == 1:
                return section, "chapter", (DIGITS_VALUE[section] * 100 - 1, -1, -1), text, None
            return section, "section", (DIGITS_VALUE[section], -1, -1), text, section[0]
        return None
    if len(section) != 3 or not (dots or gap):
        return None
    if letter:
        return number, "subrule", (DIGITS_VALUE[section], DIGITS_VALUE[rule], ord(letter)), text, stem
    return number, "rule", (DIGITS_VALUE[section], DIGITS_VALUE[rule], -1), text, section


# --- drafts: mutable while parsing, frozen into the model at the end ------------------------------

class _Paragraph(list):
    """The lines of one paragraph (joined at the end), where it starts and whether a blank line came before it."""
    __slots__ = ("line", "after_blank", "kind")

    def __init__(self, text: str, line: int, after_blank: bool = False, kind: str = PARAGRAPH):
        self.append(text)
        self.line = line
        self.after_blank = after_blank
        self.kind = kind


class _Draft:
    """A chapter, section, rule or subrule being read: its title, its paragraphs and its examples. The text on
    its heading line is a chapter's or section's title, a rule's first paragraph (most rules' only one)."""
    __slots__ = ("number", "kind", "parent", "line", "title", "paragraphs", "examples")

    def __init__(self, number: str, kind: str, parent: Optional[str], line: int, text: str):
        self.number = number
        self.kind = kind
        self.parent = parent
        self.line = line
        rule = kind in RULE_KINDS
        self.title = "" if rule else text
        self.paragraphs: list[_Paragraph] = [_Paragraph(text, line)] if rule and text else []
        self.examples: list[_Paragraph] = []


class _Term:
    """A glossary term line and its definition lines."""
    __slots__ = ("term", "line", "lines", "definition_line")

    def __init__(self, term: str, line: int):
        self.term = term
        self.line = line
        self.lines: list[str] = []
        self.definition_line = line


# --- the parser --------------------------------------------------------------------------------------

class _CrParser:
    def __init__(self, source: SourceText, info: DocumentInfo):
        self.info = info
        # the words read as marks, in the document's language (the kind's lexicon; the English where it has none)
        cr = kinds.kind(info.kind or "cr") or kinds.kind("cr")
        words = cr.lexicon(info.language or kinds.ENGLISH.id) or cr.lexicon(kinds.ENGLISH.id)
        english = cr.lexicon(kinds.ENGLISH.id)
        self.labels = {words.glossary.casefold(): GLOSSARY_LABEL, words.credits.casefold(): CREDITS_LABEL,
                       english.glossary.casefold(): GLOSSARY_LABEL, english.credits.casefold(): CREDITS_LABEL}
        self.label_starts = "".join({label[0] + label[0].upper() for label in self.labels})
        self.examples = tuple(dict.fromkeys(words.examples + english.examples))
        self.left_out = frozenset(words.left_out)      # "<생략>": the translation leaves this part out
        self.handle: Callable[[Element], None] = self.front_line      # what the current part does with a line
        self.in_rules = False
        self.front: list[_Paragraph] = []
        self.credits: list[_Paragraph] = []
        self.drafts: list[_Draft] = []
        self.terms: list[_Term] = []
        self.problems: list[Problem] = []
        self.term: Optional[_Term] = None
        self.open: Optional[_Paragraph] = None      # the paragraph the previous line went to
        self.open_is_example = False
        self.after_blank = True
        self.wraps_seen = 0
        self.current: Optional[_Draft] = None       # the heading rules text goes to
        self.last_key: Optional[tuple[int, int, int]] = None
        self.seen: dict[str, int] = {}               # heading number -> its line
        self.missing_parents: set[str] = set()
        self.rules_seen = False
        self.contents_numbers: dict[str, int] = {}   # numbers the contents list names -> its line
        self.contents_names: dict[str, int] = {}     # "glossary", "credits", ... -> its line
        self.stream = source.stream
        self.width = wrap_width([element.text for element in self.stream])   # hard-wrapped text: its width
        # Indentation counts beyond the file's own left margin (pdftotext -layout indents everything):
        self.margin = 0 if any(not element.indent for element in self.stream if element.text) else \
            min(map(len, {element.indent for element in self.stream if element.text}), default=0)

    # -- driving ----------------------------------------------------------------------------------

    def parse(self) -> Document:
        stream = self.stream
        before_blank: Optional[_Paragraph] = None   # the paragraph a page break may have cut
        before_blank_term: Optional[_Term] = None   # the glossary entry a page break may have cut
        page_break = False
        for index, element in enumerate(stream):
            stripped = element.text
            if not stripped:
                if self.open is not None:
                    before_blank = self.open
                self.after_blank = True
                self.open = None
                if self.term is not None:
                    before_blank_term = self.term
                    self.finish_term()
                continue
            if element.__class__ is PageNumber and _between_blanks(stream, index):
                page_break = True
                continue
            if page_break or (self.after_blank and stripped[0].islower()
                               and _cut_mid_sentence(before_blank, before_blank_term)):
                page_break = False
                self.go_on_after_break(before_blank, before_blank_term)
            try:
                self.handle(element)
            except Exception as error:  # never raise on odd content: say where, keep the text
                common.line_failed(self.problems, self.info.source, element.line, error)
                self.loose_text(self.credits if self.credits else self.front, element)
            before_blank = before_blank_term = None
        self.finish_term()
        self.handle = None      # (a bound method of the parser: no cycle left to collect)
        return self.document()

    def go_on_after_break(self, paragraph: Optional[_Paragraph], term: Optional[_Term]) -> None:
        """The blank lines around a page number (or of a page break in PDF-to-text output, where a sentence goes on
        in lowercase) are no paragraph break: the text they cut goes on."""
        self.open, self.after_blank = paragraph, paragraph is None
        if self.terms and self.terms[-1] is term and (not term.lines or not ends_sentence(term.lines[-1])):
            self.term = self.terms.pop()  # a term or a sentence the page break cut

    # -- front matter and contents ------------------------------------------------------------------

    def front_line(self, element: Element) -> None:
        if is_contents_label(element.text):
            self.handle = self.contents_line
        elif element.__class__ is ContentsLine:
            self.handle = self.contents_line
            self.contents_line(element)
        elif element.text[0].isdigit() and heading_shape(element.text):
            self.start_rules(element)
        else:
            self.loose_text(self.front, element)

    def contents_line(self, element: Element) -> None:
        dotted = element.__class__ is ContentsLine
        entry = element.entry if dotted else element.text
        if not entry:                                          # dot leaders alone
            return
        shape = heading_shape(entry) if entry[0].isdigit() else None
        if shape:
            number, kind = shape[0], shape[1]
            if kind in RULE_KINDS or number in self.contents_numbers:
                self.start_rules(element)                       # the contents list is over
            else:
                self.contents_numbers[number] = element.line
        elif dotted or (len(entry) <= TITLE_MAX and not ends_sentence(entry)):
            self.contents_names.setdefault(entry.casefold(), element.line)
        else:
            self.handle = self.front_line                      # prose after the list: front matter
            self.front_line(element)

    def start_rules(self, element: Element) -> None:
        self.handle = self.rules_line
        self.in_rules = True
        self.rules_line(element)

    # -- the rules ---------------------------------------------------------------------------------

    def rules_line(self, element: Element) -> None:
        stripped, line = element.text, element.line
        first = stripped[0]
        if first.isdigit():
            shape = heading_shape(stripped)
            if shape is not None and self.heading(shape, line):
                return
            if shape is None and self.odd_heading(stripped, line):
                return
        elif stripped.startswith(self.examples):
            self.start_example(stripped, line)
            return
        elif first in self.label_starts:
            label = self.labels.get(stripped.casefold())
            if label is not None:
                self.label_line(label, stripped, line)
                return
        self.rule_text(element)

    def heading(self, shape, line: int) -> bool:
        """Start the heading or rule a numbered line opens; False if the line is text after all."""
        number, kind, key, text, above = shape
        last_key = self.last_key
        backwards = last_key is not None and key <= last_key
        first = text[:1]        # (_starts_rule_text, inline: every heading and rule asks)
        if backwards or not first or not (first.isupper() or first.isdigit() or first in RULE_TEXT_OPENERS) \
                or (last_key and key[0] > last_key[0] + 1):
            # Right after a line cut mid-sentence, such a number goes on with that sentence.
            if self.mid_sentence():
                return False
            if backwards and kind not in RULE_KINDS and not self.rules_seen:
                return self.restart_after_contents(shape, line)
            if backwards and kind == "chapter":
                return False
        if backwards or number in self.seen or _first_missing(last_key, kind, key):   # (rarely: a problem to say)
            self.check_number(number, kind, key, backwards, line)
        parent = above if above is None or above in self.seen else self.nearest_parent(number, above, line)
        self.current = draft = _Draft(number, kind, parent, line, text)
        self.drafts.append(draft)
        self.seen.setdefault(number, line)
        self.open = draft.paragraphs[0] if draft.paragraphs else None     # (a rule's text may go on below)
        self.open_is_example = False
        self.after_blank = False
        self.rules_seen = self.rules_seen or kind in RULE_KINDS
        self.last_key = key
        return True

    def check_number(self, number: str, kind: str, key: tuple[int, int, int], backwards: bool, line: int) -> None:
        """Duplicate numbers and numbering that goes backwards (both headings are kept), and a number skipped."""
        if number in self.seen:
            self.problem(WARNING, line, f"{number} is numbered like the heading at line {self.seen[number]} "
                                        f"(duplicate number; both kept)")
        elif backwards:
            self.problem(WARNING, line, f"{number} comes after {self.current.number}: the numbering goes backwards")
        else:
            missing = _first_missing(self.last_key, kind, key)
            if missing:
                self.problem(INFO, line, f"{number} follows {self.current.number}: {missing} is missing")

    def odd_heading(self, stripped: str, line: int) -> bool:
        """A numbered line of no regular shape that can only be the next heading (a mistyped number, a section
        whose title is a sentence); True if it started one. Never right after a line cut mid-sentence (a
        hard-wrapped cross-reference)."""
        if self.last_key is None or self.mid_sentence():
            return False
        match = MISTYPED_NUMBER.match(stripped)
        if match is not None:
            return self.mistyped_number(match, line)
        match = SENTENCE_SECTION.match(stripped)
        return match is not None and self.sentence_section(match.group(1), match.group(2), line)

    def mistyped_number(self, match: re.Match, line: int) -> bool:
        """"606. 8b Players win..." / "702. 37a Storm is..." / "306.b If an effect...": a typo in the number. Read
        as 606.8b / 702.37a / 306.3b (the rule digits taken from the heading above) when that is exactly the
        number that comes next, with a warning; otherwise the line stays text."""
        last_key = self.last_key
        section, rule, letter, lone_letter, text = match.groups()
        if lone_letter:
            if last_key[0] != int(section) or last_key[1] < 0:
                return False
            rule, letter = str(last_key[1]), lone_letter
        shape = heading_shape(f"{section}.{rule}{letter or '.'} {text}")
        if (shape is None or shape[2] <= last_key or not _starts_rule_text(text)
                or _first_missing(last_key, shape[1], shape[2])
                or (shape[1] == "subrule" and shape[4] not in self.seen)):
            return False
        self.problem(WARNING, line, f"the number {match.string[:match.start(5)].strip()!r} is mistyped: "
                                    f"read as {shape[0]}")
        return self.heading(shape, line)

    def sentence_section(self, section: str, text: str, line: int) -> bool:
        """"215. This section is now empty. See rule 205.4c..." / "211. [This section has been intentionally left
        blank...]": a section whose title is a sentence. A section when its number is the next section number;
        the sentence is kept as its text (a text that does not end like a sentence stays its title)."""
        if int(section) != self.last_key[0] + 1 or not _starts_rule_text(text):
            return False
        sentence = ends_sentence(text)
        shape = (section, "section", (int(section), -1, -1), "" if sentence else text, section[0])
        if not self.heading(shape, line):
            return False
        if sentence:
            self.new_paragraph(self.current.paragraphs, text, line)
        return True

    def nearest_parent(self, number: str, above: str, line: int) -> Optional[str]:
        """In an excerpt the heading above may be missing: take the nearest that exists, and say so once."""
        if above not in self.missing_parents:
            self.missing_parents.add(above)
            self.problem(WARNING, line, f"{number} comes without a heading {above} above it")
        wanted = [number.partition(".")[0], number[0]] if "." in above else [number[0]]
        return next((candidate for candidate in wanted if candidate in self.seen and candidate != number), None)

    def restart_after_contents(self, shape, line: int) -> bool:
        """A heading seen again before any rule: the headings so far were a contents list without a label."""
        for draft in self.drafts:
            self.contents_numbers.setdefault(draft.number, draft.line)
            self.front.extend(draft.paragraphs + draft.examples)
        self.drafts.clear()
        self.seen.clear()
        self.current = None
        self.last_key = None
        return self.heading(shape, line)

    def start_example(self, stripped: str, line: int) -> None:
        owner = self.current
        self.new_paragraph(self.front if owner is None else owner.examples, stripped, line, example=owner is not None)

    def new_paragraph(self, paragraphs: list[_Paragraph], stripped: str, line: int, example: bool = False) -> None:
        """A paragraph (or an example) of `paragraphs` that starts at this line; the next lines may go on with it."""
        paragraph = _Paragraph(stripped, line, self.after_blank)
        paragraphs.append(paragraph)
        self.open = paragraph
        self.open_is_example = example
        self.after_blank = False

    def rule_text(self, element: Element) -> None:
        """A line of rules text that is no heading: the rule above goes on, or gets another paragraph."""
        if self.current is None:
            self.loose_text(self.front, element)
            return
        stripped = element.text
        if self.open is not None:
            mid_sentence = not ends_sentence(self.open[-1])
            if mid_sentence and stripped[0].islower():
                self.wraps_seen += 1
            hard_wrapped = self.wraps_seen >= WRAPS_TO_PROVE_HARD_WRAPPING
            if self.open_is_example or mid_sentence or (hard_wrapped and not self.indented(element)):
                self.open.append(stripped)
                return
        self.new_paragraph(self.current.paragraphs, stripped, element.line)

    def mid_sentence(self) -> bool:
        """Whether the paragraph the previous line went to stops mid-sentence."""
        return self.open is not None and not ends_sentence(self.open[-1])

    def label_line(self, label: str, stripped: str, line: int) -> None:
        """"Glossary" / "Credits": before any rule a contents entry, after the rules the part it names."""
        if not self.rules_seen:
            self.contents_names.setdefault(stripped.casefold(), line)
            return
        self.end_of_rules(glossary_follows=label == GLOSSARY_LABEL)
        if label == GLOSSARY_LABEL:
            self.handle = self.glossary_line
        else:
            self.start_credits(stripped, line)

    def end_of_rules(self, glossary_follows: bool) -> None:
        """In an excerpt, blank-separated unnumbered paragraphs after the last rule are not rules text."""
        in_rules = self.in_rules
        self.in_rules = False
        self.open = None
        if glossary_follows or not in_rules or not self.drafts:
            return
        last = self.drafts[-1]
        after_examples = max((example.line for example in last.examples), default=0)
        trailing = []
        while last.paragraphs and last.paragraphs[-1].after_blank and last.paragraphs[-1].line > after_examples:
            trailing.append(last.paragraphs.pop())
        self.credits.extend(reversed(trailing))

    # -- glossary ------------------------------------------------------------------------------------

    def glossary_line(self, element: Element) -> None:
        stripped, line = element.text, element.line
        if stripped[0] in self.label_starts and self.labels.get(stripped.casefold()) == CREDITS_LABEL:
            self.finish_term()
            self.start_credits(stripped, line)
            return
        if stripped in self.left_out and self.term is None and not self.terms:
            # the whole glossary left out: said, and what follows is the closing part (no term "<생략>")
            self.problem(INFO, line, f"the glossary is left out of this translation ({stripped}): "
                                     "no glossary page in its language: the English glossary stands")
            self.handle, self.open = self.credits_line, None
            return
        term = self.term
        if term is not None and not (term.lines and self.starts_term(stripped, term.lines[-1])):
            self.definition_line(term, stripped, line)
            return
        # One open here: no blank line between two entries (some conversions, pdftotext, a few editions).
        self.finish_term()
        if term is None and self.terms and self.indented(element):
            self.indented_block(stripped)
        else:
            self.term_line(stripped, line)

    def indented_block(self, stripped: str) -> None:
        """An indented block after a blank line goes on with the entry above (the 2003 "Expansion Symbol" entry
        lists each symbol so); a one-line "term" without definition just above it ("Expansions and Editions")
        was a sub-heading of that entry, not a term."""
        above = self.terms.pop()
        if not above.lines and self.terms:
            self.terms[-1].lines.append(above.term)
            above = self.terms.pop()
        above.lines.append(stripped)
        self.term = above

    def term_line(self, stripped: str, line: int) -> None:
        """A glossary term; a term glued to its definition; or a definition paragraph set off by a blank line,
        which still belongs to the term above."""
        if reads_like_term(stripped):
            self.term = _Term(stripped, line)
            return
        glued = GLUED_TERM.fullmatch(stripped)
        if glued is not None and len(glued.group(1)) <= TERM_MAX and glued.group(1)[0].isupper():
            # "Ability1. Text on an object...": the term is "Ability", the definition starts at "1.".
            self.term = _Term(glued.group(1), line)
            self.term.lines.append(glued.group(2))
            self.problem(WARNING, line, f"glossary term {glued.group(1)!r} is glued to its definition "
                                        f"(\"{stripped[:len(glued.group(1)) + 2]}\"): split there")
        elif self.terms:
            self.term = self.terms.pop()
            self.term.lines.append(stripped)
        else:
            self.term = _Term(stripped, line)

    def starts_term(self, stripped: str, before: str) -> bool:
        """Without a blank line before it: a short term-like line right after a finished definition."""
        return (len(stripped) <= TERM_MAX and stripped[0].isupper() and reads_like_term(stripped)
                and not CITES_RULE.search(stripped)
                and (ends_sentence(before) or ends_paragraph(before, stripped, self.width)
                     or bool(ENDS_WITH_CITATION.search(before))))

    def definition_line(self, term: _Term, stripped: str, line: int) -> None:
        """A line of a definition: a paragraph of its own, or (hard-wrapped text) the rest of the one above."""
        lines = term.lines
        if not lines:
            term.definition_line = line
        elif self.width is not None and not ends_paragraph(lines[-1], stripped, self.width) \
                and not GLOSSARY_SENSE.match(stripped):
            lines[-1] += glue(lines[-1], stripped) + stripped
            return
        lines.append(stripped)

    def indented(self, element: Element) -> bool:
        return len(element.indent) > self.margin

    def finish_term(self) -> None:
        if self.term is not None:
            self.terms.append(self.term)
            self.term = None

    # -- credits and loose text ---------------------------------------------------------------------

    def start_credits(self, stripped: str, line: int) -> None:
        self.handle = self.credits_line
        self.credits.append(_Paragraph(stripped, line, kind=SUBHEADING))
        self.open = None

    def credits_line(self, element: Element) -> None:
        self.loose_text(self.credits, element)

    def loose_text(self, paragraphs: list[_Paragraph], element: Element) -> None:
        """Front matter and credits: a block per line, unless a line plainly goes on with a sentence."""
        if paragraphs and paragraphs[-1] is self.open and element.text[0].islower() and self.mid_sentence():
            self.open.append(element.text)
        else:
            self.new_paragraph(paragraphs, element.text, element.line)

    # -- the result ----------------------------------------------------------------------------------

    def problem(self, severity: str, line: Optional[int], message: str) -> None:
        self.problems.append(Problem(severity, self.info.source, line, message))

    def document(self) -> Document:
        self.end_of_rules(glossary_follows=False)
        # Every rules paragraph and example (with its place in its section), then every definition: the references
        # in them are found at once.
        paragraphs: list[_Paragraph] = []
        places: list[int] = []
        for draft in self.drafts:
            # (only a rule of one short paragraph can be a title alone: most rules are not asked)
            if len(draft.paragraphs) == 1 and len(draft.paragraphs[0][0]) <= RULE_TITLE_MAX:
                _take_title(draft)
            own = draft.paragraphs + draft.examples if draft.examples else draft.paragraphs
            paragraphs += own
            places += range(len(own))
        texts = [paragraph[0] if len(paragraph) == 1 else join_lines(paragraph) for paragraph in paragraphs] \
            + ["\n".join(term.lines) for term in self.terms]
        lines = [paragraph.line for paragraph in paragraphs] + [term.definition_line for term in self.terms]
        refs = find_references_in_texts(texts, lines, bare_cr_numbers=True, blocks=places + [0] * len(self.terms))
        sections = self.sections(texts[:len(paragraphs)], refs)
        glossary = self.glossary(texts[len(paragraphs):], refs[len(paragraphs):])
        if not self.rules_seen:
            self.problem(ERROR, None, "no numbered rules found: this is not a Comprehensive Rules file")
        return Document(info=self.info, sections=sections, glossary=glossary,
                        front_matter=tuple(Block(p.kind, join_lines(p)) for p in self.front),
                        credits=tuple(Block(p.kind, join_lines(p)) for p in self.credits),
                        problems=tuple(self.problems), contents=self.contents(), end=text_end(self.stream))

    def sections(self, texts: list[str], refs: list[list[Reference]]) -> tuple[Section, ...]:
        """The drafts as Sections; `texts` and `refs` hold their paragraphs, then examples, in order (`refs` more)."""
        prefix = f"{self.info.id}:"
        ids = [prefix + draft.number for draft in self.drafts]
        if len(self.seen) < len(ids):   # a number read twice (reported there): its second copy gets "-2"
            ids = list(map(SectionIds([], self.info.source).unique, ids))
        sections = []
        append = sections.append
        position = 0
        # (Most rules have one paragraph, no example: no slices, no empty tuples and lists made for them.)
        for draft, section_id in zip(self.drafts, ids):
            count = len(draft.paragraphs)
            if count == 1:
                blocks = (new_block(PARAGRAPH, texts[position]),)
            else:
                blocks = tuple([new_block(PARAGRAPH, text) for text in texts[position:position + count]])
            examples = position + count
            end = examples + len(draft.examples)
            if end - position == 1:
                section_refs = tuple(refs[position])
            else:
                section_refs = tuple(chain.from_iterable(refs[position:end]))
            append(new_section(section_id, draft.number, draft.title, LEVELS[draft.kind], blocks,
                               tuple(texts[examples:end]) if end > examples else (),
                               prefix + draft.parent if draft.parent else None, section_refs, draft.line, None,
                               draft.kind))
            position = end
        return tuple(sections)

    def glossary(self, texts: list[str], refs: list[list[Reference]]) -> tuple[GlossaryEntry, ...]:
        terms = {term.term.casefold() for term in self.terms}
        entries = []
        for term, text, term_refs in zip(self.terms, texts, refs):
            if not term.lines:
                self.problem(WARNING, term.line, f"glossary term {term.term!r} has no definition")
            entries.append(new_glossary_entry(term.term, text, tuple(term_refs), term.line,
                                              term_names(term.term, terms)))
        return tuple(entries)

    def contents(self) -> tuple[ContentsEntry, ...]:
        """The contents list as data: the headings it numbers, then the glossary and credits it names."""
        return tuple([ContentsEntry(number, "", line) for number, line in self.contents_numbers.items()]
                     + [ContentsEntry("", name.title(), line, closing=True)
                        for name, line in self.contents_names.items() if name in (GLOSSARY_LABEL, CREDITS_LABEL)])


def _between_blanks(stream: list, index: int) -> bool:
    """Whether a page number stands between blank lines (or the file's ends): a page break, not text."""
    return index == 0 or index == len(stream) - 1 or not stream[index - 1].text or not stream[index + 1].text


def _cut_mid_sentence(paragraph: Optional[_Paragraph], term: Optional[_Term]) -> bool:
    """Whether the text before a blank line (a paragraph's lines, or a glossary entry) stopped mid-sentence."""
    if paragraph is not None:
        return not ends_sentence(paragraph[-1])
    return term is not None and bool(term.lines) and not ends_sentence(term.lines[-1])


def _take_title(draft: _Draft) -> None:
    """A rule that is only a short heading ("702.2. Deathtouch", "204.4. Supertypes", or its text on the line
    after its number) keeps it as its title."""
    paragraphs = draft.paragraphs
    if len(paragraphs) == 1 and len(paragraphs[0]) == 1 and len(paragraphs[0][0]) <= RULE_TITLE_MAX \
            and not draft.examples and draft.kind in RULE_KINDS and reads_like_title(paragraphs[0][0]):
        draft.title = paragraphs[0][0]
        draft.paragraphs = []


def _first_missing(previous: Optional[tuple[int, int, int]], kind: str, key: tuple[int, int, int]) -> str:
    """The number skipped between the previous heading and this one ("" if none; l and o are never used)."""
    if previous is None or kind == "chapter":
        return ""
    section, rule, letter = key
    last_section, last_rule, last_letter = previous
    if kind == "section":
        expected = last_section + 1 if last_section // 100 == section // 100 else section // 100 * 100
        return str(expected) if section > expected else ""
    if section != last_section:
        return ""
    if kind == "rule":
        expected = last_rule + 1 if last_rule >= 0 else 1
        return f"{section}.{expected}" if rule > expected else ""
    if rule != last_rule:
        return ""
    expected = NEXT_LETTER.get(last_letter, last_letter + 1) if last_letter >= 0 else FIRST_LETTER
    return f"{section}.{rule}{chr(expected)}" if letter > expected else ""


def term_names(term: str, other_terms: frozenset[str] | set[str] = frozenset()) -> tuple[str, ...]:
    """`Partner, “Partner—[text],” “Partner with [name]”` -> each of the three names, unquoted.

    A comma can also sit inside one name ("Active Player, Nonactive Player Order"): when a piece is
    a glossary term of its own, the line names one thing. "(Obsolete)" is no part of a name.
    """
    bare = OBSOLETE.sub("", term).strip() if "(" in term else term.strip()
    if "," not in bare and "“" not in bare and '"' not in bare:
        return (bare,)          # one name (most terms)
    pieces = [match[match.lastindex] for match in TERM_NAME.finditer(bare)]     # (the one group that matched)
    names = [name for name in (piece.strip().strip(",").strip() for piece in pieces) if name]
    if len(names) > 1 and any(name.casefold() in other_terms for name in names):
        return (bare,)
    return tuple(names) or (bare,)


new_section = fast_constructor(Section)
new_block = fast_constructor(Block)
new_glossary_entry = fast_constructor(GlossaryEntry)


def parse_cr(source: SourceText, info: DocumentInfo) -> Document:
    return _CrParser(source, info).parse()
