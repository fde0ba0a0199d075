"""The history of each rule across the editions of a document: its wordings, and when it last changed."""
from __future__ import annotations

from ..model import Document
from .compare import _key, _pair, section_text


def _edition_label(document: Document) -> str:
    return document.info.edition or document.id


def _ordered(documents: list[Document]) -> list[Document]:
    """Oldest first; excerpts other than the newest document are left out (they cover too little)."""
    ordered = sorted(documents, key=lambda d: (d.info.edition or "", d.info.source))
    if not ordered:
        return []
    newest = ordered[-1]
    return [d for d in ordered if not d.info.excerpt or d is newest]


def rule_history(documents: list[Document]) -> dict[str, list[tuple[str, str, str]]]:
    """Section id of the newest edition -> [(edition, section id there, text)], oldest first.

    Follows renumberings back; a section's list starts with the edition it first
    appears in. Documents are ordered by edition date; excerpts other than the
    newest are skipped.
    """
    editions = _ordered(documents)
    if not editions:
        return {}
    newest = editions[-1]
    history: dict[str, list[tuple[str, str, str]]] = {}
    current = {section.id: _key(section) for section in newest.sections}   # newest id -> key in editions[i]
    for section in newest.sections:
        history[section.id] = [(_edition_label(newest), section.id, section_text(section))]
    for index in range(len(editions) - 1, 0, -1):
        pairing = _pair(editions[index - 1], editions[index])
        older = editions[index - 1]
        for newest_id, key in list(current.items()):
            if key is None:
                continue
            old_key = pairing.pairs.get(key)
            if old_key is None:
                current[newest_id] = None
                continue
            item = pairing.old_items[old_key]
            history[newest_id].insert(0, (_edition_label(older), item.section.id, item.text))
            current[newest_id] = old_key
    return history


def last_changed(documents: list[Document]) -> dict[str, str]:
    """Section id of the newest edition -> the edition in which its text last changed.

    A section added after the oldest edition counts as changed where it appears. A
    section unchanged across every edition given (renumberings aside) is absent.
    """
    editions = _ordered(documents)
    if len(editions) < 2:
        return {}
    oldest = _edition_label(editions[0])
    found = {}
    for newest_id, chain in rule_history(editions).items():
        for position in range(len(chain) - 1, -1, -1):
            edition, _, text = chain[position]
            if position == 0:
                if edition != oldest:      # added in this edition
                    found[newest_id] = edition
                break
            if chain[position - 1][2] != text:
                found[newest_id] = edition
                break
    return found


