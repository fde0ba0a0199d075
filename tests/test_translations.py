"""Translations beside the English: a document's language is read from its text, a translation never
stands in for an English edition, it pairs with the English edition of its date number by number, and
what does not pair is listed with file and line."""
from __future__ import annotations

import re
import shutil
from pathlib import Path
from types import SimpleNamespace

import pytest

from pipeline import api, kinds
from pipeline.cli import main
from pipeline.corpus import load_corpus, load_document, load_translation
from pipeline.pairing import pair, pair_glossary
from pipeline.read import read_bytes
from pipeline.read.detect import detect
from pipeline.read.language import read_language
from pipeline.search.engine import search
from pipeline.search.index import KnowledgeBase
from pipeline.site.publish import index_folder, published

from conftest import CORPUS, FIXTURES, ROOT, SEEDS

TRANSLATIONS = FIXTURES / "translations"
CHINESE = TRANSLATIONS / "cr-2026-01-16.zh.txt"
KOREAN = TRANSLATIONS / "cr-2019-01-25.ko.txt"
CHINESE_2024 = TRANSLATIONS / "cr-2024-08-02.zh-excerpt.txt"


def folder_of(tmp_path: Path, *files: Path, manifest: str = "") -> Path:
    folder = tmp_path / "sources"
    folder.mkdir()
    for file in files:
        shutil.copyfile(file, folder / file.name)
    if manifest:
        (folder / "manifest.toml").write_text(manifest, encoding="utf-8")
    return folder


@pytest.fixture(scope="module")
def chinese_beside_english(tmp_path_factory):
    """The English CR of 2026-01-16 and its Chinese translation, the Chinese of 2024 (an older edition's) and
    the English of that date, and the Korean of 2019 whose English edition is not there."""
    folder = folder_of(tmp_path_factory.mktemp("zh"), CORPUS / "cr-2026-01-16.txt", CHINESE,
                       CORPUS / "cr-2024-08-02.txt", CHINESE_2024, KOREAN,
                       manifest='["cr-2026-01-16.zh.txt"]\ncredit = "The Chinese judge community"\n\n'
                                '["cr-2024-08-02.zh-excerpt.txt"]\nexcerpt = true\n')
    return load_corpus(folder)


def test_language_is_read_from_the_script_and_the_words():
    assert read_language(CHINESE.read_text(encoding="utf-8")[:20000]).language == "zh"
    assert read_language(KOREAN.read_text(encoding="utf-8-sig")[:20000]).language == "ko"
    assert read_language((CORPUS / "cr-2026-01-16.txt").read_text(encoding="utf-8")[:20000]).language == "en"
    french = "Les règles complètes de Magic sont la référence ultime pour les joueurs et les arbitres. " * 30
    found = read_language(french)
    assert found.language is None and "few common words" in found.says
    kana = "マジック：ザ・ギャザリング 総合ルール です。これはルールの説明です。" * 30
    assert read_language(kana).language is None


def test_a_translation_s_edition_is_read_in_its_own_language():
    found = detect(read_bytes(CHINESE.read_bytes(), "中文.txt"))     # no date in the name: from the text
    assert (found.kind, found.language, found.edition, found.edition_line) == ("cr", "zh", "2026-01-16", 3)
    assert found.title == "万智牌完整规则"
    korean = detect(read_bytes(KOREAN.read_bytes(), "korean.txt"))
    assert (korean.language, korean.edition) == ("ko", "2019-01-25")


def test_a_chinese_cr_is_never_the_english_cr(chinese_beside_english):
    corpus = chinese_beside_english
    current = corpus.document("cr")
    assert current.info.source == "cr-2026-01-16.txt" and current.info.language == "en"
    assert all(info.language == "en" for info in corpus.editions)
    assert all("践踏" not in section.title for section in current.sections)
    paired = {info.source: info.translates for info in corpus.translations}
    assert paired["cr-2026-01-16.zh.txt"] == "cr"


