"""The notes of an annotations folder as text, each refused with a clear problem when it cannot be one:
a link out of the folder, a binary or non-UTF-8 file, a file too large to be a note.

Every `*.md` file of the folder and its subfolders is a note, but hidden ones and README.md (a folder's
own documentation: the shipped `annotations/README.md` says what the folder is for). Links are followed
only to files inside the folder; nothing here reads a byte outside it.
"""
from __future__ import annotations

import os
from dataclasses import dataclass
from pathlib import Path

from ..model import ERROR, WARNING, Problem

MAX_BYTES = 64 * 1024        # a note is commentary on one rule: a few paragraphs, never a document
NOT_NOTES = {"readme.md"}


@dataclass(frozen=True)
class NoteFile:
    name: str          # as problems name it: "annotations/cr/trample.md"
    text: str


def note_files(folder: Path, problems: list[Problem]) -> list[NoteFile]:
    folder = Path(folder)
    inside = folder.resolve()
    found = []
    for root, directories, files in os.walk(folder, followlinks=False):
        directories[:] = sorted(d for d in directories if not d.startswith("."))
        for directory in list(directories):
            path = Path(root) / directory
            if path.is_symlink():
                directories.remove(directory)
                problems.append(Problem(ERROR, _name(folder, path), None,
                                        "a link to a folder: skipped (notes are read only from the folder itself)"))
        for file_name in sorted(files):
            path = Path(root) / file_name
            name = _name(folder, path)
            if file_name.startswith(".") or file_name.lower() in NOT_NOTES:
                continue
            if not file_name.lower().endswith(".md"):
                problems.append(Problem(WARNING, name, None, "not a note (notes are .md files): skipped"))
                continue
            if path.is_symlink() and not path.resolve().is_relative_to(inside):
                problems.append(Problem(ERROR, name, None, "a link to a file outside the annotations folder: "
                                                           "skipped (copy the note in instead)"))
                continue
            note = _read(path, name, problems)
            if note is not None:
                found.append(note)
    return found


def _name(folder: Path, path: Path) -> str:
    return f"{folder.name}/{path.relative_to(folder).as_posix()}"


def _read(path: Path, name: str, problems: list[Problem]):
    try:
        if not path.is_file():
            problems.append(Problem(ERROR, name, None, "not a regular file: skipped"))
            return None
        size = path.stat().st_size
        if size > MAX_BYTES:
            problems.append(Problem(ERROR, name, None, f"{size // 1024} KB: too large for a note (at most "
                                                       f"{MAX_BYTES // 1024} KB); left out"))
            return None
        data = path.read_bytes()
    except OSError as error:
        problems.append(Problem(ERROR, name, None, f"cannot read the file: {error.strerror}"))
        return None
    if b"\0" in data:
        line = data[:data.index(b"\0")].count(b"\n") + 1
        problems.append(Problem(ERROR, name, line, "a binary file, not a Markdown note: left out"))
        return None
    try:
        text = data.decode("utf-8-sig")
    except UnicodeDecodeError as error:
        line = data[:error.start].count(b"\n") + 1
        problems.append(Problem(ERROR, name, line, "not UTF-8 text (save the note as UTF-8): left out"))
        return None
    return NoteFile(name, text.replace("\r\n", "\n").replace("\r", "\n"))
