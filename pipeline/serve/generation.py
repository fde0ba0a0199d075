"""The site being served, followed from one published generation to the next (see site.publish).

`Site.current()` looks at the site's marker file on every request (one stat): a new marker means a new
build was published, and from then on files, search answers and sections come from it, without a
restart. Each generation reads what it serves once, when first asked: its files (with their precompressed
forms), its search files (`search.published`), its data files (`sections`). Nothing here reads sources/
or the whoosh index: a copy of the site answers the same. No web framework here.
"""
from __future__ import annotations

import gc
import json
from collections import OrderedDict
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from ..search.published import PublishedIndex
from ..search.question import QueryError
from ..search.ranking import answer
from ..search.translated import answer_from_folder
from ..site.publish import MARKER
from .files import SiteFile, is_folder, load_file, site_path
from .sections import PublishedSections

ANSWERS_KEPT = 4096             # recent search answers kept (a few KB each): the same questions come back
NOTHING = object()


@dataclass
class Generation:
    """One published generation of the site: what it serves, read when first asked, then kept."""
    key: tuple
    root: Path
    files: dict[str, SiteFile] = field(default_factory=dict)
    answers: OrderedDict = field(default_factory=OrderedDict)
    _search: object = NOTHING
    _sections: object = NOTHING

    def file(self, url_path: str) -> Optional[SiteFile]:
        """The file a URL path names (kept once read), None if there is none."""
        parts = [part for part in url_path.split("/") if part]
        url_path = "/" + "/".join(parts) + ("/" if url_path.endswith("/") and parts else "")   # "//a" is "/a"
        found = self.files.get(url_path)
        if found is None:
            target = site_path(self.root, url_path)
            if target is None:
                return None
            try:
                found = load_file(target)
            except OSError:
                return None
            if self.key != ("none",):            # a published generation never changes: keep it
                self.files[url_path] = found
        return found

    def is_folder(self, url_path: str) -> bool:
        return is_folder(self.root, url_path)

    def search_index(self) -> Optional[PublishedIndex]:
        """The site's search files, None for a site built without them."""
        if self._search is NOTHING:
            try:
                self._search = PublishedIndex(self.root / "search")
            except (OSError, ValueError, KeyError):
                self._search = None
            keep_out_of_collections()
        return self._search

    def sections(self) -> Optional[PublishedSections]:
        """The site's data files (for /api/sections), None for a site without them."""
        if self._sections is NOTHING:
            index = self.search_index()
            links = {row[9]: index.link(position) for position, row in enumerate(index.rows)} if index else {}
            try:
                numbers = json.loads((self.root / "assets" / "numbers.json").read_text(encoding="utf-8"))
            except (OSError, ValueError):
                numbers = {}
            try:
                self._sections = PublishedSections(self.root, links, numbers)
            except (OSError, ValueError, KeyError):
                self._sections = None
            keep_out_of_collections()
        return self._sections

    def answer(self, query: str, limit: int, kind: Optional[str], language: Optional[str] = None) -> tuple[int, bytes]:
        """(status, JSON) of a search: 200 and the `rulekb search --json` answer, 400 and the reason for a query
        that cannot be searched, 503 for a site without search files."""
        key = (query, limit, kind, language)
        found = self.answers.get(key)
        if found is not None:
            self.answers.move_to_end(key)
            return found
        index = self.search_index()
        if index is None:
            return 503, json_bytes({"error": "this site was built without its search files"})
        try:
            # a question in a translation's language: from that language's file (search.translated)
            said = answer_from_folder(self.root / "search", query, limit, language)
            found = 200, json_bytes((said or answer(index, query, limit=limit, kind=kind)).as_json())
        except QueryError as error:
            found = 400, json_bytes({"error": str(error)})
        self.answers[key] = found
        while len(self.answers) > ANSWERS_KEPT:
            self.answers.popitem(last=False)
        return found


def keep_out_of_collections() -> None:
    """Take what this process holds now (a generation's data, read once, then only read) out of the cyclic
    garbage collector's full passes. Walking through the search files' tens of thousands of objects, each full
    pass held the loop 15-70 ms, every few seconds under load; frozen (gc.freeze), they are freed by their
    reference counts as before, and the passes walk only what requests make."""
    gc.collect()
    gc.freeze()


def json_bytes(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


class Site:
    """The output folder being served, followed from generation to generation."""

    def __init__(self, out: Path):
        self.out = Path(out)
        self.root = self.out.resolve()
        self.generation: Optional[Generation] = None

    def current(self) -> Generation:
        """The generation the marker names now (one stat per call)."""
        try:
            stat = (self.out / MARKER).stat()
            key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
        except OSError:
            key = ("none",)
        if self.generation is None or self.generation.key != key:
            self.generation = Generation(key, self.root)
        return self.generation
