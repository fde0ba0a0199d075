"""Independent counter for Comprehensive Rules (CR) text files: what numbers and glossary terms does the text hold?

Used by tests/test_archive.py to check the parser on every edition of 2003-2026.

A deliberately small check on the project's parser. It imports nothing from the project and
uses only regular expressions and the few rules below, so each result can be checked by eye.

Decoding (per file, reported in the result's "encoding"):
  1. a UTF-16 BOM (FF FE / FE FF) -> UTF-16 LE/BE; a UTF-8 BOM -> UTF-8;
  2. bytes that are valid UTF-8 -> "ascii" (no byte >= 0x80) or "utf-8";
  3. otherwise a legacy code page. Windows-1252 is tried first, then Mac Roman, then DOS
     code page 437 (NOTES.md: old files carry Mac Roman or cp437 bytes). Each decoding gets
     one point for every non-ASCII character that "makes sense" in English rules text:
     typographic punctuation (curly quotes, dashes, ellipsis, bullet, TM/R/C, degree,
     no-break space), or an accented Latin letter (U+00C0-U+00FF) that touches a letter and is
     not an upper-case letter right after a lower-case one ("doesnÆt" makes no sense). The
     highest score wins; ties go to the earlier code page (Windows-1252 first).
Lines: the text is split on \\r\\n, \\r or \\n (nothing else: no form feeds, no \\u2028).

Parts of the file, found by the "Glossary" and "Credits" lines (each appears twice: once at
the end of the contents list, once as a real heading):
  rules    = after the first "Credits" line (the end of the contents list) up to the last
             "Glossary" line;
  glossary = after the last "Glossary" line up to the last "Credits" line (end of file if the
             file is truncated and has no second "Credits").

Numbers in the rules part, read from the start of each line (leading spaces ignored):
  "606. 8b ..."  -> 606.8b  (source typo: a space inside the number; also "702. 37a")
  "306.b ..."    -> 306.<last rule number seen in 306>b (source typo with the rule digit lost;
                    2008-10-01 has "306.b" after 306.3a, so it counts as 306.3b) - reported in notes
  "100.1a ...", "119.1d. ..."             -> subrule (an extra dot is allowed)
  "100.1. ...", "606.5 ...", "901.4.All"  -> rule (the dot, or the space, may be missing)
  "100. General", "215. This section is now empty...", "211. [This section has been ...]"
                                          -> section (whatever its text: an emptied section
                                             still has its number)
  Chapters ("1. Game Concepts") are not counted.
Hard-wrapped files (2003-10-01, 2003-12-01, 2004-02-01) break lines inside sentences, so a
line can begin with a cross-reference: "... See rule" / "103.4. If a player must ...". Rule
used here: a numbered line directly after a non-blank line that ends with the word "rule" or
"rules" is the rest of that sentence, not a heading. That is the only case in the 102
editions where such a line has the shape of a heading (the others, "216, ...", "409.1f-h.",
"102.7." without text, never match the patterns above). Every line skipped this way is listed
in the result's "notes", so a wrong skip would show up in the report.

Glossary terms: the glossary is a series of blocks parted by blank lines; the first line of a
block is the term, the lines after it its definition. Exceptions:
  - a block whose first line is indented, or which has only one line, is no term: it belongs
    to the entry above (the 2003 "Expansion Symbol" entry lists its symbols as indented
    one-line blocks under one-line sub-headings such as "Expansions and Editions");
  - a term glued to its first numbered sense, "Ability1. Text on an object ...", is "Ability";
  - a few editions leave out the blank line before a term ("Floor Rules" 2008-2009, "Concede"
    2020, "Affinity" 2021-2022): inside a block, a term-shaped line (a capital, at most 80
    characters, no . : ; or , in it, not at its end) right after a line that ends a sentence,
    and followed by a line that is not term-shaped, starts a term of its own (listed in "notes").
Terms are compared as the whole stripped term line ("Ante (Obsolete)", "Partner, ...").
"""
from __future__ import annotations

import re
import sys

LINE_END = re.compile(r"\r\n|\r|\n")
TYPO_SPACE = re.compile(r"([1-9]\d\d)\. (\d{1,3})([a-z]?)\s")         # "606. 8b Players ..."
TYPO_NO_RULE = re.compile(r"([1-9]\d\d)\.([a-z])\s")                   # "306.b If an effect ..."
SUBRULE = re.compile(r"([1-9]\d\d)\.(\d{1,3})([a-z])\.?(?:\s|$)")      # "100.1a", "119.1d."
RULE = re.compile(r"([1-9]\d\d)\.(\d{1,3})(?:\.\s*|\s+)(?=\S)")      # "100.1. X", "606.5 X", "901.4.All"
SECTION = re.compile(r"([1-9]\d\d)\.\s+\S")                            # "100. General", "215. This section..."
ENDS_WITH_RULE_WORD = re.compile(r"\brules?$", re.I)                   # "... See rule" (hard wrap)
GLUED_TERM = re.compile(r"(\D*?[^\s\d])1\.\s")                         # "Ability1. Text on ..."
SENTENCE_END = re.compile(r"[.!?][\"'”’)]*$")                             # "... See rule 104, “Ending the Game.”"
TERM_SHAPED = re.compile(r"[A-Z][^.:;,]{0,78}[^.:;,\s]")                  # "Concede": a capital, short, no end mark

