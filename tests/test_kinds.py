"""One registry of document kinds; detection weighs every kind's evidence; a document that breaks an
invariant is an error, marked incomplete, and says so on its pages."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

from pipeline import kinds
from pipeline.api import find_section
from pipeline.cli import main
from pipeline.corpus import load_corpus, load_document
from pipeline.model import ERROR, Document, DocumentInfo, GlossaryEntry, Problem
from pipeline.parse import PARSERS, parse, refs
from pipeline.read import read_bytes
from pipeline.read.detect import detect
from pipeline.read.manifest import load_manifest
from pipeline.search.question import number_kinds
from pipeline.site.pages import banner

from conftest import CORPUS

IPG_BODY = """
## 2.1. Game Play Error — Missed Trigger

**Penalty: No Penalty**

### Definition

A triggered ability triggers, but the player controlling it fails to demonstrate awareness of it.

## 2.2. Game Play Error — Looking at Extra Cards

**Penalty: Warning**

### Definition

A player takes an action that may have allowed them to see cards they were not entitled to see.

## 2.3. Game Play Error — Hidden Card Error

**Penalty: Warning**

### Definition

A player commits an error in the game that cannot be corrected by only publicly available information.
"""


def detected(text: str, name: str = "doc.md"):
    return detect(read_bytes(text.encode(), name))


def test_a_title_outweighs_a_sentence_naming_another_document():
    # An IPG whose opening paragraph sends Regular REL events to the JAR is still an IPG.
    text = ("# Magic Infraction Procedure Guide\n\nEffective March 3, 2031\n\n"
            "Tournaments held at Regular REL follow the Judging at Regular REL document instead of this one.\n"
            + IPG_BODY)
    assert detected(text).kind == "ipg"
    # ... and the same sentence first, above the title: a sentence is never a title.
    text = ("Events at Regular REL use the Judging at Regular REL document.\n\n"
            "# Infraction Procedure Guide\n" + IPG_BODY)
    assert detected(text).kind == "ipg"


def test_the_judging_at_regular_rel_names_the_other_documents_and_stays_itself():
    text = ("# Judging at Regular Rules Enforcement Level\n\nUpdated May 2, 2030\n\n"
            "For more serious events, the Infraction Procedure Guide and the Magic Tournament Rules apply.\n\n"
            "## Serious Problems\n\nSome things are never allowed.\n\n## Communication\n\nTalk to the players.\n")
    found = detected(text)
    assert found.kind == "jar" and not found.ambiguous


def test_numbering_alone_tells_a_document_without_a_title():
    rules = "".join(f"{100 + n // 10}.{n % 10 + 1}. A rule about the game number {n}.\n\n" for n in range(30))
    assert detected(rules, "rules.txt").kind == "cr"


def test_an_ambiguous_document_is_an_error_with_the_evidence(tmp_path):
    (tmp_path / "both.txt").write_text("Comprehensive Rules\n\nInfraction Procedure Guide\n\nSome notes of ours.\n")
    found = detect(read_bytes((tmp_path / "both.txt").read_bytes(), "both.txt"))
    assert found.kind is None and set(found.ambiguous) == {"cr", "ipg"}
    corpus = load_corpus(tmp_path, use_cache=False)
    [problem] = [p for p in corpus.problems if p.severity == ERROR]
    assert problem.file == "both.txt" and problem.line == 1
    assert "cannot tell whether this is the" in problem.message
    assert "title line 1" in problem.message and "title line 3" in problem.message
    assert "manifest" in problem.message


def test_an_unknown_document_says_what_was_looked_for(tmp_path):
    (tmp_path / "diary.txt").write_text("Dear diary,\nToday I played Magic with friends.\n" * 5)
    corpus = load_corpus(tmp_path, use_cache=False)
    [problem] = [p for p in corpus.problems if p.severity == ERROR]
    assert "cannot tell what document this is" in problem.message
    assert "no title line, opening sentence or numbering" in problem.message


def test_every_kind_has_its_parser_addresses_and_manifest_entry(tmp_path):
    for kind in kinds.KINDS:
        assert kind.parser in PARSERS, kind.id
        assert kinds.page_level(kind.id) == kind.page_level and kinds.short_name(kind.id) == kind.short
        assert kinds.order(kind.id) < len(kinds.KINDS)
        assert kinds.title(kind.id) == kind.title
    (tmp_path / "manifest.toml").write_text('["a.txt"]\nkind = "rulebook"\n')
    _, problems = load_manifest(tmp_path)
    assert problems and all(kind in problems[0].message for kind in kinds.IDS)


def test_a_bare_number_is_looked_for_where_its_numbering_fits(tmp_path):
    floor = ("The Magic Online DCI Floor Rules work with the other documents.\n\n"
             + "".join(f"11{n}. Heading {n}\nText of heading {n}.\n\n" for n in range(1, 7))
             + "112a. Game Clock\nEach player has a clock.\n")
    (tmp_path / "floor.txt").write_text(floor)
    corpus = load_corpus(tmp_path, use_cache=False)
    assert corpus.document("floor") is not None
    found = find_section(corpus, "112a")
    assert found is not None and found[1].number == "112a"
    # the search asks the same registry: "112a" is looked for in the floor rules, not said to be no CR rule
    assert number_kinds("112a") == ["floor"] and number_kinds("704.5k") == ["cr"]


# Where a module outside the registry may write a kind's id as a literal, and why.
KIND_LITERALS_ALLOWED = {
    "pipeline/kinds.py": "the registry itself",
    "pipeline/parse/__init__.py": "the parsers by name (a Kind's `parser` names one), not kinds",
    "pipeline/parse/cr.py": "a kind's parser reads its own kind's quirks",
    "pipeline/parse/jar.py": "a kind's parser reads its own kind's quirks",
    "pipeline/parse/mtr.py": "its two heading styles, MTR (1.1 Title) and floor rules (101. Title)",
    "pipeline/read/docx.py": "w:cr, Word's carriage return element, no kind",
    "pipeline/bench/annotating.py": "a benchmark's fixed workload (annotations on the CR), comparable run to run",
    "pipeline/bench/archive.py": "a benchmark's fixed workload (the CR 702 history page)",
    "pipeline/bench/building.py": "a benchmark's fixed workload (an MTR source edited)",
    "pipeline/bench/document_first.py": "a benchmark's fixed grouping (game rules, procedure, Regular REL) measured",
}


def _kind_literals(path) -> list[tuple[int, str]]:
    """The string literals of a module that are a kind's id ("cr", "jar"), docstrings aside."""
    tree = ast.parse(path.read_text())
    docstrings = {id(node.body[0].value) for node in ast.walk(tree)
                  if isinstance(node, (ast.Module, ast.ClassDef, ast.FunctionDef, ast.AsyncFunctionDef))
                  and node.body and isinstance(node.body[0], ast.Expr) and isinstance(node.body[0].value, ast.Constant)}
    return [(node.lineno, node.value) for node in ast.walk(tree)
            if isinstance(node, ast.Constant) and isinstance(node.value, str) and id(node) not in docstrings
            and node.value.lower() in kinds.IDS]


