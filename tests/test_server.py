"""`rulekb serve`: bad requests get 400/404/405/414/431 with a reason, never a dropped connection; security
headers on every answer; gzip only when accepted; HEAD wherever GET works; a rebuild is followed without a
restart; searches run in search processes of their own, which are replaced when they die, and end with it.
"""
from __future__ import annotations

import gzip
import hashlib
import http.client
import json
import os
import re
import shutil
import signal
import socket
import threading
import time
from base64 import b64encode
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import quote

import pytest

from conftest import FROZEN, SEEDS

SMALL = {"magic-online-floor-rules-2002.txt": "000_d5f726d99ad04a53.txt",
         "cr-2011-02-04-multiplayer-excerpt.txt": "002_75bbd6f8d1790816.txt",
         "ipg-2016-09-30-bluewizard-excerpt.html": "001_35b49a7900bc8bc7.txt"}
SECURITY = ("content-security-policy", "x-content-type-options", "referrer-policy", "x-frame-options")


def small_sources(folder: Path, extra_word: str = "") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for name, seed in SMALL.items():
        shutil.copyfile(SEEDS / seed, folder / name)
    shutil.copyfile(FROZEN / "manifest.toml", folder / "manifest.toml")
    if extra_word:
        floor = folder / "magic-online-floor-rules-2002.txt"
        floor.write_text(floor.read_text(encoding="utf-8").replace(
            "Three is the default number", f"Three ({extra_word}) is the default number"), encoding="utf-8")
    return folder


def wait_for(condition, what: str, timeout: float = 60.0):
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        value = condition()
        if value:
            return value
        time.sleep(0.02)
    pytest.fail(f"waited {timeout:.0f} s: {what}")


@pytest.fixture(scope="module")
def site(tmp_path_factory) -> Path:
    from pipeline import api
    root = tmp_path_factory.mktemp("served")
    result, _ = api.build(small_sources(root / "sources"), root / "site")
    return result.out


@pytest.fixture(scope="module")
def server(site):
    """The site served in a thread of this process (searches in threads): (host, port)."""
    from pipeline.serve import Site, make_server
    running = make_server(Site(site), port=0)
    thread = threading.Thread(target=running.serve_forever, daemon=True)
    thread.start()
    yield running.server_address
    running.shutdown()
    running.server_close()


def ask(address, path: str, method: str = "GET", headers: dict | None = None, connection=None):
    """(status, headers with lower-case names, body) of one request (on `connection` when given)."""
    own = connection is None
    connection = connection or http.client.HTTPConnection(*address, timeout=30)
    connection.putrequest(method, path, skip_accept_encoding=True)
    for name, value in (headers or {}).items():
        connection.putheader(name, value)
    connection.endheaders()
    response = connection.getresponse()
    body = response.read()
    found = (response.status, {name.lower(): value for name, value in response.getheaders()}, body)
    if own:
        connection.close()
    return found


def raw(address, data: bytes) -> bytes:
    """What the server answers to raw bytes, until it closes the connection."""
    with socket.create_connection(address, timeout=30) as connection:
        connection.sendall(data)
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    return received


# -- bad requests ---------------------------------------------------------------------------------

@pytest.mark.parametrize("path, status", [
    ("/cr/%00", 400), ("/%ff%fe", 400), ("/a%0d%0aSet-Cookie:%20x=1", 400), ("/api/search?q=%ff", 400),
    ("/api/search?q=x&limit=0", 400), ("/api/search?q=x&limit=many", 400), ("/api/search?q=x&doc=novel", 400),
    ("/api/search?q=" + "x" * 600, 400), ("/" + "a" * 9000, 414),
    ("/../../etc/passwd", 404), ("/%2e%2e/%2e%2e/etc/passwd", 404), ("/.rulekb-site", 404), ("/..%5c..%5cx", 404),
    ("/assets/../../.site.rulekb/lock", 404), ("/api/unknown", 404), ("/api/sections/no:such", 404),
    ("/no/such/page/", 404),
])
def test_a_bad_request_gets_its_status_and_the_connection_goes_on(server, path, status):
    connection = http.client.HTTPConnection(*server, timeout=30)
    try:
        found, headers, body = ask(server, path, connection=connection)
        assert found == status, body[:200]
        if path.startswith("/api/") or status in (400, 414):
            assert "error" in json.loads(body)
        again, _, _ = ask(server, "/", connection=connection)          # the same connection still answers
        assert again == 200
    finally:
        connection.close()


@pytest.mark.parametrize("request_bytes, status", [
    (b"GARBAGE\r\n\r\n", 400),
    (b"GET / HTTP/9.9\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\nNo colon here\r\n\r\n", 400),
    (b"GET / HTTP/1.1\r\n" + b"".join(b"X-%d: y\r\n" % n for n in range(200)) + b"\r\n", 431),
    (b"GET / HTTP/1.1\r\nX-Long: " + b"y" * 70000 + b"\r\n\r\n", 431),
    (b"GET /\x00 HTTP/1.1\r\n\r\n", 400),
])
def test_a_malformed_request_is_answered_before_the_connection_closes(server, request_bytes, status):
    answer = raw(server, request_bytes)
    assert answer.startswith(f"HTTP/1.1 {status} ".encode()), answer[:100]
    assert b"\r\nConnection: close\r\n" in answer and b"Content-Security-Policy" in answer


def test_other_methods_are_not_allowed(server):
    for method in ("POST", "PUT", "DELETE", "OPTIONS", "PATCH"):
        status, headers, _ = ask(server, "/api/search?q=x", method=method)
        assert status == 405 and headers["allow"] == "GET, HEAD"


# -- headers, negotiation, HEAD -------------------------------------------------------------------

