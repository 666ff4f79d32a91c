"""How tall the terminal's turn screens are: every game, variant and player count, at every
decision of whole games between bots, rendered at 80 columns as a person would see them.

    python benchmarks/terminal_screens.py [--games N] [--agent greedy|random]

Prints, per configuration, the decisions seen, the tallest screen (lines, the prompt
included) and how many screens were over 40 lines; and, for the 80x24 terminal, how many
screens did not hold the dice (where the game has dice) and every move in their last 23 lines.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "tests"))

from screens import configurations, screen_lines, walk


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--agent", default="greedy")
    args = parser.parse_args()
    print(f"{'configuration':<42} {'screens':>7} {'tallest':>7} {'>40':>4} {'80x24 misses':>12}")
    for config in configurations():
        count = tallest = over = misses = 0
        for seed in range(args.games):
            for screen in walk(config, seed, args.agent, every=1):
                lines, last_screen_ok = screen_lines(screen)
                count += 1
                tallest = max(tallest, len(lines) + 1)
                over += len(lines) + 1 > 40
                misses += not last_screen_ok
        print(f"{config.label:<42} {count:>7} {tallest:>7} {over:>4} {misses:>12}")


if __name__ == "__main__":
    main()