def test_only_the_registry_names_the_kinds():
    root = Path(__file__).resolve().parent.parent
    named = {str(path.relative_to(root)): found for path in sorted((root / "pipeline").rglob("*.py"))
             if (found := _kind_literals(path))}
    assert "pipeline/kinds.py" in named                 # the scan finds what it looks for
    assert {path: found for path, found in named.items() if path not in KIND_LITERALS_ALLOWED} == {}
    # the browser's scripts ask the registry too (the worker's rules, the manifest's documents)
    quoted = re.compile(rf"""["'](?:{"|".join(kinds.IDS)})["']""")
    scripts = {path.name: quoted.findall(path.read_text())
               for path in sorted((root / "pipeline" / "site" / "assets").glob("*.js"))}
    assert scripts and {name: found for name, found in scripts.items() if found} == {}
    # and what the registry says of the kinds' names reaches the reference reader
    assert {kind for _, kind in refs.DOCUMENT_NAMES} >= {kind.id for kind in kinds.KINDS}


def test_a_glossary_term_defined_twice_is_an_error_and_the_document_incomplete():
    text = ("1. Game Concepts\n\n100. General\n\n100.1. These rules apply.\n\nGlossary\n\n"
            "Attach\nTo move an Aura onto an object.\n\nBlock\nTo declare a blocker.\n\n"
            "Attach\nTo put an Equipment onto a creature.\n")
    source = read_bytes(text.encode(), "cr.txt")
    document = parse(source, DocumentInfo("cr", "cr", "Comprehensive Rules", None, "cr.txt"))
    errors = [p for p in document.problems if p.severity == ERROR]
    assert [p.line for p in errors] == [text.splitlines().index("Attach", 10) + 1]
    assert "'Attach' is defined again (first at line 9)" in errors[0].message
    assert document.info.complete is False


