"""How big each game's tree is, and so why tabular CFR cannot finish one iteration.

Usage::

    python benchmarks/tree_size.py [--playouts 200] [--players 2] [--game NAME ...]

Knuth's estimator (:func:`rulebook.interop.openspiel.tree_size`) over uniformly random
playouts through the OpenSpiel adapter, chance nodes included: the number of histories (the
nodes a tabular CFR iteration visits, each once, and that OpenSpiel's ``CFRSolver``
enumerates when it is built) and of terminal histories, as powers of ten; and what visiting
them would take at the adapter's measured rate of nodes per second in the same run.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence

import pyspiel

import rulebook
from rulebook.interop.openspiel import short_name, tree_size

#: seconds in a year, for the time a CFR iteration would take
YEAR = 365.25 * 24 * 3600


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--playouts", type=int, default=200)
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--game", action="append", choices=rulebook.games())
    args = parser.parse_args(argv)
    if args.playouts < 1:
        parser.error("--playouts must be at least 1")
    print(f"Knuth's estimate over {args.playouts} random playouts per game, {args.players} players")
    header = f"{'game':24} {'histories':>11} {'terminal':>10} {'nodes/game':>10}"
    print(f"{header} {'nodes/s':>9} {'one CFR iteration':>20}")
    for game in args.game or rulebook.games():
        loaded = pyspiel.load_game(short_name(game), {"players": args.players})
        start = time.process_time()
        size = tree_size(loaded, args.playouts, seed=0)
        rate = size.length * size.playouts / (time.process_time() - start)
        years = size.log10_histories - math.log10(rate) - math.log10(YEAR)
        print(
            f"{game:24} {f'10^{size.log10_histories:.0f}':>11} "
            f"{f'10^{size.log10_terminals:.0f}':>10} {size.length:>10.0f} {rate:>9,.0f} "
            f"{f'10^{years:.0f} years':>20}"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
