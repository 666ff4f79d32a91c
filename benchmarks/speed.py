"""The lab's speed, side by side with a baseline commit: random steps/s, greedy games/s and
mcts iterations/s per game, each with the baseline's figure from the same run and the ratio.

Usage::

    python benchmarks/speed.py [--baseline REV] [--seconds 1.5] [--repeat 3] [--game NAME]
                               [--measure random,greedy,mcts] [--json FILE]

The baseline (default :data:`BASELINE`, the commit before the speed work began) is
exported with ``git archive`` into a temporary directory; every figure is measured in a child
process of its own (one core), with ``PYTHONPATH`` pointing at the working tree's ``src`` or at
the baseline's, the two alternating (now, baseline, now, baseline...) so that both see the same
load; the table gives the median of ``--repeat`` runs of each. Figures are CPU seconds of the
child (``time.process_time``), after an untimed warm-up.

Configurations: every game at 4 players (its standard variant), and Pandoria Merchants solo.

* random: seeded games of uniformly random legal moves (setup included), moves per second;
* greedy: seeded games between greedy bots in every seat, games per second;
* mcts: the default ``mcts`` agent, :data:`MCTS_ITERATIONS` iterations per decision, deciding
  in the positions of seeded random games (every :data:`MCTS_EVERY`-th move with a choice);
  search iterations per second.

The children use only what the baseline has too (``rulebook.new_game``, the agents, the
simulator), so the same code measures both. The working tree runs its compiled modules when
they are built and current, as every run does by default (``make bench`` builds them;
``RULEBOOK_COMPILED=0`` in the environment measures pure Python); the header says which.
The exported baseline runs pure Python; to compare compiled with compiled, give a checkout of
the baseline with its modules built (``--baseline-src DIR/src``, ``RULEBOOK_COMPILED=1``, which
a baseline from before compiled-by-default needs).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

#: the commit the speed figures are compared with: main before the speed work began
BASELINE = "71ec149"
#: (game, players, variant) measured
CONFIGS: tuple[tuple[str, int, str], ...] = (
    ("archmagi", 4, "standard"),
    ("battle-merchants", 4, "standard"),
    ("merchants-of-magick", 4, "standard"),
    ("pandoria-merchants", 4, "standard"),
    ("pandoria-merchants", 1, "solo"),
    ("ye-olde-magick-shoppe", 4, "standard"),
)
MEASURES = ("random", "greedy", "mcts")
UNITS = {"random": "steps/s", "greedy": "games/s", "mcts": "iterations/s"}
MCTS_ITERATIONS = 200
MCTS_EVERY = 7
ROOT = Path(__file__).resolve().parent.parent


# -- the measurements (run in a child process, against whichever source is on the path) ---------
def _random_game(game: str, players: int, variant: str, seed: int) -> int:
    import rulebook

    state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
    rng = random.Random(seed)
    moves = 0
    while not state.is_terminal():
        seats = state.current_players()
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        state.apply(seat, rng.choice(state.legal_actions(seat)))
        moves += 1
    return moves


def _greedy_game(game: str, players: int, variant: str, seed: int) -> int:
    import rulebook
    from rulebook.agents import agent_seed, make_agent
    from rulebook.simulate import play

    state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
    play(state, [make_agent("greedy", agent_seed(seed, p)) for p in range(players)])
    return 1


def _mcts_game(game: str, players: int, variant: str, seed: int) -> tuple[int, float]:
    """Iterations run and CPU seconds spent by mcts deciding along one seeded random game."""
    import rulebook
    from rulebook.agents import MCTSAgent

    state = rulebook.new_game(game, players=players, seed=seed, variant=variant)
    rng = random.Random(seed)
    agent = MCTSAgent(seed, iterations=MCTS_ITERATIONS)
    iterations = 0
    spent = 0.0
    choices = 0
    while not state.is_terminal():
        seats = state.current_players()
        seat = seats[0] if len(seats) == 1 else rng.choice(seats)
        legal = state.legal_actions(seat)
        if len(legal) > 1:
            choices += 1
            if choices % MCTS_EVERY == 0:
                start = time.process_time()
                agent.act(state, seat)
                spent += time.process_time() - start
                iterations += agent.last_iterations
        state.apply(seat, rng.choice(legal))
    return iterations, spent


def measure(measure: str, game: str, players: int, variant: str, seconds: float) -> float:
    """One figure: ``measure`` in its unit, over about ``seconds`` of CPU time."""
    if measure == "mcts":
        _mcts_game(game, players, variant, -1)  # warm-up
        iterations, spent, seed = 0, 0.0, 0
        while seed == 0 or spent < seconds:
            done, took = _mcts_game(game, players, variant, seed)
            iterations += done
            spent += took
            seed += 1
        return iterations / spent
    play = _random_game if measure == "random" else _greedy_game
    play(game, players, variant, -1)  # warm-up: content loading, caches
    count, seed = 0, 0
    start = time.process_time()
    while seed == 0 or time.process_time() - start < seconds:
        count += play(game, players, variant, seed)
        seed += 1
    return count / (time.process_time() - start)


# -- the parent: children for both sources, alternating --------------------------------------
def export(rev: str, into: Path) -> Path:
    """The ``src`` of commit ``rev`` of this repository, exported under ``into``."""
    archive = subprocess.run(
        ["git", "-C", str(ROOT), "archive", rev, "src"], check=True, capture_output=True
    ).stdout
    subprocess.run(["tar", "-x", "-C", str(into)], input=archive, check=True)
    return into / "src"


def child(src: Path, what: str, game: str, players: int, variant: str, seconds: float) -> float:
    env = {**os.environ, "PYTHONPATH": str(src), "PYTHONHASHSEED": "0"}
    args = [sys.executable, __file__, "--child", what, game, str(players), variant, str(seconds)]
    out = subprocess.run(args, env=env, check=True, capture_output=True, text=True).stdout
    return float(out.strip().splitlines()[-1])


def compiled_now() -> str:
    """Whether the working tree's children run its compiled modules (``rulebook.compiled``)."""
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src")}
    code = "import rulebook.compiled as c; print(int(c.active))"
    out = subprocess.run(
        [sys.executable, "-c", code], env=env, check=True, capture_output=True, text=True
    ).stdout
    if out.strip().endswith("1"):
        return "the working tree runs its compiled modules (make compiled)"
    return "the working tree runs pure Python (RULEBOOK_COMPILED=0, or not built/current)"


