"""The pages of the translations: every page of an English edition again in the language, at the same
addresses under the language's folder (`zh/cr/702/#702.19b`), each rule its translation with the English
one tap away, a rule the translation lacks or leaves in English shown in English and said so.

The English is the key (Sphinx's i18n keeps catalogues the same way): pages, anchors and order are the
English edition's, the translation a layer over them, so a translation can never add, drop or move a
rule. Every page says, in the language and in English, that the translation is unofficial, that the
English governs, and who translated it. Pure functions of the corpus, its addresses and the parsed
translations: no I/O, no mkdocs; every piece of source text is escaped here.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Optional

from .. import kinds
from ..addresses import Addresses, anchor_of, glossary_id, term_anchor
from ..diff import compare
from ..model import Document, DocumentInfo, Section
from ..pairing import left_in_english, pair_glossary
from ..search import translated as translated_search
from .history_pages import pair_page, pair_path
from .pages import Page
from .render import blocks_html, esc, examples_html

CHOICE_SCRIPT = "assets/translations.js"      # remembers the language chosen, opens the English side by side
STYLE = "assets/translations.css"
BAR_LINK = ("display:inline-block;min-height:44px;min-width:44px;box-sizing:border-box;line-height:44px;"
            "padding:0 .4em;text-align:center")   # a touch target, even for a short name ("English")
# A rule number written in a translation ("参见规则510", "702.19b所述"): linked where the edition has it.


@dataclass
class TranslatedPages:
    pages: dict[str, Page] = field(default_factory=dict)
    alternates: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # English page -> (language, path)
    links: dict[str, str] = field(default_factory=dict)           # typed numbers' addresses -> the shared page
    folders: dict[str, str] = field(default_factory=dict)         # typed numbers' folders -> the folder they link to
    files: dict[str, str] = field(default_factory=dict)


def folder(language: str, path: str) -> str:
    """The page of a translation beside an English page: "cr/702.md" -> "zh/cr/702.md"."""
    return f"{language}/{path}"


def translated_pages(addresses: Addresses, pairs: list[tuple[Document, Document]],
                     typed: Optional[dict[str, str]] = None, number_page: str = "",
                     typed_folders: Optional[dict[str, str]] = None) -> TranslatedPages:
    """The pages of each (translation, English edition) pair: a current edition's at its English pages'
    addresses under the language's folder; an older edition's on one page (as its English reader is).
    `typed` are the English typed numbers' addresses (`cr/702.19b/index.html`) and the page they share,
    `number_page` that page's text (a language's copy sends a number it cannot place to the one search),
    `typed_folders` the typed numbers' folders that are links to another's (shortcuts.TypedAddresses)."""
    found = TranslatedPages()
    for translation, english in pairs:
        language = kinds.language(translation.info.language)
        if language is None:
            continue
        if english.info.current:
            _current(found, addresses, translation, english, language)
        else:
            _older(found, translation, english, language)
    languages = {translation.info.language for translation, english in pairs if english.info.current}
    _search_files(found, addresses, [(translation, english) for translation, english in pairs
                                     if english.info.current])
    changes = _changes(found, addresses, pairs)
    for code in sorted({translation.info.language for translation, _ in pairs} & set(kinds.LANGUAGE_BY_ID)):
        found.pages[folder(code, "index.md")] = _home(code, pairs, changes.get(code, []))
    for code in languages:
        translated_ids = {english.id for translation, english in pairs
                          if english.info.current and translation.info.language == code}
        shared = folder(code, "assets/number.html")
        for path in typed or {}:
            if path.split("/")[0] in translated_ids:
                found.links[folder(code, path)] = shared
        for where, target in (typed_folders or {}).items():
            if where.split("/")[0] in translated_ids:
                found.folders[folder(code, where)] = folder(code, target)
        # one level deeper than the English: its links and its fallback to the search go one level up more
        found.files[shared] = number_page.replace('var SEARCH_UP = "";', 'var SEARCH_UP = "../";')
    return found


def _current(found: TranslatedPages, addresses: Addresses, translation: Document, english: Document,
             language: kinds.Language) -> None:
    by_page: dict[str, list[Section]] = {}
    for section in english.sections:
        location = addresses.locations.get(section.id)
        if location:
            by_page.setdefault(location[0], []).append(section)
    index = f"{english.id}/index.md"
    ours = {section.id: section for section in translation.sections}
    titles: dict[str, str] = {}
    for path, sections in by_page.items():
        if path == index:
            continue
        page = folder(language.id, path)
        url_for = _url_for(addresses, path, english.id)
        body = [_head(translation, language, page, path)]
        for position, section in enumerate(sections):
            body.append(_rule(section, ours.get(section.id), language, url_for, addresses, path, english.info,
                              top=position == 0))
        top = sections[0]
        title = _title(top, ours.get(top.id), language)
        titles[top.id] = title
        found.pages[page] = Page(page, title, _wrap(language, "".join(body)),
                                 description=f"{kinds.short_name(english.info.kind)} {title} ({language.name})",
                                 alternates=(("en", path), (language.id, page)))
        found.alternates.setdefault(path, []).append((language.id, page))
    found.pages[folder(language.id, index)] = _index(addresses, translation, english, language, ours)
    found.alternates.setdefault(index, []).append((language.id, folder(language.id, index)))
    _glossary(found, addresses, translation, english, language)


def _glossary(found: TranslatedPages, addresses: Addresses, translation: Document, english: Document,
              language: kinds.Language) -> None:
    """The translated glossary, at the English glossary's address under the language's folder: each entry
    under its English entry's anchor (so the two pair both ways), its English term beside it, linked."""
    pairs, _ = pair_glossary(translation, english)
    if not pairs or not english.glossary:
        return
    path = addresses.locations.get(glossary_id(english, english.glossary[0]), ("",))[0]
    if not path:
        return
    page = folder(language.id, path)
    url_for = _url_for(addresses, path, english.id)
    english_page = Addresses.relative(Addresses(), page, path)
    out = [_head(translation, language, page, path), f'<h1 id="glossary">{esc(language.glossary)}</h1>']
    for ours, theirs in pairs:
        anchor = esc(term_anchor(theirs))
        out.append(f'<h3 id="{anchor}" class="rk-h rk-term"><a class="rk-num" href="#{anchor}">{esc(ours.term)}</a> '
                   f'<a class="rk-tr-term" lang="en" hreflang="en" href="{esc(english_page)}#{anchor}">'
                   f'{esc(theirs.term)}</a></h3>')
        out.extend(f"<p>{_linked(text, url_for, english.info)}</p>" for text in ours.text.split("\n") if text.strip())
    found.pages[page] = Page(page, language.glossary, _wrap(language, "".join(out)),
                             description=f"{kinds.short_name(english.info.kind)} {language.glossary} ({language.name})",
                             alternates=(("en", path), (language.id, page)))
    found.alternates.setdefault(path, []).append((language.id, page))


