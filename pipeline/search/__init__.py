"""The search stage: the corpus to a whoosh index, questions to answers, data for the browser's search.

- `indexing`: `write_search_index(corpus, folder)`, a fresh index of the current editions (and the
  browser's copy of it, see `browser`); `index_for_sources(sources)`, the index of a sources folder,
  kept in the cache and rebuilt only when a file, the code or the word lists change;
- `question`: what a question means (shared with the browser's worker), with the word lists
  `abbreviations.toml` and `judges_words.toml` (people's words for the documents' words, levels);
  `scoring`: how well an entry answers it (the same formula as the worker's); `engine`:
  `search(kb, query)`, the Answer the site's search box gives too; `index`: the only module that
  imports whoosh (`hits`: the entries it gives back, plain data); `published` and `ranking`: the same
  answers from the site's search files, without whoosh (the server, and `rulekb search` through
  `pipeline.built`).
(Nothing is imported here, so that `question` costs nothing to import.)
"""
