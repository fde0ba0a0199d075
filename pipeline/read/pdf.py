"""Read a text PDF into numbered lines for the line-based rule-document parsers.

    lines, problems = pdf_to_lines(data, "mtr-2021-07-23.pdf")

Each `PdfLine` is one visual line of the PDF, in reading order (PDFium's text order),
whitespace-normalised, with the page furniture (page numbers, running headers and footers)
removed, and an empty line wherever the vertical gap clearly exceeds the normal line
spacing (a paragraph break). `hint` says what the fonts tell: "h1".."h4" for a heading (a
font clearly larger than the body text, or a short bold line standing as a paragraph of its
own), "li" for a bulleted item (its bullet glyph normalised to "• "), "" for body text.

What is kept as the PDF has it: line-end hyphens ("DCI-" / "sanctioned" stay two lines),
the contents pages (dot leaders shortened to "...."), tables (one line per row, cells
joined by a space), an IPG heading and its penalty box when PDFium puts them on one line.

Error policy: this module never raises for a bad input; it returns messages, each starting
with "<name>: ". A file that cannot be read at all (not a PDF, encrypted with a password,
damaged beyond repair) gives ``([], ["<name>: cannot open the PDF: ..."])``; a PDF without a
text layer (a scan) gives ``([], ["<name>: page N: no text, only images ..."])``. A damaged or
truncated file that PDFium refuses is read again with a rebuilt index (every page object
still in the file), keeping what is there and saying how many pages came back; a file that
does not end with %%EOF is flagged. A page that fails on its own is reported as
``"<name>: page N: ..."`` and the other pages are kept. Only a wrong argument type (not
bytes) raises, TypeError.

The PDF library, pypdfium2 (PDFium's binding), is imported only in this module. PDFium is
not thread-safe: call `pdf_to_lines` from one thread at a time.
"""
from __future__ import annotations

import contextlib
import ctypes
import math
import re
import struct
import unicodedata
import zlib
from collections import Counter, defaultdict
from dataclasses import dataclass, field

import pypdfium2 as pdfium
import pypdfium2.raw as pdfium_c

__all__ = ["PdfLine", "pdf_to_lines", "read_pdf"]


@dataclass(frozen=True)
class PdfLine:
    number: int      # 1-based sequential line number in the extracted text
    text: str        # the line's text, whitespace-normalised inside, no trailing spaces
    hint: str        # "" body; "h1".."h4" heading by font; "li" bulleted item
    page: int        # 1-based page number


# ---------------------------------------------------------------- tunables (REPORT.md explains)
HEADING_SIZE_RATIO = 1.12      # a line whose font is this much larger than the body's: heading
BOLD_SHARE = 0.9               # share of a line's characters in bold to call the line bold
BOLD_HEADING_MAX_CHARS = 100   # a bold heading line is short ...
BOLD_HEADING_MAX_LINES = 2     # ... and a paragraph of its own of at most this many lines
PARAGRAPH_GAP = 1.3            # empty line when baseline distance > this x the normal spacing
PAGE_BREAK_EXTRA = 1.6         # at a page break: empty line when the previous page stopped more
#                                than this many normal line spacings above the usual bottom,
PAGE_TOP_EXTRA = 0.5           # or the new page starts this many spacings below the usual top,
SHORT_LINE = 0.2               # or the previous page ends with a line this much (of the text
#                                width) short of the right margin: the end of a paragraph
BOX_MAX_LINES = 4              # a text box drawn out of the flow is put back if this short
BOX_BESIDE = 0.9               # ... after the lines whose baseline is at most this x its size below its top
FURNITURE_SHARE = 0.4          # a running header/footer repeats on at least this share ...
FURNITURE_MIN_PAGES = 3        # ... and at least this many of the pages with text

STRONG_BULLETS = set("•●○◦▪▫■□‣⁃∙◾◽►▶➢➤❖✓✔")       # a bullet at line start, space or not
SYMBOL_FONT = re.compile(r"symbol|wingding|dingbat|webding", re.I)
BOLD_NAME = re.compile(r"bold|black|heavy|semibold|demi", re.I)
PAGE_NUMBER = re.compile(
    r"^(?:[Pp]age\s+)?\d{1,4}(?:\s*(?:of|/)\s*\d{1,4})?$"   # 7, Page 7, 7 of 55, 7/55
    r"|^[-–—]\s*\d{1,4}\s*[-–—]$"                          # - 7 -
    r"|^(?=[ivx])x{0,3}(?:ix|iv|v?i{0,3})$")                # vii (front matter; lower case
