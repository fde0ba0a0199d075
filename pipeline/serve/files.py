"""The files of a site as answers: each with its precompressed forms and the headers it is sent with.

The build writes `x.gz` beside each text file (site.compress); a file is answered in the form the
client accepts best (Accept-Encoding, q-values honoured; brotli before gzip at equal weight), else as it
is. A form the build did not write (brotli; gzip for a file the build left without one) is made here
the first time a client asks for it and kept with the file (the only module that imports brotli).
Every answer carries the security headers; a page's Content-Security-Policy allows its own inline
scripts by hash and nothing else inline. Plain data and functions: no web framework here.
"""
from __future__ import annotations

import contextlib
import gzip
import hashlib
import re
from base64 import b64encode
from dataclasses import dataclass, field
from pathlib import Path
from typing import Optional

import brotli

TYPES = {".html": "text/html; charset=utf-8", ".css": "text/css; charset=utf-8",
         ".js": "text/javascript; charset=utf-8", ".json": "application/json; charset=utf-8",
         ".svg": "image/svg+xml", ".xml": "application/xml", ".txt": "text/plain; charset=utf-8",
         ".png": "image/png", ".ico": "image/x-icon", ".webmanifest": "application/manifest+json",
         ".woff2": "font/woff2", ".gz": "application/gzip", ".br": "application/octet-stream"}
COMPRESSIBLE = {".html", ".css", ".js", ".json", ".svg", ".xml", ".txt", ".webmanifest"}
ENCODINGS = (("br", ".br"), ("gzip", ".gz"))          # preferred first
BROTLI_QUALITY = 5      # made while a client waits, once per file: 11 is 30-100 times slower for 10-20 % fewer bytes
GZIP_LEVEL = 6
INLINE_SCRIPT = re.compile(rb"<script(?![^>]*\bsrc=)[^>]*>(.*?)</script>", re.S | re.I)


@dataclass
class SiteFile:
    """One file of the site: its bytes in each encoding it has, and its headers but Content-Length."""
    path: Path
    forms: dict[str, Optional[bytes]]   # "identity", and "br" / "gzip": None until made, absent if not smaller
    headers: dict[str, str]
    answers: dict = field(default_factory=dict)       # (encoding, status) -> an answer made once

    def encoding_for(self, accept_encoding: str) -> str:
        encoding = chosen_encoding(accept_encoding, self.forms)
        if self.forms[encoding] is None:
            made = _compressed(self.forms["identity"] or b"", encoding)
            if len(made) < len(self.forms["identity"] or b""):
                self.forms[encoding] = made
            else:                   # no smaller: the file as it is, to this client and the next
                del self.forms[encoding]
                return self.encoding_for(accept_encoding)
        return encoding

    def form(self, encoding: str) -> bytes:
        """The bytes sent in `encoding` (one `encoding_for` gave)."""
        return self.forms[encoding] or b""

    def header_fields(self, encoding: str) -> dict[str, str]:
        fields = dict(self.headers)
        if encoding != "identity":
            fields["Content-Encoding"] = encoding
        return fields


def load_file(path: Path) -> SiteFile:
    """A file of the site with the precompressed forms the build wrote beside it."""
    body = path.read_bytes()
    forms: dict[str, Optional[bytes]] = {"identity": body}
    if path.suffix in COMPRESSIBLE:
        for encoding, suffix in ENCODINGS:
            forms[encoding] = None
            with contextlib.suppress(OSError):
                forms[encoding] = path.with_name(path.name + suffix).read_bytes()
    hashes = " ".join(f"'sha256-{b64encode(hashlib.sha256(script).digest()).decode()}'"
                      for script in INLINE_SCRIPT.findall(body)) if path.suffix == ".html" else ""
    headers = {"Content-Type": TYPES.get(path.suffix, "application/octet-stream"),
               "Cache-Control": "no-cache" if path.suffix == ".html" or path.name == "sw.js" else "max-age=3600"}
    if len(forms) > 1:
        headers["Vary"] = "Accept-Encoding"
    headers.update(security_headers(hashes))
    return SiteFile(path, forms, headers)


def _compressed(body: bytes, encoding: str) -> bytes:
    if encoding == "br":
        return brotli.compress(body, quality=BROTLI_QUALITY)
    return gzip.compress(body, compresslevel=GZIP_LEVEL, mtime=0)


def security_headers(script_hashes: str = "") -> dict[str, str]:
    """The headers every answer carries: what a page may load and run (its own inline scripts, by hash)."""
    return {"Content-Security-Policy":
            f"default-src 'self'; script-src 'self' {script_hashes}".rstrip() + "; style-src 'self' 'unsafe-inline'; "
            "img-src 'self' data:; font-src 'self' data:; connect-src 'self'; worker-src 'self'; manifest-src 'self'; "
            "object-src 'none'; base-uri 'self'; form-action 'self'; frame-ancestors 'none'",
            "X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer", "X-Frame-Options": "DENY",
            "Cross-Origin-Opener-Policy": "same-origin"}


def chosen_encoding(header: str, available) -> str:
    """The best of the `available` encodings an Accept-Encoding header allows: the highest q-value above 0,
    brotli first at equal weight; "identity" when none ("gzip;q=0", "identity", no header)."""
    weights: dict[str, float] = {}
    for item in header.split(","):
        name, _, params = item.strip().partition(";")
        quality = 1.0
        match = re.search(r"q\s*=\s*([0-9.]+)", params, re.I)
        if match:
            try:
                quality = float(match.group(1))
            except ValueError:
                quality = 0.0
        if name.strip():
            weights[name.strip().lower()] = quality
    best, best_weight = "identity", 0.0
    for encoding, _ in ENCODINGS:
        weight = weights.get(encoding, weights.get("*", 0.0))
        if encoding in available and weight > best_weight:
            best, best_weight = encoding, weight
    return best


def site_path(root: Path, url_path: str) -> Optional[Path]:
    """The file a URL path names inside the site (a folder's index.html), None if there is none or it would
    leave the site, or is hidden ("..", ".rulekb-site", a backslash)."""
    parts = [part for part in url_path.split("/") if part]
    if any(part in ("..", ".") or part.startswith(".") or "\\" in part for part in parts):
        return None
    target = root.joinpath(*parts)
    if url_path.endswith("/") or not parts:
        target = target / "index.html"
    try:
        if not target.is_file() or not target.resolve().is_relative_to(root):
            return None
    except (OSError, ValueError):
        return None
    return target


def is_folder(root: Path, url_path: str) -> bool:
    """Whether a URL path without its final slash names a folder of the site that has an index.html."""
    return site_path(root, url_path.rstrip("/") + "/") is not None
