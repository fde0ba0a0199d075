"""`rulekb bench --only serving`: `rulekb serve` under 100 concurrent keep-alive clients for 10 s.

The server runs as `rulekb serve` does (its own processes, on 127.0.0.1, an ephemeral port). The
clients are coroutines of one asyncio loop in this process, each with one keep-alive connection
(as a browser keeps one), sending a request as soon as the answer to the previous one arrived:
half of them ask /api/search with real questions (the question sets of tests/fixtures), half ask
pages of the site (HTML pages, with the CSS and JavaScript they load). After a warm-up of one
second, each kind's requests/s, p50 and p99 latency and errors (a failed connection, a timeout,
an answer other than 200) are printed, twice:

- "repeated questions": the questions of the sets, over and over (a real site's questions repeat);
- "new questions": every search a question not asked before (a letter of a real question
  dropped, doubled or swapped), so no answer can come from a cache.

The machine's cores are shared by the server and this load generator: the CPU time each used
during the run is printed beside the figures, so the server's share can be judged. The site is
built from --sources into a scratch folder, or taken from RULEKB_BENCH_SITE (a built output
folder) to skip the build.
"""
from __future__ import annotations

import asyncio
import contextlib
import itertools
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Iterator, Optional
from urllib.parse import quote

from .common import percentile

CLIENTS = 100
SECONDS = 10.0
WARM_UP = 1.0
TIMEOUT = 10.0
QUESTION_SETS = ("tests/fixtures/search.tsv", "tests/fixtures/search-more.tsv")
FALLBACK_QUESTIONS = ("704.5k", "missed trigger", "hidden information", "slow play", "deck problem", "trample",
                      "state-based actions", "game loss", "looking at extra cards", "mulligan")


@dataclass
class Tally:
    """What the clients of one kind saw."""
    latencies: list[float] = field(default_factory=list)
    errors: int = 0
    reasons: dict[str, int] = field(default_factory=dict)

    def error(self, reason: str) -> None:
        self.errors += 1
        self.reasons[reason] = self.reasons.get(reason, 0) + 1


def run(args) -> None:
    given = os.environ.get("RULEKB_BENCH_SITE")
    with tempfile.TemporaryDirectory(prefix="rulekb-serve-bench-") as scratch:
        site = Path(given) if given else _build(Path(args.sources), Path(scratch))
        server, port = start_server(site)
        try:
            pages = page_paths(site)
            questions = read_all_questions()
            print(f"{CLIENTS} clients ({CLIENTS // 2} API, {CLIENTS - CLIENTS // 2} pages), keep-alive, "
                  f"{SECONDS:.0f} s each after {WARM_UP:.0f} s of warm-up; {len(pages)} pages, "
                  f"{len(questions)} questions; server: rulekb serve (pid {server.pid}), {os.cpu_count()} cores")
            for label, searches in (("repeated questions", repeated(questions)),
                                    ("new questions", new_questions(questions))):
                report(label, *drive(port, server.pid, pages, searches))
        finally:
            stop_server(server)


def _build(sources: Path, scratch: Path) -> Path:
    from .. import api
    copy = scratch / "sources"
    shutil.copytree(sources, copy)
    config = sources.resolve().parent / "mkdocs.yml"
    result, _ = api.build(copy, scratch / "site", config=config if config.is_file() else None)
    return result.out


def start_server(site: Path, workers: Optional[int] = None) -> tuple[subprocess.Popen, int]:
    """`rulekb serve` on an ephemeral port of 127.0.0.1: (its process, the port)."""
    command = [sys.executable, "-m", "pipeline", "serve", "--site", str(site), "--port", "0"]
    if workers:
        command += ["--workers", str(workers)]
    server = subprocess.Popen(command, stdout=subprocess.PIPE, text=True, start_new_session=True)
    line = server.stdout.readline()
    match = re.search(r"http://127\.0\.0\.1:(\d+)/", line)
    if not match:
        stop_server(server)
        raise SystemExit(f"bench: rulekb serve did not start: {line!r}")
    return server, int(match.group(1))


def stop_server(server: subprocess.Popen) -> None:
    """Stop the server and the worker processes of its session."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(server.pid, signal.SIGTERM)
    try:
        server.wait(timeout=10)
    except subprocess.TimeoutExpired:
        os.killpg(server.pid, signal.SIGKILL)
        server.wait()


def page_paths(site: Path) -> list[str]:
    """The site's HTML pages as addresses, and the stylesheets and scripts pages load."""
    pages = sorted("/" + path.parent.relative_to(site).as_posix().strip(".") + "/"
                   for path in site.rglob("index.html"))
    pages = [re.sub("/+", "/", page) for page in pages]
    assets = sorted("/" + path.relative_to(site).as_posix() for path in (site / "assets").rglob("*")
                    if path.suffix in (".css", ".js"))
    return [quote(path) for path in pages + assets[:20]]


def read_all_questions() -> list[str]:
    questions = []
    for name in QUESTION_SETS:
        if Path(name).is_file():
            from ..search.quality import read_questions
            questions += [query for query, _ in read_questions(Path(name))]
    return questions or list(FALLBACK_QUESTIONS)


def repeated(questions: list[str]) -> Iterator[str]:
    shuffled = list(questions)
    random.Random(1).shuffle(shuffled)
    return itertools.cycle(shuffled)


