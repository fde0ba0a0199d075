"""Everything `rulekb` does, as Python functions returning plain data (the CLI prints what they return).

    from pipeline import api
    api.check("sources")                 # every problem, with file and line
    api.show("704.5k")                   # one section, as `rulekb show --json` prints it
    api.search("missed trigger")         # an Answer; .as_json() is `rulekb search --json`
    api.compare("cr-2025-11-14", "cr")   # what changed, as `rulekb diff --json` prints it
    api.build("sources", "site")         # the site and its search index, published together
    api.annotations("sources")           # the judges' notes (annotations/ beside sources/), where each landed

Every function reading the sources reads the notes of `annotations` too: by default `annotations/` beside
the sources folder, when there is one.
"""
from __future__ import annotations

from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from . import annotate, cache, kinds
from .addresses import address_corpus, address_document, glossary_id
from .build_date import build_date
from .export import annotation_json, document_json, ref_json, section_json
from .model import ERROR, Corpus, Document, DocumentInfo, GlossaryEntry, Problem, Section, replace
from .search.question import as_number, fold

if TYPE_CHECKING:
    from .search.engine import Answer
    from .site.build import BuildResult

# The stages are imported by the functions that need them: `rulekb show` and `search` load neither the
# readers and parsers (the corpus comes from the cache when no file changed) nor the site or the differ;
# `check` and `export` load no whoosh and no mkdocs.


def load_corpus(*args, **kwargs) -> Corpus:
    from .corpus import load_corpus as load
    return load(*args, **kwargs)


def load_document(*args, **kwargs):
    from .corpus import load_document as load
    return load(*args, **kwargs)


def load_edition(*args, **kwargs) -> Optional[Document]:
    from .corpus import load_edition as load
    return load(*args, **kwargs)


def rename_document(document: Document, info: DocumentInfo) -> Document:
    from .corpus import rename_document as rename
    return rename(document, info)


class UsageError(Exception):
    """A mistake in what was asked (a missing file, an unknown id): one line for the user, exit code 2."""


class SourcesHaveErrors(Exception):
    """The sources hold errors; `problems` lists them."""

    def __init__(self, problems: list[Problem]):
        super().__init__(f"{len(problems)} error(s) in the sources")
        self.problems = problems


@dataclass
class CheckReport:
    folder: str
    documents: int            # every document of the folder, older editions included
    current: int              # the current editions
    sections: int             # in the current editions
    problems: tuple[Problem, ...]
    languages: tuple[tuple[str, str, str], ...] = ()    # each document's file, language and how it was told

    @property
    def errors(self) -> list[Problem]:
        return [problem for problem in self.problems if problem.severity == ERROR]

    def as_json(self) -> dict:
        return {"folder": self.folder, "documents": self.documents, "current": self.current, "sections": self.sections,
                "problems": [problem.as_json() for problem in self.problems],
                "languages": [{"file": file, "language": language, "says": says}
                              for file, language, says in self.languages]}


def notes_folder(sources: Path | str, annotations: Optional[Path | str] = None) -> Optional[Path]:
    """The annotations folder named (it must exist), else `annotations/` beside the sources when there is one."""
    if annotations is not None:
        if not Path(annotations).is_dir():
            raise UsageError(f"no annotations folder {annotations}")
        return Path(annotations)
    default = annotate.default_folder(sources)
    return default if default.is_dir() else None


def load_annotated(sources: Path | str = "sources", annotations: Optional[Path | str] = None,
                   use_cache: bool = True) -> Corpus:
    """The corpus of a sources folder with the notes of its annotations folder."""
    folder = notes_folder(sources, annotations)
    return annotate.attach(load_corpus(sources, use_cache=use_cache), folder, use_cache)


def current_corpus(sources: Path | str = "sources", annotations: Optional[Path | str] = None) -> Corpus:
    """`load_annotated`, kept whole in the cache under the bytes of every file of both folders, the code and
    the day: a question asked again of unchanged sources reads one file and parses nothing."""
    return _current_corpus(sources, annotations)[0]


def _current_corpus(sources: Path | str, annotations: Optional[Path | str]) -> tuple[Corpus, Optional[str]]:
    """`current_corpus`, and the fingerprint of the folders it was kept under (None for no folder)."""
    folder = notes_folder(sources, annotations)
    if not Path(sources).is_dir():
        return load_annotated(sources, annotations), None
    fingerprint = cache.folder_fingerprint(Path(sources), build_date(), folder)
    corpus = cache.remembered(cache.key("annotated-corpus", fingerprint), lambda: load_annotated(sources, annotations))
    return replace(corpus, folder=str(sources)), fingerprint


