"""What the offline copy holds, and what a phone is told about it before and after saving it: "Save the
rules for offline use (2.4 MB)", "Saved offline (2.4 MB, build of November 25, 2026)".

The service worker (assets/sw.js) saves the home page and the quick references, every page of each current
document, the search's files, and every file of the site's own those pages load (stylesheets, scripts,
icons: some pages load a script of their own). The size is their gzip bytes. All of it is known only once
the pages and the search files are written, so the build writes it into the built sw.js last, in place of
its placeholders.
"""
from __future__ import annotations

import json
import re
from pathlib import Path

from ..build_date import build_date, long_date
from .compress import compressed

# What the service worker saves besides the current documents' pages (assets/sw.js: CORE and QUICK).
QUICK_PAGES = ("", "penalties/", "regular/", "search-tips/", "annotations/")
WORKER = "sw.js"
SIZE_MARK = "__RULEKB_OFFLINE_BYTES__"
DATE_MARK = "__RULEKB_BUILT_ON__"
ASSETS_MARK = "/*__RULEKB_OFFLINE_ASSETS__*/"
_ASSET = re.compile(rb'<(?:link|script)\b[^>]*?\b(?:href|src)="([^"]+)"')


def offline_files(site: Path) -> set[Path]:
    """The site's files a phone saves for offline use (those that exist)."""
    site = site.resolve()
    manifest = json.loads((site / "search" / "manifest.json").read_text(encoding="utf-8"))
    current = [document["id"] for document in manifest["documents"] if not document.get("archived")]
    pages = {page for page in manifest["pages"] if page.split("/")[0] in current}
    pages |= {f"{id}/" for id in current} | set(QUICK_PAGES)
    files = {site / page / "index.html" for page in pages}
    files |= page_assets(site, {path for path in files if path.is_file()})
    # not the semantic table (search/s.<hash>.bin): a long question fetches it, and sw.js keeps what is fetched
    search = ["manifest.json", "worker.js", "semantic.js", manifest.get("numbers"), *manifest.get("words", {}).values(),
              *manifest.get("terms", {}).values(), *(name for _, name in manifest.get("chunks", []))]
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


def stamp(site: Path) -> int:
    """Write into the built sw.js the files the saved pages load, the offline copy's size and the build's
    day; the size. A site without a search manifest (no search files) says no size and no files."""
    worker = site / WORKER
    if not worker.is_file():
        return 0
    files = offline_files(site) if (site / "search" / "manifest.json").is_file() else set()
    size = sum(len(compressed(path.read_bytes(), ".gz")) for path in files)
    site = site.resolve()
    assets = sorted(path.relative_to(site).as_posix() for path in files
                    if path.suffix != ".html" and path.parent != site / "search")
    text = worker.read_text(encoding="utf-8")
    text = (text.replace(SIZE_MARK, str(size)).replace(DATE_MARK, long_date(build_date().isoformat()))
            .replace(ASSETS_MARK, ", ".join(json.dumps(path) for path in assets)))
    worker.unlink()                 # a new file, not a write through a link the staging folder may share
    worker.write_text(text, encoding="utf-8")
    return size
