/* rulekb: recent searches, kept on the phone (localStorage, never sent anywhere). A question counts once a
   result of it was opened (tapped, or Enter); the search box shows the last ones while it is empty, and one
   tap asks again. The search itself is rulekb.js's: this only listens to its dialog and types into its box.
   Text is only set as text. */
(function () {
  "use strict";
  var KEY = "rk-recent";
  var KEEP = 8;
  var dialog = document.getElementById("rk-search");
  var box = dialog && dialog.querySelector(".rk-search__recent");
  var input = dialog && dialog.querySelector(".rk-search__input");
  if (!box || !input) return;
  var list = box.querySelector("ol");

  function read() {
    try {
      var stored = JSON.parse(localStorage.getItem(KEY) || "[]");
      return Array.isArray(stored) ? stored.filter(function (item) { return typeof item === "string"; }) : [];
    } catch (error) { return []; }
  }
  function write(questions) {
    try { localStorage.setItem(KEY, JSON.stringify(questions)); } catch (error) { /* private mode: not kept */ }
  }

  function remember(question) {
    question = question.replace(/\s+/g, " ").trim().slice(0, 120);
    if (!question) return;
    var questions = read().filter(function (item) { return item.toLowerCase() !== question.toLowerCase(); });
    write([question].concat(questions).slice(0, KEEP));
  }

  function show() {
    var questions = input.value.trim() ? [] : read();
    list.textContent = "";
    questions.forEach(function (question) {
      var item = document.createElement("li");
      var button = document.createElement("button");
      button.type = "button";
      button.className = "rk-search__again";
      button.textContent = question;
      button.addEventListener("click", function () {
        input.value = question;
        input.dispatchEvent(new Event("input"));        // asked as if typed (rulekb.js)
        input.focus();
      });
      item.appendChild(button);
      list.appendChild(item);
    });
    box.hidden = !questions.length;
  }

  // a result opened: by a tap on it, or Enter in the box
  dialog.addEventListener("click", function (event) {
    if (event.target.closest && event.target.closest("a.rk-result")) remember(input.value);
  }, true);
  input.addEventListener("keydown", function (event) { if (event.key === "Enter") remember(input.value); });
  input.addEventListener("input", show);
  input.addEventListener("focus", show);
  box.querySelector(".rk-search__forget").addEventListener("click", function () { write([]); show(); input.focus(); });
  if (dialog.open) show();           // the search page opens with its dialog; elsewhere drawn once the box has the focus
})();
