"""The one module that talks to mkdocs: build the site, and the hooks `mkdocs.yml` loads.

Pages come from `pages` as HTML; here they become in-memory mkdocs files (nothing
generated is written into docs/), the navigation is set, the JSON exports and the
number map are added, and a finished build replaces the old site in one rename.
Moving off mkdocs-material (end of life May 2027) means rewriting this module only.
"""
from __future__ import annotations

import hashlib
import json
import logging
import os
import shutil
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, ConfigurationError
from mkdocs.plugins import event_priority
from mkdocs.structure.files import File

from . import cache
from .export import document_json, dumps
from .model import Corpus
from .pages import Layout, render_site

ROOT = Path(__file__).resolve().parent.parent
CONFIG_FILE = ROOT / "mkdocs.yml"
STATIC_NAV = [{"Search tips": "search-tips.md"}]

# Set by build_site so the hooks reuse the corpus the CLI already loaded (a _Build, defined below).
_prepared = None


class BuildFailed(Exception):
    """The site could not be built; the previous site is untouched."""


@dataclass
class _Build:
    """What the hooks need from build_site: the corpus, its pages, and what the last build left to reuse."""
    corpus: Corpus
    layout: Layout
    page_keys: dict[str, str]
    previous: Optional[dict] = None                   # the last build's record, when its pages can be reused
    search: dict[str, list] = field(default_factory=dict)   # page -> its entries in the search index
    order: list[str] = field(default_factory=list)   # pages in the order mkdocs renders them

    def reused(self, path: str) -> bool:
        return bool(self.previous) and self.previous["pages"].get(path) == self.page_keys.get(path)


