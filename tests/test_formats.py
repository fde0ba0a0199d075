"""The CR published as Word (.docx) and as RTF reads as the TXT of the same edition does.

Each DOCX and RTF of tests/fixtures/formats (the RTFs xz-compressed) is parsed beside its edition's
TXT (tests/fixtures/corpus; the 2009 and 2011 ones from cr-archive.tar.xz). Both must give the same
section numbers in order, titles, kinds and parents, the same glossary terms, the same texts,
examples, glossary definitions, front matter and credits, and the same problems.

The texts are compared exactly for 2026, whose TXT is UTF-8. The older TXTs are ASCII renderings of
the document, and only what each one changes is folded, on both sides (each step is shown to be needed):
- "quotes": ‘ ’ become ', “ ” become " (2019, 2011, 2009);
- "marks": ™ ® © become (TM) (R) (C), and (tm) (r) (c) are upper-cased (2019 writes them so);
- "dashes": an em dash, en dash, "--" or hyphen, with the spaces around it, becomes "-" (the TXTs
  write an em dash "-", "--" or " -- ", an en dash "-");
- "italics": underscores go (2009 and 2011 write italics as _Magic_);
- "links": <...> around an address goes (2009 and 2011: <www.wizards.com/locator>);
and then runs of whitespace become one space.

One real difference remains and is asserted as such: in 2011 the TXT writes the customer service
address as its own line "<www.wizards.com/customerservice>", which starts a credits block; the RTF's
"www.wizards.com/customerservice" starts in lower case and goes on with the block above it.
"""
from __future__ import annotations

import io
import lzma
import re
import shutil
import subprocess
import sys
import zipfile
from functools import cache

import docx
import pytest

from pipeline.model import DocumentInfo
from pipeline.parse import parse
from pipeline.read import SourceError, read_bytes

from conftest import FIXTURES, frozen_document

pytestmark = pytest.mark.slow             # whole CR editions (DOCX, RTF) against their TXT: not in make fast

FORMATS = FIXTURES / "formats"
QUOTES = str.maketrans({"‘": "'", "’": "'", "“": '"', "”": '"'})
MARKS = str.maketrans({"™": "(TM)", "®": "(R)", "©": "(C)"})
FOLDS = {
    "quotes": lambda text: text.translate(QUOTES),
    "marks": lambda text: re.sub(r"\((?:tm|r|c)\)", lambda m: m.group(0).upper(), text.translate(MARKS)),
    "dashes": lambda text: re.sub(r"\s*(?:—|–|--?)\s*", "-", text),
    "italics": lambda text: text.replace("_", ""),
    "links": lambda text: re.sub(r"<(\S+?)>", r"\1", text),
}
# Each published file, the TXT of its edition, and the folds its TXT needs.
EDITIONS = {
    "cr-2026-01-16.docx": ("cr-2026-01-16.txt", ()),
    "cr-2019-01-25.docx": ("cr-2019-01-25.txt", ("quotes", "marks", "dashes")),
    "cr-2011-09-30.rtf": ("cr-2011-09-30.txt", ("quotes", "marks", "dashes", "italics", "links")),
    "cr-2009-10-01.rtf": ("cr-2009-10-01.txt", ("quotes", "marks", "dashes", "italics", "links")),
}
# Credits blocks of the TXT that are one block in the published file (see the module's docstring).
JOINED_CREDITS = {"cr-2011-09-30.rtf": ("U.S., Canada, Asia Pacific & Latin America",
                                        "<www.wizards.com/customerservice>")}


def published(name: str) -> bytes:
    path = FORMATS / name
    return path.read_bytes() if path.exists() else lzma.decompress((FORMATS / (name + ".xz")).read_bytes())


def info(name: str) -> DocumentInfo:
    return DocumentInfo(id="cr", kind="cr", title="Comprehensive Rules", edition=None, source=name)


@cache
def parsed(name: str):
    """(source, document) of a published file, and (source, document) of its edition's TXT."""
    source = read_bytes(published(name), name)
    text_name = EDITIONS[name][0]
    text_source = read_bytes(frozen_document(text_name), text_name)
    return (source, parse(source, info(name))), (text_source, parse(text_source, info(text_name)))