@pytest.mark.parametrize("name", ["cr-2015-09-26.txt", "ipg-2024-09-23.txt", "mtr-2026-02-27.txt"])
def test_a_truncated_document_fails_check_and_its_pages_say_why(tmp_path, capsys, name):
    data = (CORPUS / name).read_bytes()
    (tmp_path / "cut.txt").write_bytes(data[: len(data) // 2])
    document, problems = load_document(tmp_path / "cut.txt", use_cache=False)
    assert document is not None and not document.info.complete
    errors = [p for p in problems if p.severity == ERROR]
    assert errors and all(p.file == "cut.txt" and p.line for p in errors)
    assert main(["check", str(tmp_path)]) == 1
    assert f"cut.txt:{errors[0].line}: error:" in capsys.readouterr().out
    shown = banner(document)
    assert "did not pass its checks" in shown and f"line {errors[0].line}" in shown


def test_the_banner_shows_a_source_message_as_text():
    info = DocumentInfo("cr", "cr", "Comprehensive Rules", "2030-01-01", "cr.txt", complete=False)
    message = "glossary term '<script>alert(1)</script>' is defined again"
    document = Document(info, glossary=(GlossaryEntry("x", "y"),), problems=(Problem(ERROR, "cr.txt", 7, message),))
    shown = banner(document)
    assert "<script>" not in shown and "&lt;script&gt;" in shown and "line 7" in shown


@pytest.mark.slow
@pytest.mark.parametrize("name", sorted(path.name for path in CORPUS.iterdir()))
def test_every_document_of_the_corpus_is_told_with_a_clear_margin(name):
    found = detect(read_bytes((CORPUS / name).read_bytes(), name))
    assert found.kind == re.match(r"[a-z]+", name).group(0) and not found.ambiguous


def test_a_build_publishes_a_truncated_document_with_its_banner_but_refuses_an_unreadable_file(tmp_path, capsys):
    """An error the site itself shows (a document read but incomplete) does not stop the build; an error it
    cannot show (a file not understood at all) does, leaving no site."""
    sources = tmp_path / "sources"
    sources.mkdir()
    data = (CORPUS / "ipg-2024-09-23.txt").read_bytes()
    (sources / "ipg-2024-09-23.txt").write_bytes(data[: len(data) // 2])
    assert main(["build", "--sources", str(sources), "--out", str(tmp_path / "site")]) == 0
    err = capsys.readouterr().err
    assert "marked incomplete, published with a banner saying why: ipg-2024-09-23.txt" in err
    assert "error:" in err
    page = next((tmp_path / "site" / "ipg").rglob("index.html")).read_text()
    assert "did not pass its checks" in page

    (sources / "notes.txt").write_text("Shopping list\n\nEggs, milk and bread for the weekend.\n")
    assert main(["build", "--sources", str(sources), "--out", str(tmp_path / "other")]) != 0
    assert "notes.txt" in capsys.readouterr().err
    assert not (tmp_path / "other").exists()
