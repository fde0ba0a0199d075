"""Writing the search index: of a corpus (for a build, with the browser's copy), or of a sources folder
(kept in the cache, for `rulekb search` without a site, with the same search files as a site's in its
PUBLISHED folder: a question answered from them loads no whoosh, see `published.PublishedFiles`).

`published_for_sources` says where a fresh index's search files are without writing or importing anything
heavy: it is what a question at the terminal asks first."""
from __future__ import annotations

import json
import os
import shutil
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Callable, Optional

from .. import cache, kinds
from ..build_date import build_date
from .question import ABBREVIATIONS_FILE, JUDGES_WORDS_FILE

if TYPE_CHECKING:
    from ..addresses import Addresses
    from ..model import Corpus

# (the index itself, whoosh, and the semantic table are imported by the functions writing or reading them)
INDEXES_KEPT = 2
PUBLISHED = "search"        # the folder, in an index kept for a sources folder, of the site's search files
COMPRESSED_FORMS = (".br", ".gz")      # a site's precompressed copies, which a question at the terminal never reads


def corpus_fingerprint(corpus: Corpus) -> str:
    """What an index is made of: the documents' bytes and identities (older editions' too: they give
    infractions' former names), the code, the search's word lists."""
    import hashlib  # (here: a question read from a kept index hashes with pipeline.cache alone)
    digest = hashlib.sha256(cache.code_version().encode() + _word_lists())
    for document in corpus.documents:
        info = document.info
        digest.update(f"{info.id}|{info.sha256}|{info.current}|{info.excerpt}|{info.archived}|".encode())
    for info in corpus.editions:
        digest.update(f"{info.id}|{info.sha256}|".encode())
    for annotation in corpus.annotations:      # a rule's commentary is part of its entry
        digest.update(f"{annotation.target}|{annotation.body}|".encode())
    return digest.hexdigest()[:24]


def write_search_index(corpus: Corpus, folder: Path | str, addresses: Optional[Addresses] = None,
                       browser_folder: Optional[Path] = None, build: str = "") -> dict:
    """Write the search index of `corpus` into the new folder `folder` (and, into `browser_folder`, the
    files of the site's own search); say what it holds."""
    # (imported here: `rulekb search` reads an index, it does not write one)
    from .browser import browser_files
    from .entries import entries, searched_documents
    from .index import KnowledgeBase, write_index
    from .semantic import TABLE_FILE, semantic_file
    found = entries(corpus, addresses)
    write_index(found, folder, corpus_fingerprint(corpus))
    meaning = semantic_file(found)
    (Path(folder) / TABLE_FILE).write_bytes(meaning)
    documents = searched_documents(corpus)
    if browser_folder is not None:
        kb = KnowledgeBase(folder)
        try:
            described = [{"id": d.id, "kind": d.info.kind, "title": d.info.title,
                          "short": kinds.short_name(d.info.kind),
                          "saved": kinds.kind(d.info.kind).saved_order if kinds.kind(d.info.kind) else 9}
                         for d in documents]
            for path, text in browser_files(kb, described, build, meaning).items():
                target = Path(browser_folder) / path
                target.parent.mkdir(parents=True, exist_ok=True)
                if isinstance(text, bytes):
                    target.write_bytes(text)
                else:
                    target.write_text(text, encoding="utf-8")
        finally:
            kb.close()
    return {"entries": len(found), "documents": [document.id for document in documents]}


def index_for_sources(sources: Path | str, today: Optional[date] = None, notes: Optional[Path] = None,
                      attach: Optional[Callable[[Corpus], Corpus]] = None) -> Path:
    """The index of a sources folder as of `today` (the build's date by default: which editions are in
    force), from the cache when nothing changed (loads the corpus otherwise); with the annotations of the
    `notes` folder, which `attach` adds to the corpus."""
    from .in_use import used
    from .index import index_state
    folder = _index_folder(Path(sources), today or build_date(), notes)
    if index_state(folder) is not None and (folder / PUBLISHED / "manifest.json").is_file():
        used(folder)         # the newest for pruning
        return folder
    # (imported only when the index must be made: reading one parses nothing)
    from ..corpus import load_corpus
    corpus = load_corpus(sources, today=today or build_date())
    if attach is not None:
        corpus = attach(corpus)
    import tempfile  # (here: a question read from a kept index writes nothing)
    folder.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=".building-", dir=folder.parent))
    try:
        write_search_index(corpus, building, browser_folder=building)
        _write_parents(building / PUBLISHED)
        if folder.exists():
            shutil.rmtree(folder)
        os.rename(building, folder)
    finally:
        shutil.rmtree(building, ignore_errors=True)
    _prune(folder)
    return folder


