/* rulekb: a long page's list of its rules (CR 702: every keyword) gets a filter box: type a name or a
   number, the list keeps what matches. Without JavaScript the box stays hidden and the list whole. */
(function () {
  "use strict";
  function fold(text) { return text.toLowerCase().normalize("NFKD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, " ").trim(); }
  var boxes = document.querySelectorAll("details.rk-toc input.rk-filter");
  for (var i = 0; i < boxes.length; i++) {
    (function (box) {
      var items = box.parentNode.querySelectorAll("ul.rk-contents > li");
      var texts = [];
      for (var j = 0; j < items.length; j++) texts.push(fold(items[j].textContent));
      box.hidden = false;
      box.addEventListener("input", function () {
        var wanted = fold(box.value);
        for (var k = 0; k < items.length; k++) items[k].hidden = wanted !== "" && texts[k].indexOf(wanted) < 0;
      });
    })(boxes[i]);
  }
})();
