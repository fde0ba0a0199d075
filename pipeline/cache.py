"""A content-keyed cache of parsed documents and comparisons, so a rebuild redoes only what changed.

Keys are hashes of what a result is made of (source bytes, document identity) within a
generation named after the pipeline's own code: a changed parser starts a new generation, and
older generations are pruned (the newest few are kept). The folder is the user's cache folder
(`~/.cache/rulekb`), or RULEKB_CACHE, or what `use_folder` sets; never the installed package.
Entries are pickles; one that cannot be read or written only costs time.
"""
from __future__ import annotations

import contextlib
import gc
import hashlib
import os
import pickle
import shutil
import tempfile
import time
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Optional

GENERATIONS_KEPT = 3
_folder: Optional[Path] = None
_pruned: set[Path] = set()


def use_folder(folder: Optional[Path | str]) -> None:
    """Put the cache in `folder` from now on (None: back to RULEKB_CACHE or the user's cache folder)."""
    global _folder
    _folder = Path(folder) if folder is not None else None


def folder() -> Path:
    if _folder is not None:
        return _folder
    configured = os.environ.get("RULEKB_CACHE")
    if configured:
        return Path(configured)
    from platformdirs import user_cache_dir
    return Path(user_cache_dir("rulekb", appauthor=False))


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of the pipeline's source code: any code change makes a new cache generation."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def folder_fingerprint(sources: Path, today: date, notes: Optional[Path] = None) -> str:
    """A hash of every file in a sources folder (and of the notes folder), the code and the day (an edition may
    take effect on it): what a corpus read from them is made of, known without parsing."""
    digest = hashlib.sha256(code_version().encode() + today.isoformat().encode())
    digest.update(str(sources.resolve()).encode())
    for path in sorted(sources.iterdir()):
        if path.is_file() and not path.name.startswith("."):
            digest.update(path.name.encode() + b"\0" + hashlib.sha256(path.read_bytes()).digest())
    if notes is not None:
        digest.update(b"notes\0" + str(notes.resolve()).encode())
        for path in sorted(notes.rglob("*")):      # a link is hashed as where it points: never read through
            name = path.relative_to(notes).as_posix().encode() + b"\0"
            if path.is_symlink():
                digest.update(name + os.readlink(path).encode())
            elif path.is_file():
                digest.update(name + hashlib.sha256(path.read_bytes()).digest())
    return digest.hexdigest()[:24]


def key(*parts: str) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def generation() -> Path:
    """This code's folder in the cache; the first use in a process prunes old generations."""
    here = folder() / f"gen-{code_version()}"
    if here not in _pruned:
        _pruned.add(here)
        _prune(here)
    return here


def _prune(keep: Path) -> None:
    """Remove all but the newest GENERATIONS_KEPT generation folders (this one is always kept)."""
    try:
        others = [path for path in keep.parent.glob("gen-*") if path.is_dir() and path != keep]
        others.sort(key=lambda path: path.stat().st_mtime, reverse=True)
    except OSError:
        return
    for old in others[GENERATIONS_KEPT - 1:]:
        shutil.rmtree(old, ignore_errors=True)


def has(cache_key: str) -> bool:
    return (generation() / f"{cache_key}.pickle").is_file()


def load(cache_key: str) -> Optional[Any]:
    path = generation() / f"{cache_key}.pickle"
    collecting = gc.isenabled()
    gc.disable()        # a parse is tens of thousands of objects and no cycle: no collection while they come in
    try:
        with path.open("rb") as handle:
            value = pickle.load(handle)
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError, ValueError):
        return None
    finally:
        if collecting:
            gc.enable()
    with contextlib.suppress(OSError):
        os.utime(path.parent, (time.time(), time.time()))   # a generation in use is a recent one
    return value


def remembered(cache_key: str, make: Callable[[], Any], use_cache: bool = True) -> Any:
    """The value stored under the key; else `make()`'s, stored unless it is None."""
    found = load(cache_key) if use_cache else None
    if found is None:
        found = make()
        if use_cache and found is not None:
            store(cache_key, found)
    return found


def store(cache_key: str, value: Any) -> None:
    directory = generation()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, directory / f"{cache_key}.pickle")
    except OSError:
        pass   # a cache that cannot be written only costs time
