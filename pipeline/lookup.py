"""Find one section by what a person types ("704.5k", "ipg 2.1", "cr:704.5k") and describe it.

Used by `rulekb show` and the API's /api/sections/<id>. Reads the corpus only.
"""
from __future__ import annotations

import textwrap
from typing import Optional

from .export import ref_json, section_json
from .model import Corpus, Document, GlossaryEntry, Section
from .pages import glossary_id
from .search import as_number


def find_section(corpus: Corpus, wanted: str) -> Optional[tuple[Document, Section | GlossaryEntry]]:
    """A section by id ("cr:704.5k"), by number ("704.5k", "ipg 2.1"), or a glossary term ("concede")."""
    wanted = wanted.strip()
    if ":" in wanted:
        document_id, _, rest = wanted.partition(":")
        document = corpus.document(document_id)
        if document is None:
            return None
        if rest.startswith("glossary/"):
            entry = next((e for e in document.glossary if glossary_id(document, e) == wanted), None)
            return (document, entry) if entry else None
        section = document.section(wanted)
        return (document, section) if section else None
    question = as_number(wanted)
    if not question:
        return _glossary_term(corpus, wanted)
    kinds = [question.kind] if question.kind else (["cr"] if question.number[:3].isdigit() else ["ipg", "mtr", "cr", "floor"])
    for kind in kinds:
        for document in sorted(corpus.documents, key=lambda d: (not d.info.current, d.info.excerpt)):
            if document.info.kind != kind:
                continue
            for section in document.sections:
                if section.number.lower() == question.number:
                    return document, section
    return None


def _glossary_term(corpus: Corpus, wanted: str) -> Optional[tuple[Document, GlossaryEntry]]:
    wanted = wanted.casefold()
    for document in sorted(corpus.documents, key=lambda d: (not d.info.current, d.info.excerpt)):
        for entry in document.glossary:
            if wanted in (name.casefold() for name in (entry.term, *entry.names)):
                return document, entry
    return None


def same_number_elsewhere(corpus: Corpus, document: Document, section: Section) -> list[str]:
    """Current sections of other documents with the same number ("2.1" is in the IPG and the MTR)."""
    return [other.id + ":" + section.number.lower() for other in corpus.documents
            if other.info.current and other.id != document.id and other.info.kind != document.info.kind
            and other.section(section.number) is not None]


def section_view(corpus: Corpus, document: Document, section, urls: Optional[dict] = None) -> dict:
    if isinstance(section, GlossaryEntry):
        entry_id = glossary_id(document, section)
        data = {"id": entry_id, "number": "", "title": section.term, "kind": "glossary", "text": section.text,
                "examples": [], "refs": [ref_json(ref) for ref in section.refs], "referenced_by": [],
                "names": list(section.names), "line": section.line}
        data["document"] = {"id": document.id, "title": document.info.title, "edition": document.info.edition,
                            "current": document.info.current}
        data["url"] = (urls or {}).get(entry_id)
        return data
    data = section_json(section, corpus.backlinks)
    data["subsections"] = [{"id": child.id, "number": child.number, "title": child.title, "text": child.text}
                           for child in document.sections if child.parent == section.id]
    data["same_number_elsewhere"] = same_number_elsewhere(corpus, document, section)
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
    if not view["text"] and view.get("subsections"):
        for child in view["subsections"]:
            lines += [wrap(f"{child['number']} {child['title']} {child['text']}".strip(), "  "), ""]
    if view["refs"]:
        shown = []
        for ref in view["refs"]:
            label = f"{ref['text']} -> {ref['target'] or 'not found'}"
            if label not in shown:
                shown.append(label)
        lines += ["References: " + "; ".join(shown)]
    if view["referenced_by"]:
        lines += ["Referenced by: " + ", ".join(view["referenced_by"])]
    if view.get("same_number_elsewhere"):
        lines += ["Same number elsewhere: " + ", ".join(view["same_number_elsewhere"])]
    if view.get("url"):
        lines += [f"Link: {view['url']}"]
    return "\n".join(lines).rstrip() + "\n"
