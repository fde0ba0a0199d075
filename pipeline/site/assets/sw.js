/* rulekb offline copy: the reference keeps working when the venue's wifi does not, and a saved page opens at
   once even when the network stalls (answers nothing, for seconds or for ever).

   One cache per build ("rulekb-<build>"): a phone never mixes two builds.
   - Install: the home page, the quick references, the search's entry files and what they are drawn with;
     and, when the phone had the build before saved whole, the whole reference again, so that the phone
     always has a complete copy: the old worker keeps answering from the old copy until the new one is in.
   - "save" (asked by assets/offline.js): the current documents' pages and the search files, IPG, MTR, JAR
     and the quick references first, then the CR; it answers whether everything was saved.
   - Answering: whatever is saved answers from the cache at once, the network is not waited for. The check
     for something newer runs in the background: stale-while-revalidate, with the build as what is
     revalidated. Every saved file belongs to one build and this file's BUILD changes with each build, so
     the browser's own check of this file, made after each page opened (the service worker rules), covers
     them all in one small request, and no page of a newer build lands in this build's cache. (Calling
     registration.update() from here instead keeps this worker busy, and the new one then waits for it.)
     A new build installs beside this one, takes over once saved, and the open pages say a newer version
     is ready (offline.js). Anything not saved: the network, then the "not saved offline yet" page.
   The list of pages is read from the search's manifest (search/manifest.json: every current page).
   A translation's pages and search files (LANGUAGES) are saved only for the languages the reader chose
   (offline.js asks, from what assets/translations.js remembered), after the English; the saved state
   says which, and a language chosen later is saved then. */
"use strict";
const BUILD = "__RULEKB_BUILD__";
// Written by the build once the site is complete (pipeline/site/offline_figures.py): the files of the
// site's own the saved pages load (some pages load a script of their own), the gzip bytes of what "save"
// fetches, the build's day as people write it, and (below) the pages it made. Left as they are by `mkdocs serve`.
const PAGE_ASSETS = [/*__RULEKB_OFFLINE_ASSETS__*/];
const OFFLINE_BYTES = Number("__RULEKB_OFFLINE_BYTES__") || 0;
const BUILT_ON = "__RULEKB_BUILT_ON__".startsWith("__") ? "" : "__RULEKB_BUILT_ON__";
const CACHE = "rulekb-" + BUILD;
const SCOPE = new URL("./", self.location.href).href;
const STATE = new URL("offline-state.json", SCOPE).href;      // what "save" completed (stored in the cache)
// The quick references, the search's own address (/search/?q=…) and what typed addresses (/cr/702.19b) need,
// and every other page linked from home with the pages beneath it ("What changed"): those the build made.
const QUICK = [/*__RULEKB_QUICK__*/];
const LINKED = [/*__RULEKB_LINKED_PAGES__*/];
// The older editions' readers among them ("cr-2019-01-25/"): their old addresses (cr-2019-01-25/702/) land there.
const READERS = [/*__RULEKB_READERS__*/];
const LANGUAGES = {/*__RULEKB_LANGUAGES__*/};      // "zh": {files: ["zh/", "zh/cr/702/", …], bytes}
const CORE = ["./", ...QUICK.filter((page) => page === "penalties/" || page === "search-tips/"),
  "search/manifest.json", "search/worker.js"];
const TYPED = /^([a-z]+\/[0-9][0-9a-z.]*?)\.?\/?(index\.html)?$/i;     // "<document>/<number>", slash or not (from the scope)
const FILE = /\.(html?|json|js|css|xml|txt|png|svg|ico|webmanifest|br|gz)$/i;   // a file, not a folder typed without "/"
const FETCH_LIMIT_MS = 30000;         // a file that long without an answer is not saved (saving is retried later)
const UNSAVED_PAGE_MS = 10000;        // a page never saved: this long for the network, then the offline page
const PARALLEL = 4;
const MATCH = { ignoreSearch: true, ignoreVary: true };

const url = (path) => new URL(path, SCOPE).href;