def test_a_chinese_cr_alone_is_no_cr_at_all(tmp_path):
    # dropped into a folder without its English edition: no current CR, a warning naming the file
    corpus = load_corpus(folder_of(tmp_path, CHINESE, SEEDS / "000_d5f726d99ad04a53.txt",
                                   manifest='["000_d5f726d99ad04a53.txt"]\nkind = "floor"\n'))
    assert corpus.document("cr") is None and not corpus.translations
    said = [problem for problem in corpus.problems if problem.file == CHINESE.name]
    assert said and "no English edition of that date" in said[0].message and said[0].line == 3


def test_an_older_edition_s_translation_goes_with_that_edition(chinese_beside_english):
    corpus = chinese_beside_english
    older = next(info for info in corpus.translations if info.source == CHINESE_2024.name)
    english = next(info for info in corpus.editions if info.source == "cr-2024-08-02.txt")
    assert older.translates == english.id != "cr" and older.edition == english.edition == "2024-07-30"
    assert not older.current
    document = load_translation(corpus, "zh", english.id)
    rule = document.section(f"{english.id}:100.1")
    assert (rule.title + rule.text).startswith("这些万智牌规则")


def test_a_translation_without_its_english_edition_is_reported_by_name(chinese_beside_english):
    corpus = chinese_beside_english
    assert KOREAN.name not in {info.source for info in corpus.translations}
    said = [problem.message for problem in corpus.problems if problem.file == KOREAN.name]
    assert any("Korean translation" in message and "2019-01-25" in message and "not published" in message
               for message in said)


def test_the_credit_comes_from_the_manifest(chinese_beside_english):
    info = next(info for info in chinese_beside_english.translations if info.source == CHINESE.name)
    assert info.credit == "The Chinese judge community"


def test_what_does_not_pair_is_listed_with_file_and_line(tmp_path):
    corpus = load_corpus(folder_of(tmp_path, CORPUS / "cr-2019-01-25.txt", KOREAN))
    english = corpus.document("cr")
    korean = load_translation(corpus, "ko", "cr")
    pairing, problems = pair(korean, english)
    assert "701.21" in pairing.untranslated and pairing.translated > 2000
    assert "302.4b" in pairing.missing
    listed = {problem.message.split()[0]: problem for problem in corpus.problems if problem.file == KOREAN.name}
    assert listed["701.21"].line == 2941 and "left in English" in listed["701.21"].message
    assert listed["302.4b"].line == korean.section("cr:302.4a").line and "not in the Korean" in listed["302.4b"].message


def test_the_chinese_of_2026_pairs_number_for_number(chinese_beside_english):
    corpus = chinese_beside_english
    assert not [problem for problem in corpus.problems if problem.file == CHINESE.name]
    chinese, english = load_translation(corpus, "zh", "cr"), corpus.document("cr")
    pairing, _ = pair(chinese, english)
    assert not pairing.missing and not pairing.extra and not pairing.untranslated
    assert chinese.section("cr:702.19b").text.startswith("具有践踏的攻击生物")


def test_check_says_what_language_each_document_is_in(tmp_path, capsys):
    folder = folder_of(tmp_path, CORPUS / "cr-2026-01-16.txt", CHINESE)
    assert main(["check", str(folder)]) == 0
    out = capsys.readouterr().out
    assert "in English: 1 document(s)" in out
    assert "cr-2026-01-16.zh.txt: Simplified Chinese (Simplified Chinese by its script" in out


def test_a_language_the_site_does_not_know_is_an_error_with_its_file(tmp_path):
    text = "Comprehensive Rules\n\nEffective January 16, 2026\n\n" + "".join(
        f"100.{n}. Les règles sont la référence ultime pour les joueurs et les arbitres du jeu.\n\n"
        for n in range(1, 40))
    (tmp_path / "cr-fr.txt").write_text(text, encoding="utf-8")
    corpus = load_corpus(tmp_path)
    errors = [problem for problem in corpus.problems if problem.file == "cr-fr.txt"]
    assert errors and errors[0].severity == "error" and "cannot tell what language" in errors[0].message
    assert corpus.document("cr") is None


