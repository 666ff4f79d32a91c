"""How long the bots take to decide: seconds per move of each agent, in every game.

Usage::

    python benchmarks/decision_time.py [--games 3] [--agents mcts,greedy] [--game NAME]
                                      [--players N] [--json FILE]

For each game (at its usual player count unless ``--players``) and each agent, plays
``--games`` seeded games with that agent in one seat (rotating) and greedy bots in the others,
in this one process on one core, and times each of the agent's decisions that had a choice
(more than one legal move) in CPU seconds of this process (``time.process_time``), so that a
busy machine does not inflate them. Prints the mean, the 95th percentile and the slowest
decision: the default ``mcts`` must decide in under 1 s per move (README "Bots").
"""

from __future__ import annotations

import argparse
import json
import statistics
import time
from pathlib import Path

import rulebook
from rulebook.agents import agent_seed, make_agent


def times(game: str, players: int, spec: str, games: int) -> list[float]:
    """Seconds per decision of ``spec`` over ``games`` games against greedy bots."""
    found: list[float] = []
    for index in range(games):
        seed = 90_000 + index
        state = rulebook.new_game(game, players, seed)
        me = index % players
        agents = [
            make_agent(spec if p == me else "greedy", agent_seed(seed, p)) for p in range(players)
        ]
        while not state.is_terminal():
            seat = state.current_players()[0]
            choice = len(state.legal_actions(seat)) > 1
            start = time.process_time()
            action = agents[seat].act(state, seat)
            if seat == me and choice:
                found.append(time.process_time() - start)
            state.apply(seat, action)
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3)
    parser.add_argument("--agents", default="mcts,greedy")
    parser.add_argument("--game", default=None)
    parser.add_argument("--players", type=int, default=None)
    parser.add_argument("--json", type=Path, default=None)
    args = parser.parse_args()
    names = [args.game] if args.game else rulebook.games()
    rows = []
    print(f"{'game':24} {'agent':8} {'moves':>6} {'mean s':>8} {'p95 s':>8} {'max s':>8}")
    for name in names:
        game = rulebook.get_game(name)
        players = args.players or game.common_players or game.variants[0].min_players
        for spec in args.agents.split(","):
            found = sorted(times(name, players, spec, args.games))
            p95 = found[min(len(found) - 1, int(0.95 * len(found)))]
            row = {
                "game": name,
                "players": players,
                "agent": spec,
                "moves": len(found),
                "mean": statistics.fmean(found),
                "p95": p95,
                "max": found[-1],
            }
            rows.append(row)
            print(
                f"{name:24} {spec:8} {row['moves']:6} {row['mean']:8.3f} {p95:8.3f} "
                f"{found[-1]:8.3f}",
                flush=True,
            )
    if args.json is not None:
        args.json.write_text(json.dumps(rows, indent=2), encoding="utf-8")


if __name__ == "__main__":
    main()