def build_site(corpus: Corpus, out: Path | str = "site", config_file: Path | str = CONFIG_FILE,
               sources: Optional[Path] = None) -> dict:
    """Build the site into `out`, replacing the previous one only when the build has succeeded.

    When the last build had the same navigation, theme and configuration, only the pages
    whose content changed are rendered again (mkdocs' dirty build); the others, and their
    search entries, are the last build's. tests/test_rebuild.py checks the result equals a
    build from scratch.
    """
    global _prepared
    out = Path(out).resolve()
    _recover_interrupted_swap(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    started = time.perf_counter()
    layout = render_site(corpus)
    build = _Build(corpus, layout, {path: _page_key(page) for path, page in layout.pages.items()})
    site_key = _site_key(Path(config_file), layout)
    previous = _read_record(out)
    if previous and previous.get("site") == site_key and out.is_dir():
        build.previous = previous
        shutil.copytree(out, building, dirs_exist_ok=True)   # copies, not links: the old site stays as it is
    _prepared = build
    try:
        os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
        config = load_config(str(config_file), site_dir=str(building), strict=True)
        if sources is not None:
            config["extra"]["rulekb_sources"] = str(sources)
        _quiet_mkdocs()
        mkdocs_build(config, dirty=build.previous is not None)
    except (Abort, ConfigurationError, OSError) as error:
        shutil.rmtree(building, ignore_errors=True)
        raise BuildFailed(f"mkdocs could not build the site: {error}") from None
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    finally:
        _prepared = None
    _swap_into_place(building, out)
    _write_record(out, {"site": site_key, "pages": build.page_keys, "search": build.search, "order": build.order})
    rendered = sum(1 for path in layout.pages if not build.reused(path))
    return {"pages": len(layout.pages), "rendered": rendered, "seconds": time.perf_counter() - started,
            "out": str(out)}


def _page_key(page) -> str:
    return hashlib.sha256(json.dumps([page.title, page.description, page.search_boost, page.search_exclude,
                                      page.body]).encode()).hexdigest()


def _site_key(config_file: Path, layout: Layout) -> str:
    """Everything every page depends on: configuration, theme, static docs, navigation, page titles, code."""
    from importlib.metadata import version
    digest = hashlib.sha256(cache.code_version().encode())
    digest.update(f"{version('mkdocs')}|{version('mkdocs-material')}".encode())
    for folder in (config_file.parent / "docs", Path(__file__).resolve().parent / "theme"):
        for path in sorted(folder.rglob("*")):
            if path.is_file():
                digest.update(path.as_posix().encode() + b"\0" + path.read_bytes())
    digest.update(config_file.read_bytes())
    digest.update(json.dumps(layout.nav).encode())
    digest.update(json.dumps(sorted((path, page.title) for path, page in layout.pages.items())).encode())
    return digest.hexdigest()


def _record_path(out: Path) -> Path:
    return out.with_name(f".{out.name}.build.json")


def _read_record(out: Path) -> Optional[dict]:
    try:
        return json.loads(_record_path(out).read_text())
    except (OSError, ValueError):
        return None


def _write_record(out: Path, record: dict) -> None:
    try:
        _record_path(out).write_text(json.dumps(record))
    except OSError:
        pass   # without a record the next build renders every page: slower, never wrong


def _quiet_mkdocs() -> None:
    logging.getLogger("mkdocs").setLevel(logging.WARNING)


def _swap_into_place(built: Path, out: Path) -> None:
    old = out.with_name(f".{out.name}.old")
    if old.exists():
        shutil.rmtree(old)
    if out.exists():
        os.rename(out, old)
    os.rename(built, out)
    shutil.rmtree(old, ignore_errors=True)


def _recover_interrupted_swap(out: Path) -> None:
    """A build killed between the two renames leaves the old site as .site.old: put it back."""
    old = out.with_name(f".{out.name}.old")
    if old.exists() and not out.exists():
        os.rename(old, out)
    for leftover in out.parent.glob(f".{out.name}.building-*"):
        shutil.rmtree(leftover, ignore_errors=True)


# ------------------------------------------------------------------------------------------------
# mkdocs hooks (mkdocs.yml: hooks: [pipeline/mkdocs_hooks.py])

class _DirtyBuildNotice(logging.Filter):
    """mkdocs warns that a dirty build may leave stale navigation; ours only reuses pages whose
    navigation, theme and content are unchanged, so the warning (fatal in strict mode) does not apply."""

    def filter(self, record: logging.LogRecord) -> bool:
        return "A 'dirty' build is being performed" not in record.getMessage()


logging.getLogger("mkdocs.commands.build").addFilter(_DirtyBuildNotice())


def _current(config) -> _Build:
    if _prepared is not None:
        return _prepared
    from .ingest import load_corpus
    sources = Path(config["extra"].get("rulekb_sources", "sources"))
    if not sources.is_absolute():
        sources = Path(config["config_file_path"]).parent / sources
    corpus = load_corpus(sources)
    errors = [p for p in corpus.all_problems() if p.severity == "error"]
    for problem in errors:
        logging.getLogger("mkdocs.rulekb").error(str(problem))
    layout = render_site(corpus)
    return _Build(corpus, layout, {path: _page_key(page) for path, page in layout.pages.items()})


def on_config(config):
    build = _current(config)
    config["nav"] = build.layout.nav + STATIC_NAV
    config["extra"]["rulekb_build"] = build
    config["extra"]["rulekb_layout"] = build.layout
    config["extra"]["rulekb_corpus"] = build.corpus
    config["extra"]["rulekb_has_penalties"] = "penalties.md" in build.layout.pages
    return config


def on_files(files, config):
    layout: Layout = config["extra"]["rulekb_layout"]
    corpus: Corpus = config["extra"]["rulekb_corpus"]
    build: _Build = config["extra"]["rulekb_build"]
    for page in layout.pages.values():
        file = File.generated(config, page.path, content=_markdown(page))
        if build.reused(page.path):
            file.is_modified = lambda: False     # the last build's HTML for it is still right
        files.append(file)
    from .search import abbreviations
    table = {key: phrases[0] for key, phrases in abbreviations().items()}
    files.append(File.generated(config, "assets/abbreviations.js",
                                content="window.rulekbAbbreviations = " + json.dumps(table, ensure_ascii=False,
                                                                                    sort_keys=True) + ";\n"))
    files.append(File.generated(config, "assets/numbers.json",
                                content=json.dumps(layout.numbers, ensure_ascii=False, sort_keys=True)))
    documents = []
    for document in corpus.documents:
        files.append(File.generated(config, f"data/{document.id}.json", content=dumps(document_json(document, corpus))))
        documents.append({"id": document.id, "kind": document.info.kind, "title": document.info.title,
                          "edition": document.info.edition, "current": document.info.current,
                          "excerpt": document.info.excerpt, "url": f"data/{document.id}.json"})
    files.append(File.generated(config, "data/index.json", content=dumps({"documents": documents})))
    # the check report: every problem `rulekb check` lists, for maintainers and tools
    problems = [{"severity": p.severity, "file": p.file, "line": p.line, "message": p.message}
                for p in corpus.all_problems()]
    files.append(File.generated(config, "data/problems.json", content=dumps({"problems": problems})))
    return files


def on_page_content(html, page, config, files):
    """Put the generated body in place of the (empty) Markdown rendering: no Markdown pass over HTML."""
    layout: Layout = config["extra"]["rulekb_layout"]
    generated = layout.pages.get(page.file.src_uri)
    if generated is None:
        return html
    return '<div class="rk-page">' + generated.body + "</div>"


def on_page_context(context, page, config, nav):
    """Note the search entries each rendered page gave (the search plugin has just added them)."""
    build: _Build = config["extra"]["rulekb_build"]
    index = _search_index(config)
    if index is not None:
        already = sum(len(entries) for entries in build.search.values())
        build.search[page.file.src_uri] = index.entries[already:]
    build.order.append(page.file.src_uri)
    return context


@event_priority(100)   # before the search plugin writes its index
def on_post_build(config):
    """A partial build's search index: the rendered pages' entries and the reused pages' from last time."""
    build: _Build = config["extra"]["rulekb_build"]
    index = _search_index(config)
    if build.previous is None or index is None:
        return
    rendered = set(build.order)
    order = build.previous.get("order", []) + [path for path in build.order if path not in build.previous.get("order", [])]
    merged = []
    for path in order:
        entries = build.search.get(path) if path in rendered else build.previous.get("search", {}).get(path, [])
        build.search[path] = entries or []
        merged.extend(entries or [])
    index.entries = merged
    build.order = order


def _search_index(config):
    plugin = config["plugins"].get("material/search") or config["plugins"].get("search")
    return getattr(plugin, "search_index", None)


def on_serve(server, config, builder):
    sources = Path(config["extra"].get("rulekb_sources", "sources"))
    if not sources.is_absolute():
        sources = Path(config["config_file_path"]).parent / sources
    server.watch(str(sources))
    return server


def _markdown(page) -> str:
    """A generated page: YAML front matter (JSON strings are valid YAML) and the HTML body."""
    meta = [f"title: {json.dumps(page.title)}"]
    if page.description:
        meta.append(f"description: {json.dumps(page.description)}")
    if page.search_exclude:
        meta.append("search:\n  exclude: true")
    elif page.search_boost:
        meta.append(f"search:\n  boost: {page.search_boost}")
    # The body itself is put in by on_page_content: Markdown never sees source text.
    return "---\n" + "\n".join(meta) + "\n---\n"


__all__ = ["build_site", "BuildFailed", "on_config", "on_files", "on_page_content", "on_page_context",
           "on_post_build", "on_serve"]