#                                                          only: "X" is a CR glossary term)
LEADER = re.compile(r"\s*(?:(?:(?:\.\s?){5,}|(?:…\s?){2,})(?=\s*\d{1,4}\s*$)|\.{8,})\s*")
LIGATURES = {"\ufb00": "ff", "\ufb01": "fi", "\ufb02": "fl", "\ufb03": "ffi", "\ufb04": "ffl",
             "\ufb05": "st", "\ufb06": "st"}

_FORCE_BOLD_FLAG = 1 << 18        # PDF font descriptor flag ForceBold (bit 19)
_RENDER_FILL_STROKE = 2           # text render mode "fill, then stroke": a faux bold
_WORD = re.compile(r"\S+")
_WS = re.compile(r"\s+")
_ODD = re.compile("[\ud800-\udfff\U0001D400-\U0001D7FF]")
_MATH_ALNUM = re.compile("[\U0001D400-\U0001D7FF]")
_CLEAN = dict.fromkeys(range(32), " ")
_CLEAN.update({0x2: "-", 0xFFFE: "-", 0xAD: None})      # PDFium's marks of a line-end hyphen
_CLEAN.update({ord(k): v for k, v in LIGATURES.items()})


# ---------------------------------------------------------------- raw calls on plain ints
def _proto(name, restype, *argtypes):
    """A PDFium function taking and giving plain integers for handles: no pointer objects
    to build or cast per call (the per-character call is most of the reading time)."""
    address = ctypes.cast(getattr(pdfium_c, name), ctypes.c_void_p).value
    return ctypes.CFUNCTYPE(restype, *argtypes)(address)


_VP, _INT = ctypes.c_void_p, ctypes.c_int
_text_object = _proto("FPDFText_GetTextObject", _VP, _VP, _INT)      # (textpage, index) -> obj
_object_font = _proto("FPDFTextObj_GetFont", _VP, _VP)               # obj -> font
_render_mode = _proto("FPDFTextObj_GetTextRenderMode", _INT, _VP)    # obj -> mode
_font_name = _proto("FPDFFont_GetBaseFontName", ctypes.c_size_t, _VP, ctypes.c_char_p, ctypes.c_size_t)
_font_weight = _proto("FPDFFont_GetWeight", _INT, _VP)
_font_flags = _proto("FPDFFont_GetFlags", _INT, _VP)


# ---------------------------------------------------------------- data while reading
@dataclass(slots=True)
class _Run:
    """One PDF text object: a run of text in one font and size on one baseline."""
    size: float
    x: float
    baseline: float
    bold: bool
    symbol: bool        # drawn in a symbol/dingbat font (a bullet)
    font: str
    upright: bool       # not rotated: baselines are horizontal


@dataclass(slots=True)
class _RawLine:
    page: int
    chars: list = field(default_factory=list)
    sizes: dict = field(default_factory=dict)        # font size -> characters
    baselines: dict = field(default_factory=dict)    # baseline -> characters
    bold: int = 0
    counted: int = 0                                 # non-space characters
    first_run: _Run | None = None
    ref_baseline: float | None = None
    last_index: int = -1                             # the last character drawn
    text: str = ""
    size: float = 0.0
    baseline: float = 0.0
    right: float = 0.0                               # where the line ends, x
    gap_before: bool = False
    boxed: bool = False                              # starts or ends a moved text box

    def add(self, run: _Run, chars: str) -> None:
        self.chars.append(chars)
        n = len(chars) - chars.count(" ")
        if n <= 0:
            return
        if self.first_run is None:
            self.first_run = run
            self.ref_baseline = run.baseline
        key = round(run.size * 2) / 2
        self.sizes[key] = self.sizes.get(key, 0) + n
        self.baselines[run.baseline] = self.baselines.get(run.baseline, 0) + n
        self.counted += n
        if run.bold:
            self.bold += n


