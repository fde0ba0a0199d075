"""A content-keyed cache of parsed documents and comparisons, so a rebuild redoes only what changed.

Keys are hashes of what a result is made of (source bytes, document identity) within a
generation named after the pipeline's own code: a changed parser starts a new generation, and
older generations are pruned (the newest few are kept). The folder is the user's cache folder
(`~/.cache/rulekb`), or RULEKB_CACHE, or what `use_folder` sets; never the installed package.
Entries are pickles; one that cannot be read or written only costs time.
A file's content hash is remembered with its size, times and inode (`digest`), so that telling whether
anything changed costs a `stat` per file, not a read: `rulekb search` asks it at every question.
"""
from __future__ import annotations

import json
import os
import time
from datetime import date
from functools import lru_cache
from pathlib import Path
from typing import Any, Callable, Optional

# SHA-256 of short strings (keys, fingerprints) from CPython's own module: hashlib loads OpenSSL, which costs a
# question's process more than all its hashing. A file's bytes are hashed by hashlib (faster on large data).
try:
    from _sha256 import sha256 as short_sha256  # CPython 3.11
except ImportError:
    try:
        from _sha2 import sha256 as short_sha256  # CPython 3.12 on
    except ImportError:
        from hashlib import sha256 as short_sha256

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
    digest = short_sha256()
    package = os.path.dirname(os.path.realpath(__file__))
    modules = sorted((folder[len(package) + 1:] + "/" + name).lstrip("/")
                     for folder, _, names in os.walk(package) for name in names if name.endswith(".py"))
    with remembered_digests() as digest_of:
        for module in modules:           # (plain strings, not Paths: this runs at every question)
            digest.update(module.encode())
            digest.update(digest_of(package + "/" + module))
    return digest.hexdigest()[:16]


def folder_fingerprint(sources: Path, today: date, notes: Optional[Path] = None) -> str:
    """A hash of every file in a sources folder (and of the notes folder), the code and the day (an edition may
    take effect on it): what a corpus read from them is made of, known without parsing."""
    digest = short_sha256(code_version().encode() + today.isoformat().encode())
    digest.update(str(sources.resolve()).encode())
    with remembered_digests() as digest_of:
        for path in sorted(sources.iterdir()):
            if path.is_file() and not path.name.startswith("."):
                digest.update(path.name.encode() + b"\0" + digest_of(path))
        if notes is not None:
            digest.update(b"notes\0" + str(notes.resolve()).encode())
            for path in sorted(notes.rglob("*")):      # a link is hashed as where it points: never read through
                name = path.relative_to(notes).as_posix().encode() + b"\0"
                if path.is_symlink():
                    digest.update(name + os.readlink(path).encode())
                elif path.is_file():
                    digest.update(name + digest_of(path))
    return digest.hexdigest()[:24]


# A file written less than this many seconds before its hash is remembered may still change without its
# time changing (a file system keeping coarse times): its hash is not remembered, it is read again next time.
SETTLED_SECONDS = 2.0
DIGESTS_FILE = "digests.json"


class remembered_digests:
    """`with remembered_digests() as digest_of:` gives `digest_of(path)`, a file's SHA-256 (bytes), read only
    when its size, modification and change times or inode differ from the last time it was hashed. What
    was learnt is kept in the cache folder's DIGESTS_FILE (written whole and atomically; a lost or
    unreadable file only costs reading the files again)."""

    def __init__(self):
        self.path = folder() / DIGESTS_FILE
        self.known: dict[str, list] = {}
        self.learnt = False

    def __enter__(self) -> Callable[[Path], bytes]:
        try:
            self.known = json.loads(self.path.read_text(encoding="utf-8"))
        except (OSError, ValueError):
            self.known = {}
        if not isinstance(self.known, dict):
            self.known = {}
        return self.digest_of

    def digest_of(self, path: Path | str) -> bytes:
        name = os.fspath(path)
        name = name if name.startswith("/") and "/." not in name else os.path.abspath(name)
        status = os.stat(name)
        seen = [status.st_size, status.st_mtime_ns, status.st_ctime_ns, status.st_ino]
        known = self.known.get(name)
        if isinstance(known, list) and known[:4] == seen:
            return bytes.fromhex(known[4])
        import hashlib
        with open(path, "rb") as handle:
            found = hashlib.sha256(handle.read()).digest()
        if time.time() - max(status.st_mtime, status.st_ctime) > SETTLED_SECONDS:
            self.known[name] = [*seen, found.hex()]
            self.learnt = True
        return found

    def __exit__(self, *exception) -> None:
        if self.learnt and exception[0] is None:      # (files gone since are forgotten: the file stays small)
            kept = {name: known for name, known in self.known.items() if os.path.exists(name)}
            write_atomically(self.path, json.dumps(kept, separators=(",", ":")).encode())


def write_atomically(path: Path, data: bytes) -> None:
    """Write a file whole or not at all (a temporary file, then renamed)."""
    import tempfile
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=path.parent, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            out.write(data)
        os.replace(temporary, path)
    except OSError:
        pass   # a cache that cannot be written only costs time


def key(*parts: str) -> str:
    digest = short_sha256()
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
    import shutil
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
    import contextlib
    import gc
    import pickle
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
    import pickle
    import tempfile
    directory = generation()
    try:
        directory.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=directory, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, directory / f"{cache_key}.pickle")
    except OSError:
        pass   # a cache that cannot be written only costs time
