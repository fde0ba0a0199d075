"""Read a sources/ folder into a linked Corpus: read, detect, name, parse, link.

The build reads top to bottom as that list of steps. Problems are collected, never
printed here; a file that cannot be used is left out of the corpus and reported.
"""
from __future__ import annotations

import re
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Optional

from . import cache
from .link import link_corpus, references_from_links
from .model import ERROR, WARNING, Corpus, Document, DocumentInfo, Problem
from .parse import parse
from .read import SourceError, SourceText, read_source
from .read.detect import Detected, detect
from .read.manifest import MANIFEST_NAME, apply_manifest, load_manifest

NOT_SOURCES = {MANIFEST_NAME.lower(), "readme.md", "readme.txt", "sources.md", "notes.md"}


@dataclass(frozen=True)
class _Candidate:
    path: Path
    source: SourceText
    found: Detected


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


def load_corpus(directory: Path | str, use_cache: bool = True) -> Corpus:
    directory = Path(directory)
    problems: list[Problem] = []
    if not directory.is_dir():
        return Corpus(problems=(Problem(ERROR, str(directory), None, "no such folder"),))
    manifest, manifest_problems = load_manifest(directory)
    problems.extend(manifest_problems)
    files = source_files(directory, problems)
    candidates = []
    for path in files:
        entry = manifest.get(path.name)
        if entry is not None and entry.ignore:
            continue
        candidate = _read_and_detect(path, entry, problems)
        if candidate is not None:
            candidates.append(candidate)
    for name in sorted(set(manifest) - {path.name for path in files}):
        problems.append(Problem(WARNING, MANIFEST_NAME, None, f"the manifest names {name}, which is not in the folder"))

    chosen = {candidate.path.name: candidate.found.id for candidate in candidates if candidate.found.id}
    infos = assign_ids([_first_info(candidate) for candidate in candidates], chosen)
    documents = []
    for candidate, info in zip(candidates, infos):
        document = parse_cached(candidate.source, info, use_cache)
        if _usable(document, problems):
            documents.append(document)
    # Completeness is known only after parsing: a truncated file must not become "current".
    final = assign_ids([document.info for document in documents], chosen)
    documents = [rename_document(document, info) for document, info in zip(documents, final)]
    return link_corpus(documents, problems)


def load_document(path: Path | str, use_cache: bool = True) -> tuple[Optional[Document], list[Problem]]:
    """One file on its own (references to other documents stay unresolved)."""
    path = Path(path)
    problems: list[Problem] = []
    manifest, manifest_problems = load_manifest(path.parent)
    problems.extend(manifest_problems)
    candidate = _read_and_detect(path, manifest.get(path.name), problems)
    if candidate is None:
        return None, problems
    info = assign_ids([_first_info(candidate)], {path.name: candidate.found.id} if candidate.found.id else {})[0]
    document = parse_cached(candidate.source, info, use_cache)
    if not _usable(document, problems):
        return None, problems
    corpus = link_corpus([document], problems)
    return corpus.documents[0], list(corpus.all_problems())


def _usable(document: Document, problems: list[Problem]) -> bool:
    if document.sections or document.glossary:
        return True
    problems.extend(document.problems)
    if not any(problem.severity == ERROR for problem in document.problems):
        problems.append(Problem(ERROR, document.info.source, None,
                                f"no sections found: this is not a usable {document.info.kind} document"))
    return False


def _read_and_detect(path: Path, entry, problems: list[Problem]) -> Optional[_Candidate]:
    try:
        source = read_source(path)
    except SourceError as error:
        problems.append(error.problem)
        return None
    problems.extend(source.problems)
    found = apply_manifest(detect(source), entry)
    if found.kind is None:
        problems.append(Problem(ERROR, path.name, 1,
                                "cannot tell what document this is (not the Comprehensive Rules, Tournament "
                                "Rules or Infraction Procedure Guide); name its kind in sources/manifest.toml "
                                "if it is one"))
        return None
    return _Candidate(path, source, found)


def _first_info(candidate: _Candidate) -> DocumentInfo:
    found = candidate.found
    return DocumentInfo(id="", kind=found.kind, title=found.title, edition=found.edition,
                        source=candidate.path.name, complete=True, excerpt=found.excerpt, current=False,
                        sha256=candidate.source.sha256, note=found.note, encoding=candidate.source.encoding,
                        archived=found.archived)


def assign_ids(infos: list[DocumentInfo], chosen: Optional[dict[str, str]] = None) -> list[DocumentInfo]:
    """Give each document its id: the current edition of a kind is "cr"/"mtr"/"ipg"; older ones get dates.

    The current edition is the newest complete, non-excerpt one; a truncated or excerpt
    file never becomes what visitors land on while a full edition exists. `chosen` holds
    the ids the manifest gives, by file name; those are kept as they are.
    """
    chosen = chosen or {}
    ids: dict[int, str] = {index: chosen[info.source] for index, info in enumerate(infos) if info.source in chosen}
    taken = set(ids.values())
    current: set[int] = set()
    by_kind: dict[str, list[int]] = {}
    for index, info in enumerate(infos):
        by_kind.setdefault(info.kind, []).append(index)
    for kind, members in by_kind.items():
        ranked = sorted(members, key=lambda i: (infos[i].complete and not infos[i].excerpt,
                                                infos[i].edition or "", infos[i].source), reverse=True)
        current.add(ranked[0])
        if ranked[0] not in ids and kind not in taken:
            ids[ranked[0]] = kind
            taken.add(kind)
        for index in ranked:
            if index in ids:
                continue
            info = infos[index]
            stem = f"{kind}-{info.edition or _stem(info.source)}" + ("-excerpt" if info.excerpt else "")
            name, counter = stem, 2
            while name in taken:
                name, counter = f"{stem}-{counter}", counter + 1
            ids[index] = name
            taken.add(name)
    return [replace(info, id=ids[index], current=index in current) for index, info in enumerate(infos)]


def rename_document(document: Document, info: DocumentInfo) -> Document:
    """The same document under a new id (every section id and parent follows)."""
    old = document.info.id
    if info.id == old:
        return replace(document, info=info)
    prefix = f"{old}:"

    def moved(section_id: Optional[str]) -> Optional[str]:
        if section_id and section_id.startswith(prefix):
            return f"{info.id}:{section_id[len(prefix):]}"
        return section_id

    sections = tuple(replace(section, id=moved(section.id), parent=moved(section.parent)) for section in document.sections)
    penalties = tuple(replace(penalty, section=moved(penalty.section)) for penalty in document.penalties)
    return replace(document, info=info, sections=sections, penalties=penalties)


def _stem(name: str) -> str:
    return re.sub(r"[^a-z0-9]+", "-", Path(name).stem.lower()).strip("-")


def parse_cached(source: SourceText, info: DocumentInfo, use_cache: bool = True) -> Document:
    """Parse a source, reusing an earlier parse of the same bytes under the same name."""
    key = cache.key("parse", source.sha256, repr(info))
    if use_cache:
        hit = cache.load(key)
        if hit is not None:
            return hit
    document = parse(source, info)
    document = references_from_links(document, source)
    if use_cache:
        cache.store(key, document)
    return document
