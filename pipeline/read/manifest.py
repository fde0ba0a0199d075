"""sources/manifest.toml: what the text of a document cannot say of itself.

Every field is validated, with the file and line of the entry that is wrong: kinds are
known ones, ids are safe slugs (they become folder names of the site), editions are real
dates, titles and notes are plain text of a sensible length. Nothing here reads documents.
"""
from __future__ import annotations

import re
import tomllib
from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .. import kinds
from ..model import ERROR, WARNING, Problem
from .dates import valid_iso_date
from .detect import Detected

MANIFEST_NAME = "manifest.toml"
SAFE_ID = re.compile(r"[a-z0-9][a-z0-9-]{0,62}")
# Folders of the site that a document id must not take.
RESERVED_IDS = {"assets", "data", "search", "changes", "history", "penalties", "regular", "offline",
                "search-tips", "editions", "sitemap", "404", *kinds.LANGUAGE_BY_ID}
EDITION = re.compile(r"\d{4}(?:-\d{2}(?:-\d{2})?)?")
CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
MAX_TITLE = 200
MAX_NOTE = 1000


@dataclass(frozen=True)
class ManifestEntry:
    kind: Optional[str] = None
    title: Optional[str] = None
    edition: Optional[str] = None
    excerpt: Optional[bool] = None
    id: Optional[str] = None
    note: str = ""
    ignore: bool = False
    archived: bool = False
    language: Optional[str] = None   # "zh": what the text is written in, where reading it cannot tell
    credit: str = ""                 # who translated it, shown on every page of a translation


FIELD_TYPES = {"kind": str, "title": str, "edition": str, "excerpt": bool, "id": str, "note": str,
               "ignore": bool, "archived": bool, "language": str, "credit": str}


def load_manifest(directory: Path) -> tuple[dict[str, ManifestEntry], list[Problem]]:
    path = Path(directory) / MANIFEST_NAME
    if not path.is_file():
        return {}, []
    try:
        text = path.read_text(encoding="utf-8")
        data = tomllib.loads(text)
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        match = re.search(r"line (\d+)", str(error))
        return {}, [Problem(ERROR, MANIFEST_NAME, int(match.group(1)) if match else None,
                            f"the manifest is not valid TOML: {error}")]
    except OSError as error:
        return {}, [Problem(ERROR, MANIFEST_NAME, None, f"cannot read the manifest: {error.strerror}")]
    entries: dict[str, ManifestEntry] = {}
    problems: list[Problem] = []
    for name, values in data.items():
        line = _line_of_entry(text, name)
        entry = _entry(name, values, line, problems)
        if entry is not None:
            entries[name] = entry
    return entries, problems


def _entry(name: str, values, line: Optional[int], problems: list[Problem]) -> Optional[ManifestEntry]:
    def error(message: str) -> None:
        problems.append(Problem(ERROR, MANIFEST_NAME, line, f"entry {name!r}: {message}"))

    if not isinstance(values, dict):
        error("must be a table of fields ([\"file name\"] then field = value lines)")
        return None
    if "/" in name or "\\" in name or name in (".", ".."):
        error("must be a file name in the sources folder, not a path")
        return None
    unknown = sorted(set(values) - set(FIELD_TYPES))
    if unknown:
        problems.append(Problem(WARNING, MANIFEST_NAME, line, f"entry {name!r}: unknown field(s) {', '.join(unknown)}"))
    known = {key: value for key, value in values.items() if key in FIELD_TYPES}
    failed = False
    for key, value in known.items():
        if not isinstance(value, FIELD_TYPES[key]):
            error(f"{key} must be {'true or false' if FIELD_TYPES[key] is bool else 'a string'}, not {value!r}")
            failed = True
        elif isinstance(value, str) and CONTROL.search(value):
            error(f"{key} holds control characters")
            failed = True
    if failed:
        return None
    kind, document_id, edition = known.get("kind"), known.get("id"), known.get("edition")
    if kind is not None and kind not in kinds.BY_ID:
        error(f"kind must be one of {', '.join(kinds.IDS)}, not {kind!r}")
        return None
    if document_id is not None and (not SAFE_ID.fullmatch(document_id) or document_id in RESERVED_IDS):
        error(f"id {document_id!r} must be lower-case letters, digits and hyphens (at most 63), starting with a "
              f"letter or digit, and not one of the site's own folders ({', '.join(sorted(RESERVED_IDS))})")
        return None
    if edition is not None and not (EDITION.fullmatch(edition) and _real_date(edition)):
        error(f"edition {edition!r} must be a real date written YYYY-MM-DD (or YYYY-MM, or YYYY)")
        return None
    language = known.get("language")
    if language is not None and language not in kinds.LANGUAGE_BY_ID:
        error(f"language must be one of {', '.join(kinds.LANGUAGE_BY_ID)}, not {language!r}")
        return None
    for key, limit in (("title", MAX_TITLE), ("note", MAX_NOTE), ("credit", MAX_NOTE)):
        if len(known.get(key) or "") > limit:
            error(f"{key} is longer than {limit} characters")
            return None
    return ManifestEntry(**known)


def _real_date(edition: str) -> bool:
    parts = edition.split("-")
    if len(parts) == 1:
        return 1990 <= int(parts[0]) <= 2999
    if len(parts) == 2:
        return 1990 <= int(parts[0]) <= 2999 and 1 <= int(parts[1]) <= 12
    return valid_iso_date(edition)


def _line_of_entry(text: str, name: str) -> Optional[int]:
    """The line of `["name"]` (or `[name]`) in the manifest."""
    for number, line in enumerate(text.splitlines(), start=1):
        stripped = line.strip()
        if stripped.startswith("[") and name in stripped:
            return number
    return None


def apply_manifest(found: Detected, entry: Optional[ManifestEntry]) -> Detected:
    if entry is None:
        return found
    kind = entry.kind or found.kind
    language = entry.language or found.language
    kind_found = kinds.kind(kind or "")
    lexicon = kind_found.lexicon(language or "") if kind_found else None
    named = lexicon.title if lexicon else kinds.title(kind)
    return Detected(
        kind=kind,
        title=entry.title or (named if entry.kind or entry.language else found.title),
        edition=entry.edition or found.edition,
        excerpt=bool(entry.excerpt) if entry.excerpt is not None else found.excerpt,
        id=entry.id,
        note=entry.note,
        edition_line=found.edition_line,
        archived=entry.archived,
        language=language,
        language_says="the manifest says so" if entry.language else found.language_says,
        credit=entry.credit,
    )