def test_the_manifest_may_say_the_language(tmp_path):
    from pipeline.read.manifest import load_manifest
    (tmp_path / "manifest.toml").write_text('["a.txt"]\nlanguage = "zh"\n\n["b.txt"]\nlanguage = "xx"\n')
    entries, problems = load_manifest(tmp_path)
    assert entries["a.txt"].language == "zh"
    assert problems and problems[0].line == 4 and "language must be one of" in problems[0].message


def test_a_number_is_routed_by_the_registry_alone():
    assert kinds.numbered_by("112a") == ("floor",)
    assert kinds.numbered_by("704.5k") == ("cr",)
    assert kinds.numbered_by("2.1") == ("ipg", "mtr")
    assert kinds.numbered_by("112") == ("cr", "floor")


def test_show_and_search_agree_on_112a(built_site, frozen_corpus):
    knowledge_base = KnowledgeBase(index_folder(built_site, published(built_site)["generation"]))
    try:
        found = search(knowledge_base, "112a")
    finally:
        knowledge_base.close()
    document, section = api.find_section(frozen_corpus, "112a")
    assert section.id == "floor:112a"
    assert found.results and found.results[0].id == "floor:112a" and not found.notice


# -- the pages in the language ------------------------------------------------------------------------------

def test_a_translated_rule_is_on_its_own_page_beside_its_number(built_site):
    page = (built_site / "zh" / "cr" / "702" / "index.html").read_text(encoding="utf-8")
    start = page.index('id="702.19b"')
    rule = page[start:page.index("</section>", start)]
    assert "具有践踏的攻击生物之操控者" in rule
    english = rule[rule.index('<details class="rk-en" lang="en">'):]
    assert "<summary>英文原文</summary>" in english and "The controller of an attacking creature with trample" in english
    assert 'lang="zh"' in page and "本译文为非官方翻译" in page
    assert kinds.UNOFFICIAL_IN_ENGLISH in page and "Chinese judge community" in page


def test_the_english_page_links_its_translation(built_site):
    page = (built_site / "cr" / "702" / "index.html").read_text(encoding="utf-8")
    # no site_url: no hreflang link (a relative one is invalid to search engines and Lighthouse)
    assert '<link rel="alternate"' not in page
    bar = page[page.index('<p class="rk-languages"'):]
    bar = bar[:bar.index("</p>")]
    assert 'data-rk-language="zh"' in bar and ">简体中文</a>" in bar and "min-height:44px" in bar
    translated = (built_site / "zh" / "cr" / "702" / "index.html").read_text(encoding="utf-8")
    assert '<link rel="alternate"' not in translated


def test_hreflang_links_are_whole_addresses_when_the_site_has_one():
    import jinja2
    theme = ROOT / "pipeline" / "site" / "theme"
    template = jinja2.Environment(loader=jinja2.FileSystemLoader(theme), autoescape=True).get_template(
        "partials/languages.html")
    page = SimpleNamespace(meta={"rulekb_alternates": [("zh", "zh/cr/702/"), ("en", "cr/702/")]})
    links = template.render(page=page, config={"site_url": "https://rules.example/magic/"})
    assert '<link rel="alternate" hreflang="zh" href="https://rules.example/magic/zh/cr/702/">' in links
    assert '<link rel="alternate" hreflang="en" href="https://rules.example/magic/cr/702/">' in links
    assert "hreflang" not in template.render(page=page, config={"site_url": None})


def test_typed_addresses_work_in_the_language(built_site):
    shortcut = built_site / "zh" / "cr" / "702.19b" / "index.html"
    assert shortcut.read_bytes() == (built_site / "zh" / "assets" / "number.html").read_bytes()
    assert 'var SEARCH_UP = "../";' in shortcut.read_text(encoding="utf-8")     # the one search, one level up
    home = (built_site / "zh" / "index.html").read_text(encoding="utf-8")
    assert 'href="cr/"' in home and "本译文为非官方翻译" in home
    assert (built_site / "zh" / "assets" / "typed-numbers.json").read_bytes() == (
        built_site / "assets" / "typed-numbers.json").read_bytes()


