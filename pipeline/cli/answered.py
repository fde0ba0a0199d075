"""`rulekb search` and `show` answered from what was built for the sources as they are (`pipeline.built`),
before the commands, the API and the stages are imported; None when nothing fresh is there (the command
then goes the full way, which keeps what the next question reads)."""
from __future__ import annotations

import sys
from typing import Optional

from .. import built
from .output import say, show_answer, show_section


def search(args) -> Optional[int]:
    if args.language:          # a translation's glossary answers in its language: the full way
        return None
    from ..search.question import QueryError
    try:
        answer = built.search(args.query, args.sources, limit=args.limit, kind=args.doc, index=args.index,
                              edition=args.edition, annotations=args.annotations)
    except QueryError as error:
        say(f"rulekb search: {error}", stream=sys.stderr)
        return 2
    return None if answer is None else show_answer(answer, args.json)


def show(args) -> Optional[int]:
    store = None if args.edition else built.sections(args.sources, args.annotations)
    if store is None:
        return None
    try:
        view = store.view(args.ref)
    except OSError:          # removed meanwhile (the code changed): the full way
        return None
    return show_section(view, args.json, args.ref)
