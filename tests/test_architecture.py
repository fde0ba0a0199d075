"""The shape of the code: the stages import one way only, each outside library sits behind one module,
the linter finds nothing, and the tests never depend on the live sources/."""
from __future__ import annotations

import os
import subprocess
import sys
import time
from pathlib import Path

import pytest

from conftest import ROOT, parsed_once

BIN = Path(sys.executable).parent


def test_the_import_contracts_hold():
    """import-linter (pyproject.toml [tool.importlinter]): no cycle, no back-edge, libraries behind one module."""
    result = subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    print(result.stdout[-3000:])
    assert result.returncode == 0, result.stdout[-3000:] + result.stderr[-2000:]
    assert "BROKEN" not in result.stdout and result.stdout.count("KEPT") >= 7
    assert "No import circle inside a package" in result.stdout


def test_an_import_circle_inside_a_package_breaks_the_contracts(tmp_path):
    """The contract against circles, as pyproject.toml words it, on a package whose modules import in a circle
    (a -> b -> c -> a, one of them inside a function, as a lazy import is): the checker fails."""
    import tomllib
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]
    circle = next(contract for contract in contracts if contract["type"] == "acyclic_siblings")
    package = tmp_path / "circled" / "inner"
    package.mkdir(parents=True)
    (tmp_path / "circled" / "__init__.py").write_text("")
    (package / "__init__.py").write_text("")
    (package / "a.py").write_text("from .b import B\nA = 1\n")
    (package / "b.py").write_text("from .c import C\nB = 1\n")
    (package / "c.py").write_text("C = 1\n\ndef later():\n    from .a import A\n    return A\n")
    (tmp_path / ".importlinter").write_text(
        f"[importlinter]\nroot_package = circled\n\n[importlinter:contract:circle]\nname = {circle['name']}\n"
        f"type = {circle['type']}\nancestors = circled\n")
    result = subprocess.run([str(BIN / "lint-imports"), "--no-cache"], cwd=tmp_path, capture_output=True, text=True,
                            timeout=120, env=dict(os.environ, PYTHONPATH=str(tmp_path)))
    assert result.returncode != 0 and "BROKEN" in result.stdout, result.stdout[-2000:]
    assert "circled.inner" in result.stdout


