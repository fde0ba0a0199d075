/* rulekb: copy-link buttons, jump-to-number from the search box, offline cache. */
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

  /* -- copy a rule's permalink --------------------------------------------------- */
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
    say.timer = setTimeout(function () { toast.classList.remove("rk-show"); }, 1600);
  }
  document.addEventListener("click", function (event) {
    var button = event.target.closest && event.target.closest(".rk-copy");
    if (!button) return;
    event.preventDefault();
    var url = new URL(button.getAttribute("data-url").replace(/^\//, ""), base()).href;
    var done = function () { button.classList.add("rk-copied"); say("Link copied"); };
    if (navigator.clipboard && window.isSecureContext) {
      navigator.clipboard.writeText(url).then(done, function () { location.hash = url.split("#")[1] || ""; });
    } else {
      history.replaceState(null, "", url);
      say("Link in the address bar");
    }
  });

  /* -- search: an exact number + Enter goes straight to that rule --------------- */
  var numbers = null;
  function loadNumbers() {
    if (numbers) return Promise.resolve(numbers);
    return fetch(new URL("assets/numbers.json", base()).href)
      .then(function (response) { return response.json(); })
      .then(function (data) { numbers = data; return data; });
  }
  var NUMBER = /^\s*(?:(cr|ipg|mtr|comprehensive rules|tournament rules)\s*)?(?:(?:rule|rules|section|sec\.?)\s*)?((?:\d{1,3}(?:\.\d{1,3}[a-z]?|[a-z])?)|appendix\s+[a-z])\.?\s*$/i;
  function target(query) {
    var match = NUMBER.exec(query);
    if (!match || !numbers) return null;
    var kind = (match[1] || "").toLowerCase();
    if (kind.indexOf("comprehensive") === 0) kind = "cr";
    if (kind.indexOf("tournament") === 0) kind = "mtr";
    var number = match[2].toLowerCase().replace(/\s+/g, " ");
    var kinds = kind ? [kind] : (/^\d{3}/.test(number) ? ["cr"] : ["ipg", "mtr", "cr"]);
    for (var i = 0; i < kinds.length; i++) {
      var url = numbers[kinds[i] + " " + number];
      if (url) return url;
    }
    return null;
  }
  window.addEventListener("keydown", function (event) {
    var input = event.target;
    if (event.key !== "Enter" || !input || !input.matches || !input.matches("input.md-search__input")) return;
    if (!NUMBER.test(input.value) || !numbers) return;
    var url = target(input.value);
    event.preventDefault();
    event.stopImmediatePropagation();
    if (url) location.href = new URL(url, base()).href;
    else say("There is no " + input.value.trim() + " in the current rules");
  }, true);
  document.addEventListener("focusin", function (event) {
    if (event.target && event.target.matches && event.target.matches("input.md-search__input")) loadNumbers().catch(function () {});
  });
  /* -- offline: a service worker keeps the pages a judge has opened (and the core ones) ------ */
  if ("serviceWorker" in navigator && location.protocol !== "file:") {
    window.addEventListener("load", function () {
      navigator.serviceWorker.register(new URL("sw.js", base()).href).catch(function () {});
    });
  }

  window.rulekbTarget = function (query) { return loadNumbers().then(function () { return target(query); }); };
})();
