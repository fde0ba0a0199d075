"""`rulekb serve`: a built site on 127.0.0.1, and a JSON API answered from the site's own search index.

GET|HEAD /api/search?q=QUERY[&limit=N][&doc=cr]  -> the `rulekb search --json` answer
GET|HEAD /api/sections/<id>                      -> one section as `rulekb show --json` prints it
Anything else is a file of the site; a missing one gets the site's 404 page.

It follows the published generation (see site.publish): after a rebuild, pages and answers both
come from the new site and its index, without a restart (the site's marker file is looked at on
every request; a new one means a new generation).

How it holds its load: an HTTP/1.1 server on one asyncio loop (connections kept alive, each
answer one write), in one or more front processes sharing the listening socket (`--workers`).
A front only does I/O: files come from memory (read once per generation, their gzip form made
once), so no page waits behind a search. Searches are CPU-bound: they run in search processes
(one per core, each with its own whoosh searcher), handed out in the order they came; recent
answers are kept, since the same questions come back. Bad requests get 400/404/405/414/431
with a reason, never a dropped connection; every answer carries security headers; gzip only
for clients that accept it; HEAD wherever GET works.
"""
from __future__ import annotations

import asyncio
import ctypes
import ctypes.util
import gzip
import hashlib
import json
import os
import pickle
import re
import signal
import socket
import struct
import threading
import time
from base64 import b64encode
from collections import OrderedDict, deque
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from email.utils import formatdate
from http import HTTPStatus
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qs, quote, unquote, urlsplit

from . import kinds
from .api import find_section, section_view
from .corpus import load_corpus
from .search.engine import search as search_index
from .search.index import KnowledgeBase
from .search.question import QueryError
from .site.publish import MARKER, index_folder, published, published_sources

BACKLOG = 1024
IDLE_SECONDS = 60               # a keep-alive connection idle this long is closed
SEARCH_SECONDS = 30             # a search that takes longer gets 503 (and its process is replaced)
ANSWERS_KEPT = 4096             # recent answers kept per front process (a few KB each)
MAX_URL = 8192
MAX_LINE = 16384                # the request line and each header line
MAX_HEADERS = 100
MAX_QUESTION = 500
TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".svg": "image/svg+xml", ".xml": "application/xml", ".txt": "text/plain; charset=utf-8",
         ".png": "image/png", ".ico": "image/x-icon", ".webmanifest": "application/manifest+json",
         ".woff2": "font/woff2", ".gz": "application/gzip"}
COMPRESSIBLE = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".webmanifest"}
INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)
KINDS = (None, *kinds.IDS)
JSON_TYPE = "application/json; charset=utf-8"
REQUEST_LINE = re.compile(r"([A-Z]{1,20}) ([!-~]+) HTTP/(1\.[01])")      # a target of visible ASCII only
HEADER_NAME = re.compile(r"[!#$%&'*+.^_`|~0-9A-Za-z-]+")
STATUS_LINES = {status.value: f"HTTP/1.1 {status.value} {status.phrase}\r\n".encode() for status in HTTPStatus}
SERVER_LINE = b"Server: rulekb\r\n"


# -- what is served: the generation of the site ---------------------------------------------------

