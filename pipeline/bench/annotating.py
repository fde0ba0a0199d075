"""What annotations cost a build: full builds of the sources with 0, 100 and 1,000 generated notes (a quarter
of them written against an older edition, so that they are carried across editions), and the notes' own
stage (read, check, render, carry) timed alone."""
from __future__ import annotations

import resource
import shutil
import tempfile
import time
from pathlib import Path

from .. import annotate
from ..corpus import load_corpus
from .common import run_build

COUNTS = (100, 1000)
BODY = ("A generated note on {number}: the usual borderline call, and the example that settles it. "
        "See rule 704.5k for state-based actions, and IPG 2.1 for a trigger nobody noticed.\n\n"
        "A second paragraph, *emphasised*, with a [link](https://example.org/) and `code`.")


def write_notes(folder: Path, corpus, count: int) -> None:
    """`count` notes on sections spread evenly over the current documents; every fourth CR note is written
    against the CR edition before the current one, when there is one."""
    if folder.exists():
        shutil.rmtree(folder)
    folder.mkdir(parents=True)
    sections = [(document, section) for document in corpus.documents if document.info.current
                and not document.info.excerpt for section in document.sections if section.number]
    cr = next((d for d in corpus.documents if d.info.kind == "cr" and d.info.current), None)
    older = sorted((info for info in corpus.editions if info.kind == "cr" and not info.excerpt and cr is not None
                    and (info.edition or "") < (cr.info.edition or "")), key=lambda info: info.edition or "")
    step = max(1, len(sections) // count)
    for number, (document, section) in enumerate(sections[::step][:count]):
        edition = document.info.edition
        if document.info.kind == "cr" and older and number % 4 == 0:
            edition = older[-1].edition       # most rules are there under the same number
        (folder / f"note-{number:04d}.md").write_text(
            f"---\nsection: {section.id}\nedition: {edition}\nauthors: [Bench Judge]\ndate: 2026-11-01\n---\n"
            + BODY.format(number=section.number) + "\n", encoding="utf-8")


def timed_build(sources: Path, out: Path, cache: Path, config) -> tuple[float, float]:
    """A build's (wall-clock seconds, CPU seconds of it and its processes): on a machine shared with other work
    the CPU time is the steadier measure of what the build costs."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    wall, _ = run_build(sources, out, cache, config)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def run(args) -> None:
    """A cold full build for scale, then warm builds (parses and comparisons cached, the pages and the search
    index written again, as every build does) without notes and with them, alternated, best of two: their
    difference is what the notes cost."""
    sources = Path(args.sources)
    config = sources.resolve().parent / "mkdocs.yml"
    config = config if config.is_file() else None
    corpus = load_corpus(sources)
    runs = max(2, min(args.runs, 3))
    with tempfile.TemporaryDirectory(prefix="rulekb-bench-") as scratch:
        scratch = Path(scratch)
        copy, out, cache = scratch / "sources", scratch / "site", scratch / "cache"
        shutil.copytree(sources, copy)
        full, full_cpu = timed_build(copy, out, cache, config)
        print(f"full build (cold cache), no annotations: {full:6.1f} s, {full_cpu:5.1f} s of CPU")
        folders = {0: scratch / "none"}
        folders[0].mkdir()
        alone = {}
        for count in COUNTS:
            folders[count] = scratch / f"notes-{count}"
            write_notes(folders[count], corpus, count)
            started = time.process_time()
            placed = len(annotate.attach(corpus, folders[count]).annotations)
            alone[count] = (time.process_time() - started, placed)
        best: dict[int, tuple[float, float]] = {}
        for _ in range(runs):
            for count, folder in folders.items():
                shutil.rmtree(scratch / "annotations", ignore_errors=True)
                shutil.copytree(folder, scratch / "annotations")       # the default: annotations/ beside sources/
                wall, cpu = timed_build(copy, out, cache, config)
                best[count] = min(best.get(count, (wall, cpu)), (wall, cpu), key=lambda pair: pair[1])
        base_wall, base_cpu = best[0]
        print(f"build (warm cache), no annotations:      {base_wall:6.1f} s, {base_cpu:5.1f} s of CPU (best of {runs})")
        for count in COUNTS:
            wall, cpu = best[count]
            extra = cpu - base_cpu
            seconds, placed = alone[count]
            print(f"build (warm cache), {count:>5} annotations: {wall:6.1f} s, {cpu:5.1f} s of CPU: {extra:+.1f} s, "
                  f"{extra / full_cpu:+.1%} of a full build ({placed} placed; reading, checking, rendering and "
                  f"carrying them: {seconds:.2f} s)")
