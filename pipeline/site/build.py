"""Build the site and its search index from a corpus, as one generation, into an output folder.

The steps, top to bottom: check the output folder is ours; take its lock; write the search index in a
second process (`parallel.Background`: it dies with this one) from the start; meanwhile collect what the
site is made of (`collect`: histories and comparisons of the older editions, on every core), plan the
pages and let mkdocs render them into a staging folder; add the browser's search data; publish site and
index together. A failure or a kill at any step leaves the published site and index as they were.
"""
from __future__ import annotations

import os
import secrets
import shutil
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, Optional

from ..addresses import Addresses, address_corpus
from ..model import Corpus
from ..parallel import Background
from . import offline_figures, publish
from .collect import collect
from .errors import BuildFailed
from .mkdocs_site import SiteBuildError, render
from .plan import plan_site

PACKAGED_CONFIG = Path(__file__).resolve().parent / "mkdocs.yml"


@dataclass
class BuildResult:
    out: Path
    pages: int
    seconds: float
    generation: str
    index: Optional[dict] = None       # what the indexer did: documents (re)indexed, kept


def find_config(sources: Optional[Path], given: Optional[Path] = None) -> Path:
    """The site configuration: the one given, else the project's mkdocs.yml beside (or in) the sources,
    else the one this package ships."""
    if given is not None:
        if not Path(given).is_file():
            raise BuildFailed(f"no configuration file {given}")
        return Path(given)
    if sources is not None:
        for candidate in (Path(sources).resolve().parent / "mkdocs.yml", Path(sources) / "mkdocs.yml"):
            if candidate.is_file():
                return candidate
    return PACKAGED_CONFIG


def new_generation() -> str:
    return time.strftime("%Y%m%d-%H%M%S-") + secrets.token_hex(3)


def build_site(corpus: Corpus, out: Path | str = "site", *, sources: Optional[Path] = None,
               config_file: Optional[Path] = None,
               write_index: Optional[Callable[[Corpus, Addresses, Path, Path, str], dict]] = None) -> BuildResult:
    """Build `corpus` into `out`; `write_index(corpus, its addresses, index folder, site files folder,
    generation)` writes its search index meanwhile (the site files it writes join the site). A worker's failure
    is raised as parallel.WorkFailed, naming the file it concerns."""
    started = time.perf_counter()
    config_file = find_config(sources, config_file)
    out = publish.check_output(Path(out), sources, config_file.resolve().parent)
    with publish.BuildLock(out):
        publish.clean_leftovers(out)
        generation = new_generation()
        staging = publish.new_staging(out, generation)
        publish.checkpoint("staged")
        indexer = None
        try:
            addresses = address_corpus(corpus)
            if write_index:     # it needs none of the histories: it starts first, and has a core while they are made
                indexer = Background(lambda: _index(write_index, corpus, addresses, staging, generation),
                                     "the search index")
            build = collect(corpus, addresses=addresses)
            plan = plan_site(build, generation)
            publish.checkpoint("planned")
            try:
                render(plan, config_file, staging / "site")
            except SiteBuildError as error:
                raise BuildFailed(str(error)) from None
            _copies(plan.links, staging / "site")
            _folder_links(plan.folders, staging / "site")
            publish.checkpoint("rendered")
            indexed = indexer.result() if indexer else None
            _merge(staging / "search-files", staging / "site")
            # what the phone saves, known only now
            offline_figures.stamp(staging / "site", out if (out / publish.MARKER).is_file() else None, plan.past)
            publish.checkpoint("publishing")
            publish.publish(staging, out, generation,
                            {"pages": len(plan.pages), "sources": Path(sources).resolve() if sources else None},
                            plan.past)
        except BaseException:
            if indexer is not None:
                indexer.stop()
            shutil.rmtree(staging, ignore_errors=True)
            raise
    return BuildResult(out, len(plan.pages), time.perf_counter() - started, generation, indexed)


def _copies(links: dict[str, str], site: Path) -> None:
    """Pages that are copies of one page (an older edition's old addresses): hard links, one file on disk."""
    for path, original in links.items():
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.link(site / original, target)
        except OSError:
            shutil.copyfile(site / original, target)


def _folder_links(folders: dict[str, str], site: Path) -> None:
    """Folders that are another folder (a typed number's address): a symbolic link, relative, so that the site
    can move; where the system makes none, a folder whose files are hard links to the other's."""
    for path, original in folders.items():
        target = site / path
        target.parent.mkdir(parents=True, exist_ok=True)
        try:
            os.symlink(os.path.relpath(site / original, target.parent), target, target_is_directory=True)
        except OSError:
            target.mkdir(exist_ok=True)
            _copies({f"{path}/{file.name}": f"{original}/{file.name}" for file in (site / original).iterdir()}, site)


def _merge(extra: Path, site: Path) -> None:
    """Move the files the indexer wrote for the site into it."""
    if not extra.is_dir():
        return
    for path in sorted(extra.rglob("*")):
        if path.is_file():
            target = site / path.relative_to(extra)
            target.parent.mkdir(parents=True, exist_ok=True)
            os.replace(path, target)


def _index(write_index: Callable, corpus: Corpus, addresses: Addresses, staging: Path, generation: str) -> dict:
    """In the indexer's process."""
    publish.checkpoint("indexing")
    return write_index(corpus, addresses, staging / "index", staging / "search-files", generation)
