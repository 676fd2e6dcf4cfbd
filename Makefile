# The README's two commands: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

# Python keeps each module it compiles (__pycache__, ignored by git). A machine that
# sets PYTHONDONTWRITEBYTECODE (this CI's does) would compile FastAPI, SQLAlchemy,
# pydantic and pitkit anew in every one of the suite's processes, and pytest would
# rewrite every test module's asserts anew in each worker: a test worker's collection
# took 17.5 s instead of 4.3 s, a server's imports 3.8 s instead of 2.1 s.
unexport PYTHONDONTWRITEBYTECODE

.PHONY: run test check lint test-compiled clean

# The venv's packages are installed by uv (pinned here), which fetches and unpacks them in
# parallel: the development set takes seconds where pip took two to three minutes of CI.
# The versions are pyproject.toml's either way.
UV_VERSION := 0.13.8
UV := $(BIN)/uv pip install -q --python $(BIN)/python

$(BIN)/pitkit: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q uv==$(UV_VERSION)
	$(UV) -e .
	touch $@

$(VENV)/.dev: $(BIN)/pitkit
	$(UV) -e '.[dev,postgres,adapters,openspiel,ray,dataset]'
	touch $@

run: $(BIN)/pitkit
	$(BIN)/pitkit serve

# The browser's types, static/js/wire.d.ts, written from the Python declarations of the
# server's messages and the views (pitkit.server.wire): after changing one, run this
# (tests/server/test_wire.py fails while the file is stale).
.PHONY: wire
wire: $(BIN)/pitkit
	$(BIN)/python -m pitkit.server.wire

lint: $(VENV)/.dev
	$(BIN)/ruff check src tests benchmarks examples hatch_build.py
	$(BIN)/ruff format --check src tests benchmarks examples hatch_build.py
	$(BIN)/mypy
	node_modules/.bin/tsc -p tsconfig.json

# The browser code's type checker (TypeScript, pinned in package.json and package-lock.json).
lint: node_modules/.bin/tsc
node_modules/.bin/tsc: package.json package-lock.json
	npm ci --no-audit --no-fund
	touch $@

# What the tests need from Debian, installed when missing (CI runs as root; elsewhere
# sudo asks), in one apt-get: each path below, and the package that brings it.
# - The browser tests (tests/browser) drive the OS's Chromium, never a downloaded one:
#   its headless shell for the pages, and the whole browser for notifications.
# - The storage and server tests run on SQLite and on PostgreSQL: tests/postgres.py starts
#   a throwaway server. PITKIT_REQUIRE_POSTGRES=1: here a missing PostgreSQL (or HAProxy)
#   fails those tests (elsewhere they skip).
# - The test of several workers (tests/server/test_cluster.py) puts HAProxy in front.
DEBIAN := /usr/bin/chromium-headless-shell=chromium-headless-shell /usr/bin/chromium=chromium \
	/usr/lib/postgresql=postgresql /usr/sbin/haproxy=haproxy
SUDO := $(if $(filter 0,$(shell id -u)),,sudo)
MISSING := $(strip $(foreach d,$(DEBIAN),$(if $(wildcard $(word 1,$(subst =, ,$(d)))),,$(word 2,$(subst =, ,$(d))))))

.PHONY: debian
debian:
ifneq ($(MISSING),)
	$(SUDO) apt-get update -q
	$(SUDO) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q $(MISSING)
endif

# Each test runs once, on the build its subject ships in (docs/testing.md, "The two
# stages"). The first stage is the source's: the server and the pages (the server is not
# compiled) and the tests that read the source tree. The second, `test-compiled`, is
# the library's (the engines and the layers above them) on the wheel `pip install`
# builds, with its engines compiled: the same source, checked more strictly (a compiled
# module checks its types as it runs).
# The first stage needs only the installs: the venv, npm's packages (axe-core), Debian's.
# Lint (mypy's minute) and the compiled wheel (a minute and a half of gcc) are made beside
# it by scripts/beside.sh: at the lowest priority (nice 19) while the tests run, so that
# they take the CPU the tests leave idle (a page's timers, a server's start, a worker's
# last test) and yield it whenever a test wants it; at the normal priority once the tests
# are done, for beside other work nice 19 hardly moves. Made first, as until 2026-11-29,
# they held the tests back 2 min 10 s of a fresh clone. Their output is shown after the
# tests; either failing fails `make test`.
SOURCE_TESTS := tests/server tests/browser tests/test_layers.py tests/test_build.py
BESIDE := $(VENV)/beside-the-tests.log
# The machine's gauge (benchmarks/gauge.py) before and after: the anchor for the suite's time.
test: $(VENV)/.dev debian node_modules/.bin/tsc
	@$(BIN)/python benchmarks/gauge.py
	@echo "lint and the compiled wheel: made beside the tests (nice 19), shown after them"
	@scripts/beside.sh $(BESIDE) "$(MAKE) -j2 --no-print-directory lint $(COMPILED)/.built" \
		env PITKIT_REQUIRE_POSTGRES=1 $(BIN)/pytest -n 2 $(SOURCE_TESTS)
	$(MAKE) test-compiled
	@$(BIN)/python benchmarks/gauge.py

# A quick look before a commit (docs/testing.md): lint, types and the tests with no
# server, browser, database server or cluster in them. `make test` stays the whole suite.
QUICK_TESTS := tests/core tests/games tests/tournaments tests/test_cards.py tests/test_layers.py
check: lint
	$(BIN)/pytest -n 2 $(QUICK_TESTS)

# The build `pip install .` makes, with the games' engines compiled by mypyc
# (hatch_build.py, docs/performance.md), in a venv of its own, and the library's tests
# on it: the engines, and the layers above them (docs/testing.md, "The two stages").
# tests/test_build.py checks that every test folder is in this list or SOURCE_TESTS.
# Its dependencies are the development venv's, named by a path in a .pth file rather
# than installed twice (a minute). Only a path: the development venv's own .pth files,
# the editable pitkit's among them, are not read, so `pitkit` there is the wheel.
COMPILED := .venv-compiled
COMPILED_TESTS := tests/core tests/games tests/play tests/bots tests/adapters tests/arena \
	tests/tournaments tests/cli tests/examples tests/test_cards.py
# The wheel is built again only when what goes into it has changed (two minutes, most of
# it the C compiler on mypyc's output). pip builds it in an environment of its own, so it
# needs nothing of the development venv and starts at once, beside the installs and lint.
$(COMPILED)/.built: pyproject.toml hatch_build.py $(shell find src -name '*.py')
	test -x $(COMPILED)/bin/python || $(PYTHON) -m venv $(COMPILED)
	$(COMPILED)/bin/pip install -q --force-reinstall --no-deps .
	touch $@

test-compiled: $(COMPILED)/.built $(VENV)/.dev debian
	$(BIN)/python -c "import sysconfig; print(sysconfig.get_path('purelib'))" > \
		"$$($(COMPILED)/bin/python -c "import sysconfig; print(sysconfig.get_path('purelib'))")/dev-venv.pth"
	cd / && $(CURDIR)/$(COMPILED)/bin/python -c \
		"from importlib import import_module as i; g = 'acepit pit pitch pits pittypat'.split(); \
		p = [i(f'pitkit.games.{n}.state').__file__ for n in g] + [i('pitkit.adapters.pits').__file__]; \
		assert all(f.endswith('.so') for f in p), p"
	$(COMPILED)/bin/python -m pytest -n 2 $(COMPILED_TESTS)

clean:
	rm -rf $(VENV) $(COMPILED) .mypy_cache .pytest_cache .ruff_cache
