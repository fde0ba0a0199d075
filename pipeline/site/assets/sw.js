/* rulekb offline cache: the reference keeps working when the venue's wifi does not.

   One cache per build ("rulekb-<build>"): a new build's service worker starts a new cache and deletes
   the older ones, so a phone never mixes two builds.
   - On install: the home page, the penalty page, the search tips, the stylesheets and scripts.
   - On request of a page ("save" message, sent by assets/rulekb.js once the page is idle, and not when
     the phone asks to save data): the current documents' pages and the search files, IPG, MTR, JAR and
     the quick references first, then the CR; it answers what it saved and how many bytes it fetched.
   - Pages: the network first (fresh rules when online), the saved copy when offline or slow; a page
     never saved answers with a styled "not saved offline yet" page (the home page's frame).
   - Other files (assets, search files: their names or contents change with each build): the cache first.
   The list of pages is read from the search's manifest (search/manifest.json: every current page). */
"use strict";
const BUILD = "__RULEKB_BUILD__";
const CACHE = "rulekb-" + BUILD;
const SCOPE = new URL("./", self.location.href).href;
const STATE = new URL("offline-state.json", SCOPE).href;      // what "save" completed (stored in the cache)
const CORE = ["./", "penalties/", "search-tips/", "search/manifest.json", "search/worker.js"];
const QUICK = ["penalties/", "regular/", "search-tips/"];
const FIRST = ["ipg", "mtr", "jar"];                              // then every other current document, the CR last
const SLOW_NETWORK_MS = 4000;                                     // a page saved answers from the cache after this
const PARALLEL = 4;
const MATCH = { ignoreSearch: true, ignoreVary: true };

const url = (path) => new URL(path, SCOPE).href;

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then(installCore).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key.startsWith("rulekb-") && key !== CACHE)
      .map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

/* The pages every visitor may need offline, and what they are drawn with (the home page's assets). */
async function installCore(cache) {
  await Promise.all(CORE.map((path) => keep(cache, url(path))));
  const home = await cache.match(url("./"));
  if (home) await keepAll(cache, assetsOf(await home.text(), url("./")));
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

/* A file in the cache (fetched unless it is there); the bytes fetched for it, as sent (gzip). */
async function keep(cache, address) {
  const hit = await cache.match(address, MATCH);
  if (hit) return size(hit);
  try {
    const response = await fetch(address, { cache: "no-cache" });
    if (!response.ok) return 0;
    const bytes = size(response) || (await response.clone().arrayBuffer()).byteLength;
    await cache.put(address, response);
    return bytes;
  } catch (error) {
    return 0;
  }
}

function size(response) {
  return Number(response.headers.get("content-length")) || 0;
}

async function keepAll(cache, addresses) {
  let bytes = 0;
  const queue = [...addresses];
  const worker = async () => {
    while (queue.length) {
      const fetched = await keep(cache, queue.shift());     // not "bytes += await": the workers interleave
      bytes += fetched;
    }
  };
  await Promise.all(Array.from({ length: PARALLEL }, worker));
  return bytes;
}

/* -- "save": the whole current reference, in the order a judge needs it ---------------------------- */
let saving = null;

self.addEventListener("message", (event) => {
  const data = event.data || {};
  const port = event.ports[0];
  if (data.type === "status") {
    event.waitUntil(readState().then((state) => port && port.postMessage({ type: "status", build: BUILD, ...state })));
  } else if (data.type === "save") {
    saving = saving || save(data.resources || []).finally(() => { saving = null; });
    event.waitUntil(saving.then((state) => port && port.postMessage({ type: "saved", build: BUILD, ...state })));
  }
});

async function readState() {
  const cache = await caches.open(CACHE);
  const stored = await cache.match(STATE);
  return stored ? stored.json() : { complete: false, documents: [], bytes: 0 };
}

async function save(resources) {
  const before = await readState();
  if (before.complete) return { ...before, fresh: false };
  const cache = await caches.open(CACHE);
  const groups = await offlineGroups(cache, resources);
  const documents = [];
  let bytes = 0;
  for (const group of groups) {
    bytes += await keepAll(cache, group.addresses);
    if (group.label) documents.push(group.label);
  }
  const state = { complete: true, documents, bytes };
  await cache.put(STATE, new Response(JSON.stringify(state), { headers: { "Content-Type": "application/json" } }));
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
  const order = [...FIRST.filter((id) => pagesOf[id]), ...current.filter((id) => !FIRST.includes(id) && id !== "cr" && pagesOf[id])];
  if (pagesOf.cr) order.push("cr");
  const searchFiles = ["manifest.json", "worker.js", manifest.numbers, ...Object.values(manifest.words || {}),
    ...Object.values(manifest.terms || {}), ...(manifest.chunks || []).map((chunk) => chunk[1])].filter(Boolean);
  const label = (id) => ((manifest.documents || []).find((document) => document.id === id) || {}).short || id.toUpperCase();
  const groups = [{ label: "", addresses: [...CORE, ...QUICK].map(url).concat(resources.filter(sameSite)) }];
  for (const id of order) {
    if (id === "cr") groups.push({ label: "search", addresses: [...new Set(searchFiles)].map((name) => url("search/" + name)) });
    groups.push({ label: label(id), addresses: [...pagesOf[id]].map(url) });
  }
  if (!pagesOf.cr) groups.push({ label: "search", addresses: [...new Set(searchFiles)].map((name) => url("search/" + name)) });
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
  const saved = await cache.match(request, MATCH);
  const network = fetch(request).then((response) => {
    if (response.ok) cache.put(request, response.clone());
    return response;
  });
  network.catch(() => {});                       // when the saved copy answered first
  try {
    return await (saved ? Promise.race([network, late(SLOW_NETWORK_MS, saved)]) : network);
  } catch (error) {
    return saved || offlinePage(cache, request);
  }
}

function late(ms, value) {
  return new Promise((resolve) => setTimeout(() => resolve(value), ms));
}

async function fileResponse(request) {
  const cache = await caches.open(CACHE);
  const saved = await cache.match(request, MATCH);
  if (saved) return saved;
  const response = await fetch(request);
  if (response.ok) cache.put(request, response.clone());
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
    `<p>This page (<code>${escapeHtml(decodeURIComponent(wanted.pathname))}</code>) is not saved on this phone, and ` +
    "there is no connection. The search, the penalty quick reference and the pages saved before still work.</p>" +
    '<ul class="rk-quick">' +
    '<li><a class="rk-search-open" href="search-tips/"><strong>Search the rules</strong><span>numbers, words, abbreviations</span></a></li>' +
    '<li><a href="penalties/"><strong>Penalty quick reference</strong><span>every infraction and its penalty</span></a></li>' +
    `<li><a href="${escapeHtml(wanted.href)}"><strong>Try again</strong><span>when the connection is back</span></a></li>` +
    "</ul></div></div>";
  const html = (await home.text())
    .replace(/<head>/, `<head><base href="${escapeHtml(SCOPE)}">`)
    .replace(/<title>[^<]*<\/title>/, "<title>Not saved offline yet</title>")
    .replace(/(<article class="md-content__inner md-typeset">)[\s\S]*?(<\/article>)/, `$1${message}$2`);
  const headers = { "Content-Type": "text/html; charset=utf-8" };
  const policy = home.headers.get("content-security-policy");
  if (policy) headers["Content-Security-Policy"] = policy;
  return new Response(html, { status: 200, headers });
}

function escapeHtml(text) {
  return text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
}