def annotations(sources: Path | str = "sources", annotations: Optional[Path | str] = None,
                corpus: Optional[Corpus] = None) -> list[dict]:
    """Every note, as `rulekb show --json` gives them: where it was written for, where it is now."""
    corpus = corpus if corpus is not None else load_annotated(sources, annotations)
    return [annotation_json(annotation) for annotation in corpus.annotations]


def check(sources: Path | str = "sources", use_cache: bool = True,
          annotations: Optional[Path | str] = None) -> CheckReport:
    """Every problem of a sources folder; or of one file on its own (a new edition, before it is dropped in:
    its references to other documents stay unresolved)."""
    if Path(sources).is_file():
        document, problems = load_document(sources, use_cache=use_cache)
        found = (document,) if document is not None else ()
        return CheckReport(str(sources), len(found), len(found), sum(len(d.sections) for d in found), tuple(problems),
                           tuple((d.info.source, d.info.language, d.info.language_says) for d in found))
    corpus = load_annotated(sources, annotations, use_cache)
    return CheckReport(str(sources), len(corpus.editions), len(corpus.documents),
                       sum(len(d.sections) for d in corpus.documents), corpus.all_problems(),
                       tuple((info.source, info.language, info.language_says)
                             for info in (*corpus.editions, *corpus.translations)))


def export(target: Path | str, sources: Path | str = "sources", alone: bool = False, use_cache: bool = True,
           annotations: Optional[Path | str] = None) -> dict:
    """One document as JSON: a file (read with its folder, or `alone`), or a document id in `sources`; with the
    notes on its sections."""
    path = Path(target)
    if path.is_file():
        if alone:
            document, problems = load_document(path, use_cache=use_cache)
            corpus = None
        else:
            corpus = load_annotated(path.parent, annotations, use_cache)
            info = next((info for info in corpus.editions if info.source == path.name), None)
            document = load_edition(corpus, info.id, use_cache) if info else None   # an older edition too
            problems = [p for p in corpus.all_problems() if p.file == path.name]
        if document is None:
            raise SourcesHaveErrors([p for p in problems if p.severity == ERROR] or list(problems))
        return document_json(document, corpus)
    corpus = load_annotated(sources, annotations, use_cache)
    document = corpus.document(str(target))
    if document is None:
        raise UsageError(f"{target} is no file, and no document id in {sources} "
                         f"(ids: {', '.join(d.id for d in corpus.documents)})")
    return document_json(document, corpus)


def search(query: str, sources: Path | str = "sources", *, limit: int = 10, kind: Optional[str] = None,
           index: Optional[Path | str] = None, edition: Optional[str] = None,
           annotations: Optional[Path | str] = None, language: Optional[str] = None) -> Answer:
    """Search the current editions (the index of `sources`, or the index folder given); or the sources as
    they stand on the day the `edition` named takes effect ("upcoming", an id or a date). The notes on a
    rule are searched as its commentary. A question in a translation's script, or an English glossary term
    with a `language` chosen ("zh"), is answered from that language's rules (search.translated)."""
    from .search.engine import search as search_index
    from .search.index import KnowledgeBase
    from .search.indexing import index_for_sources
    from .search.translated import answer_from_folder, answering_language
    if answering_language(query, language) is not None:        # a question in a translation's language: its rules
        found = answer_from_folder(index, query, limit, language) if index is not None else \
            _search_translations(query, sources, limit, language)
        if found is not None:
            return found
    if index is None:
        if not Path(sources).is_dir():
            raise UsageError(f"no sources folder {sources}")
        folder = notes_folder(sources, annotations)
        index = index_for_sources(sources, effective_day(sources, edition) if edition else None, notes=folder,
                                  attach=lambda corpus: annotate.attach(corpus, folder))
    kb = KnowledgeBase(_index_in(Path(index)))
    try:
        return search_index(kb, query, limit=limit, kind=kind)
    finally:
        kb.close()


