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
    """Each build cold (its own empty cache): a warm rebuild after adding notes writes the search index again,
    as any change to the corpus does, and would measure that, not the notes."""
    sources = Path(args.sources)
    config = sources.resolve().parent / "mkdocs.yml"
    config = config if config.is_file() else None
    corpus = load_corpus(sources)
    with tempfile.TemporaryDirectory(prefix="rulekb-bench-") as scratch:
        scratch = Path(scratch)
        copy, notes, out = scratch / "sources", scratch / "annotations", scratch / "site"
        shutil.copytree(sources, copy)
        full, full_cpu = timed_build(copy, out, scratch / "cache-0", config)
        print(f"full build (cold cache), no annotations: {full:6.1f} s, {full_cpu:6.1f} s of CPU")
        for count in COUNTS:
            write_notes(notes, corpus, count)
            started = time.perf_counter()
            attached = annotate.attach(corpus, notes)
            alone = time.perf_counter() - started
            built, cpu = timed_build(copy, out, scratch / f"cache-{count}", config)
            print(f"full build with {count:>5} annotations:    {built:6.1f} s, {cpu:6.1f} s of CPU: "
                  f"{cpu - full_cpu:+.1f} s of CPU, {(cpu - full_cpu) / full_cpu:+.1%} ({len(attached.annotations)} "
                  f"placed; reading, checking, rendering and carrying them alone: {alone:.2f} s)")
