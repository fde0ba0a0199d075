/* rulekb search worker: the site's search, off the main thread, on the files in search/.
 *
 * It reads a question the way pipeline/search/question.py does and ranks the way
 * pipeline/search/engine.py does, on scores the build exported from the whoosh index itself
 * (pipeline/search/browser.py): tests/test_search_agreement.py holds the two to the same answers.
 * It fetches only what a question needs (the words of one letter, the terms of a few shards,
 * the entries it shows) and keeps what it fetched.
 *
 * Messages in:  {type: "search", id, query, limit}
 * Messages out: {id, answer: {query (as searched), asked (as typed), suggestion, notice, error, results: [...]}, ms}
 *   (shortened: true beside the notice of a question read shortened, which Enter does not stop at)
 */
"use strict";
try {                 // search in the translations (offline without it, the English search still answers)
  if (typeof importScripts === "function") importScripts("translated-search.js");
} catch (error) { /* not saved offline */ }
try {                 // the semantic signal (a long question): without it, the search answers by words alone
  if (typeof importScripts === "function") importScripts("semantic.js");
} catch (error) { /* not saved offline */ }

let manifest = null;
let rules = null;
let patterns = null;
let titles = null;                // the current documents' titles as their terms joined by spaces (Vocabulary.titles)
const files = new Map();          // file name -> Promise of its JSON

function load(name) {
  if (!files.has(name)) {
    const promise = fetch(new URL(name, self.location.href)).then((response) => {
      if (!response.ok) throw new Error(`${name}: ${response.status}`);
      return response.json();
    });
    promise.catch(() => files.delete(name));      // offline now, online later: try again then
    files.set(name, promise);
  }
  return files.get(name);
}

let meaning = null;               // Promise of the semantic table (RulekbSemantic.read), once asked for

/* The semantic table, fetched at the first long question (null where there is none or it cannot be fetched:
   offline before it was ever fetched, the search answers by words alone and tries again next time). */
function semanticTable() {
  if (!manifest.semantic || !self.RulekbSemantic) return Promise.resolve(null);
  if (!meaning) {
    meaning = fetch(new URL(manifest.semantic, self.location.href)).then((response) => {
      if (!response.ok) throw new Error(`${manifest.semantic}: ${response.status}`);
      return response.arrayBuffer();
    }).then((buffer) => self.RulekbSemantic.read(buffer));
    meaning.catch(() => { meaning = null; });
  }
  return meaning.catch(() => null);
}

let paragraphsRead = null;        // Promise of the long entries' paragraphs (passages.read_rows), once asked for

/* Each long entry's paragraphs' terms, fetched at the first long story (null where there are none or they cannot be
   fetched: the story is then ranked by whole entries, and the next one tries again). */
function paragraphsOf() {
  if (!manifest.passages) return Promise.resolve(null);
  if (!paragraphsRead) {
    paragraphsRead = load(manifest.passages).then((rows) =>
      new Map(rows.map(([entry, ...terms]) => [entry, terms.map((text) => new Set(text.split(" ")))])));
    paragraphsRead.catch(() => { paragraphsRead = null; });
  }
  return paragraphsRead.catch(() => null);
}

/* Each group's alternatives as a paragraph says them, made once a question (passages.sayings): the words of each,
   a phrase's several. */
function sayingsOf(groups) {
  return groups.map((group) => group.map((alternative) => alternative.stem.split(" ")));
}

/* The share of the question's (weighted) words the entry's best paragraph holds (passages.best_share): a group
   counts if the paragraph says one of its alternatives (`sayings`: sayingsOf), or the entry holds it outside its
   text; the weights added in the groups' order. */
function bestShare(terms, sayings, weights, everything, held, outside) {
  let best = 0;
  for (const paragraph of terms) {
    let share = 0;
    for (let g = 0; g < sayings.length; g++) {
      if (!held.has(g)) continue;
      if (outside.has(g) || sayings[g].some((words) => words.every((word) => paragraph.has(word)))) share += weights[g];
    }
    best = Math.max(best, share);
  }
  return everything ? best / everything : 1;
}

async function ready() {
  if (!manifest) {
    manifest = await load("manifest.json");
    rules = manifest.rules;
    titles = new Set(manifest.titles);
    const p = rules.patterns;
    patterns = {
      token: new RegExp(p.token, "gu"),
      queryWord: new RegExp(p.query_word, "gu"),
      number: new RegExp(p.number_query, "iu"),
      glued: new RegExp(p.glued, "iu"),
      numberDot: new RegExp(p.number_dot, "gu"),
      numberSpace: new RegExp(p.number_space, "gu"),
      clauseMark: new RegExp(p.clause_mark, "u"),
      cited: new RegExp(p.cited, "giu"),
    };
  }
  return manifest;
}

/* -- reading a question (question.py) ------------------------------------------------------- */

class QueryError extends Error {}

const FOLDED_QUOTES = {"’": "'", "‘": "'", "ʼ": "'", "´": "'", "`": "'", "“": '"', "”": '"', "„": '"'};

