"""What the read stage hands on: a source's numbered lines and links (pipeline.read.lines), its anchors, what
went wrong, and (built from its lines when first asked for) its typed stream.

Plain data only; the readers in this package fill it in.
"""
from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property
from typing import TYPE_CHECKING, Optional

from ..model import Problem
from .lines import ALONE, Line, Link

if TYPE_CHECKING:
    from .stream import Element

__all__ = ["ALONE", "Line", "Link", "SourceError", "SourceText"]


class SourceError(Exception):
    """A file that cannot be read as a rule document at all (the build stops for it)."""

    def __init__(self, problem: Problem):
        super().__init__(str(problem))
        self.problem = problem


@dataclass(frozen=True)
class SourceText:
    name: str                       # file name as shown in messages
    lines: tuple[Line, ...]
    encoding: str
    format: str                     # "text", "html", "markdown", "pdf", "docx" or "rtf"
    sha256: str
    problems: tuple[Problem, ...] = ()
    anchors: tuple[tuple[str, int], ...] = ()   # HTML id/name -> line
    links: tuple[Link, ...] = ()

    @cached_property
    def stream(self) -> tuple[Element, ...]:
        """Its typed stream (pipeline.read.stream), the read stage's last step: built the first time it is asked
        for and kept, so a source parsed twice builds it once (detection, which reads the lines, never asks)."""
        from .stream import typed_stream  # (only when a parser asks: detection never does)
        return typed_stream(self.lines, self.format)

    def __getstate__(self) -> dict:
        """Pickled without its stream (built again when asked for): a pickle holds the lines once."""
        return {name: value for name, value in self.__dict__.items() if name != "stream"}

    def text_lines(self) -> list[str]:
        return [line.text for line in self.lines]

    def page_of(self, line_number: Optional[int]) -> Optional[int]:
        """The PDF page a line is on (None for other formats)."""
        if line_number is None or self.format != "pdf":
            return None
        for line in self.lines:
            if line.number >= line_number:
                return line.page
        return self.lines[-1].page if self.lines else None
