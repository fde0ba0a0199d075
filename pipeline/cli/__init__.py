"""The `rulekb` command: one subcommand per job, each a thin call of a function of `pipeline.api`.

Decides how results and problems are shown and which exit code to give; parses nothing itself.
Everything printed passes through `say`, which never lets a control character from a source or
a file name reach the terminal raw.
"""
from __future__ import annotations

import argparse
import os
import sys
from typing import Optional, Sequence

from .. import kinds

KINDS = list(kinds.IDS)
# Each subcommand names its function in pipeline.cli.commands, imported once the arguments are read (so that
# `--help` and a mistyped option import nothing of the pipeline but the kinds' names).


def build_parser(only: Optional[str] = None) -> argparse.ArgumentParser:
    """The command line's parser; with `only`, of that subcommand alone (what a question's process needs:
    the same parse of its arguments, without building the others)."""
    parser = argparse.ArgumentParser(prog="rulekb", description="Magic: The Gathering tournament rules reference.")
    sub = parser.add_subparsers(dest="command", required=True, metavar="COMMAND")

    def wanted(command: str) -> bool:
        return only is None or only == command

    def sources_option(command, help_text="folder of rule documents (default: sources)"):
        command.add_argument("--sources", default=os.environ.get("RULEKB_SOURCES", "sources"), help=help_text)

    def annotations_option(command):
        command.add_argument("--annotations", metavar="DIR", default=os.environ.get("RULEKB_ANNOTATIONS"),
                             help="folder of judges' notes (default: annotations/ beside the sources folder)")

    if wanted("check"):
        check = sub.add_parser("check", help="read every document in a folder (or one file), resolve references, "
                                              "list problems")
        check.add_argument("dir", nargs="?", default=os.environ.get("RULEKB_SOURCES", "sources"),
                           help="folder of rule documents, or one file (default: sources)")
        check.add_argument("--json", action="store_true", help="print the report as JSON")
        check.add_argument("--no-cache", action="store_true", help="parse everything again")
        annotations_option(check)
        check.set_defaults(run="check")

    if wanted("export"):
        export = sub.add_parser("export", help="print one document as JSON")
        export.add_argument("file", help="a source file, or a document id (cr, mtr, ipg, ...) in --sources")
        sources_option(export, "folder for document ids (default: sources)")
        export.add_argument("--alone", action="store_true",
                            help="read only this file (references to other documents stay unresolved)")
        export.add_argument("--no-cache", action="store_true", help="parse again")
        annotations_option(export)
        export.set_defaults(run="export")

    if wanted("build"):
        build = sub.add_parser("build", help="ingest sources/ and build the static site and its search index")
        sources_option(build)
        build.add_argument("--out", default=os.environ.get("RULEKB_SITE", "site"),
                           help="where the site goes (default: site)")
        build.add_argument("--config", default=None,
                           help="the site's mkdocs.yml (default: the one beside the sources folder)")
        build.add_argument("--no-cache", action="store_true", help="parse everything again")
        annotations_option(build)
        build.set_defaults(run="build")

    if wanted("search"):
        search = sub.add_parser("search", help="find sections by number, phrase, abbreviation (typos welcome)")
        search.add_argument("query", help='e.g. "704.5k", "ipg 2.1", "missed trigger", "GRV"')
        search.add_argument("--limit", type=int, default=10, help="how many results (default 10)")
        search.add_argument("--doc", choices=KINDS, help="only this document")
        search.add_argument("--json", action="store_true", help="print JSON for bots and tools")
        search.add_argument("--language",
                            choices=[code for code in kinds.LANGUAGE_BY_ID if code != kinds.ENGLISH.id],
                            help="a translation chosen: its glossary terms asked in English answer in it, as the "
                                 "site's search does with the language the phone remembers")
        sources_option(search)
        search.add_argument("--index", default=None, help="an index folder to search (default: the index of --sources)")
        search.add_argument("--edition", help='search the sources as they stand when this edition takes effect: '
                            '"upcoming", its id or its effective date')
        annotations_option(search)
        search.set_defaults(run="search")

    if wanted("show"):
        show = sub.add_parser("show", help="print one section: text, examples, penalty, references both ways")
        show.add_argument("ref", help='e.g. "704.5k", "ipg 2.1", "mtr 4.3", "cr:704.5k"')
        show.add_argument("--json", action="store_true", help="print JSON for bots")
        show.add_argument("--edition", help='an edition other than the current one: its id, its effective date, '
                          'or "upcoming"')
        sources_option(show)
        annotations_option(show)
        show.set_defaults(run="show")

    if wanted("serve"):
        serve = sub.add_parser("serve", help="serve the built site and its JSON search API on 127.0.0.1")
        serve.add_argument("--site", default=os.environ.get("RULEKB_SITE", "site"),
                           help="the built site (default: site)")
        serve.add_argument("--host", default="127.0.0.1")
        serve.add_argument("--port", type=int, default=8000)
        serve.add_argument("--workers", type=int, default=None,
                           help="processes sharing the socket, each answering pages and searches "
                                "(default: one per core)")
        serve.set_defaults(run="serve")

    if wanted("diff"):
        diff = sub.add_parser("diff", help="what changed between two editions of a document")
        diff.add_argument("old", help="the older edition: a file, or a document id in --sources (e.g. cr-2025-11-14)")
        diff.add_argument("new", help="the newer edition: a file or a document id (e.g. cr)")
        diff.add_argument("--json", action="store_true", help="print JSON")
        sources_option(diff)
        diff.set_defaults(run="diff")

    if wanted("bench"):
        bench = sub.add_parser("bench", help="print speed, size and search-quality figures")
        sources_option(bench)
        bench.add_argument("--runs", type=int, default=5, help="repetitions for timings (best of N)")
        bench.add_argument("--only", action="append", help="run one part (repeatable): parse, search, build, browser, "
                                                          "serve, archive, pdf, annotations, cli")
        bench.add_argument("--against", metavar="DIR", default=None,
                           help="another checkout of rulekb (e.g. a git worktree of an older commit): the cli and "
                                "parse figures time its code too, alternately with this one's")
        bench.add_argument("--peer", metavar="COMMAND", default=None,
                           help="another parser's timing command (the CR file's path is added; it prints its best "
                                "CPU ms last): the parse figures time it alternately with this checkout's parse")
        bench.add_argument("--archive", default=None,
                           help="a folder (or .tar.xz) of CR editions, for the archive figures")
        bench.add_argument("--questions", action="append", default=None,
                           help="a question set for the search figures (repeatable; default: the project's three, "
                                "numbers and phrases, more of them, situations)")
        bench.set_defaults(run="bench")

    return parser


def main(argv: Optional[Sequence[str]] = None) -> int:
    os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
    argv = sys.argv[1:] if argv is None else list(argv)
    parser = build_parser(only=argv[0] if argv[:1] in (["search"], ["show"]) else None)
    args = parser.parse_args(argv)
    from .output import Refused, say
    try:
        if args.run in ("search", "show"):        # from what was built for the sources, when it is fresh
            from . import answered
            code = getattr(answered, args.run)(args)
            if code is not None:
                return code
        from . import commands
        return getattr(commands, args.run)(args)
    except Refused as error:
        say(f"rulekb {args.command}: {error}", stream=sys.stderr)
        return 2
    except KeyboardInterrupt:
        say("interrupted", stream=sys.stderr)
        return 130
    except BrokenPipeError:
        return 0
    except Exception as error:  # never a traceback for a user; RULEKB_DEBUG=1 shows it
        if os.environ.get("RULEKB_DEBUG"):
            raise
        say(f"rulekb {args.command}: internal error: {type(error).__name__}: {error} "
                     f"(run with RULEKB_DEBUG=1 for details)", stream=sys.stderr)
        return 2


if __name__ == "__main__":
    sys.exit(main())
