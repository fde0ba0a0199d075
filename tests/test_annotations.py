"""Judges' annotations: notes on rules that are renumbered, reworded, unchanged and removed between two real
CR editions (2025-11-14 -> 2026-01-16) and two real IPG editions (2021-02-05 -> 2024-09-23), each landing
where a judge expects it; notes checked like sources (problems with file and line); hostile notes that run
nothing; annotations searched as commentary, never above the rule text itself; show, export, the API.
"""
from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from html.parser import HTMLParser
from pathlib import Path

import pytest

from pipeline import api
from pipeline.model import ERROR, WARNING
from pipeline.search.engine import search
from pipeline.search.index import ANALYZER, KnowledgeBase
from pipeline.search.question import is_variant, understand
from pipeline.search.scoring import ranked
from pipeline.site.publish import index_folder, published

from conftest import CORPUS, FIXTURES, ROOT, made_once, rulekb

NOTES = FIXTURES / "annotations"
SOURCES = ("cr-2025-11-14.txt", "cr-2026-01-16.txt", "ipg-2021-02-05.pdf", "ipg-2024-09-23.txt",
           "mtr-2026-02-27.txt")


def project(root: Path, notes: Path = NOTES) -> Path:
    """Two editions of the CR and of the IPG, the MTR, and the notes in `annotations/` beside them."""
    sources = root / "sources"
    sources.mkdir(parents=True)
    for name in SOURCES:
        shutil.copyfile(CORPUS / name, sources / name)
    shutil.copytree(notes, root / "annotations", symlinks=True)      # a link out of the folder stays a link
    return sources


def write_note(folder: Path, name: str, section: str, edition: str, body: str, **fields) -> Path:
    lines = ["---", f"section: {section}", f"edition: {edition}", "authors: [T. Tester]", "date: 2026-11-02"]
    lines += [f"{key}: {value}" for key, value in fields.items()]
    path = folder / name
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text("\n".join(lines + ["---", body, ""]), encoding="utf-8")
    return path


# The words of the search-ordering notes: ZORBLAX is in no document; "excess damage trample" is in 702.19's
# own rules and, on 704.5k (the world rule), only in a note.
ORDERING_NOTES = {
    "search/world.md": ("cr:704.5k", "Compare trample: excess damage assigned past the blockers."),
    "search/zorblax.md": ("cr:702.19c", "A zorblax is what this note calls an excess damage assignment."),
}


def hostile_project(tmp_path_factory) -> Path:
    """The project with the example notes, the search-ordering notes and notes written to break things
    (hostile/annotations; the note that would run a command would make hostile/pwned), and the sources with a copy
    of those notes beside them (project/sources): made once for the session (the browser's tests read its site)."""
    return made_once(tmp_path_factory, "annotated-project", _write_hostile_project)


def _write_hostile_project(root: Path) -> None:
    root = root / "hostile"
    notes = root / "annotations"
    shutil.copytree(NOTES, notes)
    for name, (section, body) in ORDERING_NOTES.items():
        write_note(notes, name, section, "2026-01-16", body)
    write_note(notes, "hostile/everything.md", "cr:704.5k", "2026-01-16",
               "<script>alert('body')</script>\n\n"
               "[a link](javascript:alert('link')) and [data](data:text/html,<script>alert(1)</script>)\n\n"
               "<a href=\"javascript:alert('raw')\" onclick=\"alert('click')\">raw link</a>\n\n"
               "<img src=x onerror=\"alert('img')\"> <iframe src=\"https://example.org\"></iframe>\n\n"
               "[fine](https://example.org/rules) *kept* `code 704.5k`",
               title="\"<script>alert('title')</script>\"")
    (notes / "hostile/authors.md").write_text(
        "---\nsection: cr:702.19c\nedition: 2026-01-16\nauthors: [\"<script>alert('author')</script>\", "
        "\"<img src=x onerror=alert(2)>\"]\ndate: 2026-11-02\n---\nWho wrote this is data too.\n", encoding="utf-8")
    (notes / "hostile/yaml-object.md").write_text(
        "---\nsection: !!python/object/apply:os.system [\"touch " + str(root / "pwned") + "\"]\n"
        "edition: 2026-01-16\nauthors: [A]\ndate: 2026-11-02\n---\nbody\n", encoding="utf-8")
    write_note(notes, "hostile/huge.md", "cr:704.5k", "2026-01-16", "word " * 40_000)
    (notes / "hostile/binary.md").write_bytes(b"---\nsection: cr:704.5k\n---\n\x00\x01\x02PNG")
    (notes / "hostile/latin1.md").write_bytes("---\nsection: cr:704.5k\n---\nNot UTF-8: caf\xe9\n".encode("latin-1"))
    secret = root / "secret.md"
    write_note(root, "secret.md", "cr:704.5k", "2026-01-16", "TOPSECRET text outside the folder")
    os.symlink(secret, notes / "hostile" / "link-out.md")
    (notes / "hostile" / "picture.png").write_bytes(b"\x89PNG")
    project(root.parent / "project", notes)


