/* rulekb: an older edition's old address (<edition>/702/#702.19b) forwards to its reader (<edition>/#702.19b). */
(function () {
  "use strict";
  var parts = location.pathname.replace(/index\.html$/, "").split("/").filter(Boolean);
  var page = decodeURIComponent(parts[parts.length - 1] || "");
  location.replace("../" + (location.hash || (page ? "#" + encodeURIComponent(page) : "")));
})();
