"""Read a sources/ folder into a linked Corpus: read, detect, name, parse, link.

The steps, top to bottom, for each file: its bytes; what it is (kind, title, edition: detected
from the text, or said by the manifest); its id among the others; its parse; then the current
edition of each document is linked with the others. Older editions are parsed and checked one at
a time and not kept in memory (a hundred editions of the CR would not fit): `load_edition` gives
one back when it is needed. Detections and parses are cached under the file's bytes, so a
rebuild reads again only what changed. Problems are collected, never printed here.
"""
from __future__ import annotations

import hashlib
import re
from dataclasses import dataclass, replace
from datetime import date
from pathlib import Path
from typing import Optional

from . import cache, kinds
from .build_date import build_date, far_ahead, in_force
from .link import found_in_any_current_document, link_corpus, references_from_links
from .model import ERROR, WARNING, Corpus, Document, DocumentInfo, Problem
from .pairing import pair, pair_glossary, unpaired
from .parallel import each
from .parse import parse
from .parse.common import changed
from .read import SourceError, SourceText, read_bytes
from .read.dates import date_in_name
from .read.detect import Detected, detect, explain
from .read.manifest import MANIFEST_NAME, ManifestEntry, apply_manifest, load_manifest

ENGLISH = kinds.ENGLISH.id
NOT_SOURCES = {MANIFEST_NAME.lower(), "readme.md", "readme.txt", "sources.md", "notes.md"}


@dataclass(frozen=True)
class _Candidate:
    path: Path
    sha256: str
    found: Detected
    encoding: str
    source: Optional[SourceText] = None     # the text read, when asked to keep it (one file: parsed next)


def source_files(directory: Path, problems: Optional[list[Problem]] = None) -> list[Path]:
    """The rule documents of a folder: every regular file but hidden ones and the manifest.

    A symbolic link is followed only to a file inside the folder: a link to elsewhere is skipped
    and reported, so that a sources folder never makes the build read files outside it.
    """
    directory = Path(directory)
    inside = directory.resolve()
    found = []
    for path in sorted(directory.iterdir()):
        if path.name.startswith(".") or path.name.lower() in NOT_SOURCES or not path.is_file():
            continue
        if path.is_symlink() and not path.resolve().is_relative_to(inside):
            if problems is not None:
                problems.append(Problem(WARNING, path.name, None, "a link to a file outside the sources folder: "
                                                                  "skipped (copy the file in instead)"))
            continue
        found.append(path)
    return found


