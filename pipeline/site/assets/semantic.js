/* The semantic signal in the browser: the same table, tokenizer and arithmetic as
   pipeline/search/semantic.py (one contract, checked under Node against Python).

   Loaded by the search worker with importScripts("semantic.js") (it defines self.RulekbSemantic),
   or by Node with require(); the table file (search/s.<hash>.bin, named by the manifest's
   "semantic") is fetched by the worker only for a long question.

   RulekbSemantic.read(arrayBuffer) -> {embed(text), similarities(text), similarity(text, entry),
   tokenRows(text), entries}; `similarities` gives one cosine per search entry. */
(function (root) {
  "use strict";

  var MAGIC = "RKSV";
  var VERSION = 3;
  var MAX_WORD = 100;
  var MARK = /\p{Mn}/u;
  var CONTROL = /[\p{Cc}\p{Cf}]/u;
  var SPACE = /[\s\p{Cc}\p{Cf}\x1c-\x1f\x85]+/u;
  var PUNCTUATION = /\p{P}/u;

  function punctuation(ch) {
    var code = ch.codePointAt(0);
    return (code >= 33 && code <= 47) || (code >= 58 && code <= 64) || (code >= 91 && code <= 96) ||
      (code >= 123 && code <= 126) || PUNCTUATION.test(ch);
  }

  var chunks = new Map();

  function splitChunk(chunk) {
    var out = [];
    var current = "";
    for (var ch of chunk) {
      if (MARK.test(ch)) continue;
      if (CONTROL.test(ch)) {
        if (current) { out.push(current); current = ""; }
      } else if (punctuation(ch)) {
        if (current) { out.push(current); current = ""; }
        out.push(ch);
      } else {
        current += ch;
      }
    }
    if (current) out.push(current);
    return out;
  }

  /* Lower-case, accents stripped, split at spaces and around each punctuation mark. */
  function words(text) {
    var out = [];
    var parts = text.toLowerCase().normalize("NFD").split(SPACE);
    for (var i = 0; i < parts.length; i++) {
      var chunk = parts[i];
      if (!chunk) continue;
      var found = chunks.get(chunk);
      if (found === undefined) {
        found = splitChunk(chunk);
        if (chunks.size < 200000) chunks.set(chunk, found);
      }
      for (var j = 0; j < found.length; j++) out.push(found[j]);
    }
    return out;
  }

  /* Greedy longest match, continuations prefixed "##"; a word with an unmatched piece is nothing.
     Lengths and slices in code points, as Python's. */
  function wordpieces(word, vocabulary) {
    var chars = Array.from(word);
    if (chars.length > MAX_WORD) return [];
    var pieces = [];
    var start = 0;
    while (start < chars.length) {
      var end = chars.length;
      var found = -1;
      while (end > start) {
        var piece = chars.slice(start, end).join("");
        if (start > 0) piece = "##" + piece;
        var row = vocabulary.get(piece);
        if (row !== undefined) { found = row; break; }
        end -= 1;
      }
      if (found < 0) return [];
      pieces.push(found);
      start = end;
    }
    return pieces;
  }

  /* Signed 4-bit values, two a byte (low half first), each stored plus 8. */
  function unpack(packed) {
    var out = new Int8Array(packed.length * 2);
    for (var i = 0; i < packed.length; i++) {
      out[2 * i] = (packed[i] & 15) - 8;
      out[2 * i + 1] = (packed[i] >> 4) - 8;
    }
    return out;
  }

  function read(buffer) {
    var bytes = new Uint8Array(buffer);
    var magic = String.fromCharCode(bytes[0], bytes[1], bytes[2], bytes[3]);
    if (magic !== MAGIC) throw new Error("not a semantic table (bad magic)");
    var view = new DataView(buffer);
    var version = view.getUint32(4, true);
    if (version !== VERSION) throw new Error("semantic table version " + version + ", this code reads " + VERSION);
    var dims = view.getUint32(8, true);
    var tokens = view.getUint32(12, true);
    var entries = view.getUint32(16, true);
    var vocabularyLength = view.getUint32(20, true);
    var at = 24;
    var vocabularyBytes = bytes.subarray(at, at + vocabularyLength);
    var end = vocabularyBytes.length;
    while (end > 0 && vocabularyBytes[end - 1] === 0) end--;
    var list = new TextDecoder("utf-8").decode(vocabularyBytes.subarray(0, end)).split("\n");
    at += vocabularyLength;
    var scales = new Uint16Array(tokens);
    for (var i = 0; i < tokens; i++) scales[i] = view.getUint16(at + 2 * i, true);
    at += 2 * tokens;
    var width = dims / 2;
    if (list.length !== tokens || at + (tokens + entries) * width !== bytes.length) {
      throw new Error("semantic table truncated");
    }
    var vectors = unpack(bytes.subarray(at, at + tokens * width));
    var weighted = new Int16Array(vectors.length);      // a token's vector times its scale
    for (var w = 0; w < vectors.length; w++) weighted[w] = vectors[w] * scales[Math.floor(w / dims)];
    at += tokens * width;
    var entryVectors = unpack(bytes.subarray(at, at + entries * width));
    var vocabulary = new Map();
    for (var t = 0; t < list.length; t++) vocabulary.set(list[t], t);
    var norms = new Float64Array(entries);
    for (var e = 0; e < entries; e++) {
      var sum = 0;
      for (var d = 0; d < dims; d++) { var x = entryVectors[e * dims + d]; sum += x * x; }
      norms[e] = Math.sqrt(sum);
    }
    var cache = new Map();

    function tokenRows(text) {
      var rows = [];
      var list = words(text);
      for (var i = 0; i < list.length; i++) {
        var found = cache.get(list[i]);
        if (found === undefined) {
          found = wordpieces(list[i], vocabulary);
          if (cache.size < 50000) cache.set(list[i], found);
        }
        for (var j = 0; j < found.length; j++) rows.push(found[j]);
      }
      return rows;
    }

    /* The text's vector: the sum of its tokens' weighted vectors, integers (exact in any order). */
    function embed(text) {
      var total = new Array(dims).fill(0);
      var rows = tokenRows(text);
      for (var i = 0; i < rows.length; i++) {
        var base = rows[i] * dims;
        for (var d = 0; d < dims; d++) total[d] += weighted[base + d];
      }
      return total;
    }

    function norm(vector) {
      var sum = 0;
      for (var d = 0; d < vector.length; d++) sum += vector[d] * vector[d];
      return Math.sqrt(sum);
    }

    function cosine(vector, size, entry) {
      if (size === 0 || norms[entry] === 0) return 0;
      var dot = 0;
      var base = entry * dims;
      for (var d = 0; d < dims; d++) dot += vector[d] * entryVectors[base + d];
      return dot / (size * norms[entry]);
    }

    /* The cosine of each entry with the text (a Float64Array, one per search entry). */
    function similarities(text) {
      var vector = embed(text);
      var size = norm(vector);
      var out = new Float64Array(entries);
      for (var e = 0; e < entries; e++) out[e] = cosine(vector, size, e);
      return out;
    }

    function similarity(text, entry) {
      var vector = embed(text);
      return cosine(vector, norm(vector), entry);
    }

    return {dimensions: dims, entries: entries, tokens: tokens, tokenRows: tokenRows, embed: embed,
            similarities: similarities, similarity: similarity};
  }

  var api = {read: read, words: words};
  if (typeof module !== "undefined" && module.exports) module.exports = api;
  else root.RulekbSemantic = api;
})(typeof self !== "undefined" ? self : this);
