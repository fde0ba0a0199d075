"""The index as the browser's search worker reads it: small files, fetched only as a question needs them.

Written into the site's `search/` folder by the build, from the whoosh index itself (so the
browser ranks with whoosh's own scores) and from `question.browser_rules()` (so it reads a
question the same way). Files, all JSON:
- `manifest.json`: the rules of reading a question, the documents (index ranges), which file
  holds what, and which of them a phone saves for offline use (`saved`); the only file not named after its
  content (the others can be cached forever);
- `w-<letter>.<hash>.json`: the documents' words starting with a letter: [word, count, term];
- `k-<letter>.<hash>.json`: the English words starting with a letter that a question's word is left as typed
  for, not corrected into a documents' word (`index.kept_words`), fetched by a word to correct only;
- `t-<key>.<hash>.json`: for the terms whose first two characters are in a key range, the
  entries holding them: [field, n, entry, score, entry, score, ...] (entries as gaps, scores x100);
- `d-<n>.<hash>.json`: what a result shows (number, title, link, penalty, what to do, snippet text), for
  consecutive entries up to CHUNK_BYTES (a long MTR section fills a file with few others);
- `n.<hash>.json`: every number of every document, for number questions and jump-on-Enter;
- `p.<hash>.json`: each long entry's paragraphs' terms (`passages.passage_rows`), fetched by a story only;
- `s.<hash>.bin`: the semantic table and every entry's vector (`semantic.table_bytes`), fetched by a
  long question only.
Pure function of an index: no I/O but reading it.
"""
from __future__ import annotations

import hashlib
import json
from collections import defaultdict

from .engine import natural_key
from .hits import SUBRULE
from .index import SCORE_SCALE, KnowledgeBase
from .naming import catch_all, intended, is_infraction, prescribes
from .question import FIELD_BOOSTS, browser_rules, is_variant

CHUNK_BYTES = 16_000             # raw JSON per display file (about a quarter of that compressed)
TERM_SHARD_BYTES = 24_000       # raw JSON per term file (about a fifth of that compressed)
FIELDS = list(FIELD_BOOSTS)


def browser_files(kb: KnowledgeBase, documents: list[dict], build: str,
                  semantic: bytes | None = None) -> dict[str, str | bytes]:
    """site path -> JSON text (bytes for the semantic table), for every file of the browser's search.
    `documents`: id, kind, title, short."""
    stored = kb.stored()
    files: dict[str, str | bytes] = {}

    def add(stem: str, data) -> str:
        text = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
        name = f"{stem}.{hashlib.sha256(text.encode()).hexdigest()[:10]}.json"
        files[f"search/{name}"] = text
        return name

    words = defaultdict(list)
    for word, (count, term) in sorted(kb.vocabulary.items()):
        words[word[0]].append([word, count, "" if term == word else term])
    word_files = {letter: add(f"w-{_safe(letter)}", rows) for letter, rows in sorted(words.items())}
    kept = defaultdict(list)          # the English words a question's word is left as typed for (index.kept_words)
    for word in kb.kept_words():
        kept[word[0]].append(word)
    kept_files = {letter: add(f"k-{_safe(letter)}", rows) for letter, rows in sorted(kept.items())}

    postings: dict[str, list] = defaultdict(list)
    for field, term, hits in kb.impacts():
        flat = [FIELDS.index(field), len(hits)]
        previous = 0
        for position, score in hits:
            flat += [position - previous, score]
            previous = position
        postings[term].extend(flat)
    term_files = _term_shards(postings, add)

    positions = {fields["id"]: position for position, fields in enumerate(stored)}
    pages: dict[str, int] = {}
    chunks = []                      # [first entry, file]
    rows: list = []
    size = 0
    for position, fields in enumerate(stored):
        row = _display_row(fields, positions, pages)
        row_size = len(json.dumps(row, ensure_ascii=False))
        if rows and size + row_size > CHUNK_BYTES:
            chunks.append([position - len(rows), add(f"d-{len(chunks)}", rows)])
            rows, size = [], 0
        rows.append(row)
        size += row_size
    if rows:
        chunks.append([len(stored) - len(rows), add(f"d-{len(chunks)}", rows)])

    numbers = defaultdict(list)
    for position, fields in enumerate(stored):
        if fields.get("number"):
            numbers[fields["kind"]].append([fields["number"], position])
    for kind in numbers:
        numbers[kind].sort(key=lambda pair: natural_key(pair[0]))
    numbers_file = add("n", numbers)

    ranges = []
    for document in documents:
        members = [position for position, fields in enumerate(stored) if fields["document"] == document["id"]]
        if members:
            glossary = [p for p in members if stored[p].get("section_kind") == "glossary"]
            variants = [p for p in members if is_variant(stored[p]["kind"], stored[p].get("number") or "")]
            infractions = [p for p in members if is_infraction(stored[p].get("penalty", ""))]
            remedies = [p for p in members if prescribes(stored[p].get("penalty", ""), stored[p].get("action", ""))]
            subrules = [p for p in members if stored[p].get("section_kind") == SUBRULE]
            catch_alls = [p for p in members if catch_all(stored[p])]
            intents = [p for p in members if intended(stored[p])]
            ranges.append({**document, "start": members[0], "end": members[-1] + 1,
                           "glossary": [glossary[0], glossary[-1] + 1] if glossary else None,
                           "variants": _runs(variants), "infractions": _runs(infractions),
                           "remedies": _runs(remedies), "subrules": _runs(subrules), "catch_alls": _runs(catch_alls),
                           "intended": _runs(intents),
                           "archived": bool(stored[members[0]].get("archived"))})
    manifest = {"version": 1, "build": build, "rules": browser_rules(), "fields": FIELDS, "scale": SCORE_SCALE,
                "entries": len(stored), "documents": ranges, "words": word_files, "kept": kept_files,
                "titles": sorted(kb.titles()), "terms": term_files, "chunks": chunks, "numbers": numbers_file,
                "cited": [list(run) for run in kb.cited()],
                "pages": [url for url, _ in sorted(pages.items(), key=lambda item: item[1])]}
    rows = kb.passage_rows()
    if rows:
        manifest["passages"] = add("p", rows)
    if semantic is not None:
        name = f"s.{hashlib.sha256(semantic).hexdigest()[:10]}.bin"
        files[f"search/{name}"] = semantic
        manifest["semantic"] = name
    # What a phone saves for offline use, said once for the service worker and the build's figures: every file
    # here but the semantic table (a long question fetches it, and the service worker keeps what is fetched); the
    # long sections' paragraphs are saved, so that a story is answered offline as online.
    manifest["saved"] = [name for name in ("manifest.json", "worker.js", "semantic.js", numbers_file,
                                           manifest.get("passages"), *word_files.values(), *kept_files.values(),
                                           *term_files.values(), *(name for _, name in chunks)) if name]
    files["search/manifest.json"] = json.dumps(manifest, ensure_ascii=False, separators=(",", ":"))
    return files


