"""Answers from what was built already: `rulekb search` and `show` for sources that did not change since.

A question at the terminal starts a process; whoosh, the readers, the parsers and the pickled corpus cost
it more than the answer does. When the cache holds what an earlier command made of the sources as they are
now (told by `cache.folder_fingerprint`: a `stat` per file, a read only of what changed), the answer comes
from that alone:
- `search`: the search files kept beside the sources' index (`indexing.published_for_sources`), read as
  they are needed (`published.PublishedFiles`) and ranked by `ranking.answer`, which gives engine.search's
  answers, scores included;
- `show`: one section's view out of the store of every view that `api.show(..., keep=True)` wrote
  (`SectionStore`): one bucket of a hash table on disk says where the view is, then it is read alone.
Each says None when there is nothing fresh to answer from, or the question is one only the full path
answers (a translation's language, another edition): the caller then goes the full way, which makes
what the next question reads. Imports nothing of the readers, parsers, whoosh, the differ or the site.
"""
from __future__ import annotations

import json
import os
import zlib
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from . import cache
from .build_date import build_date

if TYPE_CHECKING:
    from .search.engine import Answer

NOTES_FOLDER = "annotations"      # annotate.FOLDER_NAME (not imported: it loads the model)
STORE_VERSION = b"rulekb-sections 2\n"
BUCKETS = 512


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
    from .search.in_use import hold, release, used
    from .search.published import PublishedFiles
    from .search.ranking import answer
    held = hold(published.parent)          # its files are read as they are needed: not pruned meanwhile
    if held is None:
        return None
    try:
        used(published.parent)
        return answer(PublishedFiles(published), query, limit, kind)
    except OSError:          # a folder named that is no index, or one without locks
        return None
    finally:
        release(held)


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
    """Write `api.section_store`'s views and tables, as a hash table on disk: a line saying what the file is, a
    line of where each of BUCKETS buckets is, the buckets (each a JSON object: a table's key -> where its view
    is), then the views. Finding a section reads the first lines and one small bucket, then its view. Atomic; a
    failure only costs time."""
    blobs = [json.dumps(view, ensure_ascii=False).encode() for view in store["views"]]
    places, at = [], 0
    for blob in blobs:
        places.append([at, len(blob)])
        at += len(blob)
    buckets: list[dict[str, list[int]]] = [{} for _ in range(BUCKETS)]
    for key, view in _keys(store):
        buckets[_bucket(key)][key] = places[view]
    encoded = [json.dumps(bucket, ensure_ascii=False, separators=(",", ":")).encode() for bucket in buckets]
    where, at = [], 0
    for bucket in encoded:
        where.append([at, len(bucket)])
        at += len(bucket)
    head = json.dumps({"buckets": where, "views": at}, separators=(",", ":")).encode()
    cache.write_atomically(path, b"".join([STORE_VERSION, head, b"\n", *encoded, *blobs]))


def _keys(store: dict):
    """(key, view) of every table of api.section_store, one namespace: "ids <doc> <id>", "numbers <kind> <n>"..."""
    for table in ("ids", "glossary", "terms"):
        for key, view in store[table].items():
            yield f"{table} {key}", view
    for kind, numbers in store["numbers"].items():
        for number, view in numbers.items():
            yield f"numbers {kind} {number}", view


def _bucket(key: str) -> int:
    return zlib.crc32(key.encode("utf-8", "surrogatepass")) % BUCKETS


class SectionStore:
    """The views of one corpus's sections and the tables finding them (api.section_store), read from the file
    `write_store` writes: of the tables, one bucket; of the views, the one asked for."""

    def __init__(self, path: Path):
        self.path = path
        with open(path, "rb") as handle:
            if handle.readline() != STORE_VERSION:
                raise ValueError(f"{path} is no section store")
            head = json.loads(handle.readline())
            self.start = handle.tell()
        self.buckets: list[list[int]] = head["buckets"]
        self.views_start = self.start + head["views"]

    def _read(self, at: int, size: int):
        with open(self.path, "rb") as handle:
            handle.seek(at, os.SEEK_SET)
            return json.loads(handle.read(size))

    def _look_up(self, key: str) -> Optional[list[int]]:
        at, size = self.buckets[_bucket(key)]
        return self._read(self.start + at, size).get(key)

    def view(self, wanted: str) -> Optional[dict]:
        """What api.show gives for an id, number or term of the current editions; None if there is none."""
        found = self.find(wanted)
        return None if found is None else self._read(self.views_start + found[0], found[1])

    def find(self, wanted: str) -> Optional[list[int]]:
        """Where the view of a section is, by id, number or term, found as api.find_section finds it."""
        from . import kinds
        from .search.question import as_number, fold
        wanted = wanted.strip()
        if ":" in wanted:
            document_id, _, rest = wanted.partition(":")
            table = "glossary" if rest.startswith("glossary/") else "ids"
            return self._look_up(f"{table} {document_id} {wanted}")
        number = as_number(wanted)
        if not number:
            return self._look_up(f"terms {fold(wanted).casefold()}")
        kind, number = number
        for wanted_kind in [kind] if kind else kinds.numbered_by(number):
            found = self._look_up(f"numbers {wanted_kind} {number}")
            if found is not None:
                return found
        return None
