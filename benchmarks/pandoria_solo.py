"""Pandoria Merchants solo balance: greedy against the Trolls at every level.

Greedy makes the same moves at every level (a level changes only the Trolls' values for the
7th and 8th Territories, a constant in greedy's evaluation), so one set of games gives all
three: ``python benchmarks/pandoria_solo.py 300``.
"""

from __future__ import annotations

import statistics
import sys

from rulebook.agents.greedy import GreedyAgent
from rulebook.pandoria_merchants import GAME
from rulebook.pandoria_merchants.content import content
from rulebook.pandoria_merchants.rules import PandoriaState


def main(games: int) -> None:
    mine: list[int] = []
    trolls: list[int] = []
    for seed in range(games):
        state = PandoriaState(GAME, GAME.setup(1, seed, "solo", {"level": "beginner"}))
        agent = GreedyAgent(seed)
        while not state.is_terminal():
            state.apply(0, agent.act(state, 0))
        mine.append(state.scores()[0])
        trolls.append(state.trolls_total())
    base = sum(content().solo.last["beginner"])
    margins = [m - t for m, t in zip(mine, trolls, strict=True)]
    print(f"{games} games: your mean score {statistics.mean(mine):.1f}")
    for level, last in content().solo.last.items():
        extra = sum(last) - base
        wins = sum(margin > extra for margin in margins) / games
        print(f"{level:>12}: Trolls {statistics.mean(trolls) + extra:.1f}, greedy wins {wins:.0%}")


if __name__ == "__main__":
    main(int(sys.argv[1]) if len(sys.argv) > 1 else 100)
