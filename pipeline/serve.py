"""`rulekb serve`: a built site on 127.0.0.1, and a JSON API answered from the site's own search index.

GET|HEAD /api/search?q=QUERY[&limit=N][&doc=cr]  -> the `rulekb search --json` answer
GET|HEAD /api/sections/<id>                      -> one section as `rulekb show --json` prints it
Anything else is a file of the site; a missing one gets the site's 404 page.

It follows the published generation (see site.publish): after a rebuild, pages and answers both
come from the new site and its index, without a restart (the site's marker file is looked at on
every request; a new one means a new generation).

How it holds its load: requests are read by front processes (`--workers`, sharing the listening
socket), a thread per connection. A front only does I/O and hands out files kept in memory
(with their gzip form) for the generation. Searches, which are CPU-bound, run in a pool of
search processes at a lower priority (one per core, each with its own whoosh searcher), so
pages never wait behind them; answers are kept in a small cache per generation, since the
same questions come back. Bad requests get 400/404/405 with a message, never a dropped
connection; every response carries security headers; gzip only for clients that accept it.
"""
from __future__ import annotations

import ctypes
import ctypes.util
import gzip
import hashlib
import json
import multiprocessing
import os
import re
import signal
import threading
import time
from base64 import b64encode
from collections import OrderedDict
from concurrent.futures import ProcessPoolExecutor, TimeoutError as FutureTimeout
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Optional
from email.utils import formatdate
from urllib.parse import parse_qs, quote, unquote, urlsplit

from .api import section_view, find_section
from .corpus import load_corpus
from .search import KnowledgeBase, QueryError
from .search import search as search_index
from .site.publish import MARKER, index_folder, published, published_sources

MAX_URL = 8192
BACKLOG = 1024
IDLE_SECONDS = 60               # a keep-alive connection idle this long is closed
SEARCH_SECONDS = 30             # a search that takes longer gets 503
SEARCH_NICENESS = 5             # search processes yield the CPU to the fronts (pages) when both want it
ANSWERS_KEPT = 4096             # cached answers per front process (a few KB each)
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".svg": "image/svg+xml", ".xml": "application/xml", ".txt": "text/plain; charset=utf-8",
         ".png": "image/png", ".ico": "image/x-icon", ".webmanifest": "application/manifest+json",
         ".woff2": "font/woff2", ".gz": "application/gzip"}
COMPRESSIBLE = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".webmanifest"}
INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
KINDS = (None, "cr", "mtr", "ipg", "jar", "floor")
JSON_TYPE = "application/json; charset=utf-8"
MAX_QUESTION = 500
MAX_HEADERS = 100
MAX_HEADER_LINE = 8192
REQUEST_VERSION = re.compile(r"HTTP/1\.[01]")
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
STATUS_LINES = {status.value: f"HTTP/1.1 {status.value} {status.phrase}\r\n".encode() for status in HTTPStatus}
SERVER_LINE = b"Server: rulekb\r\n"


# -- what is served: the generation of the site ---------------------------------------------------

@dataclass
class Response:
    """A file ready to send: its bytes and their gzip form (b"" when not compressible), and the header lines
    of each (everything but the status line and the date), made once."""
    status: int
    body: bytes
    packed: bytes
    plain_head: bytes
    packed_head: bytes

    def with_status(self, status: int) -> "Response":
        return Response(status, self.body, self.packed, self.plain_head, self.packed_head)


@dataclass
class Generation:
    """One published generation: its marker, its index, its sources; files and corpus loaded when first asked."""
    key: tuple
    index: Optional[Path]
    sources: Optional[Path]
    files: dict = field(default_factory=dict)          # URL path -> Response
    corpus_lock: threading.Lock = field(default_factory=threading.Lock)
    corpus: object = None
    corpus_loaded: bool = False

    def section_corpus(self):
        """The corpus of the generation's sources (for /api/sections), loaded once, None without sources."""
        if not self.corpus_loaded:
            with self.corpus_lock:
                if not self.corpus_loaded:
                    if self.sources and self.sources.is_dir():
                        self.corpus = load_corpus(self.sources)
                    self.corpus_loaded = True
        return self.corpus


