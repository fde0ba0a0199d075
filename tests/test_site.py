"""The built site: every page and anchor there, links resolve, nothing external, older editions compact."""
from __future__ import annotations

import gzip
import json
import re
import shutil
import struct
import zlib

import pytest

from pipeline import load_corpus
from pipeline.addresses import address_corpus
from pipeline.site import reader_rows
from pipeline.site.build import build_site
from pipeline.site.errors import BuildFailed

from conftest import CORPUS, ROOT, project_of, site_of
from site_tools import broken_links, page_file, parse_page


def test_every_internal_link_and_anchor_resolves(built_site):
    broken = broken_links(built_site)
    assert not broken, f"{len(broken)} broken links, e.g.:\n" + "\n".join(broken[:20])


def test_every_section_of_the_current_documents_has_its_anchor(built_site, frozen_corpus):
    addresses = address_corpus(frozen_corpus)
    missing = []
    for document in frozen_corpus.documents:
        for section in document.sections:
            page, anchor = addresses.locations[section.id]
            file = page_file(built_site, addresses.url(page))
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


def test_penalty_page_lists_every_infraction_with_what_changes_its_penalty(built_site, frozen_corpus):
    ipg = frozen_corpus.document("ipg")
    page = (built_site / "penalties" / "index.html").read_text(encoding="utf-8")
    infractions = [s for s in ipg.sections if s.infraction]
    assert len(infractions) == 23
    for section in infractions:
        assert f'href="../ipg/{section.number}/#{section.number}"' in page, section.id
    upgrades = [s for s in infractions if s.infraction.upgrades]
    assert upgrades and all(s.infraction.upgrades[0][:40].replace("’", "&#x27;") in page
                            or s.infraction.upgrades[0][:40] in page for s in upgrades)
    assert "the third or subsequent Warning" in page          # the category's rule for repeats


def test_an_infraction_shows_its_penalty_path_beside_the_penalty(built_site):
    page = (built_site / "ipg" / "2.1" / "index.html").read_text(encoding="utf-8")
    box = page.index('class="rk-penalty-path"')
    definition = page.index('id="definition"')
    assert box < page.index('class="rk-up"') < definition
    assert box < page.index('class="rk-repeat"') < definition


def test_rules_read_with_their_number_inline(built_site):
    page = (built_site / "cr" / "704" / "index.html").read_text(encoding="utf-8")
    # what cites the rule ("Cited 1×", folded) comes first, set beside the first line
    assert re.search(r'<div id="704.5k" class="rk-rule rk-subrule">(<details class="rk-refby rk-refby--beside">.*?'
                     r'</details>)?<p><a class="rk-num" href="#704.5k">704.5k</a> If two', page)


def test_a_long_section_opens_with_its_rules_and_the_contents_reach_them(built_site):
    page = (built_site / "cr" / "702" / "index.html").read_text(encoding="utf-8")
    toc = page[page.index('class="rk-toc"'):page.index("</details>", page.index('class="rk-toc"'))]
    assert 'href="#702.19"' in toc and "Trample" in toc and toc.count("<li>") > 150
    contents = (built_site / "cr" / "index.html").read_text(encoding="utf-8")
    assert 'href="702/#702.19"' in contents


def test_a_documents_index_reaches_every_titled_section_of_every_chapter(built_site, frozen_corpus):
    # short chapters too: the MTR's chapter 5 holds six sections, its chapter 1 twelve
    contents = (built_site / "mtr" / "index.html").read_text(encoding="utf-8")
    numbered = [section for section in frozen_corpus.document("mtr").sections
                if re.fullmatch(r"\d+\.\d+", section.number or "") and section.title]
    assert len(numbered) > 50
    missing = [section.number for section in numbered if f'#{section.number}"' not in contents]
    assert missing == []


