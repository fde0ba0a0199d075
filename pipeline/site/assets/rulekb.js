/* rulekb: the search dialog (its engine runs in search/worker.js), copy-link from a rule's number, the
   theme's menu, colour scheme and header title (Material's own script is not loaded), and saving the
   reference for offline use (sw.js).
   Text from the rules is only ever set as text (textContent), never as HTML. */
(function () {
  "use strict";

  function config() {
    var element = document.getElementById("__config");
    try { return element ? JSON.parse(element.textContent) : {}; } catch (error) { return {}; }
  }
  function base() {
    // document.baseURI, not location: the offline page (sw.js) is the home page's frame under a <base>
    var value = config().base || ".";
    return new URL(value.replace(/\/?$/, "/"), document.baseURI);
  }
  function siteUrl(path) { return new URL(path, base()).href; }

  /* -- a short message at the bottom of the screen, with at most one action ---------------------- */
  var toast;
  function say(message, action) {
    if (!toast) {
      toast = document.createElement("div");
      toast.className = "rk-toast";
      toast.setAttribute("role", "status");
      toast.setAttribute("aria-live", "polite");
      document.body.appendChild(toast);
      // kept on screen while a finger or the focus is on it
      ["pointerenter", "focusin"].forEach(function (name) { toast.addEventListener(name, function () { clearTimeout(say.timer); }); });
      ["pointerleave", "focusout"].forEach(function (name) { toast.addEventListener(name, function () { hideSoon(2500); }); });
    }
    toast.textContent = "";
    var text = document.createElement("span");
    text.className = "rk-toast__text";
    text.textContent = message;
    toast.appendChild(text);
    if (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = action.label;
      button.addEventListener("click", action.run);
      toast.appendChild(button);
    }
    toast.classList.add("rk-show");
    hideSoon(action ? 6000 : 2500);
  }
  function hideSoon(ms) {
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { if (toast) toast.classList.remove("rk-show"); }, ms);
  }

  /* -- a rule's number: its link, to copy ------------------------------------------------------ */
  // Tapping a rule's number puts the rule's address in the address bar (without a jump) and offers to copy it.
  document.addEventListener("click", function (event) {
    var number = event.target.closest && event.target.closest("a.rk-num");
    if (!number || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button) return;
    var hash = number.getAttribute("href") || "";
    if (hash.charAt(0) !== "#" || hash.length < 2) return;
    event.preventDefault();
    var url = location.href.split("#")[0] + hash;
    history.replaceState(history.state, "", hash);
    var name = number.textContent.trim();
    say((/^\d/.test(name) ? "Rule " : "") + name, {label: "Copy link", run: function () { copyText(url); }});
  });

  function copyText(text) {
    var done = function () { say("Link copied"); };
    var byHand = function () {
      // no clipboard API (an http address on a phone): copy through a hidden field
      var field = document.createElement("textarea");
      field.value = text;
      field.setAttribute("readonly", "");
      field.style.position = "fixed";
      field.style.opacity = "0";
      document.body.appendChild(field);
      field.select();
      var copied = false;
      try { copied = document.execCommand("copy"); } catch (error) { copied = false; }
      field.remove();
      if (copied) done(); else say("The link is in the address bar");
    };
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(text).then(done, byHand);
    else byHand();
  }

  /* -- the theme: what the site uses of Material's script, which it does not load ------------------ */
  // The menu: a button that opens the drawer (a checkbox Material's CSS slides in); Escape closes it.
  var drawer = document.getElementById("__drawer");
  var menu = document.querySelector(".rk-menu");
  if (drawer && menu) {
    var setDrawer = function (open) {
      drawer.checked = open;
      menu.setAttribute("aria-expanded", String(open));
    };
    menu.addEventListener("click", function () {
      setDrawer(!drawer.checked);
      var first = drawer.checked && document.querySelector(".md-sidebar--primary a[href], .md-sidebar--primary [tabindex='0']");
      if (first) first.focus();
    });
    drawer.addEventListener("change", function () { menu.setAttribute("aria-expanded", String(drawer.checked)); });
    document.addEventListener("keydown", function (event) {
      if (event.key === "Escape" && drawer.checked) { setDrawer(false); menu.focus(); }
    });
  }
  // The drawer's sections open by keyboard too (labels of checkboxes, focusable).
  document.addEventListener("keydown", function (event) {
    var label = event.target.closest && event.target.closest("label.md-nav__link[tabindex='0'][for]");
    if (label && (event.key === "Enter" || event.key === " ")) { event.preventDefault(); label.click(); }
  });

  // The colour scheme: the switch shows the other scheme's icon; the choice is kept the way Material keeps
  // it (its inline script in each page applies it before the first paint).
  var palette = document.querySelector('[data-md-component="palette"]');
  if (palette) {
    var options = Array.prototype.slice.call(palette.querySelectorAll("input.md-option"));
    // Only what differs is set: a changed attribute on <body> restyles the whole page (0.5 s on a slow phone).
    var choose = function (input) {
      ["scheme", "primary", "accent"].forEach(function (key) {
        var value = input.getAttribute("data-md-color-" + key);
        if (document.body.getAttribute("data-md-color-" + key) !== value) document.body.setAttribute("data-md-color-" + key, value);
      });
      input.checked = true;
      options.forEach(function (option) {
        var label = option.nextElementSibling;
        if (label && label.tagName === "LABEL" && label.hidden !== (option !== input)) label.hidden = option !== input;
      });
    };
    var byMedia = function () {
      return options.filter(function (option) {
        var media = option.getAttribute("data-md-color-media");
        return media && window.matchMedia(media).matches;
      })[0] || options[0];
    };
    var stored = window.__md_get ? window.__md_get("__palette") : null;
    if (options.length) choose(stored && options[stored.index] || byMedia());
    palette.addEventListener("change", function (event) {
      var input = event.target;
      choose(input);
      if (window.__md_set) {
        window.__md_set("__palette", {index: options.indexOf(input), color: {
          media: input.getAttribute("data-md-color-media"), scheme: input.getAttribute("data-md-color-scheme"),
          primary: input.getAttribute("data-md-color-primary"), accent: input.getAttribute("data-md-color-accent")}});
      }
    });
    if (!stored && window.matchMedia) {
      window.matchMedia("(prefers-color-scheme: dark)").addEventListener("change", function () { choose(byMedia()); });
    }
  }

  // The header names the page once its title has scrolled away.
  var headerTitle = document.querySelector(".md-header__title");
  var pageTitle = document.querySelector(".md-content h1");
  if (headerTitle && pageTitle && window.IntersectionObserver) {
    new IntersectionObserver(function (entries) {
      var entry = entries[0];
      headerTitle.classList.toggle("md-header__title--active", !entry.isIntersecting && entry.boundingClientRect.top < 0);
    }, {rootMargin: "-56px 0px 0px 0px"}).observe(pageTitle);
  }

  /* -- search ------------------------------------------------------------------------------------ */
  var dialog = document.getElementById("rk-search");
  if (dialog) {
    var input = dialog.querySelector(".rk-search__input");
    var status = dialog.querySelector(".rk-search__status");
    var list = dialog.querySelector(".rk-search__results");
    var worker = null;
    var asked = 0;
    var shown = 0;
    var latest = null;        // the last answer shown
    var selected = -1;
    var pending = {};         // request id -> callback (tests and the Enter key wait on answers)

    var startWorker = function () {
      if (worker) return worker;
      worker = new Worker(siteUrl("search/worker.js"));
      worker.addEventListener("message", function (event) {
        var data = event.data;
        if (pending[data.id]) { pending[data.id](data); delete pending[data.id]; }
        Object.keys(pending).forEach(function (id) { if (Number(id) < data.id) delete pending[id]; });
        if (data.id < shown || data.id !== asked) return;   // an answer to a question no longer asked
        shown = data.id;
        render(data.answer, data.ms);
      });
      return worker;
    };

    var ask = function (query) {
      asked += 1;
      var id = asked;
      if (!query.trim()) { render(null); return Promise.resolve(null); }
      return new Promise(function (resolve) {
        pending[id] = resolve;
        startWorker().postMessage({id: id, query: query, limit: 10});
      });
    };

    var open = function () {
      if (!dialog.open) {
        if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
      }
      document.documentElement.classList.add("rk-search-active");
      startWorker();
      input.focus();
      input.select();
    };
    var close = function () {
      if (dialog.open) { if (dialog.close) dialog.close(); else dialog.removeAttribute("open"); }
    };
    dialog.addEventListener("close", function () { document.documentElement.classList.remove("rk-search-active"); });
    document.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest(".rk-search-open")) { event.preventDefault(); open(); }
    });
    dialog.querySelector(".rk-search__close").addEventListener("click", close);
    dialog.addEventListener("click", function (event) { if (event.target === dialog) close(); });   // the backdrop
    document.addEventListener("keydown", function (event) {
      var typing = /^(INPUT|TEXTAREA|SELECT)$/.test((event.target || {}).tagName || "");
      if (event.key === "/" && !typing && !dialog.open) { event.preventDefault(); open(); }
    });

    input.addEventListener("input", function () { ask(input.value); });   // the worker answers the latest

    input.addEventListener("keydown", function (event) {
      var links = list.querySelectorAll("a.rk-result");
      if (event.key === "ArrowDown" || event.key === "ArrowUp") {
        if (!links.length) return;
        event.preventDefault();
        selected = (selected + (event.key === "ArrowDown" ? 1 : -1) + links.length) % links.length;
        links.forEach(function (link, i) { link.setAttribute("aria-selected", i === selected ? "true" : "false"); });
        links[selected].scrollIntoView({block: "nearest"});
        return;
      }
      if (event.key !== "Enter") return;
      event.preventDefault();
      // Enter goes to the chosen result; on a rule number, straight to that rule.
      ask(input.value).then(function (data) {
        if (!data || !data.answer) return;
        var answer = data.answer;
        var results = answer.results || [];
        var pick = results[selected >= 0 && selected < results.length ? selected : 0];
        if (answer.notice && !answer.error) { say(answer.notice[0].toUpperCase() + answer.notice.slice(1)); return; }
        if (pick) { go(pick.url); }
      });
    });

    var go = function (url) {
      close();
      var target = new URL(siteUrl(url));
      location.href = target.href;
      if (target.pathname === location.pathname && target.hash) {
        var element = document.getElementById(decodeURIComponent(target.hash.slice(1)));
        if (element) element.scrollIntoView();
      }
    };

    var render = function (answer, ms) {
      latest = answer;
      selected = -1;
      list.textContent = "";
      status.textContent = "";
      if (!answer) return;
      if (answer.failure) { status.textContent = "The search could not load its index (offline?). Try again when online."; return; }
      if (answer.error) { status.textContent = answer.error[0].toUpperCase() + answer.error.slice(1) + "."; return; }
      var lines = [];
      if (answer.notice) lines.push(answer.notice[0].toUpperCase() + answer.notice.slice(1) + ".");
      if (answer.suggestion) {
        var suggestion = document.createElement("button");
        suggestion.type = "button";
        suggestion.className = "rk-search__suggestion";
        suggestion.textContent = answer.suggestion;
        suggestion.addEventListener("click", function () { input.value = answer.suggestion; ask(answer.suggestion); input.focus(); });
        status.append("Did you mean ", suggestion, "?");
        if (lines.length) status.append(" " + lines.join(" "));
      } else {
        status.textContent = lines.join(" ") || (answer.results.length ? "" : "No results.");
      }
      answer.results.forEach(function (result) { list.appendChild(resultItem(result)); });
      list.setAttribute("data-ms", String(Math.round(ms || 0)));
      list.setAttribute("data-query", (answer.asked || answer.query || "").replace(/\s+/g, " ").trim());
    };

    var resultItem = function (result) {
      var item = document.createElement("li");
      var link = document.createElement("a");
      link.className = "rk-result";
      link.href = siteUrl(result.url);
      link.setAttribute("data-id", result.id);
      var head = document.createElement("span");
      head.className = "rk-result__head";
      var doc = document.createElement("span");
      doc.className = "rk-result__doc";
      doc.textContent = result.short;
      head.appendChild(doc);
      if (result.number) {
        var number = document.createElement("span");
        number.className = "rk-result__num";
        number.textContent = result.number;
        head.appendChild(number);
      }
      var title = document.createElement("span");
      title.className = "rk-result__title";
      title.textContent = result.title || "";
      head.appendChild(title);
      if (result.penalty) {
        var penalty = document.createElement("span");
        penalty.className = "rk-pen rk-pen-" + penaltyClass(result.penalty);
        penalty.textContent = result.penalty;
        head.appendChild(penalty);
      }
      link.appendChild(head);
      if (result.action) {
        var action = document.createElement("span");
        action.className = "rk-result__action";
        var label = document.createElement("b");
        label.textContent = result.kind === "jar" ? "Fix: " : "Remedy: ";
        action.appendChild(label);
        action.appendChild(document.createTextNode(result.action));
        link.appendChild(action);
      }
      var snippetText = (result.snippet || []).map(function (piece) { return piece[0]; }).join("");
      var repeatsAction = result.action && snippetText.indexOf(result.action.replace(/ …$/, "")) === 0;
      if (result.snippet && result.snippet.length && !repeatsAction) {
        var snippet = document.createElement("span");
        snippet.className = "rk-result__snippet";
        result.snippet.forEach(function (piece) {
          if (piece[1]) {
            var mark = document.createElement("mark");
            mark.textContent = piece[0];
            snippet.appendChild(mark);
          } else {
            snippet.appendChild(document.createTextNode(piece[0]));
          }
        });
        link.appendChild(snippet);
      }
      link.addEventListener("click", function (event) {
        if (event.ctrlKey || event.metaKey || event.shiftKey) return;
        event.preventDefault();
        go(result.url);
      });
      item.appendChild(link);
      return item;
    };

    var penaltyClass = function (penalty) {
      return {"no penalty": "none", "warning": "warning", "game loss": "game-loss", "match loss": "match-loss",
              "disqualification": "dq"}[penalty.toLowerCase()] || "other";
    };

    // For tests and tools: the answer the site's search gives to a question.
    window.rulekbSearch = function (query) { startWorker(); return ask(query).then(function (data) { return data; }); };
  }

  /* -- an older edition's reader draws its text from shared data (assets/edition.js) ------------- */
  if (document.querySelector(".rk-reader")) {
    var reader = document.createElement("script");
    reader.src = siteUrl("assets/edition.js");
    document.body.appendChild(reader);
  }

  /* -- offline: the service worker keeps the reference for when the venue's wifi does not ----------- */
  // Once the page is idle, the service worker saves every current document (sw.js "save"), unless the
  // phone asks to save data; what it did is told in a toast and in <html data-rk-offline> (for tests).
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(siteUrl("sw.js"))
        .then(function () { return navigator.serviceWorker.ready; })
        .then(function (registration) { whenIdle(function () { saveForOffline(registration.active); }); })
        .catch(function () {});
    });
  }

  // Idle, and a moment after the load: the page's own work comes first on a slow phone.
  function whenIdle(run) {
    setTimeout(function () {
      if (window.requestIdleCallback) window.requestIdleCallback(run, {timeout: 4000});
      else run();
    }, 1500);
  }

  function saveForOffline(worker) {
    var mark = function (state) { document.documentElement.setAttribute("data-rk-offline", state); };
    if (!worker) return;
    if (navigator.connection && navigator.connection.saveData) { mark("save-data"); return; }
    mark("saving");
    var channel = new MessageChannel();
    channel.port1.onmessage = function (event) {
      var state = event.data || {};
      if (!state.complete) { mark("failed"); return; }
      mark("saved");
      if (state.fresh) say("Saved for offline: " + savedList(state.documents) + " \u2014 " + megabytes(state.bytes));
    };
    worker.postMessage({type: "save", resources: pageResources()}, [channel.port2]);
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

  function savedList(documents) {
    var names = (documents || []).filter(function (name) { return name !== "search"; });
    var list = names.join(", ");
    return documents.indexOf("search") >= 0 ? (list ? list + " and the search" : "the search") : list;
  }

  function megabytes(bytes) {
    return (bytes / 1e6).toFixed(bytes < 1e6 ? 2 : 1) + " MB";
  }
})();