def _older(found: TranslatedPages, translation: Document, english: Document, language: kinds.Language) -> None:
    """An older edition's translation: one page, as the English edition's reader (`cr-2024-07-30/`)."""
    path = f"{english.id}/index.md"
    page = folder(language.id, path)
    ours = {section.id: section for section in translation.sections}
    url_for = lambda target: f"#{target.split(':', 1)[1]}" if target.startswith(f"{english.id}:") else None
    body = [_head(translation, language, page, path)]
    for section in english.sections:
        body.append(_rule(section, ours.get(section.id), language, url_for, None, path, english.info, top=False))
    title = f"{translation.info.title} ({english.info.edition or english.id})"
    found.pages[page] = Page(page, title, _wrap(language, "".join(body)), description=title,
                             alternates=(("en", path), (language.id, page)))
    found.alternates.setdefault(path, []).append((language.id, page))


def _url_for(addresses: Addresses, english_path: str, document_id: str):
    """Links from a translated page: to the translated page of a rule of the same edition (the same relative
    address as between the English pages), to the English page of another document's."""
    def url_for(target: str) -> Optional[str]:
        href = addresses.href(english_path, target)
        if href is None or target.startswith(f"{document_id}:") or href.startswith("#"):
            return href
        return "../" + href
    return url_for


def _wrap(language: kinds.Language, body: str) -> str:
    return f'<div class="rk-translated" lang="{esc(language.id)}">{body}</div>'


