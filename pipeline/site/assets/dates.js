/* rulekb: a saved copy of the site notices by itself when a new edition has taken effect.
   The build marks "a new edition takes effect on <date>" notes; once the device's date has passed that
   date (and before a rebuild makes the new edition current), the note says it is now in force. The pages
   with such a note load this script themselves, so that a phone saving the site saves it too. */
(function () {
  "use strict";
  function today() {
    var now = new Date();
    function two(n) { return (n < 10 ? "0" : "") + n; }
    return now.getFullYear() + "-" + two(now.getMonth() + 1) + "-" + two(now.getDate());
  }
  var notes = document.querySelectorAll(".rk-upcoming[data-effective]");
  for (var i = 0; i < notes.length; i++) {
    var note = notes[i];
    if (today() < note.getAttribute("data-effective") || note.classList.contains("rk-upcoming--now")) continue;
    var text = note.querySelector("p") || note;
    text.textContent = "";
    var strong = document.createElement("strong");
    strong.textContent = "A new edition is now in force";
    text.appendChild(strong);
    text.appendChild(document.createTextNode(" (since " + note.getAttribute("data-when") +
      "): this saved copy shows the edition before it. "));
    var link = document.createElement("a");
    link.href = note.getAttribute("data-preview");
    link.textContent = "Read the new edition";
    text.appendChild(link);
    note.classList.add("rk-upcoming--now");
  }
})();
