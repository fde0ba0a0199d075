/* rulekb: search in a translation's language, in the browser's search worker (loaded by it only for a
 * question written in another script than the English). The same steps as pipeline/search/translated.py on
 * the same file (search/translated-zh.json): the question cut into character bigrams (a run of one letter is
 * itself), each entry scored by the rarity of the grams it holds (a title's three times), an entry holding
 * most of them kept, best first. tests/test_translations.py runs both on the same questions and compares.
 */
"use strict";

function translatedGrams(text, letters) {
  const found = [];
  for (const [run] of (text || "").matchAll(new RegExp(`[${letters}]+`, "gu"))) {
    const characters = Array.from(run);
    if (characters.length === 1) found.push(run);
    for (let i = 0; i + 1 < characters.length; i++) found.push(characters[i] + characters[i + 1]);
  }
  return found;
}

/* The language (of the list search/translated.json gives) whose script the question is written in. */
function translatedLanguage(query, languages) {
  for (const [code, language] of Object.entries(languages || {})) {
    if (new RegExp(`[${language.letters}]`, "u").test(query || "")) return code;
  }
  return null;
}

/* A term as compared whole: its words, lowercase (search.translated.term_key). */
const termKey = (text) => ((text || "").toLowerCase().match(/[\p{L}\p{N}\p{M}_]+/gu) || []).join(" ");

/* The glossary entry whose English term the question is, whole ("trample"), or null (english_term). */
function englishTerm(data, query) {
  const key = termKey(query);
  const at = data.entries.findIndex((entry) => !entry[1] && entry[2].includes(" · ") &&
    termKey(entry[2].split(" · ").slice(1).join(" · ")) === key);
  return at < 0 ? null : at;
}

/* The best entry, then the rules it cites if it is a glossary entry, then the others (_with_targets). */
function withTargets(data, ranked) {
  if (!ranked.length) return ranked;
  const targets = ((data.targets || {})[String(ranked[0])] || []).filter((position) => position !== ranked[0]);
  return [ranked[0], ...targets, ...ranked.slice(1).filter((position) => !targets.includes(position))];
}

function foundAt(data, position, score) {
  const [id, number, title, url, text] = data.entries[position];
  return {id, number, title, url, snippet: text, english: url.includes("/") ? url.slice(url.indexOf("/") + 1) : url,
          score: Math.round(score * 1e4) / 1e4};
}

function translatedSearch(data, letters, query, limit = 10) {
  const term = englishTerm(data, query);
  if (term !== null) return withTargets(data, [term]).slice(0, limit).map((position) => foundAt(data, position, 0));
  const wanted = [...new Set(translatedGrams(query, letters))];
  if (!wanted.length) return [];
  const total = data.entries.length;
  const scores = new Map();
  const held = new Map();
  for (const gram of wanted) {
    const postings = data.grams[gram] || [];
    if (!postings.length) continue;
    const rarity = Math.log(1 + total / postings.length);
    for (const posting of postings) {     // ~position: in the entry's title
      const [position, weight] = posting < 0 ? [~posting, data.title_weight] : [posting, 1];
      scores.set(position, (scores.get(position) || 0) + rarity * weight);
      held.set(position, (held.get(position) || 0) + 1);
    }
  }
  const least = Math.ceil(wanted.length * data.coverage);
  const round = (value) => Math.round(value * 1e6) / 1e6;
  let ranked = [...scores.keys()].filter((position) => held.get(position) >= least)
    .sort((a, b) => round(scores.get(b)) - round(scores.get(a)) || a - b);
  if (ranked.length) {     // the best rule's own subrules follow it (702.19 Trample, then 702.19a ...)
    const best = data.entries[ranked[0]][1];
    const under = (number) => number.startsWith(best) && number !== best && !/\d/.test(number[best.length]);
    ranked = [ranked[0], ...ranked.slice(1).filter((p) => under(data.entries[p][1])),
              ...ranked.slice(1).filter((p) => !under(data.entries[p][1]))];
  }
  return withTargets(data, ranked).slice(0, limit).map((position) => foundAt(data, position, scores.get(position) || 0));
}

if (typeof module !== "undefined") module.exports = {translatedGrams, translatedLanguage, translatedSearch};

/* The worker's answer to a question written in a translation's script, or null (then the English search
 * answers): `load` is the worker's way to fetch a file of search/ once. */
async function translatedAnswer(query, limit, load, chosen = null) {
  const latin = !/[^\u0000-\u024f\u2000-\u206f]/.test(query || "");
  if (latin && (!chosen || chosen === "en")) return null;     // Latin script, no language chosen: the English search
  let list;
  try {
    list = await load("translated.json");
  } catch (error) {
    return null;                  // a site without translations
  }
  const code = latin ? (list.languages[chosen] ? chosen : null) : translatedLanguage(query, list.languages);
  if (!code) return null;
  const language = list.languages[code];
  const data = await load(language.file);
  const results = translatedSearch(data, language.letters, query, limit).map((found) => ({
    ...found, document: found.id.split(":")[0], kind: found.id.split(":")[0], short: (language.short || {})[found.id.split(":")[0]] || "",
    language: code, snippet: [[found.snippet, false]]}));
  if (latin && !results.length) return null;      // an English question that is no glossary term
  return {query, asked: query, suggestion: null, notice: null, error: null, language: code, results};
}
