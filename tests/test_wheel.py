"""rulekb installed from a wheel: it runs in any folder. (Its own module: a wheel built and a site built
from it, which xdist's loadscope can then give one worker while the other takes the rest.)"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys

import pytest

from conftest import ROOT

# The frozen sources less three large files whose readers and kinds the others bring too (a PDF, an MTR, an IPG,
# a second CR edition for the pages of what changed, a translation stay): every reader, parser and page of the
# site still runs from the wheel, at a quarter less CPU for the build (and of the index `search` then makes).
LEFT_OUT = {"cr-2023-04-14.pdf", "mtr-2021-07-23.pdf", "ipg-2024-09-23.txt"}


@pytest.mark.slow
def test_rulekb_runs_from_a_wheel_in_any_folder(tmp_path, sources_dir):
    """Installed from a wheel and run elsewhere: no mkdocs.yml beside the sources is needed (the package
    brings its own), and nothing is written into the installed package."""
    import zipfile
    built = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-q",
                            "-w", str(tmp_path / "wheel"), str(ROOT)], capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stderr[-2000:]
    wheel = next((tmp_path / "wheel").glob("rulekb-*.whl"))
    installed = tmp_path / "installed"
    zipfile.ZipFile(wheel).extractall(installed)
    assert (installed / "pipeline" / "site" / "mkdocs.yml").is_file()
    before = sorted(path.relative_to(installed) for path in installed.rglob("*") if "__pycache__" not in path.parts)
    sources = tmp_path / "elsewhere" / "sources"
    shutil.copytree(sources_dir, sources, ignore=lambda folder, names: [name for name in names if name in LEFT_OUT])
    assert {path.suffix for path in sources.iterdir()} == {path.suffix for path in sources_dir.iterdir()}
    work = tmp_path / "work"
    work.mkdir()
    env = dict(os.environ, RULEKB_CACHE=str(tmp_path / "cache"), PYTHONDONTWRITEBYTECODE="1")
    run = f"import sys; sys.path.insert(0, {str(installed)!r}); from pipeline.cli import main; sys.exit(main(sys.argv[1:]))"
    result = subprocess.run([sys.executable, "-c", run, "build", "--sources", str(sources), "--out", "site"],
                            cwd=work, capture_output=True, text=True, env=env, timeout=900)
    assert result.returncode == 0, result.stdout[-2000:] + result.stderr[-2000:]
    assert (work / "site" / "cr" / "704" / "index.html").is_file()
    found = subprocess.run([sys.executable, "-c", run, "search", "704.5k", "--sources", str(sources), "--json"],
                           cwd=work, capture_output=True, text=True, env=env, timeout=300)
    assert '"cr:704.5k"' in found.stdout
    after = sorted(path.relative_to(installed) for path in installed.rglob("*") if "__pycache__" not in path.parts)
    assert after == before
