// The semantic signal of the browser (pipeline/site/assets/semantic.js) under Node, for the agreement test:
// argv: semantic.js, the table file; stdin: one JSON list of texts; stdout: for each text, its vector
// and the entries of its best `top` similarities, best first (ties in entry order).
"use strict";
const fs = require("fs");
const semantic = require(process.argv[2]);
const data = fs.readFileSync(process.argv[3]);
const table = semantic.read(data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength));
const top = Number(process.argv[4] || 10);
const texts = JSON.parse(fs.readFileSync(0, "utf-8"));
const out = texts.map((text) => {
  const scores = table.similarities(text);
  const order = Array.from(scores.keys()).sort((a, b) => scores[b] - scores[a] || a - b).slice(0, top);
  return {vector: table.embed(text), rows: table.tokenRows(text), best: order, scores: order.map((e) => scores[e])};
});
process.stdout.write(JSON.stringify(out));
