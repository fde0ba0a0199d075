"""The site stage: a corpus to a static, phone-first mkdocs-material site, published whole.

`build.build_site` is the entry point; `collect` gathers what the site is made of (histories,
summaries, addresses: everything read from disk), then `plan` decides every page and file (from `pages`,
`reference`, `history_pages`, `editions`, with `render` making safe HTML), `mkdocs_site` is the
only module that imports mkdocs, `publish` owns the output folder, `errors` says why a build
did not publish. (Nothing is imported here, so that `errors` costs nothing to import.)
"""
