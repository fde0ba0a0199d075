"""Shared fixtures. Tests read frozen copies of real documents in tests/fixtures, never the live
sources/, and write only into temporary folders (the parse cache included)."""
from __future__ import annotations

import contextlib
import fcntl
import hashlib
import io
import os
import shutil
import subprocess
import tarfile
import tomllib
from pathlib import Path

import pytest

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
# The build's date decides which editions are in force: the suite's is fixed (2026-11-25, UTC noon), so
# that what it sees does not depend on the day it runs.
os.environ["SOURCE_DATE_EPOCH"] = "1795608000"

ROOT = Path(__file__).resolve().parent.parent
NODE = shutil.which("node") or shutil.which("nodejs")


def node_or_skip(what: str) -> str:
    """Node's path, for tests running the site's scripts under it; a skip on a machine without Node, a failure
    where the run requires it (RULEKB_REQUIRE_BROWSER, as CI sets)."""
    if NODE is None:
        if os.environ.get("RULEKB_REQUIRE_BROWSER"):
            pytest.fail(f"{what} need Node (apt-get install nodejs)", pytrace=False)
        pytest.skip(f"no node on this machine: {what} are skipped (apt-get install nodejs)")
    return NODE


def rulekb(*args) -> subprocess.CompletedProcess:
    """`rulekb ARGS` in the test's process: the command line's own parsing, printing and exit code, as a finished
    process gives them, without a process's start (the tests of what a new process loads start one)."""
    from pipeline.cli import main
    out, err = io.StringIO(), io.StringIO()
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        code = main(list(args))
    return subprocess.CompletedProcess(["rulekb", *args], code, out.getvalue(), err.getvalue())


FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = FIXTURES / "corpus"
SEEDS = FIXTURES / "seeds"
FROZEN = FIXTURES / "sources"            # files.toml + manifest.toml: the frozen copy of sources/
PDFTOTEXT = FIXTURES / "pdftotext.tar.xz"   # pdftotext's output (default and -layout) of each corpus PDF
CR_ARCHIVE = FIXTURES / "cr-archive.tar.xz"  # every CR edition's TXT, 2003-2026

PARSE_CACHE_OF_OUTER_SUITE = "RULEKB_OUTER_SUITE_CACHE"
FOLDER_OF_OUTER_SUITE = "RULEKB_OUTER_SUITE_FOLDER"
pytest_plugins = ["scheduling"]           # the order in which xdist's workers take the modules


def pdftotext_names() -> list[str]:
    """The text files in the pdftotext archive ("ipg-2021-02-05.pdftotext-layout.txt", ...)."""
    with tarfile.open(PDFTOTEXT, "r:xz") as archive:
        return sorted(name for name in archive.getnames() if name.endswith(".txt"))


def frozen_document(name: str) -> bytes:
    """A frozen document's bytes: from tests/fixtures/corpus, else the CR archive's edition of that name."""
    if (CORPUS / name).exists():
        return (CORPUS / name).read_bytes()
    with tarfile.open(CR_ARCHIVE, "r:xz") as archive:
        return archive.extractfile(name).read()


def frozen_sources(folder: Path) -> Path:
    """Assemble the frozen copy of the project's sources/ in `folder` (names as in sources/)."""
    folder.mkdir(parents=True, exist_ok=True)
    files = tomllib.loads((FROZEN / "files.toml").read_text(encoding="utf-8"))
    for name, fixture in files.items():
        shutil.copyfile(FIXTURES / fixture, folder / name)
    shutil.copyfile(FROZEN / "manifest.toml", folder / "manifest.toml")
    return folder


def pytest_collection_modifyitems(items):
    """A test that uses a `browser` fixture (Chromium) is a browser test, and one that reads the whole site built
    from the frozen sources (`built_site`) a slow one, marked or not: the fast lane (`make fast`, -m "not slow and
    not browser and not node") never starts a browser nor builds that site."""
    for item in items:
        fixtures = getattr(item, "fixturenames", ())
        if "browser" in fixtures:
            item.add_marker(pytest.mark.browser)
        if "built_site" in fixtures:
            item.add_marker(pytest.mark.slow)


