"""Documents as other converters write them: the same structure must come out whatever the markup.

Three classes of converter output, each tested on documents written here (own words, the shapes of
real converters' markup), never on one file:
1. HTML whose chapter heading and first section heading stand apart only by named anchors (between,
   around or inside elements; glued inline runs; permalink marks): every section is found.
2. Appendix headings in every spelling ("Appendix D—", "-", " - ", ":", "MTR Appendix D –", "APPENDIX D"
   with its title on the next line, a note run into the heading line) in HTML, Markdown and
   pdftotext-like text: each is found and matched with its contents entry, and only a file that
   really stops early is reported truncated.
3. A JAR from an ebook converter: no heading elements, headings as bare paragraphs between empty
   spacer paragraphs, or set in bold or larger type by CSS classes or inline styles.
"""
from __future__ import annotations

import html
import re
from dataclasses import dataclass

import pytest

from pipeline import load_document
from pipeline.model import BULLET, ERROR, INFO, PARAGRAPH
from pipeline.read import read_bytes
from pipeline.read.html import html_to_lines

# --- an MTR written for these tests -----------------------------------------------------------------


@dataclass(frozen=True)
class Part:
    number: str              # "1", "1.1", "A"
    title: str
    paragraphs: tuple[str, ...] = ()


CHAPTERS = (
    (Part("1", "Tournament Fundamentals"), (
        Part("1.1", "Tournament Types", (
            "Sanctioned events come in two kinds, and each kind has expectations of its own.",
            "An organizer states the kind of an event when announcing it to the players.")),
        Part("1.2", "Publishing Tournament Information", (
            "The organizer publishes the date, the place and the format of an event ahead of time.",)),
    )),
    (Part("2", "Tournament Mechanics"), (
        Part("2.1", "Match Structure", (
            "A match is a series of games played until one player has won two of them.",
            "Drawn games do not count toward the two wins a player needs.")),
        Part("2.2", "Play/Draw Rule", (
            "A random player chooses who plays first in the first game of a match.",)),
    )),
    (Part("3", "Tournament Rules"), (
        Part("3.1", "Tiebreakers", (
            "Players with equal points are ordered by the strength of their opponents.",)),
    )),
)
APPENDICES = (
    Part("A", "Changes From Previous Versions", (
        "Only the changes since the previous version of this document are listed here.",
        "Appendix D: Booster mixes for two new sets added.",
        "Appendix C: Tiebreaker examples reworded")),
    Part("B", "Time Limits", (
        "Each round of a tournament lasts at least forty minutes.",)),
    Part("C", "Tiebreaker Explanation", (
        "Match points come first, then the match-win percentage of the opponents.",)),
    Part("D", "Recommended Booster Mix for Limited Events", (
        "Three boosters of the newest set make a good draft for most events.",)),
)
NOTE = "these numbers are guidelines"
TITLE = "Magic: The Gathering Tournament Rules"
EFFECTIVE = "Effective March 1, 2030"
INTRODUCTION = "These rules tell players, judges and organizers how a sanctioned event is run."


def expected_numbered(appendices: tuple[Part, ...] = APPENDICES) -> list[tuple[str, str]]:
    out = []
    for chapter, sections in CHAPTERS:
        out.append((chapter.number, chapter.title))
        out.extend((section.number, section.title) for section in sections)
    return out + [(f"Appendix {appendix.number}", appendix.title) for appendix in appendices]


def mtr_html(chapter_and_first_section, appendix_heading=None, contents: str = "links",
             appendices: tuple[Part, ...] = APPENDICES) -> str:
    """An HTML MTR: `chapter_and_first_section(chapter, section)` writes the markup between a chapter's
    heading and its first section's; other sections are <h3>s; appendix headings by `appendix_heading`."""
    appendix_heading = appendix_heading or (lambda part: f"<h2>Appendix {part.number}—{part.title}</h2>")
    out = [f"<html><head><title>MTR</title></head><body><h1>{TITLE}</h1><p>{EFFECTIVE}</p><p>{INTRODUCTION}</p>"]
    if contents == "links":
        out.append("<p><b>Contents</b></p>")
        for chapter, sections in CHAPTERS:
            out.append(f'<p><a href="#c{chapter.number}">{chapter.number}. {chapter.title}</a></p>')
            out.extend(f'<p><a href="#s{s.number}">{s.number} {s.title}</a></p>' for s in sections)
        out.extend(f'<p><a href="#app{part.number}">Appendix {part.number}-{part.title}</a></p>' for part in APPENDICES)
    for chapter, sections in CHAPTERS:
        for position, section in enumerate(sections):
            if position == 0:
                out.append(chapter_and_first_section(chapter, section))
            else:
                out.append(f'<a name="s{section.number}"></a><h3>{section.number} {section.title}</h3>')
            out.extend(f"<p>{html.escape(text)}</p>" for text in section.paragraphs)
    for part in appendices:
        out.append(appendix_heading(part))
        out.extend(f"<p>{html.escape(text)}</p>" for text in part.paragraphs)
    out.append("<p>All trademarks are property of their owners.</p></body></html>")
    return "\n".join(out)


