"""`rulekb serve` on Starlette (routes, answers) and uvicorn (HTTP, processes): the only module importing them.

GET|HEAD /api/search?q=QUERY[&limit=N][&doc=cr]  -> the `rulekb search --json` answer
GET|HEAD /api/sections/<id>                      -> one section as `rulekb show --json` prints it
Anything else is a file of the site (in the form the client accepts best); a missing one gets the
site's 404 page. What is served comes from `generation.Site`, which follows new builds.

Bad or slow requests get 400/404/405/408/414/431 with a reason, never a dropped connection: uvicorn's parser
answers what it cannot parse (with our headers, `GuardedHttpTools`), `Checked` what it can. Every
answer carries the security headers. `serve` runs uvicorn's workers (one per core by default) on one
socket; its supervisor replaces a worker that dies, and a worker whose supervisor died stops.
"""
from __future__ import annotations

import contextlib
import functools
import json
import os
import re
import signal
import socket
import threading
from http import HTTPStatus
from pathlib import Path
from typing import Optional
from urllib.parse import parse_qs, quote, unquote

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route
from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn.supervisors import Multiprocess

from .. import kinds
from .files import security_headers
from .generation import Site
from .searching import SearchTurns, watch_parent

MAX_URL = 8192
MAX_HEAD = 65536                # bytes of a request line and its headers
MAX_HEADERS = 100
MAX_QUESTION = 500
KEEP_ALIVE_SECONDS = 30
HEAD_SECONDS = 30               # a request's head must come whole within this: a slow or silent client is let go
BACKLOG = 2048
WORKER_START_SECONDS = 60      # a worker not serving by then is left to uvicorn's supervision
KINDS = (None, *kinds.IDS)
JSON_HEADERS = {"Content-Type": "application/json; charset=utf-8", "Cache-Control": "no-store",
                "Access-Control-Allow-Origin": "*", **security_headers()}
METHODS = ("GET", "HEAD")
CONTROL = re.compile(r"[\x00-\x1f\x7f]")


# -- answers --------------------------------------------------------------------------------------

def json_answer(status: int, data: dict | bytes, extra: Optional[dict] = None) -> Response:
    body = data if isinstance(data, bytes) else json.dumps(data, ensure_ascii=False).encode("utf-8")
    return Response(body, status, {**JSON_HEADERS, **(extra or {})})


def plain_answer(status: int, body: bytes, extra: Optional[dict] = None) -> Response:
    return Response(body, status, {"Content-Type": "text/plain; charset=utf-8", "Cache-Control": "no-cache",
                                   **security_headers(), **(extra or {})})


async def static(request: Request) -> Response:
    generation = request.app.state.site.current()
    path = request.scope["path"]
    found, status = generation.file(path), 200
    if found is None and not path.endswith("/") and generation.is_folder(path):
        query = request.scope["query_string"].decode("latin-1")
        return plain_answer(301, b"", {"Location": quote(path) + "/" + (f"?{query}" if query else "")})
    if found is None:
        found, status = generation.file("/404.html"), 404
        if found is None:
            return plain_answer(404, b"Not found")
    encoding = found.encoding_for(request.headers.get("accept-encoding", ""))
    answer = found.answers.get((encoding, status))
    if answer is None:                       # made once per file, form and status: an answer can be sent again
        answer = found.answers[encoding, status] = Response(found.form(encoding), status,
                                                            found.header_fields(encoding))
    return answer


async def api_search(request: Request) -> Response:
    try:
        params = parse_qs(request.scope["query_string"].decode("latin-1"), keep_blank_values=True,
                          max_num_fields=20, errors="strict")
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
        return json_answer(400, {"error": f"doc must be one of {', '.join(kinds.IDS)}"})
    query = params.get("q", [""])[0]
    if len(query) > MAX_QUESTION:
        return json_answer(400, {"error": f"the question is longer than {MAX_QUESTION} characters"})
    language = params.get("lang", [None])[0]          # a translation chosen: its English glossary terms answer
    if language is not None and kinds.language(language) is None:
        return json_answer(400, {"error": f"lang must be one of {', '.join(kinds.LANGUAGE_BY_ID)}"})
    return json_answer(*await request.app.state.searches.answer(query, limit, kind, language))


