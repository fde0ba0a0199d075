"""`rulekb bench`: the speed, size and quality figures, printed (no pass or fail here: tests do that).

One module a family of figures, each with `run(args)`:
- parsing: read and parse time and memory per document;
- building: full build, rebuild, page sizes on the wire, the offline set;
- searching: the CLI's engine on the question sets (quality, latency);
- browsing: the site's search typed in Chromium (quality, agreement, bytes until the first result, latency);
- serving: `rulekb serve` under 100 concurrent clients;
- archive: builds of 10, 40 and all CR editions of an archive (pages, time, memory, disk, rebuild);
- pdf: PDF read+parse time per document;
- annotating: what 100 and 1,000 annotations add to a build;
- cli: the wall time of `rulekb search`, `show` and `--help` in fresh processes;
- meaning: the semantic signal (build cost, file size, latency in Python and Node, quality alone and fused).
`--against DIR` (another checkout) times its code too, alternately with this one's, where a part says so
(cli, parsing).
`--peer COMMAND` (another project's parser, timed by its own command) is set beside the CR's parse.
"""
from __future__ import annotations

import importlib
import os
import sys

PARTS = ("parsing", "building", "searching", "browsing", "serving", "archive", "pdf", "annotating", "cli",
         "meaning")
DEFAULT = ("parsing", "building", "searching", "browsing", "serving")
ALIASES = {"parse": "parsing", "build": "building", "search": "searching", "browser": "browsing",
           "serve": "serving", "annotations": "annotating", "semantic": "meaning"}


def main(args) -> int:
    wanted = [ALIASES.get(part, part) for part in (args.only or DEFAULT)]
    unknown = [part for part in wanted if part not in PARTS]
    if unknown:
        print(f"rulekb bench: unknown part(s) {', '.join(unknown)}; parts: {', '.join(PARTS)}", file=sys.stderr)
        return 2
    print(f"rulekb benchmark on {args.sources}/ ({os.cpu_count()} cores, Python {sys.version.split()[0]})")
    for part in wanted:
        print(f"\n== {part}")
        module = importlib.import_module(f".{part}", __name__)
        module.run(args)
    return 0
