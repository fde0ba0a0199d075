"""Rebuilding: only what changed is parsed and indexed again, and the result equals a fresh build."""
from __future__ import annotations

import filecmp
import shutil

from pipeline import load_corpus
from pipeline.search import KnowledgeBase
from pipeline.search import ensure_index, search
from pipeline.site import build_site
from conftest import SOURCES


def copy_sources(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    for name in ("ipg-2024-09-23.txt", "mtr-2026-02-27.txt", "magic-online-floor-rules-2002.txt", "manifest.toml"):
        shutil.copy(SOURCES / name, sources)
    return sources


def test_the_index_redoes_only_the_changed_document(tmp_path, monkeypatch):
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    sources = copy_sources(tmp_path)
    index = tmp_path / "index"
    first = ensure_index(load_corpus(sources), index)
    assert sorted(first["indexed"]) == ["floor", "ipg", "mtr"]
    mtr = sources / "mtr-2026-02-27.txt"
    text = mtr.read_text(encoding="utf-8")
    assert "There are two types of sanctioned" in text
    mtr.write_text(text.replace("There are two types of sanctioned", "There are two kinds of sanctioned", 1),
                   encoding="utf-8")
    second = ensure_index(load_corpus(sources), index)
    assert second["indexed"] == ["mtr"] and sorted(second["kept"]) == ["floor", "ipg"]
    kb = KnowledgeBase(index)
    assert search(kb, "ipg 2.1").results[0].id == "ipg:2.1"
    assert "two kinds of sanctioned" in kb.by_id("mtr:1.1").text
    assert len(kb) == sum(1 for _ in kb.searcher.all_stored_fields())


def test_a_rebuild_after_a_change_equals_a_build_from_scratch(tmp_path):
    sources = copy_sources(tmp_path)
    build_site(load_corpus(sources), tmp_path / "site")
    mtr = sources / "mtr-2026-02-27.txt"
    mtr.write_text(mtr.read_text(encoding="utf-8") + "\nA line added by the test.\n", encoding="utf-8")
    again = build_site(load_corpus(sources), tmp_path / "site")            # cached parses, unchanged pages reused
    assert again["rendered"] < again["pages"] / 2
    build_site(load_corpus(sources, use_cache=False), tmp_path / "fresh")  # everything parsed again
    comparison = filecmp.dircmp(tmp_path / "site", tmp_path / "fresh")

    def differences(cmp):
        found = list(cmp.diff_files) + list(cmp.left_only) + list(cmp.right_only)
        for sub in cmp.subdirs.values():
            found += differences(sub)
        return found
    assert differences(comparison) == []
