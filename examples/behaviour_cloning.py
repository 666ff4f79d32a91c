"""Behaviour cloning of the ``greedy`` bot from recorded games, with NumPy alone.

1. Record ``--games`` games of ``greedy`` against itself (``rulebook.interop.dataset.record``,
   as ``rulebook record GAME -p 2 -n 400 --agents greedy --out FILE`` does), in parallel.
2. Fit a linear policy to the decisions: multinomial logistic regression over the legal moves
   (a masked softmax of ``W x + b``), by Adam on mini-batches, holding out the last tenth of
   the games to measure how often it picks greedy's move.
3. Play the cloned policy (its most likely legal move) as a Gymnasium learner against
   ``random`` and against ``greedy``, ``--eval`` games each, alternating its seat, and report
   its share of the wins with a 95% interval.

Run: ``.venv/bin/python examples/behaviour_cloning.py`` (Archmagi, ``--games 300 --eval 100``
by default: a minute or two; ``RULEBOOK_COMPILED=1`` after ``make compiled`` makes the bots
faster; ``--game`` takes any game). Every step is seeded: a run repeats exactly.
"""

from __future__ import annotations

import argparse
import math
import os
import tempfile
import time
from collections.abc import Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

from rulebook.interop.common import Config
from rulebook.interop.dataset import Decisions, Recording, load, record
from rulebook.interop.gymnasium import RulebookEnv

Array = npt.NDArray[np.float32]


def masked_softmax(logits: Array, masks: npt.NDArray[np.bool_]) -> Array:
    z = np.where(masks, logits, -np.inf)
    z -= z.max(axis=1, keepdims=True)
    e = np.exp(z)
    return e / e.sum(axis=1, keepdims=True)


class LinearPolicy:
    """``softmax(W x + b)`` over the legal moves."""

    def __init__(self, inputs: int, actions: int) -> None:
        self.w = np.zeros((inputs, actions), np.float32)
        self.b = np.zeros(actions, np.float32)

    def logits(self, x: Array) -> Array:
        return x @ self.w + self.b

    def fit(
        self, data: Decisions, epochs: int, batch: int, rate: float, seed: int, l2: float = 1e-4
    ) -> list[float]:
        """Adam on the cross-entropy of the chosen moves; the mean loss of each epoch."""
        rng = np.random.default_rng(seed)
        x = data.observations
        params = [self.w, self.b]
        m = [np.zeros_like(p) for p in params]
        v = [np.zeros_like(p) for p in params]
        t, losses = 0, []
        for _ in range(epochs):
            order = rng.permutation(len(x))
            total = 0.0
            for start in range(0, len(x), batch):
                rows = order[start : start + batch]
                xb, mb, ab = x[rows], data.masks[rows], data.actions[rows]
                p = masked_softmax(self.logits(xb), mb)
                total += float(-np.log(p[np.arange(len(rows)), ab] + 1e-12).sum())
                p[np.arange(len(rows)), ab] -= 1.0  # d loss / d logits
                grads = [xb.T @ p / len(rows) + l2 * self.w, p.mean(axis=0)]
                t += 1
                for k, (param, grad) in enumerate(zip(params, grads, strict=True)):
                    m[k] = 0.9 * m[k] + 0.1 * grad
                    v[k] = 0.999 * v[k] + 0.001 * grad**2
                    step = m[k] / (1 - 0.9**t) / (np.sqrt(v[k] / (1 - 0.999**t)) + 1e-8)
                    param -= rate * step
            losses.append(total / len(x))
        return losses

    def accuracy(self, data: Decisions) -> float:
        p = masked_softmax(self.logits(data.observations), data.masks)
        return float((p.argmax(axis=1) == data.actions).mean())

    def __call__(self, obs: dict[str, npt.NDArray[np.float32]]) -> int:
        """The most likely legal move: a policy the Gymnasium environment plays."""
        logits = self.logits(obs["observation"][None])[0]
        return int(np.where(obs["action_mask"] > 0, logits, -np.inf).argmax())


def win_share(policy: LinearPolicy, game: str, opponent: str, games: int) -> tuple[float, float]:
    """The policy's mean share of the wins against ``opponent`` (seat 0 and 1 in turn), and
    the half-width of its 95% interval."""
    envs = [RulebookEnv(game, 2, seat=s, opponents=opponent) for s in (0, 1)]
    shares = []
    for i in range(games):
        env = envs[i % 2]
        obs, _ = env.reset(seed=10_000 + i)
        while True:
            obs, reward, terminated, truncated, _ = env.step(policy(obs))
            if terminated or truncated:
                shares.append(reward)
                break
    mean = float(np.mean(shares))
    return mean, 1.96 * float(np.std(shares)) / math.sqrt(len(shares))


def main(argv: Sequence[str] | None = None) -> dict[str, float]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="archmagi")
    parser.add_argument("--games", type=int, default=300, help="greedy games to record")
    parser.add_argument("--eval", type=int, default=100, help="games against each opponent")
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--workers", type=int, default=os.cpu_count() or 1)
    args = parser.parse_args(argv)
    start = time.perf_counter()
    with tempfile.TemporaryDirectory() as folder:
        out = Path(folder) / "greedy.parquet"
        recording = Recording(Config.of(args.game, 2), ("greedy", "greedy"), args.games, seed=0)
        record(recording, out, workers=args.workers)
        data = load(out)
    held_out = data.games >= args.games - max(1, args.games // 10)
    train = Decisions(**{k: v[~held_out] for k, v in vars(data).items()})
    test = Decisions(**{k: v[held_out] for k, v in vars(data).items()})
    print(
        f"{args.game}: {args.games} greedy games recorded, {len(train)} decisions to learn "
        f"from, {len(test)} held out ({time.perf_counter() - start:.0f} s)"
    )
    policy = LinearPolicy(data.observations.shape[1], data.masks.shape[1])
    losses = policy.fit(train, args.epochs, batch=256, rate=0.01, seed=0)
    print(f"cross-entropy by epoch: {' '.join(f'{x:.2f}' for x in losses)}")
    print(
        f"picks greedy's move: {policy.accuracy(train):.1%} of the training decisions, "
        f"{policy.accuracy(test):.1%} of the held-out games' "
        f"(a uniform choice among the legal moves: {np.mean(1 / test.masks.sum(axis=1)):.1%})"
    )
    results = {"accuracy": policy.accuracy(test)}
    for opponent in ("random", "greedy"):
        mean, half = win_share(policy, args.game, opponent, args.eval)
        results[opponent] = mean
        print(f"against {opponent}: share of the wins {mean:.1%} ± {half:.1%} ({args.eval} games)")
    print(f"{time.perf_counter() - start:.0f} s in all")
    return results


if __name__ == "__main__":
    main()
