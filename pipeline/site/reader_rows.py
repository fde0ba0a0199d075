"""An older edition's rows, as its data file holds them (compact) and as they are read (whole).

A row whole is `[number, level, kind, key, wording, group]`, and, where the document has a current edition,
`[..., href, now]`: the same rule's address in the current edition ("" when it is gone) and its number there.
A hundred CR editions hold 215,000 rows, most of them saying the same things twice (the key is the number,
the rule kept its number, its address is the current folder's), so the file writes each row compact:
the kind as its place in the file's `kinds`, the key as 0 when it is the number, `now` as 1 when it is the
key, the address without the current document's folder (the file's `current`) and, where it ends with
`#<now>`, with a bare `#` (19 MB of rows became 9). `rows` reads them back whole; the site's reader
(assets/edition.js, `whole`) does the same in the browser. Pure functions, no imports of ours.
"""
from __future__ import annotations

SAME = 0            # a key that is the row's number
KEPT = 1            # a current number that is the row's key
SAME_PAGE = 0       # a current address that is the row's page (its group) in the current folder, at its number


def packed(rows: list[list], kinds: list[str], current: str) -> list[list]:
    """The rows compact; `kinds` gets the kinds of section they name (in order of first use), `current` is the
    address of the current document's folder from the reader ("../cr/")."""
    places = {kind: index for index, kind in enumerate(kinds)}
    found = []
    for row in rows:
        number, level, kind, key, wording, group = row[:6]
        if kind not in places:
            places[kind] = len(kinds)
            kinds.append(kind)
        compact = [number, level, places[kind], SAME if key == number else key, wording, group]
        if len(row) > 6:
            href, now = row[6], row[7]
            if href and current and href.startswith(current) and href != current:
                href = href[len(current):]
                if now and href.endswith("#" + now):
                    href = href[:-len(now)]
                if href == f"{group}/#":
                    href = SAME_PAGE
            elif href:
                href = [href]           # elsewhere than the current folder: kept whole
            compact += [href, KEPT if now and now == key else now]
        found.append(compact)
    return found


def rows(data: dict) -> list[list]:
    """An edition's data file's rows, whole."""
    kinds, current = data.get("kinds"), data.get("current", "")
    if kinds is None:           # written whole
        return [list(row) for row in data["sections"]]
    found = []
    for row in data["sections"]:
        number, level, kind, key, wording, group = row[:6]
        key = number if key == SAME else key
        whole = [number, level, kinds[kind], key, wording, group]
        if len(row) > 6:
            href, now = row[6], row[7]
            now = key if now == KEPT else now
            if isinstance(href, list):
                href = href[0]
            elif href == SAME_PAGE:
                href = f"{current}{group}/#{now}"
            elif href:
                href = current + href + (now if href.endswith("#") else "")
            whole += [href, now]
        found.append(whole)
    return found
