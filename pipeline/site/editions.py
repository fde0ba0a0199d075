"""Older editions, compact: one reader page each, its text drawn from data shared by all editions.

Every wording of every rule is written once, whichever editions held it (`data/editions/<kind>/
w-<page>.<hash>.json`, one file per page of the document: 702, 2.1 ...); each edition is a list
of its sections and the ids of their wordings (`data/editions/<kind>/<edition id>.json`, its rows
compact: `reader_rows`). The reader page of an edition (`<edition id>/`) shows its contents and, for
the part asked for in the address (`#702.19b`), its rules, an infraction with its penalty (site/assets/edition.js). The
addresses an older edition's pages had when it was current (`<edition id>/702/#702.19b`) are forwarded
there by the site's 404 page (`not_found_script`), so old links keep landing on the old wording: a folder
for each of them cost a hundred editions 13,000 folders, 55 MB of directory blocks. Pure functions: the
files come back as data.
"""
from __future__ import annotations

import hashlib
import json
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import Optional

from .. import kinds
from ..addresses import Addresses
from ..build_date import long_date
from ..diff.history import EditionSummary, Step
from ..model import DocumentInfo, slug
from . import reader_rows
from .pages import Page
from .render import esc, penalty_class

NUMBER = re.compile(r"^[0-9][0-9a-z.]*$")     # a key that is the rule's number (shown as "current 702.19 →")


@dataclass
class EditionPlan:
    pages: dict[str, Page] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)       # data files: site path -> JSON
    past: set[str] = field(default_factory=set)     # site paths read for the past editions alone (compress)


def group_of(step: Step, steps: dict[str, Step], kind: str, known: Optional[dict] = None) -> str:
    """The page a section is on: its ancestor at the page level of its document (as `addresses` decides).
    `known` keeps the answers of the sections read before (a parent's answer is its children's)."""
    level = _page_level(kind)
    if known is not None and step.parent in known and step.level > level:
        return known.setdefault(step.key, known[step.parent])
    current = step
    while current.level > level and current.parent in steps:
        current = steps[current.parent]
    group = _page_name(current.number, current.key)
    if known is not None:
        known[step.key] = group
    return group


_page_level = lru_cache(maxsize=None)(kinds.page_level)


@cache
def _page_name(number: str, key: str) -> str:
    return slug(number) if number else key.replace("/", "--")


