# rulebook: `make run` plays, `make test` checks everything, `make bench` measures.
# Every target sets up its own virtualenv (.venv) from pyproject.toml; nothing else is assumed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
GAME   ?= merchants-of-magick
PLAYERS ?= 2
SEATS  ?= human,greedy

.PHONY: run test lint typecheck unit bench clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray]'
	touch $(STAMP)

## play in the terminal against bots (GAME, PLAYERS and SEATS can be overridden)
run: $(STAMP)
	$(BIN)/rulebook play $(GAME) --players $(PLAYERS) --seats $(SEATS)

## lint, format check, type check and every test
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks
	$(BIN)/ruff format --check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP)
	$(BIN)/pytest -n 2 -q

## random-playout throughput of every game at every player count, the bots' time per move, and
## what encoding an observation tensor costs against an engine step
bench: $(STAMP)
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/decision_time.py
	$(BIN)/python benchmarks/spaces.py --speed

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis build src/*.egg-info
