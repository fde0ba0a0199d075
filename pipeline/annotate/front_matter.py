"""An annotation file's front matter (the YAML between its two `---` lines): read safely, with the line of
each field. The only module that imports PyYAML; its SafeLoader builds plain data, never objects."""
from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Optional

import yaml

FENCE = "---"


class _SafeLoader(getattr(yaml, "CSafeLoader", yaml.SafeLoader)):
    """yaml's safe loader (plain data only; libyaml's parser when the wheel has it, ten times faster), dates kept
    as text: each is checked with the line of its field (yaml would refuse the whole front matter for
    `date: 2026-02-30`)."""


_SafeLoader.yaml_implicit_resolvers = {
    first: [(tag, pattern) for tag, pattern in resolvers if tag != "tag:yaml.org,2002:timestamp"]
    for first, resolvers in yaml.SafeLoader.yaml_implicit_resolvers.items()}

FIELD_LINE = re.compile(r"^([A-Za-z_][\w-]*)\s*:")


class FrontMatterError(ValueError):
    """The front matter cannot be read; `line` is in the file's own numbering."""

    def __init__(self, message: str, line: int):
        super().__init__(message)
        self.line = line


@dataclass(frozen=True)
class FrontMatter:
    fields: dict
    lines: dict = field(default_factory=dict)     # field name -> the line it is written on
    body: str = ""                                # the Markdown after the closing ---
    body_line: int = 0                            # the line the body starts on
    closing_line: int = 0


def split(text: str) -> FrontMatter:
    """The fields and the body of a note; FrontMatterError when the front matter is missing or not YAML."""
    lines = text.split("\n")
    if not lines or lines[0].strip() != FENCE:
        raise FrontMatterError("no front matter: a note starts with a line `---`, its fields (section, edition, "
                               "authors, date), and another `---`", 1)
    closing = next((number for number in range(1, len(lines)) if lines[number].strip() == FENCE), None)
    if closing is None:
        raise FrontMatterError("the front matter is not closed: no second `---` line", 1)
    try:
        fields = yaml.load("\n".join(lines[1:closing]), Loader=_SafeLoader)     # a SafeLoader: no objects
    except (yaml.YAMLError, ValueError, RecursionError) as error:     # a date like 2026-02-30 is a ValueError
        mark: Optional[yaml.Mark] = getattr(error, "problem_mark", None)
        reason = getattr(error, "problem", None) or "not YAML"
        line = (mark.line + 2) if mark else 1         # the YAML starts on the file's second line
        raise FrontMatterError(f"the front matter is not valid YAML: {reason}", line) from None
    if fields is None:
        fields = {}
    if not isinstance(fields, dict):
        raise FrontMatterError("the front matter is not a list of `name: value` fields", 2)
    where = {}
    for number in range(1, closing):
        found = FIELD_LINE.match(lines[number])
        if found:
            where.setdefault(found.group(1), number + 1)
    return FrontMatter({str(key): value for key, value in fields.items()}, where, "\n".join(lines[closing + 1:]),
                       closing + 2, closing + 1)