def test_an_index_of_unnumbered_sections_lists_them_and_their_situations(built_site, frozen_corpus):
    # the JAR's chapters and situations have titles, no numbers: each is reached from its index all the same
    addresses = address_corpus(frozen_corpus)
    contents = (built_site / "jar" / "index.html").read_text(encoding="utf-8")
    contents = contents[contents.index('id="contents"'):]
    sections = frozen_corpus.document("jar").sections
    assert len(sections) > 5
    missing = [section.id for section in sections
               if addresses.href("jar/index.md", section.id).replace("&", "&amp;") not in contents]
    assert missing == []


def test_current_documents_and_json_exports_are_in_the_site(built_site, frozen_corpus):
    for document in frozen_corpus.documents:
        assert (built_site / "data" / f"{document.id}.json").is_file()
        assert (built_site / document.id / "index.html").is_file()
    listed = json.loads((built_site / "data" / "index.json").read_text(encoding="utf-8"))
    assert {e["id"] for e in listed["editions"]} == {info.id for info in frozen_corpus.editions}


def test_older_editions_are_compact_readers_with_shared_data(built_site, frozen_corpus):
    older = [info for info in frozen_corpus.editions if not info.current]
    assert older
    for info in older:
        reader = built_site / info.id / "index.html"
        assert parse_page(reader).edition_data, info.id
        assert not (built_site / info.id / "704" / "index.html").exists() or \
            (built_site / info.id / "704" / "index.html").stat().st_size < 1000     # a forward, not a page
    data = json.loads((built_site / "data" / "editions" / "cr" / "cr-2025-11-14.json").read_text(encoding="utf-8"))
    rows = reader_rows.rows(data)
    assert rows[[r[0] for r in rows].index("704.5k")][:4] == ["704.5k", 4, "subrule", "704.5k"]
    shard = next((built_site / "data" / "editions" / "cr").glob("w-704.*.json"))
    words = json.loads(shard.read_text(encoding="utf-8"))
    wording = rows[[r[0] for r in rows].index("704.5k")][4]
    assert words[wording][1].startswith("If two or more permanents have the supertype world")


def test_old_addresses_are_forwarded_by_the_404_page_not_a_folder_each(built_site, frozen_corpus):
    assert not (built_site / "cr-2025-11-14" / "702").exists()          # no folder per old address
    not_found = (built_site / "404.html").read_text(encoding="utf-8")
    listed = re.search(r"var editions = (\[[^\]]*\]);", not_found)
    assert listed, "the 404 page forwards no older edition's addresses"
    older = {info.id for info in frozen_corpus.editions if not info.current}
    assert set(json.loads(listed.group(1))) == older
    assert all((built_site / edition / "index.html").is_file() for edition in older)     # the readers forwarded to


def test_history_pages_give_each_rule_its_wordings(built_site):
    page = (built_site / "history" / "cr" / "205" / "index.html").read_text(encoding="utf-8")
    assert 'id="205.3m"' in page and "<ins>" in page and "2025-11-14" in page and "2026-01-16" in page
    rule_page = (built_site / "cr" / "205" / "index.html").read_text(encoding="utf-8")
    assert "Changed in" in rule_page and "../../history/cr/205/#205.3m" in rule_page


def test_what_changed_pages_fold_long_unchanged_text(built_site):
    page = (built_site / "changes" / "cr-2025-11-14--cr" / "index.html").read_text(encoding="utf-8")
    change = page[page.index("205.3m"):]
    change = change[:change.index('class="rk-change"') if 'class="rk-change"' in change else None]
    assert "<ins>Sorcerer" in change or "Sorcerer</ins>" in change
    assert 'class="rk-folded"' in change and "Whole text" in change


def test_a_cr_section_page_is_small_on_the_wire(built_site):
    data = (built_site / "cr" / "704" / "index.html").read_bytes()
    assert len(gzip.compress(data)) < 60_000