def built_with_every_note(tmp_path_factory) -> subprocess.CompletedProcess:
    """The project built once with every note, as a user builds it: `rulekb build` in a subprocess (what it
    printed is checked too), into project/site; made once for the session (the browser's tests read it too). A
    whole site and its search index, a large workload: the tests of the pages and of the search are outside the
    fast lane (`slow`)."""
    sources = hostile_project(tmp_path_factory) / "project" / "sources"

    def build(folder: Path) -> None:
        result = subprocess.run([sys.executable, "-m", "pipeline", "build", "--sources", str(sources),
                                 "--out", str(sources.parent / "site"), "--config", str(ROOT / "mkdocs.yml")],
                                capture_output=True, text=True, timeout=900)
        (folder / "result.json").write_text(json.dumps(
            {"args": result.args, "returncode": result.returncode, "stdout": result.stdout, "stderr": result.stderr}))
    made = made_once(tmp_path_factory, "annotated-site", build)
    return subprocess.CompletedProcess(**json.loads((made / "result.json").read_text()))


@pytest.fixture(scope="module")
def hostile_notes(tmp_path_factory) -> Path:
    """The example notes, the search-ordering notes, and notes written to break things."""
    return hostile_project(tmp_path_factory) / "hostile" / "annotations"


@pytest.fixture(scope="module")
def annotated(tmp_path_factory, hostile_notes):
    """The project read with every note, as the build reads it: (corpus, notes folder, sources)."""
    sources = hostile_project(tmp_path_factory) / "project" / "sources"
    return api.load_annotated(sources), sources.parent / "annotations", sources


@pytest.fixture(scope="module")
def built_by_the_cli(tmp_path_factory, annotated):
    return built_with_every_note(tmp_path_factory)


@pytest.fixture(scope="module")
def built(annotated, built_by_the_cli):
    """(site, corpus, notes folder, sources): the site that build wrote, and the corpus it was built from
    (`api.load_annotated`, what `api.build` reads)."""
    corpus, notes, sources = annotated
    assert built_by_the_cli.returncode == 0, built_by_the_cli.stderr[-2000:]
    return sources.parent / "site", corpus, notes, sources


def note(corpus, file_name: str):
    return next(a for a in corpus.annotations if a.file == f"annotations/{file_name}")


def problems_of(corpus, file_name: str) -> list:
    return [p for p in corpus.all_problems() if p.file == f"annotations/{file_name}"]


def page(site: Path, address: str) -> str:
    return (site / address / "index.html").read_text(encoding="utf-8")


# -- carried across editions ----------------------------------------------------------------------------

def test_a_note_on_a_renumbered_rule_follows_it_to_its_new_number(annotated):
    """CR 702.124m (Choose a Background) of 2025-11-14 is 702.124k in 2026-01-16, its words the same."""
    corpus, _, _ = annotated
    background = note(corpus, "cr/choose-a-background.md")
    assert background.written_for == "cr-2025-11-14:702.124m"
    assert background.target == "cr:702.124k"
    assert not background.changed_since
    assert not problems_of(corpus, "cr/choose-a-background.md")