def load(tmp_path, name: str, text: str):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    document, problems = load_document(path, use_cache=False)
    assert document is not None, problems
    return document, problems


def numbered(document) -> list[tuple[str, str]]:
    return [(section.number, section.title) for section in document.sections if section.number]


def fold(text: str) -> str:
    return re.sub(r"\s+", " ", text).strip()


def everything(document) -> str:
    """Every text of the document: titles, blocks, examples, front matter and credits."""
    pieces = [block.as_text() for block in document.front_matter + document.credits]
    for section in document.sections:
        pieces += [f"{section.number} {section.title}", *(b.as_text() for b in section.blocks), *section.examples]
    return fold("\n".join(pieces))


def assert_nothing_lost(document, paragraphs) -> None:
    text = everything(document)
    lost = [paragraph for paragraph in paragraphs if fold(paragraph) not in text]
    assert not lost, lost


def all_paragraphs(appendices: tuple[Part, ...] = APPENDICES) -> list[str]:
    texts = [INTRODUCTION]
    for _, sections in CHAPTERS:
        for section in sections:
            texts += section.paragraphs
    for part in appendices:
        texts += part.paragraphs
    return texts


def assert_sections_hold_their_text(document, appendices: tuple[Part, ...] = APPENDICES) -> None:
    for _, sections in CHAPTERS:
        for section in sections:
            found = document.section(section.number)
            assert [block.text for block in found.blocks] == list(section.paragraphs), section.number
    for part in appendices:
        found = document.section(f"Appendix {part.number}")
        assert [block.text for block in found.blocks][-len(part.paragraphs):] == list(part.paragraphs), part.number


def warnings(problems) -> list[str]:
    return [problem.message for problem in problems if problem.severity != INFO]


# --- 1. anchors between a chapter heading and its first section -----------------------------------

ANCHOR_SHAPES = {
    "anchor between headings":
        lambda c, s: f'<h2>{c.number}. {c.title}</h2><a name="s{s.number}"></a><h3>{s.number} {s.title}</h3>',
    "anchors around headings":
        lambda c, s: f'<a name="c{c.number}"><h2>{c.number}. {c.title}</h2></a>'
                     f'<a name="s{s.number}"><h3>{s.number} {s.title}</h3></a>',
    "anchor inside the heading":
        lambda c, s: f'<h2><a name="c{c.number}"></a>{c.number}. {c.title}</h2>'
                     f'<h3><a name="s{s.number}">{s.number} {s.title}</a></h3>',
    "bold paragraphs":
        lambda c, s: f'<p><a name="c{c.number}"></a><b>{c.number}. {c.title}</b></p>'
                     f'<p><a name="s{s.number}"></a><b>{s.number} {s.title}</b></p>',
    "anchor-only paragraph between":
        lambda c, s: f'<p><b>{c.number}. {c.title}</b></p><p><a name="s{s.number}"></a></p>'
                     f'<p><b>{s.number} {s.title}</b></p>',
    "glued bold runs":
        lambda c, s: f'<p><a name="c{c.number}"></a><b>{c.number}. {c.title}</b><a name="s{s.number}"></a>'
                     f'<b>{s.number} {s.title}</b></p>',
    "glued styled spans":
        lambda c, s: f'<span class="chapter">{c.number}. {c.title}</span><a id="s{s.number}"></a>'
                     f'<span class="section">{s.number} {s.title}</span>',
    "empty span target between runs":
        lambda c, s: f'<div><b>{c.number}. {c.title}</b><span id="s{s.number}"></span>{s.number} {s.title}</div>',
    "permalink marks":
        lambda c, s: f'<h2 id="c{c.number}">{c.number}. {c.title}<a class="headerlink" href="#c{c.number}">¶</a></h2>'
                     f'<a name="s{s.number}" href="#s{s.number}">¶</a><h3>{s.number} {s.title}</h3>',
}


