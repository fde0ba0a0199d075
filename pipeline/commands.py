"""Subcommands of the later stages (build, search, show, serve, diff, bench), registered on the CLI.

Kept apart from cli.py so that each stage's command sits beside the others but
imports its stage (mkdocs, whoosh, ...) only when it runs.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

from .cli import DEFAULT_SITE, DEFAULT_SOURCES, UsageError, print_problems, summary
from .model import ERROR


def cmd_build(args) -> int:
    from .ingest import load_corpus
    from .search import DEFAULT_INDEX, sources_fingerprint
    from .site import BuildFailed, build_site
    corpus = load_corpus(args.sources, use_cache=not args.no_cache)
    problems = corpus.all_problems()
    errors = [p for p in problems if p.severity == ERROR]
    if errors:
        print_problems(errors)
        print(f"rulekb build: {summary(problems)} in {args.sources}; the site was not changed "
              f"(`rulekb check {args.sources}` lists every problem)", file=sys.stderr)
        return 1
    # The index and the site are independent: write the index in a second process meanwhile.
    indexer = _Indexer(corpus, Path(args.index or DEFAULT_INDEX), sources_fingerprint(args.sources))
    try:
        result = build_site(corpus, args.out, sources=Path(args.sources).resolve())
    except BuildFailed as error:
        indexer.stop()
        print(f"rulekb build: {error}; the previous site is unchanged", file=sys.stderr)
        return 1
    indexed = indexer.result()
    if indexed is None:
        print("rulekb build: the search index could not be written (the site was built)", file=sys.stderr)
        return 1
    sections = sum(len(d.sections) for d in corpus.documents)
    print(f"read {len(corpus.documents)} documents ({sections} sections) from {args.sources}: {summary(problems)}"
          + (" (rulekb check lists them)" if problems else ""))
    pages = result["pages"]
    reused = "" if result["rendered"] == pages else f" ({result['rendered']} rendered again, the rest unchanged)"
    print(f"built {pages} pages{reused} into {args.out}/ in {result['seconds']:.1f} s; search index: "
          f"{len(indexed['indexed'])} documents (re)indexed, {len(indexed['kept'])} unchanged")
    print(f"open it: {_command()} serve --site {args.out}   (then http://127.0.0.1:8000/ in a browser)")
    return 0


def _command() -> str:
    """How to call rulekb again: the venv's script when it is not on PATH."""
    import shutil
    script = Path(sys.argv[0])
    if script.name == "rulekb" and not shutil.which("rulekb"):
        try:
            return str(script.resolve().relative_to(Path.cwd()))
        except ValueError:
            return str(script)
    return "rulekb"


class _Indexer:
    """The search index, brought up to date in a forked process (the corpus is shared, not copied)."""

    def __init__(self, corpus, directory: Path, fingerprint: str):
        import multiprocessing
        context = multiprocessing.get_context("fork")
        self.queue = context.SimpleQueue()
        self.process = context.Process(target=self._run, args=(corpus, directory, fingerprint), daemon=True)
        self.process.start()

    def _run(self, corpus, directory: Path, fingerprint: str) -> None:
        from .search import ensure_index
        try:
            self.queue.put(ensure_index(corpus, directory, fingerprint=fingerprint))
        except Exception as error:  # reported by the parent as "could not be written"
            self.queue.put({"error": f"{type(error).__name__}: {error}"})

    def result(self):
        answer = self.queue.get()
        self.process.join()
        if "error" in answer:
            print(f"rulekb build: index: {answer['error']}", file=sys.stderr)
            return None
        return answer

    def stop(self) -> None:
        self.process.terminate()
        self.process.join()


def _knowledge_base(args):
    from .index import KnowledgeBase
    from .search import DEFAULT_INDEX, index_for_sources
    if not Path(args.sources).is_dir():
        raise UsageError(f"no sources folder {args.sources}")
    return KnowledgeBase(index_for_sources(args.sources, args.index or DEFAULT_INDEX))


MARK = re.compile(r"</?mark>")


def _terminal_snippet(snippet: str) -> str:
    import html
    bold, plain = ("\033[1m", "\033[0m") if sys.stdout.isatty() else ("[", "]")
    return html.unescape(MARK.sub(lambda m: plain if m.group(0).startswith("</") else bold, snippet))


