"""Markdown conversions (as rules sites publish them) read like the original documents."""
from __future__ import annotations

import re

import pytest

from pipeline import load_document
from pipeline.read import read_bytes

from conftest import CORPUS


def to_markdown_cr(text: str) -> str:
    """The 2026 CR as a Markdown site writes it: chapters #, sections ##, bold rule numbers, escaped *."""
    out = []
    for line in text.replace("\r\n", "\n").replace("\r", "\n").split("\n"):
        if re.match(r"^\d\. \S", line):
            out.append(f"# {line}")
        elif re.match(r"^\d{3}\. \S", line):
            out.append(f"## {line}")
        elif match := re.match(r"^(\d{3}\.\d+[a-z]?\.?) (.*)$", line):
            out.append(f"**{match.group(1)}** {match.group(2)}")
        else:
            out.append(line.replace("*", "\\*"))
    return "\n".join(out)


@pytest.mark.slow          # a whole CR edition parsed twice, rule by rule
def test_a_markdown_cr_gives_the_same_rules_as_the_text_file(tmp_path):
    text = (CORPUS / "cr-2026-01-16.txt").read_bytes().decode("utf-8-sig")
    (tmp_path / "cr.md").write_text(to_markdown_cr(text), encoding="utf-8")
    markdown, _ = load_document(tmp_path / "cr.md", use_cache=False)
    original, _ = load_document(CORPUS / "cr-2026-01-16.txt", use_cache=False)
    assert [s.id for s in markdown.sections] == [s.id for s in original.sections]
    assert len(markdown.glossary) == len(original.glossary) == 725
    same = sum(1 for a, b in zip(markdown.sections, original.sections) if a.text == b.text)
    assert same >= len(original.sections) - 2


def test_markdown_markup_becomes_plain_lines_with_hints():
    data = (b"# Magic Tournament Rules\n\n## 1.1 Tournament Types\n\nSee [section 2.5](#mtr2-5) and **bold** "
            b"words, an \\*escaped\\* star.\n\n- Standard\n- *Modern*\n\n| Infraction | Penalty |\n|---|---|\n"
            b"| Slow Play | Warning |\n")
    source = read_bytes(data, "mtr.md")
    assert source.format == "markdown"
    texts = [(line.text, line.hint) for line in source.lines if line.text]
    assert ("Magic Tournament Rules", "h1") in texts and ("1.1 Tournament Types", "h2") in texts
    assert ("See section 2.5 and bold words, an *escaped* star.", "") in texts
    assert ("• Modern", "li") in texts and ("Slow Play\tWarning", "tr") in texts
    assert [link.href for link in source.links] == ["#mtr2-5"]


def test_plain_text_rule_documents_are_not_taken_for_markdown():
    for name in ("cr-2026-01-16.txt", "mtr-2026-02-27.txt", "ipg-2024-09-23.txt", "mtr-2012-03-20-numegil.txt"):
        assert read_bytes((CORPUS / name).read_bytes(), name).format == "text", name


def test_a_file_of_markup_and_no_words_is_read_as_the_text_it_is():
    # "# #" is an empty Markdown heading: read as Markdown the file would hold nothing, so it is read as text
    source = read_bytes(b"# #\n# #\n", "odd.txt")
    assert source.format == "text" and [line.text for line in source.lines][:2] == ["# #", "# #"]