@pytest.mark.parametrize("contents", ["links", "none"])
@pytest.mark.parametrize("shape", list(ANCHOR_SHAPES))
def test_a_first_section_parted_from_its_chapter_only_by_anchors_is_its_own_section(tmp_path, shape, contents):
    document, problems = load(tmp_path, "mtr.html", mtr_html(ANCHOR_SHAPES[shape], contents=contents))
    assert document.info.kind == "mtr"
    assert numbered(document) == expected_numbered()
    assert document.section("1.1").parent == "mtr:1" and document.section("1").blocks == ()
    assert_sections_hold_their_text(document)
    assert_nothing_lost(document, all_paragraphs())
    assert warnings(problems) == [] and document.info.complete


def test_the_reader_parts_text_glued_at_an_anchor_and_loses_no_word():
    lines, anchors, _, problems = html_to_lines(
        '<p><b>1. Tournament Fundamentals</b><a name="s1.1"></a><b>1.1 Tournament Types</b></p>', "x.html")
    assert [(line.text, line.hint) for line in lines] == [("1. Tournament Fundamentals", "b"),
                                                           ("1.1 Tournament Types", "b")]
    assert anchors == (("s1.1", lines[1].number),) and problems == []


@pytest.mark.parametrize("markup", [
    '<p>the pla<a name="_GoBack"></a>yer draws a card</p>',                   # an editor's bookmark inside a word
    '<p><span>the player</span><a name="_GoBack"></a><span> draws a card</span></p>',
    '<p>the player <a name="x"></a>Draws a card</p>',                         # a space: one line, as shown
])
def test_an_anchor_inside_running_text_is_transparent(markup):
    lines, _, _, problems = html_to_lines(markup, "x.html")
    assert len(lines) == 1 and problems == []


# --- 2. appendix headings in every spelling ----------------------------------------------------------

APPENDIX_SPELLINGS = {
    "em dash": lambda part: f"Appendix {part.number}—{part.title}",
    "hyphen": lambda part: f"Appendix {part.number}-{part.title}",
    "spaced hyphen": lambda part: f"Appendix {part.number} - {part.title}",
    "colon": lambda part: f"Appendix {part.number}: {part.title}",
    "MTR prefix, en dash": lambda part: f"MTR Appendix {part.number} – {part.title}",
    "capitals, title below": lambda part: f"APPENDIX {part.number}\n{part.title}",
    "note in parentheses": lambda part: f"Appendix {part.number}-{part.title} ({NOTE})",
    "note as a sentence": lambda part: f"Appendix {part.number}—{part.title}. {NOTE.capitalize()} only.",
}


def note_of(spelling: str) -> str:
    return {"note in parentheses": f"({NOTE})", "note as a sentence": f"{NOTE.capitalize()} only."}.get(spelling, "")


def assert_appendices_found(document, problems, spelling: str) -> None:
    assert numbered(document) == expected_numbered()
    assert_sections_hold_their_text(document)
    assert_nothing_lost(document, all_paragraphs())
    if note_of(spelling):
        for part in APPENDICES:
            assert document.section(f"Appendix {part.number}").blocks[0].text == note_of(spelling)
    assert not [message for message in warnings(problems) if "never reaches" in message or "no such heading" in message]
    assert document.info.complete


@pytest.mark.parametrize("spelling", list(APPENDIX_SPELLINGS))
@pytest.mark.parametrize("markup", ["p", "h2", "b"])
def test_html_appendix_headings_in_every_spelling_meet_their_contents_entries(tmp_path, spelling, markup):
    def heading(part: Part) -> str:
        lines = APPENDIX_SPELLINGS[spelling](part).split("\n")
        wrap = {"p": "<p>{}</p>", "h2": "<h2>{}</h2>", "b": "<p><b>{}</b></p>"}[markup]
        return f'<a name="app{part.number}"></a>' + "".join(wrap.format(html.escape(line)) for line in lines)
    html_text = mtr_html(ANCHOR_SHAPES["anchor between headings"], heading)
    document, problems = load(tmp_path, "mtr.html", html_text)
    assert_appendices_found(document, problems, spelling)


