"""Judges' annotations: one Markdown note per rule, read from an annotations folder, checked like a source,
and carried to the current edition of the rule it explains.

`attach(corpus, folder)` gives the corpus back with its `annotations` (and their problems, file and line,
among the corpus's): each note's front matter checked, its Markdown rendered and sanitised (`markup`), its
references resolved (`references`), its rule followed through the editions (`editions`). A note in error
(an unknown section, a missing field, a bad date, a file that is no note) is left out; a note on a rule
removed since is kept, and shown on the page of the edition it was written for.
"""
from __future__ import annotations

import re
from datetime import date
from pathlib import Path
from typing import TYPE_CHECKING, Optional

from .. import kinds
from ..model import ERROR, WARNING, Annotation, Corpus, Problem, replace

if TYPE_CHECKING:
    from . import references
    from .editions import Editions
    from .files import NoteFile

# The reading of notes (Markdown, YAML, the editions) is imported when notes are read: `default_folder`
# and `attach` with no folder cost the CLI nothing.

FIELDS = ("section", "edition", "authors", "date")
ISO_DATE = re.compile(r"\d{4}-\d{2}-\d{2}")
FENCE = re.compile(r"^\s*(```|~~~)")
FOLDER_NAME = "annotations"


def default_folder(sources: Path | str) -> Path:
    """Where a project keeps its notes: `annotations/` beside `sources/`."""
    return Path(sources).resolve().parent / FOLDER_NAME


def attach(corpus: Corpus, folder: Optional[Path | str], use_cache: bool = True) -> Corpus:
    """The corpus with the notes of `folder` (none when it is None or missing) and their problems."""
    if folder is None or not Path(folder).is_dir():
        return corpus
    annotations, problems = read_annotations(Path(folder), corpus, use_cache)
    return replace(corpus, annotations=tuple(annotations), problems=corpus.problems + tuple(problems),
                   notes_folder=Path(folder).name)


def read_annotations(folder: Path, corpus: Corpus, use_cache: bool = True) -> tuple[list[Annotation], list[Problem]]:
    from . import references
    from .editions import Editions
    from .files import note_files
    problems: list[Problem] = []
    editions = Editions(corpus, use_cache)
    targets = references.Targets(corpus)
    found = []
    for note in note_files(folder, problems):
        annotation = _annotation(note, editions, targets, problems)
        if annotation is not None:
            found.append(annotation)
    found.sort(key=lambda a: (a.target or a.written_for, a.date, a.file))
    return found, problems


def _annotation(note: NoteFile, editions: Editions, targets: references.Targets,
                problems: list[Problem]) -> Optional[Annotation]:
    from . import markup, references
    from .front_matter import FrontMatterError, split
    try:
        front = split(note.text)
    except FrontMatterError as error:
        problems.append(Problem(ERROR, note.name, error.line, f"{error}; the note is left out"))
        return None
    fields, lines = front.fields, front.lines
    errors_before = len(problems)

    def error(field: str, message: str) -> None:
        problems.append(Problem(ERROR, note.name, lines.get(field, 2), f"{message}; the note is left out"))

    for name in FIELDS:
        if name not in fields or fields[name] in (None, "", []):
            error(name, f"missing field `{name}` (a note says its section, edition, authors and date)")
    for name in sorted(set(fields) - set(FIELDS)):
        problems.append(Problem(WARNING, note.name, lines.get(name), f"unknown field `{name}`: ignored"))
    section = fields.get("section")
    kind, key = "", ""
    if isinstance(section, str) and section:
        kind, _, key = section.strip().partition(":")
        kind = kind.strip().lower()
        if kind not in kinds.IDS or not key.strip():
            error("section", f"`section: {section}` is not a section as rulekb names them (cr:702.19b, ipg:2.1, "
                             f"mtr:4.2, a JAR id)")
        key = key.strip().lower()          # ids are lower case: cr:702.19b, mtr:appendix-a
    elif section not in (None, ""):
        error("section", "`section` is not text (write it as cr:702.19b)")
    edition = _date(fields.get("edition"), "edition", error)
    written = _date(fields.get("date"), "date", error)
    authors = _authors(fields.get("authors"), error)
    if not front.body.strip():
        error("section", "the note has no text after its front matter")
    if len(problems) > errors_before and any(p.severity == ERROR for p in problems[errors_before:]):
        return None

    document = editions.current(kind)
    if document is None:
        error("section", f"unknown section {section}: no {kinds.title(kind)} among the sources")
        return None
    info = editions.named(kind, edition)
    if info is None:
        why = ("is not in force yet" if editions.named(kind, edition, upcoming=True) is not None
               else "is not among the sources")
        problems.append(Problem(WARNING, note.name, lines.get("edition"),
                                f"the {kinds.title(kind)} of {edition} {why}: the note is placed by its number in the "
                                f"current edition ({document.info.edition})"))
        info = document.info
    landing = editions.land(kind, key, info)
    if landing is None:
        error("section", f"unknown section {section}: the {kinds.title(kind)} of {info.edition} has no {key}")
        return None
    if landing.target is None:
        problems.append(Problem(WARNING, note.name, lines.get("section"),
                                f"orphaned note: {section} of {info.edition} is not in the current {kinds.title(kind)} "
                                f"({document.info.edition}); it is shown on the page of the {info.edition} edition"))
    refs = []
    in_code = False
    for offset, line in enumerate(front.body.split("\n")):
        if FENCE.match(line):
            in_code = not in_code
        if in_code:
            continue
        number = front.body_line + offset
        for ref in references.resolve(line, kind, targets, number):
            refs.append(ref)
            if ref.target is None:
                problems.append(Problem(WARNING, note.name, number,
                                        f"reference “{ref.text}” names {ref.number}, which is not in the current "
                                        f"{kinds.title(ref.document or kind)}; kept as written"))
    rendered = references.link_html(markup.to_html(front.body), kind, targets)
    return Annotation(note.name, lines.get("section", 2), f"{kind}:{key}", edition, authors, written,
                      front.body.strip(), rendered, tuple(refs), landing.written_for, landing.target,
                      landing.changed_since, front.body_line)


def _date(value, name: str, error) -> str:
    if isinstance(value, date):
        return value.isoformat()
    if value in (None, ""):
        return ""
    text = str(value).strip()
    try:
        if ISO_DATE.fullmatch(text):
            return date.fromisoformat(text).isoformat()
    except ValueError:
        pass
    error(name, f"`{name}: {text}` is not a date (write it as 2026-01-16)")
    return ""


def _authors(value, error) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if value in (None, "", []):
        return ()
    if not isinstance(value, list) or not all(isinstance(name, str) and name.strip() for name in value):
        error("authors", "`authors` is not a list of names (write it as [A. Judge, B. Judge])")
        return ()
    return tuple(" ".join(name.split()) for name in value)


__all__ = ["attach", "read_annotations", "default_folder", "FOLDER_NAME"]