def _index_in(folder: Path) -> Path:
    """The search index `folder` is, or the one a site rulekb built there was published with (a user names the
    folder they know); UsageError where it is neither."""
    if any(folder.glob("_MAIN_*.toc")):                  # whoosh's table of contents: an index
        return folder
    from .site.publish import index_folder, published
    marker = published(folder)
    if marker and index_folder(folder, marker["generation"]).is_dir():
        return index_folder(folder, marker["generation"])
    raise UsageError(f"{folder} holds no search index: name a folder rulekb build wrote (the site, or its index), "
                     "or leave out --index to search the index of --sources")


def show(ref: str, sources: Path | str = "sources", corpus: Optional[Corpus] = None,
         edition: Optional[str] = None, annotations: Optional[Path | str] = None,
         keep: bool = False) -> Optional[dict]:
    """One section (or glossary term) by id, number or term, with what it cites and what cites it, and the
    notes on it; from the current editions, or from the `edition` named (an id, an effective date, "upcoming").
    `keep`: also write the store of every section's view (`built.SectionStore`) that the next `rulekb show`
    of the same sources answers from, if there is none yet."""
    if corpus is None:
        corpus, fingerprint = _current_corpus(sources, annotations)
        if keep and fingerprint is not None:
            from . import built
            path = built.store_path(fingerprint)
            if not path.is_file():
                built.write_store(path, section_store(corpus))
    if edition:
        return _show_in_edition(corpus, ref, edition)
    found = find_section(corpus, ref)
    return section_view(corpus, *found) if found else None


def effective_day(sources: Path | str, edition: str) -> date:
    """The day the edition named takes effect: the day from which the sources stand as it says."""
    named = [info for info in editions_named(load_corpus(sources), edition) if info.edition]
    if not named:
        raise UsageError(f"no dated edition {edition!r} in {sources} (an id, an effective date, or \"upcoming\")")
    return date.fromisoformat(min(info.edition for info in named))


def editions_named(corpus: Corpus, wanted: str) -> list[DocumentInfo]:
    """The editions a person means by `wanted`: an id ("ipg-2026-12-04"), an effective date ("2026-12-04"),
    "upcoming" (those not in force yet) or "current"."""
    wanted = wanted.strip().lower()
    return [info for info in corpus.editions
            if wanted in (info.id, info.edition) or (wanted == "upcoming" and info.preview)
            or (wanted == "current" and info.current)]


def _show_in_edition(corpus: Corpus, ref: str, wanted: str) -> Optional[dict]:
    for info in editions_named(corpus, wanted):
        document = load_edition(corpus, info.id)
        if document is None:
            continue
        named = f"{document.id}:{ref.partition(':')[2]}" if ":" in ref else ref
        found = find_section(replace(corpus, documents=(document,)), named)
        if found:
            return section_view(corpus, *found)
    return None


def compare(old: str, new: str, sources: Path | str = "sources") -> dict:
    """What changed between two editions (files, or document ids in `sources`), with the notes a
    change appendix gives rise to."""
    from . import diff
    corpus = None
    if not (Path(old).is_file() and Path(new).is_file()):
        corpus = load_corpus(sources)
    older, newer = _edition(corpus, old), _edition(corpus, new)
    if older.info.kind != newer.info.kind:
        raise UsageError(f"{old} is a {older.info.kind} and {new} a {newer.info.kind}; "
                         "compare two editions of one document")
    if older.id == newer.id:
        older = rename_document(older, replace(older.info, id=f"{older.id}-old"))
    found = diff.compare(older, newer)
    data = diff.diff_json(found)
    data.update({"title": newer.info.title, "old_id": older.id, "new_id": newer.id,
                 "notes": [str(problem) for problem in diff.check_announced(found, newer)]})
    return data


def build(sources: Path | str = "sources", out: Path | str = "site", config: Optional[Path | str] = None,
          use_cache: bool = True, annotations: Optional[Path | str] = None) -> tuple[BuildResult, Corpus]:
    """The site and its search index, published together; SourcesHaveErrors leaves the old site as it is. A
    note in error is left out of the site (the others are published), as `rulekb check` says."""
    from .search.indexing import folder_for_sources, keep_built, write_search_index
    from .site.build import build_site
    from .site.publish import index_folder
    # the key of the sources as this build reads them: the next `rulekb search` of them answers from its index
    kept_as = folder_for_sources(sources, notes=notes_folder(sources, annotations)) if Path(sources).is_dir() else None
    corpus = load_annotated(sources, annotations, use_cache)
    errors = [problem for problem in corpus.all_problems() if problem.severity == ERROR]
    left_out = {problem.file for problem in corpus.note_problems()}
    if any(problem.file not in flagged_sources(corpus) | left_out for problem in errors):
        raise SourcesHaveErrors(errors)
    result = build_site(corpus, out, sources=Path(sources), config_file=Path(config) if config else None,
                        write_index=lambda corpus, addresses, index, site_files, generation: write_search_index(
                            corpus, index, addresses, browser_folder=site_files, build=generation))
    if kept_as is not None:
        keep_built(kept_as, index_folder(Path(out), result.generation), Path(out) / "search")
    return result, corpus


