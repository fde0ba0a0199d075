"""A new edition dropped into sources/ changes nothing the tests see: they read frozen fixtures. (Its own
module, apart from the other architecture tests: a whole suite run inside a test, which xdist's loadscope can
then give one worker while the other takes the rest.)"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import FOLDER_OF_OUTER_SUITE, PARSE_CACHE_OF_OUTER_SUITE, ROOT, shared_folder


@pytest.mark.slow
def test_a_new_edition_in_sources_does_not_change_what_the_tests_see(tmp_path, tmp_path_factory, built_site):
    """A maintainer drops a new CR edition into sources/: the tests still pass (they read frozen fixtures). The
    suite run below is handed this suite's cache and site: what it builds from the same frozen inputs (sources,
    configuration, pipeline) is this suite's site; a fixture that read the new edition would build its own."""
    project = tmp_path / "project"
    files = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True, check=True).stdout.split()
    for name in files:
        if (ROOT / name).is_file():
            (project / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, project / name)
    newest = (ROOT / "tests" / "fixtures" / "corpus" / "cr-2026-01-16.txt").read_bytes()
    (project / "sources" / "cr-2026-06-01.txt").write_bytes(
        newest.replace(b"January 16, 2026", b"June 1, 2026").replace(b"Blight", b"Blighted", 1))
    env = dict(os.environ, RULEKB_REQUIRE_BROWSER="")
    env[PARSE_CACHE_OF_OUTER_SUITE] = os.environ["RULEKB_CACHE"]    # (the frozen sources parsed once, not again)
    env[FOLDER_OF_OUTER_SUITE] = str(shared_folder(tmp_path_factory))
    result = subprocess.run([sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider",
                             "tests/test_ingest.py", "tests/test_search.py", "tests/test_site.py"],
                            cwd=project, capture_output=True, text=True, env=env, timeout=1200)
    assert result.returncode == 0, result.stdout[-4000:]
    assert " passed" in result.stdout