def cmd_search(args) -> int:
    from .search import QueryError, search
    kb = _knowledge_base(args)
    try:
        answer = search(kb, args.query, limit=args.limit, kind=args.doc)
    except QueryError as error:
        print(f"rulekb search: {error}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(answer.as_json(), ensure_ascii=False, indent=1))
        return 0
    if answer.notice:
        print(answer.notice[:1].upper() + answer.notice[1:] + ".")
    if answer.suggestion:
        print(f"Did you mean: {answer.suggestion}?")
    if not answer.results:
        print("No results.")
        return 0
    width = max(len(result.id) for result in answer.results)
    for rank, result in enumerate(answer.results, 1):
        heading = f"{result.number} {result.title}".strip() if result.number else result.title
        penalty = f"  [{result.penalty}]" if result.penalty else ""
        older = "" if result.current else "  (not the current edition)"
        print(f"{rank:>2}. {result.id:<{width}}  {heading}{penalty}{older}")
        if result.snippet.strip():
            print(f"    {_terminal_snippet(result.snippet)}")
    return 0


def cmd_show(args) -> int:
    from .ingest import load_corpus
    from .lookup import find_section, section_text, section_view
    from .pages import plan
    corpus = load_corpus(args.sources)
    found = find_section(corpus, args.ref)
    if not found:
        print(f"rulekb show: no section {args.ref!r} (try `rulekb search {args.ref!r}`)", file=sys.stderr)
        return 1
    layout = plan(corpus)
    urls = {sid: layout.url(page) + f"#{anchor}" for sid, (page, anchor) in layout.locations.items()}
    view = section_view(corpus, *found, urls=urls)
    if not view["text"] and not view.get("subsections") and view.get("kind") != "glossary":
        view["text"] = view["title"]
    if args.json:
        print(json.dumps(view, ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(section_text(view))
    return 0


def cmd_serve(args) -> int:
    from .ingest import load_corpus
    from .lookup import find_section, section_view
    from .pages import plan
    from .server import Api, make_server
    site = Path(args.site)
    if not (site / "index.html").is_file():
        print(f"rulekb serve: no built site in {site}/; run `make site` (or `rulekb build`) first", file=sys.stderr)
        return 1
    corpus = load_corpus(args.sources)
    layout = plan(corpus)
    urls = {sid: layout.url(page) + f"#{anchor}" for sid, (page, anchor) in layout.locations.items()}

    def show(section_id: str):
        found = find_section(corpus, section_id)
        return section_view(corpus, *found, urls=urls) if found else None

    server = make_server(site, Api(_knowledge_base(args), show), args.host, args.port)
    print(f"serving {site}/ on http://{args.host}:{server.server_address[1]}/  (API: /api/search?q=..., "
          f"/api/sections/<id>); Ctrl-C stops", flush=True)
    try:
        server.serve_forever()
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


def _edition(corpus, ref: str):
    """A document by id from the corpus, or a file read on its own (named after its edition)."""
    from .ingest import load_document, rename_document
    from .model import replace
    document = corpus.document(ref) if corpus else None
    if document is not None:
        return document
    path = Path(ref)
    if not path.is_file():
        raise UsageError(f"{ref} is neither a file nor a document id in the sources folder")
    document, problems = load_document(path)
    if document is None:
        print_problems([p for p in problems if p.severity == ERROR] or problems)
        raise UsageError(f"cannot read {ref} as a rule document")
    name = f"{document.info.kind}-{document.info.edition or path.stem}"
    return rename_document(document, replace(document.info, id=name))


def cmd_diff(args) -> int:
    from .diff import check_announced, compare, diff_json
    corpus = None
    if not (Path(args.old).is_file() and Path(args.new).is_file()):
        from .ingest import load_corpus
        corpus = load_corpus(args.sources)
    old, new = _edition(corpus, args.old), _edition(corpus, args.new)
    if old.info.kind != new.info.kind:
        print(f"rulekb diff: {args.old} is a {old.info.kind} and {args.new} a {new.info.kind}; compare two "
              f"editions of one document", file=sys.stderr)
        return 2
    if old.id == new.id:
        from .ingest import rename_document
        from .model import replace
        old = rename_document(old, replace(old.info, id=f"{old.id}-old"))
    diff = compare(old, new)
    if args.json:
        data = diff_json(diff)
        data.update({"old_edition": diff.old_edition, "new_edition": diff.new_edition})
        print(json.dumps(data, ensure_ascii=False, indent=1))
        return 0
    print(f"{old.info.title}: {old.info.edition} ({old.id}) -> {new.info.edition} ({new.id})")
    print(f"{len(diff.added)} added, {len(diff.removed)} removed, {len(diff.changed)} changed, "
          f"{len(diff.moved)} renumbered; glossary: {len(diff.glossary.added)} added, "
          f"{len(diff.glossary.removed)} removed, {len(diff.glossary.changed)} changed")
    for label, ids in (("added", diff.added), ("removed", diff.removed)):
        if ids:
            print(f"\n{label}: " + ", ".join(i.split(":", 1)[1] for i in ids))
    if diff.changed:
        print("\nchanged: " + ", ".join(c.new_id.split(":", 1)[1] for c in diff.changed))
    if diff.moved:
        print("\nrenumbered: " + ", ".join(f"{m.from_id.split(':', 1)[1]}->{m.to_id.split(':', 1)[1]}"
                                          + ("*" if m.text_changed else "") for m in diff.moved)
              + ("   (* text changed too)" if any(m.text_changed for m in diff.moved) else ""))
    glossary = diff.glossary
    for label, terms in (("glossary added", glossary.added), ("glossary removed", glossary.removed),
                         ("glossary changed", [change.term for change in glossary.changed])):
        if terms:
            print(f"\n{label}: " + ", ".join(terms))
    for problem in check_announced(diff, new):
        print(f"\nnote: {problem}")
    return 0


def cmd_bench(args) -> int:
    from .bench import main
    return main(Path(args.sources), runs=args.runs, parts=tuple(args.only or ("parse", "search", "build")))


def _sources_option(command) -> None:
    command.add_argument("--sources", default=str(DEFAULT_SOURCES), help="folder of rule documents (default: sources)")


def _index_option(command) -> None:
    command.add_argument("--index", default=None, help="the search index folder (default: build/index)")


def register(commands) -> None:
    build = commands.add_parser("build", help="ingest sources/ and build the static site (and its JSON exports)")
    _sources_option(build)
    build.add_argument("--out", default=str(DEFAULT_SITE), help="where the site goes (default: site)")
    build.add_argument("--no-cache", action="store_true", help="parse everything again")
    _index_option(build)
    build.set_defaults(run=cmd_build)

    search = commands.add_parser("search", help="find sections by number, phrase, abbreviation (typos welcome)")
    search.add_argument("query", help='e.g. "704.5k", "ipg 2.1", "missed trigger", "GRV"')
    search.add_argument("--limit", type=int, default=10, help="how many results (default 10)")
    search.add_argument("--doc", choices=["cr", "mtr", "ipg", "floor"], help="only this document")
    search.add_argument("--json", action="store_true", help="print JSON for bots and tools")
    _sources_option(search)
    _index_option(search)
    search.set_defaults(run=cmd_search)

    show = commands.add_parser("show", help="print one section: text, examples, penalty, references both ways")
    show.add_argument("ref", help='e.g. "704.5k", "ipg 2.1", "mtr 4.3", "cr:704.5k"')
    show.add_argument("--json", action="store_true", help="print JSON for bots")
    _sources_option(show)
    show.set_defaults(run=cmd_show)

    serve = commands.add_parser("serve", help="serve the built site and a JSON search API on 127.0.0.1")
    serve.add_argument("--site", default=str(DEFAULT_SITE), help="the built site (default: site)")
    _sources_option(serve)
    _index_option(serve)
    serve.add_argument("--host", default="127.0.0.1")
    serve.add_argument("--port", type=int, default=8000)
    serve.set_defaults(run=cmd_serve)

    diff = commands.add_parser("diff", help="what changed between two editions of a document")
    diff.add_argument("old", help="the older edition: a file, or a document id in --sources (e.g. cr-2025-11-14)")
    diff.add_argument("new", help="the newer edition: a file or a document id (e.g. cr)")
    diff.add_argument("--json", action="store_true", help="print JSON")
    _sources_option(diff)
    diff.set_defaults(run=cmd_diff)

    bench = commands.add_parser("bench", help="print speed, size and search-quality figures")
    _sources_option(bench)
    bench.add_argument("--runs", type=int, default=5, help="repetitions for timings (best of N)")
    bench.add_argument("--only", action="append", choices=["parse", "search", "build"], help="run one part")
    bench.set_defaults(run=cmd_bench)
