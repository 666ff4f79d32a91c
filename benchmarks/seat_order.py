"""Does a seat's win rate depend on when it moves in a simultaneous phase? (Merchants of Magick)

Usage::

    python benchmarks/seat_order.py [--games 600] [--players 4] [--agent greedy] [--last-first]

Plays greedy games the way :func:`rulebook.simulate.play` does (in a simultaneous phase the
lowest seat that may act moves first), or with ``--last-first`` the highest seat first, and
prints each seat's win rate (95% Wilson interval) and mean points per score category. The seat
that acts last in the Crafting phase is the one whose one-step lookahead crosses the end of the
round (the Mastery phase scores, the customers move): it is the seat that plays differently.
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from rulebook.agents import agent_seed, make_agent
from rulebook.core import new_game
from rulebook.lab.stats import wilson


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="merchants-of-magick")
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--last-first", action="store_true")
    args = parser.parse_args(argv)
    n = args.players
    wins = [0.0] * n
    points: dict[str, list[float]] = defaultdict(lambda: [0.0] * n)
    for g in range(args.games):
        seed = args.seed + g
        state = new_game(args.game, n, seed)
        agents = [make_agent(args.agent, agent_seed(seed, p)) for p in range(n)]
        while not state.is_terminal():
            acting = state.current_players()
            seat = acting[-1] if args.last_first else acting[0]
            state.apply(seat, agents[seat].act(state, seat))
        for p, share in enumerate(state.returns()):
            wins[p] += share
            for category, value in state.score_breakdown(p).items():
                points[category][p] += value / args.games
    order = "highest seat first" if args.last_first else "lowest seat first"
    print(f"{args.games} games of {args.game}, {n} x {args.agent}, simultaneous phases: {order}")
    for p in range(n):
        low, high = wilson(wins[p], args.games)
        print(f"seat {p}: {wins[p] / args.games:.1%} ({low:.1%}-{high:.1%})")
    for category, values in points.items():
        print(f"{category:>22}: " + "  ".join(f"{v:6.2f}" for v in values))
    return 0


if __name__ == "__main__":
    sys.exit(main())