class Site:
    """The output folder being served, followed from generation to generation."""

    def __init__(self, out: Path, sources: Optional[Path] = None, search_processes: int = 0):
        self.out = Path(out)
        self.root = self.out.resolve()
        self.sources = Path(sources) if sources else None
        self.lock = threading.Lock()
        self.generation: Optional[Generation] = None
        self.searches = Searches(search_processes)

    def current(self) -> Generation:
        """The generation the marker names now (one stat per call; a new marker, a new generation)."""
        try:
            stat = (self.out / MARKER).stat()
            key = (stat.st_ino, stat.st_mtime_ns, stat.st_size)
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
                self.generation = Generation(key, index, self.sources or published_sources(self.out))
            return self.generation

    def response(self, generation: Generation, url_path: str) -> Optional[Response]:
        """The file a URL path names in this generation (kept in memory once read), None if there is none."""
        url_path = "/" + "/".join(part for part in url_path.split("/") if part) + ("/" if url_path.endswith("/") else "")
        url_path = url_path.replace("//", "/")
        found = generation.files.get(url_path)
        if found is None:
            target = self.file_of(url_path)
            if target is None:
                return None
            try:
                found = load_file(target, 200)
            except OSError:
                return None
            if generation.key != ("none",):            # a published generation never changes: keep it
                generation.files[url_path] = found
        return found

    def file_of(self, url_path: str) -> Optional[Path]:
        parts = [part for part in url_path.split("/") if part]
        if any(part in ("..", ".") or part.startswith(".") or "\\" in part for part in parts):
            return None
        target = self.root.joinpath(*parts)
        if url_path.endswith("/") or not parts:
            target = target / "index.html"
        try:
            if not target.is_file() or not target.resolve().is_relative_to(self.root):
                return None
        except OSError:
            return None
        return target

    def is_folder(self, url_path: str) -> bool:
        parts = [part for part in url_path.split("/") if part]
        if any(part in ("..", ".") or part.startswith(".") for part in parts):
            return False
        return (self.root.joinpath(*parts) / "index.html").is_file()

    def not_found_page(self, generation: Generation) -> Optional[Response]:
        found = self.response(generation, "/404.html")
        return found.with_status(404) if found else None


def load_file(path: Path, status: int) -> Response:
    """A file of the site as a Response: gzip made once, CSP with the hashes of its inline scripts."""
    body = path.read_bytes()
    packed = gzip.compress(body, compresslevel=6) if path.suffix in COMPRESSIBLE else b""
    hashes = " ".join(f"'sha256-{b64encode(hashlib.sha256(script).digest()).decode()}'"
                      for script in INLINE_SCRIPT.findall(body)) if path.suffix == ".html" else ""
    cache = "no-cache" if path.suffix == ".html" or path.name == "sw.js" else "max-age=3600"
    common = [("Content-Type", TYPES.get(path.suffix, "application/octet-stream")), ("Cache-Control", cache)]
    if packed:
        common.append(("Vary", "Accept-Encoding"))
    common += security_headers(hashes)
    plain_head = header_lines([("Content-Length", str(len(body)))] + common)
    packed_head = header_lines([("Content-Length", str(len(packed))), ("Content-Encoding", "gzip")] + common)
    return Response(status, body, packed, plain_head, packed_head)


def security_headers(script_hashes: str = "") -> list[tuple[str, str]]:
    """The headers every response carries: what a page may load and run (its own inline scripts by hash)."""
    return [("Content-Security-Policy",
             f"default-src 'self'; script-src 'self' {script_hashes}".rstrip() + "; style-src 'self' 'unsafe-inline'; "
             "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
             "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'"),
            ("X-Content-Type-Options", "nosniff"), ("Referrer-Policy", "no-referrer"), ("X-Frame-Options", "DENY"),
            ("Cross-Origin-Opener-Policy", "same-origin")]


def header_lines(fields: list[tuple[str, str]]) -> bytes:
    return "".join(f"{name}: {value}\r\n" for name, value in fields).encode("latin-1")


# -- searches -------------------------------------------------------------------------------------

