"""What the offline copy holds, and what a phone is told about it before and after saving it: "Save the
rules for offline use (2.4 MB)", "Saved offline (2.4 MB, build of November 25, 2026)".

The service worker (assets/sw.js) saves the home page and the quick references, every page of each current
document, the search's files, every other page linked from home with those beneath it ("What changed", the
older editions' readers), and every file of the site's own those pages load (stylesheets, scripts, icons:
some pages load a script of their own). It asks for nothing the build did not make. The size is their gzip bytes.
All of it is known only once the pages and the search files are written, so the build writes it into the
built sw.js last, in place of its placeholders.

A translation's pages (`zh/…`) and its search files are saved only on a phone whose reader chose that
language (assets/translations.js remembers the choice): each language's files and their size are listed
apart, and the English copy's size does not count them.
"""
from __future__ import annotations

import json
import os
import re
from pathlib import Path
from typing import Collection, Optional

from .. import kinds
from ..build_date import build_date, long_date
from ..parallel import each
from .compress import compressed, gzip_form, is_past

# What the service worker saves besides the current documents' pages, where the build made them (sw.js: QUICK):
# the quick references, the search's own address, what typed addresses (/cr/702.19b) need.
QUICK_PAGES = ("", "penalties/", "regular/", "search-tips/", "annotations/", "search/")
QUICK_FILES = ("assets/number.html", "assets/typed-numbers.json")
WORKER = "sw.js"
QUICK_MARK = "/*__RULEKB_QUICK__*/"
LINKED_MARK = "/*__RULEKB_LINKED_PAGES__*/"
READERS_MARK = "/*__RULEKB_READERS__*/"
SIZE_MARK = "__RULEKB_OFFLINE_BYTES__"
DATE_MARK = "__RULEKB_BUILT_ON__"
ASSETS_MARK = "/*__RULEKB_OFFLINE_ASSETS__*/"
LANGUAGES_MARK = "/*__RULEKB_LANGUAGES__*/"
# what a translation's search needs in the browser's worker, besides its own file (search/translated-zh.json)
LANGUAGE_SEARCH = ("search/translated.json", "search/translated-search.js")
_ASSET = re.compile(rb'<(?:link|script)\b[^>]*?\b(?:href|src)="([^"]+)"')
_LINK = re.compile(rb'<a\b[^>]*?\bhref="([^"]*)"')
_DATA = re.compile(rb'\bdata-edition="([^"]+)"')        # an older edition's reader: where its contents are


def quick(site: Path) -> list[str]:
    """The quick pages and files the build made (a site without an IPG has no penalty page to save)."""
    pages = [page for page in QUICK_PAGES if (site / page / "index.html").is_file()]
    return pages + [name for name in QUICK_FILES if (site / name).is_file()]


def linked_pages(site: Path) -> list[str]:
    """Every page the home page links to, and the pages beneath each ("What changed" and each change), with
    the data an older edition's reader draws its contents from: what a judge reaches from home opens offline
    too. The current documents' pages are left out (saved anyway). Site-relative ("changes/", "data/….json")."""
    site = site.resolve()
    home = site / "index.html"
    if not home.is_file():
        return []
    current = _current_documents(site)
    found = set()
    for page in _links(site, home):
        found.add(page)
        if page and _has_folders(site / page):      # a page beneath is a folder inside (a change's page has none)
            found |= {beneath for beneath in _links(site, site / page / "index.html") if beneath.startswith(page)}
    pages = {page for page in found - {""} - set(QUICK_PAGES) if page.split("/")[0] not in current}
    data = set()
    for page in pages:
        html_file = site / page / "index.html"
        for reference in _DATA.findall(html_file.read_bytes()):
            target = (html_file.parent / reference.decode("utf-8", "replace")).resolve()
            if target.is_file() and target.is_relative_to(site):
                data.add(target.relative_to(site).as_posix())
    return sorted(pages | data)


def readers(site: Path, linked: list[str]) -> list[str]:
    """The older editions' readers among the linked pages ("cr-2019-01-25/": a page that draws an edition from
    its data); the service worker sends their old addresses (cr-2019-01-25/702/) there, as the 404 page does."""
    return [page for page in linked if page.endswith("/") and page.count("/") == 1
            and _DATA.search((site / page / "index.html").read_bytes())]


def _has_folders(folder: Path) -> bool:
    with os.scandir(folder) as entries:
        return any(entry.is_dir(follow_symlinks=False) for entry in entries)


def _current_documents(site: Path) -> set[str]:
    manifest = site / "search" / "manifest.json"
    if not manifest.is_file():
        return set()
    return {document["id"] for document in json.loads(manifest.read_text(encoding="utf-8"))["documents"]
            if not document.get("archived")}


def _links(site: Path, html_file: Path) -> set[str]:
    """The pages of the site a page links to ("cr/702/"), as folders of the site."""
    found = set()
    for reference in set(_LINK.findall(html_file.read_bytes())):
        reference = reference.decode("utf-8", "replace").split("#")[0].split("?")[0]
        if not reference or reference.startswith(("http:", "https:", "//", "data:", "mailto:")):
            continue
        target = (html_file.parent / reference).resolve()
        if target.is_relative_to(site) and (target / "index.html").is_file():
            relative = target.relative_to(site).as_posix()
            found.add("" if relative == "." else relative + "/")
    return found