def load_corpus(directory: Path | str, use_cache: bool = True, today: Optional[date] = None) -> Corpus:
    """The current edition of every document, linked; every edition's info and problems. The current
    edition of a kind is the newest complete one in force on `today` (the build's date by default)."""
    directory = Path(directory)
    today = today or build_date()
    problems: list[Problem] = []
    if not directory.is_dir():
        return Corpus(problems=(Problem(ERROR, str(directory), None, "no such folder"),))
    manifest, manifest_problems = load_manifest(directory)
    problems.extend(manifest_problems)
    files = source_files(directory, problems)
    wanted = [(path, manifest.get(path.name)) for path in files]
    wanted = [(path, entry) for path, entry in wanted if entry is None or not entry.ignore]
    candidates = []
    # on every core: a hundred editions not seen before are a hundred texts to decode and weigh
    for candidate, found in each(lambda item: _detected(*item, use_cache), wanted, lambda item: item[0].name):
        problems.extend(found)
        if candidate is not None:
            candidates.append(candidate)
    for name in sorted(set(manifest) - {path.name for path in files}):
        problems.append(Problem(WARNING, MANIFEST_NAME, None, f"the manifest names {name}, which is not in the folder"))
    # a translation is never an English edition: the editions of a kind are chosen among the English ones,
    # and each translation is paired with the English edition of its date once those are known
    translated = [candidate for candidate in candidates if candidate.found.language != ENGLISH]
    candidates = [candidate for candidate in candidates if candidate.found.language == ENGLISH]

    chosen = {candidate.path.name: candidate.found.id for candidate in candidates if candidate.found.id}
    # Completeness is known only after parsing (a truncated file must not become "current"): each file is
    # parsed, its info noted, and only the best candidate of each kind so far is kept in memory.
    infos: list[DocumentInfo] = []
    first = assign_ids([_first_info(candidate) for candidate in candidates], chosen, today)
    # what is not parsed yet is parsed on every core first (the parses are cached there, the outlines come back)
    unknown = [(candidate.path, info) for candidate, info in zip(candidates, first)
               if not (use_cache and _parse_cached(info))]
    outlines = dict(zip((path for path, _ in unknown),
                        each(lambda pair: _parse_outline(*pair, use_cache), unknown, lambda pair: pair[0].name)))
    paths = {}
    for candidate, info in zip(candidates, first):
        parsed = (outlines[candidate.path] if candidate.path in outlines
                  else _parse_outline(candidate.path, info, use_cache))
        if parsed is not None and _usable(parsed, problems):
            infos.append(parsed.info)
            paths[parsed.info.source] = candidate.path
    final = assign_ids(infos, chosen, today)
    problems.extend(date_problems(final, today))
    current = [_parse_file(paths[info.source], info, use_cache) for info in final if info.current]
    corpus = replace(link_corpus(current, problems), editions=tuple(final), folder=str(directory),
                     today=today.isoformat())
    older = [info for info in final if not info.current]
    # as for parses: what is not known yet is worked out on every core
    unknown = [info for info in older if not (use_cache and cache.has(_older_problems_key(info, corpus)))]
    found = dict(zip((info.id for info in unknown),
                     each(lambda info: _problems_of_older(info, corpus, use_cache), unknown, _source_of)))
    older_problems = [problem for info in older for problem in
                      (found[info.id] if info.id in found else _problems_of_older(info, corpus, use_cache))]
    corpus = replace(corpus, problems=corpus.problems + tuple(older_problems))
    translations, translation_problems = _translations(translated, corpus, use_cache)
    return replace(corpus, problems=corpus.problems + tuple(translation_problems), translations=tuple(translations))


def _translations(candidates: list[_Candidate], corpus: Corpus,
                  use_cache: bool) -> tuple[list[DocumentInfo], list[Problem]]:
    """Each translation beside the English edition of its kind and date (its id that edition's, so that its
    sections pair by id), with its own problems and what does not pair; one without its English edition is
    reported by name and left out."""
    problems: list[Problem] = []
    found: list[DocumentInfo] = []
    english: dict[tuple, DocumentInfo] = {}
    for info in sorted(corpus.editions, key=lambda info: (not info.current, info.excerpt, not info.complete, info.id)):
        english.setdefault((info.kind, info.edition), info)
    taken: dict[tuple[str, str], str] = {}
    for candidate in candidates:
        first = _first_info(candidate)
        paired = english.get((first.kind, first.edition))
        if paired is None:
            problems.append(unpaired(first, list(corpus.editions)))
            continue
        if (first.language, paired.id) in taken:
            problems.append(Problem(WARNING, first.source, None,
                                    f"a second {first.language} translation of {paired.source} (the first: "
                                    f"{taken[first.language, paired.id]}): not published"))
            continue
        info = replace(first, id=paired.id, translates=paired.id, current=paired.current, upcoming=paired.upcoming)
        outline = _parse_outline(candidate.path, info, use_cache)
        if outline is None or not _usable(outline, problems):
            continue
        problems.extend(cache.remembered(
            cache.key("pairing", info.sha256, paired.sha256, repr(outline.info), repr(paired)),
            lambda path=candidate.path, info=outline.info: _pairing_problems(corpus, path, info, use_cache),
            use_cache))
        if not (outline.info.complete or outline.info.excerpt):      # nothing published half
            problems.append(Problem(WARNING, first.source, None,
                                    "this translation did not pass its checks (its errors are listed above): it "
                                    "is not published (a translation of a part on purpose is `excerpt = true` in "
                                    "sources/manifest.toml)"))
            continue
        taken[first.language, paired.id] = first.source
        found.append(outline.info)
    return found, problems