def older_editions(kind: str, editions: list[tuple[DocumentInfo, EditionSummary]], addresses: Addresses,
                   current: Optional[DocumentInfo], changes: Optional[dict[str, str]] = None,
                   now: Optional[dict[str, dict[str, str]]] = None) -> EditionPlan:
    """The reader pages and data of a document's older editions (and excerpts), and of
    its upcoming ones (previews). `changes`: an upcoming edition's id -> the page of what it changes; `now`:
    an edition's id -> {its section key: the key the same rule has in the current edition}."""
    changes, now = changes or {}, now or {}
    plan = EditionPlan()
    shards: dict[str, dict[str, list]] = {}
    listings = []
    # (a hundred editions of 3,000 rules each, most wordings and places shared: each is worked out once)
    current_href: dict[tuple[str, str], tuple[str, str]] = {}     # (reader folder depth, key now) -> (href, number)
    # each wording's name in the files: a short number in the order first met, oldest edition first (a new edition
    # names only its new wordings), not its 12-letter hash (215,000 rows in a hundred CR editions)
    named: dict[str, str] = {}
    name = lambda wording_id: named.get(wording_id) or named.setdefault(wording_id, _base36(len(named)))
    for info, summary in editions:
        steps = {step.key: step for step in summary.steps}
        groups: dict[str, tuple[str, str]] = {}     # page -> its heading: (number, title)
        rows = []
        known: dict[str, str] = {}
        for step in summary.steps:
            group = group_of(step, steps, kind, known)
            if group not in groups:
                groups[group] = (step.number, summary.wordings[step.wording].title)   # the page's own heading first
            shard = shards.get(group)
            if shard is None:
                shard = shards[group] = {}
            wording_name = name(step.wording)
            if wording_name not in shard:
                # [title, text, examples (those the text does not hold), and an infraction's penalty and its
                # box's class if it has one]
                wording = summary.wordings[step.wording]
                shard[wording_name] = [wording.title, wording.text, list(wording.examples)] + (
                    [wording.penalty, penalty_class(wording.penalty)] if wording.penalty else [])
            rows.append([step.number, step.level, step.kind, step.key, wording_name, group])
        for _term, wording_id in summary.glossary:
            wording = summary.wordings[wording_id]
            shards.setdefault("glossary", {})[name(wording_id)] = [wording.title, wording.text, []]
        if current is not None:      # where each rule is in the current edition ("" when it is gone)
            reader = f"{info.id}/index.md"
            depth = str(reader.count("/"))
            keys = now.get(info.id, {})
            for row in rows:
                moved = keys.get(row[3])
                if not moved:
                    row += ("", "")
                    continue
                found = current_href.get((depth, moved))
                if found is None:
                    found = current_href[depth, moved] = (
                        addresses.href(reader, f"{current.id}:{moved}") or "", moved if NUMBER.match(moved) else "")
                row += found
        listings.append((info, summary, groups, rows))
    names = {group: _name(f"data/editions/{kind}/w-{group}", data) for group, data in sorted(shards.items())}
    for group, data in shards.items():
        plan.files[names[group]] = json.dumps(data, ensure_ascii=False, separators=(",", ":"))
    if not any(info.upcoming for info, _ in editions):       # (the wordings are an upcoming edition's too)
        plan.past.update(names.values())
    for info, summary, groups, rows in listings:
        data_path = f"data/editions/{kind}/{info.id}.json"
        path = f"{info.id}/index.md"
        wanted = set(groups) | ({"glossary"} if summary.glossary else set())
        section_kinds: list[str] = []
        here = addresses.relative(path, f"{current.id}/index.md") if current is not None else ""
        plan.files[data_path] = json.dumps({
            "id": info.id, "title": info.title, "edition": info.edition, "kind": kind,
            "sections": reader_rows.packed(rows, section_kinds, here), "kinds": section_kinds, "current": here,
            "glossary": [[term, name(wording_id)] for term, wording_id in summary.glossary],
            "shards": {group: names[group].rsplit("/", 1)[1] for group in sorted(wanted)},
        }, ensure_ascii=False, separators=(",", ":"))
        plan.pages[path] = reader_page(info, path, data_path, groups, summary, addresses, current,
                                       changes.get(info.id))
        if not info.upcoming:
            plan.past.update((data_path, info.id))      # its data, and its reader's folder
    return plan


def _base36(number: int) -> str:
    digits = ""
    while True:
        number, digit = divmod(number, 36)
        digits = "0123456789abcdefghijklmnopqrstuvwxyz"[digit] + digits
        if not number:
            return digits


def _name(stem: str, data) -> str:
    digest = hashlib.sha256(json.dumps(data, sort_keys=True).encode()).hexdigest()[:10]
    return f"{stem}.{digest}.json"


