"""Reading bytes: every encoding and line-end style seen in the wild gives the same lines."""
from __future__ import annotations

import codecs

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from pipeline.read import SourceError, read_bytes

from conftest import CORPUS, SEEDS

CR_2026 = (CORPUS / "cr-2026-01-16.txt").read_bytes()
REFERENCE_TEXT = CR_2026.decode("utf-8-sig").replace("\r\n", "\n").replace("\r", "\n")
# The reader drops trailing spaces (they carry nothing and vary between conversions).
REFERENCE_LINES = [line.rstrip() for line in REFERENCE_TEXT.rstrip("\n").split("\n")]


def lines_of(data: bytes, name: str = "test.txt") -> list[str]:
    return [line.text for line in read_bytes(data, name).lines]


def test_bare_cr_file_splits_into_its_9253_lines():
    # `wc -l` sees 12 lines in this file: most of its line ends are bare CR.
    assert len(lines_of(CR_2026)) == len(REFERENCE_LINES) == 9253


@pytest.mark.parametrize("encoding, bom", [
    ("utf-8", b""), ("utf-8", codecs.BOM_UTF8), ("utf-16-le", codecs.BOM_UTF16_LE),
    ("utf-16-be", codecs.BOM_UTF16_BE),
])
@pytest.mark.parametrize("line_end", ["\n", "\r\n", "\r"])
def test_every_encoding_and_line_end_reads_the_same(encoding, bom, line_end):
    data = bom + line_end.join(REFERENCE_LINES).encode(encoding)
    assert lines_of(data) == REFERENCE_LINES


def test_windows_1252_file_keeps_its_curly_quotes():
    source = read_bytes((CORPUS / "cr-2015-09-26.txt").read_bytes(), "cr-2015-09-26.txt")
    assert source.encoding == "windows-1252"
    text = "\n".join(line.text for line in source.lines)
    assert "“" in text and "’" in text and "â€" not in text


def test_stray_code_page_byte_in_utf8_is_kept_and_reported():
    data = "Jötun Grunt costs “nothing”.\n".encode() * 3 + b"Lim-D\x96l's Vault\n"
    source = read_bytes(data, "stray.txt")
    assert source.lines[-1].text == "Lim-D–l's Vault"
    assert [(p.file, p.line) for p in source.problems] == [("stray.txt", 4)]


def test_mixed_line_ends_and_form_feeds():
    data = b"first\r\nsecond\rthird\n\x0cfourth\r\n"
    assert lines_of(data) == ["first", "second", "third", "fourth"]


@pytest.mark.parametrize("data, message", [
    (b"", "empty"),
    (b"   \n\n", "empty"),
    (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj", "PDF"),        # a PDF cut off after its header
    (bytes(range(256)) * 8, "binary"),
    (b"x" * (11 * 1024 * 1024), "MB"),
])
def test_unreadable_files_get_a_clear_message_naming_the_file(data, message):
    with pytest.raises(SourceError) as raised:
        read_bytes(data, "bad.txt")
    assert message in raised.value.problem.message
    assert raised.value.problem.file == "bad.txt"


def test_html_scripts_and_event_handlers_never_become_text():
    data = (b"<html><body><h1>1. Rules</h1><p onclick=\"alert(1)\">Safe text</p>"
            b"<script>alert('x')</script><p>more &lt;script&gt; as text</p>" + b"<p>x</p>" * 20 + b"</body></html>")
    source = read_bytes(data, "evil.html")
    texts = [line.text for line in source.lines]
    assert "Safe text" in texts and "more <script> as text" in texts
    assert not any("alert" in text for text in texts)
    assert any("<script>" in p.message for p in source.problems)


def test_html_inline_elements_join_the_words_around_them_as_a_browser_shows_them():
    """"four <a>Dispel</a>s" reads "four Dispels", in a paragraph and in a table cell; and that is no lost text
    (the 2020 IPG of the judges' blog)."""
    data = (b"<html><body><h1>1. Rules</h1><p>Their deck contains four <a href='x'>Dispel</a>s not listed.</p>"
            b"<table><tr><td><b>A.</b> two <i>Island</i>s<br>and a <a href='y'>Fores</a>t</td><td>Warning</td></tr>"
            b"</table>" + b"<p>x</p>" * 20 + b"</body></html>")
    source = read_bytes(data, "inline.html")
    texts = [line.text for line in source.lines]
    assert "Their deck contains four Dispels not listed." in texts
    assert "A. two Islands and a Forest\tWarning" in texts
    assert not [problem for problem in source.problems if "lost" in problem.message]


def test_html_headings_list_items_and_table_rows_carry_hints():
    source = read_bytes((SEEDS / "001_35b49a7900bc8bc7.txt").read_bytes(), "seed.html")
    assert source.format == "html"
    hints = {line.hint for line in source.lines}
    assert {"h4", "h5", "tr"} <= hints


@settings(max_examples=200, deadline=None)
@given(st.binary(max_size=2000))
def test_reading_arbitrary_bytes_never_raises_anything_but_source_error(data):
    try:
        read_bytes(data, "fuzz.bin")
    except SourceError as error:
        assert error.problem.file == "fuzz.bin"


@settings(max_examples=100, deadline=None)
@given(st.lists(st.text(alphabet=st.characters(blacklist_categories=("Cs", "Cc")),
                        min_size=1, max_size=40), min_size=1, max_size=20),
       st.sampled_from(["\n", "\r\n", "\r"]))
def test_any_text_round_trips_through_utf16_and_utf8(lines, line_end):
    lines = [line.rstrip() for line in lines]
    if not any(line.strip() for line in lines):
        return
    while lines and not lines[-1]:
        lines.pop()
    for data in (line_end.join(lines).encode("utf-8"), codecs.BOM_UTF16_LE + line_end.join(lines).encode("utf-16-le")):
        try:
            source = read_bytes(data, "t.txt")
        except SourceError:
            continue
        if source.format == "text":
            assert [line.text for line in source.lines] == lines


@pytest.mark.parametrize("name", sorted(path.name for path in CORPUS.glob("*.html")))
def test_every_html_of_the_corpus_reads_without_an_error(name):
    source = read_bytes((CORPUS / name).read_bytes(), name)
    assert not [problem for problem in source.problems if problem.severity == "error"], source.problems
