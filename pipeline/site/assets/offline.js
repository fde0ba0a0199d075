/* rulekb: the reference saved on the phone for when the venue's wifi fails (the service worker, sw.js), and
   what the page says about it.
   - Once the page is idle, the worker saves every current document; unless the phone asks to save data
     (Data Saver, a metered or mobile connection): then the page offers to save them, and one tap does,
     now and for the builds after (this phone asked).
   - In the header, near the top, a short word while the phone is offline or the copy is not saved (yet):
     "Offline · saved copy", "Saving for offline…", "Not saved offline" (a tap saves).
   - A lasting line at the end of each page says where the copy stands: "Saved offline (2.4 MB, build of
     November 25, 2026)", "Saving…", the offer, or a failure to try again. It is in the footer, whose room
     is kept for it (rulekb.css), so nothing on the screen moves when it appears.
   - A notice at the bottom of the screen, put aside with one tap, makes the offer on Data Saver and says
     when a newer build is ready, to reload. The page's end makes room for it: nothing is out of reach.
   <html data-rk-offline> says where the copy stands (saving, saved, offered, failed) and
   <html data-rk-newer> that a newer build is ready, for tests and styles. Text is only set as text. */
(function () {
  "use strict";
  if (!("serviceWorker" in navigator) || location.protocol === "file:") return;
  var workers = navigator.serviceWorker;
  var servedBy = workers.controller;        // the worker that answered this page: another one is a newer build
  var WANTED = "rk-offline-wanted";         // (localStorage) this phone asked to save, Data Saver or not
  var LATER = "rk-offline-later";           // (sessionStorage) the offer's notice was put aside
  var LANGUAGE = "rk-language";             // (localStorage) the translation chosen (assets/translations.js)
  var root = document.documentElement;
  var about = {};                           // the worker's build: {build, builtOn, offlineBytes}
  var current = null;                       // the worker asked

  function siteUrl(path) {
    // document.baseURI, not location: the offline page (sw.js) is the home page's frame under a <base>
    var element = document.getElementById("__config");
    var value = ".";
    try { value = (element && JSON.parse(element.textContent).base) || "."; } catch (error) { value = "."; }
    return new URL(path, new URL(value.replace(/\/?$/, "/"), document.baseURI)).href;
  }

  window.addEventListener("load", function () {
    workers.register(siteUrl("sw.js"))
      .then(function () { return workers.ready; })
      .then(function (registration) { look(registration.active); })
      .catch(function () {});
  });

  // A new build took over (sw.js: once saved): this page is of the build before.
  workers.addEventListener("controllerchange", function () {
    var now = workers.controller;
    if (!servedBy || !now || now === servedBy) { servedBy = servedBy || now; return; }   // the first visit's worker
    servedBy = now;
    newerReady();
    look(now);
  });

  /* -- where the copy stands, and what is done about it ------------------------------------------- */
  function look(worker) {
    current = worker;
    ask({type: "status"}).then(function (state) {
      if (state.complete && chosen().every(function (code) { return savedLanguage(state, code); })) {
        show("saved"); probe();
      }
      else if (state.complete) whenIdle(function () { save(false); });      // a language chosen since
      else if (savingData() && !remembered(localStorage, WANTED)) offer();
      else whenIdle(function () { save(false); });
    }, function () {});
  }

  function ask(message) {
    var worker = current;
    return new Promise(function (resolve, reject) {
      if (!worker) { reject(new Error("no service worker")); return; }
      var channel = new MessageChannel();
      channel.port1.onmessage = function (event) {
        var state = event.data || {};
        about = {build: state.build, builtOn: state.builtOn, offlineBytes: state.offlineBytes,
                 languageBytes: state.languageBytes || {}};
        resolve(state);
      };
      worker.postMessage(message, [channel.port2]);
    });
  }

  // The translation the reader chose, saved besides the English ([] for English alone).
  function chosen() {
    var code = null;
    try { code = localStorage.getItem(LANGUAGE); } catch (error) { code = null; }
    return code && code !== "en" ? [code] : [];
  }
  // Saved, or not on this site (nothing to save)
  function savedLanguage(state, code) {
    return (state.languages || []).indexOf(code) >= 0 || !(about.languageBytes || {})[code];
  }

  // Data Saver, or a connection the phone says is metered or mobile.
  function savingData() {
    var connection = navigator.connection;
    return Boolean(connection && (connection.saveData || connection.metered === true || connection.type === "cellular"));
  }

  function remembered(storage, key) {
    try { return storage.getItem(key) === "1"; } catch (error) { return false; }
  }
  function remember(storage, key) {
    try { storage.setItem(key, "1"); } catch (error) { /* private mode: asked again next time */ }
  }

  // Idle, and a moment after the load: the page's own work comes first on a slow phone.
  function whenIdle(run) {
    setTimeout(function () {
      if (window.requestIdleCallback) window.requestIdleCallback(run, {timeout: 4000});
      else run();
    }, 1500);
  }

  // `asked`: by a tap, so the notice follows it to the end.
  function save(asked) {
    show("saving");
    if (asked) notice(savingText(), []);
    ask({type: "save", resources: pageResources(), languages: chosen()}).then(function (state) {
      if (state.complete) {
        show("saved");
        if (asked) { notice(savedText(), []); setTimeout(putAside, 4000); }
      } else {
        show("failed");
        if (asked) notice("Not saved: the connection failed.", [tryAgain()]);
      }
    }, function () { show("failed"); });
  }

  function offer() {
    show("offered");
    if (!remembered(sessionStorage, LATER)) {
      notice(offerText(), [button("Save", "rk-offline__save", saveAsked), closeButton()]);
    }
  }

  function saveAsked() {
    remember(localStorage, WANTED);
    save(true);
  }

  // The stylesheets, scripts and images this page loaded (the service worker did not see them: it
  // started with this page).
  function pageResources() {
    var found = {};
    performance.getEntriesByType("resource").forEach(function (entry) {
      if (/^(link|script|css|img|other)$/.test(entry.initiatorType) && !/\/search\//.test(entry.name)) found[entry.name] = true;
    });
    return Object.keys(found);
  }

  /* -- the words ----------------------------------------------------------------------------------- */
  function megabytes(bytes) {
    return (bytes / 1e6).toFixed(bytes < 1e5 ? 2 : 1) + "\u00a0MB";      // kept on one line
  }
  function size() {
    var bytes = about.offlineBytes || 0;
    chosen().forEach(function (code) { bytes += bytes ? (about.languageBytes || {})[code] || 0 : 0; });
    return bytes ? megabytes(bytes) : "";
  }
  function savedText() {
    var details = [size(), about.builtOn ? "build of " + about.builtOn : ""].filter(Boolean).join(", ");
    return "Saved offline" + (details ? " (" + details + ")" : "");
  }
  function offerText() {
    return "Save the rules for offline use" + (size() ? " (" + size() + ")" : "");
  }
  function savingText() {
    return "Saving the rules for offline use\u2026";
  }

  /* -- the lasting line, in the footer ------------------------------------------------------------- */
  var line = null;
  function show(state) {
    root.setAttribute("data-rk-offline", state);
    if (!line) {
      line = document.createElement("p");
      line.className = "rk-offline-mark";
      var place = document.querySelector(".md-footer-meta__inner");
      if (place) place.insertBefore(line, place.firstChild);
      else document.body.appendChild(line);
    }
    line.textContent = "";
    line.setAttribute("data-state", state);
    if (state === "saved") {
      line.appendChild(icon("M9 16.17 4.83 12l-1.42 1.41L9 19 21 7l-1.41-1.41z"));
      line.appendChild(text(savedText()));
    } else if (state === "saving") {
      line.appendChild(text(savingText()));
    } else if (state === "offered") {
      line.appendChild(text("Not saved offline. "));
      line.appendChild(button(offerText(), "rk-offline__save", saveAsked));
    } else if (state === "failed") {
      line.appendChild(text("Not saved offline: the connection failed. "));
      line.appendChild(tryAgain());
    }
    if (root.getAttribute("data-rk-newer") === "ready") {
      line.appendChild(text(" \u00b7 A newer version of the rules is ready. "));
      line.appendChild(button("Reload", "rk-offline__reload", reload));
    }
    showTop();
  }

  function newerReady() {
    root.setAttribute("data-rk-newer", "ready");
    notice("A newer version of the rules is ready.", [button("Reload", "rk-offline__reload", reload), closeButton()]);
    if (line) show(root.getAttribute("data-rk-offline"));
  }

  function reload() { location.reload(); }

  function tryAgain() {
    return button("Try again", "rk-offline__retry", function () { save(true); });
  }

  /* -- near the top: in the header, when the phone is offline or the copy is not saved (yet) ---------- */
  // Over the header's title (the site's name), in its place: nothing in the header or on the page moves when it
  // appears. A screen too narrow for the title (200 % zoom) has it first on the page, above the title.
  var narrow = window.matchMedia ? window.matchMedia("(max-width: 24em)") : {matches: false};
  var topMark = null;
  var reachable = null;                     // whether the site answered the last probe (null: not asked)
  function showTop() {
    var state = root.getAttribute("data-rk-offline") || "";
    var offline = navigator.onLine === false || reachable === false;
    // Offline before the service worker has said where the copy stands (state ""): "Offline" alone, not "not
    // saved" for the moment it takes to ask.
    var words = offline ? (state === "saved" ? "Offline \u00b7 saved copy" : state ? "Offline \u00b7 not saved" : "Offline")
      : {saving: "Saving for offline\u2026", offered: "Not saved offline", failed: "Not saved offline"}[state] || "";
    var place = narrow.matches ? document.querySelector(".md-content__inner") : document.querySelector(".md-header__title");
    if (!topMark) {
      if (!place || !words) return;
      topMark = document.createElement("button");
      topMark.type = "button";
      topMark.className = "rk-offline-top";
      topMark.addEventListener("click", function () {
        var now = root.getAttribute("data-rk-offline");
        if (now === "offered" || now === "failed") saveAsked();
        else if (line) line.scrollIntoView({block: "center"});
      });
    }
    if (place && topMark.parentNode !== place) place.insertBefore(topMark, place.firstChild);
    topMark.textContent = words;
    topMark.hidden = !words;
    root.setAttribute("data-rk-online", offline ? "no" : "yes");
  }
  // navigator.onLine can say "online" with no way out (a venue's wifi without internet, a host gone): a HEAD
  // request, which the service worker lets through to the network (it answers GETs only), settles it.
  function probe() {
    fetch(siteUrl("manifest.webmanifest"), {method: "HEAD", cache: "no-store"})
      .then(function (response) { reachable = response.ok || response.status < 500; }, function () { reachable = false; })
      .then(showTop);
  }
  window.addEventListener("online", probe);
  window.addEventListener("offline", showTop);
  if (navigator.onLine === false) showTop();

  /* -- the notice, docked at the bottom ------------------------------------------------------------ */
  var box = null;
  function notice(message, actions) {
    if (!box) {
      box = document.createElement("div");
      box.className = "rk-notice";
      box.setAttribute("role", "status");
      document.body.appendChild(box);
    }
    box.textContent = "";
    var words = document.createElement("span");
    words.className = "rk-notice__text";
    words.textContent = message;
    box.appendChild(words);
    actions.forEach(function (action) { box.appendChild(action); });
    box.hidden = false;
    root.classList.add("rk-notice-shown");
    makeRoom();
  }

  function putAside() {
    if (!box) return;
    box.hidden = true;
    root.classList.remove("rk-notice-shown");
    if (root.getAttribute("data-rk-offline") === "offered") remember(sessionStorage, LATER);
  }

  // The page ends that much lower, so that its last lines can be scrolled above the notice.
  function makeRoom() {
    root.style.setProperty("--rk-notice-room", Math.ceil(box.getBoundingClientRect().height) + "px");
  }
  window.addEventListener("resize", function () { if (box && !box.hidden) makeRoom(); });

  function closeButton() {
    var close = button("\u00d7", "rk-notice__close", putAside);
    close.setAttribute("aria-label", "Put this notice aside");
    return close;
  }

  function button(label, className, run) {
    var element = document.createElement("button");
    element.type = "button";
    element.className = className;
    element.textContent = label;
    element.addEventListener("click", run);
    return element;
  }

  function text(words) {
    var span = document.createElement("span");
    span.textContent = words;
    return span;
  }

  function icon(path) {
    var svg = document.createElementNS("http://www.w3.org/2000/svg", "svg");
    svg.setAttribute("viewBox", "0 0 24 24");
    svg.setAttribute("aria-hidden", "true");
    var shape = document.createElementNS("http://www.w3.org/2000/svg", "path");
    shape.setAttribute("d", path);
    svg.appendChild(shape);
    return svg;
  }
})();
