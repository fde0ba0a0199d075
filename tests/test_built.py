"""`rulekb search` and `show` answered from what was built for unchanged sources (pipeline.built): the same
answers as the full way (the whoosh engine, the corpus), scores included; and what tells that nothing changed
(a file's size, times and inode, its content hashed again only when they differ)."""
from __future__ import annotations

import json
import os
import re
import time
from itertools import islice

import pytest

from conftest import ROOT, rulekb


def _answers(kb, query: str, limit: int, kind):
    from pipeline.search.engine import search
    from pipeline.search.question import QueryError
    try:
        return search(kb, query, limit=limit, kind=kind).as_json()
    except QueryError as error:
        return str(error)


def _built(sources, query: str, limit: int, kind):
    from pipeline import built
    from pipeline.search.question import QueryError
    try:
        found = built.search(query, sources, limit=limit, kind=kind)
    except QueryError as error:
        return str(error)
    assert found is not None, f"nothing built answered {query!r}"
    return found.as_json()


@pytest.mark.slow          # 68 questions, each three ways, by both ways: outside the fast lane (make fast)
def test_a_search_from_the_kept_search_files_is_the_engine_s_answer(sources_dir, sources_index):
    """Numbers (known, unknown, with a document), words, abbreviations, misspelt questions, a judge's story,
    levels; --doc and --limit: built.search's answer (ranking on the published files read as needed) is the
    engine's on the whoosh index kept for the same sources, scores included."""
    from pipeline import api
    from pipeline.bench.serving import new_questions
    from pipeline.search.index import KnowledgeBase
    from pipeline.search.indexing import index_for_sources
    from pipeline.search.quality import read_questions
    api.search("704.5k", sources_dir)                     # the index (and its search files) kept, if not yet
    questions = [query for name in ("search.tsv", "situations.tsv")
                 for query, _ in islice(read_questions(ROOT / "tests" / "fixtures" / name), 25)]
    asked = (questions + list(islice(new_questions(questions), 15))
             + ["704.5k", "cr 704.5k", "ipg 2.1", "2.1", "rule 999.9", "appendix z", "GRV", "mtr", "concede",
                "missed trigger at competitive", "trampel", "", "   "])
    kb = KnowledgeBase(index_for_sources(sources_dir))
    try:
        for query in asked:
            for limit, kind in ((10, None), (3, "mtr"), (25, "cr")):
                assert _built(sources_dir, query, limit, kind) == _answers(kb, query, limit, kind), query
    finally:
        kb.close()


def test_a_build_s_index_is_kept_for_the_terminal_and_answers_as_the_terminal_s_own(built_site, sources_dir,
                                                                                    tmp_path, monkeypatch):
    """`rulekb build` keeps its index and its site's search files as the index of its sources (search.indexing.
    keep_built), so the first `rulekb search` after a build does not write the same index again: kept whole (no
    compressed copy, no marker of the site's), its answers are those of the index the terminal writes itself."""
    from pipeline.search import indexing
    from pipeline.search.indexing import PUBLISHED, index_for_sources, keep_built
    from pipeline.search.published import PublishedFiles
    from pipeline.search.ranking import answer
    from pipeline.site.publish import MARKER, index_folder
    generation = json.loads((built_site / MARKER).read_text())["generation"]
    kept = tmp_path / "indexes" / "kept"
    keep_built(kept, index_folder(built_site, generation), built_site / "search")
    assert (kept / PUBLISHED / "parents.json").is_file() and (kept / "state.json").is_file()
    assert not [path for path in kept.rglob("*") if path.suffix in (".br", ".gz") or path.name == MARKER]
    # the terminal's own index, written by it (not the build's, which the suite's build kept for these sources)
    monkeypatch.setattr(indexing, "_index_folder", lambda *_: tmp_path / "terminal" / "own")
    own = index_for_sources(sources_dir) / PUBLISHED
    for query in ("704.5k", "ipg 2.1", "GRV", "missed trigger", "player drew an extra card at competitive REL",
                  "my opponent forgot his upkeep trigger and I noticed two turns later. What do we do?"):
        assert (answer(PublishedFiles(kept / PUBLISHED), query, 10, None).as_json()
                == answer(PublishedFiles(own), query, 10, None).as_json()), query
    keep_built(kept, index_folder(built_site, generation), tmp_path / "nothing")      # kept once: never replaced
    assert (kept / PUBLISHED / "manifest.json").is_file()


