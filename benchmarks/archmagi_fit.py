"""Fit Archmagi's evaluation: the Favor a seat will still gain, from its position.

Usage::

    python benchmarks/archmagi_fit.py [--games 600] [--epsilon 0.15] [--seed 0]

Plays ``--games`` 4-player games in which every seat moves like the greedy bot except that a
share ``--epsilon`` of moves is random (for varied positions), records each seat's features at
every move (:func:`rulebook.archmagi.bots.features`) and the Favor it gained after that
move, and fits least squares per Round (NumPy). Prints the weights to paste into
``rulebook/archmagi/bots.py`` (``WEIGHTS``) and each Round's R^2.
"""

from __future__ import annotations

import argparse
import random

import numpy as np

import rulebook
from rulebook.archmagi.bots import FEATURES, features
from rulebook.core.policy import greedy_move


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--epsilon", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    rng = random.Random(args.seed)
    rows: dict[int, list[tuple[list[float], int, int]]] = {}
    for g in range(args.games):
        state = rulebook.new_game("archmagi", 4, args.seed + g)
        seen: list[tuple[int, int, list[float], int]] = []
        while not state.is_terminal():
            seat = state.current_players()[0]
            if rng.random() < args.epsilon:
                action = rng.choice(state.legal_actions(seat))
            else:
                action = greedy_move(state, seat, rng)
            state.apply(seat, action)
            for p in range(4):
                key, x = features(state, p)
                seen.append((key, p, x, state.favor(p)))  # type: ignore[attr-defined]
        final = state.scores()
        for key, p, x, favor in seen:
            rows.setdefault(key, []).append((x, p, final[p] - favor))
    print(f"features: {FEATURES}")
    print("WEIGHTS = {")
    for key in sorted(rows):
        xs = np.array([x for x, _, _ in rows[key]], dtype=float)
        ys = np.array([y for _, _, y in rows[key]], dtype=float)
        w, *_ = np.linalg.lstsq(xs, ys, rcond=None)
        pred = xs @ w
        r2 = 1 - ((ys - pred) ** 2).sum() / max(((ys - ys.mean()) ** 2).sum(), 1e-9)
        weights = ", ".join(f"{v:.3f}" for v in w)
        print(f"    {key}: ({weights}),  # R^2 {r2:.2f}, {len(ys)} positions")
    print("}")


if __name__ == "__main__":
    main()
