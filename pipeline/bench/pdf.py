"""PDF read+parse time per document: every .pdf of the sources (`rulekb bench --only pdf`).

Read = the PDF reader (pypdfium2: text, fonts, page furniture, hints); parse = the document's parser
on those lines. Best of `--runs`. Point `--sources` at tests/fixtures/corpus for all eight official PDFs.
The aim (issue 10): a 55-page MTR read and parsed in under a second.
"""
from __future__ import annotations

from pathlib import Path

from ..corpus import load_document, source_files
from ..parse import parse
from ..read import read_bytes
from .common import best_of


def run(args) -> None:
    sources = Path(args.sources)
    pdfs = [path for path in source_files(sources) if path.read_bytes()[:1024].lstrip()[:5] == b"%PDF-"]
    if not pdfs:
        print(f"no PDF in {sources}/ (try --sources tests/fixtures/corpus)")
        return
    print(f"{'document':<28} {'KB':>6} {'pages':>5} {'lines':>6} {'read ms':>8} {'parse ms':>9} {'total ms':>9} "
          f"{'sections':>8} {'problems':>8}")
    for path in pdfs:
        known, _ = load_document(path, use_cache=False)      # its kind and id, as a build names it
        if known is None:
            print(f"{path.name:<28} not readable as a rule document")
            continue
        data = path.read_bytes()
        source = read_bytes(data, path.name)
        read_s = best_of(args.runs, lambda data=data, name=path.name: read_bytes(data, name))
        parse_s = best_of(args.runs, lambda source=source, info=known.info: parse(source, info))
        document = parse(source, known.info)
        pages = max((line.page or 0 for line in source.lines), default=0)
        warnings = sum(1 for problem in document.problems if problem.severity != "info")
        print(f"{path.name:<28} {len(data) / 1024:>6.0f} {pages:>5} {len(source.lines):>6} {read_s * 1000:>8.0f} "
              f"{parse_s * 1000:>9.0f} {(read_s + parse_s) * 1000:>9.0f} {len(document.sections):>8} {warnings:>8}")
    print(f"  (best of {args.runs}; read = PDF to lines, parse = lines to the document; problems = warnings and "
          f"errors; aim: a 55-page MTR under 1000 ms)")
