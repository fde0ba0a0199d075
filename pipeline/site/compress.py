"""The site's text files precompressed: `x.gz` beside each, as static hosts serve it.

Written into the staged site just before it is published (see publish), so that any host that serves
precompressed files (nginx's gzip_static, Caddy's `precompressed`, most static hosts) and `rulekb serve`
send the smaller form without compressing on each request. One form, gzip: every client and host takes it,
and the offline copy's size is measured in it (offline_figures writes it as it measures). A brotli form
beside it cost the CR archive's site 15 MB of disk and most of the compression's CPU time (brotli at
quality 8 is several times slower than gzip) for 12 % fewer bytes on the wire; `rulekb serve` makes the
brotli form itself when a client asks for it (serve.files). A form is written only when it is smaller
than the file. A file the previous site had byte for byte takes its form from there (a rebuild
compresses only what changed), and files that are hard links of one another (typed numbers' addresses)
share it. What is read for the past editions alone (their readers and data, what changed between two of
them: `past`, from the site's plan) is left without one: a tenth of the CR archive's site on disk for pages
rarely asked for, which `rulekb serve` compresses when asked (serve.files) and a host compresses as it
serves them (nginx's `gzip on` beside `gzip_static on`).
"""
from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import stat
from pathlib import Path
from typing import Collection, Optional

from ..parallel import each

TEXT = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".webmanifest"}
FORMS = (".gz",)
GZIP_LEVEL = 6              # level 9 saves 0.2 % more here, at twice the time


def compressed(body: bytes) -> bytes:
    """The gzip form of a file's bytes."""
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)      # mtime 0: the same bytes every build


def precompress(site: Path, previous: Optional[Path] = None, past: Collection[str] = frozenset()) -> int:
    """Write the compressed form of every text file of `site` (taken from `previous`, the site it replaces,
    where a file is unchanged) but those of the past editions (`past`: see is_past); the number of files
    compressed anew (on every core)."""
    # (os.walk and plain strings: the CR archive's site has 50,000 files, most of them hard links, and pathlib's
    # objects for each took longer than the links themselves)
    first_of: dict[tuple[int, int], str] = {}           # a file's inode -> its first path
    links: list[tuple[str, str]] = []                   # (a hard link's first path, the link)
    fresh: list[Path] = []
    root = str(site)
    for folder, folders, names in os.walk(root):
        below = folder[len(root) + 1:]                  # the folder's site path ("" at the root)
        folders[:] = sorted(name for name in folders if not name.startswith(".")
                            and not is_past(os.path.join(below, name), past))
        for name in sorted(names):
            if name.startswith(".") or os.path.splitext(name)[1] not in TEXT:
                continue
            path = os.path.join(folder, name)
            if is_past(os.path.join(below, name), past):
                continue
            status = os.lstat(path)
            if not stat.S_ISREG(status.st_mode):
                continue                        # a symbolic link, or no file
            first = first_of.setdefault((status.st_dev, status.st_ino), path)
            if first != path:
                links.append((first, path))
            elif previous is None or not _reuse(previous / os.path.relpath(path, root), Path(path).read_bytes(),
                                                Path(path)):
                fresh.append(Path(path))
    each(_write_forms, fresh, str)
    for first, path in links:                # after the first's forms are written
        for suffix in FORMS:
            _link_or_copy(first + suffix, path + suffix)
    return len(fresh)


def is_past(relative: str, past: Collection[str]) -> bool:
    """Whether a site path (relative, "/" or the system's separator) is one of `past` or below one of them."""
    if not past:
        return False
    parts = relative.replace(os.sep, "/").split("/")
    return any("/".join(parts[:count]) in past for count in range(1, len(parts) + 1))


def gzip_form(path: Path, site: Optional[Path] = None, previous: Optional[Path] = None, write: bool = True) -> int:
    """Write a text file's gzip form (if smaller, and `write`), as `precompress` will keep it; its size (any
    file's). For what measures the gzip bytes of files before the site is published (offline_figures.stamp):
    each file is then gzipped once. With `previous` (the site it replaces) and `site` (the one `path` is in), an
    unchanged file's form is taken from there."""
    body = path.read_bytes()
    if write and previous is not None and site is not None and path.suffix in TEXT and \
            _reuse(previous / path.relative_to(site), body, path):
        with contextlib.suppress(OSError):
            return path.with_name(path.name + ".gz").stat().st_size
    form = compressed(body)
    if write and len(form) < len(body) and path.suffix in TEXT:
        _write_form(path, ".gz", form, stat.S_IMODE(path.stat().st_mode))
    return len(form)


def _write_forms(path: Path) -> None:
    status = path.stat()
    if _written_since(path.with_name(path.name + ".gz"), status):
        return                                      # by gzip_form, this build
    body = path.read_bytes()
    form = compressed(body)
    if len(form) < len(body):
        _write_form(path, ".gz", form, stat.S_IMODE(status.st_mode))


def _write_form(path: Path, suffix: str, form: bytes, mode: int) -> None:
    target = path.with_name(path.name + suffix)
    target.unlink(missing_ok=True)          # a new file: never a write through a hard link
    target.write_bytes(form)
    os.chmod(target, mode)      # as readable as the file itself


def _written_since(form: Path, status: os.stat_result) -> bool:
    try:
        return form.stat().st_mtime_ns >= status.st_mtime_ns
    except OSError:
        return False


def _reuse(old: Path, body: bytes, path: Path) -> bool:
    """Link the forms of the previous site's copy of a file, if it has the same bytes and was compressed."""
    forms = [old.with_name(old.name + suffix) for suffix in FORMS]
    try:
        if not any(form.is_file() for form in forms) or old.read_bytes() != body:
            return False
    except OSError:
        return False
    for form, suffix in zip(forms, FORMS):
        if form.is_file():
            _link_or_copy(form, path.with_name(path.name + suffix))
    return True


def _link_or_copy(source: Path | str, target: Path | str) -> None:
    if not os.path.isfile(source):
        return
    with contextlib.suppress(FileNotFoundError):
        os.unlink(target)
    try:
        os.link(source, target)
    except OSError:
        shutil.copy2(source, target)