def _pairing_problems(corpus: Corpus, path: Path, info: DocumentInfo, use_cache: bool) -> list[Problem]:
    translation = _parse_file(path, info, use_cache)
    english = load_edition(corpus, info.translates or "", use_cache, linked=False)
    if translation is None or english is None:
        return []
    return list(translation.problems) + pair(translation, english)[1] + pair_glossary(translation, english)[1]


def load_translation(corpus: Corpus, language: str, edition_id: str, use_cache: bool = True) -> Optional[Document]:
    """The translation into `language` of an edition ("zh", "cr"), parsed, its sections' ids the English
    edition's; None where the sources have none."""
    info = next((info for info in corpus.translations if info.language == language and info.translates == edition_id),
                None)
    if info is None or corpus.folder is None:
        return None
    return _parse_file(Path(corpus.folder) / info.source, info, use_cache)


def load_edition(corpus: Corpus, document_id: str, use_cache: bool = True, linked: bool = True,
                 as_parsed: bool = False) -> Optional[Document]:
    """A document of the corpus by id: a current one from memory, an older edition from its file (its
    references resolved against the current documents, unless `linked` is False: then as parsed; with
    `as_parsed`, also under the neutral id it was parsed under, its kind's: what a comparison of editions
    needs, which names none, and renaming ten thousand sections twice per edition is not free)."""
    document = corpus.document(document_id)
    if document is not None:
        return document
    info = next((info for info in corpus.editions if info.id == document_id), None)
    if info is None or corpus.folder is None:
        return None
    if as_parsed:
        return _parsed(Path(corpus.folder) / info.source, info, use_cache)
    parsed = _parse_file(Path(corpus.folder) / info.source, info, use_cache)
    if parsed is None or not linked:
        return parsed
    return link_corpus([parsed] + list(corpus.documents)).documents[0]


def load_document(path: Path | str, use_cache: bool = True) -> tuple[Optional[Document], list[Problem]]:
    """One file on its own (references to other documents stay unresolved)."""
    path = Path(path)
    problems: list[Problem] = []
    manifest, manifest_problems = load_manifest(path.parent)
    problems.extend(manifest_problems)
    candidate = _read_and_detect(path, manifest.get(path.name), problems, use_cache, keep_source=True)
    if candidate is None:
        return None, problems
    info = assign_ids([_first_info(candidate)], {path.name: candidate.found.id} if candidate.found.id else {})[0]
    document = _parse_file(path, info, use_cache, candidate.source)     # (a PDF's text extracted once, not twice)
    if document is None or not _usable(document, problems):
        return None, problems
    corpus = link_corpus([document], problems)
    return corpus.documents[0], list(corpus.all_problems())


def _rank(info: DocumentInfo, today: date) -> tuple:
    """Which edition of a kind visitors land on: the newest complete, non-excerpt one in force (when none
    is in force yet, the soonest to take effect, and its pages say when)."""
    usable = info.complete and not info.excerpt
    effective = in_force(info.edition, today)
    return (usable and effective, usable, effective, (info.edition or "") if effective else _reverse(info.edition),
            info.source)


def _reverse(iso: Optional[str]) -> str:
    """An ISO date that sorts the other way (the soonest upcoming edition ranks highest)."""
    return "".join(chr(ord("9") - ord(c) + ord("0")) if c.isdigit() else c for c in iso or "")


def date_problems(infos: list[DocumentInfo], today: date) -> list[Problem]:
    """Effective dates that look wrong: more than a year ahead (a typo?), or a text dated before the
    current edition whose file name says it is newer (the wrong date read, or the wrong file)."""
    problems = []
    current = {info.kind: info for info in infos if info.current}
    for info in infos:
        if far_ahead(info.edition, today):
            problems.append(Problem(WARNING, info.source, info.edition_line,
                                    f"the effective date {info.edition} is more than a year after the build's date "
                                    f"({today.isoformat()}); it is published as an upcoming edition"))
        named = date_in_name(info.source)
        now = current.get(info.kind)
        if (named and now is not None and info is not now and info.edition and now.edition
                and info.edition < now.edition < named):
            problems.append(Problem(WARNING, info.source, info.edition_line,
                                    f"the text says this edition takes effect on {info.edition}, before the current "
                                    f"{now.source} ({now.edition}), but its file name says {named}"))
    return problems


