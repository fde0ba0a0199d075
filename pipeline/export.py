"""A document as JSON-ready plain data: the shape bots, tools and the site's downloads read.

Pure function of the corpus; writes nothing itself.
"""
from __future__ import annotations

import json
from dataclasses import asdict
from typing import Any, Optional

from .model import Annotation, Corpus, Document, Reference, Section


def document_json(document: Document, corpus: Optional[Corpus] = None) -> dict[str, Any]:
    backlinks = corpus.backlinks if corpus else {}
    info = document.info
    return {
        "document": {
            "id": info.id, "kind": info.kind, "title": info.title, "edition": info.edition,
            "source": info.source, "complete": info.complete, "excerpt": info.excerpt,
            "current": info.current, "note": info.note, "encoding": info.encoding, "sha256": info.sha256,
        },
        "front_matter": [block.as_text() for block in document.front_matter],
        "sections": [section_json(section, backlinks) for section in document.sections],
        "glossary": [
            {"term": entry.term, "names": list(entry.names), "text": entry.text,
             "refs": [ref_json(ref) for ref in entry.refs], "line": entry.line}
            for entry in document.glossary
        ],
        "credits": [block.as_text() for block in document.credits],
        "penalties": [asdict(penalty) for penalty in document.penalties],
        "problems": [asdict(problem) for problem in document.problems],
        "annotations": [annotation_json(annotation) for annotation in annotations_of(document, corpus)],
    }


def annotations_of(document: Document, corpus: Optional[Corpus]) -> list[Annotation]:
    """The notes on a document's sections: on the current edition, those carried to it; on an older one,
    those written for it."""
    if corpus is None:
        return []
    prefix = f"{document.id}:"
    return [annotation for annotation in corpus.annotations
            if ((annotation.target if document.info.current else annotation.written_for) or "").startswith(prefix)]


def annotation_json(annotation: Annotation) -> dict[str, Any]:
    """A judge's note as the CLI, the API and the exports give it (its Markdown as written)."""
    return {"file": annotation.file, "line": annotation.line, "section": annotation.section,
            "edition": annotation.edition, "authors": list(annotation.authors), "date": annotation.date,
            "target": annotation.target, "written_for": annotation.written_for,
            "changed_since": annotation.changed_since, "orphaned": annotation.orphaned, "text": annotation.body,
            "refs": [ref_json(ref) for ref in annotation.refs]}


def section_json(section: Section, backlinks: dict) -> dict[str, Any]:
    data = {
        "id": section.id, "number": section.number, "title": section.title, "kind": section.kind,
        "level": section.level, "text": section.text, "examples": list(section.examples),
        "parent": section.parent, "refs": [ref_json(ref) for ref in section.refs],
        "referenced_by": list(backlinks.get(section.id, ())), "line": section.line,
        "blocks": [{"kind": block.kind, "text": block.text, "marker": block.marker} for block in section.blocks],
    }
    if section.infraction:
        infraction = asdict(section.infraction)
        data["infraction"] = {key: list(value) if isinstance(value, tuple) else value
                              for key, value in infraction.items()}
    return data


def ref_json(ref: Reference) -> dict[str, Any]:
    return {"text": ref.text, "number": ref.number, "document": ref.document, "target": ref.target, "line": ref.line}


def dumps(data: Any, compact: bool = False) -> str:
    """JSON text: indented for a person (the CLI), compact for a file the site serves."""
    if compact:
        return json.dumps(data, ensure_ascii=False, separators=(",", ":")) + "\n"
    return json.dumps(data, ensure_ascii=False, indent=1) + "\n"
