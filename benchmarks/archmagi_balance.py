"""Win rate per Magi of Archmagi over many simulated games (the Magi balance measurement).

Usage::

    python benchmarks/archmagi_balance.py [--games 2000] [--players 4] [--agent greedy] [--seed 0]

The Magi are dealt to the seats at random from each game's seed, so over many seeds every Magi
sits in every seat; a shared win counts 1/k for each of k tied winners. Prints each Magi's win
rate with a 95% Wilson interval, its mean Favor, and the seat win rates (a seat check).
"""

from __future__ import annotations

import argparse
import sys
from collections import defaultdict

from rulebook.agents import agent_seed, make_agent
from rulebook.archmagi.rules import ArchmagiState
from rulebook.core import new_game
from rulebook.lab.stats import wilson
from rulebook.simulate import play


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--agent", default="greedy")
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    wins: dict[str, float] = defaultdict(float)
    seats: dict[str, int] = defaultdict(int)
    favor: dict[str, int] = defaultdict(int)
    seat_wins = [0.0] * args.players
    for g in range(args.games):
        seed = args.seed + g
        state = new_game("archmagi", players=args.players, seed=seed)
        assert isinstance(state, ArchmagiState)
        agents = [make_agent(args.agent, agent_seed(seed, p)) for p in range(args.players)]
        play(state, agents)
        returns = state.returns()
        for p, element in enumerate(state.magi):
            wins[element] += returns[p]
            seats[element] += 1
            favor[element] += state.favor(p)
            seat_wins[p] += returns[p]
    print(f"{args.games} games, {args.players} players, agent {args.agent}, seeds from {args.seed}")
    print(f"{'magi':<10} {'games':>6} {'win rate':>9} {'95% interval':>17} {'mean favor':>11}")
    for element in sorted(seats):
        n = seats[element]
        lo, hi = wilson(wins[element], n)
        rate = wins[element] / n
        print(
            f"{element:<10} {n:>6} {rate:>9.1%} {f'{lo:.1%} - {hi:.1%}':>17} "
            f"{favor[element] / n:>11.2f}"
        )
    print("seat win rates: " + ", ".join(f"{w / args.games:.1%}" for w in seat_wins))
    return 0


if __name__ == "__main__":
    sys.exit(main())