@dataclass(frozen=True)
class _Outline:
    """What choosing the current editions needs of a parse: its info (complete or not), whether it has
    sections, and its problems when it has none. Kept beside the parse: a rebuild of a hundred editions
    reads these, not a hundred documents."""
    info: DocumentInfo
    has_content: bool                       # sections or glossary terms
    problems: tuple[Problem, ...]           # kept only when it has none (they say why)

    @staticmethod
    def of(document: Document) -> _Outline:
        has_content = bool(document.sections or document.glossary)
        return _Outline(document.info, has_content, () if has_content else document.problems)


def _parse_outline(path: Path, info: DocumentInfo, use_cache: bool = True,
                   source: Optional[SourceText] = None) -> Optional[_Outline]:
    def outline() -> Optional[_Outline]:
        document = _parsed(path, info, use_cache, source)      # (its id is replaced below)
        return _Outline.of(document) if document is not None else None

    found = cache.remembered(_outline_key(info), outline, use_cache)
    if found is None:
        return None
    return replace(found, info=replace(found.info, id=info.id, current=info.current, upcoming=info.upcoming))


def _problems_of_older(info: DocumentInfo, corpus: Corpus, use_cache: bool) -> list[Problem]:
    """An older edition's problems, its references read as the site reads them: against itself and the
    current documents. The current edition of its own kind is brought in only for what may be found there
    (references by title): then a new CR edition leaves the cached problems of the hundred CR editions
    before it as they are, and an IPG that cites "Tardiness (3.1)" still finds it in the current IPG."""
    others = [document for document in corpus.documents if document.info.kind != info.kind]
    own = [document for document in corpus.documents if document.info.kind == info.kind]

    def linked_with(current: list[Document]) -> Optional[Document]:
        parsed = _parse_file(Path(corpus.folder) / info.source, info, use_cache) if corpus.folder else None
        return link_corpus([parsed] + current).documents[0] if parsed is not None else None

    def against_others() -> tuple[list[Problem], bool]:
        linked = linked_with(others)
        return (list(linked.problems), _looks_in_own_kind(linked)) if linked else ([], False)

    key = _older_problems_key(info, corpus)
    problems, looks_in_own_kind = cache.remembered(key, against_others, use_cache)
    if not (looks_in_own_kind and own):
        return problems
    return cache.remembered(cache.key(key, *(document.info.sha256 for document in own)),
                            lambda: list(linked_with(others + own).problems), use_cache)


def _source_of(info: DocumentInfo) -> str:
    return info.source


def _older_problems_key(info: DocumentInfo, corpus: Corpus) -> str:
    return cache.key("older-problems", info.sha256, repr(info),
                     *(d.info.sha256 for d in corpus.documents if d.info.kind != info.kind))


def _looks_in_own_kind(document: Document) -> bool:
    return any(found_in_any_current_document(ref, document)
               for item in (*document.sections, *document.glossary) for ref in item.refs)


def _usable(document: Document | _Outline, problems: list[Problem]) -> bool:
    outline = document if isinstance(document, _Outline) else _Outline.of(document)
    if outline.has_content:
        return True
    problems.extend(document.problems)
    if not any(problem.severity == ERROR for problem in document.problems):
        problems.append(Problem(ERROR, document.info.source, None,
                                f"no sections found: this is not a usable {document.info.kind} document"))
    return False


