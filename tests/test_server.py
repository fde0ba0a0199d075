"""`rulekb serve` (Starlette on uvicorn): bad or slow requests get 400/404/405/408/414/431 with a reason,
never a dropped connection; security headers on every answer; the build's gzip form, or a brotli form made
once, only when accepted; HEAD wherever GET works; a rebuild is followed without a restart; /api/search and /api/sections
answer from what the build published (its search files and data files: sources/ may be gone), the same as
`rulekb search` and `rulekb show`; one server process per core, replaced when killed, ended with it.
"""
from __future__ import annotations

import contextlib
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

from conftest import FROZEN, ROOT, SEEDS
from processes import wait_for

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
    ("/api/search?q=" + "x" * 1200, 400), ("/" + "a" * 9000, 414),
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
    head = answer.split(b"\r\n\r\n")[0].lower()
    assert b"\r\nconnection: close" in head and b"\r\ncontent-security-policy: " in head


@pytest.mark.parametrize("opening", [b"", b"GET / HTTP/1.1\r\nHost: x\r\n"])
def test_a_client_too_slow_with_its_request_gets_408_and_is_let_go(server, monkeypatch, opening):
    from pipeline.serve.web import GuardedHttpTools
    monkeypatch.setattr(GuardedHttpTools, "head_seconds", 0.5)      # 30 s in service
    with socket.create_connection(server, timeout=30) as connection:
        connection.sendall(opening)                                # silent, or a head never finished
        received = b""
        while chunk := connection.recv(65536):
            received += chunk
    assert received.startswith(b"HTTP/1.1 408 ") and b"content-security-policy: " in received.lower()


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


@pytest.mark.parametrize("accept, encoding", [
    (None, None), ("gzip", "gzip"), ("gzip, deflate, br", "br"), ("gzip;q=0", None), ("gzip; q=0.0, br", "br"),
    ("identity", None), ("*", "br"), ("*;q=0", None), ("deflate", None), ("GZIP;Q=0.5", "gzip"),
    ("br;q=0.5, gzip", "gzip"), ("br;q=0.8, gzip;q=0.8", "br"), ("br;q=0, *", "gzip"), ("zstd, br", "br"),
])
def test_the_best_form_the_client_accepts(server, site, accept, encoding):
    status, headers, body = ask(server, "/", headers={"Accept-Encoding": accept} if accept else {})
    assert status == 200 and headers["vary"] == "Accept-Encoding"
    assert headers.get("content-encoding") == encoding
    assert headers["content-length"] == str(len(body))
    assert decompressed(body, encoding) == (site / "index.html").read_bytes()


def decompressed(body: bytes, encoding) -> bytes:
    import brotli
    return brotli.decompress(body) if encoding == "br" else gzip.decompress(body) if encoding == "gzip" else body


def test_the_build_writes_gzip_beside_each_text_file_and_the_server_sends_it_or_brotli_made_once(server, site):
    texts = [path for path in site.rglob("*") if path.suffix in (".html", ".css", ".js", ".json", ".svg", ".xml")
             and not any(part.startswith(".") for part in path.relative_to(site).parts)]
    assert len(texts) > 50
    for path in texts:
        body = path.read_bytes()
        form = path.with_name(path.name + ".gz")
        if len(body) > 1000:        # a form is written when it is smaller, as it always is past a few hundred bytes
            assert form.is_file(), form
        if form.is_file():
            assert gzip.decompress(form.read_bytes()) == body, form
            assert len(form.read_bytes()) < len(body) or form.name == "sitemap.xml.gz", form   # mkdocs writes that one
    assert not list(site.rglob("*.br"))         # one form on disk: brotli is made by the server when asked
    assert not list(site.rglob("*.png.gz")) and not list(site.rglob("*.gz.gz"))
    for path in ("/", "/cr/", "/assets/rulekb.css", "/data/index.json"):
        file = site / path.strip("/") / "index.html" if path.endswith("/") else site / path.strip("/")
        _, headers, body = ask(server, path, headers={"Accept-Encoding": "gzip"})
        assert headers["content-encoding"] == "gzip" and body == file.with_name(file.name + ".gz").read_bytes()
        answers = [ask(server, path, headers={"Accept-Encoding": "br"}) for _ in range(2)]
        assert all(headers["content-encoding"] == "br" for _, headers, _ in answers)
        assert decompressed(answers[0][2], "br") == file.read_bytes() and answers[0][2] == answers[1][2]
        assert len(answers[0][2]) < len(file.read_bytes())