def session_folder(tmp_path_factory) -> Path:
    """The folder of the test session that pytest-xdist's workers share."""
    base = tmp_path_factory.getbasetemp()
    worker = os.environ.get("PYTEST_XDIST_WORKER")
    # the session's folder, above each worker's own; only in a worker's own folder (a pytest run inside a test
    # inherits the variable, but not the folder: it must not share the folder above it with other sessions)
    if worker and base.name == f"popen-{worker}":
        base = base.parent
    return base


def made_once(tmp_path_factory, name: str, make=None, base: Path | None = None) -> Path:
    """A folder of the test session that pytest-xdist's workers share: made by the first worker that asks
    (`make(folder)`), under a lock, and used as it is by the others (the recipe of xdist's documentation), so
    that the frozen sources are parsed and the site built once, not once a worker. (In `base` if given.)"""
    base = base or session_folder(tmp_path_factory)
    folder, done = base / name, base / f"{name}.made"
    with open(base / f"{name}.lock", "w") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        if not done.exists():
            shutil.rmtree(folder, ignore_errors=True)
            folder.mkdir(parents=True)
            if make is not None:
                make(folder)
            done.write_text("")
    return folder


@pytest.fixture(scope="session", autouse=True)
def temporary_cache(tmp_path_factory):
    """The whole suite's parse cache lives in a temporary folder, never in the repository (shared by the
    workers: an entry is written whole or not at all). A test suite run inside a test (a copy of the project
    with a new edition) is handed the outer suite's, by PARSE_CACHE_OF_OUTER_SUITE: what both parse is parsed once."""
    outer = os.environ.get(PARSE_CACHE_OF_OUTER_SUITE)
    folder = Path(outer) if outer else made_once(tmp_path_factory, "cache")
    # the semantic model's outputs per token depend on the model alone: one distillation for the whole suite,
    # however many caches its builds start from (a rebuild's, a wheel's, a copy of the project's)
    model_outputs = Path(os.environ.get("RULEKB_MODEL_CACHE") or folder / "model-outputs")
    previous = {name: os.environ.get(name) for name in ("RULEKB_CACHE", "RULEKB_MODEL_CACHE")}
    os.environ["RULEKB_CACHE"] = str(folder)      # read at each use, and inherited by subprocesses
    os.environ["RULEKB_MODEL_CACHE"] = str(model_outputs)
    yield folder
    for name, value in previous.items():
        if value is None:
            os.environ.pop(name, None)
        else:
            os.environ[name] = value


def shared_folder(tmp_path_factory) -> Path:
    """Where the frozen sources and their site are made: this session's folder, or in a test suite run inside a
    test, the outer suite's (FOLDER_OF_OUTER_SUITE), so that what both make of the same inputs is made once."""
    outer = os.environ.get(FOLDER_OF_OUTER_SUITE)
    return Path(outer) if outer else session_folder(tmp_path_factory)


def digest_of_files(*folders: Path, extra: str = "") -> str:
    """A digest of the files below `folders` (names and bytes; Python's bytecode caches left out)."""
    digest = hashlib.sha256(extra.encode())
    for folder in folders:
        for path in sorted(folder.rglob("*")):
            if path.is_file() and "__pycache__" not in path.parts:
                name = path.relative_to(folder).as_posix()
                digest.update(f"{folder.name}/{name}\0{path.stat().st_size}\0".encode() + path.read_bytes())
    return digest.hexdigest()[:20]


@pytest.fixture(scope="session")
def sources_dir(tmp_path_factory) -> Path:
    """A temporary project: the frozen sources (read-only use), in a folder named by a digest of their bytes (a
    suite run inside a test, handed the outer suite's folder, uses the outer suite's project where its sources
    are the same: the index the outer build kept for them; other sources, a project of their own)."""
    return project_of(tmp_path_factory, frozen_sources(tmp_path_factory.mktemp("assembled") / "sources"))


def project_of(tmp_path_factory, assembled: Path) -> Path:
    """The sources folder of a temporary project holding a copy of `assembled` (read-only use), named by a digest
    of their bytes, in the folder this session shares with a suite run inside a test (`shared_folder`)."""
    name = f"project-{digest_of_files(assembled)}"
    return made_once(tmp_path_factory, name, lambda project: shutil.copytree(assembled, project / "sources"),
                     base=shared_folder(tmp_path_factory)) / "sources"


