"""A masked policy-gradient agent (REINFORCE with a baseline, NumPy only) learning solo
Merchants of Magick through the Gymnasium adapter; it prints its mean score against a random
player's as it trains.

    python examples/gymnasium_reinforce.py [--episodes 400] [--seed 0]

The policy is linear-softmax over the legal moves: logits = W @ features + b, where the features
are the seat's observation tensor scaled to [0, 1] per feature, and illegal moves are masked out.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import gymnasium as gym
import numpy as np
import numpy.typing as npt

import rulebook
import rulebook.interop.gymnasium

ENV_ID = "rulebook/MerchantsOfMagick-1p-v0"
Array = npt.NDArray[np.float64]


class Policy:
    """Linear softmax over the action vocabulary, masked to the legal moves."""

    def __init__(self, features: int, actions: int, rng: np.random.Generator) -> None:
        self.w = np.zeros((actions, features))
        self.b = np.zeros(actions)
        self.rng = rng
        self.scale = np.ones(features)

    def features(self, observation: npt.NDArray[np.generic]) -> Array:
        x = np.asarray(observation, dtype=np.float64).reshape(-1)
        self.scale = np.maximum(self.scale, np.abs(x))  # running scale, so inputs stay in [-1, 1]
        return x / self.scale

    def probabilities(self, x: Array, mask: npt.NDArray[np.int8]) -> Array:
        logits = self.w @ x + self.b
        logits = np.where(mask == 1, logits, -np.inf)
        logits -= logits.max()
        p = np.exp(logits)
        return p / p.sum()

    def act(self, x: Array, mask: npt.NDArray[np.int8]) -> int:
        return int(self.rng.choice(len(mask), p=self.probabilities(x, mask)))


def play(env: gym.Env, policy: Policy | None, seed: int, rng: np.random.Generator) -> tuple:  # type: ignore[type-arg]
    """One game; the steps taken (features, mask, action) and the final reward (the score)."""
    obs, _ = env.reset(seed=seed)
    steps, total = [], 0.0
    while True:
        mask = obs["action_mask"]
        if policy is None:
            action = int(rng.choice(np.flatnonzero(mask)))
        else:
            x = policy.features(obs["observation"])
            action = policy.act(x, mask)
            steps.append((x, mask, action))
        obs, reward, terminated, truncated, _ = env.step(action)
        total += float(reward)
        if terminated or truncated:
            return steps, total


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--episodes", type=int, default=400)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--lr", type=float, default=0.05)
    args = parser.parse_args(argv)
    rng = np.random.default_rng(args.seed)
    env = gym.make(ENV_ID)
    n_features = int(np.prod(env.observation_space["observation"].shape))
    policy = Policy(n_features, int(env.action_space.n), rng)
    random_scores = [play(env, None, 10_000 + i, rng)[1] for i in range(50)]
    print(f"random play: mean score {np.mean(random_scores):.1f} over 50 games")
    baseline, recent = 0.0, []
    for episode in range(1, args.episodes + 1):
        steps, score = play(env, policy, episode, rng)
        baseline = score if episode == 1 else 0.95 * baseline + 0.05 * score
        advantage = (score - baseline) / 10.0
        for x, mask, action in steps:
            p = policy.probabilities(x, mask)
            grad = -p
            grad[action] += 1.0  # d log pi(action) / d logits
            policy.w += args.lr * advantage * np.outer(grad, x)
            policy.b += args.lr * advantage * grad
        recent.append(score)
        if episode % 50 == 0:
            print(f"episode {episode}: mean score of the last 50 games {np.mean(recent):.1f}")
            recent = []
    greedy_eval = [play(env, policy, 20_000 + i, rng)[1] for i in range(50)]
    print(
        f"trained policy: mean score {np.mean(greedy_eval):.1f} over 50 new games "
        f"(random: {np.mean(random_scores):.1f})"
    )
    env.close()
    return 0


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except rulebook.RulebookError as exc:  # a configuration the adapters cannot serve
        raise SystemExit(f"error: {exc}") from None
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
