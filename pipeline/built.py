"""Answers from what was built already: `rulekb search` and `show` for sources that did not change since.

A question at the terminal starts a process; whoosh, the readers, the parsers and the pickled corpus cost
it more than the answer does. When the cache holds what an earlier command made of the sources as they are
now (told by `cache.folder_fingerprint`: a `stat` per file, a read only of what changed), the answer comes
from that alone:
- `search`: the search files kept beside the sources' index (`indexing.published_for_sources`), read as
  they are needed (`published.PublishedFiles`) and ranked by `ranking.answer`, which gives engine.search's
  answers, scores included;
- `show`: one section's view out of the store `api.section_store` wrote (`SectionStore`): a table of
  where each view is, then that view, read alone.
Each says None when there is nothing fresh to answer from, or the question is one only the full path
answers (a translation's language, another edition): the caller then goes the full way, which makes
what the next question reads. Imports nothing of the readers, parsers, whoosh, the differ or the site.
"""
from __future__ import annotations

import json
import os
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from . import cache
from .build_date import build_date

if TYPE_CHECKING:
    from .search.engine import Answer

NOTES_FOLDER = "annotations"      # annotate.FOLDER_NAME (not imported: it loads the model)
STORE_VERSION = b"rulekb-sections 1\n"


def notes_of(sources: Path | str, annotations: Optional[Path | str]) -> tuple[bool, Optional[Path]]:
    """(understood, the notes folder) as api.notes_folder says it; not understood when a folder named is
    missing (the full path says so)."""
    if annotations is not None:
        return Path(annotations).is_dir(), Path(annotations)
    default = Path(sources).resolve().parent / NOTES_FOLDER
    return True, default if default.is_dir() else None


def search(query: str, sources: Path | str = "sources", *, limit: int = 10, kind: Optional[str] = None,
           index: Optional[Path | str] = None, edition: Optional[str] = None,
           annotations: Optional[Path | str] = None) -> Optional[Answer]:
    """api.search's answer from the search files of the index kept for `sources` (or of the index folder
    named); None when there are none for the sources as they are, or for another edition or language."""
    from .search.indexing import PUBLISHED, published_for_sources
    from .search.translated import asked_in
    if edition or asked_in(query) is not None:
        return None
    if index is not None:
        published = Path(index) / PUBLISHED
        published = published if (published / "manifest.json").is_file() else None
    else:
        understood, notes = notes_of(sources, annotations)
        if not understood or not Path(sources).is_dir():
            return None
        published = published_for_sources(sources, build_date(), notes)
    if published is None:
        return None
    from .search.published import PublishedFiles
    from .search.ranking import answer
    return answer(PublishedFiles(published), query, limit, kind)


def store_path(fingerprint: str) -> Path:
    """Where the section store of the sources whose `cache.folder_fingerprint` is given is kept (beside its
    pickled corpus)."""
    return cache.generation() / f"{cache.key('section-store', fingerprint)}.sections"


def sections(sources: Path | str = "sources", annotations: Optional[Path | str] = None) -> Optional[SectionStore]:
    """The section store of the sources as they are now, None when there is none."""
    understood, notes = notes_of(sources, annotations)
    if not understood or not Path(sources).is_dir():
        return None
    path = store_path(cache.folder_fingerprint(Path(sources), build_date(), notes))
    try:
        return SectionStore(path)
    except (OSError, ValueError):
        return None


def write_store(path: Path, store: dict) -> None:
    """Write `api.section_store`'s tables and views: a line saying what the file is, the tables' length in
    bytes, the tables (with each view's place), then the views. Atomic; a failure only costs time."""
    blobs = [json.dumps(view, ensure_ascii=False).encode() for view in store["views"]]
    places, at = [], 0
    for blob in blobs:
        places.append([at, len(blob)])
        at += len(blob)
    tables = {name: table for name, table in store.items() if name != "views"}
    head = json.dumps({**tables, "places": places}, ensure_ascii=False).encode()
    cache.write_atomically(path, b"".join([STORE_VERSION, b"%d\n" % len(head), head, *blobs]))


class SectionStore:
    """The views of one corpus's sections and the tables finding them (api.section_store), read from a file:
    the tables whole, then one view."""

    def __init__(self, path: Path):
        self.path = path
        with open(path, "rb") as handle:
            if handle.readline() != STORE_VERSION:
                raise ValueError(f"{path} is no section store")
            size = int(handle.readline())
            self.tables = json.loads(handle.read(size))
            self.start = handle.tell()

    def view(self, wanted: str) -> Optional[dict]:
        """What api.show gives for an id, number or term of the current editions; None if there is none."""
        found = self.find(wanted)
        if found is None:
            return None
        at, size = self.tables["places"][found]
        with open(self.path, "rb") as handle:
            handle.seek(self.start + at, os.SEEK_SET)
            return json.loads(handle.read(size))

    def find(self, wanted: str) -> Optional[int]:
        """The view of a section by id, number or term, found as api.find_section finds it."""
        from . import kinds
        from .search.question import as_number, fold
        wanted = wanted.strip()
        if ":" in wanted:
            document_id, _, rest = wanted.partition(":")
            table = self.tables["glossary" if rest.startswith("glossary/") else "ids"]
            return table.get(f"{document_id} {wanted}")
        number = as_number(wanted)
        if not number:
            return self.tables["terms"].get(fold(wanted).casefold())
        kind, number = number
        for wanted_kind in [kind] if kind else kinds.numbered_by(number):
            found = self.tables["numbers"].get(wanted_kind, {}).get(number)
            if found is not None:
                return found
        return None