def test_a_note_on_a_reworded_rule_says_the_rule_changed_since(annotated):
    """CR 702.124a lost "friends forever" from its list; IPG 2.1 was reworded between 2021 and 2024."""
    corpus, _, _ = annotated
    partner = note(corpus, "cr/partner-abilities.md")
    assert (partner.target, partner.changed_since) == ("cr:702.124a", True)
    trigger = note(corpus, "ipg/missed-trigger.md")
    assert (trigger.written_for, trigger.target, trigger.changed_since) == ("ipg-2021-02-05:2.1", "ipg:2.1", True)


def test_a_note_on_an_unchanged_rule_stays_without_a_notice(annotated):
    corpus, _, _ = annotated
    trample = note(corpus, "cr/trample.md")
    assert (trample.written_for, trample.target, trample.changed_since) == ("cr:702.19b", "cr:702.19b", False)


def test_a_note_on_a_removed_rule_is_reported_with_file_and_line(annotated):
    """CR 702.124k of 2025-11-14 (Friends forever) is gone from 2026-01-16: an orphan, a warning at `section:`."""
    corpus, _, _ = annotated
    orphan = note(corpus, "cr/friends-forever.md")
    assert orphan.orphaned and orphan.written_for == "cr-2025-11-14:702.124k"
    [problem] = problems_of(corpus, "cr/friends-forever.md")
    assert (problem.severity, problem.line) == (WARNING, 2)
    assert "orphaned" in problem.message and "cr:702.124k" in problem.message


@pytest.mark.slow
def test_a_note_on_a_removed_rule_is_kept_on_its_edition(built):
    site, _, _, _ = built
    older = page(site, "cr-2025-11-14")
    assert 'id="annotations"' in older and "Friends forever pairs only with friends forever" in older
    assert "Friends forever pairs only" not in page(site, "cr/702")


def test_references_in_a_note_are_resolved(annotated):
    corpus, _, _ = annotated
    trigger = note(corpus, "ipg/missed-trigger.md")
    assert {ref.text: ref.target for ref in trigger.refs} == {"see 2.5": "ipg:2.5", "MTR section 4.4": "mtr:4.4"}
    assert [ref.line for ref in trigger.refs] == [11, 12]


@pytest.mark.slow
def test_references_in_a_note_are_linked(built):
    site, _, _, _ = built
    ipg = page(site, "ipg/2.1")
    assert '<a class="rk-ref" href="../2.5/#2.5">2.5</a>' in ipg
    assert 'href="../../mtr/4.4/#4.4"' in ipg or 'href="../../mtr/4/#4.4"' in ipg
    assert "rulekb:" not in ipg


# -- on the site ----------------------------------------------------------------------------------------

@pytest.mark.slow
def test_the_block_sits_under_its_rule_with_author_date_edition_and_the_changed_notice(built):
    site, _, _, _ = built
    cr702 = page(site, "cr/702")
    rule = cr702[cr702.index('id="702.124a"'):cr702.index('id="702.124b"')]
    assert 'class="rk-annotation"' in rule and "S. Sample" in rule and 'datetime="2025-12-02"' in rule
    assert "Written for the 2025-11-14 text; this rule has changed since" in rule
    assert '<a href="../../history/cr/702/#702.124a">what changed</a>' in rule
    assert (site / "history/cr/702/index.html").is_file()
    renumbered = cr702[cr702.index('id="702.124k"'):cr702.index('id="702.124m"')]
    assert "A Background is an enchantment" in renumbered and "where this rule was 702.124m" in renumbered
    assert "changed since" not in renumbered
    listing = page(site, "annotations")
    for text in ("Each partner ability names", "A Background is an enchantment", "The usual borderline call",
                 "Friends forever pairs only"):
        assert text in listing
    assert '"annotations/"' in (site / "sw.js").read_text(encoding="utf-8")


@pytest.mark.slow
def test_annotations_are_not_printed(built):
    site, _, _, _ = built
    css = (site / "assets/rulekb.css").read_text(encoding="utf-8")
    print_rules = css[css.index("/* a printed page is the rules"):]
    assert "@media print" in print_rules and ".rk-annotation," in print_rules and "display: none" in print_rules


