# The two set-up commands of the README: `make site` and `make test` (`make fast`: the fast lane).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

export NO_MKDOCS_2_WARNING := 1

.PHONY: site build test fast check bench lint serve clean

# `make site ANNOTATIONS=tests/fixtures/annotations` builds with the example notes instead of annotations/
site: $(STAMP)
	$(BIN)/rulekb build --sources sources --out site $(if $(ANNOTATIONS),--annotations $(ANNOTATIONS))

build: site

$(STAMP): pyproject.toml requirements.lock
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps -r requirements.lock
	$(BIN)/python -m pip install --quiet --disable-pip-version-check --no-deps --no-build-isolation -e .
	touch $(STAMP)

# Two workers; a module's tests stay on one worker, so its site and browser are made once; the costliest
# modules of the last run first (tests/scheduling.py), not xdist's order by number of tests. The ten slowest
# tests are listed at the end (--durations=10), so that a test grown slow is seen. Python's bytecode cache is
# kept as in the fast lane (below).
test: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 2 --dist loadscope --no-loadscope-reorder --durations=10

# The fast lane for development: no browser, no Node, no archive, no builds killed at every step
# (markers in pyproject.toml); `make test` is the whole suite, as CI runs it. It keeps Python's
# bytecode cache where the environment turns it off (PYTHONDONTWRITEBYTECODE=1, as container images
# often do): else both workers, and every CLI run in a subprocess, compile the pipeline again.
fast: $(STAMP)
	PYTHONDONTWRITEBYTECODE= $(BIN)/python -m pytest -q -n 2 --dist loadscope --no-loadscope-reorder -m "not slow and not browser and not node" --durations=10

check: $(STAMP)
	$(BIN)/rulekb check sources

bench: $(STAMP)
	$(BIN)/rulekb bench --sources sources

lint: $(STAMP)
	$(BIN)/ruff check pipeline tests
	$(BIN)/lint-imports

serve: $(STAMP)
	$(BIN)/rulekb serve --site site

clean:
	rm -rf site .site.rulekb build .cache .pytest_cache .hypothesis .import_linter_cache .ruff_cache
	find . -name __pycache__ -type d -prune -exec rm -rf {} +
