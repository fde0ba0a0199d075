"""What the site is made of, decided before mkdocs runs: pages, navigation, and every other file.

`plan_site(corpus)` reads top to bottom as the list of what the site holds: the current editions'
pages, the quick references, the history of every rule and what changed between editions, the
older editions (compact), the JSON exports, the static assets, the service worker named after the
build. A pure function of what the build collected (`collect`: the corpus, addresses, histories,
summaries, assets): nothing is read from disk here, and nothing written; no mkdocs (see `mkdocs_site`).
"""
from __future__ import annotations

import json
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..addresses import Addresses
from ..corpus import load_corpus
from ..diff.history import KindHistory
from ..export import document_json, dumps
from ..model import ERROR, Corpus, Document
from ..parse.remedy import ordinary_fix
from . import annotations as notes
from . import editions as older
from . import history_pages, icons, reference, shortcuts, translated
from .collect import Build, collect
from .pages import DocumentPages, Histories, Layout, Page, current_documents

# Assets that live elsewhere than assets/: the service worker at the root (its scope is the whole
# site), the search worker, its semantic signal and its translations' search (which it imports) beside the
# files they read.
ASSET_PLACES = {"sw.js": "sw.js", "search-worker.js": "search/worker.js", "semantic.js": "search/semantic.js",
                "translated-search.js": "search/translated-search.js"}


@dataclass
class SitePlan:
    pages: dict[str, Page] = field(default_factory=dict)   # mkdocs path -> page
    nav: list = field(default_factory=list)
    files: dict[str, bytes | str] = field(default_factory=dict)   # site path -> content
    links: dict[str, str] = field(default_factory=dict)          # site path -> site path it is a copy of
    folders: dict[str, str] = field(default_factory=dict)        # site folder -> site folder it is a link to
    template_flags: dict[str, object] = field(default_factory=dict)
    addresses: Optional[Addresses] = None
    past: set[str] = field(default_factory=set)     # site paths (files, folders) read for the past editions alone


class SourcesError(Exception):
    """The sources hold errors: no site can be planned from them."""


def plan_site(build: Build, build_id: str = "dev") -> SitePlan:
    corpus, addresses, histories, previews = build.corpus, build.addresses, build.histories, build.previews
    layout = Layout(addresses)
    plan = SitePlan(addresses=addresses)
    marks = _history_marks(corpus, histories, addresses)
    marks.upcoming = {kind: [(info, history_pages.pair_path(history.editions[index], info), f"{info.id}/index.md")
                             for index, info in enumerate(history.editions[1:])]
                      for kind, history in previews.items()}

    documents = DocumentPages(corpus, layout, marks, _notes_under_rules(corpus, addresses, marks), ordinary_fix)
    document_nav = [{document.info.title: documents.render(document)} for document in current_documents(corpus)]

    readers: dict[str, str] = {}
    for kind in sorted({info.kind for info in corpus.editions}):
        editions = [(info, build.summaries[info.id])
                    for info in corpus.editions if info.kind == kind and not info.current]
        if editions:
            current = next((d.info for d in corpus.documents if d.info.kind == kind), None)
            changes = {info.id: changes_path for info, changes_path, _ in marks.upcoming.get(kind, [])}
            now = {**_current_keys(histories.get(kind)), **_current_keys(previews.get(kind))}
            part = older.older_editions(kind, editions, addresses, current, changes, now)
            layout.pages.update(part.pages)
            plan.files.update(part.files)
            plan.past |= part.past
            readers.update({info.id: f"{info.id}/index.md" for info, _ in editions})
    for edition_id, orphans in notes.orphans_by_edition(corpus).items():   # kept with the edition they explain
        reader = layout.pages.get(f"{edition_id}/index.md")
        if reader is not None:
            link = lambda section_id, path=reader.path: _href(addresses, corpus, path, section_id)
            reader.body += notes.older_edition_notes(orphans, link, link)

    pairs = []
    for history in (*histories.values(), *previews.values()):
        for index, diff in enumerate(history.diffs):
            pairs.append((history.editions[index], history.editions[index + 1], diff, history))
    pairs.sort(key=lambda pair: pair[1].edition or "", reverse=True)
    for old_info, new_info, diff, history in pairs:
        path = history_pages.pair_path(old_info, new_info)
        layout.pages[path] = history_pages.pair_page(
            old_info, new_info, diff, lambda section_id, path=path: _href(addresses, corpus, path, section_id),
            lambda section_id, history=history: _title(history, section_id),
            build.highlights[old_info.id, new_info.id])
        if not new_info.current and not new_info.upcoming:      # what changed between two past editions
            plan.past.add(path.removesuffix(".md"))
    if pairs:
        layout.pages["changes/index.md"] = history_pages.changes_index([pair[:3] for pair in pairs], addresses)
    _history_pages(corpus, histories, marks, layout)

    layout.pages["index.md"] = reference.home_page(corpus, addresses, readers, marks.upcoming)
    nav: list = [{"Home": "index.md"}]
    ipg = reference.penalties_document(corpus)
    if ipg is not None:
        layout.pages[reference.PENALTIES] = reference.penalties_page(
            ipg, addresses, documents.upcoming_note(ipg, reference.PENALTIES), ordinary_fix)
        nav.append({"Penalty quick reference": reference.PENALTIES})
    if reference.has_regular(corpus):
        layout.pages[reference.REGULAR] = reference.regular_page(reference.regular_document(corpus), addresses)
        nav.append({"Regular REL quick reference": reference.REGULAR})
    nav.extend(document_nav)
    if pairs:
        nav.append({"What changed": "changes/index.md"})
    if corpus.annotations:
        layout.pages[notes.PAGE] = _annotations_page(corpus, addresses, marks)
        nav.append({"Annotations": notes.PAGE})
    layout.pages["search-tips.md"] = reference.search_tips_page(corpus, addresses)
    nav.append({"Search tips": "search-tips.md"})

    plan.pages = layout.pages
    plan.nav = nav
    plan.template_flags = {"has_penalties": reference.PENALTIES in layout.pages,
                           "has_regular": reference.REGULAR in layout.pages, "build": build_id,
                           "theme_colour": icons.THEME_COLOUR,
                           # the 404 page forwards the older editions' old addresses (<edition>/702/) to their readers
                           "not_found_script": older.not_found_script(sorted(readers))}
    _add_files(plan, build, build_id)
    typed = shortcuts.typed_addresses(addresses, plan.pages, plan.files)     # /cr/702.19b, /search/?q=…
    plan.pages.update(typed.pages)
    plan.files.update(typed.files)
    plan.links.update(typed.links)
    plan.folders.update(typed.folders)
    _add_translations(plan, translated.translated_pages(addresses, list(build.translations), typed.links,
                                                        typed.files[shortcuts.SHORTCUT], typed.folders))
    return plan


