"""The output folder is the build's own: checked before use, locked while written, swapped whole.

- `check_output` refuses (OutputRefused) an --out that is a file, `/`, the home folder, the
  project, or that holds or lies inside the sources, or that holds anything not written by
  rulekb (the marker file `.rulekb-site` says a folder is a rulekb site).
- `BuildLock` lets one build at a time write a given output; a second one is told which
  process holds it.
- A build writes into a staging folder in the state folder beside the output
  (`.site.rulekb/building-<generation>/`, with its own marker), then swaps its site in with one
  atomic exchange (renameat2) where the system has it, two renames otherwise; the state folder
  keeps the search index of each generation (`index-<generation>`), and the generation the site's marker names
  says which index is its own (and which sources it was built from), so the site and its index are
  published together. A build killed at any moment leaves the old site and index in place; the next
  build removes what it left behind. Nothing is ever deleted that does not carry rulekb's marker.
- `checkpoint` names the steps of a build, for the fault tests (tests/test_faults.py) to kill it at
  each of them; it does nothing unless RULEKB_BUILD_CHECKPOINTS is set.
"""
from __future__ import annotations

import contextlib
import ctypes
import ctypes.util
import errno
import fcntl
import json
import os
import shutil
import socket
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Collection, Optional

from .compress import precompress
from .errors import BuildLocked, OutputRefused

MARKER = ".rulekb-site"          # in a published site and in a staging folder
CHECKPOINTS = "RULEKB_BUILD_CHECKPOINTS"   # fault tests: a folder where each step of a build says it was reached
PAUSE_AT = "RULEKB_BUILD_PAUSE_AT"          # fault tests: the step at which a build waits for "go-<step>" there
STAGING_PREFIX = "building-"
GENERATIONS_KEPT = 2             # index generations kept (the live one and the one before, for a running server)


def checkpoint(step: str) -> None:
    """A step of a build is reached. Only for the fault tests: with RULEKB_BUILD_CHECKPOINTS set, the step
    is written there (with this process's id), and at the step RULEKB_BUILD_PAUSE_AT names the build
    waits until the file "go-<step>" appears there (a test kills it meanwhile, or lets it go on)."""
    folder = os.environ.get(CHECKPOINTS)
    if not folder:
        return
    note = Path(folder) / f".{step}.{os.getpid()}"
    note.write_text(str(os.getpid()))
    os.replace(note, Path(folder) / step)
    if os.environ.get(PAUSE_AT) == step:
        go = Path(folder) / f"go-{step}"
        while not go.exists():
            time.sleep(0.01)


def state_folder(out: Path) -> Path:
    """rulekb's own folder beside the site: the lock, staging folders, index generations."""
    return out.with_name(f".{out.name}.rulekb")


def check_output(out: Path, sources: Optional[Path] = None, project: Optional[Path] = None) -> Path:
    """The resolved output folder, or OutputRefused saying why it cannot be used."""
    out = Path(out).expanduser().resolve()
    home = Path.home().resolve()
    if out == Path(out.anchor) or out == home:
        raise OutputRefused(f"{out} is {'the root folder' if out != home else 'your home folder'}: "
                            f"give --out a folder of its own, such as ./site")
    if out.exists() and not out.is_dir():
        raise OutputRefused(f"{out} is a file, not a folder: give --out a folder of its own, such as ./site")
    for name, other in (("sources", sources), ("project", project)):
        if other is None:
            continue
        other = Path(other).resolve()
        if other == out or other.is_relative_to(out):
            raise OutputRefused(f"{out} holds the {name} ({other}): the build replaces its output folder whole; "
                                f"give --out a folder of its own, such as ./site")
        if name == "sources" and out.is_relative_to(other):
            raise OutputRefused(f"{out} is inside the sources folder {other}: the site would be read as sources")
    state = state_folder(out)
    if state.exists() and (state.is_symlink() or not state.is_dir()):
        raise OutputRefused(f"{state} is not a folder rulekb made; rulekb keeps its lock and indexes there. "
                            f"Move it away or choose another --out")
    if out.is_dir() and not (out / MARKER).is_file() and any(out.iterdir()):
        raise OutputRefused(f"{out} holds files that rulekb did not write (it has no {MARKER} file); "
                            f"rulekb only replaces a folder it built. Give an empty or new folder")
    return out