def mtr_pdftotext(appendix_heading, stop_after: str = "", contents_style=None) -> str:
    """The MTR as pdftotext writes a PDF: page numbers on lines of their own, a dot-leader contents list,
    paragraphs hard-wrapped at about 80 characters, a blank line between paragraphs."""
    contents_style = contents_style or (lambda part: f"Appendix {part.number}—{part.title}")
    out = [TITLE, EFFECTIVE, "", "Contents"]
    for chapter, sections in CHAPTERS:
        out.append(f"{chapter.number}. {chapter.title} ".ljust(70, ".") + " 3")
        out.extend(f"{s.number} {s.title} ".ljust(70, ".") + " 4" for s in sections)
    out.extend(f"{contents_style(part)} ".ljust(70, ".") + " 9" for part in APPENDICES)
    out += ["", "2", "", *wrap(INTRODUCTION), ""]
    page = 3
    for chapter, sections in CHAPTERS:
        out += [f"{chapter.number}. {chapter.title}"]
        for section in sections:
            out += [f"{section.number} {section.title}"]
            for paragraph in section.paragraphs:
                out += [*wrap(paragraph), ""]
            if section.number == stop_after:
                return "\n".join(out) + "\n"
        out += [str(page), ""]
        page += 1
    for part in APPENDICES:
        out += [*appendix_heading(part).split("\n")]
        for paragraph in part.paragraphs:
            out += [*wrap(paragraph), ""]
        out += [str(page), ""]
        page += 1
    out.append("All trademarks are property of their owners.")
    return "\n".join(out) + "\n"


def wrap(text: str, width: int = 80) -> list[str]:
    lines, line = [], ""
    for word in text.split():
        if line and len(line) + 1 + len(word) > width:
            lines.append(line)
            line = word
        else:
            line = f"{line} {word}".strip()
    return lines + [line]


@pytest.mark.parametrize("spelling", list(APPENDIX_SPELLINGS))
def test_pdftotext_appendix_headings_in_every_spelling_meet_their_contents_entries(tmp_path, spelling):
    document, problems = load(tmp_path, "mtr.txt", mtr_pdftotext(APPENDIX_SPELLINGS[spelling]))
    assert_appendices_found(document, problems, spelling)


@pytest.mark.parametrize("contents", ["hyphen", "capitals, title below"])
def test_contents_entries_in_another_spelling_than_the_headings_match_them(tmp_path, contents):
    """The contents list writes "Appendix D-Title" (or "APPENDIX D" over its title), the headings "Appendix D—Title"."""
    def entry(part: Part) -> str:
        return APPENDIX_SPELLINGS[contents](part).replace("\n", "\n\n")
    text = mtr_pdftotext(APPENDIX_SPELLINGS["em dash"], contents_style=entry)
    document, problems = load(tmp_path, "mtr.txt", text)
    assert_appendices_found(document, problems, "em dash")


def test_appendix_headings_all_in_capitals_meet_their_contents_entries(tmp_path):
    text = mtr_pdftotext(lambda part: f"APPENDIX {part.number} — {part.title.upper()}")
    document, problems = load(tmp_path, "mtr.txt", text)
    assert numbered(document) == expected_numbered()[:-4] + [
        (f"Appendix {part.number}", part.title.upper()) for part in APPENDICES]
    assert not [message for message in warnings(problems) if "never reaches" in message]


def test_a_markdown_mtr_with_run_in_notes_and_capital_appendices(tmp_path):
    out = [f"# {TITLE}", "", EFFECTIVE, "", INTRODUCTION, ""]
    for chapter, sections in CHAPTERS:
        out += [f"## {chapter.number}. {chapter.title}", ""]
        for section in sections:
            out += [f"### {section.number} {section.title}", "", *(f"{p}\n" for p in section.paragraphs)]
    for part in APPENDICES:
        out += [f"## APPENDIX {part.number}", "", f"### {part.title} ({NOTE})", "", *(f"{p}\n" for p in part.paragraphs)]
    document, problems = load(tmp_path, "mtr.md", "\n".join(out))
    assert numbered(document) == expected_numbered([Part(p.number, f"{p.title} ({NOTE})") for p in APPENDICES])
    assert_nothing_lost(document, all_paragraphs())
    assert warnings(problems) == []


def test_a_truncated_mtr_is_still_reported_truncated(tmp_path):
    document, problems = load(tmp_path, "mtr.txt", mtr_pdftotext(APPENDIX_SPELLINGS["hyphen"], stop_after="2.1"))
    assert not document.info.complete
    missing = [message for message in warnings(problems) if "never reaches" in message]
    assert len(missing) == 1
    assert "names 7 section(s)" in missing[0] and "(2.2 Play/Draw Rule, 3 Tournament Rules" in missing[0]
    assert numbered(document)[-1] == ("2.1", "Match Structure")