class _Fonts:
    """Per-document cache: font handle -> (name, bold, symbol)."""

    def __init__(self):
        self.cache: dict = {}
        self.buf = ctypes.create_string_buffer(256)

    def info(self, font: int | None) -> tuple[str, bool, bool]:
        hit = self.cache.get(font)
        if hit is None:
            name, weight, flags = "", 0, 0
            if font:
                n = _font_name(font, self.buf, len(self.buf))
                name = self.buf.raw[: max(0, min(n, len(self.buf)) - 1)].decode("latin-1", "replace")
                weight = _font_weight(font)
                flags = _font_flags(font)
            name = name.split("+", 1)[-1]          # drop the subset tag ("ABCDEF+Times-Bold")
            bold = bool(BOLD_NAME.search(name)) or weight >= 600 or bool(flags & _FORCE_BOLD_FLAG)
            hit = self.cache[font] = (name, bold, bool(SYMBOL_FONT.search(name)))
        return hit


# ---------------------------------------------------------------- public entry point
def pdf_to_lines(data: bytes, name: str) -> tuple[list[PdfLine], list[str]]:
    """Lines of a text PDF in reading order, page furniture removed; problems as messages naming the page."""
    if not isinstance(data, (bytes, bytearray, memoryview)):
        raise TypeError("pdf_to_lines wants the PDF's bytes")
    data = bytes(data)
    if b"%PDF" not in data[:1024]:
        return [], [f"{name}: cannot open the PDF: not a PDF (no %PDF header)"]
    problems: list[str] = []
    try:
        doc = pdfium.PdfDocument(data)
    except Exception as exc:
        reason = _open_reason(exc)
        rebuilt = None if "password" in reason.lower() else _rebuild_index(data)
        if rebuilt is None:
            return [], [f"{name}: cannot open the PDF: {reason}"]
        try:
            doc = pdfium.PdfDocument(rebuilt[0])
        except Exception:
            return [], [f"{name}: cannot open the PDF: {reason}"]
        found, total = rebuilt[1], rebuilt[2]
        problems.append(
            f"{name}: damaged or truncated PDF ({exc}); read by rebuilding its index from the "
            f"objects present: {found} of {total or 'an unknown number of'} pages recovered, "
            f"numbered in file order; text drawn with fonts from the lost part may be wrong "
            f"(a bullet as 'x')")
    if not data.rstrip(b"\r\n\x00 ").endswith(b"%%EOF") and not problems:
        problems.append(f"{name}: the file does not end with %%EOF: it may be truncated "
                        f"(PDFium read what is there)")
    try:
        n_pages = len(doc)
        if n_pages <= 0:
            return [], [f"{name}: cannot open the PDF: it has no pages (truncated or damaged?)"]
        fonts = _Fonts()
        pages: list[list[_RawLine]] = []
        image_only: list[int] = []
        for index in range(n_pages):
            try:
                lines, has_images = _read_page(doc, index, fonts)
            except Exception as exc:
                problems.append(f"{name}: page {index + 1}: cannot read the page ({exc})")
                lines, has_images = [], False
            if not lines and has_images:
                image_only.append(index + 1)
            pages.append(lines)
        if not any(pages):
            if image_only:
                return [], problems + [f"{name}: page {_span(image_only)}: no text, only images "
                                       f"(a scan? it needs OCR first)"]
            return [], problems + [f"{name}: page {_span(list(range(1, n_pages + 1)))}: "
                                   f"no text on any page"]
        for page_no in image_only:
            problems.append(f"{name}: page {page_no}: no text, only images (left out)")
        _check_mapping(pages, name, problems)
        return _assemble(pages), problems
    except Exception as exc:
        return [], problems + [f"{name}: unreadable PDF ({type(exc).__name__}: {exc})"]
    finally:
        with contextlib.suppress(Exception):
            doc.close()


def _open_reason(exc: Exception) -> str:
    text = str(exc)
    if "password" in text.lower():
        return "encrypted, needs a password (" + text + ")"
    if "format" in text.lower() or "not found" in text.lower():
        return "damaged or truncated (" + text + ")"
    return text or type(exc).__name__


_OBJ = re.compile(rb"(?<![0-9])(\d+)\s+(\d+)\s+obj\b")
_PAGE_DICT = re.compile(rb"/Type\s*/Page(?![A-Za-z])")
_PAGES_COUNT = re.compile(rb"/Type\s*/Pages(?![A-Za-z])")