self.addEventListener("install", (event) => {
  event.waitUntil(install().then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(others(keys).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

const others = (keys) => keys.filter((key) => key.startsWith("rulekb-") && key !== CACHE);

/* The pages every visitor may need offline and what they are drawn with; everything, when the phone had
   the build before saved whole. A file that could not be fetched fails the install: the worker before
   (and its copy) stays, and the browser tries again at the next visit, keeping what this one saved. */
async function install() {
  const cache = await caches.open(CACHE);
  const core = await keepAll(cache, CORE.map(url));
  const home = await cache.match(url("./"));
  const assets = home ? await keepAll(cache, assetsOf(await home.text(), url("./"))) : { missing: 1 };
  if (core.missing || assets.missing) throw new Error("offline: the core files could not be saved");
  const previous = await previousSavedWhole();
  if (previous) {
    const state = await save([], previous.languages || []);
    if (!state.complete) throw new Error("offline: the new build could not be saved whole");
  }
}

async function previousSavedWhole() {
  for (const key of others(await caches.keys())) {
    const stored = await (await caches.open(key)).match(STATE);
    const state = stored && (await stored.json());
    if (state && state.complete) return state;
  }
  return null;
}

function assetsOf(html, base) {
  const found = new Set();
  for (const match of html.matchAll(/<(?:link|script)\b[^>]*?\b(?:href|src)="([^"]+)"/g)) {
    const address = new URL(match[1].replace(/&amp;/g, "&"), base);
    if (address.origin === self.location.origin && /\.(css|js|png|svg|ico|woff2?)$/.test(address.pathname)) {
      found.add(address.href);
    }
  }
  return [...found];
}

/* A file in the cache (fetched unless it is there): the bytes fetched for it, as sent (gzip); 0 for a file
   the site does not have; null when there was no answer (no network, or none in FETCH_LIMIT_MS). */
async function keep(cache, address) {
  const hit = await cache.match(address, MATCH);
  if (hit) return size(hit);
  try {
    const response = await fetch(address, { cache: "no-cache", signal: AbortSignal.timeout(FETCH_LIMIT_MS) });
    if (!response.ok) return 0;
    const bytes = size(response) || (await response.clone().arrayBuffer()).byteLength;
    await cache.put(address, response);
    return bytes;
  } catch (error) {
    return null;
  }
}

function size(response) {
  return Number(response.headers.get("content-length")) || 0;
}

/* Files in the cache, a few at a time: {bytes, missing}. */
async function keepAll(cache, addresses) {
  const total = { bytes: 0, missing: 0 };
  const queue = [...addresses];
  const worker = async () => {
    while (queue.length) {
      const fetched = await keep(cache, queue.shift());     // not "bytes += await": the workers interleave
      if (fetched === null) total.missing += 1;
      else total.bytes += fetched;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return total;
}

/* -- "save": the whole current reference, in the order a judge needs it ---------------------------- */
let saving = null;

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports[0];
  const answer = (type) => (state) => port && port.postMessage({ type, ...about(), ...state });
  if (data.type === "status") {
    event.waitUntil(readState().then(answer("status")));
  } else if (data.type === "save") {
    saving = saving || save(data.resources || [], data.languages || []).finally(() => { saving = null; });
    event.waitUntil(saving.then(answer("saved")));
  }
});

/* What the page says about this build's copy: "Saved offline (2.4 MB, build of November 25, 2026)". */
function about() {
  const languageBytes = {};
  for (const [code, language] of Object.entries(LANGUAGES)) languageBytes[code] = language.bytes;
  return { build: BUILD, builtOn: BUILT_ON, offlineBytes: OFFLINE_BYTES, languageBytes };
}

async function readState() {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(STATE);
  return stored ? stored.json() : { complete: false, documents: [], bytes: 0, languages: [] };
}

/* Saved whole only when every file was: a save that lost the network says so, and the next one fetches
   only what is still missing. `languages`: the translations the reader chose ("zh"), kept with those saved before. */
async function save(resources, languages) {
  const before = await readState();
  const wanted = [...new Set([...(before.languages || []), ...languages])].filter((code) => LANGUAGES[code]);
  if (before.complete && wanted.every((code) => (before.languages || []).includes(code))) return { ...before, fresh: false };
  const cache = await caches.open(CACHE);
  const groups = await offlineGroups(cache, resources);
  for (const code of wanted) groups.push({ label: code, addresses: LANGUAGES[code].files.map(url), language: code });
  const documents = [];
  const saved = [];
  let bytes = 0;
  let missing = 0;
  for (const group of groups) {
    const kept = await keepAll(cache, group.addresses);
    bytes += kept.bytes;
    missing += kept.missing;
    if (group.language) { if (!kept.missing) saved.push(group.language); }
    else if (group.label && !kept.missing) documents.push(group.label);
  }
  const state = { complete: missing === 0, documents, bytes, missing, languages: saved };
  if (state.complete) {
    await cache.put(STATE, new Response(JSON.stringify(state), { headers: { "Content-Type": "application/json" } }));
  }
  return { ...state, fresh: true };
}

/* What "save" fetches, in order: [{label, addresses}]. `resources`: the files the page itself loaded. */
async function offlineGroups(cache, resources) {
  await keep(cache, url("search/manifest.json"));
  const stored = await cache.match(url("search/manifest.json"));
  const manifest = stored ? await stored.json() : { pages: [], documents: [] };
  const current = (manifest.documents || []).filter((document) => !document.archived).map((document) => document.id);
  const pagesOf = {};
  for (const page of manifest.pages || []) {
    const id = page.split("/")[0];
    if (current.includes(id)) (pagesOf[id] = pagesOf[id] || new Set([id + "/"])).add(page);
  }
  // the registry's order (kinds.Kind.saved_order): the small documents consulted first, the largest (the CR) last,
  // the search files before it
  const saved = (id) => ((manifest.documents || []).find((document) => document.id === id) || {}).saved ?? 9;
  const order = current.filter((id) => pagesOf[id]).sort((a, b) => saved(a) - saved(b));
  const searchFiles = manifest.saved || [];      // the search's files a phone saves, as the build lists them
  const label = (id) => ((manifest.documents || []).find((document) => document.id === id) || {}).short || id.toUpperCase();
  const groups = [{ label: "", addresses: [...CORE, ...QUICK, ...PAGE_ASSETS].map(url).concat(resources.filter(sameSite)) }];
  order.forEach((id, at) => {
    if (at === order.length - 1) groups.push({ label: "search", addresses: [...new Set(searchFiles)].map((name) => url("search/" + name)) });
    groups.push({ label: label(id), addresses: [...pagesOf[id]].map(url) });
  });
  if (!order.length) groups.push({ label: "search", addresses: [...new Set(searchFiles)].map((name) => url("search/" + name)) });
  groups.push({ label: "", addresses: LINKED.map(url) });       // what changed, older editions: last
  return groups;
}

function sameSite(address) {
  try {
    const parsed = new URL(address);
    return parsed.origin === self.location.origin && parsed.href.startsWith(SCOPE) && !parsed.pathname.includes("/api/");
  } catch (error) {
    return false;
  }
}

/* -- answering requests ----------------------------------------------------------------------------- */
self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || !sameSite(request.url)) return;
  const page = request.mode === "navigate" || (request.headers.get("accept") || "").includes("text/html");
  event.respondWith(page ? pageResponse(request) : fileResponse(request));
});