def fold(text: str, steps) -> str:
    for step in steps:
        text = FOLDS[step](text)
    return " ".join(text.split()) if steps else text


def texts(document, steps) -> dict[str, list[str]]:
    """Everything compared, folded: per section its title and texts, then glossary, front matter and credits."""
    out = {f"{s.number} {s.kind} {s.parent}": [fold(t, steps) for t in (s.title, s.text, *s.examples)]
           for s in document.sections}
    out["glossary"] = [fold(f"{entry.term}: {entry.text}", steps) for entry in document.glossary]
    out["front matter"] = [fold(block.text, steps) for block in document.front_matter]
    out["credits"] = [fold(block.text, steps) for block in document.credits]
    return out


def differences(name: str, steps) -> list[str]:
    (_, ours), (_, theirs) = parsed(name)
    mine, other = texts(ours, steps), texts(theirs, steps)
    if name in JOINED_CREDITS:
        first, second = (fold(part, steps) for part in JOINED_CREDITS[name])
        credits = other["credits"]
        at = credits.index(first)
        assert credits[at + 1] == second
        credits[at:at + 2] = [f"{first} {second}"]
    return [key for key in mine.keys() | other.keys() if mine.get(key) != other.get(key)]


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_the_published_file_has_the_sections_terms_and_examples_of_its_txt(name):
    (source, ours), (_, theirs) = parsed(name)
    assert source.format == name.rsplit(".", 1)[1]
    assert [s.number for s in ours.sections] == [s.number for s in theirs.sections]
    assert [(s.kind, s.parent) for s in ours.sections] == [(s.kind, s.parent) for s in theirs.sections]
    steps = EDITIONS[name][1]
    assert [fold(e.term, steps) for e in ours.glossary] == [fold(e.term, steps) for e in theirs.glossary]
    assert [len(s.examples) for s in ours.sections] == [len(s.examples) for s in theirs.sections]
    assert len(ours.sections) > 1700 and len(ours.glossary) > 400 and ours.info.complete


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_the_published_file_has_the_texts_of_its_txt_after_the_minimal_folding(name):
    steps = EDITIONS[name][1]
    assert differences(name, steps) == []
    for step in steps:   # each fold is needed: without it, something differs
        assert differences(name, [other for other in steps if other != step]), step


@pytest.mark.parametrize("name", sorted(EDITIONS))
def test_the_published_file_has_the_problems_of_its_txt(name):
    (_, ours), (_, theirs) = parsed(name)
    def said(document):
        return [(p.severity, re.sub(r"line \d+", "line N", p.message)) for p in document.problems]
    assert said(ours) == said(theirs)


def test_the_format_and_the_code_page_are_told():
    for name, (format_, encoding) in {"cr-2026-01-16.docx": ("docx", "docx"), "cr-2019-01-25.docx": ("docx", "docx"),
                                      "cr-2011-09-30.rtf": ("rtf", "cp1252"),
                                      "cr-2009-10-01.rtf": ("rtf", "mac_roman")}.items():
        source = parsed(name)[0][0]
        assert (source.format, source.encoding, source.problems) == (format_, encoding, ())


def test_a_docx_line_number_is_its_paragraph_number():
    name = "cr-2026-01-16.docx"
    (source, document), _ = parsed(name)
    paragraphs = [paragraph.text for paragraph in docx.Document(io.BytesIO(published(name))).paragraphs]
    for section in document.sections:
        assert paragraphs[section.line - 1].startswith(section.number), section.number
    for entry in document.glossary:
        assert paragraphs[entry.line - 1] == entry.term
    # A paragraph's line breaks make lines of its number: the senses of "Ability" stay apart.
    ability = next(entry for entry in document.glossary if entry.term == "Ability")
    assert ability.text.startswith("1. Text on an object that explains what that object does or can do.\n2. An ")
    lines = [line for line in source.lines if line.number == ability.line + 1]
    assert len(lines) == 3 and lines[1].text.startswith("2. An activated or triggered ability")


