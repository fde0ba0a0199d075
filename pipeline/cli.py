"""The `rulekb` command: one subcommand per job, each a thin shell over a Python function.

Decides how problems are shown and which exit code to give; does no parsing itself.
"""
from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Optional, Sequence

from .model import ERROR, INFO, WARNING, Problem

DEFAULT_SOURCES = Path(os.environ.get("RULEKB_SOURCES", "sources"))
DEFAULT_SITE = Path(os.environ.get("RULEKB_SITE", "site"))


class UsageError(Exception):
    """A mistake in what the user asked for: printed as one line, exit code 2."""


def print_problems(problems: Sequence[Problem], stream=sys.stderr, limit: Optional[int] = None) -> None:
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    shown = sorted(problems, key=lambda p: (order.get(p.severity, 3), p.file, p.line or 0))
    for problem in shown[:limit] if limit else shown:
        print(problem, file=stream)
    if limit and len(shown) > limit:
        print(f"... and {len(shown) - limit} more (rulekb check shows them all)", file=stream)


def summary(problems: Sequence[Problem]) -> str:
    errors = sum(1 for p in problems if p.severity == ERROR)
    warnings = sum(1 for p in problems if p.severity == WARNING)
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


def cmd_check(args) -> int:
    from .ingest import load_corpus
    corpus = load_corpus(args.dir, use_cache=not args.no_cache)
    problems = corpus.all_problems()
    print_problems(problems, stream=sys.stdout)
    sections = sum(len(document.sections) for document in corpus.documents)
    print(f"checked {len(corpus.documents)} documents, {sections} sections in {args.dir}: {summary(problems)}")
    return 1 if any(p.severity == ERROR for p in problems) else 0


def cmd_export(args) -> int:
    from .export import document_json, dumps
    from .ingest import load_corpus, load_document
    target = Path(args.file)
    if target.is_file():
        if args.alone:
            document, problems = load_document(target, use_cache=not args.no_cache)
            corpus = None
        else:
            corpus = load_corpus(target.parent, use_cache=not args.no_cache)
            document = next((d for d in corpus.documents if d.info.source == target.name), None)
            problems = [p for p in corpus.all_problems() if p.file == target.name]
    else:
        corpus = load_corpus(args.sources, use_cache=not args.no_cache)
        document = corpus.document(args.file)
        problems = [] if document else [Problem(ERROR, args.file, None,
                                                f"no such file, and no document with that id in {args.sources} "
                                                f"(ids: {', '.join(d.id for d in corpus.documents)})")]
    if document is None:
        print_problems([p for p in problems if p.severity == ERROR] or problems)
        return 1
    sys.stdout.write(dumps(document_json(document, corpus)))
    return 0


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(prog="rulekb", description="Magic: The Gathering tournament rules reference.")
    commands = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    check = commands.add_parser("check", help="read every document in a folder, resolve references, list problems")
    check.add_argument("dir", nargs="?", default=str(DEFAULT_SOURCES), help="folder of rule documents (default: sources)")
    check.add_argument("--no-cache", action="store_true", help="parse everything again")
    check.set_defaults(run=cmd_check)

    export = commands.add_parser("export", help="print one document as JSON")
    export.add_argument("file", help="a source file, or a document id (cr, mtr, ipg, ...) in --sources")
    export.add_argument("--sources", default=str(DEFAULT_SOURCES), help="folder for document ids (default: sources)")
    export.add_argument("--alone", action="store_true", help="read only this file (references to other documents stay unresolved)")
    export.add_argument("--no-cache", action="store_true", help="parse again")
    export.set_defaults(run=cmd_export)

    from . import commands as extra   # the commands of the later stages (site, search, diff, bench)
    extra.register(commands)
    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    parser = build_parser()
    args = parser.parse_args(argv)
    try:
        return args.run(args)
    except UsageError as error:
        print(f"rulekb {args.command}: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # never a traceback for a user; RULEKB_DEBUG=1 shows it
        if os.environ.get("RULEKB_DEBUG"):
            raise
        print(f"rulekb {args.command}: internal error: {type(error).__name__}: {error} "
              f"(run with RULEKB_DEBUG=1 for details)", file=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
