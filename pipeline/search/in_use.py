"""Which kept indexes are being read: a reader holds a shared lock on an index's folder for as long as it
reads it (`hold`, `release`; `KnowledgeBase`, `built.search`), and the cache's pruning removes a folder only
when it can take the exclusive lock at once (`remove_unless_held`). A process that dies lets go of its locks.

Linux and macOS lock a folder as they lock a file (flock); where locking is not there, nothing is held and
nothing is pruned that is newer than the index just written or read (see `indexing._prune`).
"""
from __future__ import annotations

import contextlib
import os
import shutil
from pathlib import Path
from typing import Optional

try:
    import fcntl
except ImportError:          # not POSIX: no locks
    fcntl = None

SIGN = "state.json"          # what every whole index folder holds (index.write_index writes it last)


def hold(folder: Path | str) -> Optional[int]:
    """A shared lock on an index folder, kept until `release`; None when the folder is gone (pruned before the
    lock was taken: its name was free again by then)."""
    folder = Path(folder)
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return None
    try:
        if fcntl is not None:
            fcntl.flock(handle, fcntl.LOCK_SH)
        # taken after a pruner renamed it away: the name no longer leads to this folder
        if not (folder / SIGN).is_file() or os.stat(folder).st_ino != os.fstat(handle).st_ino:
            os.close(handle)
            return None
    except OSError:
        os.close(handle)
        return None
    return handle


def release(handle: Optional[int]) -> None:
    if handle is not None:
        os.close(handle)        # closing lets go of the lock


def used(folder: Path | str) -> None:
    """Mark an index as just used (its time), so that pruning, which keeps the newest, keeps it."""
    with contextlib.suppress(OSError):
        os.utime(folder)


def remove_unless_held(folder: Path) -> bool:
    """Remove an index folder unless a reader holds it; True when removed. It is renamed away under the
    exclusive lock first, so a reader that opened it meanwhile sees it gone (`hold` says None)."""
    try:
        handle = os.open(folder, os.O_RDONLY)
    except OSError:
        return False
    try:
        if fcntl is not None:
            try:
                fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:
                return False         # being read
        import secrets  # (here: pruning is rare, reading is at every question)
        away = folder.parent / f".pruned-{secrets.token_hex(4)}"
        try:
            os.rename(folder, away)
        except OSError:
            return False
    finally:
        os.close(handle)
    shutil.rmtree(away, ignore_errors=True)
    return True