# -- checked like sources -------------------------------------------------------------------------------

def test_validation_problems_name_file_and_line(tmp_path):
    notes = tmp_path / "annotations"
    write_note(notes, "unknown.md", "cr:999.99z", "2026-01-16", "Text.")
    write_note(notes, "bad-kind.md", "xyz:1.1", "2026-01-16", "Text.")
    write_note(notes, "bad-date.md", "cr:704.5k", "2026-02-30", "Text.")
    (notes / "missing.md").write_text("---\nsection: cr:704.5k\nedition: 2026-01-16\ndate: 2026-11-02\n---\nText.\n",
                                      encoding="utf-8")
    (notes / "no-front-matter.md").write_text("Just text about 704.5k.\n", encoding="utf-8")
    (notes / "bad-yaml.md").write_text("---\nsection: cr:704.5k\nedition: [2026\n---\nText.\n", encoding="utf-8")
    write_note(notes, "dangling.md", "cr:704.5k", "2026-01-16", "First line.\nSee rule 799.9 for nothing.")
    write_note(notes, "extra.md", "cr:704.5k", "2026-01-16", "Text.", colour="blue")
    write_note(notes, "README.md", "not:a-note", "never", "This folder's own documentation.")
    write_note(notes, "old-edition.md", "cr:704.5k", "2019-01-01", "Written for an edition not in the sources.")
    sources = project(tmp_path / "p", notes)
    report = api.check(sources, annotations=notes)
    found = {(p.file.removeprefix("annotations/"), p.severity, p.line) for p in report.problems
             if p.file.startswith("annotations/")}
    assert ("unknown.md", ERROR, 2) in found
    assert ("bad-kind.md", ERROR, 2) in found
    assert ("bad-date.md", ERROR, 3) in found
    assert ("missing.md", ERROR, 2) in found               # `authors` missing: the line of `section`
    assert ("no-front-matter.md", ERROR, 1) in found
    assert {("bad-yaml.md", ERROR, 3), ("bad-yaml.md", ERROR, 4)} & found   # where the YAML parser sees the unclosed [
    assert ("dangling.md", WARNING, 8) in found
    assert ("extra.md", WARNING, 6) in found
    assert ("old-edition.md", WARNING, 3) in found        # placed by its number in the current edition
    assert not any(name == "README.md" for name, _, _ in found)
    messages = {p.file.removeprefix("annotations/"): p.message for p in report.problems}
    assert "unknown section cr:999.99z" in messages["unknown.md"]
    assert "missing field `authors`" in messages["missing.md"]
    assert "`date: 2026-02-30` is not a date" not in messages["bad-date.md"]     # the edition is the bad one
    assert "`edition: 2026-02-30` is not a date" in messages["bad-date.md"]
    assert "799.9" in messages["dangling.md"]
    result = rulekb("check", str(sources), "--annotations", str(notes))
    assert result.returncode == 1
    assert "annotations/unknown.md:2: error: unknown section cr:999.99z" in result.stdout
    assert "Traceback" not in result.stderr


def test_a_missing_annotations_folder_named_is_refused_in_one_line(tmp_path):
    sources = project(tmp_path / "p")
    result = rulekb("show", "704.5k", "--sources", str(sources), "--annotations", str(tmp_path / "nowhere"))
    assert result.returncode == 2 and "no annotations folder" in result.stderr and "Traceback" not in result.stderr


# -- hostile notes --------------------------------------------------------------------------------------

class Tags(HTMLParser):
    """Every tag of a page with its attributes, and the text of its inline scripts."""

    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []
        self.inline_scripts: list[str] = []
        self._in_script = False

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))
        self._in_script = tag == "script" and not dict(attrs).get("src")

    def handle_endtag(self, tag):
        self._in_script = False

    def handle_data(self, data):
        if self._in_script:
            self.inline_scripts.append(data)


