/* rulekb: what a judge types, as the site's search understands it. Loaded before Material's bundle so
   that every query it sends its search worker passes through here: "cr 704.5k" becomes "704.5k" (a
   document name would match "creature"), and abbreviations written as such ("GRV", "2HG") become
   what they stand for, from pipeline/data/abbreviations.toml (window.rulekbAbbreviations). */
(function () {
  "use strict";
  var PREFIX = /^\s*(?:(?:cr|ipg|mtr|comp(?:rehensive)?\s+rules|(?:magic\s+)?tournament\s+rules)\s*[:#]?\s*)?(?:(?:rule|rules|section|sec\.?)\s*)?(?=\d)/i;

  function transform(query) {
    var words = window.rulekbAbbreviations || {};
    var text = query.replace(PREFIX, "").replace(/^(\d[\w.]*?)\.\s*$/, "$1");
    var parts = text.split(/(\s+)/);
    var count = parts.filter(function (part) { return part.trim(); }).length;
    return parts.map(function (part) {
      var expansion = words[part.toLowerCase()];
      var written = part === part.toUpperCase() || /[\d\/]/.test(part) || count === 1;
      return expansion && written ? expansion : part;
    }).join("");
  }

  var post = Worker.prototype.postMessage;
  Worker.prototype.postMessage = function (message) {
    if (message && message.type === 2 && typeof message.data === "string") {   // Material's "search for"
      arguments[0] = { type: message.type, data: transform(message.data) };
    }
    return post.apply(this, arguments);
  };
  window.rulekbTransform = transform;
})();
