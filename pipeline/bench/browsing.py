"""The site's search as a person uses it: questions typed into the search box in Chromium at 390x844.

Prints for each question set (numbers and phrases, more of them, situations), beside the CLI's figures
on the same questions: top-1, top-3, MRR, first answers that differ; then bytes transferred from opening
the search to the first results on a cold phone (gzip, as served), and latency (the worker's time to
answer the last keystroke; and from the last key to the results) over every question, the first set
typed at a person's pace (80 ms a key), the others fast (5 ms a key).
"""
from __future__ import annotations

import shutil
import tempfile
import threading
import time
from pathlib import Path

from .. import api
from ..search.engine import search
from ..search.index import KnowledgeBase
from ..search.quality import measure, read_questions
from ..site.publish import index_folder, published
from .common import percentile
from .searching import QUESTION_SETS

CHROMIUM = "/usr/bin/chromium"
FLAGS = ["--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
         "--disable-component-update", "--disable-sync"]


def run(args) -> None:
    try:
        from playwright.sync_api import sync_playwright
    except ImportError:
        print("(playwright is not installed: pip install the test extras)")
        return
    if not Path(CHROMIUM).exists():
        print(f"(no {CHROMIUM}: apt-get install chromium)")
        return
    names = [name for name in args.questions or QUESTION_SETS if Path(name).is_file()]
    if not names:
        print("(no question sets here: run the bench from the project folder)")
        return
    sets = {Path(name).stem: read_questions(Path(name)) for name in names}
    with tempfile.TemporaryDirectory(prefix="rulekb-bench-") as scratch:
        sources = Path(scratch) / "sources"
        shutil.copytree(args.sources, sources)
        config = Path(args.sources).resolve().parent / "mkdocs.yml"
        result, _ = api.build(sources, Path(scratch) / "site", config=config if config.is_file() else None)
        site = result.out
        kb = KnowledgeBase(index_folder(site, published(site)["generation"]))
        from ..serve import Site, make_server
        server = make_server(Site(site), port=0)
        threading.Thread(target=server.serve_forever, daemon=True).start()
        url = f"http://127.0.0.1:{server.server_address[1]}/"
        try:
            with sync_playwright() as playwright:
                browser = playwright.chromium.launch(executable_path=CHROMIUM, args=FLAGS)
                first = next(iter(sets.values()))
                cold = _first_search_bytes(browser, url, first[min(4, len(first) - 1)][0])
                typed = {}
                for number, questions in enumerate(sets.values()):
                    typed.update(_typed(browser, url, questions, delay=80 if number == 0 else 5))
                browser.close()
        finally:
            server.shutdown()
            server.server_close()
        cli = {query: [r.id for r in search(kb, query, limit=10).results]
               for questions in sets.values() for query, _ in questions}
        kb.close()
    for name, questions in sets.items():
        site_quality = measure(lambda q: typed[q][0], questions)
        print(site_quality.line(f"{name}: site"))
        print(measure(cli.__getitem__, questions).line(f"{name}: rulekb"))
        differ = [query for query, _ in questions if typed[query][0][:1] != cli[query][:1]]
        print(f"  first answers the same: {len(questions) - len(differ)}/{len(questions)}"
              + (f" (differ: {', '.join(differ)})" if differ else ""))
        for miss in site_quality.misses:
            print(f"  missed (site): {miss}")
    worker = [typed[q][1] for questions in sets.values() for q, _ in questions]
    wall = [typed[q][2] for questions in list(sets.values())[:1] for q, _ in questions]
    print(f"bytes until the first results (cold phone, gzip): {cold['total'] / 1024:.1f} KB in {cold['files']} files")
    print(f"latency, worker: median {percentile(worker, 0.5):.1f} ms, p95 {percentile(worker, 0.95):.1f} ms; "
          f"last key to results: median {percentile(wall, 0.5):.0f} ms, p95 {percentile(wall, 0.95):.0f} ms "
          f"(over every question; last key to results over the first set, typed at 80 ms a key)")


def _typing_time(query: str, delay: int) -> int:
    """Milliseconds typing `query` at `delay` a key may take: a long story (400 characters at 80 ms a key) takes
    longer than the 30 s an action waits by default."""
    return 30000 + len(query) * (delay + 20)


def _typed(browser, url: str, questions, delay: int) -> dict[str, tuple[list[str], float, float]]:
    """query -> (result ids, the worker's ms for the last answer, ms from the last key to the results)."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block", is_mobile=True,
                                  has_touch=True)
    page = context.new_page()
    page.goto(url)
    page.locator(".rk-search-open").click()
    box = page.locator(".rk-search__input")
    found = {}
    for query, _ in questions:
        box.fill("")
        box.press_sequentially(query[:-1], delay=delay, timeout=_typing_time(query, delay))
        started = time.perf_counter()
        box.press(query[-1])
        page.wait_for_function("q => document.querySelector('.rk-search__results').getAttribute('data-query') === q",
                               arg=" ".join(query.split()), timeout=30000)
        wall = (time.perf_counter() - started) * 1000
        results = page.locator(".rk-search__results")
        ids = [link.get_attribute("data-id") for link in results.locator("a.rk-result").all()]
        found[query] = (ids, float(results.get_attribute("data-ms") or 0), wall)
    context.close()
    return found


def _first_search_bytes(browser, url: str, query: str) -> dict:
    """What a cold phone fetches from opening the search to the first results."""
    context = browser.new_context(viewport={"width": 390, "height": 844}, service_workers="block", is_mobile=True)
    page = context.new_page()
    sizes: dict[str, int] = {}

    def finished(request) -> None:          # the page's requests and its search worker's
        measured = request.sizes()
        sizes[request.url] = measured["responseBodySize"] + measured["responseHeadersSize"]
    context.on("requestfinished", finished)
    page.goto(url)
    page.wait_for_load_state("networkidle")
    sizes.clear()
    page.locator(".rk-search-open").click()
    page.locator(".rk-search__input").press_sequentially(query, delay=80, timeout=_typing_time(query, 80))
    page.wait_for_function("q => document.querySelector('.rk-search__results').getAttribute('data-query') === q",
                           arg=" ".join(query.split()), timeout=30000)
    page.wait_for_load_state("networkidle")
    context.close()
    return {"total": sum(sizes.values()), "files": len(sizes)}
