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
	$(BIN)/pitkit play pitty-pat --seats human,sensible,sensible

lint: $(VENV)/.dev
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks
	$(BIN)/mypy

test: lint
	$(BIN)/pytest

clean:
	rm -rf $(VENV) .mypy_cache .pytest_cache .ruff_cache