def _detected(path: Path, entry: Optional[ManifestEntry], use_cache: bool) -> tuple[Optional[_Candidate],
                                                                                     list[Problem]]:
    """`_read_and_detect` with the problems it finds. A file read for the first time is parsed too while its
    text is at hand (an English one: its parse and outline cached for the next step), so it is decoded once."""
    problems: list[Problem] = []
    candidate = _read_and_detect(path, entry, problems, use_cache, keep_source=use_cache)
    if candidate is not None and candidate.source is not None:
        if candidate.found.language == ENGLISH:
            _parse_outline(path, _first_info(candidate), use_cache, candidate.source)
        candidate = replace(candidate, source=None)         # (the text is not sent back)
    return candidate, problems


def _read_and_detect(path: Path, entry: Optional[ManifestEntry], problems: list[Problem],
                     use_cache: bool, keep_source: bool = False) -> Optional[_Candidate]:
    """What a file is, from its text (cached under its bytes: a warm rebuild decodes nothing); with the text
    read, if one was and `keep_source` asks for it (a folder's files are not all kept in memory at once)."""
    try:
        data = path.read_bytes()
    except OSError as error:
        problems.append(Problem(ERROR, path.name, None, f"cannot read the file: {error.strerror}"))
        return None
    sha256 = hashlib.sha256(data).hexdigest()
    key = cache.key("detect", sha256, path.name)
    known = cache.load(key) if use_cache else None
    source = None
    if known is None:
        try:
            source = read_bytes(data, path.name)
        except SourceError as error:
            problems.append(error.problem)
            return None
        known = (detect(source), source.problems, source.encoding)
        if use_cache:
            cache.store(key, known)
    detected, read_problems, encoding = known
    problems.extend(read_problems)
    found = apply_manifest(detected, entry)
    if found.kind is None:
        problems.append(Problem(ERROR, path.name, 1, _undetected(found)))
        return None
    if found.language is None:
        problems.append(Problem(ERROR, path.name, 1, f"cannot tell what language this {kinds.title(found.kind)} is in "
                                                     f"({found.language_says}); name it in sources/manifest.toml "
                                                     f"(language = one of {', '.join(kinds.LANGUAGE_BY_ID)})"))
        return None
    return _Candidate(path, sha256, found, encoding, source if keep_source else None)


def _undetected(found: Detected) -> str:
    """Why a file's kind is not known, with the evidence seen, and what to do about it."""
    fix = "; name its kind in sources/manifest.toml"
    if found.ambiguous:
        names = " or ".join(kinds.title(kind) for kind in found.ambiguous)
        return f"cannot tell whether this is the {names}: {explain(found)}{fix}"
    known = ", ".join(kind.title for kind in kinds.KINDS)
    return f"cannot tell what document this is (none of: {known}): {explain(found)}{fix} if it is one"


def _first_info(candidate: _Candidate) -> DocumentInfo:
    found = candidate.found
    return DocumentInfo(id="", kind=found.kind, title=found.title, edition=found.edition,
                        source=candidate.path.name, complete=True, excerpt=found.excerpt, current=False,
                        sha256=candidate.sha256, note=found.note, encoding=candidate.encoding,
                        archived=found.archived, edition_line=found.edition_line, language=found.language or ENGLISH,
                        language_says=found.language_says, credit=found.credit)


