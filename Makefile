# The README's two commands: `make run` and `make test`.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin

.PHONY: run test lint clean

$(BIN)/pitkit: pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/pip install -q -e .
	touch $@

$(VENV)/.dev: $(BIN)/pitkit
	$(BIN)/pip install -q -e '.[dev]'
	touch $@

run: $(BIN)/pitkit
	$(BIN)/pitkit serve

lint: $(VENV)/.dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

# The browser tests (tests/browser) drive the OS's Chromium, never a downloaded one:
# install Debian's when it is missing (CI runs as root; elsewhere sudo asks).
/usr/bin/chromium:
	$(if $(filter 0,$(shell id -u)),,sudo) apt-get update -q
	$(if $(filter 0,$(shell id -u)),,sudo) env DEBIAN_FRONTEND=noninteractive apt-get install -y -q chromium

test: lint /usr/bin/chromium
	$(BIN)/pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
