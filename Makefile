# Estoc — two commands do everything: `make run` and `make test`.
SHELL := /bin/bash
PORT ?= 8000
VENV := .venv
PY := $(VENV)/bin/python
# Python 3.12+ (pyenv's 3.12 where the default python is older)
PYTHON ?= $(shell for p in python3.12 python3.13 $$HOME/.pyenv/versions/3.12*/bin/python $$HOME/.pyenv/versions/3.13*/bin/python; do \
	command -v $$p >/dev/null 2>&1 && $$p -c 'import sys; assert sys.version_info >= (3, 12)' 2>/dev/null && { command -v $$p; break; }; done)
DEV_ENV := DEBUG=1
LINT_ENV := DEBUG=1 SECRET_KEY=lint-only

.PHONY: install run test test-postgres e2e lint format bench clean

$(VENV)/.installed: pyproject.toml
	@test -n "$(PYTHON)" || { echo "Python 3.12 ou plus récent introuvable (pyenv install 3.12)."; exit 1; }
	$(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e ".[dev]"
	@touch $@

install: $(VENV)/.installed

run: install  ## install, migrate, load the bestiary, serve on http://127.0.0.1:$(PORT)
	$(DEV_ENV) $(PY) manage.py migrate --noinput
	$(DEV_ENV) $(PY) manage.py loadfixtures
	$(DEV_ENV) $(PY) manage.py runserver 127.0.0.1:$(PORT)

test: install  ## the whole suite on SQLite
	$(PY) -m pytest

test-postgres: install  ## the same suite on PostgreSQL (DATABASE_URL, default: local server)
	DATABASE_URL=$${DATABASE_URL:-postgres://postgres@127.0.0.1:5432/test} $(PY) -m pytest --create-db

e2e: install  ## real-browser tests: Playwright driving Debian's Chromium
	$(PY) -m pytest tests/e2e -p no:randomly

lint: install
	$(PY) -m ruff check .
	$(PY) -m ruff format --check .
	$(LINT_ENV) $(PY) -m mypy rulesets calculator bestiary
	$(PY) -m djlint templates --lint
	$(PY) -m djlint templates --check

format: install
	$(PY) -m ruff format .
	$(PY) -m ruff check --fix .
	$(PY) -m djlint templates --reformat

# stdout carries the JSON document alone: the install's output goes to stderr
bench:  ## every target of issue 18 with its verdict, one JSON document (≈ 12 min; BENCH_ONLY=latency,odds,… for parts)
	@$(MAKE) --no-print-directory -s install >&2
	@BENCH_BASE=$(BASE) $(PY) bench/run.py

# Issue 19: a shared result's PNG, first render and cached, interleaved (figures in docs/performance.md)
.PHONY: share-image
share-image: install  ## render time of /r/<id>.png, largest and smallest worked example (≈ 30 s; REDIS_URL for Redis' cache)
	$(PY) bench/share_image.py

clean:
	rm -rf $(VENV) staticfiles artifacts

# Issue 9, proof under load, faults and bad input (figures in docs/reliability.md). Each target
# starts its own gunicorn (4 workers) on 127.0.0.1 and a free port, on the PostgreSQL database
# estoc_load (created if missing; never "test"), and stops it when done. Loopback only.
.PHONY: load perceived fuzz first-request

load: install  ## wrk (apt-get install wrk): 60 s mixed at 50 connections, 60 s with think time, resolves at 1-50 (≈ 4 min)
	$(PY) bench/load/run.py

perceived: install  ## Playwright on Debian's Chromium: tap on « Résoudre » → result painted, p95 of 20 taps, six pages at 390×844 (≈ 1 min)
	$(PY) bench/perceived.py

first-request: install  ## a fresh gunicorn worker's first request against a warm one, with and without the warm-up (≈ 6 min)
	$(PY) bench/first_request.py

fuzz: install  ## Schemathesis on /api/openapi.json: 1,000 generated requests per operation and the coverage phase (8-18 min)
	$(PY) bench/fuzz_api.py

# Issue 16, the live player view's bounded load check (figures in docs/reliability.md): uvicorn
# (2 workers) on 127.0.0.1 and a free port, on the PostgreSQL database estoc_bench_live (created
# empty, dropped afterwards) and Redis db 14 (flushed afterwards). Loopback only.
.PHONY: bench-live

bench-live: install  ## 50 player views on one encounter, 20 changes: every view gets every change, p95 delay ≤ 2 s (≈ 25 s)
	$(PY) bench/live.py

# Issue 18: the mixed-load capacity of two commits side by side in one run (ABBA, wrk), each in a
# temporary git worktree with its own database, static files, Redis db and gunicorn. BASE: main when
# issue 18 was opened; HEAD: a commit, or WORKTREE (this working tree, uncommitted changes included).
BASE ?= 81e3378
HEAD ?= WORKTREE
.PHONY: compare

compare: install  ## HEAD's capacity over BASE's, target ≥ 2×: make compare [BASE=<commit>] [HEAD=<commit>|WORKTREE] (≈ 3 min)
	@$(PY) bench/compare.py $(BASE) $(HEAD)

# The pure engines of two commits (every worked example: parse, resolve, narrative, JSON), ABBA rounds
.PHONY: engine-compare
engine-compare: install  ## HEAD's engine cost over BASE's per ruleset: make engine-compare [BASE=<commit>] [HEAD=<commit>|WORKTREE] (≈ 1 min)
	$(PY) bench/engine_compare.py $(BASE) $(HEAD)