@dataclass
class BuildLock:
    """An exclusive lock on an output folder, naming its holder."""
    out: Path
    handle: Optional[int] = None

    def __enter__(self) -> BuildLock:
        folder = state_folder(self.out)
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / "lock"
        self.handle = os.open(path, os.O_RDWR | os.O_CREAT, 0o644)
        try:
            fcntl.flock(self.handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except OSError as error:
            if error.errno not in (errno.EWOULDBLOCK, errno.EAGAIN):
                raise
            holder = _read_holder(self.handle)
            os.close(self.handle)
            self.handle = None
            raise BuildLocked(f"another build is writing {self.out} ({holder}); wait for it to finish") from None
        os.ftruncate(self.handle, 0)
        os.write(self.handle, json.dumps({"pid": os.getpid(), "host": socket.gethostname(),
                                          "started": time.strftime("%Y-%m-%d %H:%M:%S")}).encode())
        return self

    def __exit__(self, *exc) -> None:
        if self.handle is not None:
            os.ftruncate(self.handle, 0)
            os.close(self.handle)      # closing releases the lock (as does the process dying)
            self.handle = None


def _read_holder(handle: int) -> str:
    try:
        os.lseek(handle, 0, os.SEEK_SET)
        holder = json.loads(os.read(handle, 4096) or b"{}")
        return f"process {holder.get('pid')} on {holder.get('host')}, started {holder.get('started')}"
    except (OSError, ValueError):
        return "a process that did not say who it is"


def new_staging(out: Path, generation: str) -> Path:
    """A marked staging folder for the next generation: `site/` (readable by any web server user) and
    `index/` are written inside it; nothing of it is visible until `publish`."""
    staging = state_folder(out) / f"{STAGING_PREFIX}{generation}"
    staging.mkdir(parents=True)
    (staging / MARKER).write_text(json.dumps({"generation": generation, "state": "building", "pid": os.getpid()}))
    site = staging / "site"
    site.mkdir()
    os.chmod(site, 0o755)          # whatever the umask: the site is for a web server to read
    return staging


def clean_leftovers(out: Path) -> None:
    """What killed builds left: their staging folders and unpublished indexes (all marked as ours). A site
    left in a staging folder by a build killed between the two renames of `publish` (on systems without
    an atomic exchange) is put back first."""
    folder = state_folder(out)
    if not folder.is_dir():
        return
    leftovers = sorted(folder.glob(f"{STAGING_PREFIX}*"))
    if not out.exists():
        for leftover in reversed(leftovers):
            previous = leftover / "previous-site"
            if (leftover / MARKER).is_file() and (previous / MARKER).is_file():
                os.rename(previous, out)
                break
    for leftover in leftovers:
        _remove_ours(leftover)
    generation = (published(out) or {}).get("generation")
    live = index_folder(out, generation) if generation else None
    for index in folder.glob("index-*"):
        if index != live:
            _remove_ours(index)


def _remove_ours(folder: Path) -> None:
    """Remove a folder that carries our marker, the marker last (a kill midway leaves it marked, so the
    next build removes the rest); an empty one too (a build killed before it could mark it)."""
    if folder.is_symlink() or not folder.is_dir():
        return
    if not (folder / MARKER).is_file():
        with contextlib.suppress(OSError):
            folder.rmdir()              # only if empty
        return
    for child in folder.iterdir():
        if child.name == MARKER:
            continue
        if child.is_dir() and not child.is_symlink():
            shutil.rmtree(child, ignore_errors=True)
        else:
            child.unlink(missing_ok=True)
    (folder / MARKER).unlink(missing_ok=True)
    with contextlib.suppress(OSError):
        folder.rmdir()


def publish(staging: Path, out: Path, generation: str, record: dict, past: Collection[str] = frozenset()) -> None:
    """Publish a staged generation: its index goes beside the site, its site swaps with the old one. The
    site's marker names its generation (so its index) and its sources: one rename publishes them all. Its text
    files are precompressed first (see compress), with what the site it replaces already has, but those read for
    the past editions alone (`past`)."""
    precompress(staging / "site", previous=out if (out / MARKER).is_file() else None, past=past)
    index = None
    if (staging / "index").is_dir():
        index = index_folder(out, generation)
        (staging / "index" / MARKER).write_text(json.dumps({"generation": generation}))
        os.rename(staging / "index", index)
    checkpoint("index-moved")
    site = staging / "site"
    marker = {"generation": generation, "state": "published", "built": time.strftime("%Y-%m-%dT%H:%M:%S%z"),
              "pages": record.get("pages")}
    if record.get("sources"):
        marker["sources"] = str(record["sources"])
    (site / MARKER).write_text(json.dumps(marker, indent=1))
    if out.exists():
        if not _exchange(site, out):
            # No atomic exchange here: two renames, the old site kept in the (marked) staging folder
            # (a build killed between them leaves it there, and the next one puts it back).
            os.rename(out, staging / "previous-site")
            os.rename(site, out)
    else:
        os.rename(site, out)
    checkpoint("published")
    _remove_ours(staging)     # the old site is in it now
    _prune_indexes(out, keep=index)


def published(out: Path) -> Optional[dict]:
    """The marker of the published site: its generation and index folder."""
    try:
        return json.loads((Path(out) / MARKER).read_text())
    except (OSError, ValueError):
        return None


def index_folder(out: Path, generation: str) -> Path:
    """The search index published with a generation of the site."""
    return state_folder(out) / f"index-{generation}"


def published_sources(out: Path) -> Optional[Path]:
    """The sources folder the published site was built from (its marker says)."""
    sources = (published(out) or {}).get("sources")
    return Path(sources) if sources else None


def _prune_indexes(out: Path, keep: Optional[Path]) -> None:
    folder = state_folder(out)
    indexes = sorted((path for path in folder.glob("index-*") if path.is_dir() and (path / MARKER).is_file()),
                     key=lambda path: path.stat().st_mtime, reverse=True)
    for old in [path for path in indexes if path != keep][GENERATIONS_KEPT - 1:]:
        _remove_ours(old)


_RENAME_EXCHANGE = 2
_AT_FDCWD = -100


def _exchange(a: Path, b: Path) -> bool:
    """Swap two folders in one atomic step (Linux renameat2); False where the system cannot."""
    try:
        libc = ctypes.CDLL(ctypes.util.find_library("c"), use_errno=True)
        renameat2 = libc.renameat2
    except (OSError, AttributeError, TypeError):
        return False
    renameat2.argtypes = [ctypes.c_int, ctypes.c_char_p, ctypes.c_int, ctypes.c_char_p, ctypes.c_uint]
    result = renameat2(_AT_FDCWD, os.fsencode(a), _AT_FDCWD, os.fsencode(b), _RENAME_EXCHANGE)
    return result == 0