def test_a_rule_not_translated_shows_the_english_and_says_so(frozen_corpus):
    from dataclasses import replace

    from pipeline.addresses import address_corpus
    from pipeline.model import Block
    from pipeline.site.translated import translated_pages
    english = frozen_corpus.document("cr")
    # a translation of one rule (702.19b); 702.19c missing; the others left in English
    sections = tuple(replace(section, blocks=(Block("paragraph", "具有践踏的攻击生物之操控者……"),))
                     if section.number == "702.19b" else section
                     for section in english.sections if section.number != "702.19c")
    fake = replace(english, info=replace(english.info, language="zh", source="fake.zh.txt"), sections=sections)
    page = translated_pages(address_corpus(frozen_corpus), [(fake, english)]).pages["zh/cr/702.md"].body
    rules = {part.split('"', 1)[0]: part for part in page.split('<section class="rk-tr-rule')[1:]
             for part in [part[part.index('id="') + 4:]]}
    assert "具有践踏的攻击生物之操控者" in rules["702.19b"] and "此条规则尚无译文" not in rules["702.19b"]
    for number in ("702.19c", "702.19d"):
        assert "此条规则尚无译文" in rules[number] and "Not translated" in rules[number]
    assert "its damage is assigned to the defending player" in rules["702.19d"]     # its English


# -- search in the language ---------------------------------------------------------------------------------

CHINESE_QUESTIONS = ["践踏", "飞行", "死触", "状态检查动作", "阻挡生物", "衍生物", "踏", "践踏 飞行", "龘靐齉爩",
                     "连击和先攻", "宣告攻击者", "trample 践踏"]


def test_a_chinese_question_finds_its_rule_in_the_cli(sources_dir, capsys):
    assert main(["search", "践踏", "--sources", str(sources_dir)]) == 0
    out = capsys.readouterr().out
    lines = [line for line in out.splitlines() if re.match(r"\s*\d+\.\s", line)]
    assert "cr:702.19 " in lines[0] and "践踏" in lines[0] and "cr:702.19a" in lines[1]


def test_a_chinese_question_finds_its_rule_in_the_api(sources_dir):
    answer = api.search("践踏", sources_dir)
    assert [result.id for result in answer.results[:3]] == ["cr:702.19", "cr:702.19a", "cr:702.19b"]
    assert answer.results[0].url == "zh/cr/702/#702.19"


