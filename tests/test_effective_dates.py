"""Rules take effect on their date: an edition whose date has not come is a preview, never the current text.

The build's date is today or `SOURCE_DATE_EPOCH`; before an edition's date the current pages, the search,
the penalty quick reference and `rulekb show` answer from the edition in force, every page of the document
says when the new one takes effect (linking to what changes and to the preview); on the day, a rebuild
makes it current and the old one an older edition whose addresses still land.
"""
from __future__ import annotations

import json
import re
from datetime import UTC, date, datetime
from pathlib import Path

import pytest

from pipeline import api
from pipeline.build_date import build_date, in_force, long_date
from pipeline.cli import main
from pipeline.corpus import load_corpus
from pipeline.model import WARNING
from pipeline.site import reader_rows

from conftest import CORPUS, ROOT, made_once

OLD = "ipg-2024-09-23.txt"
NEW = "ipg-2026-12-04.txt"
BEFORE = date(2026, 11, 24)
ON_THE_DAY = date(2026, 12, 4)
NEW_WORD = "zebracorn"      # a word only the new edition has


def epoch(day: date) -> str:
    return str(int(datetime(day.year, day.month, day.day, 12, tzinfo=UTC).timestamp()))


def new_edition(text: str, effective: str = "December 4, 2026") -> str:
    """The IPG of 2024 as a new edition: another date, one definition reworded."""
    changed = text.replace("Effective September 23, 2024", f"Effective {effective}", 1)
    changed = changed.replace("A triggered ability triggers, but", f"A triggered ability ({NEW_WORD}) triggers, but", 1)
    assert changed.count(NEW_WORD) == 1 and f"Effective {effective}" in changed
    return changed


def two_editions(folder: Path) -> Path:
    """The IPG in force and its new edition, in a sources folder."""
    folder.mkdir(parents=True)
    text = (CORPUS / OLD).read_text(encoding="utf-8")
    (folder / OLD).write_text(text, encoding="utf-8")
    (folder / NEW).write_text(new_edition(text), encoding="utf-8")
    return folder


@pytest.fixture
def sources(tmp_path) -> Path:
    """The two editions, for a test that adds a file to them."""
    return two_editions(tmp_path / "sources")


def built_on_both_days(tmp_path_factory) -> Path:
    """A folder holding the two editions (sources/) and their sites built on a day before the new one's date
    (before/) and on it (on-the-day/), made once for the session (read-only use): this module's tests and the
    phone's (test_effective_dates_browser) read them. Each build keeps its search index as the index of the
    sources folder on its day (search.indexing.keep_built): a search of them on either day reads it, so each
    day's index is written once, by its build, not again by a search."""
    def make(folder: Path) -> None:
        sources = two_editions(folder / "sources")
        with pytest.MonkeyPatch.context() as monkeypatch:
            build(sources, folder / "before", BEFORE, monkeypatch)
            build(sources, folder / "on-the-day", ON_THE_DAY, monkeypatch)
    return made_once(tmp_path_factory, "two-editions-built", make)


@pytest.fixture(scope="module")
def editions(tmp_path_factory) -> Path:
    """The two editions (read-only use), built on both days (`built_on_both_days`)."""
    return built_on_both_days(tmp_path_factory) / "sources"


def test_the_build_date_is_source_date_epoch_when_set_else_today():
    assert build_date({"SOURCE_DATE_EPOCH": epoch(BEFORE)}) == BEFORE
    assert build_date({}) == date.today()
    assert build_date({"SOURCE_DATE_EPOCH": "not a number"}) == date.today()
    assert in_force("2026-12-04", ON_THE_DAY) and not in_force("2026-12-04", BEFORE) and in_force(None, BEFORE)
    assert long_date("2026-12-04") == "December 4, 2026"


def test_before_its_date_an_edition_is_upcoming_and_the_one_in_force_stays_current(editions):
    corpus = load_corpus(editions, use_cache=False, today=BEFORE)
    assert corpus.document("ipg").info.edition == "2024-09-23"
    [upcoming] = corpus.upcoming("ipg")
    assert upcoming.id == "ipg-2026-12-04" and upcoming.upcoming and not upcoming.current
    assert corpus.today == "2026-11-24"


