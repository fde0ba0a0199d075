"""Find one section by what a person types ("704.5k", "ipg 2.1", "cr:704.5k") and describe it.

Used by `rulekb show` and the API's /api/sections/<id>. Reads the corpus only.
"""
from __future__ import annotations

import textwrap
from typing import Optional

from .export import section_json
from .model import Corpus, Document, Section
from .search import as_number


def find_section(corpus: Corpus, wanted: str) -> Optional[tuple[Document, Section]]:
    wanted = wanted.strip()
    if ":" in wanted:
        document_id = wanted.split(":", 1)[0]
        document = corpus.document(document_id)
        section = document.section(wanted) if document else None
        return (document, section) if section else None
    question = as_number(wanted)
    if not question:
        return None
    kinds = [question.kind] if question.kind else (["cr"] if question.number[:3].isdigit() else ["ipg", "mtr", "cr", "floor"])
    for kind in kinds:
        for document in sorted(corpus.documents, key=lambda d: (not d.info.current, d.info.excerpt)):
            if document.info.kind != kind:
                continue
            for section in document.sections:
                if section.number.lower() == question.number:
                    return document, section
    return None


def section_view(corpus: Corpus, document: Document, section: Section, urls: Optional[dict] = None) -> dict:
    data = section_json(section, corpus.backlinks)
    data["document"] = {"id": document.id, "title": document.info.title, "edition": document.info.edition,
                        "current": document.info.current}
    data["url"] = (urls or {}).get(section.id)
    return data


def section_text(view: dict) -> str:
    """A section as a judge wants to read it in a terminal."""
    wrap = lambda text, indent="": "\n".join(textwrap.fill(p, width=88, initial_indent=indent, subsequent_indent=indent)  # noqa: E731
                                             for p in text.split("\n\n") if p.strip())
    document = view["document"]
    lines = [f"{view['id']}  ({document['title']}, {document['edition'] or 'undated'}"
             f"{'' if document['current'] else ', older edition'})",
             f"{view['number']} {view['title']}".strip(), ""]
    infraction = view.get("infraction")
    if infraction:
        lines += [f"PENALTY: {infraction['penalty']}", ""]
    if view["text"]:
        lines += [wrap(view["text"]), ""]
    for example in view["examples"]:
        lines += [wrap(example, "  "), ""]
    if view["refs"]:
        shown = []
        for ref in view["refs"]:
            label = f"{ref['text']} -> {ref['target'] or 'not found'}"
            if label not in shown:
                shown.append(label)
        lines += ["References: " + "; ".join(shown)]
    if view["referenced_by"]:
        lines += ["Referenced by: " + ", ".join(view["referenced_by"])]
    if view.get("url"):
        lines += [f"Link: {view['url']}"]
    return "\n".join(lines).rstrip() + "\n"
