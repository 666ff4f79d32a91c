"""The words and payloads a web server builds at every move, timed apart from the rest of it.

Plays ``--seeds`` seeded games of each game the load test plays (Battle Merchants, Archmagi and
Pandoria Merchants at 3 players; every move a seeded random pick) and, at each move, times what a
server does with the game's words: the move's log entry (:func:`rulebook.web.views.made`, which
makes it) and then the payload of every viewer (:func:`rulebook.web.views.view`: each seat and a
spectator, each with the log lines kept from its last payload, as a server keeps them). Prints
microseconds per move of each, over all the games; the compiled modules run where they are
current, as in a server (``RULEBOOK_COMPILED=0`` for pure Python).

With ``--baseline-src OTHER/src`` the same games are timed in that tree too (its compiled
modules are its own ``build/``), the two trees alternating ``--repeat`` times, each run in a
process of its own; a digest of every payload each built must be the same in both (else the
run fails: the trees told the same games differently).

With ``--memory`` it measures what a finished game holds instead (``tracemalloc``, pure Python
or compiled alike): its state and log, and the payloads of two seats and a spectator with the
log lines they keep (what a server holds for a game while someone watches it), in KiB a game.

Usage::

    python benchmarks/web_views.py [--seeds 3] [--repeat 3] [--baseline-src BASE/src]
    python benchmarks/web_views.py --memory [--seeds 3]
"""

from __future__ import annotations

import argparse
import hashlib
import json
import os
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

GAMES = ("battle-merchants", "archmagi", "pandoria-merchants")
PLAYERS = 3
#: at most this many moves of a game are timed (a random game of Archmagi may run long)
MOVES = 400


#: the seats' names in the payloads
LABELS = [f"seat {p + 1}" for p in range(PLAYERS)]


def played(name: str, seed: int) -> Iterator[tuple[Any, int, Any]]:
    """A seeded game of ``name``: its state and, one at a time, the seat to move and its move
    (a seeded random pick), for at most :data:`MOVES` moves; the caller makes each."""
    import random

    from rulebook.core import Setup, get_game

    game = get_game(name)
    state = game.create(Setup(name, PLAYERS, seed, game.variants[0].name))
    rng = random.Random(seed)
    for _ in range(MOVES):
        if state.is_terminal():
            return
        seat = state.current_players()[0]
        yield state, seat, rng.choice(state.legal_actions(seat))


def timed(seeds: int) -> dict[str, Any]:
    """This process's figures: seconds spent in the log entries and in the payloads, moves,
    and a digest of every payload built (the two trees must build the same)."""
    from rulebook.web.views import KeptLog, made, to_text, view

    made_s = views_s = 0.0
    moves = 0
    digest = hashlib.sha256()
    for seed in range(seeds):
        for name in GAMES:
            viewers: list[int | None] = [None, *range(PLAYERS)]
            kept = {v: KeptLog() for v in viewers}
            log = []
            for state, seat, action in played(name, seed):
                start = time.process_time()
                log.append(made(state, seat, action))
                between = time.process_time()
                payloads = [view(state, v, log, LABELS, kept=kept[v]) for v in viewers]
                end = time.process_time()
                made_s += between - start
                views_s += end - between
                digest.update(to_text(payloads).encode())
            moves += len(log)
    return {"made_s": made_s, "views_s": views_s, "moves": moves, "digest": digest.hexdigest()}