def test_the_site_s_search_and_python_answer_chinese_alike(built_site):
    import json
    import subprocess

    from pipeline.search.translated import search_translated
    node = shutil.which("node") or shutil.which("nodejs")
    if node is None:
        pytest.skip("no node on this machine")
    data = json.loads((built_site / "search" / "translated-zh.json").read_text(encoding="utf-8"))
    listed = json.loads((built_site / "search" / "translated.json").read_text(encoding="utf-8"))["languages"]
    script = (built_site / "search" / "translated-search.js").as_posix()
    program = (f"const t = require({json.dumps(script)}); const fs = require('fs');"
               f"const data = JSON.parse(fs.readFileSync({json.dumps(str(built_site / 'search' / 'translated-zh.json'))}));"
               f"const qs = {json.dumps(CHINESE_QUESTIONS, ensure_ascii=False)};"
               f"const letters = {json.dumps(listed['zh']['letters'], ensure_ascii=False)};"
               "console.log(JSON.stringify(qs.map(q => [t.translatedLanguage(q, " + json.dumps(listed, ensure_ascii=False)
               + "), t.translatedSearch(data, letters, q, 10).map(r => r.id)])));")
    out = subprocess.run([node, "-e", program], capture_output=True, text=True, check=True, timeout=60).stdout
    in_browser = json.loads(out)
    in_python = [["zh", [found["id"] for found in search_translated(data, question, 10)]] for question in CHINESE_QUESTIONS]
    assert in_browser == in_python
    assert in_python[0][1][:2] == ["cr:702.19", "cr:702.19a"] and not in_python[8][1]
    # English glossary terms (asked with the language chosen) and the English page of each result, alike
    program = (f"const t = require({json.dumps(script)}); const fs = require('fs');"
               f"const data = JSON.parse(fs.readFileSync({json.dumps(str(built_site / 'search' / 'translated-zh.json'))}));"
               f"const qs = {json.dumps(ENGLISH_TERMS)};"
               "console.log(JSON.stringify(qs.map(q => t.translatedSearch(data, '', q, 10).map(r => [r.id, r.english]))));")
    out = subprocess.run([node, "-e", program], capture_output=True, text=True, check=True, timeout=60).stdout
    in_python = [[[found["id"], found["english"]] for found in search_translated(data, term, 10)] for term in ENGLISH_TERMS]
    assert json.loads(out) == in_python and in_python[0][:2] == [["cr:glossary/term-trample", "cr/glossary/#term-trample"],
                                                                 ["cr:702.19", "cr/702/#702.19"]]
    assert not in_python[-1]             # no glossary term: the English search answers


ENGLISH_TERMS = ["trample", " TRAMPLE ", "Trample Over Planeswalkers", "state-based actions", "player arrived late"]


def test_glossary_terms_pair_both_ways_in_the_cli_the_api_and_the_site(built_site, sources_dir, capsys):
    from test_search_agreement import NODE, Worker

    from pipeline.search.translated import answer_from_folder
    # the English term with the language chosen: the Chinese glossary entry, then the Chinese rule page
    chosen = answer_from_folder(built_site / "search", "trample", chosen="zh")
    assert [(result.id, result.url) for result in chosen.results[:2]] == [
        ("cr:glossary/term-trample", "zh/cr/glossary/#term-trample"), ("cr:702.19", "zh/cr/702/#702.19")]
    assert answer_from_folder(built_site / "search", "trample") is None                 # no language chosen
    assert answer_from_folder(built_site / "search", "player arrived late", chosen="zh") is None   # no term
    # the Chinese term: each result names its English page
    chinese = answer_from_folder(built_site / "search", "践踏")
    assert chinese.results[0].english == "cr/702/#702.19" and chinese.as_json()["results"][0]["english"] == "cr/702/#702.19"
    # the CLI and the API from the sources, as the site
    assert [result.id for result in api.search("trample", sources_dir, language="zh").results[:2]] == [
        "cr:glossary/term-trample", "cr:702.19"]
    assert main(["search", "trample", "--language", "zh", "--sources", str(sources_dir)]) == 0
    out = capsys.readouterr().out
    assert "cr:glossary/term-trample" in out and "English: cr/702/#702.19" in out
    if NODE is None:
        pytest.skip("no node on this machine")
    worker = Worker(built_site / "search")
    try:
        in_site = worker.answer("trample", language="zh")
        english = worker.answer("trample")
    finally:
        worker.close()
    assert [result["id"] for result in in_site["results"][:2]] == ["cr:glossary/term-trample", "cr:702.19"]
    assert in_site["results"][1]["url"] == "zh/cr/702/#702.19" and in_site["language"] == "zh"
    assert "language" not in english and english["results"][0]["id"] == "cr:702.19"


def test_the_site_s_search_box_finds_trample_in_chinese(built_site):
    from test_search_agreement import NODE, Worker
    if NODE is None:
        pytest.skip("no node on this machine")
    worker = Worker(built_site / "search")
    try:
        answer = worker.answer("践踏")
        english = worker.answer("trample")
    finally:
        worker.close()
    assert answer["language"] == "zh" and answer["results"][0]["id"] == "cr:702.19"
    assert answer["results"][0]["url"] == "zh/cr/702/#702.19" and answer["results"][0]["title"] == "践踏"
    assert "language" not in english and english["results"][0]["id"] == "cr:702.19"



