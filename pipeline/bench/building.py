"""Full build and rebuilds of the sources, and what a phone transfers for a page."""
from __future__ import annotations

import os
import shutil
import tempfile
from pathlib import Path

from .common import disk_usage, gzip_size, offline_set, page_transfer, run_build


def run(args) -> None:
    sources = Path(args.sources)
    config = sources.resolve().parent / "mkdocs.yml"
    with tempfile.TemporaryDirectory(prefix="rulekb-bench-") as scratch:
        scratch = Path(scratch)
        copy = scratch / "sources"
        shutil.copytree(sources, copy)
        cache, out = scratch / "cache", scratch / "site"
        full, memory = run_build(copy, out, cache, config if config.is_file() else None)
        pages = sum(1 for _ in out.rglob("index.html"))
        print(f"full build (cold cache):      {full:6.1f} s   {pages} pages, peak {memory:.0f} MB, "
              f"{disk_usage(out) / 1e6:.1f} MB on disk")
        for page in ("cr/704", "cr/702", "ipg/2.1", "penalties"):
            if (out / page / "index.html").is_file():
                page_only, with_assets = page_transfer(out, page)
                print(f"page {page + '/:':<24} {page_only / 1024:6.1f} KB gzip, "
                      f"{with_assets / 1024:.1f} KB with CSS and JS")
        offline = sum(gzip_size(path) for path in out.rglob("*") if path.is_file()
                      and path.suffix in (".html", ".json", ".js", ".css")
                      and not any(part.startswith((".", "history", "changes")) for part in path.relative_to(out).parts))
        print(f"site without histories:       {offline / 1e6:6.2f} MB gzip")
        saved, documents = offline_set(out)
        print(f"saved for offline on a phone: {saved / 1e6:6.2f} MB gzip ({', '.join(documents)}, quick references, "
              "search; aim: under 3 MB)")
        again, _ = run_build(copy, out, cache, config if config.is_file() else None)
        print(f"rebuild, nothing changed:     {again:6.1f} s")
        first = sorted(p for p in copy.iterdir() if p.name.startswith("mtr"))[:1] or sorted(copy.iterdir())[:1]
        with open(first[0], "a", encoding="utf-8") as handle:
            handle.write("\nThis line was added by the benchmark.\n")
        changed, _ = run_build(copy, out, cache, config if config.is_file() else None)
        print(f"rebuild after changing {first[0].name}: {changed:.1f} s ({changed / full:.0%} of a full build)")
        os.utime(first[0])
