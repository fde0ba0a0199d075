"""The build's one way to run work on several processes (pipeline.parallel): workers return their results, a
worker's exception comes back naming the file it concerns (and a build then fails cleanly, the old site kept),
and a worker dies with the process that forked it, under a subreaper too."""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
import textwrap
import time
from pathlib import Path

import pytest

import pipeline.corpus
import pipeline.diff.history
from pipeline import api, cache, parallel
from pipeline.cli import main
from pipeline.site.publish import STAGING_PREFIX, state_folder

from conftest import ROOT, SEEDS
from processes import gone, wait_for

FLOOR_RULES = SEEDS / "000_d5f726d99ad04a53.txt"      # the 2002 Magic Online floor rules (12 KB)


def test_workers_return_their_results_in_the_items_order():
    found = parallel.each(lambda number: (number * number, os.getpid()), range(12), str, workers=2)
    assert [square for square, _ in found] == [number * number for number in range(12)]
    assert os.getpid() not in {pid for _, pid in found}            # made in the workers, not here


def test_in_runs_neighbouring_items_go_to_one_worker_and_the_results_keep_their_order():
    def slow_square(number):
        time.sleep(0.01)            # (so that both workers take part)
        return number * number, os.getpid()
    found = parallel.each(slow_square, range(40), str, workers=2, runs=True)
    assert [square for square, _ in found] == [number * number for number in range(40)]
    pids = [pid for _, pid in found]
    handed_over = sum(1 for before, after in zip(pids, pids[1:]) if before != after)
    assert len(set(pids)) == 2 and handed_over < 8          # eight runs of five: a hand-over between runs at most


def test_a_call_in_a_fresh_process_returns_its_result_and_its_failure_is_raised_here():
    assert parallel.fresh(os.getpid) != os.getpid()
    assert parallel.fresh(divmod, 17, 5) == (3, 2)
    with pytest.raises(parallel.WorkFailed, match=r"^a count: ValueError: invalid literal"):
        parallel.fresh(int, "seven", concerns="a count")


def test_a_workers_exception_is_raised_here_naming_what_it_concerns():
    def fails_on_seven(number):
        if number == 7:
            raise ValueError(f"no sevens (process {os.getpid()})")
        return number

    with pytest.raises(parallel.WorkFailed) as failed:
        parallel.each(fails_on_seven, range(12), lambda number: f"file-{number}.txt", workers=2)
    assert failed.value.concerns == "file-7.txt"
    assert str(failed.value).startswith("file-7.txt: ValueError: no sevens (process ")
    assert f"(process {os.getpid()})" not in failed.value.error             # it happened in a worker
    assert "fails_on_seven" in failed.value.worker_traceback                  # whose traceback comes with it


def test_in_one_process_an_exception_is_reported_the_same_way():
    with pytest.raises(parallel.WorkFailed, match=r"^file-1\.txt: KeyError: 'x'$"):
        parallel.each(lambda number: {}["x"] if number else number, range(2), lambda n: f"file-{n}.txt", workers=1)


def test_a_worker_that_ends_abruptly_is_reported_with_its_item():
    with pytest.raises(parallel.WorkFailed, match=r"^file-2\.txt: its worker process ended abruptly"):
        parallel.each(lambda number: os._exit(9) if number == 2 else number, range(4), lambda n: f"file-{n}.txt",
                      workers=2)


def test_a_result_that_cannot_come_back_is_a_failure_of_its_item():
    with pytest.raises(parallel.WorkFailed, match=r"^file-1\.txt: .*pickle"):
        parallel.each(lambda number: (lambda: number) if number == 1 else number, range(3), lambda n: f"file-{n}.txt",
                      workers=2)


def test_a_failure_ends_the_other_workers_at_once(tmp_path):
    """One item fails while another is in the middle of a long piece of work: that worker is ended, not
    waited for (it would write "done" after 5 s)."""
    started = tmp_path / "started"

    def work(number):
        if number == 0:
            while not started.exists():                  # the other worker is busy
                time.sleep(0.01)
            raise RuntimeError("broken")
        started.write_text(str(os.getpid()))
        time.sleep(5)
        (tmp_path / "done").write_text("")

    with pytest.raises(parallel.WorkFailed, match="broken"):
        parallel.each(work, range(2), str, workers=2)
    assert gone(int(started.read_text()))
    time.sleep(0.1)
    assert not (tmp_path / "done").exists()


def test_the_background_work_returns_its_value_or_its_failure():
    assert parallel.Background(lambda: ("index", os.getpid()), "the search index").result()[1] != os.getpid()
    with pytest.raises(parallel.WorkFailed, match=r"^the search index: OSError: disk full$"):
        parallel.Background(lambda: (_ for _ in ()).throw(OSError("disk full")), "the search index").result()


def run_python(code: str, **kwargs) -> subprocess.Popen:
    return subprocess.Popen([sys.executable, "-c", textwrap.dedent(code)], env=dict(os.environ, PYTHONPATH=str(ROOT)),
                            stdout=subprocess.PIPE, text=True, **kwargs)


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal is Linux's")
def test_workers_die_with_the_process_that_forked_them():
    process = run_python("""
        import os, time
        from pipeline import parallel
        def work(number):
            os.write(1, f"{os.getpid()}\\n".encode())    # one write: two workers' lines never interleave
            time.sleep(600)
        parallel.each(work, range(2), str, workers=2)
    """)
    workers = [int(process.stdout.readline()) for _ in range(2)]
    process.send_signal(signal.SIGKILL)
    process.wait()
    for worker in workers:
        wait_for(lambda worker=worker: gone(worker), f"the worker {worker} ending with its parent")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="subreapers and prctl are Linux's")