class Searches:
    """Answers to /api/search: from a cache of recent answers, else from the search processes (or, with
    none, from a whoosh searcher of the calling thread). An answer is (status, JSON bytes)."""

    def __init__(self, processes: int = 0):
        self.processes = processes
        self.pool: Optional[ProcessPoolExecutor] = None
        self.pool_lock = threading.Lock()
        self.answers: OrderedDict = OrderedDict()
        self.answers_lock = threading.Lock()
        self.local = threading.local()

    def start(self, listening: Optional[int] = None) -> None:
        """Start the search processes now (before any thread of this process exists: they are forked);
        `listening`, the server's socket, is closed in them."""
        self.listening = listening
        if self.processes:
            self.pool = _new_pool(self.processes, listening)

    def answer(self, index: Path, query: str, limit: int, kind: Optional[str]) -> tuple[int, bytes]:
        key = (str(index), query, limit, kind)
        with self.answers_lock:
            found = self.answers.get(key)
            if found is not None:
                self.answers.move_to_end(key)
                return found
        if self.pool is None:
            found = search_in_thread(self.local, str(index), query, limit, kind)
        else:
            found = self._in_pool(key)
        if found[0] in (200, 400):
            with self.answers_lock:
                self.answers[key] = found
                while len(self.answers) > ANSWERS_KEPT:
                    self.answers.popitem(last=False)
        return found

    def _in_pool(self, key: tuple) -> tuple[int, bytes]:
        pool = self.pool
        try:
            return pool.submit(search_in_process, *key).result(timeout=SEARCH_SECONDS)
        except FutureTimeout:
            return 503, _json_bytes({"error": "the search took too long; try again"})
        except BrokenProcessPool:
            with self.pool_lock:
                if self.pool is pool:          # a search process died: a new pool for the next questions
                    self.pool = _new_pool(self.processes, getattr(self, "listening", None))
            return 503, _json_bytes({"error": "the search restarted; try again"})

    def stop(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(wait=False, cancel_futures=True)


def _new_pool(processes: int, listening: Optional[int]) -> ProcessPoolExecutor:
    pool = ProcessPoolExecutor(processes, mp_context=multiprocessing.get_context("fork"),
                               initializer=_search_process_started, initargs=(listening,))
    for started in [pool.submit(int) for _ in range(processes)]:   # all of them running before any thread
        started.result()
    return pool


def _search_process_started(listening: Optional[int]) -> None:
    """A search process: dies with its front, ignores Ctrl-C (the server's to handle), accepts no connection,
    and yields the CPU to the fronts."""
    die_with_parent()
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if listening is not None:
        try:
            os.close(listening)
        except OSError:
            pass
    try:
        os.nice(SEARCH_NICENESS)
    except OSError:
        pass


def die_with_parent() -> None:
    """Linux: this process gets SIGKILL when its parent dies (no search process outlives the server)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(1, signal.SIGKILL)           # PR_SET_PDEATHSIG
    except (OSError, AttributeError, TypeError):
        return
    if os.getppid() == 1:                       # the parent died before prctl
        os._exit(1)


_process_searchers: dict[str, KnowledgeBase] = {}


def search_in_process(index: str, query: str, limit: int, kind: Optional[str]) -> tuple[int, bytes]:
    """In a search process: the answer from its searcher of `index` (the newest one asked; older ones closed)."""
    kb = _process_searchers.get(index)
    if kb is None:
        for old in _process_searchers.values():
            old.close()
        _process_searchers.clear()
        kb = _process_searchers[index] = KnowledgeBase(index)
    return _search(kb, query, limit, kind)


def search_in_thread(local: threading.local, index: str, query: str, limit: int, kind: Optional[str]):
    """The answer from the calling thread's own searcher of `index`."""
    searchers = getattr(local, "searchers", None)
    if searchers is None or index not in searchers:
        local.searchers = searchers = {index: KnowledgeBase(index)}
    return _search(searchers[index], query, limit, kind)


def _search(kb: KnowledgeBase, query: str, limit: int, kind: Optional[str]) -> tuple[int, bytes]:
    try:
        return 200, _json_bytes(search_index(kb, query, limit=limit, kind=kind).as_json())
    except QueryError as error:
        return 400, _json_bytes({"error": str(error)})


def _json_bytes(data: dict) -> bytes:
    return json.dumps(data, ensure_ascii=False).encode("utf-8")


# -- HTTP -----------------------------------------------------------------------------------------

class Headers(dict):
    """A request's headers by lower-cased name (a repeated header's values joined by commas)."""

    def get(self, name: str, default=None):
        return super().get(name.lower(), default)


class Handler(BaseHTTPRequestHandler):
    """One connection: requests read one after another (keep-alive), each answered by one write."""
    site: Site = None
    server_version = "rulekb"
    sys_version = ""
    protocol_version = "HTTP/1.1"
    timeout = IDLE_SECONDS

    def log_message(self, format, *args):   # quiet: a judge's terminal is not a server log
        pass

    def parse_request(self) -> bool:
        """The request line and headers (a lean reading: the standard library's goes through the email
        parser, a tenth of a millisecond a request). False, with an error sent, for a malformed request."""
        self.command, self.request_version, self.close_connection = None, "HTTP/1.1", True
        self.requestline = str(self.raw_requestline, "iso-8859-1").rstrip("\r\n")
        words = self.requestline.split()
        if len(words) != 3 or not REQUEST_VERSION.fullmatch(words[2]):
            self.send_error(400, "malformed request line")
            return False
        self.command, self.path, self.request_version = words
        headers = Headers()
        for _ in range(MAX_HEADERS + 1):
            line = self.rfile.readline(MAX_HEADER_LINE + 1)
            if line in (b"\r\n", b"\n", b""):
                break
            name, colon, value = str(line, "iso-8859-1").partition(":")
            if len(line) > MAX_HEADER_LINE or not colon or not HEADER_NAME.fullmatch(name):
                self.send_error(400 if colon or len(line) <= MAX_HEADER_LINE else 431, "malformed header")
                return False
            name, value = name.lower(), value.strip()
            headers[name] = f"{headers[name]}, {value}" if name in headers else value
        else:
            self.send_error(431, "too many headers")
            return False
        self.headers = headers
        connection = headers.get("connection", "").lower()
        self.close_connection = "close" in connection or (self.request_version == "HTTP/1.0"
                                                           and "keep-alive" not in connection)
        if headers.get("content-length", "0") != "0" or "transfer-encoding" in headers:
            self.close_connection = True            # a body is never read: the connection cannot go on after it
        return True

    def do_HEAD(self):
        self.answer(head=True)

    def do_GET(self):
        self.answer(head=False)

    def not_allowed(self):
        self.close_connection = True
        self.send_body(405, _json_bytes({"error": f"{self.command} is not allowed here; GET or HEAD"}), JSON_TYPE,
                       head=False, extra=[("Allow", "GET, HEAD")])

    do_POST = do_PUT = do_DELETE = do_PATCH = do_OPTIONS = do_TRACE = do_CONNECT = not_allowed

    def send_error(self, code, message=None, explain=None):
        """Malformed or unsupported requests (refused before routing): a short JSON reason, connection closed."""
        self.close_connection = True
        try:
            phrase = HTTPStatus(code).phrase
        except ValueError:
            code, phrase = 400, "Bad Request"
        text = re.sub(r"[^\x20-\x7e]", "?", str(message or phrase))[:200]
        self.send_body(code, _json_bytes({"error": text}), JSON_TYPE, head=self.command == "HEAD")

    def answer(self, head: bool) -> None:
        try:
            self.route(head)
        except (BrokenPipeError, ConnectionResetError):
            self.close_connection = True
        except Exception as error:  # a bug must not drop the connection: the client gets a 500 and a reason
            self.send_body(500, _json_bytes({"error": f"internal error: {type(error).__name__}"}), JSON_TYPE, head)

    def route(self, head: bool) -> None:
        if len(self.path) > MAX_URL:
            return self.send_json(414, {"error": "the request is too long"}, head)
        parts = urlsplit(self.path)
        try:
            path = unquote(parts.path, errors="strict")
        except UnicodeDecodeError:
            return self.send_json(400, {"error": "the path is not valid UTF-8"}, head)
        if any(ord(character) < 32 or ord(character) == 127 for character in path):
            return self.send_json(400, {"error": "the path holds control characters"}, head)
        if not path.startswith("/"):
            return self.send_json(400, {"error": "the path must start with /"}, head)
        if path == "/api/search":
            return self.api_search(parts.query, head)
        if path.startswith("/api/sections/"):
            return self.api_section(path[len("/api/sections/"):], head)
        if path.startswith("/api/"):
            return self.send_json(404, {"error": "unknown API path; try /api/search?q=... or /api/sections/<id>"}, head)
        self.static(path, parts.query, head)

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
        query = params.get("q", [""])[0]
        if len(query) > MAX_QUESTION:
            return self.send_json(400, {"error": f"the question is longer than {MAX_QUESTION} characters"}, head)
        index = self.site.current().index
        if index is None:
            return self.send_json(503, {"error": "this site was built without a search index"}, head)
        status, body = self.site.searches.answer(index, query, limit, kind)
        self.send_body(status, body, JSON_TYPE, head, cache="no-store", cors=True)

    def api_section(self, section_id: str, head: bool) -> None:
        corpus = self.site.current().section_corpus()
        if corpus is None:
            return self.send_json(503, {"error": "the sources of this site are not available to the server"}, head)
        found = find_section(corpus, section_id)
        if found is None:
            return self.send_json(404, {"error": f"no section {section_id!r}"}, head)
        self.send_json(200, section_view(corpus, *found), head)

    # -- files ----------------------------------------------------------------------------------

    def static(self, path: str, query: str, head: bool) -> None:
        generation = self.site.current()
        found = self.site.response(generation, path)
        if found is None and not path.endswith("/") and self.site.is_folder(path):
            location = quote(path) + "/" + (f"?{query}" if query else "")
            return self.send_body(301, b"", "text/plain; charset=utf-8", head, extra=[("Location", location)])
        if found is None:
            found = self.site.not_found_page(generation)
            if found is None:
                return self.send_body(404, b"Not found", "text/plain; charset=utf-8", head)
        gzip_ok = bool(found.packed) and accepts_gzip(self.headers.get("Accept-Encoding", ""))
        if gzip_ok:
            self.write(found.status, found.packed_head, found.packed, head)
        else:
            self.write(found.status, found.plain_head, found.body, head)

    # -- answers --------------------------------------------------------------------------------

    def send_json(self, status: int, data: dict, head: bool) -> None:
        self.send_body(status, _json_bytes(data), JSON_TYPE, head, cache="no-store", cors=True)

    def send_body(self, status: int, body: bytes, content_type: str, head: bool, cache: str = "no-cache",
                  cors: bool = False, extra: Optional[list] = None) -> None:
        fields = [("Content-Type", content_type), ("Content-Length", str(len(body))), ("Cache-Control", cache)]
        if cors:
            fields.append(("Access-Control-Allow-Origin", "*"))
        self.write(status, header_lines(fields + (extra or []) + security_headers()), body, head)

    def write(self, status: int, header_block: bytes, body: bytes, head: bool) -> None:
        """The whole answer in one write: status line, date, the given header lines, the body (not for HEAD)."""
        status_line = STATUS_LINES.get(status) or f"HTTP/1.1 {status} Unknown\r\n".encode()
        connection = (b"Connection: close\r\n" if self.close_connection
                      else b"Connection: keep-alive\r\n" if self.request_version == "HTTP/1.0" else b"")
        self.wfile.write(status_line + _date_line() + SERVER_LINE + connection + header_block + b"\r\n"
                         + (b"" if head else body))


_dates = threading.local()


def _date_line() -> bytes:
    """The Date header line, made once a second."""
    now = int(time.time())
    if getattr(_dates, "second", None) != now:
        _dates.second, _dates.line = now, f"Date: {formatdate(now, usegmt=True)}\r\n".encode()
    return _dates.line


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
          workers: Optional[int] = None, ready=None, search_processes: Optional[int] = None) -> None:
    """Serve until interrupted or terminated: `workers` front processes (default: one per two cores) on one
    socket, each with `search_processes` search processes (default: one per core)."""
    cores = os.cpu_count() or 1
    workers = workers or max(1, cores // 2)
    site = Site(out, sources, search_processes if search_processes is not None else cores)
    server = make_server(site, host, port)
    signal.signal(signal.SIGTERM, _stop_on_term)
    children = []
    if hasattr(os, "fork"):
        for _ in range(workers - 1):
            pid = os.fork()
            if pid == 0:                       # a front: the same socket, its own threads and search processes
                _run_front(server, site)
            children.append(pid)
    elif workers > 1:
        workers = 1
    if ready:
        ready(server.server_address)
    try:
        site.searches.start(server.fileno())
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
        site.searches.stop()
        for pid in children:
            try:
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
            except OSError:
                pass


def _run_front(server: ThreadingHTTPServer, site: Site) -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)        # the first process stops the others
    code = 0
    try:
        site.searches.start(server.fileno())
        server.serve_forever()
    except BaseException:
        code = 1
    finally:
        site.searches.stop()
        os._exit(code)


def _stop_on_term(signum, frame) -> None:
    raise KeyboardInterrupt


__all__ = ["Site", "make_server", "serve", "accepts_gzip"]
