# rulebook: `make run` starts the web app, `make test` checks everything, `make bench` measures.
# Every target sets up its own virtualenv (.venv) from pyproject.toml; nothing else is assumed.

PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed-dev
GAME   ?= merchants-of-magick
PLAYERS ?= 2
SEATS  ?= human,greedy

HOST   ?= 127.0.0.1
PORT   ?= 8000
CHROMIUM := /usr/bin/chromium

.PHONY: run play test lint typecheck unit compiled bench bench-playouts same-games bench-web bench-web-scale bench-web-overload soak clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,web,rl,llm]'
	touch $(STAMP)

## the web app at http://$(HOST):$(PORT)/ on SQLite in data/rulebook.sqlite3 (Ctrl-C stops it)
run: $(STAMP) compiled
	$(BIN)/rulebook serve --host $(HOST) --port $(PORT)

## play in the terminal against bots (GAME, PLAYERS and SEATS can be overridden)
play: $(STAMP) compiled
	$(BIN)/rulebook play $(GAME) --players $(PLAYERS) --seats $(SEATS)

## Debian's chromium for the browser tests (Playwright cannot download browsers here)
$(CHROMIUM):
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null \
	  || (DEBIAN_FRONTEND=noninteractive apt-get update -qq \
	      && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null)

## lint, format check, type check and every test
test: lint typecheck unit

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks examples
	$(BIN)/ruff format --check src tests benchmarks examples

typecheck: $(STAMP)
	$(BIN)/mypy

unit: $(STAMP) $(CHROMIUM) compiled
	$(BIN)/pytest -n 2 --dist loadgroup -q --durations=25

## the hot modules compiled with mypyc into build/mypyc (src/rulebook/compiled.py): a no-op
## while every source is as compiled; every run uses them while current (RULEBOOK_COMPILED=0:
## pure Python)
compiled: $(STAMP)
	$(BIN)/python -c "from rulebook.compiled import build; build()"

## random steps/s, greedy games/s and mcts iterations/s per game beside the baseline commit's;
## what encoding an observation tensor costs; a learner's steps/s through each research adapter
## beside the engine's random steps/s, and mcts against OpenSpiel's MCTSBot
bench: $(STAMP) compiled
	$(BIN)/python benchmarks/speed.py
	$(BIN)/python benchmarks/spaces.py --speed
	RULEBOOK_COMPILED=1 $(BIN)/python benchmarks/interop_bench.py

## random-playout throughput of every game at every player count, and the bots' time per move
bench-playouts: $(STAMP)
	$(BIN)/python benchmarks/bench.py
	$(BIN)/python benchmarks/decision_time.py

## the bots play the baseline commit's games move for move (random, greedy, mcts)
same-games: $(STAMP) compiled
	$(BIN)/python benchmarks/same_games.py

## load test of the web app: concurrent games over HTTP and WebSocket, SQLite and PostgreSQL
## (one server process, then two sharing the games); then SQLite with a lab run on every core
bench-web: $(STAMP) compiled
	$(BIN)/python benchmarks/web_load.py
	$(BIN)/python benchmarks/web_load.py --db sqlite --lab

## the scale runs (issue 42): two server processes on PostgreSQL, 600 games of people thinking
## 1-3 s, then 1,000 games of people thinking 5-15 s (several minutes each)
bench-web-scale: $(STAMP) compiled
	$(BIN)/python benchmarks/web_load.py --db postgresql --processes 2 --games 600 --think 1-3 \
	  --warmup 60 --seconds 120
	$(BIN)/python benchmarks/web_load.py --db postgresql --processes 2 --games 1000 --think 5-15 \
	  --warmup 90 --seconds 180

## the overload run: 2,500 games of people thinking 1-3 s on two processes on PostgreSQL, past
## what they serve: refused moves and games are asked again after Retry-After (reported apart);
## the errors must be 0 (no connection dropped, no acknowledged move lost)
bench-web-overload: $(STAMP) compiled
	$(BIN)/python benchmarks/web_load.py --db postgresql --processes 2 --games 2500 --think 1-3 \
	  --warmup 60 --seconds 120

## soak run: 200 games for an hour over two server processes on PostgreSQL, one killed with
## kill -9 every few minutes; checks no acknowledged move lost, no game stuck, nothing leaking
soak: $(STAMP) compiled
	$(BIN)/python benchmarks/soak.py --games 200 --minutes 60 --kill-every 600

clean:
	rm -rf $(VENV) .pytest_cache .ruff_cache .mypy_cache .hypothesis build src/*.egg-info