def held(seeds: int) -> dict[str, Any]:
    """KiB each game holds at its end (a first game of each played before, unmeasured, so that
    the content's caches are filled): ``state`` its state and log, ``payloads`` the payloads of
    two seats and a spectator with their kept log lines."""
    import gc
    import tracemalloc

    from rulebook.web.views import KeptLog, made, view

    def play(name: str, seed: int) -> tuple[int, int]:
        gc.collect()
        tracemalloc.start()
        try:
            viewers: list[int | None] = [None, 0, 1]
            kept = {v: KeptLog() for v in viewers}
            log = []
            payloads: list[dict[str, Any]] = []
            for state, seat, action in played(name, seed):
                log.append(made(state, seat, action))
                payloads = [view(state, v, log, LABELS, kept=kept[v]) for v in viewers]
            gc.collect()
            with_payloads = tracemalloc.get_traced_memory()[0]
            payloads.clear()
            kept.clear()
            gc.collect()
            alone = tracemalloc.get_traced_memory()[0]
        finally:
            tracemalloc.stop()
        return alone, with_payloads - alone

    figures: dict[str, Any] = {}
    for name in GAMES:
        play(name, seeds + 1)
        sizes = [play(name, seed) for seed in range(seeds)]
        figures[name] = {
            "state": [round(a / 1024) for a, _ in sizes],
            "payloads": [round(b / 1024) for _, b in sizes],
        }
    return figures


def run(src: Path | None, seeds: int, what: str = "timed") -> dict[str, Any]:
    """:func:`timed` (or ``what``: :func:`held`) in a new process (of the tree in ``src``, else
    this one)."""
    env = dict(os.environ)
    here = Path(__file__).resolve().parent
    env["PYTHONPATH"] = str(src) if src is not None else str(here.parent / "src")
    code = (
        f"import json, sys; sys.path.insert(0, {str(here)!r}); import web_views; "
        f"print(json.dumps(web_views.{what}({seeds})))"
    )
    done = subprocess.run(
        [sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False
    )
    if done.returncode != 0:
        raise SystemExit(f"web_views: a run failed:\n{done.stderr[-2000:]}")
    figures: dict[str, Any] = json.loads(done.stdout.strip().splitlines()[-1])
    return figures


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--seeds", type=int, default=3, help="games of each game (default 3)")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each tree (default 3)")
    parser.add_argument("--baseline-src", type=Path, help="also time the tree in this src/")
    parser.add_argument(
        "--memory", action="store_true", help="KiB a finished game holds, not microseconds"
    )
    args = parser.parse_args(argv)
    if args.seeds < 1 or args.repeat < 1:
        parser.error("--seeds and --repeat take a whole number of at least 1")
    if args.baseline_src is not None and not (args.baseline_src / "rulebook").is_dir():
        parser.error(f"--baseline-src {args.baseline_src}: no rulebook package there")
    trees: list[tuple[str, Path | None]] = [("now", None)]
    if args.baseline_src is not None:
        trees.append(("baseline", args.baseline_src.resolve()))
    if args.memory:
        for label, src in trees:
            for name, sizes in run(src, args.seeds, "held").items():
                state = ", ".join(map(str, sizes["state"]))
                payloads = ", ".join(map(str, sizes["payloads"]))
                print(
                    f"{label:9} {name}: state and log {state} KiB a game; two seats' and a "
                    f"spectator's payloads and kept lines {payloads} KiB more"
                )
        return 0
    rows: dict[str, list[dict[str, Any]]] = {label: [] for label, _ in trees}
    for _ in range(args.repeat):
        for label, src in trees:
            rows[label].append(run(src, args.seeds))
    for label, runs in rows.items():
        per = [(1e6 * r["made_s"] / r["moves"], 1e6 * r["views_s"] / r["moves"]) for r in runs]
        made_us = ", ".join(f"{m:.1f}" for m, _ in per)
        views_us = ", ".join(f"{v:.1f}" for _, v in per)
        print(
            f"{label:9} {runs[0]['moves']} moves: log entry {made_us} us a move "
            f"(median {statistics.median(m for m, _ in per):.1f}); the {PLAYERS + 1} viewers' "
            f"payloads {views_us} us a move (median {statistics.median(v for _, v in per):.1f})"
        )
    digests = {r["digest"] for runs in rows.values() for r in runs}
    if len(digests) > 1:
        print("the trees built different payloads for the same games (see their digests)")
        return 1
    return 0


if __name__ == "__main__":
    try:
        sys.exit(main())
    except KeyboardInterrupt:
        print("web_views: interrupted; nothing was measured to the end", file=sys.stderr)
        sys.exit(130)