def offline_files(site: Path, linked: Optional[list[str]] = None) -> set[Path]:
    """The site's files a phone saves for offline use (those that exist); `linked`: its linked_pages, if known."""
    site = site.resolve()
    manifest = json.loads((site / "search" / "manifest.json").read_text(encoding="utf-8"))
    current = [document["id"] for document in manifest["documents"] if not document.get("archived")]
    pages = {page for page in manifest["pages"] if page.split("/")[0] in current}
    linked = linked_pages(site) if linked is None else linked
    pages |= {f"{id}/" for id in current} | set(QUICK_PAGES) | {page for page in linked if page.endswith("/")}
    files = {site / page / "index.html" for page in pages} | {site / name for name in QUICK_FILES}
    files |= {site / name for name in linked if not name.endswith("/")}
    files |= page_assets(site, {path for path in files if path.is_file()})
    search = manifest.get("saved", [])       # the search's files a phone saves (search.browser)
    files |= {site / "search" / name for name in search if name}
    return {path for path in files if path.is_file()}


def page_assets(site: Path, pages: set[Path]) -> set[Path]:
    """The site's own files the pages load (stylesheets, scripts, icons)."""
    site = site.resolve()
    found = set()
    for html_file in pages:
        for reference in set(_ASSET.findall(html_file.read_bytes())):
            reference = reference.decode("utf-8", "replace")
            if reference.startswith(("http:", "https:", "//", "data:")):
                continue
            asset = (html_file.parent / reference.split("?")[0].split("#")[0]).resolve()
            if asset.suffix in (".css", ".js", ".png", ".svg", ".ico", ".woff", ".woff2") and asset.is_file() \
                    and asset.is_relative_to(site):
                found.add(asset)
    return found


def language_files(site: Path) -> dict[str, set[Path]]:
    """Each translation's language (its folder of pages, `zh/`): the files a phone saves when its reader
    chose it: the pages, the typed numbers' page, the language's search files, what the pages load."""
    site = site.resolve()
    found = {}
    for code in sorted(kinds.LANGUAGE_BY_ID):
        if code == kinds.ENGLISH.id or not (site / code / "index.html").is_file():
            continue
        # not the typed numbers' copies of the forwarding page (zh/cr/702.19b/): sw.js answers them from it
        forwarding = _read(site / code / "assets" / "number.html")
        files = {path for path in (site / code).rglob("*") if path.is_file()
                 and (path.name == "index.html" or path.parent == site / code / "assets")}
        files = {path for path in files if path.parent == site / code / "assets" or path.stat().st_size !=
                 len(forwarding.encode("utf-8")) or _read(path) != forwarding}
        search = json.loads(_read(site / "search" / "translated.json") or "{}").get("languages", {})
        named = search.get(code, {}).get("file")
        files |= {site / name for name in LANGUAGE_SEARCH} | ({site / "search" / named} if named else set())
        files |= page_assets(site, {path for path in files if path.suffix == ".html" and path.is_file()})
        found[code] = {path for path in files if path.is_file()}
    return found


def _read(path: Path) -> str:
    return path.read_text(encoding="utf-8") if path.is_file() else ""


def language_sizes(site: Path) -> dict[str, int]:
    """The gzip bytes a phone saves for each language chosen, besides the English copy."""
    english = offline_files(site) if (site / "search" / "manifest.json").is_file() else set()
    return {code: sum(len(compressed(path.read_bytes())) for path in files - english)
            for code, files in language_files(site).items()}


def stamp(site: Path, previous: Optional[Path] = None, past: Collection[str] = frozenset()) -> int:
    """Write into the built sw.js the files the saved pages load, the offline copy's size and the build's
    day; the size. A site without a search manifest (no search files) says no size and no files. `previous`:
    the published site this one replaces (its unchanged files' gzip forms are taken, not made again); `past`:
    the site paths whose gzip forms are measured but not kept (compress.is_past)."""
    worker = site / WORKER
    if not worker.is_file():
        return 0
    linked = linked_pages(site)
    files = offline_files(site, linked) if (site / "search" / "manifest.json").is_file() else set()
    # the gzip forms measured are written as the published site keeps them (compress.precompress), on every core
    site = site.resolve()
    measure = lambda path: gzip_form(path, site, previous, not is_past(path.relative_to(site).as_posix(), past))
    size = sum(each(measure, sorted(files), str))
    assets = sorted(path.relative_to(site).as_posix() for path in files
                    if path.suffix != ".html" and path.parent != site / "search")
    languages = {code: {"files": sorted(path.relative_to(site).as_posix().removesuffix("index.html")
                                        for path in paths - files),
                        "bytes": sum(each(measure, sorted(paths - files), str))}
                 for code, paths in language_files(site).items()}
    text = worker.read_text(encoding="utf-8")
    listed = lambda paths: ", ".join(json.dumps(path) for path in paths)
    text = (text.replace(SIZE_MARK, str(size)).replace(DATE_MARK, long_date(build_date().isoformat()))
            .replace(ASSETS_MARK, listed(assets)).replace(QUICK_MARK, listed(quick(site)))
            .replace(LINKED_MARK, listed(linked)).replace(READERS_MARK, listed(readers(site, linked)))
            .replace(LANGUAGES_MARK, json.dumps(languages, ensure_ascii=False)[1:-1]))
    worker.unlink()                 # a new file, not a write through a link the staging folder may share
    worker.write_text(text, encoding="utf-8")
    return size