def flagged_sources(corpus: Corpus) -> set[str]:
    """The files whose errors the site itself shows: documents read but marked incomplete (a truncated file, a
    broken invariant), published with a banner quoting their first error. Any other error (a file that cannot
    be read or told apart, a broken manifest) stops the build."""
    return {info.source for info in corpus.editions if not info.complete}


# -- finding one section ------------------------------------------------------------------------

def find_section(corpus: Corpus, wanted: str) -> Optional[tuple[Document, Section | GlossaryEntry]]:
    """A section by id ("cr:704.5k"), by number ("704.5k", "ipg 2.1"), or a glossary term ("concede")."""
    wanted = wanted.strip()
    if ":" in wanted:
        document_id, _, rest = wanted.partition(":")
        document = corpus.document(document_id)
        if document is None:
            return None
        if rest.startswith("glossary/"):
            entry = next((e for e in document.glossary if glossary_id(document, e) == wanted), None)
            return (document, entry) if entry else None
        section = document.section(wanted)
        return (document, section) if section else None
    number = as_number(wanted)
    if not number:
        return _glossary_term(corpus, wanted)
    kind, number = number
    # a bare number is looked for in the kinds whose numbering it fits ("704.5k": the CR; "2.1": IPG, then MTR)
    wanted_kinds = [kind] if kind else kinds.numbered_by(number)
    ordered = sorted(corpus.documents, key=lambda d: (not d.info.current, d.info.excerpt))
    for wanted_kind in wanted_kinds:
        for document in ordered:
            if document.info.kind == wanted_kind:
                section = next((s for s in document.sections if s.number.lower() == number), None)
                if section is not None:
                    return document, section
    return None


def _search_translations(query: str, sources: Path | str, limit: int, chosen: Optional[str] = None):
    """A question in a translation's language, answered from the translations of `sources` (the same data
    and ranking as the site's: search.translated), kept in the cache under the files' bytes."""
    from .search.translated import answering_language, translated_answer, translated_data
    from .site.collect import translations
    from .site.translated import search_entries
    if not Path(sources).is_dir():
        raise UsageError(f"no sources folder {sources}")
    corpus = load_corpus(sources)
    language = answering_language(query, chosen)
    infos = [info for info in corpus.translations if info.language == language and info.current]
    if not infos:
        return None
    key = cache.key("translated-search", language or "", *(info.sha256 + info.translates for info in infos),
                    *(info.sha256 for info in corpus.editions if info.current))

    def data() -> dict:
        pairs = [pair for pair in translations(corpus) if pair[0].info.language == language and pair[1].info.current]
        return translated_data(language, search_entries(address_corpus(corpus), pairs).get(language, []))
    return translated_answer(cache.remembered(key, data), query, limit)


def _glossary_term(corpus: Corpus, wanted: str) -> Optional[tuple[Document, GlossaryEntry]]:
    """A term as a person types it: any case, straight or curly apostrophes ("City's Blessing")."""
    wanted = fold(wanted).casefold()
    for document in sorted(corpus.documents, key=lambda d: (not d.info.current, d.info.excerpt)):
        for entry in document.glossary:
            if wanted in (fold(name).casefold() for name in (entry.term, *entry.names)):
                return document, entry
    return None


def section_view(corpus: Corpus, document: Document, section: Section | GlossaryEntry) -> dict:
    """One section (or glossary term) as `rulekb show --json` prints it."""
    return SectionViews(corpus).view(document, section)


