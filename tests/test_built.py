"""`rulekb search` and `show` answered from what was built for unchanged sources (pipeline.built): the same
answers as the full way (the whoosh engine, the corpus), scores included; and what tells that nothing changed
(a file's size, times and inode, its content hashed again only when they differ)."""
from __future__ import annotations

import json
import os
import time
from itertools import islice

import pytest

from conftest import ROOT


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


def test_a_search_from_the_kept_search_files_is_the_engine_s_answer(sources_dir):
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
def test_the_command_prints_the_engine_s_answer(argv, sources_dir, tmp_path_factory):
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
