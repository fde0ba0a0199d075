/* rulekb: the search dialog (its engine runs in search/worker.js), copy-link buttons, the offline cache.
   Text from the rules is only ever set as text (textContent), never as HTML. */
(function () {
  "use strict";

  function config() {
    var element = document.getElementById("__config");
    try { return element ? JSON.parse(element.textContent) : {}; } catch (error) { return {}; }
  }
  function base() {
    var value = config().base || ".";
    return new URL(value.replace(/\/?$/, "/"), location.href);
  }
  function siteUrl(path) { return new URL(path, base()).href; }

  /* -- a short message at the bottom of the screen ------------------------------------------- */
  var toast;
  function say(message) {
    if (!toast) {
      toast = document.createElement("div");
      toast.className = "rk-toast";
      toast.setAttribute("role", "status");
      toast.setAttribute("aria-live", "polite");
      document.body.appendChild(toast);
    }
    toast.textContent = message;
    toast.classList.add("rk-show");
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { toast.classList.remove("rk-show"); }, 1800);
  }

  /* -- copy a rule's permalink ----------------------------------------------------------------- */
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".rk-copy");
    if (!button) return;
    event.preventDefault();
    var url = siteUrl(button.getAttribute("data-url").replace(/^\//, ""));
    var done = function () { button.classList.add("rk-copied"); say("Link copied"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { location.hash = url.split("#")[1] || ""; });
    } else {
      history.replaceState(null, "", url);
      say("Link in the address bar");
    }
  });

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
      list.setAttribute("data-query", answer.query || "");
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
      if (result.snippet && result.snippet.length) {
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

  /* -- offline: the service worker keeps the site for when the venue's wifi does not -------------- */
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(siteUrl("sw.js")).catch(function () {});
    });
  }
})();
