"""Shared fixtures: paths to the real documents copied into tests/fixtures."""
from __future__ import annotations

import os
from pathlib import Path

import pytest

os.environ.setdefault("NO_MKDOCS_2_WARNING", "1")

ROOT = Path(__file__).resolve().parent.parent
FIXTURES = ROOT / "tests" / "fixtures"
CORPUS = FIXTURES / "corpus"
SEEDS = FIXTURES / "seeds"
SOURCES = ROOT / "sources"


@pytest.fixture(scope="session")
def shipped_corpus():
    from pipeline import load_corpus
    return load_corpus(SOURCES)


@pytest.fixture(scope="session")
def built_site(tmp_path_factory, shipped_corpus):
    """The site built from the shipped sources, once per test session."""
    from pipeline.site import build_site
    out = tmp_path_factory.mktemp("site") / "site"
    build_site(shipped_corpus, out)
    return out