def test_an_html_mtr_without_its_appendices_is_reported_truncated(tmp_path):
    text = mtr_html(ANCHOR_SHAPES["glued bold runs"], lambda part: f"<p>Appendix {part.number}-{part.title}</p>",
                    appendices=APPENDICES[:2])
    document, problems = load(tmp_path, "mtr.html", text)
    missing = [message for message in warnings(problems) if "never reaches" in message]
    assert len(missing) == 1 and "Appendix C" in missing[0] and "Appendix D" in missing[0]
    assert not document.info.complete


def test_change_notes_naming_appendices_stay_text(tmp_path):
    document, _ = load(tmp_path, "mtr.txt", mtr_pdftotext(APPENDIX_SPELLINGS["colon"]))
    changes = document.section("Appendix A")
    assert [block.text for block in changes.blocks] == list(APPENDICES[0].paragraphs)


# --- 3. a JAR from an ebook converter --------------------------------------------------------------

JAR_TITLE = "Judging at Regular Rules Enforcement Level"
JAR_EFFECTIVE = "Effective March 1, 2030"
JAR_INTRODUCTION = ("Most players come to a Regular event to have fun, and the judge is there to keep it that way. "
                    "Fix what went wrong, explain why, and let the players get back to their game.")


@dataclass(frozen=True)
class JarSection:
    title: str
    paragraphs: tuple[str, ...] = ()
    bullets: tuple[str, ...] = ()
    issues: tuple[tuple[str, str], ...] = ()     # (the error, its fix)


JAR_SECTIONS = (
    JarSection("Talking to Players", (
        "Speak calmly, listen to both players before ruling, and tell them what happens next.",
        "Stay calm and listen.")),
    JarSection("Game Play Errors", issues=(
        ("A player forgets to untap their permanents at the start of their turn",
         "Untap them now if nothing has happened since, otherwise leave the game as it is and move on."),
        ("A player reveals a card from their library by accident",
         "Shuffle the revealed card back into the unknown part of the library and let play continue."),
    )),
    JarSection("Unwanted Behaviors", ("These behaviors disrupt an event and should be corrected:",), bullets=(
        "Playing very slowly after being asked to speed up.",
        "Giving strategic advice to a player during a match",       # no full stop: the heading after it is known by name
    )),
    JarSection("Serious Problems", (
        "Cheating, violence and theft are never tolerated, and the player is removed from the event.",)),
)
JAR_CREDITS = "All trademarks are property of their owners."


def jar_html(style: str) -> str:
    """The JAR as an ebook converter writes it, in one of several styles of its markup."""
    spacer = {"nbsp": "<p>&nbsp;</p>"}.get(style, '<p class="calibre1"></p>')
    every = style == "spacer after every paragraph"

    def heading(title: str) -> str:
        if style == "css classes":
            return f'<p class="calibre4">{title}</p>'
        if style == "inline styles":
            return f'<p style="font-size: 18pt; font-weight: bold">{title}</p>'
        if style in ("bold headings", "bold headings, no spacers"):
            return f'<p class="calibre3"><b class="calibre5">{title}</b></p>'
        return f'<p class="calibre3">{title}</p>'

    def issue(text: str) -> str:
        if style == "css classes":
            return f'<p class="calibre6">{html.escape(text)}</p>'
        if style == "inline styles":
            return f'<p style="font-weight: 700">{html.escape(text)}</p>'
        if style == "plain issues":
            return f'<p class="calibre2">{html.escape(text)}</p>'
        return f'<p class="calibre2"><span class="bold"><b>{html.escape(text)}</b></span></p>'

    body: list[str] = []
    apart = style not in ("no spacers", "bold headings, no spacers")

    def put(markup: str, set_apart: bool = False) -> None:
        if set_apart and apart:
            body.append(spacer)
        body.append(markup)
        if (set_apart or every) and apart:
            body.append(spacer)

    put(f'<p class="calibre2">{JAR_TITLE}</p>', True)
    put(f'<p class="calibre2">{JAR_EFFECTIVE}</p>')
    put(f'<p class="calibre2">{html.escape(JAR_INTRODUCTION)}</p>')
    for section in JAR_SECTIONS:
        put(heading(section.title), True)
        for text in section.paragraphs:
            put(f'<p class="calibre2">{html.escape(text)}</p>')
        for text in section.bullets:
            put(f'<p class="calibre2">• {html.escape(text)}</p>')
        for error, fix in section.issues:
            put(issue(error))
            put(f'<p class="calibre2">{html.escape(fix)}</p>')
    put(f'<p class="calibre2">{JAR_CREDITS}</p>')
    css = ("<style type='text/css'>.calibre1 {display: block; margin: 0} .calibre2 {display: block}\n"
           ".calibre4 {display: block; font-size: 1.41667em; font-weight: bold}\n.calibre6 {font-weight: bold}</style>")
    return (f"<?xml version='1.0' encoding='utf-8'?><html xmlns='http://www.w3.org/1999/xhtml'><head>"
            f"<title>Judging at Regular REL</title>{css}</head><body class='calibre'>" + "\n".join(body)
            + "</body></html>")