def _runs(positions: list[int]) -> list[list[int]]:
    """[[start, end], ...] of consecutive positions."""
    runs: list[list[int]] = []
    for position in positions:
        if runs and runs[-1][1] == position:
            runs[-1][1] += 1
        else:
            runs.append([position, position + 1])
    return runs


def _term_shards(postings: dict[str, list], add) -> dict[str, str]:
    """Terms grouped by their first two characters, consecutive groups merged up to TERM_SHARD_BYTES."""
    by_key: dict[str, dict] = defaultdict(dict)
    for term in sorted(postings):
        by_key[term[:2]][term] = postings[term]
    shards: dict[str, str] = {}
    pending: dict = {}
    keys: list[str] = []
    size = 0
    for key in sorted(by_key):
        group_size = len(json.dumps(by_key[key], separators=(",", ":")))
        if pending and size + group_size > TERM_SHARD_BYTES:
            name = add(f"t-{_safe(keys[0])}", pending)
            shards.update(dict.fromkeys(keys, name))
            pending, keys, size = {}, [], 0
        pending.update(by_key[key])
        keys.append(key)
        size += group_size
    if pending:
        name = add(f"t-{_safe(keys[0])}", pending)
        shards.update(dict.fromkeys(keys, name))
    return shards


def _display_row(fields: dict, positions: dict[str, int], pages: dict[str, int]) -> list:
    """[number, title, heading, page, anchor, penalty, text, parent, targets, id, action]."""
    url = fields.get("url") or ""
    page, _, anchor = url.partition("#")
    page_number = pages.setdefault(page, len(pages))
    number = fields.get("label") or ""
    heading = (fields.get("headings") or "").split(" › ")[-1]
    parent = positions.get(fields.get("parent") or "", -1)
    targets = [positions[target] for target in (fields.get("targets") or "").split() if target in positions]
    return [number, fields.get("title") or "", heading, page_number, "" if anchor == number else anchor,
            fields.get("penalty") or "", fields.get("text") or "", parent, targets, fields["id"],
            fields.get("action") or ""]


def _safe(key: str) -> str:
    """A file-name-safe form of a key ("tr", "70", "æt" -> hex)."""
    return key if key.isascii() and key.isalnum() else key.encode("utf-8").hex()