async function pageResponse(request) {
  const cache = await caches.open(CACHE);
  const saved = (await cache.match(request, MATCH)) || (await typedAnswer(cache, new URL(request.url)));
  if (saved) return saved;
  const network = fetch(request);
  network.catch(() => {});                       // when the offline page answered first
  try {
    const response = await Promise.race([network, late(UNSAVED_PAGE_MS)]);
    if (response.ok) cache.put(request, response.clone()).catch(() => {});   // a page opened is kept
    return response;
  } catch (error) {
    return offlinePage(cache, request);
  }
}

/* An address typed by hand answers from the saved copy as well: "/ipg/2.1" is the saved "/ipg/2.1/" (sent
   there, as a host would), and a number without a page of its own ("/cr/702.19b", slash or not) is the one
   saved page that forwards every number, when the saved list of numbers holds it. */
async function typedAnswer(cache, address) {
  const scope = new URL(SCOPE).pathname;
  const path = address.pathname.startsWith(scope) ? address.pathname.slice(scope.length) : "";
  if (path && !path.endsWith("/") && !FILE.test(path) && (await cache.match(url(path + "/"), MATCH))) {
    return Response.redirect(url(path + "/") + address.search, 301);
  }
  const older = olderAddress(path);
  if (older && (await cache.match(url(older.reader), MATCH))) return forward(older);
  const code = Object.keys(LANGUAGES).find((language) => path.startsWith(language + "/"));
  const typed = TYPED.exec(decoded(code ? path.slice(code.length + 1) : path));
  if (!typed || !(await typedNumbers(cache)).has(typed[1].toLowerCase())) return undefined;
  return cache.match(url((code ? code + "/" : "") + "assets/number.html"), MATCH);
}

