"""Bytes to text: whatever encoding and line ends a rule document comes in.

The only code that touches a source's raw bytes (besides the PDF reader). It decodes
(UTF-8 with or without BOM, UTF-16/32 with or without BOM, Windows-1252, Mac Roman,
stray code-page bytes inside UTF-8), reports what it guessed, removes control characters
(reporting them), and splits on CRLF, bare CR and LF alike. It never interprets the rules.
"""
from __future__ import annotations

import bisect
import codecs
import re
import threading
from dataclasses import dataclass, field
from typing import Optional

from ..model import ERROR, INFO, WARNING, Problem, fast_constructor, without_cycle_collection
from .source import Line, SourceError

MAX_BYTES = 10 * 1024 * 1024   # the largest real rule document is ~1 MB
LINE_END = re.compile(r"\r\n|\r|\n")
BYTE_LINE_END = re.compile(rb"\r\n|\r|\n")
HTML_START = re.compile(rb"<!doctype\s+html|<html[\s>]|<body[\s>]|<h[1-6][\s>]|<p[\s>]|<div[\s>]|<table[\s>]", re.I)
MAX_PROBLEMS_OF_A_KIND = 20     # then one line says how many more
new_line = fast_constructor(Line)


@dataclass
class Decoded:
    text: str
    encoding: str
    problems: list = field(default_factory=list)


def refuse_non_documents(data: bytes, name: str) -> None:
    if not data.strip():
        raise SourceError(Problem(ERROR, name, 1, "the file is empty"))
    if len(data) > MAX_BYTES:
        raise SourceError(Problem(ERROR, name, None,
                                  f"the file is {len(data) / 1e6:.1f} MB; a rule document is at most "
                                  f"{MAX_BYTES // (1024 * 1024)} MB, so this is not one"))
    head = data[:4096]
    if _looks_binary(head) and not _utf16_bom(data) and not _looks_utf16(head):
        raise SourceError(Problem(ERROR, name, 1, "this is a binary file, not a text or HTML rule document"))


_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0e-\x1a\x1c-\x1f]")