def parsed_once(tmp_path_factory, sources_dir: Path) -> None:
    """The frozen sources parsed into the shared cache by one worker, so that the corpus and the site's build
    never parse them twice at the same time on the two workers."""
    from pipeline import load_corpus
    made_once(tmp_path_factory, "parsed", lambda _: load_corpus(sources_dir))


@pytest.fixture(scope="session")
def frozen_corpus(tmp_path_factory, sources_dir):
    from pipeline import load_corpus
    parsed_once(tmp_path_factory, sources_dir)
    return load_corpus(sources_dir)


def build_inputs(sources: Path) -> str:
    """A digest of all a build of `sources` reads: their files, the project's configuration, the pipeline's own
    files (code, theme, assets) and the build's date."""
    configuration = (ROOT / "mkdocs.yml").read_text(encoding="utf-8") + os.environ.get("SOURCE_DATE_EPOCH", "")
    return digest_of_files(sources, ROOT / "pipeline", ROOT / "docs", extra=configuration)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, sources_dir):
    """The site (and its search index) built from the frozen sources, once per test session (read-only use), in
    a folder named by a digest of all the build reads: a suite run inside a test uses the outer suite's site where
    its inputs are the same byte for byte (sources, configuration, pipeline); other inputs, a site of their own.
    The search index the build kept for the frozen sources is held from then on (`held_index`), so that the
    search's tests, and a suite run inside a test, read it instead of writing it again."""
    from pipeline.search.in_use import release
    site = site_of(tmp_path_factory, sources_dir, before=lambda: parsed_once(tmp_path_factory, sources_dir))
    _, handle = held_index(sources_dir)
    yield site
    release(handle)


def site_of(tmp_path_factory, sources: Path, before=None) -> Path:
    """The site built from a project's `sources` (`project_of`), once for the session and a suite run inside a test,
    in a folder named by a digest of all the build reads (read-only use); `before()` is called first if given."""
    from pipeline import api

    def build(folder: Path) -> None:
        if before is not None:
            before()
        api.build(sources, folder / "site", config=ROOT / "mkdocs.yml")
    return made_once(tmp_path_factory, f"built-{build_inputs(sources)}", build,
                     base=shared_folder(tmp_path_factory)) / "site"


def held_index(sources_dir: Path) -> tuple[Path, int]:
    """The frozen sources' search index (the one kept in the cache, else written) and a reader's hold on it
    (in_use), to be released at the end of the session: other tests write indexes of other sources into the same
    cache, and their pruning would take it between two modules' readers, to be written again."""
    from pipeline.search.in_use import hold
    from pipeline.search.indexing import index_for_sources
    for _ in range(3):           # (pruned between being found and held: written again)
        folder = index_for_sources(sources_dir)
        handle = hold(folder)
        if handle is not None:
            return folder, handle
    pytest.fail(f"the frozen sources' search index at {folder} was pruned as soon as it was written")


@pytest.fixture(scope="session")
def sources_index(tmp_path_factory, sources_dir) -> Path:
    """The search index of the frozen sources, as `rulekb search` reads it: the one the site's build kept for them
    (search.indexing.keep_built) where the session built the site first, else written for them alone, once for
    the session (read-only use). The search's own tests need this, not the whole site. Held for the whole
    session (`held_index`)."""
    from pipeline.search.in_use import release
    from pipeline.search.indexing import index_for_sources
    parsed_once(tmp_path_factory, sources_dir)
    made_once(tmp_path_factory, "indexed", lambda _: index_for_sources(sources_dir))
    folder, handle = held_index(sources_dir)
    yield folder
    release(handle)


@pytest.fixture(scope="session")
def pdftotext_dir(tmp_path_factory) -> Path:
    """The pdftotext outputs unpacked into a temporary folder (CI need not have poppler)."""
    folder = tmp_path_factory.mktemp("pdftotext")
    with tarfile.open(PDFTOTEXT, "r:xz") as archive:
        for member in archive.getmembers():
            if member.isfile() and member.name.endswith(".txt") and "/" not in member.name:
                (folder / member.name).write_bytes(archive.extractfile(member).read())
    return folder