async def api_section(request: Request) -> Response:
    sections = request.app.state.site.current().sections()
    if sections is None:
        return json_answer(503, {"error": "this site was built without its data files"})
    wanted = request.path_params["section_id"]
    edition = request.query_params.get("edition")
    try:
        view = sections.edition_view(wanted, edition) if edition else sections.view(wanted)
    except (OSError, ValueError, KeyError, IndexError):     # an edition's data missing or not whole
        return json_answer(404, {"error": f"no section {wanted!r} in the edition {edition!r}"})
    if view is None:
        where = f" in the edition {edition!r}" if edition else ""
        return json_answer(404, {"error": f"no section {wanted!r}{where}"})
    return json_answer(200, view)


async def api_unknown(request: Request) -> Response:
    return json_answer(404, {"error": "unknown API path; try /api/search?q=... or /api/sections/<id>"})


async def internal_error(request: Request, error: Exception) -> Response:
    """A bug must not drop the connection: the client gets a 500 and a reason."""
    return json_answer(500, {"error": f"internal error: {type(error).__name__}"})


def request_problem(scope) -> Optional[Response]:
    """What is wrong with a request uvicorn could parse (before it is routed), or None."""
    if scope["method"] not in METHODS:
        return json_answer(405, {"error": f"{scope['method']} is not allowed here; GET or HEAD"},
                           {"Allow": ", ".join(METHODS)})
    if len(scope["raw_path"]) + len(scope["query_string"]) > MAX_URL:
        return json_answer(414, {"error": "the request is too long"})
    if len(scope["headers"]) > MAX_HEADERS:
        return json_answer(431, {"error": "too many headers"}, {"Connection": "close"})
    try:
        path = unquote(scope["raw_path"].decode("ascii"), errors="strict")
    except UnicodeDecodeError:
        return json_answer(400, {"error": "the path is not valid UTF-8"})
    if CONTROL.search(path):
        return json_answer(400, {"error": "the path holds control characters"})
    if not path.startswith("/"):
        return json_answer(400, {"error": "the path must start with /"})
    return None


class Checked:
    """ASGI middleware: a request is routed only once `request_problem` finds nothing wrong with it."""

    def __init__(self, app):
        self.app = app

    async def __call__(self, scope, receive, send):
        problem = request_problem(scope) if scope["type"] == "http" else None
        await (problem or self.app)(scope, receive, send)


def create_app(site: Site | Path, supervisor: Optional[int] = None) -> Starlette:
    """The application serving a site (a `Site`, or its output folder). With `supervisor` (the process id of
    uvicorn's supervisor), it stops when that process is gone."""
    site = site if isinstance(site, Site) else Site(Path(site))
    searches = SearchTurns(site)

    @contextlib.asynccontextmanager
    async def lifespan(app):
        if supervisor is not None:
            watch_parent(supervisor, lambda: os.kill(os.getpid(), signal.SIGTERM))
        yield

    app = Starlette(routes=[
        Route("/api/search", api_search, methods=METHODS),
        Route("/api/sections/{section_id:path}", api_section, methods=METHODS),
        Route("/api/{rest:path}", api_unknown, methods=METHODS),
        Route("/{path:path}", static, methods=METHODS),
    ], exception_handlers={Exception: internal_error}, lifespan=lifespan)
    app.state.site, app.state.searches = site, searches
    app.add_middleware(Checked)
    return app


def from_environment() -> Starlette:
    """The application for another ASGI server (`uvicorn --factory`, gunicorn's uvicorn worker): the site in
    $RULEKB_SITE (default: site)."""
    return create_app(Path(os.environ.get("RULEKB_SITE", "site")))


# -- HTTP: what uvicorn's parser cannot parse ------------------------------------------------------

