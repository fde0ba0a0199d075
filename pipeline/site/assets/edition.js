/* rulekb: an older edition's reader. Its sections and their wordings come from data shared by every
   edition (data/editions/<kind>/); the part named in the address (#702, #702.19b, #glossary) is shown.
   Rule text is only ever set as text, never as HTML. */
(function () {
  "use strict";
  var reader = document.querySelector(".rk-reader");
  if (!reader) return;
  var target = reader.querySelector(".rk-reader-text");
  var source = new URL(reader.getAttribute("data-edition"), location.href);
  var edition = null;
  var shards = {};

  function load(url) { return fetch(url).then(function (response) { if (!response.ok) throw new Error(response.status); return response.json(); }); }
  function shard(group) {
    if (!shards[group]) shards[group] = load(new URL(edition.shards[group], source));
    return shards[group];
  }

  function element(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text) node.textContent = text;
    return node;
  }

  // An infraction's penalty, boxed as on the current edition's pages (site/render.py penalty_html); `kind`, the
  // box's class the build gave it.
  function penaltyBox(penalty, kind) {
    var box = element("div", "rk-penalty rk-pen-" + (/^[a-z-]+$/.test(kind || "") ? kind : "other"), "");
    box.appendChild(element("span", "rk-penalty-label", "Penalty"));
    box.appendChild(document.createTextNode(" "));
    box.appendChild(element("strong", "rk-penalty-value", penalty));
    var path = element("div", "rk-penalty-path", "");
    path.appendChild(box);
    return path;
  }

  // The bar that stays in view: the same rule in the current edition, or that it is not there any more.
  var bar = document.querySelector(".rk-older-current");
  var front = bar && bar.getAttribute("href");
  var barBox = document.querySelector(".rk-older-bar");
  function measureBar() {
    if (barBox) document.documentElement.style.setProperty("--rk-bar-height", barBox.offsetHeight + "px");
  }
  measureBar();
  window.addEventListener("resize", measureBar);
  function pointBar(row) {
    if (!bar) return;
    var kind = bar.getAttribute("data-kind");
    if (row && row[6]) {
      bar.href = new URL(row[6], location.href).href;
      bar.textContent = row[7] ? "current " + kind + " " + row[7] + " \u2192" : "same rule, current edition \u2192";
    } else {
      bar.href = front;
      bar.textContent = row && row.length > 6 ? "not in the current edition \u2192 contents" : "current edition \u2192";
    }
  }

  // `anchor`: the part asked for in the address, or none (the edition's front: its title, dates and notice stay
  // in view, and the first part is drawn below its contents without scrolling to it).
  function show(anchor) {
    if (!edition) return;
    var asked = decodeURIComponent(anchor || "");
    var wanted = asked || (edition.sections[0] || [])[0] || "";
    pointBar(asked ? edition.sections.filter(function (row) { return row[0] === wanted || row[3] === wanted; })[0] : null);
    var group = null;
    if (wanted === "glossary" || /^term-/.test(wanted)) group = "glossary";
    edition.sections.forEach(function (row) { if (!group && (row[0] === wanted || row[3] === wanted)) group = row[5]; });
    if (!group) return;
    shard(group).then(function (words) {
      target.textContent = "";
      if (group === "glossary") {
        target.appendChild(element("h2", "rk-h", "Glossary")).id = "glossary";
        edition.glossary.forEach(function (entry) {
          var wording = words[entry[1]] || ["", ""];
          var heading = target.appendChild(element("h3", "rk-h rk-term", entry[0]));
          heading.id = "term-" + entry[0].toLowerCase().replace(/[^a-z0-9.]+/g, "-").replace(/^[-.]+|[-.]+$/g, "");
          wording[1].split("\n\n").forEach(function (paragraph) { target.appendChild(element("p", "", paragraph)); });
        });
      } else {
        edition.sections.forEach(function (row) {
          if (row[5] !== group) return;
          var wording = words[row[4]] || ["", "", []];
          var titled = wording[0] || row[2] === "chapter" || row[2] === "section";
          var block = target.appendChild(element(titled ? "h" + Math.min(2 + Math.max(0, row[1] - 2), 4) : "div",
                                                 titled ? "rk-h" : "rk-rule"));
          block.id = row[3].replace(/\//g, "--");
          var number = element("a", "rk-num", row[0]);
          number.href = "#" + block.id;
          if (titled) {
            block.appendChild(number);
            block.appendChild(document.createTextNode(" " + wording[0]));
          }
          if (wording[3]) target.appendChild(penaltyBox(wording[3], wording[4]));
          var paragraphs = wording[1] ? wording[1].split("\n\n") : [];
          paragraphs.forEach(function (text, i) {
            var paragraph = (titled ? target : block).appendChild(element("p", "", ""));
            if (!titled && i === 0) { paragraph.appendChild(number); paragraph.appendChild(document.createTextNode(" ")); }
            paragraph.appendChild(document.createTextNode(text));
          });
          if (!titled && !paragraphs.length) block.appendChild(element("p", "", "")).appendChild(number);
          (wording[2] || []).forEach(function (example) {
            (titled ? target : block).appendChild(element("div", "rk-example", "")).appendChild(element("p", "", example));
          });
        });
      }
      var contents = reader.querySelector("details.rk-fold");
      if (contents && asked && asked !== group) contents.open = false;   // a rule was asked for: show it
      measureBar();          // the bar's words changed: a rule is scrolled to below it
      var node = asked && document.getElementById(asked);
      if (node) node.scrollIntoView();
    }).catch(function () {
      target.textContent = "This part of the edition could not be loaded (offline?).";
    });
  }

  // A row whole from the file's compact one (as pipeline/site/reader_rows.py writes and reads it): the kind by
  // its place in `kinds`, the key 0 when it is the number, the current number 1 when it is the key, the current
  // address without the current folder (`current`) and, ending in a bare "#", without the current number (0:
  // the row's own page there).
  function whole(data) {
    if (!data.kinds) return data.sections;
    return data.sections.map(function (row) {
      var key = row[3] === 0 ? row[0] : row[3];
      var found = [row[0], row[1], data.kinds[row[2]], key, row[4], row[5]];
      if (row.length > 6) {
        var now = row[7] === 1 ? key : row[7];
        var href = row[6];
        if (Array.isArray(href)) href = href[0];
        else if (href === 0) href = data.current + row[5] + "/#" + now;
        else if (href) href = data.current + href + (href.slice(-1) === "#" ? now : "");
        found.push(href, now);
      }
      return found;
    });
  }

  load(source).then(function (data) {
    data.sections = whole(data);
    edition = data;
    show(location.hash.slice(1));
  }).catch(function () { target.textContent = "This edition could not be loaded (offline?)."; });
  window.addEventListener("hashchange", function () { show(location.hash.slice(1)); });
})();