function fold(text) {
  return text.replace(/[’‘ʼ´`“”„]/g, (ch) => FOLDED_QUOTES[ch]);
}

/* A question of at most max_query characters (question.shortened): a longer one keeps its last sentence, then
   the sentences asking something and then the others, from the last back, while they fit, in their order. Lengths
   are counted in characters (code points), as Python counts them. */
function length(text) {
  return Array.from(text).length;
}

function shortened(query) {
  if (length(query) <= rules.max_query) return query;
  const sentences = query.trim().split(/(?<=[.?!])\s+/u);
  const last = sentences.length - 1;
  const earlier = [];
  for (let n = last - 1; n >= 0; n--) earlier.push(n);
  const order = [last, ...earlier.filter((n) => sentences[n].endsWith("?")),
                 ...earlier.filter((n) => !sentences[n].endsWith("?"))];
  const kept = [];
  let size = 0;
  for (const n of order) {
    const needed = length(sentences[n]) + (kept.length ? 1 : 0);
    if (size + needed <= rules.max_query) {
      kept.push(n);
      size += needed;
    }
  }
  if (!kept.length) {
    const end = Array.from(query.trim()).slice(-rules.max_query).join("");
    return end.includes(" ") ? end.slice(end.indexOf(" ") + 1) : end;
  }
  return kept.sort((a, b) => a - b).map((n) => sentences[n]).join(" ");
}

function shortenedNotice(typed) {
  return `the question is ${typed} characters long: its last sentences and its questions were searched, ` +
    `${rules.max_query} characters at most`;
}

/* Quotes, operators and punctuation are read as words, never an error; a long question is shortened. */
function clean(query) {
  query = shortened(query || "");
  if (/[\x00-\x08\x0b-\x1f\x7f]/.test(query)) throw new QueryError("the query contains control characters");
  if (!query.trim()) throw new QueryError("the query is empty");
  return fold(query).replace(/"/g, " ").replace(/\s+/g, " ").trim();
}

function asNumber(query) {
  const match = patterns.number.exec(query.replace(patterns.glued, "$1 $2"));
  if (!match) return null;
  const doc = (match.groups.doc || "").toLowerCase().split(/\s+/).filter(Boolean).join(" ");
  return {kind: doc ? rules.document_words[doc] || null : null, number: writtenNumber(match.groups.number)};
}

/* A number in the documents' spelling: "702 19 B" -> "702.19b" (question.written_number). */
function writtenNumber(typed) {
  typed = typed.toLowerCase().trim();
  if (!/^[0-9]/.test(typed)) return typed.split(/\s+/).join(" ");
  return typed.replace(patterns.numberDot, ".").replace(patterns.numberSpace, "");
}

// The question as typed (lower-cased), each misspelt word in it corrected: "he forgot his triger" ->
// "he forgot his trigger", without the "?" it ends with (question._with_corrections).
function withCorrections(query, typed, corrected) {
  const fixes = new Map();
  typed.forEach((word, position) => { if (word !== corrected[position]) fixes.set(word, corrected[position]); });
  return query.toLowerCase().replace(patterns.token, (word) => (fixes.has(word) ? fixes.get(word) : word))
    .replace(/[?!. ]+$/u, "");
}

function terms(text) {
  const stop = new Set(rules.stop_words);
  return (text.toLowerCase().match(patterns.token) || []).filter((token) => !stop.has(token));
}

function isUpper(word) {
  return word === word.toUpperCase() && word !== word.toLowerCase();
}

/* "GRV", "2HG", "D/DLP", "OoOS" (a capital after the first letter) (question._is_abbreviation). */
function isAbbreviation(word, count) {
  return isUpper(word) || [...word].slice(1).some(isUpper) || /[\d\/]/.test(word) || count === 1;
}

/* A document named in the question: an archived one only by a name of several words (question._document_named). */
function documentNamed(words) {
  const current = new Set(manifest.documents.filter((document) => !document.archived).map((document) => document.kind));
  const archived = new Set(manifest.documents.map((document) => document.kind).filter((kind) => !current.has(kind)));
  const names = {};
  for (const [name, kind] of Object.entries(rules.document_words)) {
    if (name.includes(" ") || !archived.has(kind)) names[name] = kind;
  }
  return phraseNamed(words, names);
}

/* The first (longest) of `names` the question holds beside other words: the question without it nor any other
   of `names` naming the same, and what it names (question._phrase_named). */
function phraseNamed(words, names) {
  let named = null;
  for (let found = namedAt(words, names, named); found; found = namedAt(words, names, named)) {
    named = names[found.name];
    words = words.slice(0, found.start).concat(words.slice(found.start + found.size));
  }
  return [words, named];
}

/* Where the first longest of `names` (naming `named`, if not null) is among the words, beside others. */
function namedAt(words, names, named) {
  const lowered = words.map((word) => word.toLowerCase());
  for (const size of [4, 3, 2, 1]) {
    for (let start = 0; start + size <= words.length; start++) {
      const name = lowered.slice(start, start + size).join(" ");
      if (Object.prototype.hasOwnProperty.call(names, name) && words.length > size
          && (named === null || names[name] === named)) {
        return {start, size, name};
      }
    }
  }
  return null;
}

/* The question's words as [word or phrase, the documents' words for it] (question._said_pieces). */
function saidPieces(words) {
  const lowered = words.map((word) => word.toLowerCase());
  const meaningsOf = (phrase) => (Object.prototype.hasOwnProperty.call(rules.meanings, phrase) ? rules.meanings[phrase] : null);
  const pieces = [];
  let start = 0;
  while (start < lowered.length) {
    for (const size of [4, 3, 2, 1]) {
      const phrase = lowered.slice(start, start + size).join(" ");
      if (start + size <= lowered.length && (size === 1 || meaningsOf(phrase))) {
        pieces.push([phrase, meaningsOf(phrase) || []]);
        start += size;
        break;
      }
    }
  }
  const questionWords = new Set(rules.question_words);
  const asked = pieces.filter(([piece, means]) => means.length || !questionWords.has(piece));
  return asked.some(([piece, means]) => terms(piece).length || means.length) ? asked : pieces;
}

function sameGroup(a, b) {
  return a.length === b.length && a.every((x, i) => x.stem === b[i].stem && x.word === b[i].word && x.weight === b[i].weight);
}

/* Whether a judges' word's meaning is the question's (question.qualified): unbound (rules.bound_meanings), or the
   question says a word it qualifies (as the documents write it, or by a judges' word meaning it). */
async function qualified(piece, meaning, saidStems) {
  const bound = Object.prototype.hasOwnProperty.call(rules.bound_meanings, piece) ? rules.bound_meanings[piece] : {};
  if (!Object.prototype.hasOwnProperty.call(bound, meaning)) return true;
  for (const word of bound[meaning]) if (saidStems.has(await stemOf(word))) return true;
  return false;
}

/* The documents' words of one first letter: Map word -> [count, term]. */
const vocabularies = new Map();
const keptWords = new Map();       // letter -> the English words left as typed (isKept)
async function wordsStarting(letter) {
  if (!vocabularies.has(letter)) {
    const name = manifest.words[letter];
    const rows = name ? await load(name) : [];
    vocabularies.set(letter, new Map(rows.map(([word, count, term]) => [word, [count, term || word]])));
  }
  return vocabularies.get(letter);
}

/* A word's terms as the documents write it (question.said_terms): hyphenated where they join it ("de-sideboard":
   "desideboard"), their word; one of words they use ("state-based") stays those words. */
async function saidTerms(piece) {
  const parts = terms(piece);
  if (!piece.includes("-") || piece.includes(" ") || parts.length < 2) return parts;
  const joined = piece.split("-").join("");
  if (!(await stemOf(joined))) return parts;
  for (const part of parts) if (!(await stemOf(part))) return [joined];
  return parts;
}

async function stemOf(word) {
  const known = (await wordsStarting(word[0])).get(word);
  return known ? known[1] : null;
}

/* Optimal string alignment distance; more than `limit` is cut short (distance.near). */
function editDistance(a, b, limit) {
  let previous2 = [];
  let previous = Array.from({length: b.length + 1}, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost);
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) {
        current[j] = Math.min(current[j], previous2[j - 2] + 1);
      }
    }
    if (Math.min(...current) > limit) return limit + 1;
    previous2 = previous;
    previous = current;
  }
  return previous[b.length];
}

function compareKeys(a, b) {
  for (let i = 0; i < a.length; i++) {
    if (a[i] < b[i]) return -1;
    if (a[i] > b[i]) return 1;
  }
  return 0;
}

/* The documents' word that `word` is with a regular ending added, else null (question.known_base). */
function knownBase(word, candidates, endings = rules.endings) {
  for (const ending of endings) {
    if (word.endsWith(ending) && word.length - ending.length >= 3) {
      const base = word.slice(0, word.length - ending.length);
      const doubled = base[base.length - 1] === base[base.length - 2] && "aeiou".includes(base[base.length - 3]);
      for (const candidate of [base, base + "e", doubled ? base.slice(0, -1) : ""]) {
        if (candidate && candidates.has(candidate)) return candidate;
      }
    }
  }
  return null;
}

/* Edits a misspelling may hold: 1 for up to 5 letters without a regular ending, else 2 (question.edit_budget). */
function editBudget(word) {
  let core = word;
  for (const ending of rules.endings) {
    if (word.endsWith(ending) && word.length - ending.length >= 3) {
      core = word.slice(0, word.length - ending.length);
      break;
    }
  }
  return core.length <= 5 ? 1 : 2;
}

function closestWord(word, candidates) {
  const limit = editBudget(word);
  let best = null;
  for (const [candidate, [count]] of candidates) {
    if (candidate.length < 3 || Math.abs(candidate.length - word.length) > limit) continue;
    const distance = editDistance(word, candidate, limit);
    if (distance <= limit) {
      const key = [distance, -count, candidate];
      if (!best || compareKeys(key, best[0]) < 0) best = [key, candidate];
    }
  }
  return best ? best[1] : null;
}

async function readWord(word, typing) {
  const candidates = await wordsStarting(word[0]);
  const known = candidates.get(word);
  if (known) return [[{stem: known[1], word, weight: 1}], word];
  if (/^\p{Nd}/u.test(word)) return [[], word];
  const base = knownBase(word, candidates);
  if (base) return [[{stem: candidates.get(base)[1], word: base, weight: 1}], word];
  if (typing && word.length >= rules.min_prefix) {
    const completions = [];
    for (const [candidate, [count, stem]] of candidates) {
      if (candidate.startsWith(word)) completions.push([count, candidate, stem]);
    }
    completions.sort((a, b) => b[0] - a[0] || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    if (completions.length) {
      const group = [];
      for (const [, candidate, stem] of completions.slice(0, rules.completions)) {
        if (!group.some((alternative) => alternative.stem === stem)) group.push({stem, word: candidate, weight: 1});
      }
      return [group, word];
    }
  }
  if (await isKept(word)) return [[], word];      // English, not the documents' (question._read_word)
  const correction = closestWord(word, candidates);
  if (correction) return [[{stem: candidates.get(correction)[1], word: correction, weight: 1}], correction];
  return [[], word];
}

/* An English word the documents do not use, left as typed (index.kept_words): the letter's file, fetched once. */
async function isKept(word) {
  const letter = word[0];
  if (!keptWords.has(letter)) {
    const name = (manifest.kept || {})[letter];
    try {
      keptWords.set(letter, new Set(name ? await load(name) : []));
    } catch (error) {
      return false;     // offline and not saved yet: corrected as before the list, asked for again next time
    }
  }
  return keptWords.get(letter).has(word);
}

/* A lone letter labelling a player or a card, not the pronoun "I" nor a digit (question._label). */
function isLabel(word) {
  return word.length === 1 && /^\p{L}$/u.test(word) && !rules.question_words.includes(word.toLowerCase());
}

/* The words of a question's story rather than of what went wrong (question.incidental_words): a word capitalised
 * inside a sentence (not one of a run writing a title: titledWords), a lone letter, the words of quoted speech but
 * those the sentences that ask say unquoted. */
function incidentalWords(typed, query) {
  const found = [];
  const add = (token) => { if (!found.includes(token)) found.push(token); };
  const titled = titledWords(query);
  for (const match of query.matchAll(patterns.queryWord)) {
    const word = match[0];
    const inside = match.index > 0 && !/[.?!:;]\s*$/u.test(query.slice(0, match.index));
    if ((inside && isCapitalised(word) && !titled.has(match.index)) || isLabel(word)) terms(word).forEach(add);
  }
  const asked = new Set(askingSentences(typed.replace(/"[^"]*"/g, " ")).asking.flatMap((sentence) => terms(sentence)));
  for (const speech of typed.matchAll(/"([^"]*)"/g)) terms(speech[1]).filter((token) => !asked.has(token)).forEach(add);
  return found;
}

/* Where the words start of each run of capitalised words (stop words between them) whose terms are a title of the
   documents (question.titled_words): a section's own name, not a person's or a card's. */
function titledWords(query) {
  const found = new Set();
  let run = [];
  const close = () => {
    if (run.length && titles.has(run.flatMap((match) => terms(match[0])).join(" "))) {
      run.forEach((match) => found.add(match.index));
    }
    run = [];
  };
  for (const match of query.matchAll(patterns.queryWord)) {
    const word = match[0];
    const last = run[run.length - 1];
    const joined = run.length > 0 && !query.slice(last.index + last[0].length, match.index).trim();
    if (joined && (isCapitalised(word) || rules.stop_words.includes(word))) {
      run.push(match);
      continue;
    }
    close();
    if (isCapitalised(word)) run.push(match);
  }
  close();
  return found;
}

/* Capitalised, not in capitals (question._capitalised). */
function isCapitalised(word) {
  return word[0] === word[0].toUpperCase() && word[0] !== word[0].toLowerCase() && !isUpper(word);
}

/* The words a question writes as names, with and without "'s" (question.written_names): capitalised (not in
   capitals) inside a sentence or more than once. */
function writtenNames(query) {
  const seen = new Set();
  const names = new Set();
  for (const match of query.matchAll(patterns.queryWord)) {
    const word = match[0];
    const capital = word[0] === word[0].toUpperCase() && word[0] !== word[0].toLowerCase();
    if (!capital || isUpper(word)) continue;
    const inside = match.index > 0 && !/[.?!:;]\s*$/u.test(query.slice(0, match.index));
    for (const token of terms(word)) {
      const base = token.endsWith("'s") ? token.slice(0, -2) : token;
      if (inside || seen.has(base)) { names.add(base); names.add(base + "'s"); }
      seen.add(base);
    }
  }
  return names;
}

/* The words of the sentences that ask, in a question of several sentences (question.asked_words): those with a
   "?", else the last one; null where every sentence asks, or where those that ask say only how they ask. */
function askedWords(query) {
  const {sentences, asking} = askingSentences(query);
  if (asking.length === sentences.length) return null;
  const asked = new Set(asking.flatMap((sentence) => terms(sentence)));
  const questionWords = new Set(rules.question_words);
  return [...asked].some((token) => !questionWords.has(token)) ? asked : null;
}

/* A question's sentences holding a word, and those of them that ask (question.asking_sentences). */
function askingSentences(query) {
  const sentences = query.split(/(?<=[.?!])\s+/).filter((sentence) => terms(sentence).length);
  const questions = sentences.filter((sentence) => sentence.includes("?"));
  return {sentences, asking: questions.length ? questions : sentences.slice(-1)};
}

/* A question without its sentences that ask only what comes next ("What now?", "Then what?"), where others
   remain (question.without_what_next). */
function withoutWhatNext(query) {
  const sentences = query.trim().split(/(?<=[.?!])\s+/u);
  const kept = sentences.filter((sentence) => !asksWhatNext(sentence));
  return kept.length && kept.length < sentences.length ? kept.join(" ") : query;
}

function asksWhatNext(sentence) {
  const words = (sentence.match(patterns.queryWord) || []).map((word) => word.toLowerCase());
  return words.some((word) => rules.what_next.includes(word))
    && words.every((word) => rules.what_next.includes(word) || rules.question_words.includes(word)
                   || rules.stop_words.includes(word));
}

async function understand(query) {
  const searched = withoutWhatNext(shortened(query || ""));
  const typed = fold(searched);
  const typedLength = length(query || "");
  query = clean(searched);
  const question = {query, number: null, kind: null, level: null, groups: [], boosts: [], suggestion: null, marks: [],
                    incidental: [], asksMeaning: false, cites: [], lesser: new Set(),      // (lesser: filled by match)
                    shortened: typedLength > rules.max_query ? typedLength : 0};
  const number = asNumber(query);
  if (number) {
    question.kind = number.kind;
    question.number = number.number;
    return question;
  }
  question.asksMeaning = new RegExp(rules.asks_meaning, "iu").test(query);
  question.cites = citedSections(query);
  question.incidental = incidentalWords(typed, query);
  const incidental = new Set(question.incidental);
  const names = writtenNames(query);
  let words = query.match(patterns.queryWord) || [];
  [words, question.kind] = documentNamed(words);
  [words, question.level] = phraseNamed(words, rules.levels);
  const expansions = [];
  const plain = [];
  for (const word of words) {
    const lower = word.toLowerCase();
    const expansion = isAbbreviation(word, words.length) && Object.prototype.hasOwnProperty.call(rules.abbreviations, lower)
      ? rules.abbreviations[lower] : null;
    if (expansion) expansions.push(...expansion);
    else plain.push(word);
  }
  const corrected = [];
  const meant = [];
  const pieces = saidPieces(plain);
  const long = (query.match(patterns.queryWord) || []).length >= rules.long_question;
  const asked = long ? askedWords(query) : null;
  const letHappen = (await reports(query)) && !tellsStory(question) ? letHappenTerms(query) : new Set();
  const letters = new Set(pieces.flatMap(([piece, means]) => [piece, ...means]).concat(expansions)
    .flatMap((word) => terms(word)).map((token) => token[0]));
  await Promise.all([...letters].map((letter) => wordsStarting(letter)));      // fetched together, not in turn
  const saidStems = new Set();     // the stems of every word said and meant (question.understand: said_stems)
  for (const [piece, means] of pieces) {
    for (const token of [piece, ...means].flatMap((said) => terms(said))) {
      const stem = await stemOf(token);
      if (stem) saidStems.add(stem);
    }
  }
  for (let position = 0; position < pieces.length; position++) {
    const [piece, means] = pieces[position];
    const group = [];
    if (means.length) {       // a judges' word: itself where the documents use it, never "corrected" into another
      if (!piece.includes(" ")) {
        for (const token of terms(piece)) {
          const stem = await stemOf(token);
          if (stem) group.push({stem, word: token, weight: 1});
        }
      }
    } else {
      for (const token of await saidTerms(piece)) {
        // a name or a card: itself if the documents use it, never corrected (question.understand)
        if (incidental.has(token) || (names.has(token) && !(await stemOf(token)))) {
          const stem = await stemOf(token);
          corrected.push(token);
          if (stem) group.push({stem, word: token, weight: rules.incidental_weight});
          continue;
        }
        const [read, shown] = await readWord(token, position === pieces.length - 1);
        corrected.push(shown);
        group.push(...read);
      }
    }
    for (const phrase of means) {      // a phrase ("slow play") is found where all its words are
      if (!(await qualified(piece, phrase, saidStems))) continue;
      const wordsOf = terms(phrase);
      const stems = [];
      for (const word of wordsOf) stems.push(await stemOf(word));
      const stem = stems.map((s) => s || "").join(" ");
      if (wordsOf.length && stems.every(Boolean) && !group.some((alternative) => alternative.stem === stem)) {
        group.push({stem, word: wordsOf.join(" "), weight: rules.meaning_weight});
        meant.push(...wordsOf);
      }
    }
    const pieceTerms = terms(piece);
    if ((asked && !pieceTerms.some((token) => asked.has(token)))      // a word of the story only, or of what was let
        || (pieceTerms.length && pieceTerms.every((token) => letHappen.has(token)))) {
      const story = rules.signals.story.weight;
      const told = group.map((alternative) => ({...alternative, weight: Math.min(alternative.weight, story)}));
      group.splice(0, group.length, ...told);
    }
    if (group.length && !question.groups.some((other) => sameGroup(other, group))) question.groups.push(group);
  }
  for (const word of expansions.length ? terms(expansions[0]) : []) {
    const stem = await stemOf(word);
    if (stem) question.groups.push([{stem, word, weight: 1}]);
  }
  for (const phrase of expansions) {
    for (const word of terms(phrase)) {
      const stem = await stemOf(word);
      if (stem && !question.boosts.includes(stem)) question.boosts.push(stem);
    }
  }
  const heaviest = (group) => Math.max(...group.map((alternative) => alternative.weight));
  // the heaviest words kept first, in their order (a stable sort: question.understand)
  question.groups = question.groups.map((group, n) => [group, n])
    .sort((a, b) => heaviest(b[0]) - heaviest(a[0]) || a[1] - b[1]).map(([group]) => group).slice(0, rules.max_groups);
  const plainTerms = [];
  for (const [piece, means] of pieces) if (!means.length) plainTerms.push(...await saidTerms(piece));
  if (corrected.join(" ") !== plainTerms.join(" ")) question.suggestion = withCorrections(query, plainTerms, corrected);
  question.marks = corrected.concat(meant, expansions.flatMap((phrase) => terms(phrase)));
  question.call = (await reports(query)) && !tellsStory(question);
  const intent = await stemOf(rules.intent_word);      // the documents' word of intent (question.Question.intends)
  question.intends = Boolean(intent) && question.groups.some((group) => group.some((a) => a.stem === intent));
  return question;
}

/* Whether a question reports what someone did, in the past (question.reports): an irregular past form ("gave",
   "drew"), a documents' word with "ed" or "d" added ("passed", "lied") or an "-ed" word they do not know, or "did
   not", or a shortfall ("without enough mana"); but a word that only says how a question is asked, or one after a
   determiner ("a tapped creature"). */
async function reports(query) {
  const questionWords = new Set(rules.question_words);
  const pastForms = new Set(rules.past_forms);
  const words = (query.match(patterns.queryWord) || []).map((word) => word.toLowerCase());
  for (let n = 0; n < words.length; n++) {
    const word = words[n];
    if (rules.negated_past.includes(word) || (word === "did" && words[n + 1] === "not")) return true;
    if (n && rules.shortfalls.includes(`${words[n - 1]} ${word}`)) return true;     // "without enough mana"
    if (questionWords.has(word) || rules.determiners.includes(words[n - 1])) continue;     // "a tapped creature"
    if (pastForms.has(word)) return true;
    if (word.endsWith("ed") && !word.includes("-")
        && (knownBase(word, await wordsStarting(word[0]), rules.past_endings)
            || !(await stemOf(word)))) return true;      // question.past_ending
  }
  return false;
}

/* The terms of what a question says someone let another do (question.let_happen): its words after a word of
   letting to the end of that clause, but those it says outside such a clause too. */
function letHappenTerms(query) {
  const inside = new Set();
  const outside = new Set();
  let letting = false;
  let end = 0;
  for (const match of query.matchAll(patterns.queryWord)) {
    const word = match[0].toLowerCase();
    if (patterns.clauseMark.test(query.slice(end, match.index)) || rules.clause_words.includes(word)) letting = false;
    end = match.index + match[0].length;
    if (rules.letting.includes(word)) {
      letting = true;
      continue;
    }
    for (const token of terms(word)) (letting ? inside : outside).add(token);
  }
  for (const token of outside) inside.delete(token);
  return inside;
}

/* A question telling a story (question.tells_story): several sentences, or a word of a story besides a level's. */
function tellsStory(question) {
  const sentences = question.query.split(/(?<=[.?!])\s+/).filter((sentence) => terms(sentence).length);
  return sentences.length > 1 || question.incidental.some((word) => !rules.level_words.includes(word));
}

/* -- finding and ranking (engine.py) ---------------------------------------------------------- */

async function postingsOf(stem) {
  const name = manifest.terms[stem.slice(0, 2)];
  if (!name) return null;
  const shard = await load(name);
  return shard[stem] || null;
}

/* Add each entry's score for `stem` (per field, times the field's weight and `factor`) into `scores`. */
function addScores(postings, fields, factor, scores, onMatch) {
  let i = 0;
  while (i < postings.length) {
    const field = manifest.fields[postings[i]];
    const count = postings[i + 1];
    let entry = 0;
    i += 2;
    for (let n = 0; n < count; n++, i += 2) {
      entry += postings[i];
      if (!fields.includes(field)) continue;
      const score = (postings[i + 1] / manifest.scale) * rules.field_boosts[field] * factor;
      if (onMatch(entry, field)) scores.set(entry, (scores.get(entry) || 0) + score);
    }
  }
}

const NONE = new Set();            // an entry's groups where it holds none (never added to)
let entryLookups = null;           // worked out once per manifest: the ranking asks them of every entry it scores

/* Each entry's document (the first whose range holds it) and, per run name, whether it is in one of that
   document's runs ("variants", "infractions", "remedies", "glossary"). */
function lookups() {
  if (!entryLookups || entryLookups.manifest !== manifest) {
    const documentAt = new Array(manifest.entries);
    for (const document of manifest.documents) {
      for (let entry = document.start; entry < document.end; entry++) {
        if (documentAt[entry] === undefined) documentAt[entry] = document;
      }
    }
    entryLookups = {manifest, documentAt, runs: new Map()};
  }
  return entryLookups;
}

function documentOf(entry) {
  return lookups().documentAt[entry];
}

/* A rule of a multiplayer or casual variant (question.is_variant). */
function isVariant(entry) {
  return inRuns(entry, "variants");
}

/* An entry in one of its document's runs of entries ("variants", "infractions", "remedies"). */
function inRuns(entry, name) {
  const {documentAt, runs} = lookups();
  let inside = runs.get(name);
  if (!inside) {
    inside = new Uint8Array(documentAt.length);
    for (const document of manifest.documents) {
      const ranges = name === "glossary" ? (document.glossary ? [document.glossary] : []) : document[name] || [];
      for (const [start, end] of ranges) {
        for (let entry = start; entry < end; entry++) if (documentAt[entry] === document) inside[entry] = 1;
      }
    }
    runs.set(name, inside);
  }
  return inside[entry] === 1;
}

/* A score with the named and remedy signals (naming.with_name): the question's words that say what went wrong
   (but common ones) all in the entry's name (an infraction's own names, or its category's: the rest of its title;
   another entry's title and names); then, if the name holds every word said and the entry prescribes a penalty or
   a fix, the remedy's weight; for a call, an entry prescribing a penalty or a fix not named whose name holds an
   uncommon word of it (its own names; another entry's title too), the partly_named weight. */
function namedScore(score, entry, ownName, titled, required, said, call) {
  const own = ownName.get(entry) || NONE;
  const title = titled.get(entry) || NONE;
  const infraction = inRuns(entry, "infractions");
  const named = namedAs(entry, ownName, titled, required, said);
  if (!named) {
    const inName = (g) => own.has(g) || (!infraction && title.has(g));      // naming.Names.named_in_part
    if (call && inRuns(entry, "remedies") && required.some(inName)) score = score * rules.signals.partly_named.weight;
    return score;
  }
  score = score * rules.signals.named.weight;
  if (named === 2 && inRuns(entry, "remedies")) score = score * rules.signals.remedy.weight;
  return score;
}

/* 2 where every word said is in the entry's name, 1 all but common ones, else 0 (naming.Names.named). */
function namedAs(entry, ownName, titled, required, said) {
  const own = ownName.get(entry) || NONE;
  const title = titled.get(entry) || NONE;
  const infraction = inRuns(entry, "infractions");
  const holds = (groups) => groups.every((g) => own.has(g) || (!infraction && title.has(g)));
  if (!required.length) return 0;
  if (infraction && said.every((g) => title.has(g) && !own.has(g))) return 2;
  return holds(said) ? 2 : holds(required) ? 1 : 0;
}

function isGlossary(entry) {
  return inRuns(entry, "glossary");
}

/* Every entry holding some word of the question (in `kind`, if given), with its score (engine.score_entries). */
async function match(question, kind) {
  const groups = question.groups.filter((group) => group.length);
  if (!groups.length) return [];
  const wanted = groups.flat().flatMap((alternative) => [alternative.stem, alternative.word]).concat(question.boosts);
  const long = (question.query.match(patterns.queryWord) || []).length >= rules.long_question;
  const story = long && tellsStory(question) ? paragraphsOf() : null;        // fetched while the words are
  await Promise.all(wanted.map((term) => postingsOf(term)));                  // fetched together, not in turn
  const paragraphs = story ? await story : null;
  const outside = new Map();       // a long entry -> the groups it holds outside its text (scoring.matched_words)
  const scores = new Map();
  const matched = new Map();       // entry -> the groups it holds
  const named = new Set();         // entries holding a word in a title or heading
  const ownName = new Map();       // entry -> the groups it holds in its own name (naming.Names)
  const titled = new Map();        // entry -> the groups it holds in its title
  for (let g = 0; g < groups.length; g++) {
    const mark = (entry, field) => {
      const held = matched.get(entry);
      if (held) held.add(g); else matched.set(entry, new Set([g]));
      if (rules.naming_fields.includes(field)) named.add(entry);
      if (paragraphs && paragraphs.has(entry) && field !== "text" && field !== "phrases") {
        const groupsHeld = outside.get(entry);
        if (groupsHeld) groupsHeld.add(g); else outside.set(entry, new Set([g]));
      }
      const inName = rules.own_name_fields.includes(field) ? ownName : rules.title_fields.includes(field) ? titled : null;
      if (inName) {
        const groupsHeld = inName.get(entry);
        if (groupsHeld) groupsHeld.add(g); else inName.set(entry, new Set([g]));
      }
      return true;
    };
    for (const alternative of groups[g]) {
      if (alternative.stem.includes(" ")) {      // a phrase, where an entry says it
        const byPhrase = await postingsOf(alternative.stem);
        if (byPhrase) addScores(byPhrase, ["phrases"], alternative.weight, scores, mark);
        continue;
      }
      const byTerm = await postingsOf(alternative.stem);      // the term in a stemmed field
      if (byTerm) addScores(byTerm, rules.stemmed_fields, alternative.weight, scores, mark);
      const byWord = await postingsOf(alternative.word);      // the word as written in a title
      if (byWord) addScores(byWord, ["exact"], alternative.weight, scores, mark);
    }
  }
  if (!matched.size) return [];
  const holding = groups.map(() => 0);
  for (const held of matched.values()) for (const g of held) holding[g]++;
  const weights = groups.map((group, g) =>
    rarity(manifest.entries, holding[g]) * Math.max(...group.map((alternative) => alternative.weight)));
  const inKind = (entry) => !kind || (documentOf(entry) || {}).kind === kind;
  const found = new Map();
  for (const entry of matched.keys()) if (inKind(entry)) found.set(entry, scores.get(entry));
  for (const stem of question.boosts) {
    const postings = await postingsOf(stem);
    if (postings) addScores(postings, ["title", "aliases"], rules.expansion_boost, found, (entry) => found.has(entry));
  }
  let everything = 0;
  for (const weight of weights) everything += weight;
  const levelKinds = new Set(Object.values(rules.levels));     // as question.level_kinds
  const required = [];             // the groups a name must hold (naming.Names.require)
  const said = [];                 // the groups of the words saying what went wrong, common ones too
  groups.forEach((group, g) => {
    if (Math.max(...group.map((alternative) => alternative.weight)) <= rules.incidental_weight) return;
    said.push(g);
    if (holding[g] * rules.common_share < manifest.entries) required.push(g);
  });
  // the required groups said whole, in the sentences that ask, not the story's (naming.Names.asked)
  const asked = required.filter((g) => Math.max(...groups[g].map((alternative) => alternative.weight))
    > rules.signals.story.weight);
  const coverageOf = (held) => {
    let share = 0;
    for (let g = 0; g < weights.length; g++) if (held.has(g)) share += weights[g];
    return everything ? share / everything : 1;
  };
  let most = 0;                    // the coverage of the entries holding most of the question (scoring.called_share)
  for (const held of matched.values()) most = Math.max(most, coverageOf(held));
  const callShare = question.call ? most * rules.signals.call.within : 1;
  const callsByName = (entry) => Boolean(namedAs(entry, ownName, titled, required, said)
    || required.some((g) => (ownName.get(entry) || NONE).has(g)
                     || (!inRuns(entry, "infractions") && (titled.get(entry) || NONE).has(g))));
  question.lesser = new Set();     // remedies holding less of a call than the rule it broke (remedyForBroken)
  question.remedyForBroken = remedyForBroken(question, kind, matched, coverageOf, callsByName);
  const told = long && tellsStory(question) ? (question.level ? "tournament" : toldIn(matched)) : "";
  const sayings = paragraphs ? sayingsOf(groups) : null;
  const hits = [];
  for (const [entry, raw] of found) {
    let coverage = coverageOf(matched.get(entry));
    if (paragraphs && paragraphs.has(entry)) {        // a story: a long entry's best paragraph counts (passages.py)
      const best = bestShare(paragraphs.get(entry), sayings, weights, everything, matched.get(entry),
                             outside.get(entry) || NONE);
      const weight = rules.signals.passage.weight;
      coverage = coverage * (1 - weight) + best * weight;
    }
    let score = raw;
    for (let n = 0; n < rules.coverage_power; n++) score = score * coverage;
    const kind = (documentOf(entry) || {}).kind;
    if (question.level && kind === question.level) score = score * rules.level_boost;
    else if (question.level && levelKinds.has(kind)) score = score / rules.level_boost;
    else if (question.level && ((told ? rules.level_beside_stories : rules.level_beside)[question.level] || [])
      .includes(kind)) {
      score = score * rules.signals.beside.weight;
    } else if (question.level) score = score * rules.signals.unleveled.weight;      // scoring.at_level
    if (isVariant(entry) && !named.has(entry)) score = score * rules.variant_weight;
    if (question.call && inRuns(entry, "remedies") && coverage >= callShare) {       // a call
      score = score * rules.signals.call.weight;
    }
    const inGame = rules.game_kinds.includes(kind);
    if ((told === "game" && !inGame) || (told === "tournament" && inGame)) score = score * rules.signals[told].weight;
    score = namedScore(score, entry, ownName, titled, required, said, question.call);
    // may lead a call at a level (scoring.leaders): an uncommon word of the call and enough of its coverage
    const leads = Boolean(question.level && question.call && required.some((g) => matched.get(entry).has(g))
      && coverage >= most * rules.signals.level_first.within);
    // its own names hold an uncommon word of the sentences that ask (naming.Names.named_as_asked)
    const askedName = asked.some((g) => (ownName.get(entry) || NONE).has(g));
    // a remedy holding all of a short question, not named by it (scoring.alike_catch_all)
    const alike = Boolean(!long && inRuns(entry, "remedies") && coverage === most
      && !namedAs(entry, ownName, titled, required, said));
    hits.push({entry, score, leads, askedName, alike});
  }
  return hits;
}

/* Whose words a story is told in (scoring.told_in): "tournament" where one of its groups is held by the game
   signal's `least` entries or more of the current tournament documents and by no entry of the game's rules, else
   "game" (a story naming a level is the tournament's: its caller says so first). */
function toldIn(matched) {
  const policy = new Map();        // group -> the tournament documents' entries holding it
  const played = new Set();        // groups the game rules' entries hold
  for (const [entry, held] of matched) {
    const document = documentOf(entry) || {};
    if (document.archived) continue;
    const inGame = rules.game_kinds.includes(document.kind);
    for (const g of held) {
      if (inGame) played.add(g);
      else policy.set(g, (policy.get(g) || 0) + 1);
    }
  }
  for (const [g, count] of policy) if (count >= rules.signals.game.least && !played.has(g)) return "tournament";
  return "game";
}

/* The remedy answering a call for the rule it broke, or null (scoring.remedy_for_broken); in `kind`, if given, and
   of the level's document, if one is named: where the current game rules hold as much of the call's words as any
   current section of the tournament documents but the catch-alls, the current catch-all holding most of them (the
   first of equals), and in question.lesser the other remedies holding less of it than a game rule that it does
   not name (`callsByName`: naming.Names.calls); where one tournament section holds more of it than any other and
   prescribes nothing, the first current remedy citing it or a section it is under (manifest.cited). */
function remedyForBroken(question, kind, matched, coverageOf, callsByName) {
  if (!question.call) return null;
  let played = 0;
  let policy = 0;
  let alone = null;                // the one tournament section holding `policy`; null for several
  for (const [entry, held] of matched) {
    const document = documentOf(entry) || {};
    if (document.archived || inRuns(entry, "catch_alls")) continue;
    const share = coverageOf(held);
    if (rules.game_kinds.includes(document.kind)) played = Math.max(played, share);
    else if (share > policy) {
      policy = share;
      alone = entry;
    } else if (share === policy) alone = null;
  }
  const wanted = (entry) => {
    const document = documentOf(entry) || {};
    return !document.archived && (!question.level || document.kind === question.level)
      && (!kind || document.kind === kind);
  };
  if (played && policy <= played) {
    const candidates = [];
    for (const document of manifest.documents) {
      for (const [start, end] of document.catch_alls || []) {
        for (let entry = start; entry < end; entry++) if (matched.has(entry) && wanted(entry)) candidates.push(entry);
      }
    }
    candidates.sort((a, b) => a - b);
    let best = null;
    let most = -1;
    for (const entry of candidates) {
      const share = coverageOf(matched.get(entry));
      if (share > most) {
        best = entry;
        most = share;
      }
    }
    if (best !== null) {
      for (const [entry, held] of matched) {
        if (inRuns(entry, "remedies") && !inRuns(entry, "catch_alls") && coverageOf(held) < played
            && !callsByName(entry)) question.lesser.add(entry);
      }
    }
    return best;
  }
  if (alone === null || inRuns(alone, "remedies")) return null;
  const citing = (manifest.cited || []).find(([remedy, start, end]) => start <= alone && alone < end && wanted(remedy));
  return citing ? citing[0] : null;
}

/* log(1 + N/n) to a millionth, as scoring.rarity. */
function rarity(total, holding) {
  return holding ? Math.floor(Math.log(1 + total / holding) * 1e6 + 0.5) / 1e6 : 0;
}

function rank(hits, question) {
  const definition = question.asksMeaning ? 1 : rules.glossary_weight;      // scoring.glossary_weight
  // each hit's keys worked out once, not at each of the sort's comparisons
  const keyed = hits.map((hit) => ({
    hit, archived: (documentOf(hit.entry) || {}).archived ? 1 : 0,
    weighted: Math.floor(hit.score * (isGlossary(hit.entry) ? definition : 1) * 1e6 + 0.5) / 1e6,
  }));
  keyed.sort((a, b) => a.archived - b.archived || b.weighted - a.weighted || a.hit.entry - b.hit.entry);
  return keyed.map((key) => key.hit);
}

async function matches(question, kind) {
  return rank(await match(question, kind), question).slice(0, rules.max_ranked);
}

/* A long question's answers with their meaning (scoring.fused): each lexical score over the best one plus the
   semantic weight times the cosine, beside the entries nearest in meaning (in `kind`) at their cosine alone. */
function fused(hits, cosines, question, kind) {
  const weight = fusedWeight(rules.signals.semantic, (question.query.match(patterns.queryWord) || []).length);
  let top = 0;
  for (const hit of hits) top = Math.max(top, hit.score);
  top = top || 1;
  const scores = new Map();
  for (const hit of hits) scores.set(hit.entry, hit.score / top + weight * cosines[hit.entry]);
  for (const entry of nearest(cosines, kind)) if (!scores.has(entry)) scores.set(entry, weight * cosines[entry]);
  const all = [];
  for (const [entry, score] of scores) all.push({entry, score});
  return rank(all, question).slice(0, rules.max_ranked);
}

/* A question at a level (a level named, no story told) answered first by the best answer of the document answering
   at that level, a call by the level_first signal's `reach` best of those its words' answers (`lexical`) let lead
   that prescribe a penalty or a fix, then the others in their order (scoring.level_first). */
function levelFirst(hits, question, lexical) {
  if (!question.level || tellsStory(question)) return hits;
  const leading = new Set(lexical.filter((hit) => hit.leads).map((hit) => hit.entry));
  const leads = hits.filter((hit) => (documentOf(hit.entry) || {}).kind === question.level
                            && (!question.call || (leading.has(hit.entry) && inRuns(hit.entry, "remedies")
                                                   && !question.lesser.has(hit.entry))))
    .slice(0, question.call ? rules.signals.level_first.reach : 1);
  return leads.concat(hits.filter((hit) => !leads.includes(hit)));
}

/* A call answered first by what to do (scoring.remedy_first): where its first answer prescribes no penalty or fix,
   the first that does among the remedy_first signal's `reach` first answers, else among the `reach` first answers
   of its words alone (`lexical`, before the meaning re-ordered them), else, where that first answer is a game rule,
   the remedy for the rule broken (question.remedyForBroken: remedyForBroken; at the first answer's score where its
   words did not find it). A question that is no call has the catch-all its first answers hold alike first
   (scoring.alike_catch_all). */
function remedyFirst(hits, question, lexical) {
  const reach = rules.signals.remedy_first.reach;
  if (!question.call) {            // a question naming no section that remedies answer alike: their catch-all
    const first = lexical ? lexical.slice(0, reach) : [];
    const found = first.length === reach && first.every((hit) => hit.alike)
      ? first.find((hit) => inRuns(hit.entry, "catch_alls")) : undefined;
    const lead = found ? hits.find((hit) => hit.entry === found.entry) : undefined;
    return leadFirst(hits, lead);
  }
  // a remedy holding less of the call than the rule it broke is passed over, as the rule is (question.lesser)
  const answering = (hit) => inRuns(hit.entry, "remedies") && !question.lesser.has(hit.entry);
  if (!hits.length || answering(hits[0])) return remediesKept(hits, lexical, reach);
  let lead = hits.slice(0, reach).find(answering);
  if (!lead && lexical) {
    const found = lexical.slice(0, reach).find(answering);
    lead = found ? hits.find((hit) => hit.entry === found.entry) : undefined;
  }
  const first = documentOf(hits[0].entry) || {};
  const broken = question.remedyForBroken;
  if (!lead && typeof broken === "number"
      && (rules.game_kinds.includes(first.kind) || question.lesser.has(hits[0].entry))) {
    lead = hits.find((hit) => hit.entry === broken) || {entry: broken, score: hits[0].score};
  }
  return remediesKept(leadFirst(hits, lead), lexical, reach);
}

/* A call's first answers with the remedy of a procedure among them just before it (scoring.procedure_remedy): the
   first of the procedure_remedy signal's `reach` first answers that is a current tournament section prescribing
   nothing and that a remedy covers (manifest.cited: a section it cites or a chapter its name names), no catch-all,
   current, of the level's document if one is named and in `kind` if given, not before it already, has it just
   before it, at its score. */
function procedureRemedy(hits, question, kind) {
  if (!question.call) return hits;
  const first = hits.slice(0, rules.signals.procedure_remedy.reach);
  for (let at = 0; at < first.length; at++) {
    const entry = first[at].entry;
    const document = documentOf(entry) || {};
    if (inRuns(entry, "remedies") || document.archived || rules.game_kinds.includes(document.kind)) continue;
    const covering = (manifest.cited || []).find(([remedy, start, end]) => {
      const of = documentOf(remedy) || {};
      return start <= entry && entry < end && !inRuns(remedy, "catch_alls") && !of.archived
        && (!question.level || of.kind === question.level) && (!kind || of.kind === kind);
    });
    if (!covering || hits.slice(0, at).some((hit) => hit.entry === covering[0])) continue;
    const rest = hits.filter((hit) => hit.entry !== covering[0]);
    return rest.slice(0, at).concat([{entry: covering[0], score: first[at].score}], rest.slice(at));
  }
  return hits;
}

/* A question saying no intent answered first by a remedy that asks none (scoring.intent_second): where its first
   answer prescribes a penalty for an act done intentionally and its own names hold no word the question asks (its
   words' answers, `lexical`, say so: askedName), the first remedy among the intent_second signal's `reach` first
   answers that is not so comes before it. */
function intentSecond(hits, question, lexical) {
  if (!hits.length || question.intends || !inRuns(hits[0].entry, "intended")) return hits;
  if (lexical.some((hit) => hit.entry === hits[0].entry && hit.askedName)) return hits;
  const lead = hits.slice(0, rules.signals.intent_second.reach)
    .find((hit) => inRuns(hit.entry, "remedies") && !inRuns(hit.entry, "intended"));
  return leadFirst(hits, lead);
}

/* The hits with `lead` (one of them, or a new one) first and the others in their order; unchanged if none
   (scoring.lead_first). */
function leadFirst(hits, lead) {
  return lead ? [lead].concat(hits.filter((hit) => hit !== lead)) : hits;
}

/* A call's first `reach` answers with each remedy before the rules its words alone (`lexical`) ranked after it
   (scoring.remedies_kept). */
function remediesKept(hits, lexical, reach) {
  const order = new Map((lexical || []).map((hit, rank) => [hit.entry, rank]));
  const rankOf = (hit) => (order.has(hit.entry) ? order.get(hit.entry) : order.size);
  const first = hits.slice(0, reach);
  for (let start = 1; start < first.length; start++) {
    for (let at = start; at > 0 && inRuns(first[at].entry, "remedies") && !inRuns(first[at - 1].entry, "remedies")
         && rankOf(first[at]) < rankOf(first[at - 1]); at--) {
      [first[at - 1], first[at]] = [first[at], first[at - 1]];
    }
  }
  return first.concat(hits.slice(reach));
}

/* A story's answers with a broad first one (the broad_second signal's `least` paragraphs or more) after the second,
   where the second is not broad and holds the signal's `within` of its score or more, but a first its words'
   answers (`lexical`) say the sentences that ask name (scoring.broad_second). */
function broadSecond(hits, paragraphs, lexical) {
  if (hits.length < 2 || !paragraphs) return hits;
  if (lexical.some((hit) => hit.entry === hits[0].entry && hit.askedName)) return hits;
  const signal = rules.signals.broad_second;
  const [first, second] = hits;
  const broad = (hit) => (paragraphs.get(hit.entry) || []).length >= signal.least;
  const round = (value) => Math.floor(value * 1e6 + 0.5) / 1e6;
  if (broad(first) && !broad(second) && round(second.score) >= round(first.score * signal.within)) {
    return [second, first].concat(hits.slice(2));
  }
  return hits;
}

/* A long question's answers with the earliest subrule of its first answer's rule first, where the first is a
   lettered subrule and that earlier one is among the general_first signal's `reach` first answers: two subrules are
   of one rule where every entry from one to the other is a subrule (scoring.general_first). */
function generalFirst(hits) {
  if (!hits.length || !inRuns(hits[0].entry, "subrules")) return hits;
  const first = hits[0].entry;
  const ofOneRule = (entry) => {
    for (let position = Math.min(first, entry); position <= Math.max(first, entry); position++) {
      if (!inRuns(position, "subrules")) return false;
    }
    return true;
  };
  let lead = hits[0];
  for (const hit of hits.slice(0, rules.signals.general_first.reach)) {
    if (hit.entry < lead.entry && ofOneRule(hit.entry)) lead = hit;
  }
  return lead === hits[0] ? hits : leadFirst(hits, lead);
}

/* A fused signal's weight for a question of `words` words (signals.fused_weight). */
function fusedWeight(signal, words) {
  return signal.whole_at ? signal.weight * Math.min(1, words / signal.whole_at) : signal.weight;
}

/* The entries (in `kind`) of highest cosine, the first in document order among equals (scoring.nearest). */
function nearest(cosines, kind) {
  const count = rules.signals.semantic.reach;
  const best = [];                  // kept sorted, best first
  const before = (a, b) => cosines[a] > cosines[b] || (cosines[a] === cosines[b] && a < b);
  for (let entry = 0; entry < cosines.length; entry++) {
    if (!(cosines[entry] > 0)) continue;
    if (best.length === count && !before(entry, best[count - 1])) continue;
    if (kind && (documentOf(entry) || {}).kind !== kind) continue;
    let at = best.length;
    while (at > 0 && before(entry, best[at - 1])) at--;
    best.splice(at, 0, entry);
    if (best.length > count) best.pop();
  }
  return best;
}

/* The display file holding an entry: the last one whose first entry is not after it. */
function chunkOf(entry) {
  let low = 0;
  let high = manifest.chunks.length - 1;
  while (low < high) {
    const middle = (low + high + 1) >> 1;
    if (manifest.chunks[middle][0] <= entry) low = middle; else high = middle - 1;
  }
  return manifest.chunks[low];
}

async function row(entry) {
  const [first, name] = chunkOf(entry);
  const chunk = await load(name);
  const [number, title, heading, page, anchor, penalty, text, parent, targets, id, action] = chunk[entry - first];
  return {entry, id, number, title, heading, url: manifest.pages[page] + "#" + (anchor || number), penalty, text, parent,
          targets, action: action || ""};
}

async function withRulesOfTerms(hits, limit) {
  await Promise.all(hits.slice(0, limit).map((hit) => row(hit.entry)));        // fetched together, not in turn
  const ordered = [];
  const seen = new Set();
  for (const hit of hits) {
    if (ordered.length >= limit) break;
    if (isGlossary(hit.entry)) {
      for (const target of (await row(hit.entry)).targets.slice(0, rules.glossary_targets)) {
        if (!seen.has(target)) {
          ordered.push({entry: target, score: 0});
          seen.add(target);
        }
      }
    }
    if (!seen.has(hit.entry)) {
      ordered.push(hit);
      seen.add(hit.entry);
    }
  }
  return ordered.slice(0, limit);
}

function naturalKey(number) {
  return (number.match(/\d+|[a-z]+/g) || []).map((part) => (/^\d/.test(part) ? [0, Number(part)] : [1, part]));
}

function compareNatural(a, b) {
  const x = naturalKey(a);
  const y = naturalKey(b);
  for (let i = 0; i < Math.min(x.length, y.length); i++) {
    if (x[i][0] !== y[i][0]) return x[i][0] - y[i][0];
    if (x[i][1] < y[i][1]) return -1;
    if (x[i][1] > y[i][1]) return 1;
  }
  return x.length - y.length;
}

// The kinds whose numbering a bare number fits, in search order: the registry's answer (kinds.numbered_by).
function numberKinds(number) {
  const fits = numberedBy(number);
  return fits.length ? fits : rules.number_kinds;
}

// The kinds whose numbering a number fits, none if none (kinds.numbered_by).
function numberedBy(number) {
  return rules.number_kinds.filter((id) => new RegExp(`^(?:${rules.number_patterns[id]})$`, "i").test(number));
}

/* [kind, number] of the sections a question names by number among its words (question.cited_sections). */
function citedSections(query) {
  const cited = [];
  for (const match of query.matchAll(patterns.cited)) {
    const number = match.groups.number.toLowerCase();
    const doc = match.groups.doc;
    const fits = doc ? [rules.document_words[doc.toLowerCase().split(/\s+/).filter(Boolean).join(" ")]]
      : numberedBy(number);
    if (fits.length === 1 && (doc || match.groups.rule || number.includes("."))
        && !cited.some(([kind, n]) => kind === fits[0] && n === number)) cited.push([fits[0], number]);
  }
  return cited;
}

/* A question naming a section by number: that section (of a current edition), where it is among the cited_first
   signal's `reach` first answers, first (engine.cited_first). */
async function citedFirst(hits, question) {
  if (!question.cites.length || !hits.length) return hits;
  const numbers = await load(manifest.numbers);
  const cited = new Set(question.cites.flatMap(([kind, number]) =>
    (numbers[kind] || []).filter(([n]) => n === number).map(([, entry]) => entry)));
  const lead = hits.slice(0, rules.signals.cited_first.reach)
    .find((hit) => cited.has(hit.entry) && !(documentOf(hit.entry) || {}).archived);
  return !lead || lead === hits[0] ? hits : leadFirst(hits, lead);
}

async function answerNumber(question, answer, kind, limit) {
  const numbers = await load(manifest.numbers);
  const kinds = question.kind || kind ? [question.kind || kind] : numberKinds(question.number);
  const hits = [];
  for (const wanted of kinds) {
    for (const [number, entry] of numbers[wanted] || []) if (number === question.number) hits.push(entry);
  }
  if (hits.length) {
    const first = hits[0];
    const family = new Set([first]);
    for (let entry = first + 1; entry < manifest.entries && hits.length < limit; entry++) {
      const {parent} = await row(entry);
      if (!family.has(parent)) break;
      family.add(entry);
      if (parent === first && !hits.includes(entry)) hits.push(entry);
    }
  } else {
    const labelled = [];
    for (const wanted of kinds) {
      for (const [number] of numbers[wanted] || []) labelled.push([number, kinds.length > 1 ? `${wanted} ${number}` : number, wanted]);
    }
    labelled.sort((a, b) => compareNatural(a[0], b[0]) || (a[1] < b[1] ? -1 : a[1] > b[1] ? 1 : 0));
    const unique = labelled.filter((item, i) => i === 0 || item[1] !== labelled[i - 1][1]);
    let position = unique.findIndex((item) => compareNatural(item[0], question.number) >= 0);
    if (position < 0) position = unique.length;
    const nearest = unique.slice(Math.max(0, position - 2), position + 2);
    const name = rules.short_names[question.kind || kind || kinds[0]];
    answer.notice = `there is no ${name} ${question.number}` +
      (nearest.length ? `; nearest: ${nearest.map((item) => item[1]).join(", ")}` : "");
    for (const [number, , wanted] of nearest) {
      for (const [n, entry] of numbers[wanted] || []) if (n === number) hits.push(entry);
    }
  }
  answer.results = await Promise.all(hits.slice(0, limit).map((entry) => result({entry, score: 0}, [])));
  return answer;
}

async function result(hit, marks, answering = null) {
  const entry = await row(hit.entry);
  const document = documentOf(hit.entry);
  return {id: entry.id, entry: hit.entry, document: document.id, kind: document.kind, short: document.short,
          action_label: rules.action_labels[document.kind],
          number: entry.number,
          title: entry.title || entry.heading, penalty: entry.penalty, action: entry.action, url: entry.url,
          snippet: snippet(entry.text, marks, answering), archived: document.archived, score: hit.score};
}

/* The words of a question to mark in snippets (their stems), as one expression; null without any
 * (engine.snippet_pattern). */
function snippetPattern(marks) {
  const stems = [...new Set(marks.flatMap((mark) => mark.toLowerCase().match(/[a-z0-9.]+/g) || [])
    .filter((word) => word.length > 2 || /^\d+$/.test(word))
    .map((word) => (word.length > 4 ? word.slice(0, Math.max(4, word.length - 3)) : word)))]
    .sort((a, b) => b.length - a.length);
  const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
  return stems.length ? new RegExp(`\\b(?:${stems.map(escape).join("|")})\\w*(?:\\.\\w+)*`, "gi") : null;
}

/* Where the sentence holding the most distinct words of `pattern` starts, null if none holds two
 * (engine.best_sentence). */
function bestSentence(text, pattern) {
  const starts = [0];
  for (const found of text.matchAll(/[.!?]\s+(?=[A-Z0-9("“])/g)) starts.push(found.index + found[0].length);
  const said = starts.map(() => new Set());
  let sentence = 0;                // the text read once: no word spans a sentence's start (a space is before it)
  for (const found of text.matchAll(pattern)) {
    while (sentence + 1 < starts.length && starts[sentence + 1] <= found.index) sentence++;
    said[sentence].add(found[0].toLowerCase());
  }
  let best = null;
  let most = 1;
  starts.forEach((start, i) => {
    if (said[i].size > most) {
      best = start;
      most = said[i].size;
    }
  });
  return best;
}

/* An excerpt around the first word found (for a long question, from its best-matching sentence): [text, marked?]
 * pieces (never HTML). */
function snippet(text, marks, answering = null, size = 180) {
  text = text.replace(/\s+/g, " ").trim();
  const pattern = snippetPattern(marks);
  const chooser = answering && answering.length ? snippetPattern(answering) : null;
  const sentence = pattern && chooser ? bestSentence(text, chooser) : null;
  let first = null;
  if (pattern && sentence === null) {
    pattern.lastIndex = 0;
    first = pattern.exec(text);
  }
  let start = sentence !== null ? sentence : first ? Math.max(0, first.index - Math.floor(size / 3)) : 0;
  if (start && sentence === null) {
    const space = text.indexOf(" ", start);
    start = space >= 0 && space < start + 20 ? space + 1 : start;
  }
  let excerpt = text.slice(start, start + size);
  if (start + size < text.length && excerpt.slice(size / 2).includes(" ")) excerpt = excerpt.slice(0, excerpt.lastIndexOf(" "));
  const pieces = [];
  if (start) pieces.push(["…", false]);
  let position = 0;
  if (pattern) {
    pattern.lastIndex = 0;
    for (const found of excerpt.matchAll(pattern)) {
      if (found.index > position) pieces.push([excerpt.slice(position, found.index), false]);
      pieces.push([found[0], true]);
      position = found.index + found[0].length;
    }
  }
  if (position < excerpt.length) pieces.push([excerpt.slice(position), false]);
  if (start + excerpt.length < text.length) pieces.push(["…", false]);
  return pieces;
}

async function search(query, limit = 10, kind = null, language = null) {
  await ready();
  // a question in a translation's language is answered from its file (assets/translated-search.js)
  const translated = typeof translatedAnswer === "function" ? await translatedAnswer(query, limit, load, language) : null;
  if (translated) return translated;
  const answer = {query, asked: query, suggestion: null, notice: null, error: null, results: []};
  let question;
  try {
    question = await understand(query);
  } catch (error) {
    if (error instanceof QueryError) {
      answer.error = error.message;
      return answer;
    }
    throw error;
  }
  answer.query = question.query;
  answer.suggestion = question.suggestion;
  if (question.shortened) {
    answer.notice = shortenedNotice(question.shortened);
    answer.shortened = true;
  }
  if (question.number) return answerNumber(question, answer, kind, limit);
  const long = (question.query.match(patterns.queryWord) || []).length >= rules.long_question;
  const table = long ? semanticTable() : null;          // fetched while the words are
  let wanted = kind || question.kind;
  let hits = await matches(question, wanted);
  if (!hits.length && question.kind && !kind) {
    wanted = null;
    hits = await matches(question, null);
  }
  const semantic = table && hits.length ? await table : null;
  const lexical = hits;
  if (semantic) hits = fused(hits, semantic.similarities(question.query), question, wanted);
  hits = remedyFirst(levelFirst(hits, question, lexical), question, lexical);
  hits = procedureRemedy(hits, question, wanted);
  hits = intentSecond(hits, question, lexical);
  if (long && tellsStory(question)) hits = broadSecond(hits, await paragraphsOf(), lexical);
  if (long) hits = generalFirst(hits);
  hits = await citedFirst(hits, question);
  const ordered = await withRulesOfTerms(hits, limit);
  const answering = long ? question.marks.filter((mark) => !question.incidental.includes(mark)) : null;
  answer.results = await Promise.all(ordered.map((hit) => result(hit, question.marks, answering)));
  return answer;
}

let latest = 0;
// Let the questions already sent be read before answering: typed fast (or slowly on a slow phone), each key asks
// again, and only the last question's answer is shown; one not the last by then is never worked out.
const othersRead = () => new Promise((resolve) => setTimeout(resolve, 0));

self.addEventListener("message", async (event) => {
  const {id, query, limit, kind, language} = event.data || {};
  latest = Math.max(latest, id || 0);
  await othersRead();
  if (id < latest) return;         // a newer question was asked meanwhile: its answer is the one shown
  const started = performance.now();
  try {
    const answer = await search(query, limit || 10, kind || null, language || null);
    if (id < latest) return;       // a newer question was asked meanwhile: its answer is the one shown
    self.postMessage({id, answer, ms: performance.now() - started});
  } catch (error) {
    self.postMessage({id, answer: {query, results: [], error: null, failure: String(error && error.message || error)},
                      ms: performance.now() - started});
  }
});
