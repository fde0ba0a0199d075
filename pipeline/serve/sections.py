"""/api/sections/<id>: a section as `rulekb show --json` prints it, from the files the build published.

Reads the site's `data/<document>.json` (every section and glossary term of the current editions, with
what cites them) and takes each one's address from the search files (`search.published`), so the server
needs neither sources/ nor a corpus: a site copied elsewhere answers the same. Finds a section the way
`api.find_section` does (an id, a number in any written form, a glossary term); tests hold the two answers
equal.
"""
from __future__ import annotations

import json
from pathlib import Path
from typing import Optional

from .. import kinds
from ..addresses import term_anchor
from ..model import GlossaryEntry, section_id
from ..search.question import as_number, fold
from ..site import reader_rows


class PublishedSections:
    """The sections of a published site's current documents, by id."""

    def __init__(self, site: Path, links: dict[str, str], numbers: dict[str, str]):
        self.links = links              # section id -> address ("cr/704/#704.5k"), from the search rows
        self.numbers = numbers          # "cr 704.5k" -> address (assets/numbers.json), for the others
        index = json.loads((site / "data" / "index.json").read_text(encoding="utf-8"))
        self.site = site
        self.editions: list[dict] = index.get("editions", [])      # every edition, older and upcoming too
        self.readers: dict[str, dict] = {}                          # edition id -> its reader's data, when asked
        self.documents: dict[str, dict] = {}
        for listed in index["documents"]:
            data = json.loads((site / listed["url"]).read_text(encoding="utf-8"))
            data["by_id"] = {section["id"]: section for section in data["sections"]}
            for entry in data["glossary"]:
                entry["id"] = f"{data['document']['id']}:glossary/{term_anchor(GlossaryEntry(entry['term'], ''))}"
            self.documents[data["document"]["id"]] = data
        self.ordered = sorted(self.documents.values(),       # current editions first, excerpts last
                              key=lambda d: (not d["document"]["current"], d["document"]["excerpt"]))

    def view(self, wanted: str) -> Optional[dict]:
        """The `rulekb show --json` answer for an id, number or term; None if there is no such section."""
        found = self.find(wanted)
        if found is None:
            return None
        document, section = found
        info = document["document"]
        about = {"id": info["id"], "title": info["title"], "edition": info["edition"], "current": info["current"],
                 "upcoming": info.get("upcoming", False)}       # a current edition is in force
        if "term" in section:
            return {"id": section["id"], "number": "", "title": section["term"], "kind": "glossary",
                    "text": section["text"], "examples": [], "refs": section["refs"], "referenced_by": [],
                    "names": section["names"], "line": section["line"], "document": about,
                    "url": self.link(info["kind"], section["id"], "")}
        number = section["number"]
        view = dict(section)
        on = "target" if info["current"] else "written_for"      # as api.section_view places a note
        view["annotations"] = [note for note in document.get("annotations", []) if note[on] == section["id"]]
        view["subsections"] = [{"id": child["id"], "number": child["number"], "title": child["title"],
                                "text": child["text"]}
                               for child in document["sections"] if child["parent"] == section["id"]]
        view["same_number_elsewhere"] = [
            other["document"]["id"] + ":" + number.lower() for other in self.documents.values()
            if number and other["document"]["current"] and other is not document
            and other["document"]["kind"] != info["kind"]
            and section_id(other["document"]["id"], number) in other["by_id"]]
        view["document"] = about
        view["url"] = self.link(info["kind"], section["id"], number)
        return view

    def edition_view(self, wanted: str, edition: str) -> Optional[dict]:
        """A section as an older or upcoming edition words it (`?edition=`: an id, an effective date,
        "upcoming"), from that edition's reader data: number, title, text and examples (the published data
        of an edition other than the current one holds no references). None if either is not there."""
        found = self.find(wanted)
        kind = found[0]["document"]["kind"] if found else wanted.partition(":")[0]
        wanted_edition = edition.strip().lower()
        named = [info for info in self.editions if info["kind"] == kind and not info["excerpt"]
                 and (wanted_edition in (info["id"], info["edition"])
                      or (wanted_edition == "upcoming" and info.get("upcoming")))]
        if not named:
            return None
        info = min(named, key=lambda listed: listed["edition"] or "")
        if info["current"]:
            return self.view(wanted)
        number = found[1].get("number", "") if found else wanted.partition(":")[2]
        reader = self.reader(info)
        row = next((row for row in reader["sections"] if row[0].lower() == number.lower()), None) if number else None
        if row is None:
            return None
        words = json.loads((self.site / "data" / "editions" / kind / reader["shards"][row[5]]).read_text("utf-8"))
        wording = list(words.get(row[4]) or [])
        title, text, examples = (wording + ["", "", []][len(wording):])[:3]      # what the data leaves out
        return {"id": f"{info['id']}:{row[0].lower()}", "number": row[0], "title": title, "kind": row[2],
                "text": text, "examples": list(examples or []),
                "document": {"id": info["id"], "title": info["title"], "edition": info["edition"],
                             "current": False, "upcoming": bool(info.get("upcoming"))},
                "url": f"{info['id']}/#{row[3]}"}

    def reader(self, info: dict) -> dict:
        if info["id"] not in self.readers:
            path = self.site / "data" / "editions" / info["kind"] / f"{info['id']}.json"
            data = json.loads(path.read_text(encoding="utf-8"))
            self.readers[info["id"]] = {**data, "sections": reader_rows.rows(data)}
        return self.readers[info["id"]]

    def link(self, kind: str, wanted_id: str, number: str) -> Optional[str]:
        return self.links.get(wanted_id) or (self.numbers.get(f"{kind} {number.lower()}") if number else None)

    def find(self, wanted: str) -> Optional[tuple[dict, dict]]:
        """(document, section or glossary entry) for an id ("cr:704.5k"), a number ("704.5k", "ipg 2.1") or a
        term ("concede"), as api.find_section finds it."""
        wanted = wanted.strip()
        if ":" in wanted:
            document = self.documents.get(wanted.partition(":")[0])
            if document is None:
                return None
            if wanted.partition(":")[2].startswith("glossary/"):
                entry = next((entry for entry in document["glossary"] if entry["id"] == wanted), None)
            else:
                entry = document["by_id"].get(wanted)
            return (document, entry) if entry else None
        number = as_number(wanted)
        if not number:
            return self._term(wanted)
        kind, number = number
        wanted_kinds = [kind] if kind else kinds.numbered_by(number)
        for wanted_kind in wanted_kinds:
            for document in self.ordered:
                if document["document"]["kind"] == wanted_kind:
                    section = next((s for s in document["sections"] if s["number"].lower() == number), None)
                    if section is not None:
                        return document, section
        return None

    def _term(self, wanted: str) -> Optional[tuple[dict, dict]]:
        wanted = fold(wanted).casefold()
        for document in self.ordered:
            for entry in document["glossary"]:
                if wanted in (fold(name).casefold() for name in (entry["term"], *entry["names"])):
                    return document, entry
        return None