# -- hostile or broken translations -------------------------------------------------------------------------

def test_a_truncated_translation_is_not_published_half(tmp_path):
    corpus = load_corpus(folder_of(tmp_path, CORPUS / "cr-2024-08-02.txt", CHINESE_2024))
    assert not corpus.translations
    said = [problem for problem in corpus.problems if problem.file == CHINESE_2024.name]
    assert any(problem.severity == "error" and problem.line == 1499 and "truncated" in problem.message
               for problem in said)
    assert any("is not published" in problem.message for problem in said)


def test_a_translation_s_own_numbering_faults_are_listed_with_file_and_line(tmp_path):
    text = CHINESE.read_text(encoding="utf-8").replace("702.19c 践踏鹏洛客", "702.19b 践踏鹏洛客", 1)
    (tmp_path / "sources").mkdir()
    shutil.copyfile(CORPUS / "cr-2026-01-16.txt", tmp_path / "sources" / "cr-2026-01-16.txt")
    (tmp_path / "sources" / "cr-2026-01-16.zh.txt").write_text(text, encoding="utf-8")
    corpus = load_corpus(tmp_path / "sources")
    said = {problem.message.split()[0]: problem for problem in corpus.problems if problem.file.endswith(".zh.txt")}
    assert said["702.19b"].line == 4073 and "duplicate number" in said["702.19b"].message
    assert said["702.19c"].line == 4073 and "not in the Simplified Chinese translation" in said["702.19c"].message


def test_markup_in_a_translation_is_text_on_its_page(frozen_corpus):
    from dataclasses import replace

    from pipeline.addresses import address_corpus
    from pipeline.model import Block
    from pipeline.site.translated import translated_pages
    english = frozen_corpus.document("cr")
    payload = '<script>alert(1)</script><img src=x onerror=alert(2)>践踏'
    sections = tuple(replace(section, blocks=(Block("paragraph", payload),), title="<b>践踏</b>")
                     if section.number.startswith("702.19") else section for section in english.sections)
    fake = replace(english, info=replace(english.info, language="zh", source="x.zh.txt", credit="<i>x</i>"),
                   sections=sections)
    page = translated_pages(address_corpus(frozen_corpus), [(fake, english)]).pages["zh/cr/702.md"].body
    assert "<script>alert" not in page and "<img" not in page and "<b>" not in page and "<i>x" not in page
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page and "&lt;i&gt;x&lt;/i&gt;" in page


def test_the_chinese_glossary_is_read_and_pairs_with_the_english_entry_by_entry(chinese_beside_english):
    chinese, english = load_translation(chinese_beside_english, "zh", "cr"), chinese_beside_english.document("cr")
    assert len(chinese.glossary) == len(english.glossary) > 700
    pairs, problems = pair_glossary(chinese, english)
    assert not problems and len(pairs) == len(english.glossary)
    paired = {ours.term: [] for ours, _ in pairs}
    for ours, theirs in pairs:
        paired[ours.term].append(theirs.term)
    assert paired["践踏"] == ["Trample"] and paired["异能"] == ["Ability"]
    assert paired["关键字动作"] == ["Keyword Action"]        # an entry the translation sorted elsewhere
    assert paired["平原行者"] == ["Plainscycling", "Plainswalk"]   # two English terms, one word: both kept


def test_the_translated_glossary_pairs_both_ways_with_the_english(built_site):
    glossary = (built_site / "zh" / "cr" / "glossary" / "index.html").read_text(encoding="utf-8")
    entry = glossary[glossary.index('id="term-trample"'):]
    entry = entry[:entry.index("<h3", 10)]
    assert "践踏" in entry and '"../../../cr/glossary/#term-trample"' in entry and ">Trample</a>" in entry
    assert '"../702/#702.19"' in entry                       # its rule, in the language
    english = (built_site / "cr" / "glossary" / "index.html").read_text(encoding="utf-8")
    assert 'href="../../zh/cr/glossary/"' in english                # the language bar's link


