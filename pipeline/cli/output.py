"""How `rulekb search` and `show` print their answers, and `say`, the only way out to the terminal.

`say` shows control characters (from a source, a file name) as escapes, never sent raw. Light on purpose:
a question answered from what was built (`pipeline.built`) imports this and not the commands.
"""
from __future__ import annotations

import json
import re
import sys
from typing import Optional

from .. import kinds

CONTROL = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f]")
MARK_TAG = re.compile(r"(</?mark>)")
ID_COLUMN = 16      # a result's id is padded to the longest up to this: a Regular REL situation's (80) does not push
                    # every title off a narrow terminal


class Refused(Exception):
    """What the user asked cannot be done (bad --out, a locked output, a missing file): exit code 2."""


def say(text: str, stream=None) -> None:
    """Print a line (or lines) with every control character but the newline shown as an escape."""
    stream = stream or sys.stdout
    print(CONTROL.sub(lambda match: f"\\x{ord(match.group(0)):02x}", text), file=stream)


def show_answer(answer, as_json: bool) -> int:
    """A search's answer (engine.Answer), for a person or as JSON."""
    if as_json:
        say(json.dumps(answer.as_json(), ensure_ascii=False, indent=1))
        return 0
    if answer.notice:
        say(answer.notice[:1].upper() + answer.notice[1:] + ".")
    if answer.suggestion:
        say(f"Did you mean: {answer.suggestion}?")
    if not answer.results:
        say("No results.")
        return 0
    width = min(ID_COLUMN, max(len(result.id) for result in answer.results))
    for rank, result in enumerate(answer.results, 1):
        heading = f"{result.number} {result.title}".strip() if result.number else result.title
        penalty = f"  [{result.penalty}]" if result.penalty else ""
        archived = "" if result.current else "  (archived document)"
        say(f"{rank:>2}. {result.id:<{width}}  {heading}{penalty}{archived}")
        if result.action:
            label = kinds.kind(result.kind).action if kinds.kind(result.kind) else "Remedy"
            say(f"    {label}: {result.action}")
        if result.snippet.strip() and not _repeats(result.snippet, result.action):
            say(f"    {_terminal_snippet(result.snippet)}")
        if result.english:
            say(f"    English: {result.english}")
    return 0


def _repeats(snippet: str, action: str) -> bool:
    """A snippet that only says again the fix shown above it (a JAR situation's text starts with it), whole
    or cut shorter than the fix."""
    import html  # (here and below: what a search prints needs it, a section shown does not)
    plain = html.unescape(re.sub(r"</?mark>", "", snippet)).removesuffix("…").rstrip()
    fix = action.removesuffix(" …")
    return bool(action) and bool(plain) and (plain.startswith(fix) or fix.startswith(plain))


def _terminal_snippet(snippet: str) -> str:
    """The HTML snippet as text, its marked words in bold (or [brackets] when not a terminal)."""
    import html
    bold, plain = ("\033[1m", "\033[0m") if sys.stdout.isatty() else ("[", "]")
    return "".join(bold if part == "<mark>" else plain if part == "</mark>" else CONTROL.sub("", html.unescape(part))
                   for part in MARK_TAG.split(snippet))


def show_section(view: Optional[dict], as_json: bool, wanted: str, edition: Optional[str] = None) -> int:
    """A section's view (api.show), for a person or as JSON; or that there is none."""
    if view is None:
        where = f" in the edition {edition!r}" if edition else ""
        say(f"rulekb show: no section {wanted!r}{where} (try `rulekb search {wanted!r}`)", stream=sys.stderr)
        return 1
    if not view["text"] and not view.get("subsections") and view.get("kind") != "glossary":
        view["text"] = view["title"]
    if as_json:
        say(json.dumps(view, ensure_ascii=False, indent=1))
    else:
        sys.stdout.write(CONTROL.sub("", section_text(view)))
    return 0


def section_text(view: dict) -> str:
    """A section as a judge wants to read it in a terminal."""
    import textwrap  # (here: what a search prints needs it not)

    def wrap(text: str, indent: str = "") -> str:
        return "\n".join(textwrap.fill(part, width=88, initial_indent=indent, subsequent_indent=indent)
                         for part in text.split("\n\n") if part.strip())
    document = view["document"]
    lines = [f"{view['id']}  ({document['title']}, {document['edition'] or 'undated'}"
             f"{'' if document['current'] else ', upcoming edition' if document.get('upcoming') else ', older edition'}"
             ")",
             f"{view['number']} {view['title']}".strip(), ""]
    infraction = view.get("infraction")
    if infraction:
        lines += [f"PENALTY: {infraction['penalty']}", ""]
    if view["text"]:
        lines += [wrap(view["text"]), ""]
    for example in view["examples"]:
        lines += [wrap(example, "  "), ""]
    if not view["text"] and view.get("subsections"):
        for child in view["subsections"]:
            lines += [wrap(f"{child['number']} {child['title']} {child['text']}".strip(), "  "), ""]
    for note in view.get("annotations", []):
        lines += [annotation_heading(note), wrap(note["text"], "  "), ""]
    if view["refs"]:
        shown = list(dict.fromkeys(f"{ref['text']} -> {ref['target'] or 'not found'}" for ref in view["refs"]))
        lines += ["References: " + "; ".join(shown)]
    if view["referenced_by"]:
        lines += ["Referenced by: " + ", ".join(view["referenced_by"])]
    if view.get("same_number_elsewhere"):
        lines += ["Same number elsewhere: " + ", ".join(view["same_number_elsewhere"])]

    if view.get("url"):
        lines += [f"Link: {view['url']}"]
    return "\n".join(lines).rstrip() + "\n"


def annotation_heading(note: dict) -> str:
    """"ANNOTATION by A. Judge, 2026-11-01 (written for the 2025-11-14 text of cr:702.124m; changed since)"."""
    written = f"written for the {note['edition']} text"
    if note["section"] != (note["target"] or note["section"]):
        written += f" of {note['section']}"
    if note["changed_since"]:
        written += "; this rule has changed since"
    return f"ANNOTATION by {', '.join(note['authors'])}, {note['date']} ({written})"