def test_on_its_date_the_new_edition_is_current(editions):
    corpus = load_corpus(editions, use_cache=False, today=ON_THE_DAY)
    assert corpus.document("ipg").info.edition == "2026-12-04"
    assert corpus.upcoming("ipg") == []
    assert {info.id for info in corpus.editions} == {"ipg", "ipg-2024-09-23"}


def test_show_and_search_answer_from_the_edition_in_force_unless_asked(editions, monkeypatch, capsys):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BEFORE))
    assert NEW_WORD not in api.show("ipg 2.1", editions)["text"]
    upcoming = api.show("ipg 2.1", editions, edition="upcoming")
    assert NEW_WORD in upcoming["text"] and upcoming["document"]["upcoming"]
    assert api.show("ipg 2.1", editions, edition="2026-12-04")["document"]["id"] == "ipg-2026-12-04"
    assert api.search(NEW_WORD, editions).results == []
    assert api.search(NEW_WORD, editions, edition="upcoming").results[0].number == "2.1"
    assert main(["show", "ipg 2.1", "--sources", str(editions), "--edition", "upcoming"]) == 0
    assert "upcoming edition" in capsys.readouterr().out
    assert main(["search", "trigger", "--sources", str(editions), "--edition", "2031-01-01"]) == 2
    assert "no dated edition" in capsys.readouterr().err


def test_the_search_index_of_a_sources_folder_follows_the_day(editions, monkeypatch):
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BEFORE))
    assert api.search(NEW_WORD, editions).results == []
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(ON_THE_DAY))
    assert api.search(NEW_WORD, editions).results[0].id == "ipg:2.1"


def test_an_effective_date_more_than_a_year_ahead_is_reported_with_its_line(sources):
    text = (CORPUS / OLD).read_text(encoding="utf-8")
    (sources / "ipg-2029-01-01.txt").write_text(new_edition(text, "January 1, 2029"), encoding="utf-8")
    corpus = load_corpus(sources, use_cache=False, today=BEFORE)
    [far] = [p for p in corpus.problems if "more than a year" in p.message]
    assert far.severity == WARNING and far.file == "ipg-2029-01-01.txt"
    assert far.line == text.splitlines().index("Effective September 23, 2024") + 1


def test_a_text_dated_before_the_current_edition_but_named_newer_is_reported(sources):
    text = (CORPUS / OLD).read_text(encoding="utf-8")
    (sources / "ipg-2026-06-01.txt").write_text(new_edition(text, "March 1, 2023"), encoding="utf-8")
    corpus = load_corpus(sources, use_cache=False, today=BEFORE)
    [named] = [p for p in corpus.problems if "file name says" in p.message]
    assert named.file == "ipg-2026-06-01.txt" and named.line is not None
    assert "2023-03-01" in named.message and "2026-06-01" in named.message


def page(site: Path, path: str) -> str:
    return (site / path).read_text(encoding="utf-8")


def build(sources: Path, out: Path, day: date, monkeypatch) -> Path:
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(day))
    api.build(sources, out, config=ROOT / "mkdocs.yml")
    return out


@pytest.fixture(scope="module")
def built_before(editions) -> tuple[Path, Path]:
    """(sources, site): the two editions built on a day before the new one's date (read-only use)."""
    return editions, editions.parent / "before"


@pytest.fixture(scope="module")
def built_on_the_day(editions) -> Path:
    """The site of the two editions built on the new one's date (read-only use)."""
    return editions.parent / "on-the-day"