def test_a_chinese_glossary_term_finds_its_english_entry(built_site):
    from pipeline.search.translated import answer_from_folder
    found = {result.id: result for result in answer_from_folder(built_site / "search", "践踏鹏洛客").results}
    entry = found["cr:glossary/term-trample-over-planeswalkers"]
    assert "Trample Over Planeswalkers" in entry.title and entry.url == "zh/cr/glossary/#term-trample-over-planeswalkers"


def test_a_translation_s_examples_are_examples_and_its_untitled_rules_have_no_title(chinese_beside_english):
    chinese, english = load_translation(chinese_beside_english, "zh", "cr"), chinese_beside_english.document("cr")
    rule = chinese.section("cr:101.2")
    assert rule.title == "" and rule.text.startswith("当某个规则或效应允许") and "例如" not in rule.text
    assert len(rule.examples) == 1 and rule.examples[0].startswith("例如：如果某效应为")
    assert chinese.section("cr:100.1").title == "" and chinese.section("cr:702.19").title == "践踏"
    ours = {section.id: section for section in chinese.sections}
    titled = [section.id for section in english.sections if bool(section.title) != bool(ours[section.id].title)]
    assert not titled                                       # titled where the English is, and only there
    examples = sum(len(section.examples) == len(ours[section.id].examples) for section in english.sections)
    assert examples >= len(english.sections) - 3, examples  # the translation's own slips aside


def test_a_translated_example_is_a_paragraph_of_its_own_on_the_page(built_site):
    page = (built_site / "zh" / "cr" / "101" / "index.html").read_text(encoding="utf-8")
    rule = page[page.index('id="101.2"'):]
    rule = rule[:rule.index("</section>")]
    assert re.search(r"<p[^>]*>例如：如果某效应为", rule) and "为优先。</p>" in rule


def test_what_changed_between_two_editions_of_a_translation(chinese_beside_english):
    from pipeline.addresses import address_corpus
    from pipeline.corpus import load_edition
    from pipeline.site.translated import translated_pages
    corpus = chinese_beside_english
    older = next(info for info in corpus.translations if info.source == CHINESE_2024.name).translates
    pairs = [(load_translation(corpus, "zh", older), load_edition(corpus, older)),
             (load_translation(corpus, "zh", "cr"), corpus.document("cr"))]
    pages = translated_pages(address_corpus(corpus), pairs).pages
    page = pages[f"zh/changes/{older}--cr.md"]
    assert page.title == "What changed: CR 2024-07-30 → 2026-01-16" and "本译文为非官方翻译" in page.body
    change = page.body[page.body.index('href="../../cr/100/#100.6"'):]
    change = change[:change.index('<div class="rk-change">')]
    # the words changed, character by character in Chinese ("resources/" left the address)
    assert re.search(r"<del>[^<]*resources", change) and "WPN.Wizards.com/en/" in change
    assert "<del>" not in change.split("这些规则可能限制")[0].split("比赛规则规定的附加规则")[0]
    assert f'href="changes/{older}--cr/"' in pages["zh/index.md"].body


def test_the_korean_glossary_left_out_is_said_and_read_as_no_term():
    # the Korean of 2019 heads its glossary 용어사전 and leaves it out (<생략>): no term "<생략>", no closing
    # part read as a rule's text, and the reader is told with the line
    document, problems = load_document(KOREAN)
    assert document is not None and document.info.language == "ko" and not document.glossary
    said = [problem for problem in (*problems, *document.problems) if "glossary is left out" in problem.message]
    assert said and said[0].line == 5333 and said[0].file == KOREAN.name
    last = next(section for section in document.sections if section.number == "905.6")
    assert not any("용어사전" in block.text or "위자드" in block.text for block in last.blocks)
