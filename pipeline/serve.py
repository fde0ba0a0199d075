"""`rulekb serve`: a built site on 127.0.0.1, and a JSON API answered from the site's own search index.

GET|HEAD /api/search?q=QUERY[&limit=N][&doc=cr]  -> the `rulekb search --json` answer
GET|HEAD /api/sections/<id>                      -> one section as `rulekb show --json` prints it
Anything else is a file of the site; a missing one gets the site's 404 page.

It follows the published generation (see site.publish): after a rebuild, pages and answers both
come from the new site and its index, without a restart. Requests are answered by several
processes (one per core, sharing the listening socket), each with a pool of threads and a
whoosh searcher per thread. Bad requests get 400/404 with a message, never a dropped
connection; every response carries security headers; gzip only for clients that accept it.
"""
from __future__ import annotations

import gzip
import hashlib
import json
import os
import re
import signal
import threading
from base64 import b64encode
from dataclasses import dataclass
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qs, unquote, urlsplit

from .api import section_view, find_section
from .corpus import load_corpus
from .search.engine import search as search_index
from .search.index import KnowledgeBase
from .search.question import QueryError
from .site.publish import index_folder, published, published_sources

MAX_URL = 8192
BACKLOG = 512
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".svg": "image/svg+xml", ".xml": "application/xml", ".txt": "text/plain; charset=utf-8",
         ".png": "image/png", ".ico": "image/x-icon", ".webmanifest": "application/manifest+json",
         ".woff2": "font/woff2", ".gz": "application/gzip"}
COMPRESSIBLE = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".webmanifest"}
INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
KINDS = (None, "cr", "mtr", "ipg", "jar", "floor")


@dataclass
class _Generation:
    """One published generation: its marker, its corpus (for /api/sections), a searcher per thread."""
    key: tuple
    index: Optional[Path]
    corpus: object
    local: threading.local


class Site:
    """The output folder being served, followed from generation to generation."""

    def __init__(self, out: Path, sources: Optional[Path] = None):
        self.out = Path(out)
        self.sources = sources
        self.lock = threading.Lock()
        self.generation: Optional[_Generation] = None
        self.files: dict[tuple, tuple[bytes, bytes, str]] = {}   # (path, mtime, size) -> (body, gzip, csp)

    def current(self) -> _Generation:
        marker = self.out / ".rulekb-site"
        try:
            stat = marker.stat()
            key = (stat.st_ino, stat.st_mtime_ns)
        except OSError:
            key = ("none",)
        generation = self.generation
        if generation is not None and generation.key == key:
            return generation
        with self.lock:
            if self.generation is None or self.generation.key != key:
                record = published(self.out) or {}
                index = index_folder(self.out, record["generation"]) if record.get("generation") else None
                if index is not None and not index.is_dir():
                    index = None
                sources = self.sources or published_sources(self.out)
                corpus = load_corpus(sources) if sources and sources.is_dir() else None
                self.generation = _Generation(key, index, corpus, threading.local())
                self.files.clear()
            return self.generation

    def searcher(self) -> Optional[KnowledgeBase]:
        generation = self.current()
        if generation.index is None:
            return None
        kb = getattr(generation.local, "kb", None)
        if kb is None:
            kb = generation.local.kb = KnowledgeBase(generation.index)
        return kb

    def file(self, path: Path) -> tuple[bytes, bytes, str]:
        """A file's bytes, their gzip form and the script hashes of its CSP (cached until it changes)."""
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        found = self.files.get(key)
        if found is None:
            body = path.read_bytes()
            packed = gzip.compress(body, compresslevel=6) if path.suffix in COMPRESSIBLE else b""
            hashes = " ".join(f"'sha256-{b64encode(hashlib.sha256(script).digest()).decode()}'"
                              for script in INLINE_SCRIPT.findall(body)) if path.suffix == ".html" else ""
            found = self.files[key] = (body, packed, hashes)
        return found


