/* rulekb: the search dialog (its engine runs in search/worker.js), a rule's number (share, copy, show the
   player in large type), the
   theme's menu, colour scheme and header title (Material's own script is not loaded). Saving the
   reference for offline use is offline.js's.
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

  /* -- a short message over the header (never over the rules' text), with a few actions ------------ */
  var toast;
  function say(message, actions) {
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
    (actions ? [].concat(actions) : []).forEach(function (action) {
      var button = document.createElement("button");
      button.type = "button";
      button.textContent = action.label;
      button.addEventListener("click", action.run);
      toast.appendChild(button);
    });
    toast.classList.add("rk-show");
    hideSoon(actions ? 8000 : 2500);
  }
  function hideSoon(ms) {
    clearTimeout(say.timer);
    say.timer = setTimeout(function () { if (toast) toast.classList.remove("rk-show"); }, ms);
  }

  /* -- a rule's number: share the rule, copy it, show it to a player ------------------------------ */
  // Tapping a rule's number puts the rule's address in the address bar (without a jump) and offers what to do
  // with the rule: share it (the phone's own sheet: its number, its text, its address), copy its text and
  // address, or show it in large type across the table.
  document.addEventListener("click", function (event) {
    var number = event.target.closest && event.target.closest("a.rk-num");
    if (!number || event.ctrlKey || event.metaKey || event.shiftKey || event.altKey || event.button) return;
    var hash = number.getAttribute("href") || "";
    if (hash.charAt(0) !== "#" || hash.length < 2) return;
    event.preventDefault();
    var url = location.href.split("#")[0] + hash;
    history.replaceState(history.state, "", hash);
    var rule = ruleOf(number, url);
    var actions = [];
    if (navigator.share) actions.push({label: "Share", run: function () { share(rule); }});
    actions.push({label: "Copy", run: function () { copyText(rule.text + "\n" + rule.url, "Rule copied"); }});
    actions.push({label: "Show", run: function () { showPlayer(rule); }});
    actions.push({label: "Link", run: function () { copyText(rule.url, "Link copied"); }});
    say(rule.name, actions);
  });

  // A rule as words: "CR 704.5k", its text (number, title, paragraphs, examples; not the notes under it), its address.
  function ruleOf(number, url) {
    var element = document.getElementById(decodeURIComponent(number.getAttribute("href").slice(1)));
    var parts = [];
    var take = function (node) {
      var copy = node.cloneNode(true);
      copy.querySelectorAll("details, .rk-changed, .rk-annotation, script").forEach(function (n) { n.remove(); });
      var words = (copy.innerText || copy.textContent || "").replace(/[ \t]+/g, " ").replace(/\n{3,}/g, "\n\n").trim();
      if (words) parts.push(words);
    };
    if (element && /^H[1-6]$/.test(element.tagName)) {
      // a titled rule: its heading and what follows it up to the next rule
      parts.push(element.textContent.replace(/\s+/g, " ").trim());
      for (var next = element.nextElementSibling; next && !next.matches(".rk-h, .rk-rule, h1, h2, h3, .rk-page-history");
        next = next.nextElementSibling) {
        if (!next.matches("details, .rk-changed, .rk-annotation, script, .rk-toc, .rk-edition, .rk-banner")) take(next);
      }
    } else if (element) {
      take(element);
    }
    var doc = (document.querySelector(".rk-edition") || {}).textContent || "";
    var short = doc.split("\u00b7")[0].trim();
    var name = number.textContent.trim();
    var label = (short && short.length < 12 ? short + " " : "") + name;
    return {name: label, title: label, text: parts.join("\n"), url: url};
  }

  function share(rule) {
    navigator.share({title: rule.title, text: rule.text, url: rule.url}).catch(function () { /* put aside */ });
  }

  /* -- "show the player": one rule in large type, over the page, closed by a tap or Back -------------- */
  var shown = null;
  function showPlayer(rule) {
    if (!shown) {
      shown = document.createElement("dialog");
      shown.className = "rk-player";
      shown.setAttribute("aria-label", "The rule in large type");
      var close = document.createElement("button");
      close.type = "button";
      close.className = "rk-player__close";
      close.textContent = "Close";
      close.addEventListener("click", function () { shown.close(); });
      var head = document.createElement("p");
      head.className = "rk-player__name";
      var body = document.createElement("div");
      body.className = "rk-player__text";
      shown.append(close, head, body);
      shown.addEventListener("click", function (event) { if (event.target === shown) shown.close(); });
      document.body.appendChild(shown);
    }
    shown.querySelector(".rk-player__name").textContent = rule.name;
    var text = shown.querySelector(".rk-player__text");
    text.textContent = "";
    rule.text.split(/\n+/).forEach(function (paragraph) {
      var p = document.createElement("p");
      p.textContent = paragraph;
      text.appendChild(p);
    });
    if (toast) toast.classList.remove("rk-show");
    shown.showModal();
    shown.scrollTop = 0;
  }

  function copyText(text, said) {
    var done = function () { say(said || "Copied"); };
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
      if (copied) done(); else say("Could not copy: the link is in the address bar");
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
    // The search has an address (search/?q=...): open, it is a step of the history (Back closes it) whose
    // address is the question, to share; on the search page itself it is the page's. Read once: the page's
    // own address and the site's root (the address changes while the search is open).
    var home = base();
    var at = function (path) { return new URL(path, home).href; };
    var pagePath = location.pathname;
    var searchForm = document.querySelector("form.rk-search-page");
    var notFound = Boolean(document.getElementById("not-found"));
    var navigating = false;
    var openedBefore = false;
    var inSearchStep = function () { return Boolean(history.state && history.state.rkSearch); };

    var startWorker = function () {
      if (worker) return worker;
      worker = new Worker(at("search/worker.js"));
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
        // the language the phone remembers (translations.js): its English glossary terms answer in it
        var language = null;
        try { language = localStorage.getItem("rk-language"); } catch (error) { /* private mode */ }
        startWorker().postMessage({id: id, query: query, limit: 10, language: language});
      });
    };

    // The question kept from one opening (and page) to the next, for this tab.
    var kept = function () { try { return sessionStorage.getItem("rk-question") || ""; } catch (error) { return ""; } };
    var keep = function (query) { try { sessionStorage.setItem("rk-question", query); } catch (error) { /* private mode */ } };
    var addressOf = function (query) {
      var words = query.replace(/\s+/g, " ").trim();
      return at("search/") + (words ? "?q=" + encodeURIComponent(words).replace(/%20/g, "+") : "");
    };
    var setAddress = function (push) {
      try {
        if (push) history.pushState({rkSearch: true}, "", addressOf(input.value));
        else history.replaceState(history.state, "", addressOf(input.value));
      } catch (error) { /* a file: page may not change its address */ }
    };
    // A page not found: its address's words ("/cr/702.19x" -> "cr 702.19x") are the first question.
    var addressWords = function () {
      var path = location.pathname;
      var root = new URL(home).pathname;
      if (path.indexOf(root) === 0) path = path.slice(root.length);
      try { path = decodeURIComponent(path); } catch (error) { /* left as it is */ }
      return path.replace(/(?:index)?\.html?$/i, "").replace(/[\x00-\x1f\x7f\/_+-]+/g, " ").trim().slice(0, 100);
    };

    var show = function () {
      if (!dialog.open) {
        if (dialog.showModal) dialog.showModal(); else dialog.setAttribute("open", "");
      }
      document.documentElement.classList.add("rk-search-active");
    };
    var open = function (query) {
      var opening = !dialog.open;
      if (typeof query === "string") input.value = query;
      else if (notFound && !openedBefore) input.value = addressWords();
      else if (!input.value.trim()) input.value = kept();
      openedBefore = true;
      show();
      if (opening && !searchForm && !inSearchStep()) setAddress(true);
      else if (inSearchStep() || searchForm) setAddress(false);
      startWorker();
      if (input.value.trim()) { keep(input.value); ask(input.value); }
      input.focus();
      input.select();
    };
    var close = function () {
      if (dialog.open) { if (dialog.close) dialog.close(); else dialog.removeAttribute("open"); }
    };
    dialog.addEventListener("close", function () {
      document.documentElement.classList.remove("rk-search-active");
      if (inSearchStep() && !navigating) history.back();      // closed by its button, Escape or the backdrop
    });
    // Back (Android's too) closes the search; Forward, or a page restored from the back-forward cache at
    // the search's step, shows it again.
    var follow = function () {
      if (inSearchStep() && !dialog.open) { show(); startWorker(); }
      else if (!inSearchStep() && dialog.open && !searchForm) close();
    };
    window.addEventListener("popstate", follow);
    window.addEventListener("pageshow", function (event) { navigating = false; if (event.persisted) follow(); });
    document.addEventListener("click", function (event) {
      if (event.target.closest && event.target.closest(".rk-search-open")) { event.preventDefault(); open(); }
    });
    if (notFound) {          // the 404 page's way to the search names what it will look for
      var words = addressWords();
      var hint = document.querySelector("#rk-main .rk-search-open span");
      if (words && hint) hint.textContent = "for \u201c" + words + "\u201d";
    }
    dialog.querySelector(".rk-search__close").addEventListener("click", close);
    dialog.addEventListener("click", function (event) { if (event.target === dialog) close(); });   // the backdrop
    document.addEventListener("keydown", function (event) {
      var typing = /^(INPUT|TEXTAREA|SELECT)$/.test((event.target || {}).tagName || "");
      if (event.key === "/" && !typing && !dialog.open) { event.preventDefault(); open(); }
    });

    input.addEventListener("input", function () {     // the worker answers the latest
      ask(input.value);
      keep(input.value);
      if (inSearchStep() || searchForm) setAddress(false);
      if (searchForm) searchForm.elements.q.value = input.value;
    });

    input.addEventListener("keydown", function (event) {
      // Escape closes the search at once, keeping the question (a search field would first clear it)
      if (event.key === "Escape") { event.preventDefault(); close(); return; }
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
        if (answer.notice && !answer.error && !answer.shortened) { say(answer.notice[0].toUpperCase() + answer.notice.slice(1)); return; }
        if (pick) { go(pick.url); }
      });
    });

    // A result on this page: back out of the search's step, then to the rule's anchor (as a link to it
    // would). Elsewhere: the search's step stays behind the new page, so that Back comes back to the answers.
    var go = function (url) {
      var target = new URL(at(url));
      if (target.pathname !== pagePath || searchForm) {
        navigating = true;
        close();
        location.href = target.href;
        return;
      }
      var jump = function () {
        navigating = false;
        location.hash = target.hash;
        var element = target.hash && document.getElementById(decodeURIComponent(target.hash.slice(1)));
        if (element) element.scrollIntoView();
      };
      if (!inSearchStep()) { close(); jump(); return; }
      navigating = true;
      close();
      // after the step back is done (set within popstate, Chromium leaves :target on the old address)
      window.addEventListener("popstate", function () { setTimeout(jump, 0); }, {once: true});
      history.back();
    };

    var render = function (answer, ms) {
      latest = answer;
      selected = -1;
      list.textContent = "";
      status.textContent = "";
      status.classList.remove("rk-search__status--suggesting");
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
        suggestion.addEventListener("click", function () {
          input.value = answer.suggestion;
          input.dispatchEvent(new Event("input"));      // asked, kept and in the address like a typed question
          input.focus();
        });
        status.append("Did you mean ", suggestion, "?");
        status.classList.add("rk-search__status--suggesting");      // one line: a long question is cut, not wrapped
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
      link.href = at(result.url);
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
        label.textContent = (result.action_label || "Remedy") + ": ";       // the registry's (kinds.Kind.action)
        action.appendChild(label);
        action.appendChild(document.createTextNode(result.action));
        link.appendChild(action);
      }
      var snippetText = (result.snippet || []).map(function (piece) { return piece[0]; }).join("");
      // a snippet that only says again the fix above it, whole or cut shorter than the fix
      var fixText = (result.action || "").replace(/ …$/, ""), snippetStart = snippetText.replace(/…$/, "").trim();
      var repeatsAction = fixText && snippetStart &&
        (snippetStart.indexOf(fixText) === 0 || fixText.indexOf(snippetStart) === 0);
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

    // The search page (search/?q=...) opens with its question answered; its form (for no JavaScript) asks here.
    if (searchForm) {
      var question = new URLSearchParams(location.search).get("q") || "";
      if (inSearchStep()) history.replaceState(null, "", location.href);     // reloaded at a search's step
      searchForm.elements.q.value = question;
      searchForm.addEventListener("submit", function (event) { event.preventDefault(); open(searchForm.elements.q.value); });
      open(question || undefined);       // no question asked: the last one, as on every page
    }
  }

  /* -- an older edition's reader draws its text from shared data (assets/edition.js) ------------- */
  if (document.querySelector(".rk-reader")) {
    var reader = document.createElement("script");
    reader.src = siteUrl("assets/edition.js");
    document.body.appendChild(reader);
  }
})();
