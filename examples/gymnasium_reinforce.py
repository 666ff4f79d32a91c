"""A masked policy-gradient agent (REINFORCE, NumPy only) learning solo Merchants of Magick
through the Gymnasium adapter; it prints its mean score as it trains, then plays new games and
compares itself with random play on the same games.

    python examples/gymnasium_reinforce.py [--episodes 3000] [--lr 0.03] [--seed 0]

The policy is linear-softmax over the legal moves: logits = W @ [features, 1], the features
being the seat's observation tensor divided by its observation space's bounds (so in [-1, 1]),
illegal moves masked out. Solo games reward the final score (at the end only); each episode's
gradient is weighted by its score less a running mean, over a running standard deviation, and
applied with Adam. About a minute on one core.
"""

from __future__ import annotations

import argparse
import time
from collections.abc import Sequence

import gymnasium as gym
import numpy as np
import numpy.typing as npt

import rulebook
import rulebook.interop.gymnasium  # registers rulebook/MerchantsOfMagick-1p-v0, ...

ENV_ID = "rulebook/MerchantsOfMagick-1p-v0"
Array = npt.NDArray[np.float64]
Mask = npt.NDArray[np.int8]
Step = tuple[Array, Mask, int]


class Policy:
    """Linear softmax over the action vocabulary, masked to the legal moves, trained by Adam."""

    def __init__(self, bound: Array, actions: int, lr: float, rng: np.random.Generator) -> None:
        self.bound = bound
        self.w = np.zeros((actions, len(bound) + 1))
        self.lr = lr
        self.rng = rng
        self.m = np.zeros_like(self.w)
        self.v = np.zeros_like(self.w)
        self.updates = 0

    def features(self, observation: npt.NDArray[np.generic]) -> Array:
        return np.append(np.asarray(observation, dtype=np.float64) / self.bound, 1.0)

    def probabilities(self, x: Array, mask: Mask) -> Array:
        logits = np.where(mask == 1, self.w @ x, -np.inf)
        p = np.exp(logits - logits.max())
        return p / p.sum()

    def act(self, x: Array, mask: Mask, best: bool = False) -> int:
        if best:
            return int(np.argmax(np.where(mask == 1, self.w @ x, -np.inf)))
        return int(self.rng.choice(len(mask), p=self.probabilities(x, mask)))

    def learn(self, steps: list[Step], advantage: float) -> None:
        """One Adam step up ``advantage`` times the gradient of the episode's log-likelihood."""
        grad = np.zeros_like(self.w)
        for x, mask, action in steps:
            d = -self.probabilities(x, mask)
            d[action] += 1.0  # d log pi(action) / d logits
            grad += np.outer(d, x)
        grad *= advantage
        self.updates += 1
        self.m = 0.9 * self.m + 0.1 * grad
        self.v = 0.999 * self.v + 0.001 * grad * grad
        m = self.m / (1 - 0.9**self.updates)
        v = self.v / (1 - 0.999**self.updates)
        self.w += self.lr * m / (np.sqrt(v) + 1e-8)


def play(
    env: gym.Env,  # type: ignore[type-arg]
    policy: Policy | None,
    seed: int,
    rng: np.random.Generator,
    best: bool = False,
) -> tuple[list[Step], float]:
    """One game from ``seed``: the policy's steps and the final reward (the score); with no
    policy, uniformly random legal moves."""
    obs, _ = env.reset(seed=seed)
    steps: list[Step] = []
    total = 0.0
    while True:
        mask = obs["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            x = policy.features(obs["observation"])
            action = policy.act(x, mask, best)
            steps.append((x, mask, action))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += float(reward)
        if terminated or truncated:
            return steps, total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=3000)
    parser.add_argument("--lr", type=float, default=0.03)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--eval", type=int, default=100, help="new games to compare on")
    args = parser.parse_args(argv)
    if args.episodes < 1 or args.eval < 1 or args.lr <= 0:
        parser.error("--episodes and --eval must be at least 1, --lr positive")
    rng = np.random.default_rng(args.seed)
    env = gym.make(ENV_ID)
    space = env.observation_space["observation"]  # type: ignore[index]
    bound = np.maximum(np.abs(space.low), np.abs(space.high)).astype(np.float64)
    policy = Policy(bound, int(env.action_space.n), args.lr, rng)  # type: ignore[attr-defined]
    mean, variance, recent = 0.0, 100.0, []
    start = time.perf_counter()
    for episode in range(1, args.episodes + 1):
        steps, score = play(env, policy, args.seed * 1_000_000 + episode, rng)
        policy.learn(steps, (score - mean) / np.sqrt(variance))
        mean += 0.05 * (score - mean)
        variance += 0.05 * ((score - mean) ** 2 - variance)
        recent.append(score)
        if episode % 250 == 0 or episode == args.episodes:
            print(
                f"episode {episode:5}: mean score of the last {len(recent)} games "
                f"{np.mean(recent):5.1f}  ({time.perf_counter() - start:.0f} s)",
                flush=True,
            )
            recent = []
    # new games, never trained on: the same seeds for every player
    seeds = range(10**9, 10**9 + args.eval)
    random_play = np.mean([play(env, None, s, rng)[1] for s in seeds])
    sampled = np.mean([play(env, policy, s, rng)[1] for s in seeds])
    best = np.mean([play(env, policy, s, rng, best=True)[1] for s in seeds])
    print(f"{args.eval} new games: mean score of random play {random_play:.1f}, of the trained")
    print(f"policy {sampled:.1f} (sampling its moves), {best:.1f} (its most likely move)")
    env.close()
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except rulebook.RulebookError as exc:  # a configuration the adapters cannot serve
        raise SystemExit(f"error: {exc}") from None
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