def _rebuild_index(data: bytes):
    """A damaged or truncated PDF made readable again: every page object still in the file
    (raw, or inside a Flate object stream) is put under a new page tree and catalog, with a
    new cross-reference stream that also locates the compressed objects. Returns (bytes,
    pages found, page count the file declared or 0), or None when no page is left."""
    try:
        direct: dict[int, int] = {}
        compressed: dict[int, tuple[int, int]] = {}
        pages: list[int] = []
        declared = 0

        def look(num: int, head: bytes) -> None:
            nonlocal declared
            if _PAGE_DICT.search(head):
                pages.append(num)
            elif _PAGES_COUNT.search(head):
                m = re.search(rb"/Count\s+(\d+)", head)
                declared = max(declared, int(m.group(1)) if m else 0)

        for m in _OBJ.finditer(data):
            num = int(m.group(1))
            direct[num] = m.start()
            end = data.find(b"endobj", m.end())
            body = data[m.end(): end if end > 0 else len(data)]
            head = body[:2000].split(b"stream", 1)[0]
            look(num, head)
            if b"/ObjStm" not in head:
                continue
            try:
                raw = body[body.index(b"stream") + 6:].lstrip(b"\r\n")
                stream = zlib.decompressobj().decompress(raw, 64 << 20)
                first = int(re.search(rb"/First\s+(\d+)", head).group(1))
                numbers = [int(x) for x in stream[:first].split()]
            except Exception:
                continue
            pairs = list(zip(numbers[0::2], numbers[1::2]))
            for i, (inner, offset) in enumerate(pairs):
                stop = pairs[i + 1][1] if i + 1 < len(pairs) else len(stream) - first
                compressed[inner] = (num, i)
                look(inner, stream[first + offset:first + stop][:2000])
        pages = list(dict.fromkeys(pages))
        if not pages:
            return None
        linearized = re.search(rb"/Linearized\b[^>]*?/N\s+(\d+)", data[:4096])
        if linearized:                      # a linearized file says its page count up front
            declared = max(declared, int(linearized.group(1)))
        out = bytearray(data.replace(b"/Linearized", b"/LinearizeX", 1))   # no first-page shortcut
        out += b"\n"
        tree = max(list(direct) + list(compressed)) + 1
        for num, body in ((tree, b"<< /Type /Pages /Kids [%s] /Count %d >>" % (
                              b" ".join(b"%d 0 R" % p for p in pages), len(pages))),
                          (tree + 1, b"<< /Type /Catalog /Pages %d 0 R >>" % tree)):
            direct[num] = len(out)
            compressed.pop(num, None)
            out += b"%d 0 obj\n%s\nendobj\n" % (num, body)
        xref, size = tree + 2, tree + 3
        direct[xref] = len(out)
        rows = []
        for num in range(size):
            if num in compressed:
                rows.append(struct.pack(">BIH", 2, *compressed[num]))
            elif num in direct:
                rows.append(struct.pack(">BIH", 1, direct[num], 0))
            else:
                rows.append(struct.pack(">BIH", 0, 0, 65535))
        table = b"".join(rows)
        out += (b"%d 0 obj\n<< /Type /XRef /Size %d /W [1 4 2] /Root %d 0 R /Length %d >>\nstream\n"
                % (xref, size, tree + 1, len(table)) + table
                + b"\nendstream\nendobj\nstartxref\n%d\n%%%%EOF\n" % direct[xref])
        return bytes(out), len(pages), declared
    except Exception:
        return None


def _span(pages: list[int]) -> str:
    return str(pages[0]) if len(pages) == 1 else f"{pages[0]}-{pages[-1]}"


# ---------------------------------------------------------------- one page
def _read_page(doc, index: int, fonts: _Fonts):
    page = doc[index]
    try:
        textpage = page.get_textpage()
        try:
            count = textpage.count_chars()
            if count <= 0:
                return [], _has_images(page)
            return _page_lines(textpage, count, index + 1, fonts), False
        finally:
            textpage.close()
    finally:
        page.close()


def _has_images(page) -> bool:
    try:
        return any(obj.type == pdfium_c.FPDF_PAGEOBJ_IMAGE for obj in page.get_objects(max_depth=3))
    except Exception:
        return False