JAR_STYLES = ["spacers around headings", "spacer after every paragraph", "nbsp", "css classes", "inline styles",
              "bold headings", "plain issues", "no spacers", "bold headings, no spacers"]


@pytest.mark.parametrize("style", JAR_STYLES)
def test_a_jar_from_an_ebook_converter_has_its_headed_sections_and_issues(tmp_path, style):
    document, problems = load(tmp_path, "jar.html", jar_html(style))
    assert document.info.kind == "jar" and document.info.edition == "2030-03-01"
    assert [p for p in problems if p.severity == ERROR] == []
    assert [s.title for s in document.sections if s.kind == "section"] == [s.title for s in JAR_SECTIONS]
    talking = document.section("jar:talking-to-players")
    assert [b.text for b in talking.blocks] == list(JAR_SECTIONS[0].paragraphs)    # "Stay calm and listen." stays text
    issues = [s for s in document.sections if s.kind == "issue"]
    assert [(s.title, s.parent, [b.text for b in s.blocks]) for s in issues] == [
        (error, "jar:game-play-errors", [fix]) for error, fix in JAR_SECTIONS[1].issues]
    behaviors = document.section("jar:unwanted-behaviors")
    assert [(b.kind, b.text) for b in behaviors.blocks] == [(PARAGRAPH, JAR_SECTIONS[2].paragraphs[0])] + [
        (BULLET, text) for text in JAR_SECTIONS[2].bullets]
    front = [block.text for block in document.front_matter]
    assert front == [JAR_TITLE, JAR_EFFECTIVE, JAR_INTRODUCTION]
    assert [block.text for block in document.credits] == [JAR_CREDITS]


def test_the_reader_marks_short_lines_standing_alone_between_spacers():
    source = read_bytes(jar_html("spacers around headings").encode(), "jar.html")
    alone = [line.text for line in source.lines if line.hint == "alone"]
    assert alone == [JAR_TITLE] + [section.title for section in JAR_SECTIONS]
    lines, _, _, _ = html_to_lines("<p>One line of text.</p><br><br>Helpful Links<br><br>Some more text follows here.")
    assert [(line.text, line.hint) for line in lines] == [
        ("One line of text.", ""), ("Helpful Links", "alone"), ("Some more text follows here.", "")]


def test_css_and_old_markup_give_bold_and_heading_hints_only_where_no_heading_elements_are():
    styled = ("<style>.big {font-size: 150%} .strong {font-weight: bold}</style><p class='big'>Serious Problems</p>"
              "<p class='strong'>A named error</p><p><font size='5'>Helpful Links</font></p>"
              "<p style='font-weight: normal'><b>Bold after all</b></p>" + "<p>Body text of normal size.</p>" * 5)
    lines, _, _, problems = html_to_lines(styled, "x.html")
    assert [(line.text, line.hint) for line in lines][:4] == [
        ("Serious Problems", "h1"), ("A named error", "b"), ("Helpful Links", "h1"), ("Bold after all", "b")]
    lines, _, _, _ = html_to_lines("<h1>Title</h1>" + styled, "x.html")
    assert [line.hint for line in lines][:4] == ["h1", "", "b", ""]          # the document's own headings rule


def test_a_jar_whose_lines_are_all_sentences_is_still_refused(tmp_path):
    paragraphs = "".join(f"<p>{text}</p><p></p>" for text in (
        JAR_TITLE, JAR_EFFECTIVE, JAR_INTRODUCTION, "Speak calmly and listen to both players.",
        "Fix what went wrong and explain why."))
    (tmp_path / "jar.html").write_text(f"<html><body>{paragraphs}</body></html>", encoding="utf-8")
    document, problems = load_document(tmp_path / "jar.html", use_cache=False)
    assert document is None and any("no headed sections" in p.message for p in problems)
