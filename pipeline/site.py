"""The one module that talks to mkdocs: build the site, and the hooks `mkdocs.yml` loads.

Pages come from `pages` as HTML; here they become in-memory mkdocs files (nothing
generated is written into docs/), the navigation is set, the JSON exports and the
number map are added, and a finished build replaces the old site in one rename.
Moving off mkdocs-material (end of life May 2027) means rewriting this module only.
"""
from __future__ import annotations

import json
import logging
import os
import shutil
import tempfile
import time
from pathlib import Path
from typing import Optional

from mkdocs.commands.build import build as mkdocs_build
from mkdocs.config import load_config
from mkdocs.exceptions import Abort, ConfigurationError
from mkdocs.structure.files import File

from .export import document_json, dumps
from .model import Corpus
from .pages import Layout, render_site

ROOT = Path(__file__).resolve().parent.parent
CONFIG_FILE = ROOT / "mkdocs.yml"
STATIC_NAV = [{"Search tips": "search-tips.md"}]

# Set by build_site so the hooks reuse the corpus the CLI already loaded.
_prepared: Optional[tuple[Corpus, Layout]] = None


class BuildFailed(Exception):
    """The site could not be built; the previous site is untouched."""


def build_site(corpus: Corpus, out: Path | str = "site", config_file: Path | str = CONFIG_FILE,
               sources: Optional[Path] = None) -> dict:
    """Build the site into `out`, replacing the previous one only when the build has succeeded."""
    global _prepared
    out = Path(out).resolve()
    _recover_interrupted_swap(out)
    out.parent.mkdir(parents=True, exist_ok=True)
    building = Path(tempfile.mkdtemp(prefix=f".{out.name}.building-", dir=out.parent))
    started = time.perf_counter()
    layout = render_site(corpus)
    _prepared = (corpus, layout)
    try:
        os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")
        config = load_config(str(config_file), site_dir=str(building), strict=True)
        if sources is not None:
            config["extra"]["rulekb_sources"] = str(sources)
        _quiet_mkdocs()
        mkdocs_build(config)
    except (Abort, ConfigurationError, OSError) as error:
        shutil.rmtree(building, ignore_errors=True)
        raise BuildFailed(f"mkdocs could not build the site: {error}") from None
    except BaseException:
        shutil.rmtree(building, ignore_errors=True)
        raise
    finally:
        _prepared = None
    _swap_into_place(building, out)
    return {"pages": len(layout.pages), "seconds": time.perf_counter() - started, "out": str(out)}


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

def _current(config) -> tuple[Corpus, Layout]:
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
    return corpus, render_site(corpus)


def on_config(config):
    corpus, layout = _current(config)
    config["nav"] = layout.nav[:2] + layout.nav[2:] + STATIC_NAV
    config["extra"]["rulekb_layout"] = layout
    config["extra"]["rulekb_corpus"] = corpus
    return config


def on_files(files, config):
    layout: Layout = config["extra"]["rulekb_layout"]
    corpus: Corpus = config["extra"]["rulekb_corpus"]
    for page in layout.pages.values():
        files.append(File.generated(config, page.path, content=_markdown(page)))
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
    return files


def on_page_content(html, page, config, files):
    """Put the generated body in place of the (empty) Markdown rendering: no Markdown pass over HTML."""
    layout: Layout = config["extra"]["rulekb_layout"]
    generated = layout.pages.get(page.file.src_uri)
    if generated is None:
        return html
    return '<div class="rk-page">' + generated.body + "</div>"


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


__all__ = ["build_site", "BuildFailed", "on_config", "on_files", "on_page_content", "on_serve"]