def _page_lines(textpage, count: int, page_no: int, fonts: _Fonts) -> list[_RawLine]:
    """Split a page's characters into visual lines, with the font facts of each.

    PDFium gives the page's text with "\\r\\n" where it sees a new line, and for each
    character the text object that drew it. A word is looked up at its first character
    (at its last too when the next word is in another object, and character by character
    only when those differ); a text object's font, size and baseline are read once.
    """
    text = textpage.get_text_range(0, count)
    if len(text) != count:   # the text view and the character list differ (UTF-16 pairs): per char
        text = "".join(chr(pdfium_c.FPDFText_GetUnicode(textpage, k) or 0xFFFD) for k in range(count))
    tp = ctypes.cast(textpage.raw, ctypes.c_void_p).value
    runs: dict = {}
    tools = (textpage, pdfium_c.FS_MATRIX(), ctypes.c_double(), ctypes.c_double(), fonts)

    lines: list[_RawLine] = []
    cur = _RawLine(page_no)
    run: _Run | None = None       # run of the pending text
    pending: list[str] = []
    pos = 0

    def flush():
        if pending:
            cur.add(run, "".join(pending)) if run is not None else cur.chars.extend(pending)
            pending.clear()

    spans = [m.span() for m in _WORD.finditer(text)]
    firsts = [_text_object(tp, a) for a, _ in spans]      # the object of each word's first char
    firsts.append(-1)
    for w, (start, end) in enumerate(spans):
        gap = text[pos:start]
        pos = end
        if gap:
            if "\r" in gap or "\n" in gap:          # PDFium's line break
                flush()
                if cur.counted:
                    lines.append(cur)
                cur = _RawLine(page_no)
                run = None
            else:
                pending.append(gap)
        # Objects are contiguous in the character list: when the next word starts in the same
        # object, so does all of this one; else ask its last character too.
        first = firsts[w]
        if firsts[w + 1] == first or end - start == 1 or _text_object(tp, end - 1) == first:
            pieces = ((start, end, first),)
        else:                                       # the word changes object inside
            pieces = _split_word(tp, start, end)
        for a, b, obj in pieces:
            if obj is None:                         # a character PDFium generated
                pending.append(text[a:b])
                continue
            new = runs.get(obj)
            if new is None:
                new = runs[obj] = _make_run(obj, a, tools)
            if new is not run:
                flush()
                if cur.ref_baseline is not None and _starts_new_line(new, cur, a, tools):
                    if cur.counted:
                        lines.append(cur)
                    cur = _RawLine(page_no)
                run = new
            pending.append(text[a:b])
            cur.last_index = b - 1
    flush()
    if cur.counted:
        lines.append(cur)

    out = []
    left, right, bottom, top = (ctypes.c_double() for _ in range(4))
    for line in lines:
        line.text = _normalise("".join(line.chars))
        if line.text:
            if pdfium_c.FPDFText_GetCharBox(textpage, line.last_index, left, right, bottom, top):
                line.right = right.value
            line.baseline = max(line.baselines.items(), key=lambda kv: kv[1])[0]
            line.size = _line_size(line.sizes)
            out.append(line)
    return out


def _split_word(tp, start, end):
    pieces = []
    a, obj = start, _text_object(tp, start)
    for k in range(start + 1, end):
        o = _text_object(tp, k)
        if o != obj:
            pieces.append((a, k, obj))
            a, obj = k, o
    pieces.append((a, end, obj))
    return pieces


def _starts_new_line(new: _Run, cur: _RawLine, index: int, tools) -> bool:
    """PDFium glues the next visual line to this one after a line-end hyphen ("DCI-" /
    "sanctioned"): a run on another baseline that starts left of where the line got to."""
    if not new.upright or not cur.first_run.upright:
        return False
    if abs(new.baseline - cur.ref_baseline) <= 0.5 * max(new.size, 1.0):
        return False
    textpage, _, ox, oy, _ = tools
    if index > 0 and pdfium_c.FPDFText_GetCharOrigin(textpage, index - 1, ox, oy):
        return new.x < ox.value - 1.0
    return False


def _make_run(obj: int, k: int, tools) -> _Run:
    textpage, matrix, _, _, fonts = tools
    pdfium_c.FPDFText_GetMatrix(textpage, k, matrix)      # the text object's matrix, page space
    scale = math.hypot(matrix.c, matrix.d) or 1.0
    size = pdfium_c.FPDFText_GetFontSize(textpage, k) * scale    # font size x text matrix
    name, bold, symbol = fonts.info(_object_font(obj))
    if not bold and _render_mode(obj) == _RENDER_FILL_STROKE:
        bold = True
    upright = abs(matrix.b) <= 0.05 * abs(matrix.a) and matrix.a > 0
    return _Run(size, matrix.e, matrix.f, bold, symbol, name, upright)