/* An older edition's old address ("cr-2019-01-25/702/", from when it was current): its reader and the part asked
   for, as the site's 404 page reads it (site/editions.py, not_found_script). */
function olderAddress(path) {
  const parts = path.replace(/index\.html$/, "").split("/").filter(Boolean);
  if (parts.length !== 2 || !READERS.includes(parts[0] + "/")) return undefined;
  return { reader: parts[0] + "/", part: decoded(parts[1]) };
}

/* A page that goes on to the reader at once, at the rule the address named (its own #702.19b, else #702). */
function forward(older) {
  const target = JSON.stringify(url(older.reader));
  const part = JSON.stringify("#" + encodeURIComponent(older.part));
  return new Response(`<!doctype html><meta charset="utf-8"><title>Older edition</title>` +
    `<script>location.replace(${target} + (location.hash || ${part}));</script>`,
    { headers: { "Content-Type": "text/html; charset=utf-8" } });
}

let numbersSaved = null;         // "cr/702.19b", … : the numbers the forwarding page finds (one build, one list)
async function typedNumbers(cache) {
  if (numbersSaved) return numbersSaved;
  const stored = await cache.match(url("assets/typed-numbers.json"), MATCH);
  if (!stored) return new Set();
  const pages = await stored.json();
  numbersSaved = new Set();
  for (const [page, numbers] of Object.entries(pages)) {
    for (const item of numbers.split(" ")) numbersSaved.add(page.split("/")[0] + "/" + item.split("#")[0]);
  }
  return numbersSaved;
}

function late(ms) {
  return new Promise((resolve, reject) => setTimeout(() => reject(new Error("no answer")), ms));
}

async function fileResponse(request) {
  const cache = await caches.open(CACHE);
  const saved = await cache.match(request, MATCH);
  if (saved) return saved;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone()).catch(() => {});
  return response;
}

/* A page never saved, with no network: the home page's frame (header, styles, search) with a short
   message. A <base> makes the home page's relative addresses work at any depth. */
async function offlinePage(cache, request) {
  const home = await cache.match(url("./"));
  if (!home) return new Response("Offline, and this page is not saved.", { status: 503, headers: { "Content-Type": "text/plain" } });
  const wanted = new URL(request.url);
  const message =
    '<div id="rk-main" tabindex="-1"><div class="rk-page rk-offline">' +
    '<h1 id="offline">Not saved offline yet</h1>' +
    `<p>This page (<code>${escapeHtml(decoded(wanted.pathname))}</code>) is not saved on this phone, and ` +
    "there is no connection. The search, the penalty quick reference and the pages saved before still work.</p>" +
    '<ul class="rk-quick">' +
    '<li><a class="rk-search-open" href="search-tips/"><strong>Search the rules</strong><span>numbers, words, abbreviations</span></a></li>' +
    '<li><a href="penalties/"><strong>Penalty quick reference</strong><span>every infraction and its penalty</span></a></li>' +
    `<li><a href="${escapeHtml(wanted.href)}"><strong>Try again</strong><span>when the connection is back</span></a></li>` +
    "</ul></div></div>";
  const html = (await home.text())
    .replace(/<head>/, `<head><base href="${escapeHtml(SCOPE)}">`)
    .replace(/<title>[^<]*<\/title>/, "<title>Not saved offline yet</title>")
    .replace(/(<article class="md-content__inner md-typeset">)[\s\S]*?(<\/article>)/, `$1${message}$2`)
    .replace(/<nav class="md-footer__inner[\s\S]*?<\/nav>/, "");      // the home page's "Next" is not this page's
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  const policy = home.headers.get("content-security-policy");
  if (policy) headers["Content-Security-Policy"] = policy;
  return new Response(html, { status: 200, headers });
}

function decoded(path) {
  try {
    return decodeURIComponent(path);
  } catch (error) {
    return path;                                   // a stray "%" in an address typed by hand
  }
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
