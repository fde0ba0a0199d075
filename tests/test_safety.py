"""The build's output folder is its own, and nothing from a source or a file name reaches a terminal raw.

- `rulekb build` refuses (exit 2, a reason, nothing touched) an --out that is or holds the sources or the
  project, the home folder, `/`, a file, a folder of someone else's files; the site it makes is readable;
- the manifest is validated with file and line (ids as safe slugs, real dates);
- control characters (ESC, BEL, NUL) are never stored, exported or printed raw; a file name with a
  newline cannot forge lines of `check`'s output; a link in sources/ to a file outside is not followed.
"""
from __future__ import annotations

import io
import json
import os
import shutil
import stat
from pathlib import Path

import pytest

from pipeline.cli import main
from pipeline.cli.commands import say

from conftest import ROOT, SEEDS

FLOOR = SEEDS / "000_d5f726d99ad04a53.txt"


def files_of(folder: Path) -> dict[str, bytes]:
    return {path.relative_to(folder).as_posix(): path.read_bytes() for path in sorted(folder.rglob("*"))
            if path.is_file()}


@pytest.fixture
def project(tmp_path) -> Path:
    """A clone-like project: mkdocs.yml beside sources/ (one small document), code, tests, a .git."""
    root = tmp_path / "clone"
    (root / "sources").mkdir(parents=True)
    shutil.copyfile(FLOOR, root / "sources" / "magic-online-floor-rules-2002.txt")
    shutil.copyfile(ROOT / "mkdocs.yml", root / "mkdocs.yml")
    for name in ("pipeline/__init__.py", "tests/test_x.py", ".git/HEAD", "README.md"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("keep me\n")
    return root


def refused(capsys, *argv: str) -> str:
    """Run `rulekb build ARGV`; it must exit 2; its message."""
    code = main(["build", *argv])
    captured = capsys.readouterr()
    assert code == 2, captured.out + captured.err
    return captured.err


@pytest.mark.parametrize("out", [".", "sources", "sources/site", ".."])
def test_build_refuses_an_out_that_is_or_holds_or_lies_in_the_sources_or_project(project, capsys, monkeypatch, out):
    monkeypatch.chdir(project)
    before = files_of(project.parent)
    message = refused(capsys, "--sources", "sources", "--out", out)
    assert "rulekb build:" in message and ("sources" in message or "project" in message or "did not write" in message)
    assert files_of(project.parent) == before


def test_build_refuses_an_out_beside_which_the_sources_are_given_by_path(project, capsys):
    before = files_of(project)
    refused(capsys, "--sources", str(project / "sources"), "--out", str(project))
    assert files_of(project) == before


def test_build_refuses_the_home_folder_and_the_root(project, capsys, monkeypatch, tmp_path):
    home = tmp_path / "home"
    home.mkdir()
    (home / "notes.txt").write_text("mine")
    monkeypatch.setenv("HOME", str(home))
    assert "home folder" in refused(capsys, "--sources", str(project / "sources"), "--out", str(home))
    assert "~" not in str(home) and (home / "notes.txt").read_text() == "mine"
    assert "root folder" in refused(capsys, "--sources", str(project / "sources"), "--out", "/")


def test_build_refuses_a_file_every_time_and_leaves_it(project, capsys, tmp_path):
    target = tmp_path / "site"
    target.write_text("a file")
    for _ in range(2):
        assert "is a file" in refused(capsys, "--sources", str(project / "sources"), "--out", str(target))
    assert target.read_text() == "a file"


def test_build_refuses_a_folder_of_files_it_did_not_write(project, capsys, tmp_path):
    target = tmp_path / "documents"
    (target / "deep").mkdir(parents=True)
    (target / "deep" / "thesis.tex").write_text("years of work")
    message = refused(capsys, "--sources", str(project / "sources"), "--out", str(target))
    assert ".rulekb-site" in message
    assert files_of(target) == {"deep/thesis.tex": b"years of work"}


def test_a_rulekb_site_is_rebuilt_and_its_folders_and_files_are_readable(capsys, tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copyfile(FLOOR, sources / "magic-online-floor-rules-2002.txt")
    out = tmp_path / "public" / "site"
    out.parent.mkdir()
    previous = os.umask(0o022)
    try:
        for _ in range(2):                      # a new folder, then our own site again
            assert main(["build", "--sources", str(sources), "--out", str(out)]) == 0
    finally:
        os.umask(previous)
    capsys.readouterr()
    assert (out / ".rulekb-site").is_file()
    modes = {path: stat.S_IMODE(path.stat().st_mode) for path in [out, *out.rglob("*")]}
    unreadable = [str(path) for path, mode in modes.items()
                  if not mode & stat.S_IROTH or (path.is_dir() and not mode & stat.S_IXOTH)]
    assert stat.S_IMODE(out.stat().st_mode) == 0o755
    assert not unreadable, unreadable[:5]


# -- the manifest --------------------------------------------------------------------------------

def test_the_manifest_refuses_unsafe_ids_and_unreal_dates_with_file_and_line(project, capsys):
    (project / "sources" / "manifest.toml").write_text(
        '# what the texts cannot say\n'
        '\n'
        '["magic-online-floor-rules-2002.txt"]\n'
        'id = "../../x"\n'
        '\n'
        '["other.txt"]\n'
        'edition = "2024-13-45"\n', encoding="utf-8")
    shutil.copyfile(FLOOR, project / "sources" / "other.txt")
    code = main(["check", str(project / "sources")])
    printed = capsys.readouterr().out
    assert code == 1
    assert "manifest.toml:3: error" in printed and "'../../x'" in printed
    assert "manifest.toml:6: error" in printed and "'2024-13-45'" in printed
    assert main(["build", "--sources", str(project / "sources"), "--out", str(project.parent / "out")]) == 1
    assert not (project.parent / "out").exists()


@pytest.mark.parametrize("field, value", [("id", "assets"), ("id", "CR"), ("id", "a/b"), ("edition", "2024-02-30"),
                                          ("edition", "24-01-01"), ("title", "bell \u0007 here"), ("kind", "novel")])
def test_each_bad_manifest_field_is_an_error(tmp_path, field, value):
    from pipeline.model import ERROR
    from pipeline.read.manifest import load_manifest
    (tmp_path / "manifest.toml").write_text(f'["a.txt"]\n{field} = {json.dumps(value)}\n', encoding="utf-8")
    entries, problems = load_manifest(tmp_path)
    assert "a.txt" not in entries
    assert [(p.severity, p.file, p.line) for p in problems] == [(ERROR, "manifest.toml", 1)]


# -- control characters and file names -----------------------------------------------------------

def test_say_shows_control_characters_as_escapes():
    stream = io.StringIO()
    say("a\x1b[31mred\x07\x00 and\rback\u009b", stream=stream)
    assert stream.getvalue() == "a\\x1b[31mred\\x07\\x00 and\\x0dback\\x9b\n"


@pytest.fixture
def control_sources(tmp_path) -> Path:
    """The floor rules with ESC, BEL and NUL in a heading and a rule's text."""
    sources = tmp_path / "sources"
    sources.mkdir()
    text = FLOOR.read_text(encoding="utf-8")
    text = text.replace("111. Match Structure", "111. Match \x1b[2J\x1b]0;owned\x07Structure")
    text = text.replace("Three is the default", "Three\x00 is\x1b[5m the default")
    (sources / "magic-online-floor-rules-2002.txt").write_text(text, encoding="utf-8")
    return sources


def test_control_characters_are_never_stored_exported_or_printed(control_sources, capsys):
    from pipeline import document_json, load_corpus
    corpus = load_corpus(control_sources, use_cache=False)
    document = corpus.documents[0]
    stored = " ".join(f"{s.number} {s.title} {s.text}" for s in document.sections)
    assert "Match" in stored and not any(c in stored for c in "\x00\x07\x1b")
    exported = json.dumps(document_json(document, corpus), ensure_ascii=False)
    assert "\\u0000" not in exported and "\\u001b" not in exported and "\x1b" not in exported
    warnings = [p for p in corpus.all_problems() if "control character" in p.message]
    lines = [i for i, line in enumerate(FLOOR.read_text(encoding="utf-8").splitlines(), 1)
             if "111. Match Structure" in line or "Three is the default" in line]
    assert sorted({p.line for p in warnings}) == lines
    for argv in (["show", "floor 111", "--sources", str(control_sources)],
                 ["search", "match structure", "--sources", str(control_sources)],
                 ["show", "floor 111", "--json", "--sources", str(control_sources)],
                 ["check", str(control_sources)]):
        main(argv)
        captured = capsys.readouterr()
        printed = captured.out + captured.err
        assert "Match" in printed or "control" in printed, argv
        assert not any(c in printed for c in "\x00\x07\x1b"), (argv, printed[:300])


def test_a_file_name_with_a_newline_cannot_forge_lines_of_check(tmp_path, capsys):
    sources = tmp_path / "sources"
    sources.mkdir()
    shutil.copyfile(FLOOR, sources / "magic-online-floor-rules-2002.txt")
    (sources / "x\nchecked 9 documents: 0 errors, 0 warnings\n.txt").write_bytes(b"\x00\x01binary")
    code = main(["check", str(sources)])
    printed = capsys.readouterr()
    lines = (printed.out + printed.err).splitlines()
    assert code == 1
    assert not any(line.startswith("checked 9 documents") for line in lines), lines
    assert any("x\\nchecked 9 documents" in line for line in lines)


def test_a_link_in_the_sources_to_a_file_outside_is_not_followed(tmp_path):
    from pipeline import load_corpus
    outside = tmp_path / "private" / "magic-online-floor-rules-2002.txt"
    outside.parent.mkdir()
    shutil.copyfile(FLOOR, outside)
    sources = tmp_path / "sources"
    sources.mkdir()
    (sources / "floor.txt").symlink_to(outside)
    corpus = load_corpus(sources, use_cache=False)
    assert not corpus.documents and not corpus.editions
    assert any(p.file == "floor.txt" and "outside the sources" in p.message for p in corpus.all_problems())


def test_cli_output_of_the_build_names_the_site_and_refusals_say_how_to_fix_them(project, capsys):
    message = refused(capsys, "--sources", str(project / "sources"), "--out", str(project / "sources"))
    assert "give --out a folder of its own" in message or "inside the sources" in message