def _head(translation: Document, language: kinds.Language, page: str, english_path: str) -> str:
    """What every translated page says first: unofficial, the English governs, who translated it; and the
    way to the English page."""
    info = translation.info
    root = Addresses.relative(Addresses(), page, "index.md")
    english = Addresses.relative(Addresses(), page, english_path)
    credit = esc(info.credit) if info.credit else f'<span lang="en">{esc(info.source)}</span>'
    return (f'<link rel="stylesheet" href="{esc(root)}{STYLE}">'
            f'<script src="{esc(root)}{CHOICE_SCRIPT}" defer></script>'
            f'<div class="admonition warning rk-unofficial" role="note">'
            f'<p class="admonition-title">{esc(language.name)} · {esc(info.title)}</p>'
            f'<p>{esc(language.unofficial)}</p>'
            f'<p lang="en">{esc(kinds.UNOFFICIAL_IN_ENGLISH)}</p>'
            f'<p>{esc(language.credit)}: {credit}</p>'
            f'<p><a href="{esc(english)}" hreflang="en" lang="en" data-rk-language="en">English</a></p></div>')


def _title(section: Section, translated: Optional[Section], language: kinds.Language) -> str:
    title = translated.title if translated is not None and section.title and not left_in_english(
        translated, language.id) else section.title
    return f"{section.number}. {title}" if section.number and title else (title or section.number)


def _texts(section: Section, translated: Section, language: kinds.Language) -> list[str]:
    """A translated rule's paragraphs, then its examples (each a paragraph of its own, as in the English). A
    title the English rule lacks is read as its first paragraph (the two pair by the English's shape)."""
    paragraphs = [block.as_text() for block in translated.blocks] + list(translated.examples)
    if translated.title and not section.title:
        paragraphs.insert(0, translated.title)
    return [paragraph.strip() for paragraph in paragraphs if paragraph.strip()]


def _linked(text: str, url_for, document: DocumentInfo) -> str:
    """A translated paragraph, escaped, its rule numbers links where the edition has them."""
    pieces, position = [], 0
    for match in kinds.numbers_cited(document.kind).finditer(text):
        url = url_for(f"{document.id}:{match.group(1)}")
        if not url:
            continue
        pieces.append(esc(text[position:match.start()]))
        pieces.append(f'<a class="rk-ref" href="{esc(url)}">{esc(match.group(1))}</a>')
        position = match.end()
    pieces.append(esc(text[position:]))
    return "".join(pieces)


def _rule(section: Section, translated: Optional[Section], language: kinds.Language, url_for,
          addresses: Optional[Addresses], path: str, document: DocumentInfo, top: bool) -> str:
    """One rule: its translation with the English folded under it (opened beside it on a wide screen); a
    rule not translated: the English, said so in the language."""
    anchor = esc(anchor_of(section))
    number = (f'<a class="rk-num" href="#{anchor}">{esc(section.number)}</a>' if section.number else "")
    english = _english(section, url_for)
    if translated is None or left_in_english(translated, language.id):
        title = f' <span class="rk-title" lang="en">{esc(section.title)}</span>' if section.title else ""
        level = 1 if top else 3
        heading = f'<h{level} id="{anchor}" class="rk-h">{number}{title}</h{level}>' if section.title or top else (
            f'<p id="{anchor}">{number}</p>')
        return (f'<section class="rk-tr-rule rk-tr-missing">{heading}'
                f'<p class="rk-tr-note">{esc(language.untranslated)} <span lang="en">(Not translated: the '
                f'English.)</span></p><div lang="en">{english}</div></section>')
    title = translated.title if section.title else ""
    paragraphs = _texts(section, translated, language)
    out = ['<section class="rk-tr-rule"><div class="rk-tr-pair"><div class="rk-tr-text">']
    if section.title or top:
        level = 1 if top else 3
        out.append(f'<h{level} id="{anchor}" class="rk-h">{number}'
                   f'{" " if number and title else ""}<span class="rk-title">{esc(title)}</span></h{level}>')
        out.extend(f"<p>{_linked(text, url_for, document)}</p>" for text in paragraphs)
    else:
        first, rest = (paragraphs[0], paragraphs[1:]) if paragraphs else ("", [])
        out.append(f'<p id="{anchor}">{number} {_linked(first, url_for, document)}</p>')
        out.extend(f"<p>{_linked(text, url_for, document)}</p>" for text in rest)
    out.append(f'</div><details class="rk-en" lang="en"><summary>{esc(language.english_label)}</summary>'
               f'{english}</details></div></section>')
    return "".join(out)


