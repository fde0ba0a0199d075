"""The site's icons, drawn at build time: the app icons a phone puts on its home screen (192 and 512 px,
and a maskable one whose drawing keeps to the safe circle), the favicon, and the web app manifest that
names them.

The drawing is the header's balance (the penalty quick reference) in white on the palette's indigo, made of
bars and discs, rasterised row by row into PNG bytes with zlib alone: no image library, no binary in git.
"""
from __future__ import annotations

import json
import math
import struct
import zlib
from functools import lru_cache

# The palette's colours (mkdocs.yml: primary indigo, Material's shade of it) and the page's background.
THEME_COLOUR = "#4051b5"
BACKGROUND = "#ffffff"
INK = (255, 255, 255)
SIZES = (192, 512)
FAVICON_SIZE = 32
FOLDER = "assets/icons"

# The balance in a unit square: bars (left, top, right, bottom) and lower half-discs (centre x, centre y, radius).
BARS = ((0.465, 0.16, 0.535, 0.80),     # the post
        (0.14, 0.23, 0.86, 0.29),       # the beam
        (0.235, 0.29, 0.265, 0.55),     # the strings
        (0.735, 0.29, 0.765, 0.55),
        (0.30, 0.80, 0.70, 0.87))       # the foot
HALF_DISCS = ((0.25, 0.55, 0.15), (0.75, 0.55, 0.15))
DISCS = ((0.5, 0.17, 0.06),)


def _rgb(colour: str) -> tuple[int, int, int]:
    return int(colour[1:3], 16), int(colour[3:5], 16), int(colour[5:7], 16)


def _spans(y: float) -> list[tuple[float, float]]:
    """The drawing's covered stretches of the row at height `y` (unit square)."""
    found = [(left, right) for left, top, right, bottom in BARS if top <= y < bottom]
    for cx, cy, r in HALF_DISCS:
        if cy <= y < cy + r:
            half = math.sqrt(r * r - (y - cy) ** 2)
            found.append((cx - half, cx + half))
    for cx, cy, r in DISCS:
        if cy - r <= y < cy + r:
            half = math.sqrt(r * r - (y - cy) ** 2)
            found.append((cx - half, cx + half))
    return found


def icon_png(size: int, maskable: bool = False) -> bytes:
    """The app icon, `size` px square. A plain icon is a rounded square on a transparent ground; a maskable
    one fills the square (the phone cuts its own shape) and keeps the drawing inside the middle 80 %."""
    ground = bytes(_rgb(THEME_COLOUR)) + (b"" if maskable else b"\xff")
    ink = bytes(INK) + (b"" if maskable else b"\xff")
    clear = ground if maskable else b"\0\0\0\0"
    scale = 0.62 if maskable else 0.78            # how much of the square the drawing's unit square takes
    origin = (1 - scale) / 2
    corner = 0 if maskable else size * 0.18
    rows = []
    for row in range(size):
        inset = 0
        if corner:
            dy = max(corner - (row + 0.5), (row + 0.5) - (size - corner), 0)
            inset = round(corner - math.sqrt(max(corner * corner - dy * dy, 0))) if dy else 0
        covered = bytearray(size)                 # 1 where the drawing is
        for left, right in _spans(((row + 0.5) / size - origin) / scale):
            start, end = round((origin + left * scale) * size), round((origin + right * scale) * size)
            covered[start:end] = b"\1" * max(end - start, 0)
        pixels = bytearray(clear * inset)
        for column in range(inset, size - inset):
            pixels += ink if covered[column] else ground
        pixels += clear * inset
        rows.append(b"\0" + bytes(pixels))
    return _png(size, size, b"".join(rows), alpha=not maskable)


def _png(width: int, height: int, raw: bytes, alpha: bool) -> bytes:
    def chunk(kind: bytes, data: bytes) -> bytes:
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))
    header = struct.pack(">IIBBBBB", width, height, 8, 6 if alpha else 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def favicon_ico(png: bytes, size: int) -> bytes:
    """An .ico holding one PNG (what browsers ask for at /favicon.ico when a page names no icon)."""
    entry = struct.pack("<BBBBHHII", size % 256, size % 256, 0, 0, 1, 32, len(png), 22)
    return struct.pack("<HHH", 0, 1, 1) + entry + png


MANIFEST = "manifest.webmanifest"


def manifest(name: str, short_name: str, description: str) -> str:
    """The web app manifest: the site opens as an app of its own (standalone), from its home page."""
    icons = [{"src": f"{FOLDER}/icon-{size}.png", "sizes": f"{size}x{size}", "type": "image/png", "purpose": "any"}
             for size in SIZES]
    icons += [{"src": f"{FOLDER}/maskable-{size}.png", "sizes": f"{size}x{size}", "type": "image/png",
               "purpose": "maskable"} for size in SIZES]
    return json.dumps({"name": name, "short_name": short_name, "description": description, "id": "./",
                       "start_url": "./", "scope": "./", "display": "standalone", "orientation": "any",
                       "theme_color": THEME_COLOUR, "background_color": BACKGROUND, "icons": icons},
                      ensure_ascii=False, indent=1)


def icon_files() -> dict[str, bytes]:
    """Every icon file, by its place in the site."""
    return dict(_drawn())


@lru_cache(maxsize=1)
def _drawn() -> dict[str, bytes]:
    """The icons drawn once a process: they depend on nothing but this module (a tenth of a small site's build,
    which a process building several sites, a server's or the suite's, would pay each time)."""
    files: dict[str, bytes] = {}
    for size in SIZES:
        files[f"{FOLDER}/icon-{size}.png"] = icon_png(size)
        files[f"{FOLDER}/maskable-{size}.png"] = icon_png(size, maskable=True)
    small = icon_png(FAVICON_SIZE)
    files[f"{FOLDER}/favicon-{FAVICON_SIZE}.png"] = small
    files["favicon.ico"] = favicon_ico(small, FAVICON_SIZE)
    return files