@dataclass
class Response:
    """A file ready to send: its bytes and their gzip form (b"" when not compressible), and the header lines
    of each (everything but the status line, the date and Connection), made once."""
    status: int
    body: bytes
    packed: bytes
    plain_head: bytes
    packed_head: bytes

    def with_status(self, status: int) -> Response:
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
        parts = [part for part in url_path.split("/") if part]
        key = "/" + "/".join(parts) + ("/" if url_path.endswith("/") and parts else "")
        found = generation.files.get(key)
        if found is None:
            target = self.file_of(parts, key.endswith("/") or not parts)
            if target is None:
                return None
            try:
                found = load_file(target, 200)
            except OSError:
                return None
            if generation.key != ("none",):            # a published generation never changes: keep it
                generation.files[key] = found
        return found

    def file_of(self, parts: list[str], folder: bool) -> Optional[Path]:
        if any(part in ("..", ".") or part.startswith(".") or "\\" in part for part in parts):
            return None
        target = self.root.joinpath(*parts)
        if folder:
            target = target / "index.html"
        try:
            if not target.is_file() or not target.resolve().is_relative_to(self.root):
                return None
        except (OSError, ValueError):
            return None
        return target

    def is_folder(self, url_path: str) -> bool:
        return self.file_of([part for part in url_path.split("/") if part], True) is not None

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
    """The headers every answer carries: what a page may load and run (its own inline scripts, by hash)."""
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
    """Answers to /api/search: recent ones from memory, others from the search processes (or, with none,
    from threads each with its own whoosh searcher). An answer is (status, JSON bytes)."""

    def __init__(self, processes: int = 0):
        self.processes = SearchProcesses(processes) if processes else None
        self.threads = None if processes else ThreadPoolExecutor(max(2, os.cpu_count() or 1),
                                                                 thread_name_prefix="rulekb-search")
        self.local = threading.local()
        self.answers: OrderedDict = OrderedDict()

    def start(self) -> None:
        """Fork the search processes (before the loop and any thread of this process exist)."""
        if self.processes:
            self.processes.start()

    async def answer(self, index: Path, query: str, limit: int, kind: Optional[str]) -> tuple[int, bytes]:
        key = (str(index), query, limit, kind)
        found = self.answers.get(key)
        if found is not None:
            self.answers.move_to_end(key)
            return found
        if self.processes:
            found = await self.processes.ask(key)
        else:
            found = await asyncio.get_running_loop().run_in_executor(self.threads, search_in_thread, self.local, *key)
        if found[0] in (200, 400):
            self.answers[key] = found
            while len(self.answers) > ANSWERS_KEPT:
                self.answers.popitem(last=False)
        return found

    def stop(self) -> None:
        if self.processes:
            self.processes.stop()
        if self.threads:
            self.threads.shutdown(wait=False, cancel_futures=True)


class SearchProcesses:
    """Search processes, each answering the questions sent to it in order over a socket pair. Questions
    wait their turn in the order they came; each process is given the next one before it has answered
    the one it works on (`DEPTH` at a time), so it never idles while the front is busy sending pages. A
    process that dies or hangs is replaced."""
    DEPTH = 2

    def __init__(self, count: int):
        self.count = count
        self.children: dict[int, socket.socket] = {}        # pid -> our end of its socket pair
        self.slots: Optional[asyncio.Queue] = None           # a worker once for each question it may be sent

    def start(self) -> None:
        for _ in range(self.count):
            self._spawn()

    def _spawn(self) -> tuple[int, socket.socket]:
        ours, theirs = socket.socketpair()
        pid = os.fork()
        if pid == 0:
            _search_process(theirs)                           # never returns
        theirs.close()
        self.children[pid] = ours
        return pid, ours

    async def _add(self, pid: int, ours: socket.socket) -> None:
        worker = await _Worker.connect(pid, ours)
        for _ in range(self.DEPTH):
            self.slots.put_nowait(worker)

    async def ask(self, question: tuple) -> tuple[int, bytes]:
        if self.slots is None:
            self.slots = asyncio.Queue()
            for pid, ours in list(self.children.items()):
                await self._add(pid, ours)
        worker = await self.slots.get()
        while worker.replaced:                               # a slot of a process already replaced
            worker = await self.slots.get()
        try:
            async with asyncio.timeout(SEARCH_SECONDS):
                answer = await worker.send(question)
        except (OSError, EOFError, asyncio.IncompleteReadError, TimeoutError, pickle.PickleError):
            if not worker.replaced:
                worker.replaced = True
                self._end(worker.pid, worker.writer)
                await self._add(*self._spawn())
            return 503, _json_bytes({"error": "the search failed or took too long; try again"})
        self.slots.put_nowait(worker)
        return answer

    def _end(self, pid: int, writer) -> None:
        writer.close()
        self.children.pop(pid, None)
        try:
            os.kill(pid, signal.SIGKILL)
            os.waitpid(pid, 0)
        except OSError:
            pass

    def stop(self) -> None:
        for pid, ours in list(self.children.items()):
            ours.close()                                      # the process sees the end of its questions
            try:
                os.kill(pid, signal.SIGTERM)
                os.waitpid(pid, 0)
            except OSError:
                pass
        self.children.clear()


