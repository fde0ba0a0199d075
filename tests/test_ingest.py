"""The whole folder: documents named, references resolved across documents, problems reported."""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys

import pytest

from pipeline import load_corpus
from pipeline.corpus import load_edition
from pipeline.export import document_json

from conftest import CORPUS, ROOT, rulekb


def run(*args, cwd=ROOT):
    """`python -m pipeline ARGS` in a process of its own (the other tests run the command line in theirs: rulekb)."""
    return subprocess.run([sys.executable, "-m", "pipeline", *args], cwd=cwd, capture_output=True, text=True,
                          env=dict(os.environ), timeout=300)


def test_shipped_sources_get_their_ids_and_the_current_editions(frozen_corpus):
    documents = {info.id: info for info in frozen_corpus.editions}
    assert set(documents) == {"cr", "cr-2025-11-14", "cr-2023-04-14", "cr-2011-02-04-excerpt", "ipg",
                              "ipg-2021-02-05", "ipg-2016-09-30-excerpt", "mtr", "mtr-2021-07-23", "floor", "jar"}
    # in memory: the current ones
    assert {d.id for d in frozen_corpus.documents} == {"cr", "ipg", "mtr", "floor", "jar"}
    assert documents["ipg-2021-02-05"].source == "ipg-2021-02-05.pdf" and not documents["ipg-2021-02-05"].current
    assert documents["jar"].kind == "jar" and documents["jar"].edition == "2019-01-21"
    assert documents["cr"].edition == "2026-01-16" and documents["cr"].current
    assert not documents["cr-2025-11-14"].current
    assert documents["ipg"].edition == "2024-09-23"
    assert documents["ipg-2016-09-30-excerpt"].excerpt and not documents["ipg-2016-09-30-excerpt"].complete
    assert documents["floor"].kind == "floor"


def test_references_resolve_across_documents(frozen_corpus):
    ipg = frozen_corpus.document("ipg")
    targets = {ref.target for section in ipg.sections for ref in section.refs}
    assert "mtr:4.3" in targets        # "(MTR section 4.3)" in Missed Trigger
    assert "ipg:3.4" in targets        # "Decklist Problems (3.4)"


def test_references_outside_an_excerpt_stay_as_written_and_are_reported(frozen_corpus):
    excerpt = load_edition(frozen_corpus, "cr-2011-02-04-excerpt")
    refs = [ref for section in excerpt.sections for ref in section.refs if ref.number == "109"]
    assert refs and all(ref.target is None for ref in refs)
    assert any("109" in p.message and p.line for p in excerpt.problems)
    assert any("109" in p.message and p.file == excerpt.info.source for p in frozen_corpus.all_problems())


def test_an_older_edition_s_problems_are_those_of_its_pages(frozen_corpus):
    """`rulekb check` reports what the site does with an older edition: a title reference the current
    edition of its kind answers ("Tardiness (3.1)" in the 2016 IPG excerpt) is not reported."""
    for info in frozen_corpus.editions:
        if info.current:
            continue
        reported = sorted(str(p) for p in frozen_corpus.problems if p.file == info.source)
        assert reported == sorted(str(p) for p in load_edition(frozen_corpus, info.id).problems), info.id
    excerpt = load_edition(frozen_corpus, "ipg-2016-09-30-excerpt")
    cited = [ref for section in excerpt.sections for ref in section.refs if ref.text.startswith("Tardiness")]
    assert cited and all(ref.target == "ipg:3.1" for ref in cited)


def test_an_older_edition_is_read_again_when_it_is_asked_for(frozen_corpus):
    older = load_edition(frozen_corpus, "cr-2025-11-14")
    assert older.info.edition == "2025-11-14" and older.section("702.124m") is not None
    assert older.section("702.124m").id == "cr-2025-11-14:702.124m"


def test_backlinks_name_the_citing_sections(frozen_corpus):
    assert "ipg:2.1" in frozen_corpus.backlinks.get("mtr:4.3", ())


def test_export_has_the_documented_shape(frozen_corpus):
    data = document_json(frozen_corpus.document("ipg"), frozen_corpus)
    assert set(data["document"]) >= {"id", "kind", "title", "edition", "source", "complete"}
    section = next(s for s in data["sections"] if s["id"] == "ipg:2.1")
    assert set(section) >= {"id", "number", "title", "text", "examples", "parent", "refs", "line"}
    assert section["parent"] == "ipg:2"
    assert all(set(ref) >= {"text", "target"} for ref in section["refs"])
    assert {"section", "category", "infraction", "penalty"} <= set(data["penalties"][0])


def test_cli_export_prints_json_for_a_file(sources_dir):
    result = rulekb("export", str(sources_dir / "ipg-2024-09-23.txt"))
    assert result.returncode == 0, result.stderr
    data = json.loads(result.stdout)
    assert data["document"]["id"] == "ipg"
    assert [p["penalty"] for p in data["penalties"]][:2] == ["No Penalty", "Warning"]


def test_cli_check_on_the_frozen_sources_passes(sources_dir):
    result = run("check", str(sources_dir))
    assert result.returncode == 0, result.stdout[-2000:]
    assert result.stdout.strip().splitlines()[-1].startswith("checked 11 documents")