PUNCTUATION = set("‘’“”–—…•™®©°\u00a0")
CODE_PAGES = ("windows-1252", "mac-roman", "cp437")                   # order = tie-break order


def _sense(text: str) -> int:
    """How many non-ASCII characters of `text` make sense in English rules text."""
    score = 0
    for match in re.finditer(r"[^\x00-\x7f]", text):
        char, at = match.group(), match.start()
        before, after = text[at - 1:at], text[at + 1:at + 2]
        if char in PUNCTUATION:
            score += 1
        elif "\u00c0" <= char <= "\u00ff" and char not in "×÷" and (before.isalpha() or after.isalpha()):
            score += not (char.isupper() and before.islower())
    return score


def decode(data: bytes) -> tuple[str, str]:
    """(text, encoding name) - see the module docstring."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return data.decode("utf-16"), "utf-16-le" if data[:2] == b"\xff\xfe" else "utf-16-be"
    if data[:3] == b"\xef\xbb\xbf":
        return data[3:].decode("utf-8"), "utf-8-sig"
    try:
        return data.decode("utf-8"), "ascii" if data.isascii() else "utf-8"
    except UnicodeDecodeError:
        pass
    candidates = [(data.decode(name.replace("-", "_"), errors="replace"), name) for name in CODE_PAGES]
    scores = [_sense(text) for text, _ in candidates]
    best = scores.index(max(scores))                   # first of the best: Windows-1252 wins ties
    return candidates[best]


def count(data: bytes) -> dict:
    """Sections, rules, subrules and glossary terms of one raw CR file, plus notes on odd lines."""
    text, encoding = decode(data)
    lines = LINE_END.split(text)
    labels = {"glossary": [], "credits": []}
    for index, line in enumerate(lines):
        label = line.strip().casefold()
        if label in labels:
            labels[label].append(index)
    result = {"encoding": encoding, "sections": set(), "rules": set(), "subrules": set(),
              "terms": set(), "term_lines": {}, "number_lines": {}, "notes": []}
    if not labels["credits"] or not labels["glossary"]:
        result["notes"].append("no Glossary/Credits labels: not counted")
        return result
    rules_start = labels["credits"][0] + 1
    rules_end = labels["glossary"][-1] if labels["glossary"][-1] > rules_start else len(lines)
    glossary_end = labels["credits"][-1] if labels["credits"][-1] > rules_end else len(lines)

    last_rule = {}                                     # section -> last rule number seen in it
    for index in range(rules_start, rules_end):
        line = lines[index].strip()
        if not line[:1].isdigit():
            continue
        previous = lines[index - 1].strip()
        if previous and ENDS_WITH_RULE_WORD.search(previous):
            result["notes"].append(f"line {index + 1}: {line[:40]!r} continues {previous[-30:]!r}: not a heading")
            continue
        number = kind = None
        if match := TYPO_SPACE.match(line):
            number = f"{match[1]}.{match[2]}{match[3]}"
            kind = "subrules" if match[3] else "rules"
            result["notes"].append(f"line {index + 1}: typo {line[:9]!r} counted as {number}")
        elif match := TYPO_NO_RULE.match(line):
            number, kind = f"{match[1]}.{last_rule.get(match[1], '?')}{match[2]}", "subrules"
            result["notes"].append(f"line {index + 1}: typo {line[:6]!r} counted as {number}")
        elif match := SUBRULE.match(line):
            number, kind = f"{match[1]}.{match[2]}{match[3]}", "subrules"
        elif match := RULE.match(line):
            number, kind = f"{match[1]}.{match[2]}", "rules"
            last_rule[match[1]] = match[2]
        elif match := SECTION.match(line):
            number, kind = match[1], "sections"
        if number:
            result[kind].add(number)
            result["number_lines"].setdefault(number, index + 1)

    block: list[int] = []
    for index in range(rules_end + 1, glossary_end + 1):
        if index < glossary_end and lines[index].strip():
            block.append(index)
            continue
        if block:
            first = lines[block[0]]
            if first[:1].isspace() or len(block) == 1:
                result["notes"].append(f"line {block[0] + 1}: {first.strip()[:40]!r} belongs to the entry above")
            else:
                starts = [block[0]] + [index for at, index in enumerate(block[2:-1], start=2)
                                       if SENTENCE_END.search(lines[block[at - 1]].strip())
                                       and TERM_SHAPED.fullmatch(lines[index].strip())
                                       and not TERM_SHAPED.fullmatch(lines[block[at + 1]].strip())]
                for start in starts:
                    glued = GLUED_TERM.match(lines[start])
                    term = glued[1] if glued else lines[start].strip()
                    if glued:
                        result["notes"].append(f"line {start + 1}: glued term {term!r}")
                    if start != block[0]:
                        result["notes"].append(f"line {start + 1}: term {term!r} without a blank line before it")
                    result["terms"].add(term)
                    result["term_lines"].setdefault(term, start + 1)
        block = []
    return result


if __name__ == "__main__":    # python tests/cr_count.py FILE...: the counts and notes of each file
    for path in sys.argv[1:]:
        with open(path, "rb") as handle:
            found = count(handle.read())
        print(f"{path}: {found['encoding']}, {len(found['sections'])} sections, {len(found['rules'])} rules, "
              f"{len(found['subrules'])} subrules, {len(found['terms'])} glossary terms")
        for note in found["notes"]:
            print("   ", note)