def _line_size(sizes: dict) -> float:
    """The size of a line: the largest size carrying at least a fifth of its characters
    (small capitals set the lower-case letters smaller: the capitals' size counts)."""
    total = sum(sizes.values())
    return max(s for s, n in sizes.items() if n * 5 >= total)


def _normalise(text: str) -> str:
    if _ODD.search(text):
        # PDFium counts UTF-16 code units: pair them up again; math italic letters (formulas
        # set in Cambria Math) become plain letters
        text = text.encode("utf-16-le", "surrogatepass").decode("utf-16-le", "replace")
        text = _MATH_ALNUM.sub(lambda m: unicodedata.normalize("NFKC", m.group()), text)
    return _WS.sub(" ", text.translate(_CLEAN)).strip()


def _check_mapping(pages, name, problems) -> None:
    for lines in pages:
        if lines:
            text = "".join(line.text for line in lines)
            bad = text.count("\ufffd")
            if bad * 20 > len(text):
                problems.append(f"{name}: page {lines[0].page}: {bad} characters have no Unicode "
                                f"mapping (the text is likely garbled)")


# ---------------------------------------------------------------- the whole document
def _assemble(pages: list[list[_RawLine]]) -> list[PdfLine]:
    _drop_furniture(pages)
    for lines in pages:
        _place_boxes(lines)
    flat = [line for lines in pages for line in lines]
    if not flat:
        return []
    body = _body_size(flat)
    _mark_gaps(pages, _pitch(pages))
    hints = _hints(flat, body)
    out: list[PdfLine] = []
    page = None
    for line in flat:
        if line.page != page and hints.get(id(line), "").startswith("h"):
            line.gap_before = True          # a heading at the top of a page starts a paragraph
        page = line.page
        if line.gap_before and out and out[-1].text:
            out.append(PdfLine(len(out) + 1, "", "", line.page))
        hint = hints.get(id(line), "")
        text = ("• " + line.text[1:].lstrip()).rstrip() if hint == "li" else line.text
        out.append(PdfLine(len(out) + 1, _dot_leaders(text), hint, line.page))
    return out


def _place_boxes(lines: list[_RawLine]) -> None:
    """Put a text box that the PDF draws out of the flow back where it stands on the page.

    PDFium gives the lines in the order the PDF draws them. Word draws a floating text box
    (the IPG 2014 penalty box "Penalty / Warning*" beside an infraction heading) after the
    page's other text. A short run of lines (BOX_MAX_LINES) that starts above the line
    drawn before it is moved to just after the lines at or above its top line
    (or less than BOX_BESIDE of a line below it); it becomes
    a paragraph of its own. Longer runs (a second column, say) keep the PDF's order.
    Runs are split where the next line goes up, or down by more than three lines (boxes
    drawn one after another down the page)."""
    if len(lines) < 3 or not all(line.first_run.upright for line in lines):
        return
    blocks, start = [], 0
    for i in range(1, len(lines) + 1):
        if i < len(lines):
            step = lines[i - 1].baseline - lines[i].baseline      # > 0: going down the page
            size = max(lines[i].size, 1.0)
            if -0.5 * size <= step <= 3 * size:                    # the next line of a block
                continue
        blocks.append(lines[start:i])
        start = i
    if len(blocks) == 1:
        return
    placed: list[_RawLine] = []
    moved = False
    for block in blocks:
        top = block[0]
        if placed and len(block) <= BOX_MAX_LINES and len(placed) > len(block):
            # beside the line whose baseline is within most of a line below the box's first one (a box
            # may be drawn a little higher than the heading it belongs to: IPG 2014, 3.5)
            limit = top.baseline - BOX_BESIDE * max(top.size, 1.0)
            at = max((k + 1 for k, ln in enumerate(placed) if ln.baseline >= limit), default=0)
            if at < len(placed):
                placed[at:at] = block
                top.boxed = True
                if at + len(block) < len(placed):
                    placed[at + len(block)].boxed = True
                moved = True
                continue
        placed.extend(block)
    if moved:
        lines[:] = placed


def _body_size(lines) -> float:
    """The body text's font size: the most common size by character count."""
    sizes: Counter = Counter()
    for line in lines:
        sizes.update(line.sizes)
    return sizes.most_common(1)[0][0]


