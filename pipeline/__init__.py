"""rulekb: Magic: The Gathering tournament rules, parsed, cross-linked, searchable and published.

The stages, one way only: read -> parse -> link -> {export, search, diff, site} -> api -> cli.
Everything the `rulekb` command does is a function of `pipeline.api`:

    from pipeline import api, load_corpus
    corpus = load_corpus("sources")
    cr = corpus.document("cr")
    api.show("704.5k")
"""
from .corpus import load_corpus, load_document
from .export import document_json
from .link import link_corpus
from .model import (
                    Block,
                    Corpus,
                    Document,
                    DocumentInfo,
                    GlossaryEntry,
                    Infraction,
                    Penalty,
                    Problem,
                    Reference,
                    Section,
)
from .parse import parse
from .parse.refs import find_references
from .read import SourceError, read_bytes, read_source

__all__ = [
    "load_corpus", "load_document", "link_corpus", "parse", "read_source", "read_bytes", "SourceError",
    "find_references", "document_json", "Block", "Corpus", "Document", "DocumentInfo", "GlossaryEntry",
    "Infraction", "Penalty", "Problem", "Reference", "Section",
]