def keep_built(key: Path, index: Path, search_files: Path) -> None:
    """Keep a build's search index and its site's search files as the index of its sources folder (`key`, from
    `folder_for_sources` before the build read them), so that the next `rulekb search` of those sources answers
    from them instead of writing the same index again. A cache: where it cannot be written, nothing is kept."""
    if (key / PUBLISHED / "manifest.json").is_file() or not (search_files / "manifest.json").is_file():
        return
    import tempfile
    try:
        key.parent.mkdir(parents=True, exist_ok=True)
        building = Path(tempfile.mkdtemp(prefix=".building-", dir=key.parent))
        try:
            for path in index.iterdir():
                if path.is_file() and not path.name.startswith("."):      # not the site's generation marker
                    shutil.copyfile(path, building / path.name)
            for path in search_files.rglob("*"):
                if path.is_file() and path.suffix not in COMPRESSED_FORMS:
                    target = building / PUBLISHED / path.relative_to(search_files)
                    target.parent.mkdir(parents=True, exist_ok=True)
                    shutil.copyfile(path, target)
            _write_parents(building / PUBLISHED)
            os.rename(building, key)          # fails if a search made it meanwhile: theirs is kept
        finally:
            shutil.rmtree(building, ignore_errors=True)
    except OSError:
        return
    _prune(key)


def folder_for_sources(sources: Path | str, today: Optional[date] = None, notes: Optional[Path] = None) -> Path:
    """Where the index of a sources folder as it is now is kept (as `index_for_sources` keeps it)."""
    return _index_folder(Path(sources), today or build_date(), notes)


def published_for_sources(sources: Path | str, today: Optional[date] = None,
                          notes: Optional[Path] = None) -> Optional[Path]:
    """The search files of the index kept for a sources folder (as `index_for_sources` makes it), None when
    there is none for the folder as it is now (a file, the code, the word lists or the day changed)."""
    published = _index_folder(Path(sources), today or build_date(), notes) / PUBLISHED
    return published if (published / "manifest.json").is_file() else None


def _write_parents(published: Path) -> None:
    """Each entry's parent, by position (published.PARENTS_FILE): a section's subrules without every row."""
    from .published import PARENTS_FILE, PublishedIndex
    rows = PublishedIndex(published).rows
    (published / PARENTS_FILE).write_text(json.dumps([row.parent for row in rows]), encoding="utf-8")


def _index_folder(sources: Path, today: date, notes: Optional[Path]) -> Path:
    return cache.folder() / "indexes" / _sources_fingerprint(sources, today, notes)


def _sources_fingerprint(sources: Path, today: date, notes: Optional[Path] = None) -> str:
    """A hash of every file in a sources folder (and of the notes folder), the code, the search's word lists
    and the day (an edition may take effect on it): cheap, no parsing."""
    return cache.key(cache.folder_fingerprint(sources, today, notes), _word_lists().decode("utf-8", "replace"))[:24]


def _word_lists() -> bytes:
    """The abbreviations and judges' words: the index holds phrases of the one, the browser rules of both."""
    return ABBREVIATIONS_FILE.read_bytes() + b"\0" + JUDGES_WORDS_FILE.read_bytes()


def _prune(keep: Path) -> None:
    """Remove the kept indexes beyond the INDEXES_KEPT most recently written or used (`keep`, just written, is
    one): only those older than `keep`, and never one a reader holds (in_use: another process may be reading
    it, a build of other sources must not take it away)."""
    from .in_use import remove_unless_held
    try:
        newest = keep.stat().st_mtime
        others = sorted(((path.stat().st_mtime, path) for path in keep.parent.iterdir()
                         if path.is_dir() and path != keep and not path.name.startswith(".")), reverse=True)
    except OSError:
        return               # another process pruned meanwhile: it did the work
    for when, old in others[INDEXES_KEPT - 1:]:
        if when <= newest:
            remove_unless_held(old)