def assign_ids(infos: list[DocumentInfo], chosen: Optional[dict[str, str]] = None,
               today: Optional[date] = None) -> list[DocumentInfo]:
    """Give each document its id: the current edition of a kind is "cr"/"mtr"/"ipg"; older ones get dates.

    The current edition is the newest complete, non-excerpt one; a truncated or excerpt
    file never becomes what visitors land on while a full edition exists. `chosen` holds
    the ids the manifest gives, by file name; those are kept as they are.
    """
    chosen = chosen or {}
    today = today or build_date()
    ids: dict[int, str] = {index: chosen[info.source] for index, info in enumerate(infos) if info.source in chosen}
    taken = set(ids.values())
    current: set[int] = set()
    # editions are chosen among those of one kind in one language: a translation never competes with the
    # English for "current" (and never takes the kind's own id)
    by_kind: dict[tuple[str, str], list[int]] = {}
    for index, info in enumerate(infos):
        by_kind.setdefault((info.kind, info.language), []).append(index)
    for (kind, language), members in by_kind.items():
        ranked = sorted(members, key=lambda i: _rank(infos[i], today), reverse=True)
        current.add(ranked[0])
        named = kind if language == ENGLISH else f"{kind}-{language}"
        if ranked[0] not in ids and named not in taken:
            ids[ranked[0]] = named
            taken.add(named)
        for index in ranked:
            if index in ids:
                continue
            info = infos[index]
            stem = f"{named}-{info.edition or _stem(info.source)}" + ("-excerpt" if info.excerpt else "")
            name, counter = stem, 2
            while name in taken:
                name, counter = f"{stem}-{counter}", counter + 1
            ids[index] = name
            taken.add(name)
    return [replace(info, id=ids[index], current=index in current, upcoming=not in_force(info.edition, today))
            for index, info in enumerate(infos)]


def rename_document(document: Document, info: DocumentInfo) -> Document:
    """The same document under a new id (every section id, parent and reference target follows)."""
    old = document.info.id
    if info.id == old:
        return replace(document, info=info)
    prefix = f"{old}:"

    def moved(section_id: Optional[str]) -> Optional[str]:
        if section_id and section_id.startswith(prefix):
            return f"{info.id}:{section_id[len(prefix):]}"
        return section_id

    def refs(references):
        if not any(ref.target and ref.target.startswith(prefix) for ref in references):
            return references
        return tuple(changed(ref, target=moved(ref.target)) for ref in references)

    sections = tuple(changed(section, id=moved(section.id), parent=moved(section.parent), refs=refs(section.refs))
                     for section in document.sections)
    penalties = tuple(replace(penalty, section=moved(penalty.section)) for penalty in document.penalties)
    return replace(document, info=info, sections=sections, penalties=penalties)


def _stem(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", Path(name).stem.lower()).strip("-")


def _parse_key(info: DocumentInfo) -> tuple[DocumentInfo, str]:
    """A parse is made and cached under a neutral id (the kind), so that a file keeps its cached parse when
    its id changes (a newer edition arrives, "cr" becomes "cr-2026-01-16")."""
    neutral = replace(info, id=info.kind, current=False, upcoming=False)
    return neutral, cache.key("parse", info.sha256, repr(neutral))


def _parse_cached(info: DocumentInfo) -> bool:
    """Whether a file's parse and its outline are in the cache."""
    return cache.has(_outline_key(info))


def _outline_key(info: DocumentInfo) -> str:
    return cache.key("outline", _parse_key(info)[1])


def _parse_file(path: Path, info: DocumentInfo, use_cache: bool = True,
                source: Optional[SourceText] = None) -> Optional[Document]:
    """Parse a file under `info` (`source`: its text, if already read), reusing an earlier parse of the same
    bytes."""
    document = _parsed(path, info, use_cache, source)
    if document is None:
        return None
    return rename_document(document, replace(info, complete=document.info.complete))


def _parsed(path: Path, info: DocumentInfo, use_cache: bool = True,
            source: Optional[SourceText] = None) -> Optional[Document]:
    """A file's parse under its neutral id (`_parse_key`), from the cache when its bytes were parsed before."""
    neutral, key = _parse_key(info)
    document = cache.load(key) if use_cache else None
    if document is None:
        try:
            source = source if source is not None else read_bytes(path.read_bytes(), path.name)
        except (SourceError, OSError):
            return None
        document = parse_source(source, neutral)
        if use_cache:
            cache.store(key, document)
    return document


def parse_source(source: SourceText, info: DocumentInfo) -> Document:
    """A source's Document: parsed, with the links of an HTML source made references, PDF pages on problems."""
    document = parse(source, info)
    document = references_from_links(document, source)
    if source.format == "pdf":
        document = replace(document, problems=tuple(
            replace(problem, page=source.page_of(problem.line)) if problem.line and not problem.page else problem
            for problem in document.problems))
    return document
