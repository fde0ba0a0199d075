"""Rebuilding: only what changed is parsed and compared again, and the result equals a fresh build."""
from __future__ import annotations

import filecmp
import re
from pathlib import Path

import pytest

import pipeline.corpus
import pipeline.diff.history
import pipeline.parallel
import pipeline.site.history_pages
from pipeline import api, cache

from conftest import ROOT, frozen_document

pytestmark = pytest.mark.slow             # five builds of real editions: outside the fast lane (make fast)

# What is checked is the rebuild (what is parsed, compared and written again), not a corpus: a document of each
# kind, and the CR's first editions of 2003 (the archive's, a third of today's size: most of a build's time is the
# search index of its text)
DOCUMENTS = ("ipg-2024-09-23.txt", "mtr-2026-02-27.txt", "cr-2003-03-15.txt")


@pytest.fixture
def own_cache(tmp_path):
    """A cache of this test's own, so that what it counts is what it did."""
    cache.use_folder(tmp_path / "cache")
    yield tmp_path / "cache"
    cache.use_folder(None)


def copy_sources(tmp_path, names=DOCUMENTS):
    sources = tmp_path / "sources"
    sources.mkdir()
    for name in names:
        (sources / name).write_bytes(frozen_document(name))
    return sources


def counting(monkeypatch, module, name):
    calls = []
    original = getattr(module, name)

    def counted(*args, **kwargs):
        calls.append(args)
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, counted)
    return calls


@pytest.fixture(scope="module")
def rebuilt(tmp_path_factory):
    """Three documents built, the MTR changed, then built again in the same folder with the same cache (the
    parses counted), and once more from scratch into another folder with another cache: what two tests read."""
    folder = tmp_path_factory.mktemp("rebuilt")
    cache.use_folder(folder / "cache")
    try:
        sources = copy_sources(folder)
        api.build(sources, folder / "site", config=ROOT / "mkdocs.yml")
        mtr = sources / "mtr-2026-02-27.txt"
        mtr.write_text(mtr.read_text(encoding="utf-8").replace("There are two types of sanctioned",
                                                                "There are two kinds of sanctioned", 1),
                       encoding="utf-8")
        with pytest.MonkeyPatch.context() as monkeypatch:
            monkeypatch.setattr(pipeline.parallel, "cores", lambda: 1)  # in this process, where the counting is
            parsed = counting(monkeypatch, pipeline.corpus, "parse_source")
            rebuild, _ = api.build(sources, folder / "site", config=ROOT / "mkdocs.yml")   # cached parses reused
        searched = api.search("types of sanctioned tournaments", sources).results[0].snippet
        shown = api.show("mtr 1.1", sources)["text"]
        cache.use_folder(folder / "another-cache")
        fresh, _ = api.build(sources, folder / "fresh", config=ROOT / "mkdocs.yml")       # everything parsed again
    finally:
        cache.use_folder(None)
    return {"parsed": [source.name for source, _ in parsed], "searched": searched, "shown": shown,
            "rebuild": rebuild, "fresh": fresh}


def test_a_rebuild_parses_again_only_the_changed_file(rebuilt):
    assert rebuilt["parsed"] == ["mtr-2026-02-27.txt"]
    assert "two kinds of sanctioned" in rebuilt["searched"] or "two kinds of sanctioned" in rebuilt["shown"]


def test_a_new_edition_is_compared_with_the_one_before_and_nothing_else(tmp_path, own_cache, monkeypatch):
    sources = copy_sources(tmp_path, ("cr-2003-03-15.txt", "cr-2003-07-01.txt"))
    api.build(sources, tmp_path / "site", config=ROOT / "mkdocs.yml")
    (sources / "cr-2003-10-01.txt").write_bytes(frozen_document("cr-2003-10-01.txt"))   # the newest edition arrives
    monkeypatch.setattr(pipeline.parallel, "cores", lambda: 1)  # in this process, where the counting is
    compared = counting(monkeypatch, pipeline.diff.history, "compare")
    parsed = counting(monkeypatch, pipeline.corpus, "parse_source")
    linked = counting(monkeypatch, pipeline.corpus, "link_corpus")
    highlighted = counting(monkeypatch, pipeline.site.history_pages, "pair_highlights")
    result, corpus = api.build(sources, tmp_path / "site", config=ROOT / "mkdocs.yml")
    assert [source.name for source, _ in parsed] == ["cr-2003-10-01.txt"]     # the others' parses are reused
    assert len(compared) == 1                                                # one new pair
    assert len(highlighted) == 1                                             # and its "What changed" page
    # the current documents, then the problems of the edition that was current: those of older ones are kept
    assert [[d.info.source for d in documents] for documents, *_ in linked][1:] == [
        ["cr-2003-07-01.txt"] + [d.info.source for d in corpus.documents if d.info.kind != "cr"]]
    assert corpus.document("cr").info.edition == "2003-10-01"
    assert (result.out / "changes" / "cr-2003-07-01--cr" / "index.html").is_file()
    assert (result.out / "changes" / "cr-2003-03-15--cr-2003-07-01" / "index.html").is_file()


def held(path: Path) -> bytes:
    """A file's bytes; a precompressed form's, decompressed."""
    import gzip

    import brotli
    data = path.read_bytes()
    return brotli.decompress(data) if path.suffix == ".br" else gzip.decompress(data) if path.suffix == ".gz" else data


SIZE = re.compile(rb'OFFLINE_BYTES = Number\("\d+"\)')


def test_a_rebuild_after_a_change_equals_a_build_from_scratch(rebuilt):
    first, second = rebuilt["rebuild"], rebuilt["fresh"]

    def differences(comparison, where=""):
        found = [f"{where}{name}" for name in comparison.left_only + comparison.right_only]
        for name in comparison.diff_files:
            left = f"{comparison.left}/{name}"
            right = f"{comparison.right}/{name}"
            # the generation's name is in the service worker, the search manifest and the site's marker (and in
            # the precompressed forms of the first two: compared by what they hold)
            # (the offline copy's size, in the service worker, is of files holding that name: it may differ by a byte)
            a = SIZE.sub(b"N", held(Path(left)).replace(first.generation.encode(), b"G"))
            b = SIZE.sub(b"N", held(Path(right)).replace(second.generation.encode(), b"G"))
            if a != b:
                found.append(f"{where}{name}")
        for name, sub in comparison.subdirs.items():
            found += differences(sub, f"{where}{name}/")
        return found
    assert differences(filecmp.dircmp(first.out, second.out, ignore=[".rulekb-site"])) == []
