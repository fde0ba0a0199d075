"""What the benchmark parts share: timing, building into scratch folders, sizes on the wire."""
from __future__ import annotations

import gc
import gzip
import json
import os
import re
import resource
import subprocess
import sys
import time
from pathlib import Path
from typing import Optional

from ..site.offline_figures import linked_pages


def best_of(runs: int, function) -> float:
    """The shortest time of `runs` calls of `function`: until it returns its result, which is freed after the
    clock stops (freeing what a call made is no part of making it), with the garbage collected before each."""
    times = []
    held = []
    for _ in range(runs):
        held.clear()
        gc.collect()
        started = time.perf_counter()
        held.append(function())
        times.append(time.perf_counter() - started)
    return min(times)


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, max(0, int(round(fraction * len(ordered))) - 1))] if ordered else 0.0


def run_build(sources: Path, out: Path, cache: Path, config: Optional[Path] = None) -> tuple[float, float]:
    """`rulekb build` in a process of its own: (seconds, peak memory in MB of it and its children)."""
    env = dict(os.environ, RULEKB_CACHE=str(cache), NO_MKDOCS_2_WARNING="1")
    command = [sys.executable, "-m", "pipeline", "build", "--sources", str(sources), "--out", str(out)]
    if config:
        command += ["--config", str(config)]
    # the peak resident size of the build process itself (and, separately, of the indexer it forks)
    probe = ("import resource, runpy, sys; sys.argv = ['rulekb'] + sys.argv[1:]; "
             "code = 0\n"
             "try:\n    runpy.run_module('pipeline', run_name='__main__')\n"
             "except SystemExit as exit:\n    code = exit.code or 0\n"
             "print('PEAK', resource.getrusage(resource.RUSAGE_SELF).ru_maxrss, "
             "resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss, file=sys.stderr); sys.exit(code)")
    started = time.perf_counter()
    result = subprocess.run([sys.executable, "-c", probe, *command[3:]], env=env, capture_output=True, text=True)
    elapsed = time.perf_counter() - started
    if result.returncode != 0:
        print(result.stdout[-3000:], result.stderr[-3000:], file=sys.stderr)
        raise SystemExit("bench: the build failed")
    peak = re.search(r"PEAK (\d+) (\d+)", result.stderr)
    memory = max(int(peak.group(1)), int(peak.group(2))) / 1024 if peak else float("nan")
    return elapsed, memory


def disk_usage(folder: Path) -> int:
    """Bytes on disk (blocks, each hard-linked file counted once), as `du` counts."""
    seen = set()
    total = 0
    for root, directories, files in os.walk(folder):
        for name in directories + files:
            stat = os.lstat(os.path.join(root, name))
            if (stat.st_dev, stat.st_ino) in seen:
                continue
            seen.add((stat.st_dev, stat.st_ino))
            total += stat.st_blocks * 512
    return total


def gzip_size(path: Path) -> int:
    return len(gzip.compress(path.read_bytes(), 6))


def page_transfer(site: Path, page: str) -> tuple[int, int]:
    """gzip bytes of a page, and of the page plus the CSS and JS it loads."""
    html_file = site / page / "index.html"
    html = html_file.read_bytes()
    page_only = len(gzip.compress(html, 6))
    return page_only, page_only + sum(gzip_size(asset) for asset in page_assets(site, page))


def page_assets(site: Path, page: str) -> list[Path]:
    """The site's own CSS and JS files a page loads."""
    html_file = site / page / "index.html"
    assets = []
    for reference in re.findall(rb'<(?:link[^>]+href|script[^>]+src)="([^"]+)"', html_file.read_bytes()):
        reference = reference.decode()
        if reference.startswith(("http", "//", "data:")):
            continue
        asset = (html_file.parent / reference.split("?")[0]).resolve()
        if asset.is_file() and asset.suffix in (".css", ".js"):
            assets.append(asset)
    return assets


def rss_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


# What the service worker saves besides the current documents' pages (pipeline/site/assets/sw.js: CORE, QUICK).
OFFLINE_PAGES = ("", "penalties/", "regular/", "search-tips/")


def offline_set(site: Path) -> tuple[int, list[str]]:
    """gzip bytes of what a phone saves for offline use, listed as the service worker lists it: the home
    page and quick references with the assets they load, every page of each current document, and the
    search's files (from search/manifest.json); and the documents saved."""
    manifest = json.loads((site / "search" / "manifest.json").read_text(encoding="utf-8"))
    current = [document["id"] for document in manifest["documents"] if not document.get("archived")]
    pages = {page for page in manifest["pages"] if page.split("/")[0] in current}
    linked = linked_pages(site)       # every other page linked from home, and those beneath it ("What changed")
    pages |= {f"{id}/" for id in current} | set(OFFLINE_PAGES) | {page for page in linked if page.endswith("/")}
    files = {site / page / "index.html" for page in pages} | {site / name for name in linked if not name.endswith("/")}
    for page in OFFLINE_PAGES:
        if (site / page / "index.html").is_file():
            files |= set(page_assets(site, page))
    search = manifest.get("saved", [])
    files |= {site / "search" / name for name in search if name}
    return sum(gzip_size(path) for path in files if path.is_file()), current