def _pitch(pages) -> float:
    """Normal line spacing: baseline distance per point of font size (the document's mode)."""
    ratios: Counter = Counter()
    for lines in pages:
        for a, b in zip(lines, lines[1:]):
            delta, size = a.baseline - b.baseline, max(a.size, b.size)
            if size > 0 and 0.5 * size < delta < 3 * size:
                ratios[round(delta / size, 2)] += 1
    if not ratios:
        return 1.2
    top = ratios.most_common(1)[0][0]
    near = [(r, n) for r, n in ratios.items() if abs(r - top) <= 0.03]
    return sum(r * n for r, n in near) / sum(n for _, n in near)


def _mark_gaps(pages, pitch: float) -> None:
    """gap_before on a line whose distance to the line above clearly exceeds the normal
    spacing. At a page break there is no distance to measure; the gap shows as room the
    previous page left empty at its bottom (more than PAGE_BREAK_EXTRA lines: widow control
    leaves one line empty inside a paragraph), or as the new page's first line sitting lower
    than the usual top line (by more than PAGE_TOP_EXTRA lines: space before a paragraph),
    or as the previous page's last line stopping well short of the right margin (the last
    line of a paragraph; a paragraph running on fills its lines)."""
    text_pages = [lines for lines in pages if lines]
    top_ref = _usual_top([lines[0].baseline for lines in text_pages])
    bottoms = sorted(min(line.baseline for line in lines) for lines in text_pages)
    bottom_ref = bottoms[min(len(bottoms) - 1, len(bottoms) // 10)]   # a low bottom most pages reach
    rights = sorted(line.right for lines in text_pages for line in lines)
    right_ref = rights[int(len(rights) * 0.9)]                        # the right margin
    lefts = Counter(round(lines[0].first_run.x) for lines in text_pages if lines[0].first_run)
    width = max(1.0, right_ref - min(lefts, default=0))
    prev = None
    for lines in text_pages:
        for i, line in enumerate(lines):
            if prev is not None:
                size = max(prev.size, line.size) or 1.0
                normal = pitch * size
                if i == 0:
                    unused_bottom = prev.baseline - bottom_ref
                    lowered_top = top_ref - line.baseline
                    short_end = prev.right < right_ref - SHORT_LINE * width
                    line.gap_before = (unused_bottom > PAGE_BREAK_EXTRA * normal
                                       or lowered_top > PAGE_TOP_EXTRA * normal
                                       or short_end)
                elif not (line.first_run.upright and prev.first_run.upright):
                    line.gap_before = False         # rotated text: no baselines to compare
                else:
                    delta = prev.baseline - line.baseline
                    line.gap_before = (delta > PARAGRAPH_GAP * normal or delta < -1.5 * size
                                       or line.boxed)
            prev = line


def _usual_top(baselines) -> float:
    """The baseline of a page's first line when nothing pushes it down: the highest
    position that at least a tenth of the pages (two at least) start at."""
    counts = Counter(round(b) for b in baselines)
    need = max(2, len(baselines) // 10)
    for value in sorted(counts, reverse=True):
        if counts[value] + counts.get(value - 1, 0) + counts.get(value + 1, 0) >= need:
            return float(value)
    return float(counts.most_common(1)[0][0])


def _drop_furniture(pages) -> None:
    """Remove running headers/footers (the same text at the same height on many pages,
    digits ignored) and page numbers (a number alone as the top or bottom line)."""
    text_pages = [lines for lines in pages if lines]
    need = max(FURNITURE_MIN_PAGES, math.ceil(FURNITURE_SHARE * len(text_pages)))
    keyed: dict[str, list] = defaultdict(list)
    for lines in text_pages:
        by_height = sorted(lines, key=lambda ln: -ln.baseline)
        for line in {id(ln): ln for ln in by_height[:2] + by_height[-2:]}.values():
            keyed[re.sub(r"\d+", "#", line.text.lower())].append(line)
    furniture: set[int] = set()
    for candidates in keyed.values():
        if len({ln.page for ln in candidates}) < need:
            continue
        spots = Counter(round(ln.baseline / 3) for ln in candidates)
        for spot, _ in spots.most_common():
            here = [ln for ln in candidates if abs(round(ln.baseline / 3) - spot) <= 1]
            if len({ln.page for ln in here}) >= need:
                furniture.update(id(ln) for ln in here)
    for lines in text_pages:
        lines[:] = [ln for ln in lines if id(ln) not in furniture]
        for _ in range(2):          # the number may sit beside a header that just went
            if not lines:
                break
            by_height = sorted(lines, key=lambda ln: -ln.baseline)
            edge = [ln for ln in {id(by_height[0]): by_height[0], id(by_height[-1]): by_height[-1]}.values()
                    if PAGE_NUMBER.match(ln.text)]
            if not edge:
                break
            lines[:] = [ln for ln in lines if all(ln is not e for e in edge)]


def _is_bullet(line: _RawLine) -> bool:
    text = line.text
    first, rest = text[0], text[1:2]
    if "\ue000" <= first <= "\uf8ff" or first in STRONG_BULLETS:
        return True
    run = line.first_run
    if rest == " " and run is not None:
        if run.symbol:                                    # a glyph from Symbol/Wingdings
            return True
        if first == "o" and "courier" in run.font.lower():   # Word's second-level bullet
            return True
    return False


def _dot_leaders(text: str) -> str:
    """'Title ........ 12' -> 'Title .... 12' (the parsers skip dot-leader lines themselves).
    A leader is a run of five or more dots (or two ellipses) before the page number at the
    end of the line, or a run of eight or more dots anywhere; an ellipsis in a sentence
    (". . . .") stays."""
    if "...." not in text and ". . . ." not in text and "……" not in text and "… …" not in text:
        return text

    def shorten(m):
        return (" " if m.start() > 0 else "") + "...." + (" " if m.end() < len(text) else "")
    return LEADER.sub(shorten, text)


def _is_leader(text: str) -> bool:
    return ("...." in text or ". . . ." in text or "…" in text) and bool(LEADER.search(text))


def _hints(flat: list[_RawLine], body: float) -> dict[int, str]:
    hints: dict[int, str] = {}
    bullet = [_is_bullet(ln) for ln in flat]
    leader = [_is_leader(ln.text) for ln in flat]
    big = {id(ln): round(ln.size * 2) / 2 for i, ln in enumerate(flat)
           if ln.size >= body * HEADING_SIZE_RATIO and len(ln.text) <= 150
           and not leader[i] and not bullet[i]}
    sizes = sorted(set(big.values()), reverse=True)
    level_of = {s: min(4, i + 1) for i, s in enumerate(sizes)}
    bold_level = min(4, len(sizes) + 1)

    def boldish(i):
        ln = flat[i]
        return ln.bold >= BOLD_SHARE * ln.counted and ln.size >= body * 0.95 and not bullet[i]

    i = 0
    while i < len(flat):
        line = flat[i]
        if bullet[i]:
            hints[id(line)] = "li"
        elif id(line) in big:
            hints[id(line)] = f"h{level_of[big[id(line)]]}"
        elif not leader[i] and boldish(i):
            # a block of bold lines standing as a paragraph of its own: a gap, a page start
            # or a heading before it; a gap or a line not in bold after it
            starts = (i == 0 or line.gap_before or flat[i - 1].page != line.page
                      or hints.get(id(flat[i - 1]), "").startswith("h"))
            j = i
            while (j + 1 < len(flat) and j + 1 - i < BOLD_HEADING_MAX_LINES
                   and not flat[j + 1].gap_before and boldish(j + 1) and not leader[j + 1]):
                j += 1
            ends = j + 1 >= len(flat) or flat[j + 1].gap_before or not boldish(j + 1)
            if starts and ends and all(len(ln.text) <= BOLD_HEADING_MAX_CHARS for ln in flat[i:j + 1]):
                for ln in flat[i:j + 1]:
                    hints[id(ln)] = f"h{bold_level}"
                i = j + 1
                continue
        i += 1
    return hints


def read_pdf(data: bytes, name: str):
    """The read stage's entry for a PDF: (lines, problems); a file with no readable text is a SourceError."""
    from ..model import ERROR, WARNING, Problem
    from .source import Line, SourceError
    found, messages = pdf_to_lines(data, name)
    problems = [Problem(WARNING if found else ERROR, name, None, _message(message, name), _page_of(message))
                for message in messages]
    if not found:
        raise SourceError(problems[0] if problems else Problem(ERROR, name, None, "the PDF has no text"))
    return [Line(line.number, line.text, line.hint, line.page) for line in found], problems


def _message(message: str, name: str) -> str:
    """"x.pdf: page 3: no text" -> "page 3: no text" (the Problem names the file)."""
    return message[len(name) + 2:] if message.startswith(f"{name}: ") else message


def _page_of(message: str):
    match = re.search(r"\bpage (\d+)", message)
    return int(match.group(1)) if match else None
