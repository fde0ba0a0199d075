"""The site's text files precompressed: `x.br` and `x.gz` beside each, as static hosts serve them.

Written into the staged site just before it is published (see publish), so that any host that serves
precompressed files (nginx's gzip_static and brotli_static, Caddy's `precompressed`, most static hosts)
and `rulekb serve` send the smaller form without compressing on each request. A form is written only
when it is smaller than the file. A file the previous site had byte for byte takes its forms from there
(a rebuild compresses only what changed), and files that are hard links of one another (older editions'
old addresses) share theirs. The only module that imports brotli.
"""
from __future__ import annotations

import contextlib
import gzip
import os
import shutil
import stat
from pathlib import Path
from typing import Optional

import brotli

from ..parallel import each

TEXT = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".webmanifest"}
FORMS = (".br", ".gz")
GZIP_LEVEL = 6              # level 9 saves 0.2 % more here, at twice the time
BROTLI_QUALITY = 8          # 10 and 11 save 10-25 % more, at 15-40 times the time (measured on the site)


def compressed(body: bytes, suffix: str) -> bytes:
    if suffix == ".br":
        return brotli.compress(body, quality=BROTLI_QUALITY)
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)      # mtime 0: the same bytes every build


def precompress(site: Path, previous: Optional[Path] = None) -> int:
    """Write the compressed forms of every text file of `site` (taken from `previous`, the site it replaces,
    where a file is unchanged); the number of files compressed anew (on every core: brotli and gzip were an
    eighth of the CPU time of a build of the CR archive, all in the build's own process)."""
    # (os.walk and plain strings: the CR archive's site has 50,000 files, most of them hard links, and pathlib's
    # objects for each took longer than the links themselves)
    first_of: dict[tuple[int, int], str] = {}           # a file's inode -> its first path
    links: list[tuple[str, str]] = []                   # (a hard link's first path, the link)
    fresh: list[Path] = []
    root = str(site)
    for folder, folders, names in os.walk(root):
        folders[:] = sorted(name for name in folders if not name.startswith("."))
        for name in sorted(names):
            if name.startswith(".") or os.path.splitext(name)[1] not in TEXT:
                continue
            path = os.path.join(folder, name)
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


def gzip_form(path: Path) -> int:
    """Write a text file's gzip form (if smaller), as `precompress` will keep it; its size (any file's). For
    what measures the gzip bytes of files before the site is published (offline_figures.stamp): each file is
    then gzipped once."""
    body = path.read_bytes()
    form = compressed(body, ".gz")
    if len(form) < len(body) and path.suffix in TEXT:
        _write_form(path, ".gz", form, stat.S_IMODE(path.stat().st_mode))
    return len(form)


def _write_forms(path: Path) -> None:
    body = path.read_bytes()
    status = path.stat()
    mode = stat.S_IMODE(status.st_mode)
    for suffix in FORMS:
        if suffix == ".gz" and _written_since(path.with_name(path.name + suffix), status):
            continue                                # by gzip_form, this build
        form = compressed(body, suffix)
        if len(form) < len(body):
            _write_form(path, suffix, form, mode)


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