@pytest.mark.slow                 # three builds (small ones): outside the fast lane (make fast)
def test_builds_of_other_sources_never_prune_an_index_being_read(tmp_path):
    """Each build keeps its index for its sources and prunes the cache's older ones (INDEXES_KEPT), but never one
    a reader holds: two builds of other sources while a KnowledgeBase reads the first's, and it is still there
    and answers; let go, the next pruning removes it (the oldest)."""
    from test_server import small_sources

    from pipeline import api, built, cache
    from pipeline.search.index import KnowledgeBase
    from pipeline.search.indexing import INDEXES_KEPT, _prune, folder_for_sources, index_for_sources
    cache.use_folder(tmp_path / "cache")
    try:
        first = small_sources(tmp_path / "first")
        api.build(first, tmp_path / "first-site")
        kept = folder_for_sources(first)
        assert (kept / "state.json").is_file() and index_for_sources(first) == kept     # no index written again
        reader = KnowledgeBase(kept)
        try:
            others = []
            for word in ("zymurgical", "quodlibet"):           # two builds of other sources, one after the other
                others.append(small_sources(tmp_path / word, extra_word=word))
                api.build(others[-1], tmp_path / f"{word}-site")
                time.sleep(0.01)                             # (folders' times a little apart)
            indexes = [path for path in kept.parent.iterdir() if not path.name.startswith(".")]
            assert len(indexes) == INDEXES_KEPT + 1 and kept.is_dir()    # one more than kept: the held one
            assert reader.by_number("111")[0].document.startswith("floor")
            assert reader.numbers("floor")
        finally:
            reader.close()
        assert built.search("default number", first) is not None     # read (and let go) as the terminal reads
        os.utime(kept, (1, 1))                             # (the oldest, whatever the file system's clock)
        _prune(folder_for_sources(others[-1]))
        assert not kept.exists() and folder_for_sources(others[-1]).is_dir()
        assert built.search("default number", first) is None        # gone: the full way writes it again
    finally:
        cache.use_folder(None)


def test_a_translation_s_question_or_another_edition_goes_the_full_way(sources_dir):
    from pipeline import annotate, built
    assert built.NOTES_FOLDER == annotate.FOLDER_NAME        # (where the notes are looked for by default)
    assert built.search("践踏", sources_dir) is None
    assert built.search("704.5k", sources_dir, edition="upcoming") is None
    assert built.search("704.5k", sources_dir / "no-such-folder") is None
    assert built.search("704.5k", sources_dir, annotations=sources_dir / "no-such-notes") is None


def test_the_section_store_finds_every_section_as_find_section_does(frozen_corpus, tmp_path):
    """Every id, number (bare, with a document's name), glossary id and term, and refs that are no section: the
    store finds what api.find_section finds, and gives api.show's view of it."""
    from pipeline import api, built
    path = tmp_path / "store.sections"
    built.write_store(path, api.section_store(frozen_corpus))
    store = built.SectionStore(path)
    refs = ["no:such", "9.9.9", "cr:", "", "  704.5k  ", "CR 704.5K", "City’s Blessing", "appendix a", "floor 111"]
    for document in frozen_corpus.documents:
        step = 9 if len(document.sections) > 500 else 1
        for section in document.sections[::step]:
            refs += [section.id, section.number, f"{document.info.kind} {section.number}"]
        for entry in document.glossary[::5]:
            refs += [api.glossary_id(document, entry), entry.term, entry.term.upper(), *entry.names]
    for ref in refs:
        found = api.find_section(frozen_corpus, ref)
        at = store.find(ref)
        if found is None:
            assert at is None, ref
            continue
        document, section = found
        view = store.view(ref)
        wanted = api.glossary_id(document, section) if hasattr(section, "term") else section.id
        assert (view["document"]["id"], view["id"]) == (document.id, wanted), ref
    for ref in ["cr:704.5k", "704.5k", "ipg 2.1", "mtr:appendix-a", "concede", "trample", "cr:100",
                "jar:common-issues", "cr:glossary/term-abandon", "floor 111", "mtr 3.3"]:
        assert store.view(ref) == json.loads(json.dumps(api.show(ref, corpus=frozen_corpus))), ref


def test_a_store_is_used_only_for_the_sources_it_was_made_of(tmp_path):
    """A changed file (same size, same modification time) makes the sources' store another one: none."""
    from pipeline import built, cache
    from pipeline.build_date import build_date
    sources = tmp_path / "sources"
    sources.mkdir()
    rule = sources / "rules.txt"
    rule.write_text("100.1. One rule.\n")
    os.utime(rule, (time.time() - 60, time.time() - 60))
    assert built.sections(sources) is None
    path = built.store_path(cache.folder_fingerprint(sources, build_date(), None))
    built.write_store(path, {"views": [{"id": "x:1"}], "ids": {"x x:1": 0}, "glossary": {}, "numbers": {},
                             "terms": {}})
    assert built.sections(sources).view("x:1") == {"id": "x:1"}
    before = rule.stat()
    rule.write_text("100.1. One rulE.\n")
    os.utime(rule, ns=(before.st_atime_ns, before.st_mtime_ns))
    assert built.sections(sources) is None


