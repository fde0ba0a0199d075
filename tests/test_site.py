"""The built site: every page and anchor there, links resolve, nothing external, text escaped."""
from __future__ import annotations

import gzip
import shutil

import pytest

from pipeline import load_corpus
from pipeline.pages import plan
from pipeline.site import BuildFailed, build_site
from conftest import CORPUS
from site_tools import broken_links, page_file, parse_page


def test_every_internal_link_and_anchor_resolves(built_site):
    broken = broken_links(built_site)
    assert not broken, f"{len(broken)} broken links, e.g.:\n" + "\n".join(broken[:20])


def test_every_numbered_section_of_the_current_documents_has_its_anchor(built_site, frozen_corpus):
    layout = plan(frozen_corpus)
    missing = []
    for document in frozen_corpus.documents:
        if not document.info.current:
            continue
        for section in document.sections:
            page, anchor = layout.locations[section.id]
            file = page_file(built_site, layout.url(page))
            if file is None or anchor not in parse_page(file).ids:
                missing.append(section.id)
    assert not missing, missing[:20]


def test_no_page_loads_anything_from_outside_the_site(built_site):
    external = []
    for page in built_site.rglob("*.html"):
        for resource in parse_page(page).resources:
            if resource.startswith(("http:", "https:", "//")):
                external.append(f"{page.relative_to(built_site)}: {resource}")
    assert not external, external[:10]
    assert not any("fonts.googleapis" in p.read_text(encoding="utf-8") for p in built_site.rglob("*.html"))


def test_penalty_page_lists_every_infraction_of_the_current_ipg(built_site, frozen_corpus):
    ipg = frozen_corpus.document("ipg")
    page = (built_site / "penalties" / "index.html").read_text(encoding="utf-8")
    infractions = [s for s in ipg.sections if s.infraction]
    assert len(infractions) == 23
    for section in infractions:
        assert f'href="../ipg/{section.number}/#{section.number}"' in page, section.id
    assert "Upgrades and downgrades" in page


def test_each_document_and_the_json_exports_are_in_the_site(built_site, frozen_corpus):
    for document in frozen_corpus.documents:
        assert (built_site / "data" / f"{document.id}.json").is_file()
    for directory in ("cr", "ipg", "mtr", "floor", "cr-2011-02-04-excerpt", "ipg-2016-09-30-excerpt"):
        assert (built_site / directory / "index.html").is_file(), directory


def test_excerpts_are_labelled_as_excerpts(built_site):
    page = (built_site / "cr-2011-02-04-excerpt" / "index.html").read_text(encoding="utf-8")
    assert "excerpt" in page and "older edition" in page


def test_a_cr_section_page_is_small_on_the_wire(built_site):
    data = (built_site / "cr" / "704" / "index.html").read_bytes()
    assert len(gzip.compress(data)) < 100_000


def test_source_text_is_escaped_never_code(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    text = (CORPUS / "mtr-2026-02-27.txt").read_text(encoding="utf-8")
    text = text.replace("Sanctioned tournaments", '<script>alert("x")</script> <a href="javascript:alert(1)" onclick="x()">Sanctioned</a> tournaments', 1)
    (sources / "mtr.txt").write_text(text, encoding="utf-8")
    site = tmp_path / "site"
    build_site(load_corpus(sources, use_cache=False), site)
    page = (site / "mtr" / "1" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(" in page
    assert '<script>alert("x")' not in page and 'href="javascript:' not in page and 'onclick="x()"' not in page


def test_a_failed_build_leaves_the_previous_site_as_it_was(tmp_path, frozen_corpus):
    site = tmp_path / "site"
    site.mkdir()
    (site / "index.html").write_text("previous site")
    broken_config = tmp_path / "mkdocs.yml"
    broken_config.write_text("site_name: x\ntheme: {name: no-such-theme}\n")
    with pytest.raises(BuildFailed):
        build_site(frozen_corpus, site, config_file=broken_config)
    assert (site / "index.html").read_text() == "previous site"
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".site")] == []


def test_the_check_report_is_published_with_the_exports(built_site, frozen_corpus):
    import json
    report = json.loads((built_site / "data" / "problems.json").read_text(encoding="utf-8"))
    assert len(report["problems"]) == len(frozen_corpus.all_problems())
    assert all({"severity", "file", "line", "message"} <= set(p) for p in report["problems"])


def test_links_resolve_with_several_editions_of_each_document(tmp_path):
    # Two MTR editions with appendices: their "What changed" and history pages link like the rest.
    sources = tmp_path / "sources"
    sources.mkdir()
    for name in ("mtr-2019-01-21-magicjudges.html", "mtr-2026-02-27.txt"):
        shutil.copy(CORPUS / name, sources)
    site = tmp_path / "site"
    build_site(load_corpus(sources, use_cache=False), site)
    assert (site / "changes" / "mtr-2019-01-21--mtr" / "index.html").is_file()
    assert any((site / "history" / "mtr").iterdir())
    broken = broken_links(site)
    assert not broken, broken[:10]
