"""What a Pandoria Merchants clone costs: ``PandoriaState.clone`` made and dropped (its
deallocation included, the garbage collector on), in microseconds, on mid-game positions.

Usage::

    python benchmarks/pandoria_clone.py [--games 8] [--number 20000]

Positions: seeded games of random moves, taken a quarter, half and three quarters of the way
through, for the standard game at 4 players, the family version at 4 and solo. The figure is
the median over ``--repeat`` timings of ``--number`` clones cycling through the positions.
"""

from __future__ import annotations

import argparse
import gc
import random
import statistics
import timeit
from collections.abc import Sequence

import rulebook
from rulebook import compiled
from rulebook.core import State

CONFIGS = (("standard", 4), ("family", 4), ("solo", 1))


def positions(variant: str, players: int, games: int) -> list[State]:
    """Mid-game positions of seeded random games."""
    out: list[State] = []
    for seed in range(games):
        state = rulebook.new_game("pandoria-merchants", players=players, seed=seed, variant=variant)
        rng = random.Random(seed)
        seen: list[State] = []
        while not state.is_terminal():
            seat = state.current_players()[0]
            state.apply(seat, rng.choice(state.legal_actions(seat)))
            seen.append(state.clone())
        out += [seen[len(seen) * k // 4] for k in (1, 2, 3)]
    return out


def clone_time(states: Sequence[State], number: int, repeat: int) -> float:
    """Microseconds per clone made and dropped, median of ``repeat`` timings."""
    cycle = list(states) * (number // len(states) + 1)
    cycle = cycle[:number]

    def run() -> None:
        for s in cycle:
            s.clone()

    gc.collect()
    times = timeit.repeat(run, "gc.enable()", number=1, repeat=repeat, globals={"gc": gc})
    return statistics.median(times) / number * 1e6


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=8, help="seeded games per configuration")
    parser.add_argument("--number", type=int, default=20000, help="clones per timing")
    parser.add_argument("--repeat", type=int, default=5, help="timings (median)")
    args = parser.parse_args(argv)
    print(f"compiled: {'yes' if compiled.active else 'no'}")
    for variant, players in CONFIGS:
        states = positions(variant, players, args.games)
        took = clone_time(states, args.number, args.repeat)
        print(f"{variant:8} {players}p  clone {took:6.2f} us")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