def test_a_file_is_hashed_again_only_when_its_size_times_or_inode_change(tmp_path, monkeypatch):
    from pipeline import cache
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    monkeypatch.setattr(cache, "SETTLED_SECONDS", -1.0)   # (setting a file's times back moves its change time)
    source = tmp_path / "cr.txt"
    source.write_bytes(b"first")
    old = time.time() - 60
    os.utime(source, (old, old))
    reads = []
    real_open = open

    def counting_open(path, *args, **kwargs):
        if str(path) == str(source):
            reads.append(path)
        return real_open(path, *args, **kwargs)
    monkeypatch.setattr("builtins.open", counting_open)
    with cache.remembered_digests() as digest_of:
        first = digest_of(source)
    with cache.remembered_digests() as digest_of:
        assert digest_of(source) == first
    assert len(reads) == 1                                # remembered: not read again
    source.write_bytes(b"other")                          # same size; its times set back as they were
    os.utime(source, (old, old))
    with cache.remembered_digests() as digest_of:
        assert digest_of(source) != first                 # its change time moved: read again
    assert len(reads) == 2


def test_a_file_just_written_is_not_remembered(tmp_path, monkeypatch):
    """Written within SETTLED_SECONDS, a file may change again without its times changing (coarse times)."""
    from pipeline import cache
    monkeypatch.setenv("RULEKB_CACHE", str(tmp_path / "cache"))
    source = tmp_path / "cr.txt"
    source.write_bytes(b"fresh")
    with cache.remembered_digests() as digest_of:
        digest_of(source)
    assert not (tmp_path / "cache" / cache.DIGESTS_FILE).exists()


@pytest.mark.parametrize("argv", [["search", "704.5k", "--json"], ["search", "missed trigger", "--doc", "ipg",
                                                                   "--limit", "3", "--json"]])
def test_the_command_prints_the_engine_s_answer(argv, sources_dir, sources_index):
    """What `rulekb search --json` prints from the kept search files is api.search's answer (the engine's)."""
    import subprocess
    import sys

    from pipeline import api
    api.search("704.5k", sources_dir)
    result = subprocess.run([sys.executable, "-m", "pipeline", *argv, "--sources", str(sources_dir)], cwd=ROOT,
                            capture_output=True, text=True, timeout=300)
    assert result.returncode == 0, result.stderr
    limit = int(argv[argv.index("--limit") + 1]) if "--limit" in argv else 10
    kind = argv[argv.index("--doc") + 1] if "--doc" in argv else None
    expected = api.search(argv[1], sources_dir, limit=limit, kind=kind).as_json()
    assert json.loads(result.stdout) == expected


def test_the_index_named_may_be_the_built_site_s_folder_and_anything_else_is_refused(built_site, sources_dir,
                                                                                     tmp_path):
    """`rulekb search --index site`: a user names the folder they know; a folder holding no index is one clear line."""
    from pipeline import api
    by_site = rulekb("search", "missed trigger", "--json", "--limit", "3", "--index", str(built_site))
    assert by_site.returncode == 0, by_site.stderr
    expected = api.search("missed trigger", sources_dir, limit=3).as_json()
    assert [r["id"] for r in json.loads(by_site.stdout)["results"]] == [r["id"] for r in expected["results"]]
    refused = rulekb("search", "missed trigger", "--index", str(tmp_path))
    assert refused.returncode == 2 and refused.stderr.count("\n") == 1
    assert "holds no search index" in refused.stderr and "internal error" not in refused.stderr


def test_a_long_id_does_not_push_every_result_s_title_off_the_terminal(sources_dir, sources_index):
    """A Regular REL situation's id is 80 characters: the other results keep their titles near their ids."""
    printed = rulekb("search", "player drew an extra card at FNM", "--sources", str(sources_dir)).stdout
    ranked = [re.match(r" ?\d+\. (\S+) +", line) for line in printed.splitlines()]
    ranked = [(found.group(1), found.end()) for found in ranked if found]      # (id, where its title starts)
    assert any(len(found) > 40 for found, _ in ranked)                          # a situation among them
    short = [title_at for found, title_at in ranked if len(found) <= 16]
    assert short and max(short) <= len(" 1. ") + 16 + 2
