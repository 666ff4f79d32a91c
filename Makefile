# rulebook: `make run` plays, `make test` checks everything, `make bench` measures.
# Every target sets up its own virtualenv (.venv) from pyproject.toml; nothing else is assumed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
GAME   ?= merchants-of-magick
PLAYERS ?= 2
SEATS  ?= human,greedy

.PHONY: run test lint typecheck unit bench bench-playouts same-games clean

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

## random steps/s, greedy games/s and mcts iterations/s per game, beside the baseline commit's
bench: $(STAMP)
	$(BIN)/python benchmarks/speed.py

## random-playout throughput of every game at every player count, and the bots' time per move
bench-playouts: $(STAMP)
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/decision_time.py

## the bots play the baseline commit's games move for move (random, greedy, mcts)
same-games: $(STAMP)
	$(BIN)/python benchmarks/same_games.py

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis build src/*.egg-info
