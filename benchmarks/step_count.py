"""Instructions per learner step beside instructions per engine step, counted by callgrind:
the load-proof form of ``interop_bench.py``'s engine/learner ratio.

Usage::

    python benchmarks/step_count.py battle-merchants:2 [pandoria-merchants:1:solo ...]

For each configuration, four runs under ``valgrind --tool=callgrind`` (Debian's ``valgrind``;
compiled modules on, as ``make bench`` runs them), each in a new process: the batched
self-play of ``interop_bench.py`` (64 games, the learner's pick by ``sample_masked``) after a
warm-up of 100 calls, for 40 and for 120 more calls, and the engine's random games (the
same loop as ``interop_bench.py``'s engine row) after 3 games, for 20 and for 60 more games.
The difference of each pair's totals, over the learner steps (or the moves) between them, is
what one step costs, start-up, imports and warm-up left out. The games are the same in every
run (seeded); every run also hashes strings alike (``PYTHONHASHSEED=0``), so dictionaries
probe alike and a build's count repeats within about 0.1% (where objects land in memory still
moves it by a few percent between environments: compare builds in one). Timings on a shared
machine swing with the other jobs; instruction counts do not. They leave out what memory and
caches cost: a batched step runs fewer instructions a second than one game's loop, so the
timed ratio is higher than the one counted here (docs/history/learner-speed-rounds.md).

``--run batched|engine --count K`` is the inner run (what the four runs are).
"""

from __future__ import annotations

import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from pathlib import Path

HERE = Path(__file__).resolve().parent
#: the batched calls (of 64 learner steps) and engine games of the two runs of each pair
CALLS = (40, 120)
GAMES = (20, 60)
ENVS = 64


def inner(config: str, run: str, count: int) -> None:
    """One counted run: print the learner steps or moves it made after its warm-up."""
    sys.path.insert(0, str(HERE))
    import interop_bench  # this directory's module, found at run time

    game, players, variant = split(config)
    if run == "batched":
        learner = interop_bench.batched(game, players, ENVS, None, variant)
        for _ in range(5):  # 100 calls: one learner() is 20 calls
            learner(0)
        steps = sum(learner(0)[0] for _ in range(count // 20))
    else:
        alone = interop_bench.engine(game, players, variant)
        for seed in range(3):
            alone(seed)
        steps = sum(alone(100 + seed)[0] for seed in range(count))
    print(f"steps {steps}")


def split(config: str) -> tuple[str, int, str | None]:
    """``GAME:PLAYERS[:VARIANT]`` as its parts (no variant: the game's usual one)."""
    game, _, rest = config.partition(":")
    players, _, variant = rest.partition(":")
    return game, int(players), variant or None


def counted(config: str, run: str, count: int, folder: str) -> tuple[int, int]:
    """Instructions of one inner run under callgrind, and the steps it made."""
    out = os.path.join(folder, f"callgrind.{run}.{count}")
    command = [
        "valgrind",
        "--tool=callgrind",
        f"--callgrind-out-file={out}",
        sys.executable,
        __file__,
        "--run",
        run,
        "--count",
        str(count),
        config,
    ]
    # one string hashing for every run: how many probes a dictionary lookup takes (so the
    # count) would differ from one process to the next
    env = {**os.environ, "PYTHONHASHSEED": "0"}
    done = subprocess.run(command, capture_output=True, text=True, check=False, env=env)
    refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
    steps = re.search(r"steps (\d+)", done.stdout)
    if done.returncode or not refs or not steps:
        raise SystemExit(f"the counted run failed ({' '.join(command)}):\n{done.stderr[-2000:]}")
    return int(refs.group(1).replace(",", "")), int(steps.group(1))


def per_step(config: str, run: str, counts: tuple[int, int], folder: str) -> float:
    (few, few_steps), (many, many_steps) = (counted(config, run, c, folder) for c in counts)
    return (many - few) / (many_steps - few_steps)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("configs", nargs="+", metavar="GAME:PLAYERS[:VARIANT]")
    parser.add_argument("--run", choices=("batched", "engine"), help=argparse.SUPPRESS)
    parser.add_argument("--count", type=int, default=0, help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    for config in args.configs:
        _, colon, rest = config.partition(":")
        if not colon or not rest.partition(":")[0].isdigit():
            parser.error(
                f"{config!r} is not GAME:PLAYERS[:VARIANT] (e.g. battle-merchants:2, "
                "pandoria-merchants:1:solo)"
            )
    if args.run:
        inner(args.configs[0], args.run, args.count)
        return 0
    if shutil.which("valgrind") is None:
        parser.error("valgrind is not installed (Debian: apt install valgrind)")
    os.environ["RULEBOOK_COMPILED"] = "1"
    from rulebook import compiled  # after the variable: it reads it

    if not compiled.install():
        parser.error(f"{compiled.fallback}: build them first (make compiled)")
    from rulebook import RulebookError, new_game

    for config in args.configs:
        game, players, variant = split(config)
        try:
            new_game(game, players, 0, variant)  # unknown game, count or variant: one line
        except RulebookError as error:
            parser.error(f"{config}: {error}")
    print("instructions per step (callgrind), compiled modules on")
    print(f"{'configuration':24} {'learner step':>13} {'engine step':>12} {'ratio':>6}")
    try:
        with tempfile.TemporaryDirectory() as folder:
            for config in args.configs:
                learner = per_step(config, "batched", CALLS, folder)
                engine = per_step(config, "engine", GAMES, folder)
                print(f"{config:24} {learner:13,.0f} {engine:12,.0f} {learner / engine:5.2f}x")
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