def test_source_text_is_escaped_never_code(tmp_path):
    sources = tmp_path / "sources"
    sources.mkdir()
    text = (CORPUS / "mtr-2026-02-27.txt").read_text(encoding="utf-8")
    text = text.replace("Sanctioned tournaments", '<script>alert("x")</script> <a href="javascript:alert(1)" onclick="x()">Sanctioned</a> tournaments', 1)
    (sources / "mtr.txt").write_text(text, encoding="utf-8")
    site = tmp_path / "site"
    build_site(load_corpus(sources, use_cache=False), site, sources=sources)
    page = (site / "mtr" / "1" / "index.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(" in page
    assert '<script>alert("x")' not in page and 'href="javascript:' not in page and 'onclick="x()"' not in page


@pytest.mark.slow
def test_a_failed_build_leaves_the_previous_site_as_it_was(tmp_path):
    # a mechanism of the build, not of a corpus: three small documents (test_server's) build it in a few seconds
    from test_server import small_sources
    sources = small_sources(tmp_path / "sources")
    corpus = load_corpus(sources)
    site = tmp_path / "site"
    build_site(corpus, site, sources=sources, config_file=ROOT / "mkdocs.yml")
    before = (site / "index.html").read_text(encoding="utf-8")
    broken_config = tmp_path / "mkdocs.yml"
    broken_config.write_text("site_name: x\ntheme: {name: no-such-theme}\nplugins: [rulekb]\n")
    with pytest.raises(BuildFailed):
        build_site(corpus, site, config_file=broken_config)
    assert (site / "index.html").read_text(encoding="utf-8") == before
    assert not any(p.name.startswith("building-") for p in (tmp_path / ".site.rulekb").iterdir())


def test_the_check_report_is_published_with_the_exports(built_site, frozen_corpus):
    report = json.loads((built_site / "data" / "problems.json").read_text(encoding="utf-8"))
    assert len(report["problems"]) == len(frozen_corpus.all_problems())
    assert all({"severity", "file", "line", "message"} <= set(p) for p in report["problems"])


@pytest.mark.slow
def test_links_resolve_with_several_editions_of_each_document(tmp_path_factory):
    # Two MTR editions with appendices: their "What changed" and history pages link like the rest. (Built once
    # for the session and the suite run inside the new-edition test, which runs this module again.)
    sources = tmp_path_factory.mktemp("editions") / "sources"
    sources.mkdir()
    for name in ("mtr-2019-01-21-magicjudges.html", "mtr-2026-02-27.txt"):
        shutil.copy(CORPUS / name, sources)
    site = site_of(tmp_path_factory, project_of(tmp_path_factory, sources))
    assert (site / "changes" / "mtr-2019-01-21--mtr" / "index.html").is_file()
    assert any((site / "history" / "mtr").iterdir())
    assert (site / "mtr-2019-01-21" / "index.html").is_file()
    broken = broken_links(site)
    assert not broken, broken[:10]


# -- an app on the phone ------------------------------------------------------------------------------------

def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n"
    return struct.unpack(">II", data[16:24])


def test_the_site_names_its_manifest_and_icons_of_the_sizes_they_say(built_site):
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert '<link rel="manifest" href="manifest.webmanifest">' in home
    colour = re.search(r'<meta name="theme-color" content="(#[0-9a-f]{6})">', home).group(1)
    manifest = json.loads((built_site / "manifest.webmanifest").read_text(encoding="utf-8"))
    assert manifest["display"] == "standalone" and manifest["start_url"] == "./" and manifest["name"]
    assert manifest["theme_color"] == colour
    purposes = set()
    for icon in manifest["icons"]:
        width, height = png_size((built_site / icon["src"]).read_bytes())
        assert icon["sizes"] == f"{width}x{height}" and icon["type"] == "image/png", icon
        purposes.add((icon["purpose"], width))
    assert {("any", 192), ("any", 512), ("maskable", 192), ("maskable", 512)} <= purposes
    # the favicon: named by every page, and at /favicon.ico for what asks there by habit
    favicon = re.search(r'<link rel="icon" href="([^"]+)">', home).group(1)
    assert png_size((built_site / favicon).read_bytes()) == (32, 32)
    ico = (built_site / "favicon.ico").read_bytes()
    assert ico[:4] == b"\0\0\1\0" and ico[22:30] == b"\x89PNG\r\n\x1a\n"


def test_the_maskable_icon_keeps_its_drawing_inside_the_safe_circle(built_site):

    data = (built_site / "assets/icons/maskable-192.png").read_bytes()
    raw = zlib.decompress(data[data.index(b"IDAT") + 4:data.index(b"IEND") - 8])
    ground = raw[1:4]
    ink = []
    for row in range(192):
        line = raw[row * (192 * 3 + 1) + 1:(row + 1) * (192 * 3 + 1)]
        ink += [(column, row) for column in range(192) if line[column * 3:column * 3 + 3] != ground]
    assert len(ink) > 1000                                    # something is drawn
    assert all((x - 95.5) ** 2 + (y - 95.5) ** 2 <= (0.4 * 192) ** 2 for x, y in ink)


def test_the_service_worker_asks_only_for_what_the_build_made(built_site):
    worker = (built_site / "sw.js").read_text(encoding="utf-8")
    listed = [json.loads("[" + re.search(rf"const {name} = \[(.*?)\];", worker).group(1) + "]")
              for name in ("QUICK", "LINKED")]
    for path in listed[0] + listed[1]:
        assert (built_site / path / "index.html").is_file() or (built_site / path).is_file(), path
    assert ("annotations/" in listed[0]) == (built_site / "annotations" / "index.html").is_file()
    # every page linked from home is saved: "What changed" and each change among them
    home = (built_site / "index.html").read_text(encoding="utf-8")
    assert 'href="changes/"' in home
    changes = [path for path in listed[1] if path.startswith("changes/")]
    assert "changes/" in changes and len(changes) == len(list((built_site / "changes").glob("*/index.html"))) + 1


def test_an_infraction_page_jumps_to_its_remedy_and_folds_who_cites_a_rule(built_site):
    page = (built_site / "ipg" / "2.3" / "index.html").read_text(encoding="utf-8")
    jumps = page[page.index('<nav class="rk-jumps"'):page.index("</nav>", page.index('<nav class="rk-jumps"'))]
    assert '<a href="#remedy">Remedy</a>' in jumps
    assert page.index('<nav class="rk-jumps"') < page.index('class="rk-penalty-path"')     # near the top
    assert re.search(r'<p class="rk-subheading" id="remedy"[^>]*><strong>Additional Remedy</strong>', page)
    cr = (built_site / "cr" / "704" / "index.html").read_text(encoding="utf-8")
    beside = re.findall(r'<details class="rk-refby rk-refby--beside"><summary aria-label="Referenced by (\d+) places?">'
                        r'<span aria-hidden="true">Cited (\d+)\u00d7</span>', cr)
    assert len(beside) > 10 and all(said == shown for said, shown in beside)


def test_the_fix_comes_first_on_the_page_and_in_one_line_on_the_quick_reference(built_site):
    page = (built_site / "ipg" / "2.3" / "index.html").read_text(encoding="utf-8")
    box = page[page.index('class="rk-penalty-path"'):page.index('id="definition"')]
    fix = re.search(r'<li class="rk-fix"><strong>Fix</strong> (.*?) <a class="rk-jump" href="#remedy">Remedy</a></li>', box)
    # Hidden Card Error's ordinary fix: the set holding too many cards, not the simple backup that opens the remedy
    assert fix and fix.group(1).startswith("If a set affected by the error contains more cards than it is supposed to")
    assert box.index('class="rk-fix"') < box.index('class="rk-up"')
    sheet = (built_site / "penalties" / "index.html").read_text(encoding="utf-8")
    row = sheet[sheet.index('href="../ipg/2.3/'):]
    row = row[:row.index("</details>")]
    said = re.search(r'<span class="rk-fix"><strong>Fix:</strong> (.*?)</span>', row).group(1)
    assert said.startswith("If a set affected by the error") and said.endswith("correct size.")   # its first sentence
    assert "<summary>Fix and upgrade</summary>" in row
