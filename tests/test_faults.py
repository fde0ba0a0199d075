"""A build killed with SIGKILL at any moment leaves the published site and its index as they were (complete,
consistent, its indexer gone), and the next build succeeds and cleans up after it; two builds into one
output never publish an incomplete site (the second is refused, naming the first).

Builds run as `rulekb build` processes on small real sources. Each step of a build says it was reached
in the folder RULEKB_BUILD_CHECKPOINTS names, and waits at the step RULEKB_BUILD_PAUSE_AT names, so that
the test kills it at that moment (site.publish.checkpoint).
"""
from __future__ import annotations

import hashlib
import os
import shutil
import signal
import subprocess
import sys
from functools import partial
from pathlib import Path

import pytest

from pipeline.site.publish import MARKER, STAGING_PREFIX, index_folder, published, state_folder

from conftest import FROZEN, ROOT, SEEDS
from processes import gone
from processes import wait_for as waiting

wait_for = partial(waiting, timeout=120.0)      # whole builds: more time


pytestmark = pytest.mark.slow             # builds killed at every step: outside the fast lane (make fast)

SMALL = {"magic-online-floor-rules-2002.txt": "000_d5f726d99ad04a53.txt",
         "cr-2011-02-04-multiplayer-excerpt.txt": "002_75bbd6f8d1790816.txt",
         "ipg-2016-09-30-bluewizard-excerpt.html": "001_35b49a7900bc8bc7.txt"}
NEW_WORD = "zymurgical"            # only in the second edition of the sources
OLD_WORD = "Rochester"              # in both


def small_sources(folder: Path, new: bool) -> Path:
    folder.mkdir(parents=True)
    for name, seed in SMALL.items():
        shutil.copyfile(SEEDS / seed, folder / name)
    shutil.copyfile(FROZEN / "manifest.toml", folder / "manifest.toml")
    if new:
        floor = folder / "magic-online-floor-rules-2002.txt"
        floor.write_text(floor.read_text(encoding="utf-8").replace(
            "Three is the default number", f"Three ({NEW_WORD}) is the default number"), encoding="utf-8")
    return folder


def start_build(sources: Path, out: Path, checkpoints: Path, pause_at: str = "") -> subprocess.Popen:
    env = dict(os.environ, RULEKB_BUILD_CHECKPOINTS=str(checkpoints), RULEKB_BUILD_PAUSE_AT=pause_at,
               PYTHONPATH=str(ROOT))
    checkpoints.mkdir(parents=True, exist_ok=True)
    with open(checkpoints / "output.txt", "w") as output:      # a file, not a pipe: a leftover child cannot hold it
        return subprocess.Popen([sys.executable, "-m", "pipeline", "build", "--sources", str(sources), "--out",
                                 str(out)], env=env, cwd=out.parent, stdout=output, stderr=subprocess.STDOUT)


def finish(process: subprocess.Popen, checkpoints: Path) -> str:
    """Wait for a build process; what it printed."""
    process.wait(timeout=600)
    return (checkpoints / "output.txt").read_text(encoding="utf-8", errors="replace")


def build(sources: Path, out: Path, checkpoints: Path) -> str:
    process = start_build(sources, out, checkpoints)
    output = finish(process, checkpoints)
    assert process.returncode == 0, output
    return output


def snapshot(folder: Path) -> dict[str, str]:
    """Every file of a folder, by relative path, with the hash of its bytes."""
    return {path.relative_to(folder).as_posix(): hashlib.sha256(path.read_bytes()).hexdigest()
            for path in sorted(folder.rglob("*")) if path.is_file()}


def searched(out: Path, word: str) -> list[str]:
    from pipeline.search.engine import search
    from pipeline.search.index import KnowledgeBase
    kb = KnowledgeBase(index_folder(out, published(out)["generation"]))
    try:
        return [result.id for result in search(kb, word).results]
    finally:
        kb.close()


@pytest.fixture(scope="module")
def editions(tmp_path_factory):
    """The old and new sources, a published old site (with its index), and a reference build of the new."""
    root = tmp_path_factory.mktemp("faults")
    old = small_sources(root / "old-sources", new=False)
    new = small_sources(root / "new-sources", new=True)
    published_old = root / "published" / "site"
    published_old.parent.mkdir()
    build(old, published_old, root / "checkpoints-old")
    reference = root / "reference" / "site"
    reference.parent.mkdir()
    build(new, reference, root / "checkpoints-reference")
    return {"old": old, "new": new, "site": published_old, "reference": reference}


def fresh_copy(editions, tmp_path: Path) -> Path:
    """The published old site and its state folder, copied into a folder of this test."""
    site = editions["site"]
    out = tmp_path / "site"
    shutil.copytree(site, out, symlinks=True)
    shutil.copytree(state_folder(site), state_folder(out), symlinks=True)
    return out