def reader_page(info: DocumentInfo, path: str, data_path: str, groups: dict[str, tuple[str, str]],
                summary: EditionSummary, addresses: Addresses, current: Optional[DocumentInfo],
                changes: Optional[str] = None) -> Page:
    short = kinds.short_name(info.kind)
    upcoming = info.preview
    current_href = addresses.relative(path, f"{current.id}/index.md") if current is not None else ""
    if upcoming:
        note = (f'the <strong>upcoming edition</strong>, a preview: it takes effect on '
                f'<strong>{esc(long_date(info.edition or ""))}</strong> and is not in force before then')
        if changes:
            note += f' (<a href="{esc(addresses.relative(path, changes))}">what changes</a>)'
    else:
        note = "an <strong>excerpt</strong>" if info.excerpt else "an <strong>older edition</strong>"
    current_link = ""
    if current is not None:
        current_link = (f' The current edition is of <span class="rk-date">{esc(current.edition or "")}</span>: '
                        f'<a href="{esc(current_href)}">read the current {esc(short)}</a>.')
    label = "Upcoming edition" if upcoming else ("Excerpt" if info.excerpt else "Older edition")
    bar = (f'<div class="rk-older-bar" role="note"><span>{label}: <strong>{esc(short)} '
           f'{esc(info.edition or info.id)}</strong></span>'
           + (f'<a class="rk-older-current" href="{esc(current_href)}" data-kind="{esc(short)}">current edition →</a>'
              if current is not None else "") + '</div>')
    contents = "".join(
        f'<li><a href="#{esc(number or group)}"><span class="rk-num-inline">{esc(number)}</span> {esc(title)}</a></li>'
        for group, (number, title) in groups.items())
    glossary = '<li><a href="#glossary">Glossary</a></li>' if summary.glossary else ""
    kept = "" if upcoming else ", kept for reference"
    body = (f'{bar}<h1 id="top">{esc(info.title)}</h1>'
            f'<p class="rk-edition">{"Takes effect on" if upcoming else "Effective"} <time class="rk-date" '
            f'datetime="{esc(info.edition or "")}">{esc(long_date(info.edition or "") or "?")}</time></p>'
            f'<div class="admonition warning rk-banner"><p class="admonition-title">{esc(short)} '
            f'{esc(info.edition or "")}</p><p>This is {note} of the {esc(info.title)}{kept}.'
            f'{current_link}{" " + esc(info.note) if info.note else ""}</p></div>'
            # asked for at once, beside the page's scripts (the edition's words are drawn from it)
            f'<link rel="preload" as="fetch" crossorigin="anonymous" '
            f'href="{esc(addresses.relative(path, "index.md"))}{esc(data_path)}">'
            f'<div class="rk-reader" data-edition="{esc(addresses.relative(path, "index.md"))}{esc(data_path)}">'
            f'<details class="rk-fold" open><summary>Contents</summary><ul class="rk-contents">{contents}{glossary}'
            f'</ul></details><div class="rk-reader-text" aria-live="polite"></div>'
            f'<noscript><p>This edition is drawn from data by JavaScript; its words are in '
            f'<a href="{esc(addresses.relative(path, "index.md"))}{esc(data_path)}">its data file</a>.</p>'
            f'</noscript></div>')
    # the edition first: a narrow header cuts the end of the title off
    status = "upcoming edition" if upcoming else "excerpt" if info.excerpt else "older edition"
    return Page(path, f"{short} {info.edition or info.id} · {status}", body,
                description=f"{info.title}, edition {info.edition or info.id}")


# In the 404 page: an address `<edition>/<page>/` (under any prefix, with or without index.html) of an edition in
# the list goes to `<edition>/#<page>`, or to the anchor the address carried (`<edition>/702/#702.19b`).
NOT_FOUND_SCRIPT = """(function () {
  "use strict";
  var editions = __EDITIONS__;
  var parts = location.pathname.replace(/index\\.html$/, "").split("/").filter(Boolean);
  var page, edition;
  try {
    page = decodeURIComponent(parts.pop() || "");
    edition = decodeURIComponent(parts.pop() || "");
  } catch (error) {
    return;
  }
  if (!page || editions.indexOf(edition) < 0) return;
  var root = "/" + parts.map(function (part) { return part + "/"; }).join("");
  location.replace(root + encodeURIComponent(edition) + "/" + (location.hash || "#" + encodeURIComponent(page)));
})();"""


def not_found_script(edition_ids: list[str]) -> str:
    """The 404 page's script that forwards the old addresses of the editions `edition_ids` (their readers' folders)
    to their readers; "" when there are none. Safe inside <script>: no "<" is written as such."""
    if not edition_ids:
        return ""
    listed = json.dumps(sorted(edition_ids), ensure_ascii=True, separators=(",", ":")).replace("<", "\\u003c")
    return NOT_FOUND_SCRIPT.replace("__EDITIONS__", listed)
