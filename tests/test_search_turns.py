"""The server's searches take turns with its pages (serve.searching): each turn as long as the pages took
since the last one, within bounds, on a clock the test moves itself (no timing on a busy machine)."""
from __future__ import annotations

import asyncio
import gc

from pipeline.serve import generation
from pipeline.serve.searching import LONGEST_TURN, TURN_SECONDS, SearchTurns

SEARCH = 0.001          # what one search costs on the test's clock


class Clock:
    def __init__(self):
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def answered_between_pages(page_seconds: float, pages: int = 8) -> list[int]:
    """How many of a burst of questions were answered before each of `pages` page answers, each page costing
    `page_seconds` of the clock."""
    clock = Clock()
    answered: list[str] = []

    class Generation:
        def answer(self, query, limit, kind, language=None):
            clock.now += SEARCH
            answered.append(query)
            return 200, query.encode()

    class Site:
        def current(self):
            return Generation()

    turns = SearchTurns(Site(), clock=clock)
    seen: list[int] = []

    async def page_clients():
        for _ in range(pages):
            await asyncio.sleep(0)
            clock.now += page_seconds
            seen.append(len(answered))

    async def main():
        questions = [asyncio.ensure_future(turns.answer(f"q{n}", 10, None)) for n in range(1000)]
        await page_clients()
        assert [status for status, _ in await asyncio.gather(*questions)] == [200] * 1000
    asyncio.run(main())
    return [after - before for before, after in zip(seen, seen[1:])]


def test_a_turn_of_searches_lasts_as_long_as_the_pages_took():
    between = answered_between_pages(0.005)
    assert between[1:] == [round(0.005 / SEARCH)] * len(between[1:]), between


def test_searches_get_at_least_the_shortest_turn_and_pages_wait_at_most_the_longest():
    assert set(answered_between_pages(0.0001)[1:]) == {round(TURN_SECONDS / SEARCH)}
    assert set(answered_between_pages(0.050)[1:]) == {round(LONGEST_TURN / SEARCH)}


def test_a_generation_s_search_files_are_kept_out_of_the_collector_s_passes(tmp_path, monkeypatch):
    class Index:
        def __init__(self, folder):
            self.rows = [[n, str(n)] for n in range(1000)]
    monkeypatch.setattr(generation, "PublishedIndex", Index)
    gc.unfreeze()
    try:
        loaded = generation.Generation(("test",), tmp_path).search_index()
        assert gc.get_freeze_count() >= len(loaded.rows)
    finally:
        gc.unfreeze()
