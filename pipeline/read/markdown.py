"""Turn a Markdown conversion of a rule document into plain lines, as if it were a text file.

Rules sites and apps republish the documents as Markdown: "## 704. State-Based Actions",
"**704.5k** If two or more…", "- Standard", "| Slow Play | Warning |", "[rule 603](#603)".
Headings lose their #s (and get a hint), emphasis and escapes go, links keep their text,
table rows become tab-separated cells. Line numbers stay those of the file. Nothing here
knows rules.
"""
from __future__ import annotations

import re

from .source import Line, Link

HEADING = re.compile(r"^\s{0,3}(#{1,6})\s+(.*?)\s*#*\s*$")
BULLET = re.compile(r"^(\s*)[-*+]\s+(?=\S)")
TABLE_RULE = re.compile(r"^\s*\|?\s*:?-{3,}:?\s*(?:\|\s*:?-{3,}:?\s*)*\|?\s*$")
TABLE_ROW = re.compile(r"^\s*\|.*\|\s*$")
LINK = re.compile(r"!?\[([^\]]*)\]\(([^)\s]*)(?:\s+\"[^\"]*\")?\)")
EMPHASIS = re.compile(r"(\*\*|__)(?=\S)(.+?)(?<=\S)\1|(?<![\w*])([*_])(?=\S)(.+?)(?<=\S)\3(?![\w*])")
ESCAPE = re.compile(r"\\([\\`*_{}\[\]()#+\-.!|>~])")
CODE = re.compile(r"`([^`]+)`")
PRIVATE = 0xF0000                       # a private-use plane: never in a rule document
SET_ASIDE = re.compile("[\U000F0000-\U000F00FF]")
THEMATIC_BREAK = re.compile(r"^\s{0,3}(?:[-*_]\s*){3,}$")
BOLD_LINE = re.compile(r"^\s*(\*\*|__)(?=\S)(?:(?!\1).)+(?<=\S)\1\s*$")


def looks_like_markdown(lines: list[str]) -> bool:
    """Markdown headings or bold rule numbers at line starts, more than a plain file would have by chance."""
    headings = sum(1 for line in lines if HEADING.match(line))
    bold_starts = sum(1 for line in lines if line.startswith("**"))
    tables = sum(1 for line in lines if TABLE_RULE.match(line))
    return headings >= 3 or bold_starts >= 10 or (tables >= 1 and headings >= 1)


def inline_text(text: str, links: list, number: int) -> str:
    """Inline Markdown to plain text: links keep their words (and are noted), emphasis and escapes go."""
    def keep_link(match: re.Match) -> str:
        if not match.group(0).startswith("!"):
            links.append(Link(number, match.group(1), match.group(2)))
        return match.group(1)
    # escaped characters are set aside first, so "\*" is never taken for emphasis
    text = ESCAPE.sub(lambda m: chr(PRIVATE + ord(m.group(1))), text)
    text = LINK.sub(keep_link, text)
    text = CODE.sub(r"\1", text)
    for _ in range(2):   # nested emphasis: ***text***
        text = EMPHASIS.sub(lambda m: m.group(2) if m.group(2) is not None else m.group(4), text)
    return SET_ASIDE.sub(lambda m: chr(ord(m.group(0)) - PRIVATE), text)


def markdown_to_lines(source_lines: list[Line]):
    """Return (lines, anchors, links) for a Markdown document."""
    lines: list[Line] = []
    links: list[Link] = []
    for line in source_lines:
        raw = line.text
        if TABLE_RULE.match(raw) and "-" in raw or THEMATIC_BREAK.match(raw) and raw.strip():
            lines.append(Line(line.number, ""))        # layout only
            continue
        heading = HEADING.match(raw)
        if heading:
            lines.append(Line(line.number, inline_text(heading.group(2), links, line.number),
                              f"h{len(heading.group(1))}"))
            continue
        if TABLE_ROW.match(raw):
            cells = [inline_text(cell.strip(), links, line.number) for cell in raw.strip().strip("|").split("|")]
            lines.append(Line(line.number, "\t".join(cell for cell in cells if cell), "tr"))
            continue
        bullet = BULLET.match(raw)
        if bullet:
            lines.append(Line(line.number, "• " + inline_text(raw[bullet.end():], links, line.number), "li"))
            continue
        text = raw[1:].lstrip() if raw.startswith(">") else raw   # a quoted block is text all the same
        # a line wholly in bold is marked as HTML's <b> would be ("**A player forgets a trigger**")
        hint = "b" if BOLD_LINE.match(text) else ""
        lines.append(Line(line.number, inline_text(text, links, line.number).rstrip(), hint))
    return lines, (), links
