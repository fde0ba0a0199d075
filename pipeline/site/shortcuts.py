"""Addresses people type or share, on any static host: `/cr/702.19b`, `/mtr/3.3`, `/ipg/2.1` land on the
rule; `/search/?q=slow+play` opens the search with that question answered.

A number's address is a folder (`cr/702.19b/`: a host answers `/cr/702.19b` by redirecting to the
folder, as it does for every page). Each holds the same small page: it reads its number from the address
and forwards to the rule's page and anchor, found in the list of the current editions' numbers
(`Addresses.numbers`) written beside it. The page is held once on disk: a document's first typed number
has a folder whose page is a hard link (the plan's `links`), every other one is a symbolic link to that
folder (the plan's `folders`: a folder of its own costs a block of disk, 3,000 of them 13 MB). A host
follows the link as it does any folder; a deployment that copies links as files gets a copy of the
folder. A number that has a page of its own (`ipg/2.1/`, `cr/702/`) needs none. Pure functions: pages
and files come back as data.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass, field

from ..addresses import Addresses
from .pages import Page
from .render import esc

SHORTCUT = "assets/number.html"      # the one page every typed number's address is a copy of
NUMBERS = "assets/typed-numbers.json"     # the numbers it forwards: page URL -> "702.19b 702.19c 704.5j#704.5j-2"
SEARCH_PAGE = "search/index.md"
TYPED_NUMBER = re.compile(r"[0-9][0-9a-z.]*")      # as a folder name: "702.19b", "3.3", "112a"

# Reads "<folder>/<number>/" from the address (with or without the slash or index.html, under any prefix)
# and goes to the page that holds the number; a number it cannot place (offline, say) is searched for.
# The page stands at two depths (assets/number.html and cr/702.19b/): "../" is a contents page from both,
# but no relative address reaches the search from both, so the script writes that link from the root.
# The numbers are fetched, not carried: a host that copies the page to each address (a deployment that
# does not keep hard links) then holds 3,000 copies of a kilobyte, not of the list.
FORWARD_SCRIPT = """(function () {
  "use strict";
  var SEARCH_UP = "";
  var parts = location.pathname.replace(/index\\.html$/, "").split("/").filter(Boolean);
  var number = decodeURIComponent(parts.pop() || "").toLowerCase();
  var folder = decodeURIComponent(parts.pop() || "");
  var root = "/" + parts.map(function (part) { return part + "/"; }).join("");
  var searchRoot = root + SEARCH_UP;
  var search = function () { location.replace(searchRoot + "search/?q=" + encodeURIComponent(folder + " " + number)); };
  fetch(root + "__NUMBERS__").then(function (response) { return response.json(); }).then(function (pages) {
    for (var page in pages) {
      if (page.split("/")[0] !== folder) continue;
      var found = pages[page].split(" ").filter(function (item) { return item.split("#")[0] === number; })[0];
      if (found) return location.replace(root + page + "#" + encodeURIComponent(found.split("#")[1] || number));
    }
    search();
  }).catch(search);
  document.addEventListener("DOMContentLoaded", function () {
    var link = document.getElementById("rk-search");
    link.href = searchRoot + "search/";
    link.parentNode.hidden = false;
  });
})();""".replace("__NUMBERS__", NUMBERS)


@dataclass
class TypedAddresses:
    pages: dict[str, Page] = field(default_factory=dict)
    files: dict[str, str] = field(default_factory=dict)
    links: dict[str, str] = field(default_factory=dict)       # site path -> SHORTCUT
    folders: dict[str, str] = field(default_factory=dict)     # a number's folder -> the folder it is a link to


def typed_addresses(addresses: Addresses, pages: dict[str, Page], files: dict) -> TypedAddresses:
    """The number addresses that have no page of their own (and the page they share), and the search page;
    `pages` and `files` are the site's others, which they must not take."""
    taken = {Addresses.url(path) + "index.html" for path in pages} | set(files)
    on_page: dict[str, list[str]] = {}
    links: dict[str, str] = {}
    folders: dict[str, str] = {}
    first: dict[str, str] = {}          # a document's folder -> its first number's folder, the one held on disk
    for key, link in sorted(addresses.numbers.items()):
        number = key.split(" ", 1)[1]
        page, _, anchor = link.partition("#")
        document = page.split("/")[0]
        where = f"{document}/{number}"
        if not TYPED_NUMBER.fullmatch(number) or f"{where}/index.html" in taken or where in first.values() \
                or where in folders:
            continue
        if document in first:
            folders[where] = first[document]
        else:
            first[document] = where
            links[f"{where}/index.html"] = SHORTCUT
        on_page.setdefault(page, []).append(number if anchor == number else f"{number}#{anchor}")
    typed = TypedAddresses(links=links, folders=folders)
    typed.files[SHORTCUT] = number_page()
    typed.files[NUMBERS] = json.dumps({page: " ".join(numbers) for page, numbers in on_page.items()},
                                      separators=(",", ":"), sort_keys=True)
    typed.pages[SEARCH_PAGE] = search_page()
    return typed


def number_page() -> str:
    """The page at every typed number's address."""
    return ('<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Rule</title>'
            '<meta name="viewport" content="width=device-width,initial-scale=1">'
            '<meta name="color-scheme" content="light dark"><meta name="robots" content="noindex">'
            '<link rel="icon" href="data:,">'       # no request for /favicon.ico on the way
            f'<script>{FORWARD_SCRIPT}</script></head>'
            '<body><p><a href="../">The document’s contents</a>'
            '<span hidden> · <a id="rk-search">Search the rules</a></span></p>'
            '</body></html>')


def search_page() -> Page:
    """`search/`: the search (assets/rulekb.js opens it, with the address's `?q=` answered); without
    JavaScript, a form that says what the search needs."""
    body = ('<h1 id="search">Search the rules</h1>'
            '<form class="rk-search-page" action="./" method="get" role="search" '
            'style="display:flex;gap:.5rem;align-items:center;flex-wrap:wrap;margin:0 0 1.2em">'
            '<input type="search" name="q" aria-label="Search the rules" autocomplete="off" autocapitalize="off" '
            f'spellcheck="false" enterkeyhint="search" placeholder="{esc("704.5k, ipg 2.1, missed trigger, GRV…")}" '
            'style="flex:1 1 12rem;min-height:44px;padding:0 .75rem;font:inherit;color:inherit;background:transparent;'
            'border:1px solid var(--md-default-fg-color--lighter);border-radius:4px">'
            '<button type="submit" class="md-button md-button--primary" style="margin:0;min-height:44px">'
            'Search</button></form>'
            '<p>Rule numbers, words and judges’ abbreviations: see the <a href="../search-tips/">search tips</a>.</p>'
            '<noscript><p>The search runs in the browser and needs JavaScript.</p></noscript>')
    return Page(SEARCH_PAGE, "Search", body, description="Search the Magic rules")