class SectionViews:
    """The views of a corpus's sections (`section_view`), each document's addresses and subrules worked out
    once for all its sections."""

    def __init__(self, corpus: Corpus):
        self.corpus = corpus
        self._addresses: dict[int, object] = {}
        self._children: dict[int, dict[str, list[Section]]] = {}

    def view(self, document: Document, section: Section | GlossaryEntry) -> dict:
        corpus = self.corpus
        if id(document) not in self._addresses:
            self._addresses[id(document)] = address_document(document)
        addresses = self._addresses[id(document)]
        about = {"id": document.id, "title": document.info.title, "edition": document.info.edition,
                 "current": document.info.current, "upcoming": document.info.upcoming}
        if isinstance(section, GlossaryEntry):
            entry_id = glossary_id(document, section)
            return {"id": entry_id, "number": "", "title": section.term, "kind": "glossary", "text": section.text,
                    "examples": [], "refs": [ref_json(ref) for ref in section.refs], "referenced_by": [],
                    "names": list(section.names), "line": section.line, "document": about,
                    "url": addresses.link(entry_id)}
        data = section_json(section, corpus.backlinks)
        data["annotations"] = [annotation_json(annotation) for annotation in corpus.annotations
                               if section.id == (annotation.target if document.info.current
                                                 else annotation.written_for)]
        data["subsections"] = [{"id": child.id, "number": child.number, "title": child.title, "text": child.text}
                               for child in self._children_of(document).get(section.id, ())]
        data["same_number_elsewhere"] = [
            other.id + ":" + section.number.lower() for other in corpus.documents
            if section.number and other.info.current and other.id != document.id
            and other.info.kind != document.info.kind and other.section(section.number) is not None]
        data["document"] = about
        data["url"] = addresses.link(section.id)
        return data

    def _children_of(self, document: Document) -> dict[str, list[Section]]:
        """A section's subsections, in document order, by its id."""
        if id(document) not in self._children:
            children: dict[str, list[Section]] = {}
            for child in document.sections:
                children.setdefault(child.parent, []).append(child)
            self._children[id(document)] = children
        return self._children[id(document)]


def section_store(corpus: Corpus) -> dict:
    """Every section and glossary term of the corpus with its view, and the tables that find them as
    `find_section` does (the same walk, written down once): what `built.SectionStore` answers `rulekb show`
    from without loading the corpus. tests/test_built.py holds the two equal."""
    views: list[dict] = []
    made: dict[tuple[int, int], int] = {}
    maker = SectionViews(corpus)

    def view_of(document: Document, item: Section | GlossaryEntry) -> int:
        if (id(document), id(item)) not in made:
            made[(id(document), id(item))] = len(views)
            views.append(maker.view(document, item))
        return made[(id(document), id(item))]

    ids: dict[str, int] = {}          # "<document id> <section id>", first document of an id (Corpus.document)
    glossary: dict[str, int] = {}     # "<document id> <glossary id>"
    seen: set[str] = set()
    for document in corpus.documents:
        if document.id in seen:
            continue
        seen.add(document.id)
        for section in document.sections:
            if f"{document.id} {section.id}" not in ids:
                ids[f"{document.id} {section.id}"] = view_of(document, section)
        for entry in document.glossary:
            if f"{document.id} {glossary_id(document, entry)}" not in glossary:
                glossary[f"{document.id} {glossary_id(document, entry)}"] = view_of(document, entry)
    numbers: dict[str, dict[str, int]] = {}       # kind -> number -> its first section, documents in order
    terms: dict[str, int] = {}                    # a glossary term or name, folded -> its first entry
    for document in sorted(corpus.documents, key=lambda d: (not d.info.current, d.info.excerpt)):
        numbered = numbers.setdefault(document.info.kind, {})
        for section in document.sections:
            if section.number.lower() not in numbered:
                numbered[section.number.lower()] = view_of(document, section)
        for entry in document.glossary:
            for name in (entry.term, *entry.names):
                if fold(name).casefold() not in terms:
                    terms[fold(name).casefold()] = view_of(document, entry)
    return {"views": views, "ids": ids, "glossary": glossary, "numbers": numbers, "terms": terms}


def _edition(corpus: Optional[Corpus], ref: str) -> Document:
    """A document by id from the corpus (current or older edition), or a file read on its own (named
    after its edition)."""
    document = load_edition(corpus, ref) if corpus else None
    if document is not None:
        return document
    path = Path(ref)
    if not path.is_file():
        raise UsageError(f"{ref} is neither a file nor a document id in the sources folder")
    document, problems = load_document(path)
    if document is None:
        raise SourcesHaveErrors([p for p in problems if p.severity == ERROR] or problems)
    name = f"{document.info.kind}-{document.info.edition or path.stem}"
    return rename_document(document, replace(document.info, id=name))
