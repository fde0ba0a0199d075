"""What each `rulekb` subcommand does: call `pipeline.api`, print its answer for a person (or as JSON).

`say` is the only way out to the terminal: control characters (from a source, a file name) are
shown as escapes, never sent raw.
"""
from __future__ import annotations

import json
import os
import shutil
import sys
from pathlib import Path
from typing import Optional, Sequence

from .. import api, kinds
from ..model import ERROR, INFO, WARNING, Problem
from .output import Refused, say, show_answer, show_section

# What only one command needs is imported by that command: `search` and `show` load neither the readers
# and parsers nor the site (tests/test_architecture.py holds them to it); when what was built for the
# sources is fresh, they are answered before this module is imported (`built`, `output`).


def print_problems(problems: Sequence[Problem], stream=None, limit: Optional[int] = None) -> None:
    order = {ERROR: 0, WARNING: 1, INFO: 2}
    shown = sorted(problems, key=lambda p: (order.get(p.severity, 3), p.file, p.line or 0))
    for problem in shown[:limit] if limit else shown:
        say(str(problem).replace("\n", "\\n"), stream=stream or sys.stderr)
    if limit and len(shown) > limit:
        say(f"... and {len(shown) - limit} more (rulekb check lists them all)", stream=stream or sys.stderr)


def summary(problems: Sequence[Problem]) -> str:
    errors = sum(1 for p in problems if p.severity == ERROR)
    warnings = sum(1 for p in problems if p.severity == WARNING)
    return f"{errors} error{'s' * (errors != 1)}, {warnings} warning{'s' * (warnings != 1)}"


def check(args) -> int:
    try:
        report = api.check(args.dir, use_cache=not args.no_cache, annotations=args.annotations)
    except api.UsageError as error:
        raise Refused(str(error)) from None
    if args.json:
        say(json.dumps(report.as_json(), ensure_ascii=False, indent=1))
    else:
        print_problems(report.problems, stream=sys.stdout)
        say(languages_said(report.languages))
        say(f"checked {_what_was_checked(report, args.dir)}: {summary(report.problems)}")
    return 1 if report.errors else 0


def languages_said(languages) -> str:
    """What each document is written in: the English counted, every other language named with its evidence."""
    english = sum(1 for _, language, _ in languages if language == "en")
    others = [f"{file}: {kinds.language(language).english if kinds.language(language) else language} ({says})"
              for file, language, says in languages if language != "en"]
    return "; ".join([f"in English: {english} document(s)", *others])


def _what_was_checked(report, target: str) -> str:
    if Path(target).is_file():
        return f"{target} ({report.sections} sections)" if report.documents else f"{target} (not read)"
    return (f"{report.documents} documents in {target} ({report.current} current editions, "
            f"{report.sections} sections)")


def export(args) -> int:
    try:
        data = api.export(args.file, args.sources, alone=args.alone, use_cache=not args.no_cache,
                          annotations=args.annotations)
    except api.SourcesHaveErrors as error:
        print_problems(error.problems)
        return 1
    except api.UsageError as error:
        raise Refused(str(error)) from None
    sys.stdout.write(json.dumps(data, ensure_ascii=False, indent=1) + "\n")
    return 0


def build(args) -> int:
    from ..parallel import WorkFailed
    from ..site.errors import BuildFailed, BuildLocked, OutputRefused
    try:
        _check_output(args)            # before reading anything: a refused --out is said at once
        result, corpus = api.build(args.sources, args.out, config=args.config, use_cache=not args.no_cache,
                                   annotations=args.annotations)
    except api.SourcesHaveErrors as error:
        print_problems(error.problems)
        say(f"rulekb build: {len(error.problems)} error(s) in {args.sources}; the site was not changed "
            f"(`rulekb check {args.sources}` lists every problem)", stream=sys.stderr)
        return 1
    except (OutputRefused, BuildLocked, api.UsageError) as error:
        raise Refused(str(error)) from None
    except (BuildFailed, WorkFailed) as error:     # WorkFailed: a worker's failure, naming its file
        if isinstance(error, WorkFailed) and os.environ.get("RULEKB_DEBUG"):
            say(error.worker_traceback, stream=sys.stderr)
        say(f"rulekb build: {error}; the published site is unchanged", stream=sys.stderr)
        return 1
    problems = corpus.all_problems()
    sections = sum(len(d.sections) for d in corpus.documents)
    say(f"read {len(corpus.editions)} documents from {args.sources} ({len(corpus.documents)} current editions, "
        f"{sections} sections): {summary(problems)}" + (" (rulekb check lists them)" if problems else ""))
    errors = [problem for problem in problems if problem.severity == ERROR]
    flagged = sorted(api.flagged_sources(corpus) & {problem.file for problem in errors})
    if flagged:
        print_problems(errors, limit=10)
        say(f"marked incomplete, published with a banner saying why: {', '.join(flagged)}", stream=sys.stderr)
    left_out = [problem for problem in corpus.note_problems() if problem.severity == ERROR]
    if left_out:
        print_problems(left_out, limit=10)
        say(f"annotations left out: {', '.join(sorted({problem.file for problem in left_out}))}", stream=sys.stderr)
    if corpus.annotations:
        orphaned = sum(1 for annotation in corpus.annotations if annotation.orphaned)
        say(f"annotations: {len(corpus.annotations)} from {api.notes_folder(args.sources, args.annotations)}/"
            + (f" ({orphaned} on rules removed since, shown with their older edition)" if orphaned else ""))
    indexed = result.index or {}
    say(f"built {result.pages} pages into {args.out}/ in {result.seconds:.1f} s; search index: "
        f"{indexed.get('entries', 0)} entries of {len(indexed.get('documents', []))} documents")
    say(f"open it: {_command()} serve --site {args.out}   (then http://127.0.0.1:8000/ in a browser)")
    return 0


