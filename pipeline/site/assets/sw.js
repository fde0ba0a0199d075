/* rulekb offline cache: once the site has loaded, it keeps working when the venue's wifi does not.
   Pages: network first (fresh rules when online), the cached copy when offline.
   Assets, the search index, the number map: cache first (their names or contents change with each build). */
"use strict";
const CACHE = "rulekb-v1";
const CORE = ["./", "penalties/", "search-tips/", "assets/numbers.json", "search/search_index.json"];

self.addEventListener("install", (event) => {
  event.waitUntil(caches.open(CACHE).then((cache) => cache.addAll(CORE)).then(() => self.skipWaiting()));
});

self.addEventListener("activate", (event) => {
  event.waitUntil(caches.keys()
    .then((keys) => Promise.all(keys.filter((key) => key !== CACHE).map((key) => caches.delete(key))))
    .then(() => self.clients.claim()));
});

self.addEventListener("fetch", (event) => {
  const request = event.request;
  if (request.method !== "GET" || new URL(request.url).origin !== self.location.origin) return;
  if (new URL(request.url).pathname.includes("/api/")) return;
  const page = request.mode === "navigate" || (request.headers.get("accept") || "").includes("text/html");
  if (page || request.url.endsWith("search_index.json") || request.url.endsWith("numbers.json")) {
    event.respondWith(fetch(request).then((response) => {
      if (response.ok) { const copy = response.clone(); caches.open(CACHE).then((cache) => cache.put(request, copy)); }
      return response;
    }).catch(() => caches.match(request, { ignoreSearch: true }).then((hit) => hit || caches.match("./"))));
    return;
  }
  event.respondWith(caches.match(request).then((hit) => hit || fetch(request).then((response) => {
    if (response.ok) { const copy = response.clone(); caches.open(CACHE).then((cache) => cache.put(request, copy)); }
    return response;
  })));
});
