"""Measure the bounds OpenSpiel's GameInfo needs and write ``interop/data/bounds.toml``.

Usage::

    python benchmarks/interop_bounds.py [--games 200] [--greedy-games 20] [--out PATH]

For every configuration (:func:`rulebook.interop.common.configurations`) it plays ``--games``
random and ``--greedy-games`` greedy games with every chance draw made at random
(:func:`rulebook.interop.bounds.measure`) and records twice the largest values seen (scores:
twice the largest magnitude; the least score is at most 0), marked authored with that reason.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from pathlib import Path

from rulebook.interop.bounds import measure
from rulebook.interop.common import configurations

OUT = Path(__file__).resolve().parent.parent / "src/rulebook/interop/data/bounds.toml"


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=200, help="random games per configuration")
    parser.add_argument("--greedy-games", type=int, default=20, help="greedy games per config")
    parser.add_argument("--out", type=Path, default=OUT, help="the data file to write")
    args = parser.parse_args(argv)
    if args.games < 1 or args.greedy_games < 0:
        parser.error("--games must be at least 1 and --greedy-games at least 0")
    reason = (
        f"twice the largest value seen in {args.games} random and {args.greedy_games} greedy "
        "games with random chance (benchmarks/interop_bounds.py)"
    )
    lines = [
        "# Bounds of every configuration for OpenSpiel's GameInfo (rulebook.interop.bounds).",
        "# Written by benchmarks/interop_bounds.py; the rulebooks bound none of these directly.",
        "",
    ]
    for config in configurations():
        start = time.perf_counter()
        m = measure(config, args.games, args.greedy_games)
        lines += [
            f'["{config.name}"]',
            f"max_game_length = {2 * m.game_length}",
            f"max_chance_outcomes = {2 * m.chance_outcomes}",
            f"max_chance_nodes = {2 * m.chance_nodes}",
            f"min_score = {min(0, 2 * m.min_score)}",
            f"max_score = {2 * m.max_score}",
            'source = "authored"',
            f'reason = "{reason}"',
            "",
        ]
        print(f"{config.name}: {m} ({time.perf_counter() - start:.1f} s)", file=sys.stderr)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    args.out.write_text("\n".join(lines), encoding="utf-8")
    print(f"wrote {args.out}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
