"""`rulekb serve`: the built site on 127.0.0.1, plus a JSON API backed by the search index.

GET /api/search?q=QUERY[&limit=N][&doc=cr]  -> the `rulekb search --json` answer
GET /api/sections/<id>                      -> one section as `rulekb show --json` prints it
Anything else is a file of the site. Bad requests get a 400 with a message, never a 500.
"""
from __future__ import annotations

import gzip
import json
import threading
from functools import partial
from http import HTTPStatus
from http.server import SimpleHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Callable, Optional
from urllib.parse import parse_qs, unquote, urlsplit

from .search import QueryError, search

MAX_URL = 65536
COMPRESSIBLE = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
                ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
                ".svg": "image/svg+xml", ".xml": "application/xml", ".txt": "text/plain; charset=utf-8"}
_COMPRESSED: dict = {}


class Api:
    """What the API answers with: a knowledge base and a way to show one section."""

    def __init__(self, kb, show: Callable[[str], Optional[dict]]):
        self.kb = kb
        self.show = show
        self.lock = threading.Lock()   # one whoosh searcher, shared by the server's threads

    def search(self, params: dict) -> tuple[int, dict]:
        query = params.get("q", [""])[0]
        try:
            limit = int(params.get("limit", ["10"])[0])
        except ValueError:
            return 400, {"error": "limit must be a whole number"}
        if not 1 <= limit <= 100:
            return 400, {"error": "limit must be between 1 and 100"}
        kind = params.get("doc", [None])[0]
        if kind not in (None, "cr", "mtr", "ipg", "floor"):
            return 400, {"error": "doc must be one of cr, mtr, ipg, floor"}
        try:
            with self.lock:
                answer = search(self.kb, query, limit=limit, kind=kind)
        except QueryError as error:
            return 400, {"error": str(error)}
        return 200, answer.as_json()

    def section(self, section_id: str) -> tuple[int, dict]:
        with self.lock:
            shown = self.show(section_id)
        if shown is None:
            return 404, {"error": f"no section {section_id!r}"}
        return 200, shown


class Handler(SimpleHTTPRequestHandler):
    api: Api = None

    def log_message(self, format, *args):   # quiet: a judge's terminal is not a server log
        pass

    def do_GET(self):
        if len(self.path) > MAX_URL:
            return self.send_json(400, {"error": "the request is too long"})
        parts = urlsplit(self.path)
        if parts.path == "/api/search":
            try:
                params = parse_qs(parts.query, keep_blank_values=True, max_num_fields=20, errors="strict")
            except (ValueError, UnicodeDecodeError) as error:
                return self.send_json(400, {"error": f"malformed query string: {error}"})
            return self.send_json(*self.api.search(params))
        if parts.path.startswith("/api/sections/"):
            try:
                section_id = unquote(parts.path[len("/api/sections/"):], errors="strict")
            except UnicodeDecodeError:
                return self.send_json(400, {"error": "the section id is not valid UTF-8"})
            return self.send_json(*self.api.section(section_id))
        if parts.path.startswith("/api/"):
            return self.send_json(404, {"error": "unknown API path; try /api/search?q=... or /api/sections/<id>"})
        if "gzip" in self.headers.get("Accept-Encoding", "") and self.send_compressed(parts.path):
            return None
        return super().do_GET()

    def send_compressed(self, url_path: str) -> bool:
        """Text files go out gzip-compressed, as real hosts send them (a phone on venue wifi notices)."""
        path = Path(self.translate_path(url_path))
        if path.is_dir():
            if not url_path.endswith("/"):
                return False    # the base class redirects to the slash-ended URL
            path = path / "index.html"
        if not path.is_file() or path.suffix not in COMPRESSIBLE:
            return False
        stat = path.stat()
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        body = _COMPRESSED.get(key)
        if body is None:
            body = gzip.compress(path.read_bytes(), compresslevel=6)
            _COMPRESSED[key] = body
        self.send_response(200)
        self.send_header("Content-Type", COMPRESSIBLE[path.suffix])
        self.send_header("Content-Encoding", "gzip")
        self.send_header("Content-Length", str(len(body)))
        self.send_header("Cache-Control", "max-age=3600")
        self.send_header("Vary", "Accept-Encoding")
        self.end_headers()
        self.wfile.write(body)
        return True

    def send_json(self, status: int, body: dict) -> None:
        data = json.dumps(body, ensure_ascii=False).encode("utf-8")
        self.send_response(status, HTTPStatus(status).phrase)
        self.send_header("Content-Type", "application/json; charset=utf-8")
        self.send_header("Content-Length", str(len(data)))
        self.send_header("Access-Control-Allow-Origin", "*")
        self.end_headers()
        self.wfile.write(data)


def make_server(site: Path, api: Api, host: str = "127.0.0.1", port: int = 8000) -> ThreadingHTTPServer:
    handler = type("RulekbHandler", (Handler,), {"api": api})
    server = ThreadingHTTPServer((host, port), partial(handler, directory=str(site)))
    server.daemon_threads = True
    return server