class _Worker:
    """Our end of a search process: questions written as they come, answers read back in the same order."""

    def __init__(self, pid: int, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        self.pid, self.reader, self.writer = pid, reader, writer
        self.alive = True              # False once its answers can no longer come
        self.replaced = False          # True once a new process took its place
        self.waiting: deque = deque()
        self.reading = asyncio.ensure_future(self._answers())

    @classmethod
    async def connect(cls, pid: int, ours: socket.socket) -> _Worker:
        reader, writer = await asyncio.open_connection(sock=ours)
        return cls(pid, reader, writer)

    def send(self, question: tuple) -> asyncio.Future:
        if not self.alive:
            raise EOFError(f"search process {self.pid} has ended")
        answer = asyncio.get_running_loop().create_future()
        self.waiting.append(answer)
        data = pickle.dumps(question)
        self.writer.write(struct.pack("!I", len(data)) + data)
        return answer

    async def _answers(self) -> None:
        try:
            while True:
                size = struct.unpack("!I", await self.reader.readexactly(4))[0]
                answer = pickle.loads(await self.reader.readexactly(size))
                waiting = self.waiting.popleft()
                if not waiting.done():
                    waiting.set_result(answer)
        except (OSError, EOFError, asyncio.IncompleteReadError, pickle.PickleError, IndexError) as error:
            self.alive = False
            while self.waiting:                              # the process is gone: its questions fail
                waiting = self.waiting.popleft()
                if not waiting.done():
                    waiting.set_exception(EOFError(str(error)))


def _search_process(theirs: socket.socket) -> None:
    """A search process: keeps only its socket (no client connection, no listening socket), dies with its
    front, ignores Ctrl-C (the server's to handle), answers questions until its socket closes."""
    code = 0
    try:
        keep = theirs.fileno()
        os.closerange(3, keep)
        os.closerange(keep + 1, 65536)
        die_with_parent()
        signal.signal(signal.SIGINT, signal.SIG_IGN)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        searchers: dict[str, KnowledgeBase] = {}
        while True:
            header = _receive(theirs, 4)
            if header is None:
                break
            question = pickle.loads(_receive(theirs, struct.unpack("!I", header)[0]))
            data = pickle.dumps(search_in_process(searchers, *question))
            theirs.sendall(struct.pack("!I", len(data)) + data)
    except BaseException:
        code = 1
    finally:
        os._exit(code)


def _receive(connection: socket.socket, size: int) -> Optional[bytes]:
    data = b""
    while len(data) < size:
        chunk = connection.recv(size - len(data))
        if not chunk:
            return None
        data += chunk
    return data


def die_with_parent() -> None:
    """Linux: this process gets SIGKILL when its parent dies (no search process outlives its server)."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(1, signal.SIGKILL)           # PR_SET_PDEATHSIG
    except (OSError, AttributeError, TypeError):
        return
    if os.getppid() == 1:                       # the parent died before prctl
        os._exit(1)


def search_in_process(searchers: dict, index: str, query: str, limit: int, kind: Optional[str]) -> tuple[int, bytes]:
    """The answer from this process's searcher of `index` (the newest one asked; older ones closed)."""
    kb = searchers.get(index)
    if kb is None:
        for old in searchers.values():
            old.close()
        searchers.clear()
        kb = searchers[index] = KnowledgeBase(index)
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


# -- HTTP: reading a request ----------------------------------------------------------------------

@dataclass
class Request:
    method: str
    target: str
    version: str
    headers: dict        # lower-cased name -> value (a repeated header's values joined by commas)

    @property
    def keep_alive(self) -> bool:
        connection = self.headers.get("connection", "").lower()
        if "close" in connection:
            return False
        if self.headers.get("content-length", "0") != "0" or "transfer-encoding" in self.headers:
            return False            # a body is never read: the connection cannot go on after it
        return self.version == "1.1" or "keep-alive" in connection


class BadRequest(Exception):
    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


async def read_request(reader: asyncio.StreamReader) -> Optional[Request]:
    """The next request of a connection; None when the client closed it; BadRequest when it is malformed."""
    line = await _line(reader)
    while line in (b"\r\n", b"\n"):              # empty lines before a request are allowed
        line = await _line(reader)
    if not line:
        return None
    match = REQUEST_LINE.fullmatch(line.decode("latin-1").rstrip("\r\n"))
    if match is None:
        raise BadRequest(400, "malformed request line")
    headers: dict[str, str] = {}
    for _ in range(MAX_HEADERS + 1):
        line = await _line(reader)
        if line in (b"\r\n", b"\n"):
            return Request(match.group(1), match.group(2), match.group(3), headers)
        name, colon, value = line.decode("latin-1").partition(":")
        if not colon or not HEADER_NAME.fullmatch(name):
            raise BadRequest(400, "malformed header")
        name, value = name.lower(), value.strip()
        headers[name] = f"{headers[name]}, {value}" if name in headers else value
    raise BadRequest(431, "too many headers")


async def _line(reader: asyncio.StreamReader) -> bytes:
    try:
        line = await reader.readline()
    except ValueError:                           # longer than the stream's limit
        raise BadRequest(431, "a line of the request is too long") from None
    if line and not line.endswith(b"\n"):
        raise BadRequest(400, "the request ended in the middle of a line")
    return line


# -- HTTP: answering ------------------------------------------------------------------------------

@dataclass
class Answer:
    status: int
    head: bytes          # header lines but the status line, Date and Connection
    body: bytes


def json_answer(status: int, data: dict | bytes, extra: Optional[list] = None) -> Answer:
    body = data if isinstance(data, bytes) else _json_bytes(data)
    fields = [("Content-Type", JSON_TYPE), ("Content-Length", str(len(body))), ("Cache-Control", "no-store"),
              ("Access-Control-Allow-Origin", "*")] + (extra or [])
    return Answer(status, header_lines(fields + security_headers()), body)


def plain_answer(status: int, body: bytes, extra: Optional[list] = None) -> Answer:
    fields = [("Content-Type", "text/plain; charset=utf-8"), ("Content-Length", str(len(body))),
              ("Cache-Control", "no-cache")] + (extra or [])
    return Answer(status, header_lines(fields + security_headers()), body)


class Router:
    """What to answer to a request: a file of the site, or the API."""

    def __init__(self, site: Site):
        self.site = site
        self.blocking = ThreadPoolExecutor(2, thread_name_prefix="rulekb-sections")

    async def answer(self, request: Request) -> Answer:
        if request.method not in ("GET", "HEAD"):
            return json_answer(405, {"error": f"{request.method} is not allowed here; GET or HEAD"},
                               [("Allow", "GET, HEAD")])
        if len(request.target) > MAX_URL:
            return json_answer(414, {"error": "the request is too long"})
        parts = urlsplit(request.target)
        try:
            path = unquote(parts.path, errors="strict")
        except UnicodeDecodeError:
            return json_answer(400, {"error": "the path is not valid UTF-8"})
        if any(ord(character) < 32 or ord(character) == 127 for character in path):
            return json_answer(400, {"error": "the path holds control characters"})
        if not path.startswith("/"):
            return json_answer(400, {"error": "the path must start with /"})
        if path == "/api/search":
            return await self.api_search(parts.query)
        if path.startswith("/api/sections/"):
            return await self.api_section(path[len("/api/sections/"):])
        if path.startswith("/api/"):
            return json_answer(404, {"error": "unknown API path; try /api/search?q=... or /api/sections/<id>"})
        return self.static(path, parts.query, request)

    async def api_search(self, query_string: str) -> Answer:
        try:
            params = parse_qs(query_string, keep_blank_values=True, max_num_fields=20, errors="strict")
        except (ValueError, UnicodeDecodeError) as error:
            return json_answer(400, {"error": f"malformed query string: {error}"})
        try:
            limit = int(params.get("limit", ["10"])[0])
        except ValueError:
            return json_answer(400, {"error": "limit must be a whole number"})
        if not 1 <= limit <= 100:
            return json_answer(400, {"error": "limit must be between 1 and 100"})
        kind = params.get("doc", [None])[0]
        if kind not in KINDS:
            return json_answer(400, {"error": "doc must be one of cr, mtr, ipg, jar, floor"})
        query = params.get("q", [""])[0]
        if len(query) > MAX_QUESTION:
            return json_answer(400, {"error": f"the question is longer than {MAX_QUESTION} characters"})
        index = self.site.current().index
        if index is None:
            return json_answer(503, {"error": "this site was built without a search index"})
        status, body = await self.site.searches.answer(index, query, limit, kind)
        return json_answer(status, body)

    async def api_section(self, section_id: str) -> Answer:
        generation = self.site.current()
        return await asyncio.get_running_loop().run_in_executor(self.blocking, self._section, generation, section_id)

    def _section(self, generation: Generation, section_id: str) -> Answer:
        corpus = generation.section_corpus()
        if corpus is None:
            return json_answer(503, {"error": "the sources of this site are not available to the server"})
        found = find_section(corpus, section_id)
        if found is None:
            return json_answer(404, {"error": f"no section {section_id!r}"})
        return json_answer(200, section_view(corpus, *found))

    def static(self, path: str, query: str, request: Request) -> Answer:
        generation = self.site.current()
        found = self.site.response(generation, path)
        if found is None and not path.endswith("/") and self.site.is_folder(path):
            location = quote(path) + "/" + (f"?{query}" if query else "")
            return plain_answer(301, b"", [("Location", location)])
        if found is None:
            found = self.site.not_found_page(generation)
            if found is None:
                return plain_answer(404, b"Not found")
        if found.packed and accepts_gzip(request.headers.get("accept-encoding", "")):
            return Answer(found.status, found.packed_head, found.packed)
        return Answer(found.status, found.plain_head, found.body)


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


_date = {"second": None, "line": b""}


def _date_line() -> bytes:
    """The Date header line, made once a second."""
    now = int(time.time())
    if _date["second"] != now:
        _date["line"] = f"Date: {formatdate(now, usegmt=True)}\r\n".encode()
        _date["second"] = now
    return _date["line"]


def encode(answer: Answer, head_only: bool, close: bool, http10: bool) -> bytes:
    """The whole answer as bytes, written at once: status line, date, header lines, body (not for HEAD)."""
    status_line = STATUS_LINES.get(answer.status) or f"HTTP/1.1 {answer.status} Unknown\r\n".encode()
    connection = b"Connection: close\r\n" if close else b"Connection: keep-alive\r\n" if http10 else b""
    return (status_line + _date_line() + SERVER_LINE + connection + answer.head + b"\r\n"
            + (b"" if head_only else answer.body))


# -- the server -----------------------------------------------------------------------------------

class Server:
    """An HTTP/1.1 server on an asyncio loop in the thread that calls serve_forever (the interface of the
    standard library's servers: server_address, serve_forever, shutdown, server_close)."""

    def __init__(self, site: Site, host: str = "127.0.0.1", port: int = 8000):
        self.site = site
        self.router = Router(site)
        self.socket = socket.create_server((host, port), backlog=BACKLOG)
        self.server_address = self.socket.getsockname()[:2]
        self._loop: Optional[asyncio.AbstractEventLoop] = None
        self._stop: Optional[asyncio.Event] = None
        self._started = threading.Event()
        self._finished = threading.Event()
        self._writers: set = set()
        self._tasks: set = set()

    def fileno(self) -> int:
        return self.socket.fileno()

    def serve_forever(self, handle_signals: bool = False) -> None:
        try:
            asyncio.run(self._serve(handle_signals))
        finally:
            self._finished.set()

    async def _serve(self, handle_signals: bool) -> None:
        self._loop = asyncio.get_running_loop()
        self._stop = asyncio.Event()
        if handle_signals:
            for signum in (signal.SIGINT, signal.SIGTERM):
                self._loop.add_signal_handler(signum, self._stop.set)
        server = await asyncio.start_server(self._connection, sock=self.socket, limit=MAX_LINE, backlog=BACKLOG)
        self._started.set()
        try:
            await self._stop.wait()
        finally:
            server.close()
            for writer in list(self._writers):
                writer.close()
            # let each connection see its end and finish: a task still running when the loop stops is
            # cancelled, and Python 3.11's streams log that as an error
            tasks = [task for task in self._tasks if not task.done()]
            if tasks:
                await asyncio.wait(tasks, timeout=2)

    def shutdown(self) -> None:
        """Stop serving (from another thread) and wait until it has."""
        if self._started.wait(timeout=30) and self._loop is not None:
            self._loop.call_soon_threadsafe(self._stop.set)
            self._finished.wait(timeout=30)

    def server_close(self) -> None:
        self.socket.close()

    async def _connection(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        """One connection: its requests one after another, until it closes, errs or idles."""
        self._writers.add(writer)
        task = asyncio.current_task()
        self._tasks.add(task)
        try:
            while True:
                try:
                    async with asyncio.timeout(IDLE_SECONDS):
                        request = await read_request(reader)
                except BadRequest as error:
                    writer.write(encode(json_answer(error.status, {"error": str(error)}), False, True, False))
                    await writer.drain()
                    break
                if request is None:
                    break
                answer = await self._answer(request)
                close = not request.keep_alive
                writer.write(encode(answer, request.method == "HEAD", close, request.version == "1.0"))
                await writer.drain()
                if close:
                    break
        except (OSError, TimeoutError, asyncio.IncompleteReadError):
            pass
        finally:
            self._writers.discard(writer)
            self._tasks.discard(task)
            writer.close()

    async def _answer(self, request: Request) -> Answer:
        try:
            return await self.router.answer(request)
        except Exception as error:  # a bug must not drop the connection: the client gets a 500 and a reason
            return json_answer(500, {"error": f"internal error: {type(error).__name__}"})


def make_server(site: Site, host: str = "127.0.0.1", port: int = 8000) -> Server:
    return Server(site, host, port)


def serve(out: Path, sources: Optional[Path] = None, host: str = "127.0.0.1", port: int = 8000,
          workers: Optional[int] = None, ready=None, search_processes: Optional[int] = None) -> None:
    """Serve until interrupted or terminated: `workers` front processes (default one) on one socket, each with
    `search_processes` search processes (default: one per core)."""
    cores = os.cpu_count() or 1
    workers = max(1, workers or 1) if hasattr(os, "fork") else 1
    site = Site(out, sources, search_processes if search_processes is not None else cores)
    server = make_server(site, host, port)
    children = []
    for _ in range(workers - 1):
        pid = os.fork()
        if pid == 0:                       # a front: the same socket, its own loop and search processes
            _run_front(server, site)
        children.append(pid)
    if ready:
        ready(server.server_address)
    try:
        site.searches.start()
        server.serve_forever(handle_signals=True)
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


def _run_front(server: Server, site: Site) -> None:
    die_with_parent()
    code = 0
    try:
        site.searches.start()
        server.serve_forever(handle_signals=True)
    except BaseException:
        code = 1
    finally:
        site.searches.stop()
        os._exit(code)


__all__ = ["Site", "Server", "make_server", "serve", "accepts_gzip"]