def _english(section: Section, url_for) -> str:
    title = f'<p class="rk-tr-title"><strong>{esc(section.number)} {esc(section.title)}</strong></p>' \
        if section.title else ""
    return title + blocks_html(section.blocks, section.refs, url_for) + examples_html(section, url_for)


def _index(addresses: Addresses, translation: Document, english: Document, language: kinds.Language,
           ours: dict[str, Section]) -> Page:
    """A translated edition's contents: its chapters and the sections that have pages, in the language."""
    path = folder(language.id, f"{english.id}/index.md")
    level = kinds.page_level(english.info.kind)
    rows = []
    for section in english.sections:
        if section.level > level or not section.number:
            continue
        location = addresses.locations.get(section.id)
        label = esc(_title(section, ours.get(section.id), language))
        if location and location[0] != f"{english.id}/index.md":
            href = addresses.relative(f"{english.id}/index.md", location[0])
            rows.append(f'<li><a href="{esc(href)}">{label}</a></li>')
        else:
            rows.append(f'<li class="rk-tr-chapter"><strong id="{esc(anchor_of(section))}">{label}</strong></li>')
    body = (_head(translation, language, path, f"{english.id}/index.md")
            + f'<h1 id="top">{esc(translation.info.title)}</h1><ul class="rk-contents">{"".join(rows)}</ul>')
    return Page(path, translation.info.title, _wrap(language, body), description=translation.info.title,
                alternates=(("en", f"{english.id}/index.md"), (language.id, path)))


def language_bar(page: str, alternates: list[tuple[str, str]]) -> str:
    """On an English page: its translations, each named in its own language (the choice is remembered)."""
    root = Addresses.relative(Addresses(), page, "index.md")
    links = " · ".join(
        f'<a href="{esc(Addresses.relative(Addresses(), page, path))}" hreflang="{esc(code)}" lang="{esc(code)}" '
        f'data-rk-language="{esc(code)}" title="{esc(kinds.LANGUAGE_BY_ID[code].english)} (unofficial translation)" '
        f'style="{BAR_LINK}">{esc(kinds.LANGUAGE_BY_ID[code].name)}</a>'
        for code, path in alternates if code in kinds.LANGUAGE_BY_ID)
    # styled in place: an English page loads no stylesheet of the translations' for one line
    return (f'<p class="rk-languages" data-rk-alternates style="margin:0 0 .4em;font-size:.85em">{links}</p>'
            f'<script src="{esc(root)}{CHOICE_SCRIPT}" defer></script>')


def _search_files(found: TranslatedPages, addresses: Addresses, pairs: list[tuple[Document, Document]]) -> None:
    """The search of each language (search/translated-zh.json) and the list of them (search/translated.json),
    which the browser's worker reads only for a question written in another script than the English."""
    entries = search_entries(addresses, pairs)
    if not entries:
        return
    listed = {}
    shorts = {translation.info.language: {english.id: f"{kinds.short_name(english.info.kind)} · "
                                                      f"{kinds.LANGUAGE_BY_ID[translation.info.language].name}"
                                          for _, english in pairs} for translation, _ in pairs}
    for code, rows in sorted(entries.items()):
        name = translated_search.FILE.format(language=code)
        found.files[f"search/{name}"] = json.dumps(translated_search.translated_data(code, rows),
                                                   ensure_ascii=False, separators=(",", ":"))
        listed[code] = {"letters": kinds.LANGUAGE_BY_ID[code].letters, "file": name, "short": shorts.get(code, {})}
    found.files["search/translated.json"] = json.dumps({"languages": listed}, ensure_ascii=False,
                                                       separators=(",", ":"))