class Handler(BaseHTTPRequestHandler):
    site: Site = None
    server_version = "rulekb"
    sys_version = ""
    protocol_version = "HTTP/1.1"

    def log_message(self, format, *args):   # quiet: a judge's terminal is not a server log
        pass

    def do_HEAD(self):
        self.answer(head=True)

    def do_GET(self):
        self.answer(head=False)

    def answer(self, head: bool) -> None:
        try:
            self.route(head)
        except (BrokenPipeError, ConnectionResetError):
            pass
        except Exception as error:  # a bug must not drop the connection: the client gets a 500 and a reason
            self.send_body(500, json.dumps({"error": f"internal error: {type(error).__name__}"}).encode(),
                           "application/json; charset=utf-8", head)

    def route(self, head: bool) -> None:
        if len(self.path) > MAX_URL:
            return self.send_json(414, {"error": "the request is too long"}, head)
        parts = urlsplit(self.path)
        try:
            path = unquote(parts.path, errors="strict")
        except UnicodeDecodeError:
            return self.send_json(400, {"error": "the path is not valid UTF-8"}, head)
        if "\x00" in path or any(ord(character) < 32 for character in path):
            return self.send_json(400, {"error": "the path holds control characters"}, head)
        if path == "/api/search":
            return self.api_search(parts.query, head)
        if path.startswith("/api/sections/"):
            return self.api_section(path[len("/api/sections/"):], head)
        if path.startswith("/api/"):
            return self.send_json(404, {"error": "unknown API path; try /api/search?q=... or /api/sections/<id>"}, head)
        self.static(path, head)

    # -- the API --------------------------------------------------------------------------------

    def api_search(self, query_string: str, head: bool) -> None:
        try:
            params = parse_qs(query_string, keep_blank_values=True, max_num_fields=20, errors="strict")
        except (ValueError, UnicodeDecodeError) as error:
            return self.send_json(400, {"error": f"malformed query string: {error}"}, head)
        try:
            limit = int(params.get("limit", ["10"])[0])
        except ValueError:
            return self.send_json(400, {"error": "limit must be a whole number"}, head)
        if not 1 <= limit <= 100:
            return self.send_json(400, {"error": "limit must be between 1 and 100"}, head)
        kind = params.get("doc", [None])[0]
        if kind not in KINDS:
            return self.send_json(400, {"error": "doc must be one of cr, mtr, ipg, jar, floor"}, head)
        kb = self.site.searcher()
        if kb is None:
            return self.send_json(503, {"error": "this site was built without a search index"}, head)
        try:
            answer = search_index(kb, params.get("q", [""])[0], limit=limit, kind=kind)
        except QueryError as error:
            return self.send_json(400, {"error": str(error)}, head)
        self.send_json(200, answer.as_json(), head)

    def api_section(self, section_id: str, head: bool) -> None:
        corpus = self.site.current().corpus
        if corpus is None:
            return self.send_json(503, {"error": "the sources of this site are not available to the server"}, head)
        found = find_section(corpus, section_id)
        if found is None:
            return self.send_json(404, {"error": f"no section {section_id!r}"}, head)
        self.send_json(200, section_view(corpus, *found), head)

    # -- files ----------------------------------------------------------------------------------

    def static(self, path: str, head: bool) -> None:
        root = self.site.out.resolve()
        parts = [part for part in path.split("/") if part]
        if any(part in ("..", ".") or part.startswith(".") for part in parts):
            return self.not_found(head)
        target = root.joinpath(*parts)
        if target.is_dir():
            if not path.endswith("/"):
                self.send_response(301)
                self.send_header("Location", path + "/" + (f"?{urlsplit(self.path).query}" if urlsplit(self.path).query else ""))
                self.send_header("Content-Length", "0")
                self.security_headers("")
                self.end_headers()
                return None
            target = target / "index.html"
        try:
            if not target.resolve().is_relative_to(root) or not target.is_file():
                return self.not_found(head)
            body, packed, hashes = self.site.file(target)
        except OSError:
            return self.not_found(head)
        self.send_file(200, target.suffix, body, packed, hashes, head,
                       cache="no-cache" if target.suffix == ".html" or target.name == "sw.js" else "max-age=3600")

    def not_found(self, head: bool) -> None:
        page = self.site.out / "404.html"
        if page.is_file():
            body, packed, hashes = self.site.file(page)
            return self.send_file(404, ".html", body, packed, hashes, head, cache="no-cache")
        self.send_body(404, b"Not found", "text/plain; charset=utf-8", head)

    def send_file(self, status: int, suffix: str, body: bytes, packed: bytes, hashes: str, head: bool,
                  cache: str) -> None:
        gzip_ok = bool(packed) and accepts_gzip(self.headers.get("Accept-Encoding", ""))
        self.send_body(status, packed if gzip_ok else body, TYPES.get(suffix, "application/octet-stream"), head,
                       encoding="gzip" if gzip_ok else None, cache=cache, script_hashes=hashes,
                       vary=bool(packed))

    def send_json(self, status: int, data: dict, head: bool) -> None:
        body = json.dumps(data, ensure_ascii=False).encode("utf-8")
        self.send_body(status, body, "application/json; charset=utf-8", head, cache="no-store", cors=True)

    def send_body(self, status: int, body: bytes, content_type: str, head: bool, encoding: Optional[str] = None,
                  cache: str = "no-cache", script_hashes: str = "", vary: bool = False, cors: bool = False) -> None:
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", cache)
        if encoding:
            self.send_header("Content-Encoding", encoding)
        if vary:
            self.send_header("Vary", "Accept-Encoding")
        if cors:
            self.send_header("Access-Control-Allow-Origin", "*")
        self.security_headers(script_hashes)
        self.end_headers()
        if not head:
            self.wfile.write(body)

    def security_headers(self, script_hashes: str) -> None:
        self.send_header("Content-Security-Policy",
                         f"default-src 'self'; script-src 'self' {script_hashes}; style-src 'self' 'unsafe-inline'; "
                         "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; "
                         "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'")
        self.send_header("X-Content-Type-Options", "nosniff")
        self.send_header("Referrer-Policy", "no-referrer")
        self.send_header("X-Frame-Options", "DENY")


