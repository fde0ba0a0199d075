/* Runs the site's search worker under Node, on a built site's search/ folder, for the agreement tests.
 *
 * Usage: node worker_harness.js WORKER_JS SEARCH_FOLDER < questions
 * Each line in is {"id": n, "query": "...", "limit": 10}; each line out is the worker's message for it.
 */
"use strict";
const fs = require("fs");
const path = require("path");
const readline = require("readline");
const vm = require("vm");
const {pathToFileURL, fileURLToPath} = require("url");

const [workerFile, searchFolder] = process.argv.slice(2);
const listeners = [];
const pending = new Map();
const self = {
  location: {href: pathToFileURL(path.join(searchFolder, "worker.js")).href},
  addEventListener: (type, listener) => listeners.push(listener),
  postMessage: (message) => {
    const resolve = pending.get(message.id);
    pending.delete(message.id);
    resolve(message);
  },
};
const fetchFile = async (url) => {
  const file = fileURLToPath(url instanceof URL ? url : new URL(url));
  try {
    const data = await fs.promises.readFile(file);
    return {ok: true, status: 200, json: async () => JSON.parse(data.toString("utf-8")),
            arrayBuffer: async () => data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)};
  } catch (error) {
    return {ok: false, status: 404, json: async () => null, arrayBuffer: async () => null};
  }
};
const context = vm.createContext({self, fetch: fetchFile, URL, performance, console, Map, Set, Promise, TextDecoder});
// a worker's importScripts: the scripts beside it (search/translated-search.js), run in its context
context.importScripts = (...names) => {
  for (const name of names) vm.runInContext(fs.readFileSync(path.join(searchFolder, name), "utf-8"), context, {filename: name});
};
vm.runInContext(fs.readFileSync(workerFile, "utf-8"), context, {filename: workerFile});

const ask = (request) => new Promise((resolve) => {
  pending.set(request.id, resolve);
  for (const listener of listeners) listener({data: request});
});

(async () => {
  const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
  for await (const line of lines) {
    if (!line.trim()) continue;
    const message = await ask(JSON.parse(line));
    process.stdout.write(JSON.stringify(message) + "\n");
  }
})();
