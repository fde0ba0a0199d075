/* Runs the site's search worker under Node, on a built site's search/ folder, for the agreement tests.
 *
 * Usage: node worker_harness.js WORKER_JS SEARCH_FOLDER < questions
 * Each line in is {"id": n, "query": "...", "limit": 10}; each line out is the worker's message for it.
 * A line {"burst": [request, ...]} sends its requests as a browser delivers messages typed in quick succession (each
 * a task of its own, all queued at once) and answers {"answered": [the ids the worker answered], "last": its message
 * for the last request}.
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
const answered = [];             // the ids of the worker's messages, in order
const self = {
  location: {href: pathToFileURL(path.join(searchFolder, "worker.js")).href},
  addEventListener: (type, listener) => listeners.push(listener),
  postMessage: (message) => {
    answered.push(message.id);
    const resolve = pending.get(message.id);
    pending.delete(message.id);
    if (resolve) resolve(message);
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
const context = vm.createContext({self, fetch: fetchFile, URL, performance, console, Map, Set, Promise, TextDecoder,
                                  setTimeout});
// a worker's importScripts: the scripts beside it (search/translated-search.js), run in its context
context.importScripts = (...names) => {
  for (const name of names) vm.runInContext(fs.readFileSync(path.join(searchFolder, name), "utf-8"), context, {filename: name});
};
vm.runInContext(fs.readFileSync(workerFile, "utf-8"), context, {filename: workerFile});

const ask = (request) => new Promise((resolve) => {
  pending.set(request.id, resolve);
  for (const listener of listeners) listener({data: request});
});

const burst = async (requests) => {
  answered.length = 0;
  const last = requests[requests.length - 1];
  const lastAnswer = new Promise((resolve) => pending.set(last.id, resolve));
  for (const request of requests) setTimeout(() => { for (const listener of listeners) listener({data: request}); }, 0);
  const message = await lastAnswer;
  await new Promise((resolve) => setTimeout(resolve, 200));     // any answer to an earlier request comes by then
  return {answered: [...answered], last: message};
};

(async () => {
  const lines = readline.createInterface({input: process.stdin, crlfDelay: Infinity});
  for await (const line of lines) {
    if (!line.trim()) continue;
    const request = JSON.parse(line);
    const message = request.burst ? await burst(request.burst) : await ask(request);
    process.stdout.write(JSON.stringify(message) + "\n");
  }
})();