def _looks_binary(head: bytes) -> bool:
    """More than 1% of the first bytes are controls no text has (a stray NUL or BEL in a text is not
    enough: those are removed, and reported, by `remove_controls`)."""
    return len(_BINARY_BYTES.findall(head)) > max(2, len(head) // 100)


def _utf16_bom(data: bytes) -> Optional[str]:
    if data.startswith(codecs.BOM_UTF32_LE) and len(data) % 4 == 0 and data[2:4] == b"\x00\x00":
        return "utf-32"
    if data.startswith(codecs.BOM_UTF32_BE):
        return "utf-32"
    if data.startswith(codecs.BOM_UTF16_LE) or data.startswith(codecs.BOM_UTF16_BE):
        return "utf-16"
    return None


def _looks_utf16(head: bytes) -> Optional[str]:
    """UTF-16 without a BOM: every other byte of ASCII text is NUL."""
    if len(head) < 8:
        return None
    even_nuls = head[0::2].count(0) / max(1, len(head[0::2]))
    odd_nuls = head[1::2].count(0) / max(1, len(head[1::2]))
    if odd_nuls > 0.4 and even_nuls < 0.05:
        return "utf-16-le"
    if even_nuls > 0.4 and odd_nuls < 0.05:
        return "utf-16-be"
    return None


def decode(data: bytes, name: str = "") -> Decoded:
    """Decode bytes of any encoding seen in the wild, reporting what was guessed."""
    bom_encoding = _utf16_bom(data)
    if bom_encoding:
        try:
            return Decoded(data.decode(bom_encoding).lstrip("\ufeff"), bom_encoding)
        except UnicodeDecodeError as error:
            line = data[:error.start].count(b"\n" if bom_encoding != "utf-16" else b"\n\x00") + 1
            raise SourceError(Problem(ERROR, name, line, f"the file starts with a {bom_encoding} mark "
                                                          f"but is not valid {bom_encoding}")) from None
    no_bom = _looks_utf16(data[:4096])
    if no_bom:
        return Decoded(data.decode(no_bom, errors="replace"), no_bom)
    if data.startswith(codecs.BOM_UTF8):
        data = data[len(codecs.BOM_UTF8):]
        label = "utf-8-sig"
    else:
        label = "utf-8"
    try:
        return Decoded(data.decode("utf-8"), label)
    except UnicodeDecodeError:
        pass
    if _has_utf8_multibyte(data):
        # Mostly UTF-8 with stray bytes from a legacy code page (old CR files have one in a card name).
        return _decode_utf8_with_strays(data, name, label)
    encoding = _guess_code_page(data)
    decoded = Decoded(_decode_code_page(data, encoding), encoding)
    if encoding != "windows-1252":
        decoded.problems.append(Problem(INFO, name, None, f"read as {CODE_PAGE_NAMES[encoding]}: its "
                                                          f"punctuation makes sense in it, not in Windows-1252"))
    return decoded


_UTF8_MULTIBYTE = re.compile(rb"[\xc2-\xdf][\x80-\xbf]|[\xe0-\xef][\x80-\xbf]{2}|[\xf0-\xf4][\x80-\xbf]{3}")
# Legacy code pages seen in old rule files, and the characters a rule document plausibly uses
# outside ASCII: the code page under which most high bytes become one of these is the file's.
CODE_PAGES = ("windows-1252", "mac_roman", "cp437")
CODE_PAGE_NAMES = {"windows-1252": "Windows-1252", "mac_roman": "Mac Roman", "cp437": "DOS code page 437"}
PLAUSIBLE = set("’‘“”—–…™®©•·×°½éÉèáàâäíìîïóòôöúùûüñçÆæøåÅ")


def _has_utf8_multibyte(data: bytes) -> bool:
    return len(_UTF8_MULTIBYTE.findall(data[:200000])) >= 3


def _guess_code_page(data: bytes) -> str:
    """The code page that turns the file's high bytes into plausible characters (Windows-1252 on a tie)."""
    high = bytes(byte for byte in set(data) if byte >= 0x80)
    if not high:
        return "windows-1252"
    scores = {encoding: _plausible(_decode_code_page(data, encoding)) for encoding in CODE_PAGES}
    best = max(CODE_PAGES, key=lambda encoding: (scores[encoding], encoding == "windows-1252"))
    return best if scores[best] > scores["windows-1252"] else "windows-1252"


_NON_ASCII = re.compile(r"[^\x00-\x7f]")


def _plausible(text: str) -> int:
    """High characters that are plausible where they stand: a capital right after a small letter is not
    ("El-HajjÉj" is Mac Roman's reading of the cp437 byte that makes "El-Hajjâj")."""
    return sum(1 for match in _NON_ASCII.finditer(text)
               if match.group() in PLAUSIBLE
               and not (match.group().isupper() and text[match.start() - 1:match.start()].islower()))


def _decode_code_page(data: bytes, encoding: str = "windows-1252") -> str:
    # The five bytes cp1252 leaves undefined map to the same code points as in Latin-1.
    return data.decode(encoding, errors="latin1_fallback")


def _latin1_fallback(error: UnicodeDecodeError):
    bad = error.object[error.start:error.end]
    return bad.decode("latin-1"), error.end


codecs.register_error("latin1_fallback", _latin1_fallback)


_stray_offsets = threading.local()   # where the decoding in progress (in this thread) met stray bytes


def _read_stray_byte(error: UnicodeDecodeError):
    """A decoding error handler: a stray byte is read as Windows-1252 and its offset noted."""
    _stray_offsets.found.append(error.start)
    return _decode_code_page(error.object[error.start:error.start + 1]), error.start + 1


codecs.register_error("rulekb_stray_byte", _read_stray_byte)


def _decode_utf8_with_strays(data: bytes, name: str, label: str) -> Decoded:
    """One pass over the bytes (linear time); each stray byte reported at its real line."""
    _stray_offsets.found = offsets = []
    text = data.decode("utf-8", errors="rulekb_stray_byte")
    line_starts = [match.end() for match in BYTE_LINE_END.finditer(data)]
    problems = []
    for offset in offsets[:MAX_PROBLEMS_OF_A_KIND]:
        byte = data[offset:offset + 1]
        problems.append(Problem(WARNING, name, bisect.bisect_right(line_starts, offset) + 1,
                                f"byte 0x{byte[0]:02x} is not UTF-8; read it as Windows-1252 "
                                f"{_decode_code_page(byte)!r}"))
    if len(offsets) > MAX_PROBLEMS_OF_A_KIND:
        problems.append(Problem(WARNING, name, None, f"{len(offsets) - MAX_PROBLEMS_OF_A_KIND} more bytes "
                                                     f"are not UTF-8 (read as Windows-1252)"))
    return Decoded(text, label + "+stray-bytes", problems)


# C0 controls but tab and line ends, DEL and C1 controls: never text in a rule document.
CONTROL = re.compile(r"[\x00-\x08\x0b\x0e-\x1f\x7f-\x9f]+")


# Every byte but those of CONTROL's C0 controls and DEL; CONTROL's C1 controls, U+0080 to U+009F, in UTF-8.
NOT_C0_CONTROL = bytes(byte for byte in range(256) if not CONTROL.fullmatch(chr(byte)) or byte >= 0x80)
C1_CONTROL_UTF8 = re.compile(rb"\xc2[\x80-\x9f]")
C2_LOOKED_AT = 100       # at most this many 0xC2 bytes are looked at one by one


def remove_controls(text: str, name: str, utf8: Optional[bytes] = None) -> tuple[str, list[Problem]]:
    """The text without control characters (a form feed is a page break and stays), and where they were.
    `utf8`: the text's UTF-8 bytes, when the caller has them (the file as read): not encoded again."""
    if not _holds_controls(text, utf8):
        return text, []
    found = [match for match in CONTROL.finditer(text) if match.group(0) != "\f"]
    if not found:
        return text, []
    line_starts = [match.end() for match in LINE_END.finditer(text)]
    problems = []
    for match in found[:MAX_PROBLEMS_OF_A_KIND]:
        codes = " ".join(f"U+{ord(character):04X}" for character in match.group(0)[:4])
        problems.append(Problem(WARNING, name, bisect.bisect_right(line_starts, match.start()) + 1,
                                f"control character(s) {codes} removed"))
    if len(found) > MAX_PROBLEMS_OF_A_KIND:
        problems.append(Problem(WARNING, name, None,
                                f"{len(found) - MAX_PROBLEMS_OF_A_KIND} more runs of control characters removed"))
    return CONTROL.sub("", text), problems


def _holds_controls(text: str, utf8: Optional[bytes] = None) -> bool:
    """Whether `text` holds a character of CONTROL, asked of its UTF-8 bytes (almost no file does, and bytes are
    searched several times faster than a regular expression scans the text): a C0 control or DEL is its own
    byte there, a C1 control a 0xC2 (never a continuation byte) before 0x80-0x9F."""
    if utf8 is None:
        utf8 = text.encode("utf-8", "surrogatepass")
    if utf8.translate(None, NOT_C0_CONTROL):
        return True
    # (Where 0xC2 is rare, as in an English rule document, each one is looked at: a search for one byte outruns
    # the pattern's scan several times over; where it is common (a French text's « and ») the pattern scans the rest.)
    at = utf8.find(0xC2)
    for _ in range(C2_LOOKED_AT):
        if at < 0:
            return False
        if C1_CONTROL_UTF8.match(utf8, at):
            return True
        at = utf8.find(0xC2, at + 1)
    return C1_CONTROL_UTF8.search(utf8, max(at, 0)) is not None


def looks_like_html(text: str) -> bool:
    head = text[:4096].encode("utf-8", "ignore")
    return bool(HTML_START.search(head)) and text.count("<") > 20 and _tag_density(text) > 0.002 \
        and not _markdown_with_raw_html(text)


MARKDOWN_HEADING_LINE = re.compile(r"^#{1,6}[ \t]+\S", re.M)
HTML_BLOCK = re.compile(r"<(?:p|h[1-6]|li)[\s>]", re.I)


def _markdown_with_raw_html(text: str) -> bool:
    """pandoc's Markdown of an HTML page keeps the <div>s and <span>s it has no syntax for, but its headings
    are Markdown's and its paragraphs have no <p>: more "#" headings than HTML's blocks make it Markdown."""
    headings = len(MARKDOWN_HEADING_LINE.findall(text))
    return headings >= 3 and headings > len(HTML_BLOCK.findall(text))


def _tag_density(text: str) -> float:
    sample = text[:200000]
    tags = re.findall(r"</?(?:p|div|h[1-6]|br|li|td|tr|a|span|table|ul|em|strong)\b", sample, re.I)
    return len(tags) / max(1, len(sample))


def holds_run(text: str, character: str, length: int) -> bool:
    """Whether `text` holds `character` `length` times in a row ("---"). Looked for from each place the character
    is written: a search for one character outruns one for several many times over (in a 900 KB text with a
    thousand hyphens and no "---", 0.4 ms against 1.3; with no "*" at all, 0.02 ms against 1.6 for "**")."""
    run = character * length
    at = text.find(character)
    while at >= 0:
        if text.startswith(run, at):
            return True
        at = text.find(character, at + 1)
    return False


# What str.splitlines takes for a line end besides CR and LF (a form feed is removed first; the controls among
# them are removed, and reported, by `remove_controls` before a text is split, but not by every caller).
SPLITLINES_ONLY = ("\x0b", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029")


@without_cycle_collection        # (a Line an object, and no cycles)
def split_lines(text: str) -> list[Line]:
    """Split on CRLF, bare CR and LF alike; drop form feeds (page breaks) and trailing spaces."""
    if "\f" in text:
        text = text.replace("\f", "")
    if any(separator in text for separator in SPLITLINES_ONLY):      # (where str.splitlines would split wrongly)
        if "\r" in text:
            text = text.replace("\r\n", "\n").replace("\r", "\n")
        raws = text.split("\n")
    else:
        raws = text.splitlines()     # (CRLF, CR and LF in one pass: several times faster than two replaces)
    lines = [new_line(number, raw.rstrip()) for number, raw in enumerate(raws, start=1)]
    while lines and not lines[-1].text:
        lines.pop()
    return lines