def _check_output(args) -> None:
    """Refuse (exit 2) an --out that is not the build's own: see site.publish.check_output."""
    from ..site.build import find_config
    from ..site.errors import BuildFailed
    from ..site.publish import check_output
    sources = Path(args.sources)
    try:
        config = find_config(sources, Path(args.config) if args.config else None)
    except BuildFailed as error:
        raise Refused(str(error)) from None
    check_output(Path(args.out), sources, config.resolve().parent)


def _command() -> str:
    """How to call rulekb again: the venv's script when it is not on PATH."""
    script = Path(sys.argv[0])
    if script.name == "rulekb" and not shutil.which("rulekb"):
        try:
            return str(script.resolve().relative_to(Path.cwd()))
        except ValueError:
            return str(script)
    return "rulekb"


def search(args) -> int:
    from ..search.question import QueryError
    try:
        answer = api.search(args.query, args.sources, limit=args.limit, kind=args.doc, index=args.index,
                            edition=args.edition, annotations=args.annotations, language=args.language)
    except QueryError as error:
        say(f"rulekb search: {error}", stream=sys.stderr)
        return 2
    except api.UsageError as error:
        raise Refused(str(error)) from None
    return show_answer(answer, args.json)


def show(args) -> int:
    try:
        view = api.show(args.ref, args.sources, edition=args.edition, annotations=args.annotations, keep=True)
    except api.UsageError as error:
        raise Refused(str(error)) from None
    return show_section(view, args.json, args.ref, args.edition)


def diff(args) -> int:
    try:
        data = api.compare(args.old, args.new, args.sources)
    except api.UsageError as error:
        raise Refused(str(error)) from None
    except api.SourcesHaveErrors as error:
        print_problems(error.problems)
        return 2
    if args.json:
        say(json.dumps(data, ensure_ascii=False, indent=1))
        return 0

    def number(section_id: str) -> str:
        return section_id.split(":", 1)[1]
    glossary = data["glossary"]
    say(f"{data['title']}: {data['old_edition']} ({data['old']}) -> {data['new_edition']} ({data['new']})")
    say(f"{len(data['added'])} added, {len(data['removed'])} removed, {len(data['changed'])} changed, "
        f"{len(data['moved'])} renumbered; glossary: {len(glossary['added'])} added, "
        f"{len(glossary['removed'])} removed, {len(glossary['changed'])} changed")
    for label in ("added", "removed"):
        if data[label]:
            say(f"\n{label}: " + ", ".join(number(i) for i in data[label]))
    if data["changed"]:
        say("\nchanged: " + ", ".join(number(change["id"]) for change in data["changed"]))
    if data["layout_only"]:
        say("\nlayout only (spacing, typography, or a word joined at a line end; not counted as changed): "
            + ", ".join(number(i) for i in data["layout_only"]))
    if data["moved"]:
        moves = [f"{number(m['from'])}->{number(m['to'])}" + ("*" if m["text_changed"] else "") for m in data["moved"]]
        note = "   (* text changed too)" if any(m["text_changed"] for m in data["moved"]) else ""
        say("\nrenumbered: " + ", ".join(moves) + note)
    for label, terms in (("glossary added", glossary["added"]), ("glossary removed", glossary["removed"]),
                         ("glossary changed", [change["term"] for change in glossary["changed"]])):
        if terms:
            say(f"\n{label}: " + ", ".join(terms))
    for note in data["notes"]:
        say(f"\nnote: {note}")
    return 0


def serve(args) -> int:
    from ..serve import serve as run_server
    site = Path(args.site)
    if not (site / "index.html").is_file():
        say(f"rulekb serve: no built site in {site}/; run `make site` (or `rulekb build`) first", stream=sys.stderr)
        return 1

    def ready(address) -> None:
        say(f"serving {site}/ on http://{address[0]}:{address[1]}/  (API: /api/search?q=..., /api/sections/<id>); "
            f"Ctrl-C stops")
        sys.stdout.flush()
    run_server(site, args.host, args.port, args.workers, ready)
    return 0


def bench(args) -> int:
    from ..bench import main as run_bench
    return run_bench(args)