def test_a_worker_whose_parent_died_before_it_started_ends_under_a_subreaper_too():
    """The parent dies before the worker has asked to die with it: the worker is adopted, here by a subreaper
    (as under systemd, tini or a container runtime), not by init, so its parent is not 1; it must see that its
    parent is no longer the one that forked it, and end."""
    process = run_python("""
        import ctypes, ctypes.util, os, time
        from pipeline import parallel
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        libc.prctl(36, 1)                                   # PR_SET_CHILD_SUBREAPER: orphans come here
        middle = os.fork()
        if middle == 0:
            parent = os.getpid()
            if os.fork() == 0:                              # the worker
                while os.getppid() == parent:               # its parent dies before it starts
                    time.sleep(0.01)
                adopter = os.getppid()
                parallel._die_with(parent)
                print("survived, adopted by", adopter, flush=True)
                os._exit(0)
            os._exit(0)
        os.waitpid(middle, 0)
        worker, status = os.wait()                          # the adopted worker is this process's child now
        print("adopted by", os.getpid(), "exit", os.waitstatus_to_exitcode(status), flush=True)
    """)
    output, _ = process.communicate(timeout=60)
    assert process.returncode == 0
    assert "survived" not in output
    assert output.strip() == f"adopted by {process.pid} exit 1"


# -- in a build ------------------------------------------------------------------------------------

def two_floor_editions(folder: Path) -> Path:
    """Two small editions of one document (the 2002 floor rules, and a copy with a word changed): two files to
    parse, and a pair to compare."""
    folder.mkdir(parents=True)
    text = FLOOR_RULES.read_text(encoding="utf-8")
    (folder / "floor-2002.txt").write_text(text, encoding="utf-8")
    (folder / "floor-2003.txt").write_text(text.replace("Three is the default number", "Four is the default number"),
                                          encoding="utf-8")
    (folder / "manifest.toml").write_text('["floor-2002.txt"]\nkind = "floor"\nedition = "2002-01-01"\n\n'
                                          '["floor-2003.txt"]\nkind = "floor"\nedition = "2003-01-01"\n')
    return folder


def snapshot(folder: Path) -> dict[str, str]:
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


@pytest.fixture(scope="module")
def built_once(tmp_path_factory) -> Path:
    """Sources and the site built from them (with a cache of their own), once for the module (read-only use)."""
    folder = tmp_path_factory.mktemp("built")
    cache.use_folder(folder / "cache")
    try:
        api.build(two_floor_editions(folder / "sources"), folder / "site", config=ROOT / "mkdocs.yml")
    finally:
        cache.use_folder(None)
    return folder


@pytest.fixture
def old_site(built_once, tmp_path):
    """A copy of the sources and their site, for this test to build again (a copy is cheaper than a build)."""
    shutil.copytree(built_once / "sources", tmp_path / "sources")
    for name in ("site", state_folder(Path("site")).name):      # the site and rulekb's own folder beside it
        if (built_once / name).exists():
            shutil.copytree(built_once / name, tmp_path / name, symlinks=True)
    cache.use_folder(tmp_path / "empty-cache")          # the next build makes everything again, on two workers
    yield tmp_path / "sources", tmp_path / "site"
    cache.use_folder(None)


@pytest.mark.parametrize("step, module, name, concerns", [
    ("parsing", pipeline.corpus, "parse_source", "floor-2003.txt"),
    ("comparing", pipeline.diff.history, "compare", "floor-2002.txt compared with floor-2003.txt"),
])
def test_a_workers_exception_in_the_build_names_its_file_and_the_old_site_is_kept(
        old_site, tmp_path, monkeypatch, capsys, step, module, name, concerns):
    sources, site = old_site
    before = snapshot(site)
    original = getattr(module, name)

    def broken(*args, **kwargs):
        if "Four is the default number" in repr(args):       # only the newer edition's work fails
            raise RuntimeError(f"broken while {step} in process {os.getpid()}")
        return original(*args, **kwargs)
    monkeypatch.setattr(module, name, broken)               # the forked workers inherit it
    monkeypatch.setattr(parallel, "cores", lambda: 2)
    monkeypatch.delenv("RULEKB_DEBUG", raising=False)

    with pytest.raises(parallel.WorkFailed) as failed:
        api.build(sources, site, config=ROOT / "mkdocs.yml")
    assert failed.value.concerns == concerns
    assert failed.value.error.startswith(f"RuntimeError: broken while {step} in process ")
    assert f"in process {os.getpid()}" not in failed.value.error              # raised in a worker
    assert snapshot(site) == before

    capsys.readouterr()
    cache.use_folder(tmp_path / "another-empty-cache")      # on two workers again
    assert main(["build", "--sources", str(sources), "--out", str(site), "--config", str(ROOT / "mkdocs.yml")]) == 1
    said = capsys.readouterr().err
    assert said.startswith(f"rulekb build: {concerns}: RuntimeError: broken while {step} in process ")
    assert said.rstrip().endswith("; the published site is unchanged") and "Traceback" not in said
    assert snapshot(site) == before
    assert not list(state_folder(site).glob(f"{STAGING_PREFIX}*"))
