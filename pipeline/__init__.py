"""rulekb: Magic: The Gathering tournament rules, parsed, cross-linked, searchable and published.

The stages, one way only: read -> parse -> link -> {export, search, diff, site} -> api -> cli.
Everything the `rulekb` command does is a function of `pipeline.api`:

    from pipeline import api, load_corpus
    corpus = load_corpus("sources")
    cr = corpus.document("cr")
    api.show("704.5k")
"""
from __future__ import annotations

import importlib

# Each name is imported from its stage when first asked for: `rulekb search`, `show` and `--help` import this
# package and must not pay for the readers and parsers they do not use. (The parse function is
# `pipeline.parse.parse`: `pipeline.parse` is its stage's package.)
_WHERE = {
    "load_corpus": "corpus", "load_document": "corpus", "document_json": "export", "link_corpus": "link",
    "find_references": "parse.refs", "read_source": "read", "read_bytes": "read",
    "SourceError": "read", **dict.fromkeys(("Block", "Corpus", "Document", "DocumentInfo", "GlossaryEntry",
                                            "Infraction", "Penalty", "Problem", "Reference", "Section"), "model"),
}

__all__ = list(_WHERE)


def __getattr__(name: str):
    if name not in _WHERE:
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = getattr(importlib.import_module(f".{_WHERE[name]}", __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted(set(globals()) | set(_WHERE))