def made_docx(build) -> bytes:
    document = docx.Document()
    build(document)
    out = io.BytesIO()
    document.save(out)
    return out.getvalue()


def test_docx_breaks_tabs_headings_and_tables_never_glue_words():
    def build(document):
        document.add_heading("Magic Tournament Rules", level=0)
        document.add_heading("1. Tournament Fundamentals", level=1)
        paragraph = document.add_paragraph("first line")
        paragraph.add_run().add_break()
        paragraph.add_run("second\tline")
        table = document.add_table(rows=1, cols=2)
        table.cell(0, 0).text = "Slow Play"
        table.cell(0, 1).text = "Warning"
        document.add_paragraph("")
        document.add_paragraph("after the table")
    source = read_bytes(made_docx(build), "made.docx")
    assert [(line.number, line.text, line.hint) for line in source.lines] == [
        (1, "Magic Tournament Rules", "h1"), (2, "1. Tournament Fundamentals", "h1"), (3, "first line", ""),
        (3, "second\tline", ""), (4, "Slow Play\tWarning", "tr"), (5, "", ""), (6, "after the table", "")]


def zipped(files: dict[str, bytes]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name, data in files.items():
            archive.writestr(name, data)
    return out.getvalue()


@pytest.mark.parametrize("case, message", [
    ("truncated", "damaged or truncated"),
    ("no document.xml", "not a Word document: it has no word/document.xml"),
    ("broken XML", "the Word document is damaged"),
])
def test_a_broken_docx_is_a_source_error_with_a_clear_message(case, message):
    data = published("cr-2019-01-25.docx")
    with zipfile.ZipFile(io.BytesIO(data)) as archive:
        members = {name: archive.read(name) for name in archive.namelist()}
    broken = {"truncated": data[:len(data) // 2],
              "no document.xml": zipped({"mimetype": b"application/zip", "notes.txt": b"not a document"}),
              "broken XML": zipped({**members, "word/document.xml": b"<w:document><w:body>"})}[case]
    with pytest.raises(SourceError) as raised:
        read_bytes(broken, "broken.docx")
    assert message in raised.value.problem.message
    assert raised.value.problem.file == "broken.docx"


RTF = r"{\rtf1\ansi\ansicpg%d\uc1{\fonttbl{\f0\fnil\fcharset0 Times;}}\f0 %s\par}"


@pytest.mark.parametrize("code_page, body, expected", [
    (1252, r"caf\'e9 \'93quoted\'94", "café “quoted”"),
    (10000, r"\'d2quoted\'d3 Dand\'88n", "“quoted” Dandàn"),               # Mac Roman, as the 2009 CR
    (1252, r"\u8220\'93Partner\u8221\'94 \u8212- x", "“Partner” — x"),     # \uN and its fallback, skipped
    (1252, r"smile \u-10179?\u-8704?", "smile \U0001F600"),                 # a surrogate pair, paired again
    (1252, r'see {\field{\*\fldinst{HYPERLINK "http://x.com"}}{\fldrslt{\ul rule 100}}} now', "see rule 100 now"),
    (1252, r"one\line two\tab three\par four", "one\ntwo\tthree\nfour"),
])
def test_rtf_escapes_code_pages_and_fields(code_page, body, expected):
    source = read_bytes((RTF % (code_page, body)).encode("ascii"), "made.rtf")
    assert source.format == "rtf"
    assert "\n".join(line.text for line in source.lines) == expected


def run(*args):
    return subprocess.run([sys.executable, "-m", "pipeline", *args], capture_output=True, text=True, timeout=300)


@pytest.mark.parametrize("name", ["cr-2026-01-16.docx", "cr-2009-10-01.rtf"])
def test_rulekb_check_on_a_folder_with_the_published_file_passes(tmp_path, name):
    if (FORMATS / name).exists():
        shutil.copyfile(FORMATS / name, tmp_path / name)
    else:
        (tmp_path / name).write_bytes(published(name))
    result = run("check", str(tmp_path))
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert "Traceback" not in result.stderr
    assert result.stdout.strip().splitlines()[-1].startswith("checked 1 documents")