STEPS = ["staged", "planned", "indexing", "rendering", "rendered", "publishing", "index-moved"]


@pytest.mark.parametrize("step", STEPS)
def test_a_killed_build_leaves_the_old_site_and_index_and_the_next_build_succeeds(editions, tmp_path, step):
    out = fresh_copy(editions, tmp_path)
    before, before_index = snapshot(out), published(out)["generation"]
    index_before = snapshot(index_folder(out, before_index))
    checkpoints = tmp_path / "checkpoints"
    process = start_build(editions["new"], out, checkpoints, pause_at="" if step == "rendering" else step)
    if step == "rendering":                       # in the middle of mkdocs: pages are being written
        wait_for(lambda: len(list(state_folder(out).glob(f"{STAGING_PREFIX}*/site/**/*.html"))) >= 3,
                 "mkdocs writing pages into the staging folder", timeout=300)
    else:
        wait_for(lambda: (checkpoints / step).is_file(), f"the build reaching {step!r}", timeout=300)
    indexer = int((checkpoints / "indexing").read_text()) if (checkpoints / "indexing").is_file() else None
    process.send_signal(signal.SIGKILL)
    process.wait()

    assert snapshot(out) == before                                   # the old site, every file as it was
    assert published(out)["generation"] == before_index
    assert snapshot(index_folder(out, before_index)) == index_before  # and its own index
    assert searched(out, OLD_WORD) and not searched(out, NEW_WORD)
    if indexer is not None:
        wait_for(lambda: gone(indexer), f"the indexer {indexer} ending with its build")

    build(editions["new"], out, tmp_path / "checkpoints-next")
    assert published(out)["generation"] != before_index
    assert searched(out, NEW_WORD)
    assert sorted(snapshot(out)) == sorted(snapshot(editions["reference"]))     # complete
    state = state_folder(out)
    assert not list(state.glob(f"{STAGING_PREFIX}*")), "the next build left staging folders"
    indexes = sorted(path.name for path in state.glob("index-*"))
    assert f"index-{published(out)['generation']}" in indexes and len(indexes) <= 2, indexes


def test_a_build_killed_right_after_the_swap_has_published_the_new_site_whole(editions, tmp_path):
    out = fresh_copy(editions, tmp_path)
    old_generation = published(out)["generation"]
    checkpoints = tmp_path / "checkpoints"
    process = start_build(editions["new"], out, checkpoints, pause_at="published")
    wait_for(lambda: (checkpoints / "published").is_file(), "the build publishing", timeout=300)
    process.send_signal(signal.SIGKILL)
    process.wait()
    assert published(out)["generation"] != old_generation
    assert sorted(snapshot(out)) == sorted(snapshot(editions["reference"]))
    assert searched(out, NEW_WORD)                                   # the new site with its own index
    build(editions["new"], out, tmp_path / "checkpoints-next")
    assert not list(state_folder(out).glob(f"{STAGING_PREFIX}*"))


def test_a_second_build_is_refused_naming_the_first_and_the_first_publishes_whole(editions, tmp_path):
    out = fresh_copy(editions, tmp_path)
    first_checkpoints = tmp_path / "first"
    first = start_build(editions["new"], out, first_checkpoints, pause_at="rendered")
    wait_for(lambda: (first_checkpoints / "rendered").is_file(), "the first build rendering", timeout=300)
    second = start_build(editions["new"], out, tmp_path / "second")
    refused = finish(second, tmp_path / "second")
    assert second.returncode == 2
    assert f"process {first.pid}" in refused and "another build" in refused
    killed = start_build(editions["old"], out, tmp_path / "third")      # a third, killed while it starts
    killed.send_signal(signal.SIGKILL)
    killed.wait()
    (first_checkpoints / "go-rendered").write_text("")
    output = finish(first, first_checkpoints)
    assert first.returncode == 0, output
    assert sorted(snapshot(out)) == sorted(snapshot(editions["reference"]))
    assert searched(out, NEW_WORD)


def test_a_site_left_between_the_two_renames_of_a_system_without_exchange_is_put_back(editions, tmp_path):
    """Where renameat2 is missing, publishing is two renames; a build killed between them left the old site in
    its (marked) staging folder and no site: the next build puts the old one back before anything else."""
    from pipeline.site.publish import clean_leftovers
    out = fresh_copy(editions, tmp_path)
    before = snapshot(out)
    staging = state_folder(out) / f"{STAGING_PREFIX}killed"
    staging.mkdir()
    (staging / MARKER).write_text("{}")
    os.rename(out, staging / "previous-site")
    clean_leftovers(out)
    assert snapshot(out) == before
    assert not staging.exists()
