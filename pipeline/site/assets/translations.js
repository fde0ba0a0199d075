// rulekb: the language a reader chose, remembered on the phone (localStorage "rk-language"), and the
// English beside each translated rule on a wide screen. Loaded only by pages that have a translation.
(function () {
  "use strict";
  var KEY = "rk-language";
  var remembered = function () { try { return localStorage.getItem(KEY); } catch (e) { return null; } };
  var remember = function (code) { try { localStorage.setItem(KEY, code); } catch (e) { /* private mode */ } };
  document.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-rk-language]");
    if (link) remember(link.getAttribute("data-rk-language"));
  });
  // An English page with a translation in the language chosen: go there (the same rule's anchor).
  var bar = document.querySelector("[data-rk-alternates]");
  var chosen = remembered();
  if (bar && chosen && chosen !== "en" && !document.querySelector(".rk-translated")) {
    var link = bar.querySelector('a[data-rk-language="' + chosen + '"]');
    if (link) location.replace(link.getAttribute("href") + location.hash);
  }
  // A translated page: the English of every rule open beside it where the screen is wide.
  var wide = window.matchMedia && window.matchMedia("(min-width: 60em)");
  var open = function () {
    var all = document.querySelectorAll(".rk-translated details.rk-en");
    for (var i = 0; i < all.length; i++) all[i].open = !!(wide && wide.matches);
  };
  if (document.querySelector(".rk-translated")) {
    open();
    if (wide && wide.addEventListener) wide.addEventListener("change", open);
  }
})();
