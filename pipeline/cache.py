"""A content-keyed cache of parsed documents, so a rebuild re-parses only what changed.

Keys are hashes of the source bytes, the document's identity and the pipeline's own
code, so a changed parser invalidates every entry. Entries are pickles in .cache/.
"""
from __future__ import annotations

import hashlib
import os
import pickle
import tempfile
from functools import lru_cache
from pathlib import Path
from typing import Any, Optional

CACHE_DIR = Path(os.environ.get("RULEKB_CACHE", Path(__file__).resolve().parent.parent / ".cache"))


@lru_cache(maxsize=1)
def code_version() -> str:
    """A hash of the pipeline's source code: any code change makes a new cache generation."""
    digest = hashlib.sha256()
    package = Path(__file__).resolve().parent
    for path in sorted(package.rglob("*.py")):
        digest.update(path.relative_to(package).as_posix().encode())
        digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def key(*parts: str) -> str:
    digest = hashlib.sha256(code_version().encode())
    for part in parts:
        digest.update(b"\0" + part.encode("utf-8", "surrogatepass"))
    return digest.hexdigest()


def load(cache_key: str) -> Optional[Any]:
    path = CACHE_DIR / f"{cache_key}.pickle"
    try:
        with path.open("rb") as handle:
            return pickle.load(handle)
    except (OSError, pickle.PickleError, EOFError, AttributeError, ImportError):
        return None


def store(cache_key: str, value: Any) -> None:
    try:
        CACHE_DIR.mkdir(parents=True, exist_ok=True)
        handle, temporary = tempfile.mkstemp(dir=CACHE_DIR, suffix=".tmp")
        with os.fdopen(handle, "wb") as out:
            pickle.dump(value, out, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(temporary, CACHE_DIR / f"{cache_key}.pickle")
    except OSError:
        pass   # a cache that cannot be written only costs time
