"""An older edition's rows written compact read back as they were (pipeline/site/reader_rows.py; the site's
edition.js reads them the same way, tests/test_effective_dates.py and test_site.py check the built data)."""
from __future__ import annotations

import json

from pipeline.site import reader_rows

CURRENT = "../cr/"
ROWS = [
    ["1", 1, "chapter", "1", "4f41a20fa07c", "1", "../cr/#1", "1"],
    ["100.1a", 4, "subrule", "100.1a", "4e8ad9417bae", "100", "../cr/100/#100.1a", "100.1a"],
    ["502.9b", 4, "subrule", "502.9b", "9de29815e0c2", "502", "../cr/702/#702.19b", "702.19b"],   # renumbered
    ["212.6e", 4, "subrule", "212.6e", "0e3782c6a4bb", "212", "", ""],                            # gone
    ["Glossary", 1, "glossary", "glossary/trample", "c6473eaba1c5", "glossary", "../cr/glossary/#term-trample", ""],
    ["2", 1, "chapter", "2", "a55958c90cd0", "2", "../cr/", "2"],                        # the folder itself
    ["3", 1, "chapter", "3", "d2ab0b8780c1", "3", "../ipg/3/#3", "3"],                   # elsewhere
]


def test_rows_written_compact_read_back_whole_and_smaller():
    kinds: list[str] = []
    data = json.loads(json.dumps({"sections": reader_rows.packed(ROWS, kinds, CURRENT), "kinds": kinds,
                                  "current": CURRENT}))
    assert reader_rows.rows(data) == ROWS
    assert len(json.dumps(data)) < len(json.dumps({"sections": ROWS}))
    assert data["sections"][1] == ["100.1a", 4, 1, 0, "4e8ad9417bae", "100", 0, 1]
    assert data["sections"][2][6:] == ["702/#", "702.19b"]


def test_rows_of_a_document_without_a_current_edition_and_files_written_whole():
    rows = [row[:6] for row in ROWS]
    kinds: list[str] = []
    assert reader_rows.rows({"sections": reader_rows.packed(rows, kinds, ""), "kinds": kinds}) == rows
    assert reader_rows.rows({"sections": ROWS}) == ROWS
