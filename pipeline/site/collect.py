"""What a build is made of, collected before anything is planned or written (Sphinx reads, then writes; so
does MkDocs): the corpus, every section's address, each document's history through its editions and what
its upcoming editions will change, the older editions' summaries, each pair's highlights, the site's assets.

Older editions are read here, and only here: from the cache or their files, one or two at a time on every
core (a hundred editions would not fit in memory); what is kept of them is their summaries and comparisons,
never the documents. Planning (`plan.plan_site`) then reads nothing from disk.
"""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Optional

from .. import cache
from ..addresses import Addresses, address_corpus
from ..corpus import load_edition, load_translation
from ..diff.history import EditionSummary, KindHistory, summarize, trace
from ..model import Corpus, Document, DocumentInfo
from ..parallel import each
from . import history_pages

ASSETS = Path(__file__).resolve().parent / "assets"


@dataclass(frozen=True)
class Build:
    corpus: Corpus
    addresses: Addresses
    histories: dict[str, KindHistory]            # kind -> its editions up to the current one (two or more)
    previews: dict[str, KindHistory]             # kind -> its current edition, then the upcoming ones
    summaries: dict[str, EditionSummary]         # edition id -> its summary, for every edition but the current
    highlights: dict[tuple[str, str], list[str]]  # (old edition id, new edition id) -> the pair's highlights
    assets: dict[str, str]                       # file name -> the text of one of the site's own assets
    translations: tuple[tuple[Document, Document], ...] = ()   # (translation, its English edition), parsed


def collect(corpus: Corpus, use_cache: bool = True, addresses: Optional[Addresses] = None) -> Build:
    """What a build of `corpus` is made of (`addresses`: its addresses, if known already)."""
    def load(info: DocumentInfo):          # the histories compare words: references need not be resolved, nor ids
        return load_edition(corpus, info.id, use_cache, linked=False, as_parsed=True)

    # The history of each document runs up to its current edition; an upcoming one (not in force on the
    # build's date) is compared with the current one on its own: what will change.
    histories = {kind: trace([i for i in corpus.editions if i.kind == kind and not i.preview], load, use_cache)
                 for kind in sorted({info.kind for info in corpus.editions})}
    histories = {kind: history for kind, history in histories.items() if len(history.editions) > 1}
    previews = {kind: trace([document.info, *corpus.upcoming(kind)], load, use_cache)
                for kind, document in ((d.info.kind, d) for d in corpus.documents) if corpus.upcoming(kind)}

    chained = {info.id: summary for history in (*histories.values(), *previews.values())
               for info, summary in zip(history.editions, history.summaries)}
    # an edition outside every chain (an excerpt) is summarized on its own
    summaries = {info.id: chained[info.id] if info.id in chained else summarize(info, load, use_cache)
                 for info in corpus.editions if not info.current}

    # each pair's highlights, kept under the two editions' bytes (a new edition makes one pair's); those not kept
    # are worked out on every core (a hundred CR editions: a hundred pairs, 15,000 changed rules word by word)
    pairs = [(old, new, diff) for history in (*histories.values(), *previews.values())
             for old, new, diff in zip(history.editions, history.editions[1:], history.diffs)]
    keys = [cache.key("pair-highlights", old.sha256, new.sha256) for old, new, _ in pairs]
    highlights = {(old.id, new.id): cache.load(key) if use_cache else None for (old, new, _), key in zip(pairs, keys)}
    missing = [index for index, (old, new, _) in enumerate(pairs) if highlights[old.id, new.id] is None]
    made = each(lambda index: history_pages.pair_highlights(pairs[index][2]), missing,
                lambda index: f"{pairs[index][0].source} compared with {pairs[index][1].source}")
    for index, found in zip(missing, made):
        old, new, _ = pairs[index]
        highlights[old.id, new.id] = found
        if use_cache and found is not None:
            cache.store(keys[index], found)
    assets = {asset.name: asset.read_text(encoding="utf-8") for asset in sorted(ASSETS.iterdir()) if asset.is_file()}
    return Build(corpus, addresses or address_corpus(corpus), histories, previews, summaries, highlights, assets,
                 translations(corpus, use_cache))


def translations(corpus: Corpus, use_cache: bool = True) -> tuple[tuple[Document, Document], ...]:
    """Each translation, parsed, with the English edition it pairs with (read here, as older editions are)."""
    pairs = []
    for info in corpus.translations:
        translation = load_translation(corpus, info.language, info.translates or "", use_cache)
        english = load_edition(corpus, info.translates or "", use_cache)
        if translation is not None and english is not None:
            pairs.append((translation, english))
    return tuple(pairs)