@pytest.mark.parametrize("path", ["/", "/api/search?q=match", "/api/search?q=x&limit=0", "/no/such/page/", "/cr",
                                  "/assets/rulekb.css", "/data/index.json"])
def test_every_answer_carries_the_security_headers(server, path):
    status, headers, _ = ask(server, path)
    assert all(name in headers for name in SECURITY), (status, headers)
    assert headers["x-content-type-options"] == "nosniff" and headers["referrer-policy"] == "no-referrer"
    assert "object-src 'none'" in headers["content-security-policy"]
    assert "frame-ancestors 'none'" in headers["content-security-policy"]


def test_the_csp_allows_exactly_the_inline_scripts_of_the_page(server, site):
    page = (site / "index.html").read_bytes()
    scripts = re.findall(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", page, re.S | re.I)
    _, headers, _ = ask(server, "/")
    policy = headers["content-security-policy"]
    script_src = re.search(r"script-src ([^;]*)", policy).group(1)
    assert "'unsafe-inline'" not in script_src
    for script in scripts:
        assert f"'sha256-{b64encode(hashlib.sha256(script).digest()).decode()}'" in script_src


@pytest.mark.parametrize("accept, compressed", [
    (None, False), ("gzip", True), ("gzip, deflate, br", True), ("gzip;q=0", False), ("gzip; q=0.0, br", False),
    ("identity", False), ("*", True), ("*;q=0", False), ("deflate", False), ("GZIP;Q=0.5", True),
])
def test_gzip_only_for_clients_that_accept_it(server, site, accept, compressed):
    status, headers, body = ask(server, "/", headers={"Accept-Encoding": accept} if accept else {})
    assert status == 200 and headers["vary"] == "Accept-Encoding"
    assert (headers.get("content-encoding") == "gzip") == compressed
    assert (gzip.decompress(body) if compressed else body) == (site / "index.html").read_bytes()


@pytest.mark.parametrize("path", ["/", "/cr", "/api/search?q=match", "/api/search?q=", "/api/sections/floor:111",
                                  "/no/such/page/", "/api/search?limit=0", "/sitemap.xml"])
def test_head_answers_wherever_get_does_with_the_same_headers_and_no_body(server, path):
    got = ask(server, path, headers={"Accept-Encoding": "gzip"})
    head = ask(server, path, method="HEAD", headers={"Accept-Encoding": "gzip"})
    assert head[0] == got[0] and head[2] == b""
    assert head[1]["content-length"] == str(len(got[2]))
    assert {k: v for k, v in head[1].items() if k != "date"} == {k: v for k, v in got[1].items() if k != "date"}


def test_http_1_0_closes_and_keep_alive_keeps(server):
    answer = raw(server, b"GET /api/search?q=match HTTP/1.0\r\n\r\n")
    assert answer.startswith(b"HTTP/1.1 200 ") and b"Connection: close" in answer
    connection = http.client.HTTPConnection(*server, timeout=30)
    try:
        for _ in range(5):
            assert ask(server, "/", connection=connection)[0] == 200
    finally:
        connection.close()


# -- the generation and the search processes ------------------------------------------------------

def test_a_rebuild_is_followed_without_a_restart(tmp_path):
    from pipeline import api
    from pipeline.serve import Site, make_server
    from pipeline.site.publish import published, state_folder
    out = tmp_path / "site"
    api.build(small_sources(tmp_path / "sources"), out)
    running = make_server(Site(out), port=0)
    threading.Thread(target=running.serve_forever, daemon=True).start()
    try:
        address = running.server_address
        first = published(out)["generation"]
        assert json.loads(ask(address, "/api/search?q=zymurgical")[2])["results"] == []
        for word in ("zymurgical", "quixotically"):
            api.build(small_sources(tmp_path / "sources", extra_word=word), out)
            answer = json.loads(ask(address, f"/api/search?q={word}")[2])
            assert answer["results"] and answer["results"][0]["id"] == "floor:111", answer
            assert word in ask(address, "/data/floor.json")[2].decode("utf-8")       # the files too
            assert published(out)["generation"] != first
        assert len(list(state_folder(out).glob("index-*"))) <= 2
    finally:
        running.shutdown()
        running.server_close()


def test_rulekb_serve_searches_in_processes_of_its_own_replaced_when_killed_and_ended_with_it(site):
    from pipeline.bench.serving import _children, server_cpu, start_server, stop_server
    process, port = start_server(site, workers=1)
    address = ("127.0.0.1", port)
    try:
        count = os.cpu_count() or 1
        searchers = wait_for(lambda: len(_children(process.pid)) == count and _children(process.pid),
                             f"{count} search processes starting (one per core)")
        questions = [f"match {n}" for n in range(40)] + [f"game {n}" for n in range(40)]
        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(lambda q: ask(address, f"/api/search?q={quote(q)}")[0], questions))
        assert statuses == [200] * len(questions)
        used = {pid: server_cpu(pid) for pid in searchers}
        assert all(seconds > 0 for seconds in used.values()), used        # every search process took questions
        os.kill(searchers[0], signal.SIGKILL)
        answers = [ask(address, f"/api/search?q=after+{n}")[0] for n in range(2 * len(searchers) + 1)]
        assert set(answers) <= {200, 503} and answers[-1] == 200
        wait_for(lambda: len(_children(process.pid)) == len(searchers),   # replaced (the killed one reaped)
                 f"{len(searchers)} search processes again")
        everyone = [process.pid] + _children(process.pid)
    finally:
        stop_server(process)
    wait_for(lambda: all(not Path(f"/proc/{pid}").exists() or _zombie(pid) for pid in everyone),
             "every process of the server ending")


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True