class GuardedHttpTools(HttpToolsProtocol):
    """uvicorn's httptools protocol with bounds on a request's head (MAX_HEAD bytes and MAX_HEADERS lines: 431;
    HEAD_SECONDS to come whole: 408) and our headers on the answer to a request it cannot parse."""

    head_bytes = 0
    too_large = False
    head_seconds = HEAD_SECONDS
    head_timer = None

    def connection_made(self, transport) -> None:
        # uvicorn writes an answer's head and body apart: with Nagle's algorithm the body would wait for the
        # client's delayed ACK (40 ms). asyncio turns it off only on sockets it made itself.
        connection = transport.get_extra_info("socket")
        if connection is not None and connection.family in (socket.AF_INET, socket.AF_INET6):
            connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        super().connection_made(transport)
        self._expect_head()

    def connection_lost(self, exc) -> None:
        if self.head_timer is not None:
            self.head_timer.cancel()
        super().connection_lost(exc)

    def data_received(self, data: bytes) -> None:
        if self.head_bytes == 0:
            self._expect_head()                  # a new request begins (uvicorn times only idle connections)
        self.head_bytes += len(data)
        if self.head_bytes > MAX_HEAD:           # never buffered without end
            self.too_large = True
            self.send_400_response("the request's head is too long")
            return
        super().data_received(data)

    def on_header(self, name: bytes, value: bytes) -> None:
        super().on_header(name, value)
        if len(self.headers) > MAX_HEADERS:
            self.too_large = True
            raise ValueError("too many headers")  # the parser stops: data_received answers

    def on_headers_complete(self) -> None:
        self.head_bytes = 0
        if self.head_timer is not None:
            self.head_timer.cancel()
            self.head_timer = None
        super().on_headers_complete()

    def _expect_head(self) -> None:
        if self.head_timer is None:
            self.head_timer = self.loop.call_later(self.head_seconds, self._head_late)

    def _head_late(self) -> None:
        self.head_timer = None
        if not self.transport.is_closing():
            self._refuse(408, "the request did not come whole in time")

    def send_400_response(self, msg: str) -> None:
        if self.too_large:
            self._refuse(431, msg)
        else:
            self._refuse(400, "malformed request")

    def _refuse(self, status: int, message: str) -> None:
        body = json.dumps({"error": message}).encode()
        fields = {**JSON_HEADERS, "Content-Length": str(len(body)), "Connection": "close"}
        head = [f"HTTP/1.1 {status} {HTTPStatus(status).phrase}\r\n".encode()]
        head += [name + b": " + value + b"\r\n" for name, value in self.server_state.default_headers]
        head += [f"{name}: {value}\r\n".encode("latin-1") for name, value in fields.items()]
        self.transport.write(b"".join(head) + b"\r\n" + body)
        self.transport.close()


# -- running it ------------------------------------------------------------------------------------

def _config(app, workers: int = 1, factory: bool = False) -> uvicorn.Config:
    return uvicorn.Config(app, factory=factory, workers=workers, http=GuardedHttpTools, ws="none", loop="asyncio",
                          lifespan="on", log_config=None, log_level="error", access_log=False,
                          server_header=False, timeout_keep_alive=KEEP_ALIVE_SECONDS,
                          timeout_graceful_shutdown=2, backlog=BACKLOG)


class Server:
    """The site served by uvicorn in the thread that calls serve_forever (the interface of the standard
    library's servers: server_address, serve_forever, shutdown, server_close). Stopping it closes the
    connections clients keep open."""

    def __init__(self, site: Site | Path, host: str = "127.0.0.1", port: int = 8000):
        self.socket = socket.create_server((host, port), backlog=BACKLOG)
        self.server_address = self.socket.getsockname()[:2]
        self.server = uvicorn.Server(_config(create_app(site)))
        self._finished = threading.Event()

    def serve_forever(self) -> None:
        try:
            self.server.run(sockets=[self.socket])
        finally:
            self._finished.set()

    def shutdown(self) -> None:
        """Stop serving (from another thread) and wait until it has."""
        self.server.should_exit = True
        self._finished.wait(timeout=30)

    def server_close(self) -> None:
        self.socket.close()


class Supervisor(Multiprocess):
    """uvicorn's supervisor, announcing that it serves only once every worker does. A client that came sooner
    would wait in the socket's queue for the first worker up, which takes every connection waiting there:
    with keep-alive, one process would serve them all while the others idle (seen in half the benchmark's
    runs, its 100 clients on one of two processes)."""

    def __init__(self, config: uvicorn.Config, sockets: list, announce) -> None:
        super().__init__(config, sockets)
        self.announce = announce

    def init_processes(self) -> None:
        super().init_processes()
        for process in self.processes:
            process.wait_until_ready(WORKER_START_SECONDS, self.should_exit)
        self.announce()


def serve(out: Path, host: str = "127.0.0.1", port: int = 8000, workers: Optional[int] = None,
          ready=None) -> None:
    """Serve until interrupted or terminated, on `workers` processes (default: one per core) sharing one
    socket; `ready(address)` is called once every worker serves."""
    workers = max(1, workers or os.cpu_count() or 1)
    listening = socket.create_server((host, port), backlog=BACKLOG)
    address = listening.getsockname()[:2]
    announce = functools.partial(ready, address) if ready else (lambda: None)
    if workers == 1:
        announce()                  # the one process: a client who comes first waits in the socket's queue
        uvicorn.Server(_config(create_app(Path(out)))).run(sockets=[listening])
        return
    app = functools.partial(create_app, Path(out), os.getpid())
    Supervisor(_config(app, workers, factory=True), [listening], announce).run()