@pytest.mark.slow
def test_hostile_notes_run_nothing_and_the_build_publishes_the_rest(built, hostile_notes):
    site, _, _, _ = built
    for address in ("cr/704", "cr/702", "annotations"):
        text = page(site, address)
        tags = Tags()
        tags.feed(text)
        for tag, attributes in tags.tags:
            assert not any(name.startswith("on") for name in attributes), (address, tag, attributes)
            for name in ("href", "src", "action"):
                assert not (attributes.get(name) or "").strip().lower().startswith(("javascript:", "data:")), \
                    (address, tag, attributes)
            assert tag not in ("iframe", "img", "object", "embed"), (address, tag)
        assert not any("alert" in script for script in tags.inline_scripts), address
    world = page(site, "cr/704")
    assert "&lt;script&gt;alert(&#x27;body&#x27;)&lt;/script&gt;" in world or "&lt;script&gt;alert('body')" in world
    assert '<a href="https://example.org/rules" rel="nofollow noopener noreferrer">fine</a>' in world
    assert "<em>kept</em>" in world and "<code>code 704.5k</code>" in world
    assert "&lt;script&gt;alert(&#x27;author&#x27;)&lt;/script&gt;" in page(site, "cr/702")
    assert "TOPSECRET" not in "".join(p.read_text(errors="replace") for p in site.rglob("*.html"))
    assert not (hostile_notes.parent / "pwned").exists()


def test_hostile_notes_are_refused_saying_why_and_run_nothing(annotated, hostile_notes):
    corpus, _, _ = annotated
    assert not (hostile_notes.parent / "pwned").exists()
    refused = {name: problems_of(corpus, f"hostile/{name}") for name in
               ("huge.md", "binary.md", "latin1.md", "link-out.md", "yaml-object.md", "picture.png")}
    assert all(problems for problems in refused.values()), refused
    assert "too large" in refused["huge.md"][0].message
    assert "binary" in refused["binary.md"][0].message and refused["binary.md"][0].line == 4
    assert "not UTF-8" in refused["latin1.md"][0].message and refused["latin1.md"][0].line == 4
    assert "outside the annotations folder" in refused["link-out.md"][0].message
    assert "not valid YAML" in refused["yaml-object.md"][0].message
    assert refused["picture.png"][0].severity == WARNING
    assert not any(a.file.startswith("annotations/hostile/") and a.file.endswith(("huge.md", "link-out.md"))
                   for a in corpus.annotations)


@pytest.mark.slow          # the module's whole build (through the CLI in a subprocess)
def test_the_build_lists_the_notes_it_left_out_and_publishes(built_by_the_cli, annotated):
    result, sources = built_by_the_cli, annotated[2]
    assert result.returncode == 0, result.stderr[-2000:]
    assert "annotations left out:" in result.stderr and "annotations/hostile/huge.md" in result.stderr
    assert "Traceback" not in result.stderr
    assert (sources.parent / "site" / "annotations" / "index.html").is_file()


# -- searched as commentary -----------------------------------------------------------------------------

@pytest.fixture(scope="module")
def kb(built):
    site = built[0]
    knowledge_base = KnowledgeBase(index_folder(site, published(site)["generation"]))
    yield knowledge_base
    knowledge_base.close()


def ranks(kb, query: str) -> list[str]:
    return [result.id for result in search(kb, query, limit=200).results]


@pytest.mark.slow
def test_a_word_only_in_a_note_finds_the_rule_it_explains(kb):
    assert ranks(kb, "zorblax")[:1] == ["cr:702.19c"]


def every_entry(kb, query: str) -> list[str]:
    """The whole ranking of a question (the engine shows its first 60)."""
    return [kb.hit(position, score).id for position, score in ranked(kb, understand(query, kb), None)]


@pytest.mark.slow
def test_a_note_never_ranks_above_the_rule_text_that_says_the_same_words(kb):
    """"excess damage trample" is 702.19's own text; on 704.5k it is only in a note: 704.5k comes after
    every rule whose text holds those words."""
    found = every_entry(kb, "excess damage trample")
    assert "cr:704.5k" in found
    own = [rule for rule in ("cr:702.19b", "cr:702.19c", "cr:702.19e") if rule in found]
    assert own and all(found.index(rule) < found.index("cr:704.5k") for rule in own), found