def accepts_gzip(header: str) -> bool:
    """Whether an Accept-Encoding header allows gzip ("gzip;q=0" and "identity" do not; "*" does)."""
    weights = {}
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if name.strip():
            weights[name.strip().lower()] = quality
    if "gzip" in weights:
        return weights["gzip"] > 0
    return weights.get("*", 0) > 0


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    request_queue_size = BACKLOG
    allow_reuse_address = True


def make_server(site: Site, host: str = "127.0.0.1", port: int = 8000, bind: bool = True) -> ThreadingHTTPServer:
    handler = type("RulekbHandler", (Handler,), {"site": site})
    return _Server((host, port), handler, bind_and_activate=bind)


def serve(out: Path, sources: Optional[Path] = None, host: str = "127.0.0.1", port: int = 8000,
          workers: Optional[int] = None, ready=None) -> None:
    """Serve until interrupted, with `workers` processes (default: one per core) on one socket."""
    workers = workers or os.cpu_count() or 1
    site = Site(out, sources)
    server = make_server(site, host, port)
    if ready:
        ready(server.server_address)
    children = []
    if workers > 1 and hasattr(os, "fork"):
        for _ in range(workers - 1):
            pid = os.fork()
            if pid == 0:                       # a worker: the same socket, its own threads and searchers
                signal.signal(signal.SIGINT, signal.SIG_DFL)
                try:
                    server.serve_forever()
                finally:
                    os._exit(0)
            children.append(pid)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
            except OSError:
                pass


__all__ = ["Site", "make_server", "serve", "accepts_gzip"]