def new_questions(questions: list[str]) -> Iterator[str]:
    """Questions never asked before: a real one with a letter dropped, doubled or swapped (and a counter
    once those run out)."""
    seen: set[str] = set()
    chooser = random.Random(2)
    for count in itertools.count():
        question = chooser.choice(questions)
        at = chooser.randrange(len(question))
        edit = chooser.choice(("drop", "double", "swap"))
        if edit == "drop" and len(question) > 3:
            question = question[:at] + question[at + 1:]
        elif edit == "swap" and at + 1 < len(question):
            question = question[:at] + question[at + 1] + question[at] + question[at + 2:]
        else:
            question = question[:at] + question[at] + question[at:]
        if question in seen:
            question = f"{question} {count}"
        seen.add(question)
        yield question


def drive(port: int, server_pid: int, pages: list[str], searches: Iterator[str]):
    """Run the clients; (tallies per kind, seconds measured, CPU seconds of the server, of this process)."""
    return asyncio.run(_drive(port, server_pid, pages, searches))


async def _drive(port: int, server_pid: int, pages: list[str], searches: Iterator[str]):
    tallies = {"api": Tally(), "pages": Tally()}
    page_order = itertools.cycle(random.Random(3).sample(pages, len(pages)))
    api_paths = (f"/api/search?q={quote(question)}&limit=10" for question in searches)
    started = time.monotonic()
    measuring = {"from": started + WARM_UP, "until": started + WARM_UP + SECONDS}
    clients = [_client(port, "api" if number % 2 == 0 else "pages", api_paths if number % 2 == 0 else page_order,
                       tallies, measuring) for number in range(CLIENTS)]
    cpu_before = None

    async def mark_start():
        nonlocal cpu_before
        await asyncio.sleep(WARM_UP)
        cpu_before = (server_cpu(server_pid), own_cpu())
    marker = asyncio.ensure_future(mark_start())
    await asyncio.gather(*clients)
    await marker
    server_used, own_used = server_cpu(server_pid) - cpu_before[0], own_cpu() - cpu_before[1]
    return tallies, SECONDS, server_used, own_used


async def _client(port: int, kind: str, paths: Iterator[str], tallies: dict[str, Tally], measuring: dict) -> None:
    """One keep-alive connection asking one path after another until the run ends."""
    tally = tallies[kind]
    connection = None
    while time.monotonic() < measuring["until"]:
        path = next(paths)
        sent = time.monotonic()
        counted = sent >= measuring["from"]
        try:
            if connection is None:
                connection = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), TIMEOUT)
            status = await asyncio.wait_for(_exchange(connection, path), TIMEOUT)
        except (TimeoutError, OSError, asyncio.IncompleteReadError, ValueError) as error:
            if counted:
                tally.error(type(error).__name__)
            connection = _close(connection)
            continue
        if not counted:
            continue
        if status != 200:
            tally.error(f"HTTP {status}")
        else:
            tally.latencies.append(time.monotonic() - sent)
    _close(connection)


async def _exchange(connection, path: str) -> int:
    """One request on a keep-alive connection; the status of its answer (whose body is read whole)."""
    reader, writer = connection
    writer.write(f"GET {path} HTTP/1.1\r\nHost: 127.0.0.1\r\nAccept-Encoding: gzip\r\n"
                 f"User-Agent: rulekb-bench\r\n\r\n".encode("ascii"))
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    length = re.search(rb"\r\ncontent-length:\s*(\d+)", head, re.I)
    if length is None:
        raise ValueError("an answer without Content-Length")
    await reader.readexactly(int(length.group(1)))
    if re.search(rb"\r\nconnection:\s*close", head, re.I):
        raise ValueError("the server closed the connection")
    return status


def _close(connection) -> None:
    if connection is not None:
        connection[1].close()
    return None


def server_cpu(pid: int) -> float:
    """CPU seconds used so far by a process and its children still running (Linux /proc)."""
    total = 0.0
    tick = os.sysconf("SC_CLK_TCK")
    for process in [pid] + _children(pid):
        try:
            fields = Path(f"/proc/{process}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue
        total += (int(fields[11]) + int(fields[12])) / tick     # utime, stime
    return total


def _children(pid: int) -> list[int]:
    found = []
    try:
        for task in Path(f"/proc/{pid}/task").iterdir():
            found += [int(child) for child in (task / "children").read_text().split()]
    except OSError:
        pass
    return found + [grandchild for child in found for grandchild in _children(child)]


def own_cpu() -> float:
    times = os.times()
    return times.user + times.system


def report(label: str, tallies: dict[str, Tally], seconds: float, server_used: float, own_used: float) -> None:
    total = sum(len(t.latencies) for t in tallies.values())
    print(f"\n{label}: {total / seconds:,.0f} requests/s answered; CPU used over {seconds:.0f} s: "
          f"server {server_used:.1f} s ({server_used / max(1, total) * 1000:.2f} ms a request), load generator "
          f"{own_used:.1f} s (of {seconds * (os.cpu_count() or 1):.0f}); load average {os.getloadavg()[0]:.1f}")
    for kind, tally in tallies.items():
        values = tally.latencies
        reasons = ", ".join(f"{reason}: {count}" for reason, count in sorted(tally.reasons.items()))
        print(f"  {kind:<5}  {len(values) / seconds:7,.0f} req/s   p50 {percentile(values, 0.5) * 1000:7.1f} ms   "
              f"p99 {percentile(values, 0.99) * 1000:7.1f} ms   errors {tally.errors}"
              + (f" ({reasons})" if reasons else ""))