def test_what_only_the_past_editions_read_has_no_form_on_disk_and_is_sent_compressed(tmp_path):
    """Three editions of a document: the past two's readers, their data and what changed between them are written
    without a compressed copy (rarely read: compressed when asked), what the current edition is read for with one."""
    from pipeline import api, load_corpus
    from pipeline.serve.files import load_file
    text = (SEEDS / SMALL["magic-online-floor-rules-2002.txt"]).read_text(encoding="utf-8")
    sources = tmp_path / "sources"
    sources.mkdir()
    manifest = ""
    for year, number in ((2001, "Two"), (2002, "Three"), (2003, "Four")):
        (sources / f"floor-{year}.txt").write_text(
            text.replace("Three is the default number", f"{number} is the default number"), encoding="utf-8")
        manifest += f'["floor-{year}.txt"]\nkind = "floor"\nedition = "{year}-01-01"\n\n'
    (sources / "manifest.toml").write_text(manifest, encoding="utf-8")
    result, _ = api.build(sources, tmp_path / "site")
    site = result.out
    editions = sorted(load_corpus(sources).editions, key=lambda info: info.edition)
    first, second, current = (info.id for info in editions)
    assert [info.current for info in editions] == [False, False, True]
    has_form = lambda path: (site / f"{path}.gz").is_file()
    past = [f"{first}/index.html", f"{second}/index.html", f"data/editions/floor/{first}.json",
            f"data/editions/floor/{second}.json", f"changes/{first}--{second}/index.html",
            *(path.relative_to(site).as_posix() for path in (site / "data/editions/floor").glob("w-*.json"))]
    assert all((site / path).is_file() and len((site / path).read_bytes()) > 1000 for path in past[:5])
    assert not [path for path in past if has_form(path)]
    assert all(has_form(path) for path in (f"{current}/index.html", f"changes/{second}--{current}/index.html",
                                           "changes/index.html", "index.html", "data/index.json"))
    for path in past[:5]:
        found = load_file(site / path)
        assert found.encoding_for("gzip") == "gzip" and gzip.decompress(found.form("gzip")) == (site / path).read_bytes()


def test_a_file_without_a_form_on_disk_is_compressed_by_the_server_once_or_sent_as_it_is(tmp_path):
    from pipeline.serve.files import load_file
    page = tmp_path / "page.html"
    page.write_text("<p>" + "the same words again " * 200 + "</p>", encoding="utf-8")
    found = load_file(page)
    assert found.encoding_for("gzip") == "gzip" and gzip.decompress(found.form("gzip")) == page.read_bytes()
    assert found.form("gzip") is found.form("gzip")          # made once, kept with the file
    tiny = tmp_path / "tiny.json"
    tiny.write_text("{}", encoding="utf-8")
    small = load_file(tiny)
    assert small.encoding_for("br, gzip") == "identity" and small.form("identity") == b"{}"   # no form is smaller


@pytest.mark.slow
def test_a_rebuild_compresses_only_what_changed_and_linked_pages_share_their_forms(tmp_path, built_site):
    from pipeline import api
    out = tmp_path / "site"
    api.build(small_sources(tmp_path / "sources"), out)
    before = {path.relative_to(out): path.stat().st_ino for path in out.rglob("*.gz")}
    api.build(small_sources(tmp_path / "sources", extra_word="zymurgical"), out)
    after = {path.relative_to(out): path.stat().st_ino for path in out.rglob("*.gz")}
    kept = [path for path in after if before.get(path) == after[path]]
    assert Path("assets/rulekb.css.gz") in kept and Path("data/floor.json.gz") not in kept   # the first one saved offline
    assert b"zymurgical" in gzip.decompress((out / "data/floor.json.gz").read_bytes())
    assert len(kept) > len(after) / 2
    pages = {}
    for page in built_site.rglob("index.html"):          # the typed numbers' addresses are hard links of one page
        pages.setdefault(page.stat().st_ino, []).append(page)
    linked = [group for group in pages.values() if len(group) > 1]
    assert linked
    for group in linked[:20]:
        assert len({page.with_name("index.html.gz").stat().st_ino for page in group}) == 1, group


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
    assert answer.startswith(b"HTTP/1.1 200 ") and b"\r\nconnection: close" in answer.lower()
    connection = http.client.HTTPConnection(*server, timeout=30)
    try:
        for _ in range(5):
            assert ask(server, "/", connection=connection)[0] == 200
    finally:
        connection.close()


