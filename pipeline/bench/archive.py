"""Every CR edition since 2003 in one site: how build time, memory and size grow with the editions kept.

Builds (cold cache) the newest 10, 40 and all editions of an archive of CR editions, each with the
current MTR and IPG of the sources, and prints pages, build time, peak memory, the site's size on
disk, the transferred (gzip) size of a rule's history page; then the rebuild time after adding one
edition to the whole archive (the comparison of one new pair, the histories it touches).
"""
from __future__ import annotations

import shutil
import tarfile
import tempfile
from pathlib import Path

from .common import disk_usage, gzip_size, run_build

ARCHIVE = Path("tests/fixtures/cr-archive.tar.xz")


def run(args) -> None:
    archive = Path(args.archive) if args.archive else ARCHIVE
    if not archive.exists():
        print(f"(no archive at {archive}: give --archive FOLDER or .tar.xz)")
        return
    sources = Path(args.sources)
    others = [path for path in sources.iterdir() if path.name.startswith(("mtr-2026", "ipg-2024"))]
    config = sources.resolve().parent / "mkdocs.yml"
    with tempfile.TemporaryDirectory(prefix="rulekb-archive-") as scratch:
        scratch = Path(scratch)
        editions = _editions(archive, scratch / "archive")
        print(f"{len(editions)} CR editions ({editions[0].name} to {editions[-1].name}) "
              f"with {', '.join(path.name for path in others)}")
        print(f"{'editions':>8} {'pages':>6} {'build s':>8} {'peak MB':>8} {'disk MB':>8} {'history KB':>11}")
        for size in (10, 40, len(editions)):
            _build(scratch, editions[-size:], others, config, f"{size}")
        # the whole archive but its newest edition, then the newest arrives: what a maintainer's rebuild costs
        folder, out, cache = _build(scratch, editions[:-1], others, config, "all-but-one", keep=True)
        shutil.copy(editions[-1], folder)
        seconds, memory = run_build(folder, out, cache, config if config.is_file() else None)
        print(f"rebuild after adding {editions[-1].name} to the other {len(editions) - 1}: {seconds:.1f} s, "
              f"peak {memory:.0f} MB")
    print("(cold cache for each build; peak memory of the build process and of its indexer, the larger; "
          "disk = blocks used, hard links once; the history page is CR 702's)")


def _build(scratch: Path, editions: list[Path], others: list[Path], config: Path, name: str, keep: bool = False):
    folder = scratch / f"sources-{name}"
    folder.mkdir()
    for path in editions + others:
        shutil.copy(path, folder)
    out, cache = scratch / f"site-{name}", scratch / f"cache-{name}"
    seconds, memory = run_build(folder, out, cache, config if config.is_file() else None)
    pages = sum(1 for page in out.rglob("index.html") if page.stat().st_nlink == 1)   # old addresses are links
    history = out / "history" / "cr" / "702" / "index.html"
    history_kb = gzip_size(history) / 1024 if history.is_file() else 0
    print(f"{len(editions):>8} {pages:>6} {seconds:>8.1f} {memory:>8.0f} {disk_usage(out) / 1e6:>8.1f} "
          f"{history_kb:>11.1f}")
    if not keep:
        for path in (folder, out, cache):
            shutil.rmtree(path, ignore_errors=True)
    return folder, out, cache


def _editions(archive: Path, folder: Path) -> list[Path]:
    """The archive's files in a folder, oldest first (a .tar.xz is unpacked)."""
    if archive.is_dir():
        return sorted(path for path in archive.iterdir() if path.suffix == ".txt")
    folder.mkdir(parents=True)
    with tarfile.open(archive) as bundle:
        bundle.extractall(folder, filter="data")
    return sorted(path for path in folder.iterdir() if path.suffix == ".txt")
