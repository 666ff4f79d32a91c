"""Any opponent in Gymnasium, and N games a call: a learner (masked random here) against a pool
of opponents drawn at every reset, then the batched environment in self-play.

    python examples/gymnasium_opponents.py [--game battle-merchants] [--episodes 6] [--envs 16]

The pool holds a rulebook bot by its spec, a plain function of the observation (as a frozen
snapshot of a learner's policy would be) and an object with ``act(obs)``; ``info["opponents"]``
names who was drawn. The batched environment (``gym.make_vec``'s default for every rulebook id)
steps ``--envs`` games in one call and returns stacked arrays; with ``seat=None`` every seat
is the learner's and ``infos["seat"]`` says whose observation each row is.
"""

from __future__ import annotations

import argparse
from collections.abc import Sequence

import gymnasium as gym
import numpy as np

import rulebook
from rulebook.interop.batched import BatchedEnv, sample_masked
from rulebook.interop.common import Config
from rulebook.interop.gymnasium import env_id
from rulebook.interop.opponents import Pool

ObsDict = dict[str, np.ndarray]  # type: ignore[type-arg]


def first_legal(obs: ObsDict) -> int:
    """A policy on observations: the first legal move (a frozen snapshot stands here)."""
    return int(np.flatnonzero(obs["action_mask"])[0])


class LastLegal:
    """A policy object with act(obs)."""

    def act(self, obs: ObsDict) -> int:
        return int(np.flatnonzero(obs["action_mask"])[-1])


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", default="battle-merchants", choices=rulebook.games())
    parser.add_argument("--players", type=int, default=2)
    parser.add_argument("--episodes", type=int, default=6)
    parser.add_argument("--envs", type=int, default=16)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args(argv)
    pool = Pool(["greedy", first_legal, LastLegal()], weights=[2, 1, 1])
    env = gym.make(env_id(Config.of(args.game, args.players)), opponents=pool)
    rng = np.random.default_rng(args.seed)
    for episode in range(args.episodes):
        obs, _ = env.reset(seed=args.seed + episode)
        steps = 0
        while True:
            action = int(rng.choice(np.flatnonzero(obs["action_mask"])))
            obs, reward, terminated, truncated, _ = env.step(action)
            steps += 1
            if terminated or truncated:
                break
        print(f"episode {episode}: against {info_opponents(env)}: {steps} steps, reward {reward}")

    batched = BatchedEnv(args.game, args.players, num_envs=args.envs, seat=None)
    obs, _ = batched.reset(seed=args.seed)
    ended = 0
    for _ in range(200):
        masks = obs["action_mask"]
        actions = sample_masked(masks, rng)  # a random legal index per game
        obs, _, terminated, _, _ = batched.step(actions)
        ended += int(terminated.sum())
    print(
        f"batched self-play: {args.envs} games a call, observations {obs['observation'].shape}, "
        f"masks {obs['action_mask'].shape}, {ended} games ended in 200 calls"
    )
    return 0


def info_opponents(env: gym.Env) -> str:  # type: ignore[type-arg]
    players = env.unwrapped.players  # type: ignore[attr-defined]
    return ", ".join(f"seat {p}: {player.name}" for p, player in players.items())


if __name__ == "__main__":
    try:
        raise SystemExit(main())
    except KeyboardInterrupt:
        raise SystemExit("interrupted") from None
