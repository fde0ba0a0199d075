"""rulekb: Magic: The Gathering tournament rules, parsed, cross-linked, searchable and published.

The same features as the `rulekb` command, from Python:

    from pipeline import load_corpus, load_document, read_source, document_json
    corpus = load_corpus("sources")
    cr = corpus.document("cr")
"""
from .export import document_json
from .ingest import load_corpus, load_document
from .link import link_corpus
from .model import (Block, Corpus, Document, DocumentInfo, GlossaryEntry, Infraction, Penalty, Problem,
                    Reference, Section)
from .parsers import parse
from .reader import SourceError, read_bytes, read_source
from .refs import find_references

__all__ = [
    "load_corpus", "load_document", "link_corpus", "parse", "read_source", "read_bytes", "SourceError",
    "find_references", "document_json", "Block", "Corpus", "Document", "DocumentInfo", "GlossaryEntry",
    "Infraction", "Penalty", "Problem", "Reference", "Section",
]