def test_answers_one_after_another_on_a_connection_do_not_wait_for_the_client_s_acknowledgements(server):
    """A head and a body written apart, with Nagle's algorithm on, wait 40 ms for the client's delayed ACK each."""
    connection = http.client.HTTPConnection(*server, timeout=30)
    try:
        took = []
        for path in ["/", "/assets/rulekb.css", "/api/search?q=trampel", "/api/sections/floor:111"] * 6:
            started = time.perf_counter()
            assert ask(server, path, headers={"Accept-Encoding": "gzip"}, connection=connection)[0] == 200
            took.append(time.perf_counter() - started)
    finally:
        connection.close()
    assert sorted(took)[len(took) // 2] < 0.02, took           # a generous bound: a stalled answer takes 40 ms


# -- the generation and the server's processes ------------------------------------------------------

@pytest.mark.slow
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


def test_rulekb_serve_answers_from_one_process_per_core_replaced_when_killed_and_ended_with_it(site):
    from pipeline.bench.serving import _children, server_cpu, start_server, stop_server
    process, port = start_server(site)
    address = ("127.0.0.1", port)
    count = os.cpu_count() or 1
    try:
        workers = wait_for(lambda: _workers(process.pid) if len(_workers(process.pid)) == count else None,
                           f"{count} server processes starting (one per core)")
        questions = [f"match {n}" for n in range(40)] + [f"game {n}" for n in range(40)]
        with ThreadPoolExecutor(16) as pool:
            statuses = list(pool.map(lambda q: ask(address, f"/api/search?q={quote(q)}")[0], questions))
        assert statuses == [200] * len(questions)
        assert all(server_cpu(pid) > 0 for pid in workers)
        os.kill(workers[0], signal.SIGKILL)
        answers = [ask(address, f"/api/search?q=after+{n}")[0] for n in range(2 * count + 1)]
        assert answers == [200] * len(answers)                            # the others answer meanwhile
        replaced = wait_for(lambda: (lambda now: now if len(now) == count and workers[0] not in now else None)(
            _workers(process.pid)), f"{count} server processes again, the killed one replaced")
        assert ask(address, "/api/search?q=replaced")[0] == 200
        everyone = [process.pid] + _children(process.pid)
        assert set(replaced) <= set(everyone)
    finally:
        stop_server(process)
    wait_for(lambda: all(not Path(f"/proc/{pid}").exists() or _zombie(pid) for pid in everyone),
             "every process of the server ending")


def test_rulekb_serve_says_it_serves_once_every_process_waits_for_connections(site):
    """When `rulekb serve` prints its address, each of its processes already watches the socket: no client
    waits in the socket's queue for the first process up, which would take every connection waiting there."""
    from pipeline.bench.serving import start_server, stop_server
    process, port = start_server(site)
    try:
        workers = _workers(process.pid)
        assert len(workers) == (os.cpu_count() or 1)
        assert all(_watches_the_socket(pid, port) for pid in workers), workers
    finally:
        stop_server(process)


def _watches_the_socket(pid: int, port: int) -> bool:
    """Whether one of a process's epoll sets holds its listening socket on `port` (Linux's /proc)."""
    rows = [line.split() for line in Path("/proc/net/tcp").read_text().splitlines()[1:]]
    listening = {int(row[9]) for row in rows if int(row[1].split(":")[1], 16) == port and row[3] == "0A"}  # 0A: listen
    numbers, epolls = set(), []
    for entry in Path(f"/proc/{pid}/fd").iterdir():
        with contextlib.suppress(OSError):
            target = os.readlink(entry)
            if target.startswith("socket:[") and int(target[8:-1]) in listening:
                numbers.add(int(entry.name))
            elif target == "anon_inode:[eventpoll]":
                epolls.append(entry.name)
    watched = set()
    for epoll in epolls:
        with contextlib.suppress(OSError):
            watched |= {int(n) for n in re.findall(r"^tfd:\s*(\d+)", Path(f"/proc/{pid}/fdinfo/{epoll}").read_text(), re.M)}
    return bool(numbers & watched)


def _workers(pid: int) -> list[int]:
    """The server processes uvicorn's supervisor runs (not multiprocessing's resource tracker), alive."""
    from pipeline.bench.serving import _children
    found = []
    for child in _children(pid):
        try:
            command = Path(f"/proc/{child}/cmdline").read_bytes()
        except OSError:
            continue
        if b"spawn_main" in command and not _zombie(child):
            found.append(child)
    return found


# -- answers from what the build published -------------------------------------------------------

def test_the_api_answers_sections_and_searches_after_sources_are_deleted(site):
    """A server started while the module's site has no sources folder any more (moved away for the test, and back
    after it)."""
    from pipeline import api
    from pipeline.serve import Site, make_server
    sources = site.parent / "sources"        # (the module's site was built from it)
    expected = api.show("floor:111", sources)
    away = sources.rename(sources.with_name("sources-moved-away"))
    try:
        running = make_server(Site(site), port=0)
    except BaseException:
        away.rename(sources)
        raise
    threading.Thread(target=running.serve_forever, daemon=True).start()
    try:
        status, _, body = ask(running.server_address, "/api/sections/floor:111")
        assert status == 200 and json.loads(body) == expected
        assert "default number of games" in json.loads(body)["text"]
        status, _, body = ask(running.server_address, "/api/search?q=defualt+numbr+of+games")
        assert status == 200 and json.loads(body)["results"][0]["id"] == "floor:111"
    finally:
        running.shutdown()
        running.server_close()
        away.rename(sources)


SECTION_REFS = ["cr:704.5k", "704.5k", "cr 702.19b", "ipg:2.1", "2.1", "ipg 2.1", "mtr 3.3", "mtr:appendix-a",
                "appendix a", "concede", "City's Blessing", "trample", "cr:100", "jar:common-issues", "no:such", "9.9.9",
                "cr:glossary/term-abandon", "floor 111"]


@pytest.fixture(scope="module")
def published_sections(built_site):
    """The sections of the built site's current generation, read once as the server reads them once."""
    from pipeline.serve.generation import Site
    return Site(built_site).current().sections()


@pytest.mark.parametrize("ref", SECTION_REFS)
def test_a_section_from_the_published_data_is_what_rulekb_show_prints(published_sections, frozen_corpus, ref):
    from pipeline import api
    expected = api.show(ref, corpus=frozen_corpus)
    assert published_sections.view(ref) == expected


@pytest.mark.slow
def test_the_api_ranks_as_the_engine_does_on_the_published_search_files(built_site):
    """The server's ranking (search.ranking, on the browser's files) gives the engine's answers, scores included,
    on every question set, on questions misspelt as the benchmark misspells them and on questions naming each
    level ("at fnm"); and the browser's files give the whoosh index's answers. The entries it ranks without
    scoring them all are the first of the whole ranking."""
    from pipeline.bench.serving import new_questions
    from pipeline.search.engine import search
    from pipeline.search.index import KnowledgeBase
    from pipeline.search.published import PublishedIndex
    from pipeline.search.quality import read_questions
    from pipeline.search.question import MAX_RANKED, QueryError, levels, understand
    from pipeline.search.ranking import answer
    from pipeline.search.scoring import ranked
    from pipeline.site.publish import index_folder, published
    questions = [query for name in ("search.tsv", "search-more.tsv", "situations.tsv")
                 for query, _ in read_questions(ROOT / "tests" / "fixtures" / name)]
    misspelt = new_questions(questions)
    at_levels = [f"{words} at {level}" for level in sorted(levels())
                 for words in ("missed trigger", "drew an extra card", "deck problem")]
    asked = (questions + [next(misspelt) for _ in range(400)] + at_levels
             + ["rule 999.9", "ipg 9.9", "appendix z", "GRV", "mtr"])
    published_index = PublishedIndex(built_site / "search")
    kb = KnowledgeBase(index_folder(built_site, published(built_site)["generation"]))

    def answered(engine, index, query, limit, kind):
        try:
            return engine(index, query, limit=limit, kind=kind).as_json()
        except QueryError as error:
            return str(error)
    try:
        for query in asked:
            for limit, kind in ((10, None), (3, "mtr")):
                fast = answered(answer, published_index, query, limit, kind)
                assert fast == answered(search, published_index, query, limit, kind), query
                whoosh = answered(search, kb, query, limit, kind)
                ids = (lambda found: found if isinstance(found, str) else [r["id"] for r in found["results"]])
                assert ids(fast) == ids(whoosh), query
                if not isinstance(fast, str):
                    question = understand(query, published_index)
                    everything = ranked(published_index, question, kind or question.kind)
                    for best in (limit, MAX_RANKED):
                        assert ranked(published_index, question, kind or question.kind, best) == everything[:best], query
    finally:
        kb.close()


def _zombie(pid: int) -> bool:
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] in ("Z", "X")
    except OSError:
        return True