def _add_translations(plan: SitePlan, part: translated.TranslatedPages) -> None:
    """The translations' pages, and on each English page that has one its languages (a bar, hreflang links)."""
    plan.pages.update(part.pages)
    plan.links.update(part.links)
    plan.folders.update(part.folders)
    plan.files.update(part.files)
    for language in {path.split("/", 1)[0] for path in part.links}:      # the typed numbers they forward to
        plan.links[translated.folder(language, shortcuts.NUMBERS)] = shortcuts.NUMBERS
    for path, alternates in part.alternates.items():
        page = plan.pages.get(path)
        if page is not None:
            page.alternates = (("en", path), *alternates)
            page.body = translated.language_bar(path, alternates) + page.body



def _changes_of(addresses: Addresses, marks: Histories, from_path: str, section_id: Optional[str]) -> Optional[str]:
    """Where a current rule's wordings through the editions are shown, word by word: its history page."""
    location = addresses.locations.get(section_id or "")
    history = marks.pages.get(location[0]) if location else None
    if not history:
        return None
    return addresses.relative(from_path, history) + (f"#{location[1]}" if location[1] else "")


def _notes_under_rules(corpus: Corpus, addresses: Addresses, marks: Histories):
    """The annotations block under each annotated rule of a page (site.annotations)."""
    on = notes.by_section(corpus)

    def under(section, path: str) -> str:
        found = on.get(section.id)
        if not found:
            return ""
        url_for = lambda target: addresses.href(path, target)
        changes = _changes_of(addresses, marks, path, section.id)
        return "".join(notes.annotation_html(annotation, url_for, changes) for annotation in found)
    return under


def _annotations_page(corpus: Corpus, addresses: Addresses, marks: Histories):
    wanted = {annotation.target for annotation in corpus.annotations if annotation.target}
    titles = {section.id: section.title for document in corpus.documents for section in document.sections
              if section.id in wanted}
    link = lambda section_id: _href(addresses, corpus, notes.PAGE, section_id)
    return notes.annotations_page(corpus, link, link,
                                  lambda annotation: _changes_of(addresses, marks, notes.PAGE, annotation.target),
                                  titles)


def _current_keys(history: Optional[KindHistory]) -> dict[str, dict[str, str]]:
    """Edition id -> {a section's key there: the key of the same rule in the current edition} (rules since
    removed are not there), from the lineages the history traced."""
    if history is None:
        return {}
    now = next((index for index, info in enumerate(history.editions) if info.current), None)
    if now is None:
        return {}
    found: dict[str, dict[str, str]] = {}
    for lineage in history.lineages.values():
        current_key = next((key for index, key in lineage if index == now), None)
        if current_key is None:
            continue
        for index, key in lineage:
            if index != now:
                found.setdefault(history.editions[index].id, {})[key] = current_key
    return found