def test_before_the_date_the_site_is_the_old_edition_with_a_notice_on_every_page(built_before):
    _, site = built_before
    ipg_pages = sorted((site / "ipg").rglob("index.html"))
    assert len(ipg_pages) > 30
    for path in ipg_pages:
        text = path.read_text(encoding="utf-8")
        assert 'data-effective="2026-12-04"' in text, path
        assert "A new edition takes effect on <strong>December 4, 2026</strong>" in text, path
        assert "in effect since" in text, path
    assert NEW_WORD not in page(site, "ipg/2.1/index.html")
    penalties = page(site, "penalties/index.html")
    assert "2024-09-23" in penalties and 'data-effective="2026-12-04"' in penalties
    preview = page(site, "ipg-2026-12-04/index.html")
    assert "upcoming edition" in preview and "December 4, 2026" in preview and "rk-older-bar" in preview
    changes = page(site, "changes/ipg--ipg-2026-12-04/index.html")
    assert "What will change" in changes and NEW_WORD in changes and "Not in force yet" in changes
    assert 'href="../../changes/ipg--ipg-2026-12-04/"' in page(site, "ipg/2.1/index.html")
    home = page(site, "index.html")
    assert "takes effect on <strong>December 4, 2026</strong>" in home and "changes/ipg--ipg-2026-12-04/" in home
    searched = "".join(path.read_text(encoding="utf-8") for path in (site / "search").glob("*.json"))
    assert NEW_WORD not in searched
    data = json.loads(page(site, "data/index.json"))
    assert {row["id"]: row["current"] for row in data["editions"]} == {"ipg": True, "ipg-2026-12-04": False}


def test_the_api_answers_from_the_current_edition_unless_asked_for_another(built_before, monkeypatch):
    from pipeline.serve.generation import Site
    sources, site = built_before
    monkeypatch.setenv("SOURCE_DATE_EPOCH", epoch(BEFORE))        # `rulekb show` on the day the site was built
    published = Site(site).current().sections()
    assert NEW_WORD not in published.view("ipg:2.1")["text"]
    for asked in ("upcoming", "ipg-2026-12-04", "2026-12-04"):
        upcoming = published.edition_view("ipg 2.1", asked)
        expected = api.show("ipg 2.1", sources, edition=asked)
        assert NEW_WORD in upcoming["text"] and upcoming["text"] == expected["text"], asked
        assert (upcoming["number"], upcoming["title"]) == (expected["number"], expected["title"])
        assert upcoming["document"]["upcoming"] and upcoming["url"] == "ipg-2026-12-04/#2.1"
    assert published.edition_view("ipg:2.1", "2024-09-23") == published.view("ipg:2.1")   # the one in force
    assert published.edition_view("ipg:2.1", "1999-01-01") is None          # no such edition: a 404


def test_on_the_day_a_rebuild_makes_it_current_and_old_addresses_land(built_on_the_day):
    site = built_on_the_day
    assert NEW_WORD in page(site, "ipg/2.1/index.html")
    assert "rk-upcoming" not in page(site, "ipg/2.1/index.html")
    assert "December 4, 2026" in page(site, "ipg/2.1/index.html")
    assert "older edition" in page(site, "ipg-2024-09-23/index.html")
    assert '"ipg-2024-09-23"' in page(site, "404.html")      # its old address (ipg-2024-09-23/2.1/) forwards
    older = json.loads(page(site, "data/editions/ipg/ipg-2024-09-23.json"))
    row = next(row for row in reader_rows.rows(older) if row[0] == "2.1")
    assert row[6] == "../ipg/2.1/#2.1" and row[7] == "2.1"             # the same rule, current edition
    searched = "".join(path.read_text(encoding="utf-8") for path in (site / "search").glob("*.json"))
    assert NEW_WORD in searched


def test_an_older_editions_rows_point_to_the_same_rule_renumbered_or_say_it_is_gone(built_site):
    older = json.loads((built_site / "data/editions/cr/cr-2025-11-14.json").read_text(encoding="utf-8"))
    rows = {row[0]: row for row in reader_rows.rows(older)}
    assert rows["702.19b"][6].endswith("cr/702/#702.19b") and rows["702.19b"][7] == "702.19b"
    assert all(len(row) == 8 for row in rows.values())
    assert re.search(r'class="rk-older-bar"', (built_site / "cr-2025-11-14/index.html").read_text(encoding="utf-8"))
