"""Kind, title and edition are read from the content; the manifest adds what it cannot say."""
from __future__ import annotations

import pytest

from pipeline.read import read_bytes, read_source
from pipeline.read.dates import parse_date
from pipeline.read.detect import detect
from pipeline.read.manifest import apply_manifest, load_manifest

from conftest import CORPUS, FROZEN, SEEDS


@pytest.mark.parametrize("name, kind, edition", [
    ("cr-2011-04-01.txt", "cr", "2011-04-01"),
    ("cr-2015-09-26.txt", "cr", "2015-09-26"),
    ("cr-2024-08-02.txt", "cr", "2024-07-30"),   # the file is dated 08-02; the text says effective July 30
    ("cr-2026-01-16.txt", "cr", "2026-01-16"),
    ("ipg-2016-09-30-bluewizard.html", "ipg", "2016-09-30"),
    ("ipg-2020-01-24-magicjudges.html", "ipg", "2020-01-24"),
    ("ipg-2024-09-23.txt", "ipg", "2024-09-23"),
    ("mtr-2019-01-21-magicjudges.html", "mtr", "2019-01-21"),
    ("mtr-2026-02-27.txt", "mtr", "2026-02-27"),
])
def test_kind_and_edition_come_from_the_text(name, kind, edition):
    found = detect(read_source(CORPUS / name))
    assert (found.kind, found.edition) == (kind, edition)


def test_mtr_without_a_title_is_recognised_by_its_chapters():
    found = detect(read_bytes((CORPUS / "mtr-2012-03-20-numegil.txt").read_bytes(), "mtr.txt"))
    assert found.kind == "mtr"


def test_seeds_are_recognised():
    assert detect(read_source(SEEDS / "000_d5f726d99ad04a53.txt")).kind == "floor"
    assert detect(read_source(SEEDS / "001_35b49a7900bc8bc7.txt")).kind == "ipg"
    assert detect(read_source(SEEDS / "002_75bbd6f8d1790816.txt")).kind == "cr"


def test_prose_is_not_a_rule_document():
    assert detect(read_bytes(b"Dear diary,\nToday I played Magic.\n" * 5, "diary.txt")).kind is None


@pytest.mark.parametrize("text, iso", [
    ("Effective September 23, 2024", "2024-09-23"),
    ("These rules are effective as of November 14, 2025.", "2025-11-14"),
    ("Effective Jan 24th, 2020", "2020-01-24"),
    ("Updated 24 January 2020", "2020-01-24"),
    ("Effective 2026-01-16", "2026-01-16"),
    ("Effective February 30, 2026", None),
])
def test_dates_in_their_written_forms(text, iso):
    assert parse_date(text) == iso


def test_the_shipped_manifest_says_what_detection_cannot():
    entries, problems = load_manifest(FROZEN)
    assert problems == []
    excerpt = apply_manifest(detect(read_source(SEEDS / "002_75bbd6f8d1790816.txt")),
                             entries["cr-2011-02-04-multiplayer-excerpt.txt"])
    assert (excerpt.kind, excerpt.edition, excerpt.excerpt) == ("cr", "2011-02-04", True)
    floor = entries["magic-online-floor-rules-2002.txt"]
    assert floor.kind == "floor" and floor.id == "floor"


def test_a_broken_manifest_is_an_error_naming_its_line(tmp_path):
    (tmp_path / "manifest.toml").write_text('["a.txt"]\nkind = "cr"\n["b.txt"\n')
    entries, problems = load_manifest(tmp_path)
    assert problems and problems[0].severity == "error" and problems[0].line == 3
