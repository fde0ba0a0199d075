"""Helpers for the site tests: check links (older editions' readers included), serve on loopback."""
from __future__ import annotations

import functools
import http.server
import json
import posixpath
import re
import threading
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urljoin, urlsplit

from pipeline.site import reader_rows


class _Collector(HTMLParser):
    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.ids: set[str] = set()
        self.links: list[str] = []
        self.resources: list[str] = []
        self.edition_data: str | None = None     # an older edition's reader: where its sections are

    def handle_starttag(self, tag, attrs):
        attrs = dict(attrs)
        if "id" in attrs:
            self.ids.add(attrs["id"])
        if tag == "a" and attrs.get("href"):
            self.links.append(attrs["href"])
        if attrs.get("data-edition"):
            self.edition_data = attrs["data-edition"]
        for name in ("src", "href"):
            if tag in ("script", "img", "link", "iframe", "source") and attrs.get(name):
                self.resources.append(attrs[name])


_parsed: dict[tuple, _Collector] = {}


def parse_page(path: Path):
    """A page's ids and links, parsed once for each file on disk (the 3,000 addresses of typed numbers are
    one file, hard-linked; a page is parsed once whether its links or its anchors are asked for)."""
    stat = path.stat()
    key = (stat.st_dev, stat.st_ino, stat.st_mtime_ns, stat.st_size)
    if key not in _parsed:
        collector = _Collector()
        collector.feed(path.read_text(encoding="utf-8"))
        _parsed[key] = collector
    return _parsed[key]


@functools.cache
def anchors_of(site: Path, page: Path) -> frozenset:
    """The anchors a page has: its ids, and for an older edition's reader the ones its data will draw."""
    parsed = parse_page(page)
    found = set(parsed.ids)
    if parsed.edition_data:
        data_file = page_file(site, urlsplit(urljoin("/" + page.relative_to(site).as_posix(), parsed.edition_data)).path)
        data = json.loads(data_file.read_text(encoding="utf-8"))
        for number, _, _, key, _, group, *_ in reader_rows.rows(data):
            found.update({number, key.replace("/", "--"), group})
        if data["glossary"]:
            found.add("glossary")
            found.update("term-" + re.sub(r"[^a-z0-9.]+", "-", term.lower()).strip("-.") for term, _ in data["glossary"])
    return frozenset(found)


def page_file(site: Path, url_path: str) -> Path | None:
    candidate = site / unquote(url_path).lstrip("/")
    if candidate.is_dir():
        candidate = candidate / "index.html"
    return candidate if candidate.is_file() else None


def _climbs_above_root(url: str, path: str) -> bool:
    """Whether a relative link goes up more folders than the page stands in (urljoin quietly stops at the
    root; a site served under a prefix would lose that prefix)."""
    if not path or path.startswith("/"):
        return False
    depth = len(posixpath.dirname(url).strip("/").split("/")) if posixpath.dirname(url).strip("/") else 0
    for part in path.split("/"):
        depth += -1 if part == ".." else (part not in ("", "."))
        if depth < 0:
            return True
    return False


def broken_links(site: Path) -> list[str]:
    """Every internal link of every page whose file or anchor does not exist."""
    broken = []
    files: dict[str, Path | None] = {}        # thousands of links share a few hundred targets
    for page in sorted(site.rglob("*.html")):
        url = "/" + page.relative_to(site).as_posix()
        for href in parse_page(page).links:
            parts = urlsplit(href)
            if parts.scheme or parts.netloc or href.startswith(("mailto:", "javascript:")):
                continue
            target = urlsplit(urljoin(url, href))
            if _climbs_above_root(url, parts.path):
                broken.append(f"{url}: {href} (above the site's root)")
                continue
            if target.path not in files:
                files[target.path] = page_file(site, target.path)
            file = files[target.path]
            if file is None:
                broken.append(f"{url}: {href} (no such page)")
                continue
            if target.fragment and file.suffix == ".html" and unquote(target.fragment) not in anchors_of(site, file):
                broken.append(f"{url}: {href} (no anchor #{target.fragment})")
    return broken


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args):
        pass


def serve(site: Path):
    """Serve `site` on an ephemeral loopback port (as a plain static host would); returns (base url, stop)."""
    handler = functools.partial(_QuietHandler, directory=str(site))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()

    def stop():
        server.shutdown()
        server.server_close()
    return f"http://127.0.0.1:{server.server_address[1]}/", stop