def run(
    baseline: str,
    seconds: float,
    repeat: int,
    configs: Sequence[tuple[str, int, str]],
    measures: Sequence[str],
    baseline_src: Path | None = None,
) -> list[dict[str, object]]:
    rows: list[dict[str, object]] = []
    with tempfile.TemporaryDirectory(prefix="rulebook-baseline-") as tmp:
        old_src = baseline_src if baseline_src is not None else export(baseline, Path(tmp))
        now_src = ROOT / "src"
        for game, players, variant in configs:
            for what in measures:
                now: list[float] = []
                old: list[float] = []
                for _ in range(repeat):
                    now.append(child(now_src, what, game, players, variant, seconds))
                    old.append(child(old_src, what, game, players, variant, seconds))
                row = {
                    "game": game,
                    "players": players,
                    "variant": variant,
                    "measure": what,
                    "unit": UNITS[what],
                    "baseline": statistics.median(old),
                    "now": statistics.median(now),
                    "baseline_runs": old,
                    "now_runs": now,
                }
                row["ratio"] = float(row["now"]) / float(row["baseline"])  # type: ignore[arg-type]
                rows.append(row)
                print(_line(row), flush=True)
    return rows


def _figure(x: float) -> str:
    return f"{x:,.0f}" if x >= 100 else f"{x:,.1f}"


def _line(row: dict[str, object]) -> str:
    config = f"{row['game']} {row['players']}p" + (
        f" {row['variant']}" if row["variant"] != "standard" else ""
    )
    return (
        f"{config:30} {row['measure']:7} {row['unit']:13} "
        f"{_figure(float(row['baseline'])):>10} {_figure(float(row['now'])):>10} "  # type: ignore[arg-type]
        f"{float(row['ratio']):>6.2f}x"  # type: ignore[arg-type]
    )


def markdown(rows: Sequence[dict[str, object]], baseline: str) -> str:
    lines = [
        f"| game | measure | baseline ({baseline}) | now | ratio |",
        "|---|---|---|---|---|",
    ]
    for row in rows:
        config = f"{row['game']} {row['players']}p" + (
            f" {row['variant']}" if row["variant"] != "standard" else ""
        )
        lines.append(
            f"| {config} | {row['measure']} {row['unit']} | "
            f"{_figure(float(row['baseline']))} | {_figure(float(row['now']))} | "  # type: ignore[arg-type]
            f"{float(row['ratio']):.2f}x |"  # type: ignore[arg-type]
        )
    return "\n".join(lines)


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    if argv[:1] == ["--child"]:
        what, game, players, variant, seconds = argv[1:6]
        print(measure(what, game, int(players), variant, float(seconds)))
        return 0
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--baseline", default=BASELINE, help=f"commit (default {BASELINE})")
    parser.add_argument(
        "--baseline-src",
        type=Path,
        metavar="DIR",
        help="the baseline's src folder instead of exporting --baseline: a checkout whose "
        "compiled modules are built (python -m rulebook.compiled there) measures compiled "
        "against compiled (run with RULEBOOK_COMPILED=1)",
    )
    parser.add_argument("--seconds", type=float, default=1.5, help="CPU seconds per figure")
    parser.add_argument("--repeat", type=int, default=3, help="runs of each figure (median)")
    parser.add_argument("--game", action="append", help="only these games (repeatable)")
    parser.add_argument("--measure", default=",".join(MEASURES), help="random,greedy,mcts")
    parser.add_argument("--json", type=Path, help="also write the figures to FILE")
    parser.add_argument("--markdown", type=Path, help="also write the table to FILE")
    args = parser.parse_args(argv)
    measures = [m.strip() for m in args.measure.split(",") if m.strip()]
    if not measures or any(m not in MEASURES for m in measures):
        parser.error(f"--measure takes {', '.join(MEASURES)}")
    if args.seconds <= 0 or args.repeat < 1:
        parser.error("--seconds must be positive and --repeat at least 1")
    configs = [c for c in CONFIGS if not args.game or c[0] in args.game]
    if not configs:
        parser.error(f"no game among {args.game}")
    print(
        f"baseline {args.baseline_src or args.baseline} vs the working tree; median of "
        f"{args.repeat} runs of "
        f"{args.seconds:g} CPU s each, one core, alternating; {compiled_now()}\n"
    )
    print(
        f"{'configuration':30} {'measure':7} {'unit':13} {'baseline':>10} {'now':>10} {'ratio':>7}"
    )
    if args.baseline_src is not None and not (args.baseline_src / "rulebook").is_dir():
        parser.error(f"--baseline-src {args.baseline_src}: no rulebook package in it")
    rows = run(args.baseline, args.seconds, args.repeat, configs, measures, args.baseline_src)
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2) + "\n", encoding="utf-8")
    if args.markdown is not None:
        args.markdown.write_text(markdown(rows, args.baseline) + "\n", encoding="utf-8")
    return 0


if __name__ == "__main__":
    sys.exit(main())