def test_the_api_answers_a_section_of_an_older_edition_when_asked(built_site, frozen_corpus):
    from pipeline import api
    from pipeline.serve import Site, make_server
    running = make_server(Site(built_site), port=0)
    threading.Thread(target=running.serve_forever, daemon=True).start()
    try:
        # 702.124m of the 2025-11-14 CR is 702.124k in the current edition: asked for, the older wording
        status, _, body = ask(running.server_address, "/api/sections/cr:702.124m?edition=cr-2025-11-14")
        expected = api.show("cr:702.124m", corpus=frozen_corpus, edition="cr-2025-11-14")
        answer = json.loads(body)
        assert status == 200 and answer["text"] == expected["text"] and answer["number"] == "702.124m"
        assert answer["document"] == {"id": "cr-2025-11-14", "title": "Comprehensive Rules", "edition": "2025-11-14",
                                      "current": False, "upcoming": False}
        status, _, body = ask(running.server_address, "/api/sections/cr:702.124m?edition=1999-01-01")
        assert status == 404 and "1999-01-01" in json.loads(body)["error"]
        status, _, body = ask(running.server_address, "/api/sections/cr:702.19b?edition=2026-01-16")
        assert status == 200 and json.loads(body) == api.show("cr:702.19b", corpus=frozen_corpus)
    finally:
        running.shutdown()
        running.server_close()