def search_entries(addresses: Addresses, pairs: list[tuple[Document, Document]]) -> dict[str, list]:
    """Each language's translated rules as search entries: (id, number, title, site URL, text), a glossary
    entry's with the ids of the rules its English entry cites."""
    found: dict[str, list] = {}
    for translation, english in pairs:
        language = kinds.language(translation.info.language)
        if language is None:
            continue
        ours = {section.id: section for section in translation.sections}
        rows = found.setdefault(language.id, [])
        for section in english.sections:
            translated = ours.get(section.id)
            link = addresses.link(section.id)
            if translated is None or link is None or left_in_english(translated, language.id):
                continue
            title = translated.title if section.title else ""
            rows.append((section.id, section.number, title, f"{language.id}/{link}",
                         " ".join(_texts(section, translated, language))))
        for ours, theirs in pair_glossary(translation, english)[0] if english.info.current else ():
            link = addresses.link(glossary_id(english, theirs))
            if link is not None:
                rows.append((glossary_id(english, theirs), "", f"{ours.term} · {theirs.term}",
                             f"{language.id}/{link}", ours.text.replace("\n", " "),
                             tuple(dict.fromkeys(ref.target for ref in theirs.refs if ref.target))))
    return found


def _changes(found: TranslatedPages, addresses: Addresses,
             pairs: list[tuple[Document, Document]]) -> dict[str, list[tuple[str, str]]]:
    """What changed between two editions of a translation (the Chinese of 2024-08-02 → of 2026-01-16), as the
    English "What changed" shows it (pipeline.diff on the two translations: they keep the English numbers),
    at `zh/changes/<old>--<new>/`, each rule linked to its translated page; per language, (path, title)."""
    made: dict[str, list[tuple[str, str]]] = {}
    editions: dict[tuple[str, str], list[tuple[Document, Document]]] = {}
    for translation, english in pairs:
        editions.setdefault((translation.info.language, english.info.kind), []).append((translation, english))
    for (code, _), found_pairs in sorted(editions.items()):
        language = kinds.language(code)
        if language is None:
            continue
        found_pairs.sort(key=lambda pair: pair[1].info.edition or "")
        for (old, old_english), (new, new_english) in zip(found_pairs, found_pairs[1:]):
            path = folder(code, pair_path(old.info, new.info))
            sections = {section.id: section for document in (old, new) for section in document.sections}
            current = {document.id for document in (old_english, new_english) if document.info.current}

            def href(section_id: str, current=current, sections=sections) -> Optional[str]:
                document_id = section_id.split(":", 1)[0]
                link = addresses.link(section_id) if document_id in current else (
                    f"{document_id}/#{anchor_of(sections[section_id])}" if section_id in sections else None)
                return f"../../{link}" if link else None

            def title_of(section_id: str, sections=sections) -> str:
                section = sections.get(section_id)
                return section.title if section is not None else ""
            page = pair_page(old.info, new.info, compare(old, new), href, title_of)
            body = _head(new, language, path, "changes/index.md") + page.body
            found.pages[path] = Page(path, page.title, _wrap(language, body), description=page.description)
            made.setdefault(code, []).append((path, page.title))
    return made


def _home(code: str, pairs: list[tuple[Document, Document]], changes: list[tuple[str, str]] = ()) -> Page:
    """A language's front page (`zh/`): its translations, each beside the edition it translates."""
    language = kinds.LANGUAGE_BY_ID[code]
    path = folder(code, "index.md")
    rows = "".join(
        f'<li><a href="{esc(Addresses.relative(Addresses(), path, folder(code, f"{english.id}/index.md")))}">'
        f'{esc(translation.info.title)}</a> <span lang="en">({esc(kinds.short_name(english.info.kind))} '
        f'{esc(english.info.edition or english.id)}{"" if english.info.current else ", an older edition"})</span></li>'
        for translation, english in pairs if translation.info.language == code)
    changed = "".join(f'<li><a href="{esc(Addresses.relative(Addresses(), path, change))}" lang="en">{esc(title)}</a>'
                      f'</li>' for change, title in changes)
    body = (f'<h1 id="top">{esc(language.name)}</h1>'
            f'<div class="admonition warning rk-unofficial" role="note"><p>{esc(language.unofficial)}</p>'
            f'<p lang="en">{esc(kinds.UNOFFICIAL_IN_ENGLISH)}</p></div><ul class="rk-contents">{rows}</ul>'
            + (f'<h2 id="changes" lang="en">What changed</h2><ul class="rk-contents">{changed}</ul>' if changed else "")
            +             '<p><a href="../" hreflang="en" lang="en" data-rk-language="en">English</a></p>')
    return Page(path, language.name, _wrap(language, body), description=f"{language.english} translations")