def test_cli_check_takes_one_file_before_it_is_dropped_in(tmp_path):
    good = tmp_path / "ipg-2024-09-23.txt"
    shutil.copy(CORPUS / "ipg-2024-09-23.txt", good)
    result = rulekb("check", str(good))
    assert result.returncode == 0, result.stdout[-2000:]
    assert result.stdout.strip().splitlines()[-1].startswith(f"checked {good} (")
    assert "sections): 0 errors" in result.stdout
    cut = tmp_path / "cut.txt"
    cut.write_bytes(good.read_bytes()[: good.stat().st_size // 2])
    result = rulekb("check", str(cut))
    assert result.returncode == 1
    assert any(line.startswith("cut.txt:") and "truncated" in line for line in result.stdout.splitlines())


BAD_FILES = {
    "empty.txt": b"",
    "binary.bin": bytes(range(256)) * 40,
    "scan.pdf": b"%PDF-1.4\n1 0 obj<<>>endobj\n",
    "diary.txt": b"Dear diary,\nToday I played Magic with friends.\n" * 20,
    "huge.txt": b"100.1. A rule.\n" * (21 * 1024 * 1024 // 15),
}


@pytest.mark.parametrize("name", sorted(BAD_FILES))
def test_bad_input_gets_a_clear_message_naming_the_file_and_a_non_zero_exit(tmp_path, name):
    (tmp_path / name).write_bytes(BAD_FILES[name])
    result = rulekb("check", str(tmp_path))
    assert result.returncode == 1
    assert "Traceback" not in result.stdout + result.stderr
    assert f"{name}" in result.stdout and "error" in result.stdout


def test_duplicate_and_backwards_numbers_are_reported_with_lines(tmp_path):
    text = (CORPUS / "mtr-2026-02-27.txt").read_text(encoding="utf-8")
    text = text.replace("4.3 Out-of-Order Sequencing\n", "4.3 Out-of-Order Sequencing\n4.1 Player Communication\n", 1)
    (tmp_path / "mtr.txt").write_text(text, encoding="utf-8")
    result = rulekb("check", str(tmp_path))
    assert "Traceback" not in result.stderr
    assert any(line.startswith("mtr.txt:") and ("4.1" in line) for line in result.stdout.splitlines())


def test_html_with_script_and_onclick_never_carries_code(tmp_path):
    html = (CORPUS / "ipg-2016-09-30-bluewizard.html").read_text(encoding="utf-8")
    marked = html.replace("<h4>1.2 APPLYING PENALTIES</h4>",
                          '<h4 onclick="xssprobe()">1.2 APPLYING PENALTIES</h4><script>xssprobe()</script>', 1)
    assert marked != html
    (tmp_path / "ipg.html").write_text(marked, encoding="utf-8")
    result = rulekb("export", str(tmp_path / "ipg.html"))
    assert result.returncode == 0, result.stderr
    assert "xssprobe" not in result.stdout
    assert '"1.2"' in result.stdout
    check = rulekb("check", str(tmp_path))
    assert "<script>" in check.stdout


def test_truncated_download_is_kept_and_reported(tmp_path):
    data = (CORPUS / "cr-2026-01-16.txt").read_bytes()
    (tmp_path / "cr.txt").write_bytes(data[: int(len(data) * 0.9)])
    corpus = load_corpus(tmp_path, use_cache=False)
    document = corpus.document("cr")
    assert document is not None and not document.info.complete
    assert document.glossary, "what is there is kept"
    assert any(p.severity == "error" and "never reaches" in p.message for p in document.problems)


def test_a_new_bad_edition_does_not_replace_the_current_one(tmp_path):
    shutil.copy(CORPUS / "ipg-2024-09-23.txt", tmp_path)
    data = (CORPUS / "ipg-2024-09-23.txt").read_bytes()
    (tmp_path / "ipg-2025-01-01.txt").write_bytes(data.replace(b"September 23, 2024", b"January 1, 2025")[:20000])
    corpus = load_corpus(tmp_path, use_cache=False)
    current = [d for d in corpus.documents if d.info.current]
    assert [d.info.edition for d in current] == ["2024-09-23"]


def test_duplicate_cr_numbers_keep_both_rules_under_distinct_ids(tmp_path):
    text = (CORPUS / "cr-2026-01-16.txt").read_text(encoding="utf-8-sig")
    text = text.replace("704.5k If two or more permanents", "704.5j Duplicate text.\r704.5k If two or more permanents", 1)
    (tmp_path / "cr.txt").write_text(text, encoding="utf-8")
    corpus = load_corpus(tmp_path, use_cache=False)
    ids = [s.id for s in corpus.document("cr").sections]
    assert len(ids) == len(set(ids)) and "cr:704.5j-2" in ids
    assert any("704.5j" in p.message and p.line for p in corpus.document("cr").problems)


def test_infraction_titles_in_the_text_link_to_their_sections(frozen_corpus):
    ipg = frozen_corpus.document("ipg")
    targets = {ref.target for ref in ipg.section("2.1").refs}
    assert "ipg:2.5" in targets     # "... treated as a Game Play Error — Game Rule Violation"
    appendix = {ref.target for ref in ipg.section("Appendix A").refs}
    assert "ipg:4.1" in appendix    # the flattened row "Unsporting Conduct — Minor Warning"


def test_export_of_an_older_edition_s_file_gives_that_edition(sources_dir):
    """`rulekb export sources/cr-2025-11-14.txt`: a file that is not the current edition is exported too."""
    from pipeline import api
    data = api.export(sources_dir / "cr-2025-11-14.txt")
    assert data["document"]["id"] == "cr-2025-11-14" and data["document"]["edition"] == "2025-11-14"
    assert any(section["id"] == "cr-2025-11-14:702.124m" for section in data["sections"])