def test_the_linter_finds_nothing():
    result = subprocess.run([str(BIN / "ruff"), "check", "pipeline", "tests"], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stdout[-4000:]


# The live sources, the project's cache, and the material outside the repository (written in pieces so
# that this file does not name it).
FORBIDDEN_IN_TESTS = ('ROOT / "sources"', 'ROOT / ".cache"', "/".join(["", "work", "shared"]),
                      "/".join(["..", "shared"]))


def test_no_test_reads_the_live_sources_or_writes_into_the_project():
    """Tests use tests/fixtures (frozen copies) and temporary folders only."""
    offenders = []
    for path in (ROOT / "tests").glob("*.py"):
        text = path.read_text(encoding="utf-8")
        if path.name != Path(__file__).name and any(
                marker in text for marker in FORBIDDEN_IN_TESTS):
            offenders.append(path.name)
    assert not offenders, offenders


@pytest.mark.parametrize("module", ["pipeline.read", "pipeline.parse", "pipeline.corpus", "pipeline.api"])
def test_the_cli_s_light_commands_do_not_load_the_heavy_libraries(module):
    """`rulekb show` and `check` need neither whoosh nor mkdocs: importing the lower stages loads neither."""
    code = (f"import sys, {module}; heavy = [m for m in ('whoosh', 'mkdocs') if m in sys.modules]; "
            f"print(','.join(heavy))")
    result = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0, result.stderr
    assert result.stdout.strip() == "", result.stdout


# What `rulekb search` and `show` must not load once what they answer from is in the cache (a question asked of
# sources that have not changed): the readers, the parsers, the differ, the site, nor their libraries; nor whoosh,
# the pickled corpus's model, the API and the other commands (the answer comes from pipeline.built).
NOT_FOR_A_QUESTION = ("pipeline.read", "pipeline.parse", "pipeline.corpus", "pipeline.link", "pipeline.diff",
                      "pipeline.site", "pipeline.annotate", "bs4", "pypdfium2", "docx", "striprtf", "mkdocs",
                      "markdown", "yaml", "multiprocessing", "whoosh", "pipeline.search.index", "pipeline.model",
                      "pipeline.api", "pipeline.cli.commands", "numpy")
PROBE = ("import sys; from pipeline.cli import main; code = main(sys.argv[1:]); "
         "print('LOADED', *sorted(sys.modules), file=sys.stderr); sys.exit(code)")


def modules_loaded(*argv: str) -> set[str]:
    result = subprocess.run([sys.executable, "-c", PROBE, *argv], cwd=ROOT, capture_output=True, text=True,
                            timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    return set(result.stderr.rsplit("LOADED", 1)[1].split())


def settled(*folders: Path) -> None:
    """Wait until every file in `folders` was written SETTLED_SECONDS ago: the cache remembers only a settled
    file's hash, and a question that learns one writes the cache's digests (tempfile), which a question asked
    again of the same files does not."""
    from pipeline.cache import SETTLED_SECONDS
    newest = max((max(path.stat().st_mtime, path.stat().st_ctime) for folder in folders for path in folder.rglob("*")
                  if path.is_file()), default=0.0)
    time.sleep(max(0.0, newest + SETTLED_SECONDS + 0.1 - time.time()))


# (the first search makes the frozen sources' index in a subprocess: a large workload, out of the fast lane)
@pytest.mark.parametrize("command", [pytest.param("search", marks=pytest.mark.slow), "show"])
def test_a_question_at_the_terminal_imports_no_reader_parser_differ_or_site(command, tmp_path_factory, sources_dir):
    parsed_once(tmp_path_factory, sources_dir)
    argv = (command, "704.5k", "--sources", str(sources_dir))
    settled(sources_dir)
    modules_loaded(*argv)          # (the index and its search files, or the section store, kept if not yet there)
    settled(sources_dir, Path(os.environ["RULEKB_CACHE"]))
    loaded = modules_loaded(*argv)
    assert not [name for name in loaded if name.partition(".")[0] in NOT_FOR_A_QUESTION
                or any(name == module or name.startswith(module + ".") for module in NOT_FOR_A_QUESTION)], sorted(loaded)
    assert ("pipeline.search.ranking" in loaded) == (command == "search")
    assert "pipeline.built" in loaded
    # nor what only writing an index or reading the word lists needs
    assert not loaded & {"tomllib", "tempfile", "secrets"}, sorted(loaded & {"tomllib", "tempfile", "secrets"})
    assert "html" not in loaded if command == "show" else "textwrap" not in loaded   # (what the other prints needs)
    assert "_hashlib" not in loaded          # (OpenSSL: pipeline.cache hashes its keys without it)


def test_the_cache_s_short_hashes_are_hashlib_s_sha256():
    import hashlib

    from pipeline import cache
    for data in (b"", b"704.5k", "règle 704.5k\0".encode() * 1000):
        assert cache.short_sha256(data).hexdigest() == hashlib.sha256(data).hexdigest()
    assert cache.key("a", "b") == hashlib.sha256(b"\0a\0b").hexdigest() != cache.key("ab")


def test_help_imports_nothing_of_the_pipeline_but_the_kinds_names():
    probe = ("import sys\nfrom pipeline.cli import main\ntry:\n    main(['--help'])\nexcept SystemExit:\n    pass\n"
             "print('LOADED', *sorted(sys.modules), file=sys.stderr)")
    result = subprocess.run([sys.executable, "-c", probe], cwd=ROOT, capture_output=True, text=True, timeout=120)
    assert result.returncode == 0 and "usage: rulekb" in result.stdout, result.stderr[-2000:]
    loaded = set(result.stderr.rsplit("LOADED", 1)[1].split())
    assert sorted(name for name in loaded if name.startswith("pipeline")) == ["pipeline", "pipeline.cli", "pipeline.kinds"]
    assert "dataclasses" not in loaded          # (the kinds' records are named tuples: far cheaper to make)
