"""Fit Archmagi's evaluation: the Favor a seat will still gain, from its position.

Usage::

    python benchmarks/archmagi_fit.py [--games 600] [--epsilon 0.15] [--seed 0]
        [--iterations 10] [--write]

Plays ``--games`` 4-player games in which every seat moves like the greedy bot except that a
share ``--epsilon`` of moves is random (for varied positions), records each seat's features at
every move (:func:`rulebook.archmagi.bots.features`) and the Favor it gained after that
move, and fits least squares per Round (NumPy).

A fit depends on the bot whose games it is fitted on, and the bot on the fit: fitted once on
the games of the weights before it, the weights and the Magi balance alternated (a 2-cycle,
docs/archmagi.md "Magi balance"). So the fit is iterated to a damped fixed point that depends
only on the data files and these arguments, not on the weights in ``bots.py``: it starts from
Favor alone (all weights 0); iteration k plays ``--games`` new seeds (``--seed`` +
(k-1) x ``--games`` onwards) with the current weights, fits, and the new weights are the mean
of the k fits so far (a step of 1/k towards the latest fit, as in fictitious play: stochastic
approximation with steps 1/k settles where the undamped iterates alternate, and the sampling
noise of the fits averages out over all the iterations' games; with the same seeds in every
iteration it did not, and two seeds' fits moved a Magi's greedy win rate by 6 points).
Prints each iteration's largest weight change and the last iteration's R^2 per Round, then
the weights; ``--write`` also replaces ``WEIGHTS`` in ``src/rulebook/archmagi/bots.py`` with them.
"""

from __future__ import annotations

import argparse
import random
import re
from pathlib import Path

import numpy as np

import rulebook
from rulebook.archmagi import bots
from rulebook.archmagi.bots import FEATURES, features
from rulebook.core.policy import greedy_move

BOTS = Path(__file__).resolve().parents[1] / "src" / "rulebook" / "archmagi" / "bots.py"
ROUNDS = (1, 2, 3, 4, 5)

Weights = dict[int, tuple[float, ...]]


def fit_once(games: int, epsilon: float, seed: int) -> tuple[Weights, dict[int, str]]:
    """Least squares on ``games`` games played with the current :data:`bots.WEIGHTS`."""
    rng = random.Random(seed)
    rows: dict[int, list[tuple[list[float], int]]] = {}
    for g in range(games):
        state = rulebook.new_game("archmagi", 4, seed + g)
        seen: list[tuple[int, int, list[float], int]] = []
        while not state.is_terminal():
            seat = state.current_players()[0]
            if rng.random() < epsilon:
                action = rng.choice(state.legal_actions(seat))
            else:
                action = greedy_move(state, seat, rng)
            state.apply(seat, action)
            for p in range(4):
                key, x = features(state, p)
                seen.append((key, p, x, state.favor(p)))  # type: ignore[attr-defined]
        final = state.scores()
        for key, p, x, favor in seen:
            rows.setdefault(key, []).append((x, final[p] - favor))
    weights: Weights = {}
    notes: dict[int, str] = {}
    for key in ROUNDS:
        xs = np.array([x for x, _ in rows[key]], dtype=float)
        ys = np.array([y for _, y in rows[key]], dtype=float)
        w, *_ = np.linalg.lstsq(xs, ys, rcond=None)
        pred = xs @ w
        r2 = 1 - ((ys - pred) ** 2).sum() / max(((ys - ys.mean()) ** 2).sum(), 1e-9)
        weights[key] = tuple(float(v) for v in w)
        notes[key] = f"R^2 {r2:.2f}"
        print(f"  Round {key}: {len(ys)} positions, R^2 {r2:.2f}")
    return weights, notes


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=600)
    parser.add_argument("--epsilon", type=float, default=0.15)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--iterations", type=int, default=10)
    parser.add_argument("--write", action="store_true", help="replace WEIGHTS in bots.py")
    args = parser.parse_args()
    if args.games < 1 or args.iterations < 1:
        parser.error("--games and --iterations must be at least 1")
    current: Weights = {key: (0.0,) * len(FEATURES) for key in ROUNDS}
    notes: dict[int, str] = {}
    for it in range(1, args.iterations + 1):
        bots.WEIGHTS.clear()
        bots.WEIGHTS.update(current)
        fitted, notes = fit_once(args.games, args.epsilon, args.seed + (it - 1) * args.games)
        step = {
            key: tuple(c + (f - c) / it for c, f in zip(current[key], fitted[key], strict=True))
            for key in ROUNDS
        }
        moved = [
            abs(a - b)
            for key in ROUNDS
            for a, b in zip(step[key][1:], current[key][1:], strict=True)
        ]
        print(f"iteration {it}: largest change of a weight (constants aside) {max(moved):.3f}")
        current = step
    print(f"features: {FEATURES}")
    lines = ["WEIGHTS: dict[int, tuple[float, ...]] = {"]
    for key in ROUNDS:
        weights = ", ".join(f"{v:.3f}" for v in current[key])
        lines.append(f"    {key}: ({weights}),  # {notes[key]}")
    lines.append("}")
    block = "\n".join(lines)
    print(block)
    if args.write:
        text = BOTS.read_text()
        new, n = re.subn(r"^WEIGHTS: dict\[.*?^}\n", block + "\n", text, flags=re.M | re.S)
        if n != 1:
            raise SystemExit(f"no WEIGHTS block found in {BOTS}")
        BOTS.write_text(new)
        print(f"written to {BOTS}")


if __name__ == "__main__":
    main()