def _history_marks(corpus: Corpus, histories: dict[str, KindHistory], addresses: Addresses) -> Histories:
    """When each current rule last changed, and where the history of each current page is."""
    marks = Histories()
    for document in corpus.documents:
        history = histories.get(document.info.kind)
        if history is None or history.editions[-1].id != document.id:
            continue
        for section in document.sections:
            key = section.id.split(":", 1)[1]
            edition = history.last_changed(key)
            if edition:
                marks.last_changed[section.id] = edition
            page = addresses.locations[section.id][0]
            marks.pages[page] = f"history/{page}"
    return marks


def _history_pages(corpus: Corpus, histories: dict[str, KindHistory], marks: Histories, layout: Layout) -> None:
    addresses = layout.addresses
    for document in corpus.documents:
        history = histories.get(document.info.kind)
        if history is None or history.editions[-1].id != document.id:
            continue
        by_page: dict[str, list] = {}
        for section in document.sections:
            by_page.setdefault(addresses.locations[section.id][0], []).append(section)
        below = _rules_below(document, addresses, marks)
        for page, sections in by_page.items():
            path = marks.pages[page]
            owner = layout.pages.get(page)

            def edition_href(index: int, number: str, path=path, history=history) -> Optional[str]:
                info = history.editions[index]
                return _href(addresses, corpus, path, f"{info.id}:{number}") if number else None
            layout.pages[path] = history_pages.history_page(
                path, owner.title if owner else page, sections, history,
                lambda section_id, path=path: addresses.href(path, section_id), edition_href,
                {section.id: [(rule, addresses.relative(path, where) + "#" + anchor)
                              for rule, where, anchor in below[section.id]]
                 for section in sections if section.id in below})


def _rules_below(document: Document, addresses: Addresses, marks: Histories) -> dict[str, list[tuple]]:
    """A section id -> the rules under it that other pages hold: (the rule, its history page, its anchor there),
    in document order (a chapter on the contents page, its rules on their own pages)."""
    by_id = {section.id: section for section in document.sections}
    found: dict[str, list[tuple]] = {}
    for section in document.sections:
        page, anchor = addresses.locations[section.id]
        parent = by_id.get(section.parent or "")
        seen = {section.id}
        while parent is not None and parent.id not in seen:
            seen.add(parent.id)
            if addresses.locations[parent.id][0] != page:
                found.setdefault(parent.id, []).append((section, marks.pages[page], anchor))
            parent = by_id.get(parent.parent or "")
    return found


def _href(addresses: Addresses, corpus: Corpus, from_path: str, section_id: str) -> Optional[str]:
    """A section of any edition: the current ones on their pages, older ones in their edition's reader."""
    found = addresses.href(from_path, section_id)
    if found or corpus.document(section_id.split(":", 1)[0]) is not None:
        return found
    document, _, key = section_id.partition(":")
    return addresses.relative(from_path, f"{document}/index.md") + "#" + key.replace("/", "--")


def _title(history: KindHistory, section_id: str) -> str:
    document, _, key = section_id.partition(":")
    index = next((i for i, info in enumerate(history.editions) if info.id == document), None)
    step = history.step(index, key) if index is not None else None
    return history.wordings[step.wording].title if step else ""


def _add_files(plan: SitePlan, build: Build, build_id: str) -> None:
    corpus, addresses = build.corpus, build.addresses
    for name, content in build.assets.items():
        if name == "sw.js":
            content = content.replace("__RULEKB_BUILD__", build_id)
        plan.files[ASSET_PLACES.get(name, f"assets/{name}")] = content
    plan.files.update(icons.icon_files())       # the manifest naming them is mkdocs_site's (it knows the site's name)
    plan.files["assets/numbers.json"] = json.dumps(addresses.numbers, ensure_ascii=False, sort_keys=True)
    documents = []
    for document in corpus.documents:
        plan.files[f"data/{document.id}.json"] = dumps(document_json(document, corpus), compact=True)
        documents.append({"id": document.id, "kind": document.info.kind, "title": document.info.title,
                          "edition": document.info.edition, "url": f"data/{document.id}.json"})
    plan.files["data/index.json"] = dumps({"documents": documents, "editions": [
        {"id": info.id, "kind": info.kind, "title": info.title, "edition": info.edition, "current": info.current,
         "excerpt": info.excerpt, "upcoming": info.preview} for info in corpus.editions]})
    # the check report: every problem `rulekb check` lists, for maintainers and tools
    plan.files["data/problems.json"] = dumps({"problems": [p.as_json() for p in corpus.all_problems()]})


def plan_from_sources(sources: Path) -> SitePlan:
    """For `mkdocs serve` run by hand: the plan of a sources folder (errors stop it)."""
    corpus = load_corpus(sources)
    errors = [problem for problem in corpus.all_problems() if problem.severity == ERROR]
    if errors:
        raise SourcesError("; ".join(str(problem) for problem in errors[:5]))
    return plan_site(collect(corpus))