@pytest.mark.slow
@pytest.mark.parametrize("word", ["trample", "excess", "damage", "assigned", "blockers"])
def test_for_one_word_every_rule_saying_it_ranks_above_the_rule_whose_note_says_it(kb, word):
    """Common words too ("damage" is in hundreds of rules): each rule of the CR's game rules (not the variants'
    chapters 8 and 9, which rank at half weight by design) whose own text says the word comes before 704.5k."""
    found = every_entry(kb, word)
    stems = {token.text for token in ANALYZER(word)}
    holders = [fields["id"] for fields in kb.stored()
               if fields["kind"] == "cr" and fields.get("section_kind") != "glossary"
               and not is_variant("cr", fields.get("number") or "") and fields["id"] != "cr:704.5k"
               and stems & {token.text for token in ANALYZER(fields.get("text") or "")}]
    assert holders and "cr:704.5k" in found
    late = [rule for rule in holders if found.index(rule) > found.index("cr:704.5k")]
    assert not late, (word, len(holders), late[:10])


@pytest.mark.node
def test_the_site_s_search_ranks_notes_as_the_engine_does(built, kb):
    """The browser's worker (under Node) gives the same first answers on the notes' words."""
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node on this machine: the worker is not run (apt-get install nodejs)")
    harness = [node, str(ROOT / "tests/worker_harness.js"), str(ROOT / "pipeline/site/assets/search-worker.js"),
               str(built[0] / "search")]
    process = subprocess.Popen(harness, text=True, stdin=subprocess.PIPE, stdout=subprocess.PIPE)
    try:
        for number, query in enumerate(("zorblax", "excess damage trample", "borderline call forgot"), 1):
            process.stdin.write(json.dumps({"id": number, "query": query, "limit": 10}) + "\n")
            process.stdin.flush()
            answer = json.loads(process.stdout.readline())["answer"]
            assert [result["id"] for result in answer["results"]][:5] == ranks(kb, query)[:5], query
    finally:
        process.stdin.close()
        process.wait(timeout=30)


# -- show, export, the API -------------------------------------------------------------------------------

def test_show_prints_the_notes_under_the_section(annotated):
    _, notes, sources = annotated
    result = rulekb("show", "ipg 2.1", "--sources", str(sources))      # annotations/ beside sources/
    assert result.returncode == 0, result.stderr
    out = result.stdout
    assert "ANNOTATION by T. Placeholder, 2023-06-10 (written for the 2021-02-05 text; this rule has changed since)" \
        in out
    assert out.index("ANNOTATION") < out.index("References:")
    view = api.show("702.124k", sources)
    assert [a["file"] for a in view["annotations"]] == ["annotations/cr/choose-a-background.md"]
    older = api.show("702.124k", sources, edition="cr-2025-11-14")
    assert [a["file"] for a in older["annotations"]] == ["annotations/cr/friends-forever.md"]


def test_export_and_the_api_give_every_note(annotated):
    corpus, notes, sources = annotated
    exported = api.export("cr", sources)
    files = {a["file"] for a in exported["annotations"]}
    assert "annotations/cr/choose-a-background.md" in files and "annotations/cr/friends-forever.md" not in files
    listed = api.annotations(sources)
    assert len(listed) == len(corpus.annotations)
    background = next(a for a in listed if a["file"] == "annotations/cr/choose-a-background.md")
    assert background["section"] == "cr:702.124m" and background["target"] == "cr:702.124k"
    assert background["authors"] == ["R. Example", "S. Sample"] and not background["orphaned"]


@pytest.mark.slow
@pytest.mark.parametrize("ref", ["702.124k", "ipg 2.1", "cr:702.19b"])
def test_the_server_gives_a_section_s_notes_as_rulekb_show_does(built, ref):
    from pipeline.serve.generation import Site
    site, corpus, _, _ = built
    expected = api.show(ref, corpus=corpus)
    assert expected["annotations"]                       # a section with notes, so the comparison means something
    assert Site(site).current().sections().view(ref) == expected
