"""Collect, then write: what the site is made of is collected first (the older editions read there, their
histories and comparisons kept, not the documents), and planning the site reads nothing from disk."""
from __future__ import annotations

import builtins
import io
import os
import shutil

import pytest

from pipeline import cache, load_corpus
from pipeline.diff.history import EditionSummary
from pipeline.site.collect import collect
from pipeline.site.plan import plan_site

from conftest import FIXTURES, SEEDS

FLOOR_RULES = SEEDS / "000_d5f726d99ad04a53.txt"
CR_EXCERPT = SEEDS / "002_75bbd6f8d1790816.txt"      # section 8 of the 2011 CR


@pytest.fixture
def sources(tmp_path):
    """Three editions of the floor rules (2002, 2003, and one that takes effect after the build's date) and an
    excerpt of the CR: a history, what will change, and an edition outside every chain."""
    folder = tmp_path / "sources"
    folder.mkdir()
    text = FLOOR_RULES.read_text(encoding="utf-8")
    (folder / "floor-2002.txt").write_text(text, encoding="utf-8")
    (folder / "floor-2003.txt").write_text(text.replace("Three is the default number", "Four is the default number"),
                                          encoding="utf-8")
    (folder / "floor-2027.txt").write_text(text.replace("Three is the default number", "Five is the default number"),
                                          encoding="utf-8")
    shutil.copyfile(CR_EXCERPT, folder / "cr-2011-02-04-multiplayer-excerpt.txt")
    manifest = (FIXTURES / "sources" / "manifest.toml").read_text(encoding="utf-8")
    excerpt = manifest[manifest.index('["cr-2011-02-04-multiplayer-excerpt.txt"]'):].split("\n\n")[0]
    (folder / "manifest.toml").write_text(
        excerpt + "\n\n" + "".join(f'["floor-{year}.txt"]\nkind = "floor"\nedition = "{year}-01-01"\n\n'
                                   for year in (2002, 2003, 2027)), encoding="utf-8")
    cache.use_folder(tmp_path / "cache")
    yield folder
    cache.use_folder(None)


def test_the_build_collects_histories_what_will_change_and_summaries_not_documents(sources):
    corpus = load_corpus(sources)
    build = collect(corpus)
    floor = build.histories["floor"]
    assert [info.edition for info in floor.editions] == ["2002-01-01", "2003-01-01"]
    assert [info.edition for info in build.previews["floor"].editions] == ["2003-01-01", "2027-01-01"]
    assert sorted(build.summaries) == sorted(info.id for info in corpus.editions if not info.current)
    assert any("Four is the default number" in wording.text for wording in floor.wordings.values())
    assert set(build.highlights) == {(floor.editions[0].id, floor.editions[1].id),
                                     tuple(info.id for info in build.previews["floor"].editions)}
    assert build.addresses.locations                         # every section's address, computed once
    # of the older editions, summaries are kept, not documents
    assert all(isinstance(summary, EditionSummary) for summary in build.summaries.values())


def test_planning_reads_nothing_from_disk(sources, monkeypatch, tmp_path):
    build = collect(load_corpus(sources))
    expected = plan_site(build, "test")      # once as usual (the package's own word lists are read once a process)
    shutil.move(sources, tmp_path / "gone")
    opened = []

    def refused(file, *args, **kwargs):
        opened.append(str(file))
        raise OSError(f"planning read {file}")

    def no_cache():
        raise AssertionError("planning used the cache")
    with monkeypatch.context() as patched:
        for module, name in ((io, "open"), (builtins, "open"), (os, "open")):
            patched.setattr(module, name, refused)
        patched.setattr(cache, "generation", no_cache)
        plan = plan_site(build, "test")
    assert opened == []
    assert plan.pages == expected.pages and plan.files == expected.files and plan.nav == expected.nav
    assert len([path for path in plan.pages if path.startswith("changes/")]) == 3     # two pairs and the list
